//! Copilot CLI payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::wire::HookInput;
use crate::{HARNESS, tools};

/// camelCase event names and their PascalCase twins.
const TWINS: &[(&str, &str)] = &[
    ("sessionStart", "SessionStart"),
    ("userPromptSubmitted", "UserPromptSubmit"),
    ("preToolUse", "PreToolUse"),
    ("permissionRequest", "PermissionRequest"),
    ("postToolUse", "PostToolUse"),
    ("postToolUseFailure", "PostToolUseFailure"),
    ("errorOccurred", "ErrorOccurred"),
    ("subagentStart", "SubagentStart"),
    ("subagentStop", "SubagentStop"),
    ("preCompact", "PreCompact"),
    ("notification", "Notification"),
    ("agentStop", "Stop"),
    ("sessionEnd", "SessionEnd"),
];

/// The PascalCase name of an event, whichever style names it.
pub(crate) fn pascal(name: &str) -> String {
    TWINS.iter().find(|(camel, _)| *camel == name).map_or(name, |(_, pascal)| pascal).to_owned()
}

/// The kind of a Copilot CLI event name, in either style. Names without a normalised kind are
/// kept as [`EventKind::Other`]; the list in `docs.md` must agree with this table.
pub(crate) fn kind(name: &str) -> EventKind {
    match pascal(name).as_str() {
        "SessionStart" => EventKind::SessionStart,
        "UserPromptSubmit" => EventKind::UserPromptSubmit,
        "PreToolUse" => EventKind::PreToolUse,
        "PermissionRequest" => EventKind::PermissionRequest,
        "PostToolUse" => EventKind::PostToolUse,
        "PostToolUseFailure" => EventKind::PostToolUseFailure,
        "SubagentStart" => EventKind::SubagentStart,
        "SubagentStop" => EventKind::SubagentStop,
        "PreCompact" => EventKind::PreCompact,
        "Notification" => EventKind::Notification,
        "Stop" => EventKind::Stop,
        "SessionEnd" => EventKind::SessionEnd,
        _ => EventKind::Other(name.to_owned()),
    }
}

/// Builds the event from a decoded payload: the common fields, the tool's result as its output
/// and the failure's error, then what the call does.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let mut event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
    if let Some(tool) = event.tool.as_mut() {
        tool.output = tool.output.take().or(input.tool_result);
        if event.kind == EventKind::PostToolUseFailure {
            tool.error = input.error.as_ref().map(|e| match e {
                Value::String(text) => text.clone(),
                other => other
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| other.to_string(), str::to_owned),
            });
        }
        tools::describe(&event.kind, tool);
        if tool.failed == Some(true) && event.kind == EventKind::PostToolUse {
            event.kind = EventKind::PostToolUseFailure;
        }
    }
    Ok(event)
}
