//! Cline payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventId, EventKind, Harness, HookEvent, SessionKey, ToolCall};
use serde_json::{Map, Value};

use crate::wire::{HookInput, ToolUseIn};
use crate::{HARNESS, tools};

/// Every event: the name the CLI puts in `hookName`, and the hook file's name, which is also the
/// name the editor extension's payloads carry. The list in `docs.md` must agree.
const NAMES: &[(&str, &str)] = &[
    ("agent_start", "TaskStart"),
    ("agent_resume", "TaskResume"),
    ("agent_abort", "TaskCancel"),
    ("agent_end", "TaskComplete"),
    ("agent_error", "TaskError"),
    ("tool_call", "PreToolUse"),
    ("tool_result", "PostToolUse"),
    ("prompt_submit", "UserPromptSubmit"),
    ("pre_compact", "PreCompact"),
    ("session_shutdown", "SessionShutdown"),
];

/// The hook file's name of an event, whichever of its two names the payload carries; other names
/// as they are.
pub(crate) fn file_name(name: &str) -> &str {
    NAMES.iter().find(|(wire, file)| *wire == name || *file == name).map_or(name, |(_, file)| file)
}

/// The kind of an event, by either of its names. Events without a normalised kind (a failed or
/// cancelled task) keep their hook file's name as [`EventKind::Other`].
pub(crate) fn kind(name: &str) -> EventKind {
    match file_name(name) {
        "TaskStart" | "TaskResume" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPromptSubmit,
        "PreToolUse" => EventKind::PreToolUse,
        "PostToolUse" => EventKind::PostToolUse,
        "PreCompact" => EventKind::PreCompact,
        "TaskComplete" => EventKind::Stop,
        "SessionShutdown" => EventKind::SessionEnd,
        other => EventKind::Other(other.to_owned()),
    }
}

/// Builds the event from a decoded payload.
pub(crate) fn to_event(
    input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let name = input.hook_name.trim();
    if name.is_empty() {
        return Err(memory_core::missing_field(HARNESS, "hookName"));
    }
    let text = |s: Option<&String>| s.map(|s| s.trim()).filter(|s| !s.is_empty()).map(str::to_owned);
    // The session, not the conversation: `cline --id` resumes it, and a subagent's events share it.
    let session_id = text(input.session_context.as_ref().and_then(|c| c.root_session_id.as_ref()))
        .or_else(|| text(input.task_id.as_ref()))
        .ok_or_else(|| memory_core::missing_field(HARNESS, "taskId"))?;
    let session = SessionKey::new(HARNESS, &session_id);
    let id = EventId::derive(HARNESS, session.as_str(), delivery.received_at, delivery.payload);
    let harness = Harness { name: HARNESS.to_owned(), version: text(input.cline_version.as_ref()) };
    let mut event = HookEvent::new(id, harness, session, kind(name), delivery.received_at, Value::Null);
    event.cwd = text(input.workspace_info.as_ref().and_then(|w| w.root_path.as_ref()))
        .or_else(|| input.workspace_roots.iter().flatten().find(|r| !r.trim().is_empty()).cloned());
    if file_name(name) == "TaskResume" {
        // A resumed task replays its conversation.
        event.context_kept = Some(true);
    }
    event.prompt = input
        .user_prompt_submit
        .as_ref()
        .and_then(|p| p.prompt.as_deref())
        .filter(|p| !p.trim().is_empty())
        .map(str::to_owned);
    event.tool = tool(&input, &event.kind);
    if event.kind == EventKind::PostToolUse && event.tool.as_ref().is_some_and(|t| t.failed == Some(true)) {
        event.kind = EventKind::PostToolUseFailure;
    }
    if !matches!(event.kind, EventKind::PreToolUse | EventKind::PostToolUse | EventKind::PostToolUseFailure) {
        event.tool = None;
    }
    event.raw = raw;
    Ok(event)
}

/// The tool call of a tool event: the CLI's `tool_result` or `tool_call`, else the documented
/// `postToolUse` / `preToolUse`; before the call (`kind` is [`EventKind::PreToolUse`]), only
/// what starts it.
fn tool(input: &HookInput, kind: &EventKind) -> Option<ToolCall> {
    // Before the call, only its start says anything: a result in the same payload is not yet one.
    let before = *kind == EventKind::PreToolUse;
    if !before && let Some(result) = &input.tool_result {
        let mut call = ToolCall {
            name: result.name.clone(),
            use_id: result.id.clone(),
            input: result.input.clone(),
            output: result.output.clone(),
            duration_ms: result.duration_ms.and_then(millis),
            ..ToolCall::default()
        };
        tools::describe(&mut call);
        tools::settle(&mut call, result.error.as_deref());
        return Some(call);
    }
    if let Some(start) = &input.tool_call {
        let mut call = ToolCall {
            name: start.name.clone(),
            use_id: start.id.clone(),
            input: start.input.clone(),
            ..ToolCall::default()
        };
        tools::describe(&mut call);
        return Some(call);
    }
    if !before && let Some(after) = &input.post_tool_use {
        let mut call = documented(after);
        call.output = after.result.clone().map(|text| json_or_text(Value::String(text)));
        call.duration_ms = after.execution_time_ms.and_then(millis);
        tools::describe(&mut call);
        tools::settle(&mut call, (after.success == Some(false)).then_some("the call failed"));
        return Some(call);
    }
    let before = input.pre_tool_use.as_ref()?;
    let mut call = documented(before);
    tools::describe(&mut call);
    Some(call)
}

/// A call in the documented shape, its parameters decoded where they hold JSON text.
fn documented(tool: &ToolUseIn) -> ToolCall {
    let input = tool.parameters.clone().map(|parameters| match parameters {
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, json_or_text(v))).collect::<Map<_, _>>())
        }
        other => other,
    });
    ToolCall { name: tool.tool_name.clone(), input, ..ToolCall::default() }
}

/// A value sent as JSON text, decoded when it holds an array or object; other text is kept.
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
