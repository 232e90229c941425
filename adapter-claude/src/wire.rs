//! Claude Code's hook wire format: the JSON a hook reads on stdin and the JSON it may print.
//!
//! Field names and nesting follow the harness exactly. Only `session_id` and `hook_event_name` are
//! always sent; everything else is optional, and fields this version does not know are ignored here
//! (they stay in the event's raw payload).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One hook payload, any event. Event-specific fields are `None` on events that do not carry them.
#[derive(Debug, Deserialize)]
#[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
pub(crate) struct HookInput {
    /// Session UUID; the same on every event of a session.
    pub(crate) session_id: String,
    /// The event's name (`SessionStart`, `PreToolUse`, …).
    pub(crate) hook_event_name: String,
    /// Path of the session transcript (JSONL).
    #[serde(default)]
    pub(crate) transcript_path: Option<String>,
    /// Working directory; follows `cd` and worktrees.
    #[serde(default)]
    pub(crate) cwd: Option<String>,
    /// Permission mode (`default`, `plan`, `acceptEdits`, …); absent on some events.
    #[serde(default)]
    pub(crate) permission_mode: Option<String>,
    /// Id of the current user prompt (v2.1.196+, absent before the first prompt).
    #[serde(default)]
    pub(crate) prompt_id: Option<String>,
    /// Model slug (SessionStart, when known).
    #[serde(default)]
    pub(crate) model: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear`, `compact` or `fork`.
    #[serde(default)]
    pub(crate) source: Option<String>,
    /// UserPromptSubmit and UserPromptExpansion: the prompt text.
    #[serde(default)]
    pub(crate) prompt: Option<String>,
    /// Tool events: the tool's name (`Bash`, `Write`, `mcp__server__tool`).
    #[serde(default)]
    pub(crate) tool_name: Option<String>,
    /// Tool events: the tool's input object.
    #[serde(default)]
    pub(crate) tool_input: Option<Value>,
    /// PostToolUse: the tool's structured output.
    #[serde(default)]
    pub(crate) tool_response: Option<Value>,
    /// Tool events: the call id that pairs PreToolUse with PostToolUse.
    #[serde(default)]
    pub(crate) tool_use_id: Option<String>,
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

/// What a hook prints on stdout (exit 0). Every field is optional; absent fields are not printed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookOutput {
    /// `false` stops Claude after the hook (not used by agent-memory).
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub(crate) continue_: Option<bool>,
    /// A warning shown to the user, never to the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) system_message: Option<String>,
    /// `block` on events with decision control.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decision: Option<&'static str>,
    /// Why the event is blocked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<String>,
    /// The event-specific answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) hook_specific_output: Option<HookSpecificOutput>,
}

impl HookOutput {
    /// Whether nothing would be printed.
    pub(crate) fn is_empty(&self) -> bool {
        self.continue_.is_none()
            && self.system_message.is_none()
            && self.decision.is_none()
            && self.reason.is_none()
            && self.hook_specific_output.is_none()
    }
}

/// `hookSpecificOutput`: must name the event that fired.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookSpecificOutput {
    /// The firing event's name.
    pub(crate) hook_event_name: String,
    /// Text added to the model's context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) additional_context: Option<String>,
    /// PreToolUse: `allow`, `deny`, `ask` or `defer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision: Option<&'static str>,
    /// PreToolUse: why (shown to Claude on deny).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision_reason: Option<String>,
    /// PermissionRequest: the answer to the permission dialog.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decision: Option<PermissionDecision>,
}

impl HookSpecificOutput {
    /// An empty answer for an event.
    pub(crate) fn new(event: &str) -> Self {
        Self {
            hook_event_name: event.to_owned(),
            additional_context: None,
            permission_decision: None,
            permission_decision_reason: None,
            decision: None,
        }
    }

    /// Whether it carries nothing but the event name.
    pub(crate) fn is_empty(&self) -> bool {
        self.additional_context.is_none() && self.permission_decision.is_none() && self.decision.is_none()
    }
}

/// PermissionRequest's `decision` object.
#[derive(Debug, Serialize)]
pub(crate) struct PermissionDecision {
    /// `allow` or `deny`.
    pub(crate) behavior: &'static str,
    /// Why, on deny.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
}
