//! Qwen Code's hook payload: the JSON a hook reads on stdin.
//!
//! Field names and nesting follow the harness exactly. Only `session_id` and `hook_event_name` are
//! always sent; everything else is optional, and fields this version does not know are ignored here
//! (they stay in the event's raw payload).

use serde_json::Value;

claude_protocol::hook_input! {
    /// One hook payload, any event: the fields every Claude-shaped harness sends, then Qwen Code's
    /// own. Event-specific fields are `None` on events that do not carry them.
    ///
    /// Of the common fields, `session_id` is the session UUID (also `QWEN_CODE_SESSION_ID` in the
    /// hook's environment); `transcript_path` the chat file under
    /// `~/.qwen/projects/<project>/chats/`; `prompt` (UserPromptSubmit) the user's text, empty on
    /// the repeats before a turn's follow-up model calls; `tool_name` Gemini CLI's names
    /// (`run_shell_command`, `edit`, `read_file`, …); `tool_response` (PostToolUse)
    /// `{llmContent, returnDisplay}`; `model` (SessionStart) the model's name.
    #[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
    pub(crate) struct HookInput {
        /// When the event fired (ISO 8601).
        #[serde(default)]
        pub(crate) timestamp: Option<String>,
        /// `default`, `plan`, `auto-edit` or `yolo`.
        #[serde(default)]
        pub(crate) permission_mode: Option<String>,
        /// The turn's id (`<session>########<n>`).
        #[serde(default)]
        pub(crate) prompt_id: Option<String>,
        /// UserPromptSubmit: the prompt as typed, before expansion.
        #[serde(default)]
        pub(crate) submitted_prompt: Option<String>,
        /// Tool events: the model's own id for the call.
        #[serde(default)]
        pub(crate) tool_call_id: Option<String>,
        /// PostToolUseFailure: what went wrong (a shell command's output with its `Exit Code: N`).
        #[serde(default)]
        pub(crate) error: Option<String>,
        /// PostToolUseFailure: whether the user interrupted the call.
        #[serde(default)]
        pub(crate) is_interrupt: Option<bool>,
        /// PostToolUseFailure: how long the call ran.
        #[serde(default)]
        pub(crate) duration_ms: Option<f64>,
        /// PostToolBatch: every call of the batch with its status and response.
        #[serde(default)]
        pub(crate) tool_calls: Option<Value>,
        /// Stop: whether a hook already asked for another try.
        #[serde(default)]
        pub(crate) stop_hook_active: Option<bool>,
        /// Stop: the answer's text.
        #[serde(default)]
        pub(crate) last_assistant_message: Option<String>,
        /// SessionEnd: `clear`, `prompt_input_exit`, …
        #[serde(default)]
        pub(crate) reason: Option<String>,
        /// PreCompact: `auto` or `manual`.
        #[serde(default)]
        pub(crate) trigger: Option<String>,
        /// MessageDisplay: the text shown.
        #[serde(default)]
        pub(crate) displayed_text: Option<String>,
        /// InstructionsLoaded: the instructions file read.
        #[serde(default)]
        pub(crate) file_path: Option<String>,
    }
}
