//! How events, notes and numbers are written to Neo4j properties and read back unchanged.

use memory_core::{HookEvent, Note, NotePath, Scope};

pub(crate) fn encode_event(event: &HookEvent) -> serde_json::Result<String> {
    serde_json::to_string(event)
}

pub(crate) fn decode_event(json: &str) -> serde_json::Result<HookEvent> {
    serde_json::from_str(json)
}

pub(crate) fn encode_note(note: &Note) -> serde_json::Result<String> {
    serde_json::to_string(note)
}

pub(crate) fn decode_note(json: &str) -> serde_json::Result<Note> {
    serde_json::from_str(json)
}

/// The unique key of a note: its scope and path as a JSON pair, so no two pairs can collide.
pub(crate) fn note_key(scope: &Scope, path: &NotePath) -> String {
    serde_json::json!([scope.to_string(), path.as_str()]).to_string()
}

/// Watermark positions are `u64`; Neo4j integers are `i64`. The bits are stored unchanged.
pub(crate) fn position_to_bolt(position: u64) -> i64 {
    i64::from_ne_bytes(position.to_ne_bytes())
}

/// Reverses [`position_to_bolt`].
pub(crate) fn position_from_bolt(value: i64) -> u64 {
    u64::from_ne_bytes(value.to_ne_bytes())
}

#[cfg(test)]
mod tests {
    use chrono::DateTime;
    use memory_core::{EventId, EventKind, Harness, SessionKey, ToolCall};
    use serde_json::Value;

    use super::*;

    fn event_with_tool(input: Option<Value>, output: Option<Value>) -> HookEvent {
        let mut event = HookEvent::new(
            EventId("0".repeat(32)),
            Harness::named("claude"),
            SessionKey::new("claude", "s1"),
            EventKind::PreToolUse,
            DateTime::UNIX_EPOCH,
            Value::Null,
        );
        event.tool = Some(ToolCall { name: "Bash".to_owned(), input, output, ..ToolCall::default() });
        event
    }

    #[test]
    fn explicit_null_tool_values_survive() {
        for (input, output) in [
            (Some(Value::Null), None),
            (None, Some(Value::Null)),
            (Some(Value::Null), Some(Value::Null)),
            (Some(serde_json::json!({"a": null})), None),
            (None, None),
        ] {
            let event = event_with_tool(input, output);
            let encoded = encode_event(&event).expect("encode");
            assert_eq!(decode_event(&encoded).expect("decode"), event);
        }
    }

    #[test]
    fn positions_keep_every_bit() {
        for position in [0, 1, u64::from(u32::MAX) * 4, i64::MAX as u64, u64::MAX] {
            assert_eq!(position_from_bolt(position_to_bolt(position)), position);
        }
    }

    #[test]
    fn note_keys_do_not_collide() {
        let path = NotePath::new("a.md").expect("path");
        let other = NotePath::new("b/a.md").expect("path");
        assert_ne!(
            note_key(&Scope::Project("x".to_owned()), &path),
            note_key(&Scope::Session("x".to_owned()), &path)
        );
        assert_ne!(
            note_key(&Scope::Project("x\",\"b".to_owned()), &path),
            note_key(&Scope::Project("x".to_owned()), &other)
        );
    }
}
