//! Cursor payload → normalised [`HookEvent`].

use memory_core::{
    Delivery, EventId, EventKind, FileAction, Harness, HookEvent, SessionKey, ToolCall, TranscriptRef,
};
use serde_json::{Value, json};

use crate::wire::HookInput;
use crate::{HARNESS, tools};

/// Session id given to `workspaceOpen`, the one event that belongs to no conversation.
const WORKSPACE_SESSION: &str = "workspace";

/// The kind of a Cursor event name. Names without a normalised kind are kept as
/// [`EventKind::Other`]; the list in `docs.md` must agree with this table.
pub(crate) fn kind(name: &str) -> EventKind {
    match name {
        "sessionStart" => EventKind::SessionStart,
        "beforeSubmitPrompt" => EventKind::UserPromptSubmit,
        "preToolUse" | "beforeShellExecution" | "beforeMCPExecution" => EventKind::PreToolUse,
        "postToolUse" | "afterShellExecution" | "afterMCPExecution" => EventKind::PostToolUse,
        "postToolUseFailure" => EventKind::PostToolUseFailure,
        "afterFileEdit" => EventKind::FileEdited,
        "afterAgentResponse" => EventKind::AgentResponse,
        "subagentStart" => EventKind::SubagentStart,
        "subagentStop" => EventKind::SubagentStop,
        "preCompact" => EventKind::PreCompact,
        "stop" => EventKind::Stop,
        "sessionEnd" => EventKind::SessionEnd,
        other => EventKind::Other(other.to_owned()),
    }
}

/// Builds the event from a decoded payload.
pub(crate) fn to_event(
    input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let name = input.hook_event_name.trim();
    if name.is_empty() {
        return Err(memory_core::missing_field(HARNESS, "hook_event_name"));
    }
    let non_empty =
        |s: &Option<String>| s.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    let session_id = non_empty(&input.conversation_id)
        .or_else(|| non_empty(&input.session_id))
        .or_else(|| (name == "workspaceOpen").then(|| WORKSPACE_SESSION.to_owned()))
        .ok_or_else(|| memory_core::missing_field(HARNESS, "conversation_id` or `session_id"))?;
    let session = SessionKey::new(HARNESS, &session_id);
    let id = EventId::derive(HARNESS, session.as_str(), delivery.received_at, delivery.payload);
    let version = non_empty(&input.cursor_version)
        .or_else(|| delivery.var("CURSOR_VERSION").filter(|v| !v.is_empty()).map(str::to_owned));
    let harness = Harness { name: HARNESS.to_owned(), version };
    let mut event = HookEvent::new(id, harness, session, kind(name), delivery.received_at, Value::Null);
    event.cwd = non_empty(&input.cwd).or_else(|| {
        input.workspace_roots.as_ref().and_then(|roots| roots.iter().find(|r| !r.is_empty()).cloned())
    });
    event.model = non_empty(&input.model).or_else(|| non_empty(&input.model_id));
    event.transcript = non_empty(&input.transcript_path).map(|path| TranscriptRef { path });
    event.tool = tool(name, &input);
    // `context_kept` stays unset: Cursor's sessionStart says nothing of how the conversation began.
    event.prompt = input.prompt;
    event.raw = raw;
    Ok(event)
}

/// The tool call an event describes, in the shape of Cursor's generic tool events.
fn tool(event: &str, input: &HookInput) -> Option<ToolCall> {
    let duration_ms = input.duration.and_then(millis);
    let call = match event {
        // The same command as the `Shell` tool's generic events, which alone carry `shell` (see
        // `tools`).
        "beforeShellExecution" | "afterShellExecution" => ToolCall {
            name: "Shell".to_owned(),
            input: input.command.as_ref().map(|command| json!({ "command": command })),
            output: input.output.clone().map(Value::String),
            duration_ms,
            ..ToolCall::default()
        },
        "beforeMCPExecution" | "afterMCPExecution" => ToolCall {
            name: input.tool_name.clone()?,
            input: input.tool_input.clone().map(json_or_text),
            output: input.result_json.clone().map(|text| json_or_text(Value::String(text))),
            duration_ms,
            ..ToolCall::default()
        },
        "afterFileEdit" => {
            let input = json!({ "file_path": input.file_path, "edits": input.edits });
            ToolCall {
                name: "Write".to_owned(),
                files: tools::file(Some(&input), FileAction::Edited),
                input: Some(input),
                ..ToolCall::default()
            }
        }
        _ => {
            let mut call = ToolCall {
                name: input.tool_name.clone()?,
                use_id: input.tool_use_id.clone(),
                input: input.tool_input.clone().map(json_or_text),
                output: input.tool_output.clone().map(json_or_text),
                error: input.error_message.clone().filter(|_| event == "postToolUseFailure"),
                duration_ms,
                ..ToolCall::default()
            };
            tools::describe(event, &mut call);
            call
        }
    };
    Some(call)
}

/// A value Cursor sends as a JSON string, decoded when it holds an object or array; other text is
/// kept as it is.
fn json_or_text(value: Value) -> Value {
    match &value {
        Value::String(text) if text.trim_start().starts_with(['{', '[']) => {
            serde_json::from_str(text).unwrap_or(value)
        }
        _ => value,
    }
}

/// A duration in milliseconds, when it is a sensible number.
fn millis(value: f64) -> Option<u64> {
    (value.is_finite() && value >= 0.0 && value < u64::MAX as f64).then(|| value.round() as u64)
}
