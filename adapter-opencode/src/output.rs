//! Normalised [`HookResponse`] → the answer our plugin reads.
//!
//! One JSON object with exit 0, or nothing: `context` (notes for the model) and `block` (why a
//! tool call must not run). The plugin gives a session start's context before the session's first
//! prompt and a prompt's context after it, in every model request (OpenCode's
//! `experimental.chat.messages.transform`), appends a tool call's context to the call's result,
//! and throws a block's reason from `tool.execute.before`, which stops the call and shows the
//! model the reason.

use memory_core::{Decision, EventKind, HookResponse, Rendered, Support, truncate_markdown};
use serde::Serialize;

use crate::CONTEXT_CAP;

/// Reason given when a block comes without one.
const DEFAULT_REASON: &str = "Blocked by agent-memory.";

/// What a hook prints (exit 0). Absent fields are not printed.
#[derive(Debug, Default, Serialize)]
struct HookOutput {
    /// Notes for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    /// PreToolUse: why the call must not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    block: Option<String>,
}

/// What the plugin does with an answer to each event; a real OpenCode 1.18.33 run showed each.
///
/// Context at a session start and a prompt reaches the model with the prompt; at PreToolUse it
/// reaches it with the call's result (OpenCode offers no way to speak before a call runs but to stop
/// it). A block stops a tool call. The plugin blocks no prompt and shows nothing to the user alone.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block) = match kind {
        EventKind::SessionStart | EventKind::UserPromptSubmit => (true, false),
        EventKind::PreToolUse => (true, true),
        _ => (false, false),
    };
    Support { context, block, user_message: false }
}

/// Renders an answer for one event.
pub(crate) fn render(kind: &EventKind, response: &HookResponse) -> Rendered {
    let can = support(kind);
    let cap = |text: &str| truncate_markdown(text, CONTEXT_CAP).into_owned();
    let mut out = HookOutput::default();
    if can.context
        && let Some(context) = response.context.as_deref().filter(|c| !c.trim().is_empty())
    {
        out.context = Some(cap(context));
    }
    if let Decision::Block { reason } = &response.decision
        && can.block
    {
        out.block = Some(cap(if reason.trim().is_empty() { DEFAULT_REASON } else { reason }));
    }
    if out.context.is_none() && out.block.is_none() {
        return Rendered::ok("");
    }
    Rendered::ok(serde_json::to_string(&out).expect("hook output always serialises"))
}
