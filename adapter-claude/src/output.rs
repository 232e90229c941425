//! What Claude Code does with an answer to each event; the answer itself is rendered in the
//! shared format of `claude_protocol`.
//!
//! Everything is printed as one JSON object with exit 0 (JSON on other exit codes is read
//! differently across Claude Code versions). Parts an event cannot carry are left out, and an answer
//! with nothing to say prints nothing.

use claude_protocol::Protocol;
use memory_core::{EventKind, Support};

use crate::CONTEXT_CAP;

/// Claude Code's side of the shared answer format.
pub(crate) const PROTOCOL: Protocol = Protocol::new(support, CONTEXT_CAP);

/// What Claude Code honours in an answer to each event (hooks reference, "Event list" and
/// "Event-specific output").
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block, user_message) = match kind.as_str() {
        "SessionStart" | "Setup" | "SubagentStart" => (true, false, true),
        "UserPromptSubmit" | "UserPromptExpansion" | "PreToolUse" | "PostToolBatch" => (true, true, true),
        "PostToolUse" | "PostToolUseFailure" => (true, false, true),
        // Stop context keeps the agent going (a continuation), so only an explicit block is offered.
        "PermissionRequest" | "Stop" | "SubagentStop" => (false, true, true),
        "PreCompact" | "ConfigChange" | "TaskCreated" | "TaskCompleted" | "TeammateIdle" => {
            (false, true, true)
        }
        _ => (false, false, false),
    };
    Support { context, block, user_message }
}
