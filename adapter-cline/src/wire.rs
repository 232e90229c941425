//! Cline's hook payload: the JSON a hook file reads on stdin, and the JSON it may print.
//!
//! Field names and nesting follow the harness exactly: camelCase, except the agent ids and the
//! CLI's own `tool_call`/`tool_result` objects, which are snake_case. Only `hookName` is required;
//! fields this version does not know are ignored here (they stay in the event's raw payload).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One hook payload, any event. Event-specific fields are `None` on events that do not carry them.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
pub(crate) struct HookInput {
    /// The event: the CLI's own name (`agent_start`, `tool_call`, …) or, in older releases and the
    /// editor extension, the hook file's name (`TaskStart`, `PreToolUse`, …).
    pub(crate) hook_name: String,
    /// The Cline version; empty in the CLI.
    #[serde(default)]
    pub(crate) cline_version: Option<String>,
    /// When the event fired: ISO 8601 (the CLI) or milliseconds as text (the extension).
    #[serde(default)]
    pub(crate) timestamp: Option<Value>,
    /// The conversation (`conv_…`); the extension's task id.
    #[serde(default)]
    pub(crate) task_id: Option<String>,
    /// The session the conversation belongs to.
    #[serde(default)]
    pub(crate) session_context: Option<SessionContext>,
    /// The workspace folders; the CLI sends its working directory.
    #[serde(default)]
    pub(crate) workspace_roots: Option<Vec<String>>,
    /// The workspace and its git state.
    #[serde(default)]
    pub(crate) workspace_info: Option<WorkspaceInfo>,
    /// `CLINE_USER_ID`, else `USER`, else `unknown`.
    #[serde(default)]
    pub(crate) user_id: Option<String>,
    /// The agent that fired the event.
    #[serde(default, rename = "agent_id")]
    pub(crate) agent_id: Option<String>,
    /// The parent of a subagent; `null` for the main agent.
    #[serde(default, rename = "parent_agent_id")]
    pub(crate) parent_agent_id: Option<String>,
    /// The agent loop's iteration (tool and end events).
    #[serde(default)]
    pub(crate) iteration: Option<Value>,
    /// `tool_call`: the call as the model made it.
    #[serde(default, rename = "tool_call")]
    pub(crate) tool_call: Option<ToolCallIn>,
    /// `tool_result`: the call with what it returned.
    #[serde(default, rename = "tool_result")]
    pub(crate) tool_result: Option<ToolResultIn>,
    /// PreToolUse in the documented shape: the tool and its parameters, each value as text.
    #[serde(default)]
    pub(crate) pre_tool_use: Option<ToolUseIn>,
    /// PostToolUse in the documented shape.
    #[serde(default)]
    pub(crate) post_tool_use: Option<ToolUseIn>,
    /// UserPromptSubmit: the prompt.
    #[serde(default)]
    pub(crate) user_prompt_submit: Option<PromptIn>,
    /// `agent_end`: `{outputText, status}`.
    #[serde(default)]
    pub(crate) turn: Option<Value>,
    /// `agent_error`: `{name, message, stack}`.
    #[serde(default)]
    pub(crate) error: Option<Value>,
    /// `agent_abort`, `session_shutdown`: why.
    #[serde(default)]
    pub(crate) reason: Option<String>,
}

/// `sessionContext`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SessionContext {
    /// The session id `cline --id` resumes; shared by a subagent's events.
    #[serde(default)]
    pub(crate) root_session_id: Option<String>,
}

/// `workspaceInfo`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WorkspaceInfo {
    /// The workspace's folder.
    #[serde(default)]
    pub(crate) root_path: Option<String>,
}

/// `tool_call`.
#[derive(Debug, Deserialize)]
pub(crate) struct ToolCallIn {
    /// The model's id for the call.
    #[serde(default)]
    pub(crate) id: Option<String>,
    /// The tool (`run_commands`, `editor`, `read_files`, …).
    pub(crate) name: String,
    /// Its input as the model gave it.
    #[serde(default)]
    pub(crate) input: Option<Value>,
}

/// `tool_result`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolResultIn {
    /// The model's id for the call.
    #[serde(default)]
    pub(crate) id: Option<String>,
    /// The tool.
    pub(crate) name: String,
    /// Its input.
    #[serde(default)]
    pub(crate) input: Option<Value>,
    /// What it returned: one `{query, result, error?, success}` per command or file, or one object.
    #[serde(default)]
    pub(crate) output: Option<Value>,
    /// Set when the call as a whole failed.
    #[serde(default)]
    pub(crate) error: Option<String>,
    /// How long it ran.
    #[serde(default)]
    pub(crate) duration_ms: Option<f64>,
}

/// `preToolUse` / `postToolUse`: parameter values are text (JSON text for arrays and objects).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolUseIn {
    /// The tool.
    pub(crate) tool_name: String,
    /// Its parameters.
    #[serde(default)]
    pub(crate) parameters: Option<Value>,
    /// PostToolUse: the output as text.
    #[serde(default)]
    pub(crate) result: Option<String>,
    /// PostToolUse: whether the call as a whole succeeded (the CLI says `true` for a command that
    /// exited nonzero; see `tools`).
    #[serde(default)]
    pub(crate) success: Option<bool>,
    /// PostToolUse: how long it ran.
    #[serde(default)]
    pub(crate) execution_time_ms: Option<f64>,
}

/// `userPromptSubmit`.
#[derive(Debug, Deserialize)]
pub(crate) struct PromptIn {
    /// The prompt.
    #[serde(default)]
    pub(crate) prompt: Option<String>,
}

/// What a hook prints: Cline reads the last stdout line starting `HOOK_CONTROL\t`, else the whole
/// stdout, as this object. Fields left out are not printed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookOutput {
    /// Stops the tool call and ends the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cancel: Option<bool>,
    /// Text added to the conversation after the tool's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) context_modification: Option<String>,
    /// With `cancel`, the reason Cline logs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error_message: Option<String>,
}
