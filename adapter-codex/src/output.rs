//! What Codex does with an answer to each event; the answer itself is rendered in the shared
//! format of `claude_protocol`.
//!
//! Codex parses any stdout that starts with `{` or `[` against the event's strict output schema and
//! marks the hook Failed on any unknown key, so each event gets only the keys its schema lists.
//! Plain text is never printed (context starting with `[` would be taken for JSON), exit 2 is never
//! used, and an answer with nothing to say prints nothing.

use claude_protocol::Protocol;
use memory_core::{EventKind, Support};

use crate::CONTEXT_CAP;

/// Codex's side of the shared answer format.
pub(crate) const PROTOCOL: Protocol = Protocol::new(support, CONTEXT_CAP);

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
