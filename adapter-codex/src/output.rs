//! Normalised [`HookResponse`] → the stdout Codex accepts for each event.
//!
//! Codex parses any stdout that starts with `{` or `[` against the event's strict output schema and
//! marks the hook Failed on any unknown key, so each event gets only the keys its schema lists.
//! Plain text is never printed (context starting with `[` would be taken for JSON), exit 2 is never
//! used, and an answer with nothing to say prints nothing.

use memory_core::{Decision, EventKind, HookResponse, Rendered, Support, truncate_markdown};

use crate::CONTEXT_CAP;
use crate::wire::{HookOutput, HookSpecificOutput, PermissionDecision};

/// Reason given when a block comes without one (Codex fails a block with an empty reason).
const DEFAULT_REASON: &str = "Blocked by agent-memory.";

/// What Codex honours in an answer to each event (hooks reference, "Events" and "Output").
///
/// `user_message` is `systemMessage`: a warning in the TUI and the event stream (`codex exec` does
/// not print it), never seen by the model.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block, user_message) = match kind.as_str() {
        "SessionStart" => (true, false, true),
        "SubagentStart" => (true, false, false),
        "UserPromptSubmit" | "PreToolUse" => (true, true, true),
        "PostToolUse" => (true, false, true),
        "PermissionRequest" | "Stop" | "SubagentStop" => (false, true, true),
        // PreCompact, PostCompact, SessionEnd, Interrupt and unknown events: nothing reaches the
        // model and nothing can be stopped.
        _ => (false, false, false),
    };
    Support { context, block, user_message }
}

/// Renders an answer for one event.
pub(crate) fn render(kind: &EventKind, response: &HookResponse) -> Rendered {
    let name = kind.as_str();
    let can = support(kind);
    let cap = |text: &str| truncate_markdown(text, CONTEXT_CAP).into_owned();
    let mut out = HookOutput::default();
    let mut specific = HookSpecificOutput::new(name);

    if can.context
        && let Some(context) = response.context.as_deref().filter(|c| !c.trim().is_empty())
    {
        specific.additional_context = Some(cap(context));
    }
    match &response.decision {
        Decision::Block { reason } if can.block => {
            let reason = cap(if reason.trim().is_empty() { DEFAULT_REASON } else { reason });
            match name {
                "PreToolUse" => {
                    specific.permission_decision = Some("deny");
                    specific.permission_decision_reason = Some(reason);
                }
                "PermissionRequest" => {
                    specific.decision = Some(PermissionDecision { behavior: "deny", message: Some(reason) });
                }
                _ => {
                    out.decision = Some("block");
                    out.reason = Some(reason);
                }
            }
        }
        Decision::Allow { reason } => match name {
            "PreToolUse" => {
                specific.permission_decision = Some("allow");
                specific.permission_decision_reason = reason.as_deref().map(cap);
            }
            "PermissionRequest" => {
                specific.decision = Some(PermissionDecision { behavior: "allow", message: None });
            }
            _ => {}
        },
        _ => {}
    }
    if can.user_message
        && let Some(message) = response.user_message.as_deref().filter(|m| !m.trim().is_empty())
    {
        out.system_message = Some(cap(message));
    }
    if !specific.is_empty() {
        out.hook_specific_output = Some(specific);
    }
    if out.is_empty() {
        return Rendered::ok("");
    }
    Rendered::ok(serde_json::to_string(&out).expect("hook output always serialises"))
}
