//! Claude Code's hook payload: the JSON a hook reads on stdin.
//!
//! Field names and nesting follow the harness exactly. Only `session_id` and `hook_event_name` are
//! always sent; everything else is optional, and fields this version does not know are ignored here
//! (they stay in the event's raw payload). What a hook prints is the shared format of
//! `claude_protocol`.

claude_protocol::hook_input! {
    /// One hook payload, any event: the fields every Claude-shaped harness sends, then Claude
    /// Code's own. Event-specific fields are `None` on events that do not carry them.
    ///
    /// Of the common fields, `session_id` is the session UUID; `transcript_path` the session's
    /// JSONL transcript; `cwd` follows `cd` and worktrees; `model` is sent on SessionStart, when
    /// known; `prompt` on UserPromptSubmit and UserPromptExpansion; `tool_response` is the tool's
    /// structured output on PostToolUse.
    #[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
    pub(crate) struct HookInput {
        /// Permission mode (`default`, `plan`, `acceptEdits`, …); absent on some events.
        #[serde(default)]
        pub(crate) permission_mode: Option<String>,
        /// Id of the current user prompt (v2.1.196+, absent before the first prompt).
        #[serde(default)]
        pub(crate) prompt_id: Option<String>,
        /// PostToolUseFailure: the error text; StopFailure: the error kind.
        #[serde(default)]
        pub(crate) error: Option<String>,
        /// PostToolUse and PostToolUseFailure: how long the call took, in milliseconds.
        #[serde(default)]
        pub(crate) duration_ms: Option<f64>,
        /// PostToolUseFailure: whether the user interrupted the call.
        #[serde(default)]
        pub(crate) is_interrupt: Option<bool>,
        /// Stop and SubagentStop: whether a stop hook already continued this turn.
        #[serde(default)]
        pub(crate) stop_hook_active: Option<bool>,
        /// Stop, SubagentStop and StopFailure: the last assistant message.
        #[serde(default)]
        pub(crate) last_assistant_message: Option<String>,
        /// Subagent events: the subagent's id.
        #[serde(default)]
        pub(crate) agent_id: Option<String>,
        /// Subagent events and `--agent` runs: the agent type.
        #[serde(default)]
        pub(crate) agent_type: Option<String>,
        /// SubagentStop: the subagent's own transcript.
        #[serde(default)]
        pub(crate) agent_transcript_path: Option<String>,
        /// PreCompact and PostCompact: `manual` or `auto`; Setup: `init` or `maintenance`.
        #[serde(default)]
        pub(crate) trigger: Option<String>,
        /// PreCompact: the user's compaction instructions (null or empty for auto).
        #[serde(default)]
        pub(crate) custom_instructions: Option<String>,
        /// PostCompact: the summary that replaced the conversation.
        #[serde(default)]
        pub(crate) compact_summary: Option<String>,
        /// SessionEnd: why the session ended.
        #[serde(default)]
        pub(crate) reason: Option<String>,
        /// Notification: the message shown.
        #[serde(default)]
        pub(crate) message: Option<String>,
        /// Notification: its kind (`permission_prompt`, `idle_prompt`, …).
        #[serde(default)]
        pub(crate) notification_type: Option<String>,
        /// InstructionsLoaded and FileChanged: the file concerned.
        #[serde(default)]
        pub(crate) file_path: Option<String>,
    }
}
