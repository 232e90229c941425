//! The common payload fields → a normalised [`HookEvent`].

use memory_core::{Delivery, EventId, EventKind, Harness, HookEvent, SessionKey, ToolCall, TranscriptRef};
use serde_json::Value;

use crate::CommonInput;

/// Builds the event of one delivery from the common fields of its payload; the adapter then adds
/// what its harness's own fields tell.
///
/// `harness` names the harness in the session key and in errors; `kind` maps the harness's event
/// names. An empty `session_id` or `hook_event_name` is an error. The session working directory,
/// model and transcript are kept when not empty; a `SessionStart` says whether the conversation
/// kept earlier context from its `source` (`compact` and `clear` drop it, anything else replays
/// it); a payload with a `tool_name` carries the tool call's name, id, input and response.
pub fn to_event(
    harness: &'static str,
    kind: fn(&str) -> EventKind,
    input: CommonInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    if input.session_id.trim().is_empty() {
        return Err(memory_core::missing_field(harness, "session_id"));
    }
    if input.hook_event_name.trim().is_empty() {
        return Err(memory_core::missing_field(harness, "hook_event_name"));
    }
    let session = SessionKey::new(harness, &input.session_id);
    let id = EventId::derive(harness, session.as_str(), delivery.received_at, delivery.payload);
    let mut event = HookEvent::new(
        id,
        Harness::named(harness),
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
        ..ToolCall::default()
    });
    Ok(event)
}

/// Whether a `SessionStart` with this `source` keeps what the session was given before: the
/// harness starts a session again with `compact` or `clear` after dropping the conversation; any
/// other repeated start (`resume`, `fork`) replays it.
fn keeps_context(source: &str) -> bool {
    !matches!(source, "compact" | "clear")
}
