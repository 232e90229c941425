//! What Gemini CLI does with an answer to each event; the answer itself is rendered in the shared
//! format of `claude_protocol`, under Gemini's event names.
//!
//! Gemini CLI parses stdout as JSON on exit 0 (stdout must be nothing but JSON), takes exit 2 as a
//! block with stderr as the reason and anything else as a warning. Everything is printed as one
//! JSON object with exit 0, and an answer with nothing to say prints nothing.

use claude_protocol::Protocol;
use memory_core::{EventKind, Support};

use crate::CONTEXT_CAP;

/// Gemini CLI's side of the shared answer format.
pub(crate) const PROTOCOL: Protocol =
    Protocol::new(support, CONTEXT_CAP).with_event_names(crate::map::gemini_name);

/// What Gemini CLI honours in an answer to each event.
///
/// Context at SessionStart and BeforeAgent reached the model in a real run (Gemini CLI 0.61.0), and
/// a BeforeTool block stopped the call; blocks at BeforeAgent and AfterAgent follow the hooks
/// reference. `systemMessage` is not offered.
pub(crate) fn support(kind: &EventKind) -> Support {
    let (context, block) = match kind {
        EventKind::SessionStart => (true, false),
        EventKind::UserPromptSubmit => (true, true),
        EventKind::PreToolUse | EventKind::Stop => (false, true),
        // AfterTool, PreCompress, Notification, SessionEnd and the model events: nothing of ours
        // reaches the model and nothing needs stopping.
        _ => (false, false),
    };
    Support { context, block, user_message: false }
}
