//! Codex's hook payload: the JSON a hook reads on stdin.
//!
//! Field names and nesting follow the harness exactly. Only `session_id` and `hook_event_name` are
//! always sent; everything else is optional, and fields this version does not know are ignored here
//! (they stay in the event's raw payload). What a hook prints is the shared format of
//! `claude_protocol`; Codex reads it with strict schemas (unknown keys fail the hook), so the
//! renderer prints only documented keys.

use serde_json::Value;

claude_protocol::hook_input! {
    /// One hook payload, any event: the fields every Claude-shaped harness sends, then Codex's
    /// own. Event-specific fields are `None` on events that do not carry them.
    ///
    /// Of the common fields, `session_id` is the thread id (UUIDv7; subagent hooks carry the
    /// parent's); `transcript_path` is the rollout file, or null; `cwd` is the session working
    /// directory; `model` is absent on SessionEnd; `tool_name` is `Bash`, `apply_patch`,
    /// `mcp__server__tool` or another function name; `tool_input` is `{command}` for Bash and
    /// apply_patch and the argument object otherwise; `tool_response` (PostToolUse) is a string for
    /// Bash, its output text.
    #[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
    pub(crate) struct HookInput {
        /// Turn id (UUIDv7), on turn-scoped events.
        #[serde(default)]
        pub(crate) turn_id: Option<String>,
        /// Permission mode (`default`, `bypassPermissions`, …).
        #[serde(default)]
        pub(crate) permission_mode: Option<String>,
        /// PreCompact and PostCompact: `manual` or `auto`.
        #[serde(default)]
        pub(crate) trigger: Option<String>,
        /// Subagent events, and hooks fired inside a subagent: its id.
        #[serde(default)]
        pub(crate) agent_id: Option<String>,
        /// Subagent events, and hooks fired inside a subagent: its type.
        #[serde(default)]
        pub(crate) agent_type: Option<String>,
        /// SubagentStop: the subagent's rollout, or null.
        #[serde(default)]
        pub(crate) agent_transcript_path: Option<String>,
        /// Stop and SubagentStop: whether a stop hook already continued this turn.
        #[serde(default)]
        pub(crate) stop_hook_active: Option<bool>,
        /// Stop and SubagentStop: the last assistant message, or null.
        #[serde(default)]
        pub(crate) last_assistant_message: Option<String>,
        /// SessionEnd: always `other` so far.
        #[serde(default)]
        pub(crate) reason: Option<String>,
        /// StopFailure (newer builds): the error kind.
        #[serde(default)]
        pub(crate) error: Option<String>,
        /// StopFailure (newer builds): details of the error.
        #[serde(default)]
        pub(crate) error_details: Option<Value>,
    }
}
