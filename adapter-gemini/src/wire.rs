//! Gemini CLI's hook payload: the JSON a hook reads on stdin.
//!
//! Field names and nesting follow the harness exactly. Only `session_id` and `hook_event_name` are
//! always sent; everything else is optional, and fields this version does not know are ignored here
//! (they stay in the event's raw payload).

use serde_json::Value;

claude_protocol::hook_input! {
    /// One hook payload, any event: the fields every Claude-shaped harness sends, then Gemini
    /// CLI's own. Event-specific fields are `None` on events that do not carry them.
    ///
    /// Of the common fields, `session_id` is the session UUID (also `GEMINI_SESSION_ID` in the
    /// hook's environment); `transcript_path` the chat file under `~/.gemini/tmp/<project>/chats/`;
    /// `prompt` (BeforeAgent, AfterAgent) the user turn's text, with any SessionStart context
    /// prepended; `tool_name` Gemini's own (`run_shell_command`, `replace`, `read_file`, …);
    /// `tool_response` (AfterTool) `{llmContent, returnDisplay, error?}`. Gemini sends no model
    /// slug and no tool call id.
    #[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
    pub(crate) struct HookInput {
        /// When the event fired (ISO 8601).
        #[serde(default)]
        pub(crate) timestamp: Option<String>,
        /// AfterAgent: the answer's text.
        #[serde(default)]
        pub(crate) prompt_response: Option<String>,
        /// AfterAgent: whether a hook already asked for another try.
        #[serde(default)]
        pub(crate) stop_hook_active: Option<bool>,
        /// SessionEnd: `exit`, `clear`, `logout`, `prompt_input_exit` or `other`.
        #[serde(default)]
        pub(crate) reason: Option<String>,
        /// PreCompress: `auto` or `manual`.
        #[serde(default)]
        pub(crate) trigger: Option<String>,
        /// Notification: its kind (`ToolPermission`).
        #[serde(default)]
        pub(crate) notification_type: Option<String>,
        /// Notification: the message shown.
        #[serde(default)]
        pub(crate) message: Option<String>,
        /// Notification: what it is about.
        #[serde(default)]
        pub(crate) details: Option<Value>,
        /// BeforeModel, AfterModel, BeforeToolSelection: the model request.
        #[serde(default)]
        pub(crate) llm_request: Option<Value>,
        /// AfterModel: one streamed chunk of the answer.
        #[serde(default)]
        pub(crate) llm_response: Option<Value>,
    }
}
