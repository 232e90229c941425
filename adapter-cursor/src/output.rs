//! Normalised [`HookResponse`] → the stdout Cursor accepts for each event.
//!
//! Cursor wants a JSON object on every path, so an answer with nothing to say prints `{}`. Each
//! event gets only the fields its output schema lists; everything is printed with exit 0.

use memory_core::{Decision, EventKind, HookResponse, Rendered, Support, truncate_markdown};

use crate::CONTEXT_CAP;
use crate::wire::HookOutput;

/// Reason given when a block comes without one.
const DEFAULT_REASON: &str = "Blocked by agent-memory.";

/// What Cursor honours in an answer to each kind (hooks reference, "Events").
///
/// Several Cursor events share a kind (`preToolUse`, `beforeShellExecution` and
/// `beforeMCPExecution` are all [`EventKind::PreToolUse`]), so each kind offers only what every one
/// of its events accepts. `postToolUse.additional_context` is left out: it is reported not to reach
/// the model, and `afterShellExecution`/`afterMCPExecution` accept no output at all.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block, user_message) = match kind.as_str() {
        // Injected into the conversation's initial system context (reliability varies by release).
        "SessionStart" => (true, false, false),
        // beforeSubmitPrompt: allow or block only; no context reaches the model.
        "UserPromptSubmit" => (false, true, false),
        // permission deny, with the reason shown to the user and the agent.
        "PreToolUse" | "SubagentStart" | "beforeReadFile" | "beforeTabFileRead" => (false, true, false),
        // A block becomes `followup_message`: the agent keeps going with the reason as next prompt.
        "Stop" | "SubagentStop" => (false, true, false),
        "PreCompact" => (false, false, true),
        _ => (false, false, false),
    };
    Support { context, block, user_message }
}

/// Renders an answer for one event.
pub(crate) fn render(kind: &EventKind, response: &HookResponse) -> Rendered {
    let name = kind.as_str();
    let can = support(kind);
    let cap = |text: &str| truncate_markdown(text, CONTEXT_CAP).into_owned();
    let block_reason = match &response.decision {
        Decision::Block { reason } if can.block => {
            Some(cap(if reason.trim().is_empty() { DEFAULT_REASON } else { reason }))
        }
        _ => None,
    };
    let allow = matches!(response.decision, Decision::Allow { .. });
    let mut out = HookOutput::default();
    match name {
        "SessionStart" => {
            out.additional_context = response.context.as_deref().filter(|c| !c.trim().is_empty()).map(cap);
        }
        "UserPromptSubmit" => {
            out.continue_ = Some(block_reason.is_none());
            out.user_message = block_reason;
        }
        "PreToolUse" => {
            if let Some(reason) = block_reason {
                out.permission = Some("deny");
                out.user_message = Some(reason.clone());
                out.agent_message = Some(reason);
            } else if allow {
                out.permission = Some("allow");
            }
        }
        "SubagentStart" | "beforeReadFile" => {
            if let Some(reason) = block_reason {
                out.permission = Some("deny");
                out.user_message = Some(reason);
            } else if allow {
                out.permission = Some("allow");
            }
        }
        "beforeTabFileRead" => {
            out.permission = block_reason.map(|_| "deny").or(allow.then_some("allow"));
        }
        "Stop" | "SubagentStop" => out.followup_message = block_reason,
        "PreCompact" => {
            out.user_message = response.user_message.as_deref().filter(|m| !m.trim().is_empty()).map(cap);
        }
        _ => {}
    }
    Rendered::ok(serde_json::to_string(&out).expect("hook output always serialises"))
}

/// The answer that changes nothing: `{}`.
pub(crate) fn noop() -> Rendered {
    Rendered::ok("{}")
}
