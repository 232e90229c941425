//! Claude Code payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::wire::HookInput;
use crate::{HARNESS, tools};

/// The kind of a Claude Code event name. Names without a normalised kind are kept as
/// [`EventKind::Other`]; the list in `docs.md` must agree with this table.
pub(crate) fn kind(name: &str) -> EventKind {
    match name {
        "SessionStart" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPromptSubmit,
        "PreToolUse" => EventKind::PreToolUse,
        "PermissionRequest" => EventKind::PermissionRequest,
        "PostToolUse" => EventKind::PostToolUse,
        "PostToolUseFailure" => EventKind::PostToolUseFailure,
        "Notification" => EventKind::Notification,
        "SubagentStart" => EventKind::SubagentStart,
        "SubagentStop" => EventKind::SubagentStop,
        "PreCompact" => EventKind::PreCompact,
        "PostCompact" => EventKind::PostCompact,
        "Stop" => EventKind::Stop,
        "SessionEnd" => EventKind::SessionEnd,
        other => EventKind::Other(other.to_owned()),
    }
}

/// Builds the event from a decoded payload: the common fields, then the tool call's error and
/// duration, which only Claude Code sends, and what the call does.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let mut event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
    if let Some(tool) = event.tool.as_mut() {
        tool.error = input.error;
        tool.duration_ms = input.duration_ms.and_then(millis);
        tools::describe(&event.kind, tool);
    }
    Ok(event)
}

/// A duration in milliseconds, when it is a sensible number.
fn millis(value: f64) -> Option<u64> {
    (value.is_finite() && value >= 0.0 && value < u64::MAX as f64).then(|| value.round() as u64)
}

/// Whether a payload carries fields only Cursor sends (`cursor_version`, or `conversation_id`
/// together with `generation_id`).
pub(crate) fn has_cursor_fields(payload: &[u8]) -> bool {
    let payload = payload.strip_prefix("\u{feff}".as_bytes()).unwrap_or(payload);
    let Ok(raw) = serde_json::from_slice::<Value>(payload) else {
        return false;
    };
    raw.get("cursor_version").is_some()
        || (raw.get("conversation_id").is_some() && raw.get("generation_id").is_some())
}
