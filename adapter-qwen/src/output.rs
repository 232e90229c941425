//! What Qwen Code does with an answer to each event; the answer itself is rendered in Claude
//! Code's format by `claude_protocol`, under the same event names.
//!
//! Qwen Code parses stdout as JSON on exit 0. Everything is printed as one JSON object with exit 0,
//! and an answer with nothing to say prints nothing.

use claude_protocol::Protocol;
use memory_core::{EventKind, Support};

use crate::CONTEXT_CAP;

/// Qwen Code's side of the shared answer format.
pub(crate) const PROTOCOL: Protocol = Protocol::new(support, CONTEXT_CAP);

/// What Qwen Code honours in an answer to each event.
///
/// Context at SessionStart (appended to the system prompt) and UserPromptSubmit (a user message
/// after the prompt) reached the model in a real run (Qwen Code 0.24.4), and a PreToolUse
/// `permissionDecision: "deny"` stopped the call; blocks at UserPromptSubmit and Stop follow its
/// hook output classes. `systemMessage` is not offered.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block) = match kind {
        EventKind::SessionStart => (true, false),
        EventKind::UserPromptSubmit => (true, true),
        EventKind::PreToolUse | EventKind::Stop => (false, true),
        // Everything else: nothing of ours reaches the model and nothing needs stopping.
        _ => (false, false),
    };
    Support { context, block, user_message: false }
}
