//! Claude Code payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventId, EventKind, Harness, HookEvent, SessionKey, ToolCall, TranscriptRef};
use serde_json::Value;

use crate::HARNESS;
use crate::wire::HookInput;

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

/// Builds the event from a decoded payload.
pub(crate) fn to_event(
    input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    if input.session_id.trim().is_empty() {
        return Err(memory_core::missing_field(HARNESS, "session_id"));
    }
    if input.hook_event_name.trim().is_empty() {
        return Err(memory_core::missing_field(HARNESS, "hook_event_name"));
    }
    let session = SessionKey::new(HARNESS, &input.session_id);
    let id = EventId::derive(HARNESS, session.as_str(), delivery.received_at, delivery.payload);
    let mut event = HookEvent::new(
        id,
        Harness::named(HARNESS),
        session,
        kind(&input.hook_event_name),
        delivery.received_at,
        raw,
    );
    event.cwd = input.cwd.filter(|c| !c.is_empty());
    event.prompt = input.prompt;
    event.model = input.model.filter(|m| !m.is_empty());
    event.transcript = input.transcript_path.filter(|p| !p.is_empty()).map(|path| TranscriptRef { path });
    if event.kind == EventKind::SessionStart {
        event.context_kept = input.source.as_deref().map(keeps_context);
    }
    event.tool = input.tool_name.map(|name| ToolCall {
        name,
        use_id: input.tool_use_id,
        input: input.tool_input,
        output: input.tool_response,
        error: input.error,
        duration_ms: input.duration_ms.and_then(millis),
    });
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

/// Whether a `SessionStart` with this `source` keeps what the session was given before: Claude Code
/// starts a session again with `compact` or `clear` after dropping the conversation; any other
/// repeated start (`resume`, `fork`) replays it.
fn keeps_context(source: &str) -> bool {
    !matches!(source, "compact" | "clear")
}
