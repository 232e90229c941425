//! What droid does with an answer to each event; the answer itself is rendered in Claude Code's
//! format by `claude_protocol`, under the same event names.
//!
//! Droid parses stdout as JSON when it opens with `{`, on exit 0. Everything is printed as one JSON
//! object with exit 0, and an answer with nothing to say prints nothing.

use claude_protocol::Protocol;
use memory_core::{EventKind, Support};

use crate::CONTEXT_CAP;

/// Droid's side of the shared answer format.
pub(crate) const PROTOCOL: Protocol = Protocol::new(support, CONTEXT_CAP);

/// What droid honours in an answer to each event.
///
/// Context at SessionStart and UserPromptSubmit reached the model in a real run (droid 0.225),
/// each as a user message of its own before the prompt. A PreToolUse `permissionDecision: "deny"`
/// refuses the call and a Stop `decision: "block"` with a reason keeps the agent going. A
/// UserPromptSubmit `decision: "block"` is not read (droid blocks a prompt only on exit 2 or
/// `continue: false`), so no block is offered there. `systemMessage` is not offered.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block) = match kind {
        EventKind::SessionStart | EventKind::UserPromptSubmit => (true, false),
        EventKind::PreToolUse | EventKind::Stop => (false, true),
        // Everything else: nothing of ours reaches the model and nothing needs stopping.
        _ => (false, false),
    };
    Support { context, block, user_message: false }
}
