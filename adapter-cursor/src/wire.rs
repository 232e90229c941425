//! Cursor's hook wire format: the JSON a hook reads on stdin and the JSON it prints.
//!
//! Field names and nesting follow the harness exactly. Only `hook_event_name` is always sent (the
//! conversation fields are missing on `workspaceOpen`); everything else is optional, and fields this
//! version does not know are ignored here (they stay in the event's raw payload).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One hook payload, any event. Event-specific fields are `None` on events that do not carry them.
#[derive(Debug, Deserialize)]
#[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
pub(crate) struct HookInput {
    /// The event's name (`sessionStart`, `beforeSubmitPrompt`, …).
    pub(crate) hook_event_name: String,
    /// Stable across the turns of a conversation.
    #[serde(default)]
    pub(crate) conversation_id: Option<String>,
    /// Changes with every user message.
    #[serde(default)]
    pub(crate) generation_id: Option<String>,
    /// Equals `conversation_id`; documented on sessionStart and sessionEnd, sent elsewhere by some
    /// builds.
    #[serde(default)]
    pub(crate) session_id: Option<String>,
    /// Model slug (legacy name).
    #[serde(default)]
    pub(crate) model: Option<String>,
    /// Model id (newer builds).
    #[serde(default)]
    pub(crate) model_id: Option<String>,
    /// Model parameters, `[{id, value}]`.
    #[serde(default)]
    pub(crate) model_params: Option<Value>,
    /// Cursor's version.
    #[serde(default)]
    pub(crate) cursor_version: Option<String>,
    /// Open workspace folders.
    #[serde(default)]
    pub(crate) workspace_roots: Option<Vec<String>>,
    /// The signed-in user's email, or null.
    #[serde(default)]
    pub(crate) user_email: Option<String>,
    /// The conversation transcript, or null when transcripts are off.
    #[serde(default)]
    pub(crate) transcript_path: Option<String>,
    /// Tool and shell events: the working directory.
    #[serde(default)]
    pub(crate) cwd: Option<String>,
    /// sessionStart and sessionEnd: whether a background agent runs the conversation.
    #[serde(default)]
    pub(crate) is_background_agent: Option<bool>,
    /// sessionStart: `agent`, `ask` or `edit`.
    #[serde(default)]
    pub(crate) composer_mode: Option<String>,
    /// sessionEnd: why the session ended.
    #[serde(default)]
    pub(crate) reason: Option<String>,
    /// sessionEnd, subagentStop, afterAgentThought: a duration in milliseconds.
    #[serde(default)]
    pub(crate) duration_ms: Option<f64>,
    /// sessionEnd: how the conversation ended.
    #[serde(default)]
    pub(crate) final_status: Option<String>,
    /// sessionEnd and postToolUseFailure: the error.
    #[serde(default)]
    pub(crate) error_message: Option<String>,
    /// beforeSubmitPrompt: the prompt text.
    #[serde(default)]
    pub(crate) prompt: Option<String>,
    /// beforeSubmitPrompt and beforeReadFile: attached files and rules.
    #[serde(default)]
    pub(crate) attachments: Option<Value>,
    /// Tool and MCP events: the tool's name.
    #[serde(default)]
    pub(crate) tool_name: Option<String>,
    /// Tool and MCP events: the input (an object, or a JSON string for MCP events).
    #[serde(default)]
    pub(crate) tool_input: Option<Value>,
    /// postToolUse: the output, as a JSON string.
    #[serde(default)]
    pub(crate) tool_output: Option<Value>,
    /// Tool events: the call id.
    #[serde(default)]
    pub(crate) tool_use_id: Option<String>,
    /// preToolUse: the agent's message.
    #[serde(default)]
    pub(crate) agent_message: Option<String>,
    /// post-tool and shell/MCP events: how long the call took, in milliseconds.
    #[serde(default)]
    pub(crate) duration: Option<f64>,
    /// postToolUseFailure: `error`, `timeout` or `permission_denied`.
    #[serde(default)]
    pub(crate) failure_type: Option<String>,
    /// postToolUseFailure: whether the user interrupted the call.
    #[serde(default)]
    pub(crate) is_interrupt: Option<bool>,
    /// subagentStart: the subagent's id.
    #[serde(default)]
    pub(crate) subagent_id: Option<String>,
    /// Subagent events: the subagent's type.
    #[serde(default)]
    pub(crate) subagent_type: Option<String>,
    /// Subagent events: the task given to it.
    #[serde(default)]
    pub(crate) task: Option<String>,
    /// subagentStart: the parent conversation.
    #[serde(default)]
    pub(crate) parent_conversation_id: Option<String>,
    /// subagentStop and stop: `completed`, `aborted` or `error`.
    #[serde(default)]
    pub(crate) status: Option<String>,
    /// subagentStop: what the subagent did.
    #[serde(default)]
    pub(crate) summary: Option<String>,
    /// stop and subagentStop: how many follow-ups ran already.
    #[serde(default)]
    pub(crate) loop_count: Option<f64>,
    /// subagentStop: files it changed.
    #[serde(default)]
    pub(crate) modified_files: Option<Vec<String>>,
    /// subagentStop: its transcript.
    #[serde(default)]
    pub(crate) agent_transcript_path: Option<String>,
    /// Shell events: the command line; MCP events: the server command.
    #[serde(default)]
    pub(crate) command: Option<String>,
    /// afterShellExecution: the command's output.
    #[serde(default)]
    pub(crate) output: Option<String>,
    /// Shell events: whether the command ran in the sandbox.
    #[serde(default)]
    pub(crate) sandbox: Option<bool>,
    /// beforeMCPExecution: the server URL.
    #[serde(default)]
    pub(crate) url: Option<String>,
    /// afterMCPExecution: the result, as a JSON string.
    #[serde(default)]
    pub(crate) result_json: Option<String>,
    /// File events: the file.
    #[serde(default)]
    pub(crate) file_path: Option<String>,
    /// beforeReadFile: the file's content.
    #[serde(default)]
    pub(crate) content: Option<String>,
    /// afterFileEdit: `[{old_string, new_string}]`.
    #[serde(default)]
    pub(crate) edits: Option<Value>,
    /// afterAgentResponse and afterAgentThought: the text.
    #[serde(default)]
    pub(crate) text: Option<String>,
    /// preCompact: `auto` or `manual`.
    #[serde(default)]
    pub(crate) trigger: Option<String>,
}

/// What a hook prints on stdout: always a JSON object, `{}` when there is nothing to say.
#[derive(Debug, Default, Serialize)]
pub(crate) struct HookOutput {
    /// beforeSubmitPrompt: whether the prompt is submitted.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub(crate) continue_: Option<bool>,
    /// before* events: `allow` or `deny`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission: Option<&'static str>,
    /// Shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) user_message: Option<String>,
    /// Shown to the agent when a tool call is denied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) agent_message: Option<String>,
    /// sessionStart: added to the conversation's initial system context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) additional_context: Option<String>,
    /// stop and subagentStop: submitted as the next user message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) followup_message: Option<String>,
}
