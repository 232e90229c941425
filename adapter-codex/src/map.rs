//! Codex payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::wire::HookInput;
use crate::{HARNESS, tools};

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

/// Builds the event from a decoded payload: the common fields (Codex's own add nothing to it),
/// then what the tool call does.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let mut event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
    if let Some(tool) = event.tool.as_mut() {
        tools::describe(&event.kind, tool);
    }
    Ok(event)
}
