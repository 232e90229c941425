//! The plugin's payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventId, EventKind, Harness, HookEvent, SessionKey, ToolCall};
use serde_json::Value;

use crate::wire::HookInput;
use crate::{HARNESS, tools};

/// The kind of an event the plugin forwards. `tool.execute.after` is a failure when the shell
/// command exited nonzero (see [`to_event`]); names without a kind are kept as
/// [`EventKind::Other`]. The list in `docs.md` must agree with this table.
pub(crate) fn kind(name: &str) -> EventKind {
    match name {
        "session.created" | "session.continued" => EventKind::SessionStart,
        "chat.message" => EventKind::UserPromptSubmit,
        "tool.execute.before" => EventKind::PreToolUse,
        "tool.execute.after" => EventKind::PostToolUse,
        "tool.failed" => EventKind::PostToolUseFailure,
        "session.idle" => EventKind::Stop,
        "session.compacted" => EventKind::PostCompact,
        "session.deleted" => EventKind::SessionEnd,
        other => EventKind::Other(other.to_owned()),
    }
}

/// Builds the event from a decoded payload: the envelope, then what OpenCode's own objects tell
/// for each event.
pub(crate) fn to_event(
    input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let name = input.hook_event_name.trim();
    if name.is_empty() {
        return Err(memory_core::missing_field(HARNESS, "hook_event_name"));
    }
    let session_id = input.session_id.trim();
    if session_id.is_empty() {
        return Err(memory_core::missing_field(HARNESS, "session_id"));
    }
    let session = SessionKey::new(HARNESS, session_id);
    let id = EventId::derive(HARNESS, session.as_str(), delivery.received_at, delivery.payload);
    let mut event =
        HookEvent::new(id, Harness::named(HARNESS), session, kind(name), delivery.received_at, raw);
    event.cwd = input.directory.filter(|d| !d.trim().is_empty());
    let given = input.input.unwrap_or(Value::Null);
    let answer = input.output.unwrap_or(Value::Null);
    match name {
        // The plugin's notes live in this process only: a session continued in a new one was
        // given none of them yet.
        "session.continued" => event.context_kept = Some(false),
        "chat.message" => {
            event.prompt = prompt(&answer);
            event.model = model(&answer["message"]["model"]);
        }
        "tool.execute.before" => {
            event.tool = call(&given, given.get("callID"), answer.get("args").cloned()).map(|mut tool| {
                tools::describe(&mut tool);
                tool
            });
        }
        "tool.execute.after" => {
            event.tool = call(&given, given.get("callID"), given.get("args").cloned()).map(|mut tool| {
                tool.output = answer.get("output").cloned();
                tools::describe(&mut tool);
                tools::result(&mut tool, &answer["metadata"]);
                tool
            });
            if event.tool.as_ref().is_some_and(|t| t.failed == Some(true)) {
                event.kind = EventKind::PostToolUseFailure;
            }
        }
        "tool.failed" => {
            let part = &given["properties"]["part"];
            let state = &part["state"];
            event.tool = call(part, part.get("callID"), state.get("input").cloned()).map(|mut tool| {
                tools::describe(&mut tool);
                tool.failed = Some(true);
                tool.error = state.get("error").and_then(Value::as_str).map(str::to_owned);
                tool.duration_ms = duration(&state["time"]);
                tool
            });
        }
        _ => {}
    }
    Ok(event)
}

/// A tool call named by `holder.tool`, with its id and input.
fn call(holder: &Value, id: Option<&Value>, input: Option<Value>) -> Option<ToolCall> {
    let name = holder.get("tool").and_then(Value::as_str).filter(|n| !n.trim().is_empty())?;
    Some(ToolCall {
        name: name.to_owned(),
        use_id: id.and_then(Value::as_str).map(str::to_owned),
        input,
        ..ToolCall::default()
    })
}

/// The user's words: the text parts of the message that OpenCode did not add itself (file
/// contents, notes such as ours are `synthetic`; `ignored` parts never reach the model).
fn prompt(answer: &Value) -> Option<String> {
    let texts: Vec<&str> = answer["parts"]
        .as_array()?
        .iter()
        .filter(|p| p["type"] == "text" && p["synthetic"] != true && p["ignored"] != true)
        .filter_map(|p| p["text"].as_str())
        .collect();
    let prompt = texts.join("\n");
    (!prompt.trim().is_empty()).then_some(prompt)
}

/// `provider/model`, as OpenCode names a model on its command line.
fn model(model: &Value) -> Option<String> {
    match (model["providerID"].as_str(), model["modelID"].as_str()) {
        (Some(provider), Some(id)) if !id.is_empty() => Some(format!("{provider}/{id}")),
        (None, Some(id)) if !id.is_empty() => Some(id.to_owned()),
        _ => None,
    }
}

/// How long a failed call ran, from its `time.start` and `time.end` (milliseconds since the epoch).
fn duration(time: &Value) -> Option<u64> {
    let (start, end) = (time["start"].as_u64()?, time["end"].as_u64()?);
    end.checked_sub(start)
}
