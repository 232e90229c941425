//! Normalised [`HookResponse`] → the stdout Copilot CLI reads.
//!
//! Copilot CLI reads a top-level `additionalContext` (and ignores `hookSpecificOutput` for every
//! event and both naming styles, as a real run showed); PreToolUse takes `permissionDecision` and
//! `permissionDecisionReason`. Everything is one JSON object with exit 0; an answer with nothing to
//! say prints nothing.

use memory_core::{Decision, EventKind, HookResponse, Rendered, Support, truncate_markdown};
use serde::Serialize;

use crate::CONTEXT_CAP;

/// Reason given when a block comes without one.
const DEFAULT_REASON: &str = "Blocked by agent-memory.";

/// What a hook prints (exit 0). Absent fields are not printed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct HookOutput {
    /// Text added to the model's context.
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_context: Option<String>,
    /// PreToolUse: `allow` or `deny`.
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision: Option<&'static str>,
    /// PreToolUse: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision_reason: Option<String>,
}

/// What Copilot CLI honours in an answer to each event.
///
/// Context at SessionStart and UserPromptSubmit reached the model in a real run (Copilot CLI
/// 1.0.102), and a PreToolUse deny stopped the call. Copilot has no user-only message.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block) = match kind {
        EventKind::SessionStart | EventKind::UserPromptSubmit => (true, false),
        EventKind::PreToolUse => (false, true),
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
        out.additional_context = Some(cap(context));
    }
    if *kind == EventKind::PreToolUse {
        match &response.decision {
            Decision::Block { reason } if can.block => {
                out.permission_decision = Some("deny");
                out.permission_decision_reason =
                    Some(cap(if reason.trim().is_empty() { DEFAULT_REASON } else { reason }));
            }
            Decision::Allow { reason } => {
                out.permission_decision = Some("allow");
                out.permission_decision_reason = reason.as_deref().map(cap);
            }
            _ => {}
        }
    }
    if out.additional_context.is_none() && out.permission_decision.is_none() {
        return Rendered::ok("");
    }
    Rendered::ok(serde_json::to_string(&out).expect("hook output always serialises"))
}
