//! Normalised [`HookResponse`] → the stdout Cline reads from a hook file.
//!
//! Cline parses stdout as one JSON object `{cancel, contextModification, errorMessage}` (or the
//! last line starting `HOOK_CONTROL\t`); empty stdout is no answer. Everything is printed with
//! exit 0, and an answer with nothing to say prints nothing.

use memory_core::{Decision, EventKind, HookResponse, Rendered, Support, truncate_markdown};

use crate::CONTEXT_CAP;
use crate::wire::HookOutput;

/// Reason given when a block comes without one.
const DEFAULT_REASON: &str = "Blocked by agent-memory.";

/// What Cline honours in an answer to each kind.
///
/// Only the tool events wait for the hook (Cline 3.0.65): `contextModification` from PreToolUse
/// and PostToolUse reaches the model as a user message after the tool's result, and `cancel` at
/// PreToolUse stops the call and ends the run. TaskStart, TaskResume, UserPromptSubmit and the end
/// events run detached with their output ignored, so the session's notes reach the model through
/// the rules file instead (see [`crate::RULES_FILE`]).
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block) = match kind {
        EventKind::PreToolUse => (true, true),
        EventKind::PostToolUse | EventKind::PostToolUseFailure => (true, false),
        _ => (false, false),
    };
    Support { context, block, user_message: false }
}

/// Renders an answer for one event.
pub(crate) fn render(kind: &EventKind, response: &HookResponse) -> Rendered {
    let can = support(kind);
    let cap = |text: &str| truncate_markdown(text, CONTEXT_CAP).into_owned();
    let mut out = HookOutput::default();
    match &response.decision {
        Decision::Block { reason } if can.block => {
            out.cancel = Some(true);
            out.error_message = Some(cap(if reason.trim().is_empty() { DEFAULT_REASON } else { reason }));
        }
        _ if can.context => {
            out.context_modification = response.context.as_deref().filter(|c| !c.trim().is_empty()).map(cap);
        }
        _ => {}
    }
    if out.cancel.is_none() && out.context_modification.is_none() {
        return Rendered::ok("");
    }
    Rendered::ok(serde_json::to_string(&out).expect("hook output always serialises"))
}
