//! Copilot CLI's hook payload: the JSON a hook reads on stdin.
//!
//! Field names and nesting follow the harness exactly. The PascalCase events send snake_case
//! fields (read by the struct below); the camelCase dialect is read by renaming its top-level
//! fields to their snake_case twins first. Only `session_id` and `hook_event_name` are required;
//! fields this version does not know are ignored here (they stay in the event's raw payload).

use serde_json::{Map, Value};

use crate::HARNESS;

claude_protocol::hook_input! {
    /// One hook payload, any event: the fields every Claude-shaped harness sends, then Copilot's
    /// own. Event-specific fields are `None` on events that do not carry them.
    ///
    /// Of the common fields, `session_id` is the session UUID (not in the hook's environment);
    /// `tool_name` is Claude Code's name for Copilot's tool (`Bash`, `Read`); `transcript_path`
    /// is sent on Stop only. Copilot sends no `tool_response` (see `tool_result`), no model and no
    /// tool call id.
    #[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
    pub(crate) struct HookInput {
        /// When the event fired: ISO 8601 text (PascalCase events) or milliseconds (camelCase).
        #[serde(default)]
        pub(crate) timestamp: Option<Value>,
        /// SessionStart: the prompt of a `-p` run.
        #[serde(default)]
        pub(crate) initial_prompt: Option<String>,
        /// PostToolUse: `{result_type, text_result_for_llm}`.
        #[serde(default)]
        pub(crate) tool_result: Option<Value>,
        /// PostToolUseFailure: the error text; ErrorOccurred: `{message, name, stack}`.
        #[serde(default)]
        pub(crate) error: Option<Value>,
        /// ErrorOccurred: where it happened (`model_call`).
        #[serde(default)]
        pub(crate) error_context: Option<String>,
        /// ErrorOccurred: whether the session carries on.
        #[serde(default)]
        pub(crate) recoverable: Option<bool>,
        /// Stop: why the turn ended (`end_turn`).
        #[serde(default)]
        pub(crate) stop_reason: Option<String>,
        /// Stop: whether a stop hook already continued this turn.
        #[serde(default)]
        pub(crate) stop_hook_active: Option<bool>,
        /// SessionEnd: `complete` or `error`.
        #[serde(default)]
        pub(crate) reason: Option<String>,
        /// PermissionRequest: what the user could allow from now on.
        #[serde(default)]
        pub(crate) permission_suggestions: Option<Value>,
    }
}

/// camelCase field → its snake_case twin.
const CAMEL: &[(&str, &str)] = &[
    ("sessionId", "session_id"),
    ("hookName", "hook_event_name"),
    ("transcriptPath", "transcript_path"),
    ("toolName", "tool_name"),
    ("toolArgs", "tool_input"),
    ("toolInput", "tool_input"),
    ("toolResult", "tool_result"),
    ("initialPrompt", "initial_prompt"),
    ("errorContext", "error_context"),
    ("stopReason", "stop_reason"),
    ("permissionSuggestions", "permission_suggestions"),
];

/// Reads a payload of either dialect: the raw object as delivered, and the typed payload.
pub(crate) fn parse(bytes: &[u8]) -> memory_core::Result<(Value, HookInput)> {
    let (raw, _) = memory_core::parse_payload::<Value>(HARNESS, bytes)?;
    if raw.get("session_id").is_some() || raw.get("sessionId").is_none() {
        let (_, input) = memory_core::parse_payload::<HookInput>(HARNESS, bytes)?;
        return Ok((raw, input));
    }
    let snake = snake_case(raw.as_object().expect("parse_payload reads objects only"));
    let (_, input) = memory_core::parse_payload::<HookInput>(HARNESS, snake.to_string().as_bytes())?;
    Ok((raw, input))
}

/// A camelCase payload with its fields renamed; `hookName` (`permissionRequest`) becomes the
/// PascalCase event name.
fn snake_case(object: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    for (key, value) in object {
        let key = CAMEL.iter().find(|(camel, _)| camel == key).map_or(key.as_str(), |(_, snake)| snake);
        let value = match (key, value) {
            ("hook_event_name", Value::String(name)) => Value::String(crate::map::pascal(name)),
            _ => value.clone(),
        };
        out.entry(key.to_owned()).or_insert(value);
    }
    Value::Object(out)
}
