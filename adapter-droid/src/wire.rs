//! Droid's hook payload: the JSON a hook reads on stdin.
//!
//! Field names and nesting follow the harness exactly (snake_case, as Claude Code's). Only
//! `session_id` and `hook_event_name` are always sent; everything else is optional, and fields this
//! version does not know are ignored here (they stay in the event's raw payload).

claude_protocol::hook_input! {
    /// One hook payload, any event: the fields every Claude-shaped harness sends, then droid's own.
    /// Event-specific fields are `None` on events that do not carry them.
    ///
    /// Of the common fields, `session_id` is the session UUID; `transcript_path` the session's JSONL
    /// file under `~/.factory/sessions/<project>/`; `prompt` (UserPromptSubmit) the user's text;
    /// `tool_name` droid's names (`Execute`, `Read`, `Create`, `Edit`, …); `tool_response`
    /// (PostToolUse) the text the model is given, a JSON document in a string for the file tools.
    /// Droid sends no `tool_use_id` and no `model`.
    #[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
    pub(crate) struct HookInput {
        /// The autonomy level: `off`, `auto-low`, `auto-medium`, `auto-high`, `spec`, …
        #[serde(default)]
        pub(crate) permission_mode: Option<String>,
        /// UserPromptSubmit: the prompt's message id; Stop, SessionEnd, PreCompact: the last
        /// message's.
        #[serde(default)]
        pub(crate) message_id: Option<String>,
        /// UserPromptSubmit: whether images came with the prompt.
        #[serde(default)]
        pub(crate) has_images: Option<bool>,
        /// SessionStart: the file a hook may write `export` lines to for later commands (named
        /// after Claude Code's variable).
        #[serde(default, rename = "CLAUDE_ENV_FILE")]
        pub(crate) env_file: Option<String>,
        /// Stop and SubagentStop: whether a stop hook already continued this turn.
        #[serde(default)]
        pub(crate) stop_hook_active: Option<bool>,
        /// Stop: tool calls of the turn, as droid counts them.
        #[serde(default)]
        pub(crate) tool_execution_count: Option<u64>,
        /// Stop: the turn's length in milliseconds.
        #[serde(default)]
        pub(crate) elapsed_time: Option<f64>,
        /// PreCompact: `manual` or `auto`.
        #[serde(default)]
        pub(crate) trigger: Option<String>,
        /// PreCompact: the user's compaction instructions.
        #[serde(default)]
        pub(crate) custom_instructions: Option<String>,
        /// SessionEnd: why the session ended (`other`, …).
        #[serde(default)]
        pub(crate) reason: Option<String>,
        /// Notification: the message shown.
        #[serde(default)]
        pub(crate) message: Option<String>,
        /// SubagentStop: the subagent's task result.
        #[serde(default)]
        pub(crate) task_result: Option<serde_json::Value>,
    }
}
