//! Codex payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::HARNESS;
use crate::wire::HookInput;

/// The kind of a Codex event name. Names without a normalised kind are kept as
/// [`EventKind::Other`]; the list in `docs.md` must agree with this table.
pub(crate) fn kind(name: &str) -> EventKind {
    match name {
        "SessionStart" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPromptSubmit,
        "PreToolUse" => EventKind::PreToolUse,
        "PermissionRequest" => EventKind::PermissionRequest,
        "PostToolUse" => EventKind::PostToolUse,
        "SubagentStart" => EventKind::SubagentStart,
        "SubagentStop" => EventKind::SubagentStop,
        "PreCompact" => EventKind::PreCompact,
        "PostCompact" => EventKind::PostCompact,
        "Stop" => EventKind::Stop,
        "SessionEnd" => EventKind::SessionEnd,
        other => EventKind::Other(other.to_owned()),
    }
}

/// Builds the event from a decoded payload; Codex's own fields add nothing to it.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)
}
