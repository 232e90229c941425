//! Codex's hook wire format: the JSON a hook reads on stdin and the JSON it may print.
//!
//! Field names and nesting follow the harness exactly. Only `session_id` and `hook_event_name` are
//! always sent; everything else is optional, and fields this version does not know are ignored here
//! (they stay in the event's raw payload). Codex itself reads hook *output* with strict schemas
//! (unknown keys fail the hook), so the output types below hold only documented keys.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One hook payload, any event. Event-specific fields are `None` on events that do not carry them.
#[derive(Debug, Deserialize)]
#[allow(dead_code, reason = "mirrors the whole payload; fields not mapped stay readable in `raw`")]
pub(crate) struct HookInput {
    /// Thread id (UUIDv7). Subagent hooks carry the parent's.
    pub(crate) session_id: String,
    /// The event's name (`SessionStart`, `PreToolUse`, …).
    pub(crate) hook_event_name: String,
    /// Turn id (UUIDv7), on turn-scoped events.
    #[serde(default)]
    pub(crate) turn_id: Option<String>,
    /// The rollout file, or null.
    #[serde(default)]
    pub(crate) transcript_path: Option<String>,
    /// Session working directory.
    #[serde(default)]
    pub(crate) cwd: Option<String>,
    /// Model slug (absent on SessionEnd).
    #[serde(default)]
    pub(crate) model: Option<String>,
    /// Permission mode (`default`, `bypassPermissions`, …).
    #[serde(default)]
    pub(crate) permission_mode: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear`, `compact` or `fork`.
    #[serde(default)]
    pub(crate) source: Option<String>,
    /// UserPromptSubmit: the prompt text.
    #[serde(default)]
    pub(crate) prompt: Option<String>,
    /// Tool events: `Bash`, `apply_patch`, `mcp__server__tool`, other function names.
    #[serde(default)]
    pub(crate) tool_name: Option<String>,
    /// Tool events: `{command}` for Bash and apply_patch, the argument object otherwise.
    #[serde(default)]
    pub(crate) tool_input: Option<Value>,
    /// PostToolUse: the tool's response; a string for Bash (its output text).
    #[serde(default)]
    pub(crate) tool_response: Option<Value>,
    /// PreToolUse and PostToolUse: the call id.
    #[serde(default)]
    pub(crate) tool_use_id: Option<String>,
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

/// What a hook prints on stdout (exit 0). Which keys an event accepts is decided by the renderer;
/// absent fields are not printed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookOutput {
    /// A warning for the TUI and event stream; never reaches the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) system_message: Option<String>,
    /// `block` on UserPromptSubmit, Stop and SubagentStop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decision: Option<&'static str>,
    /// Why; must be non-empty with a block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<String>,
    /// The event-specific answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) hook_specific_output: Option<HookSpecificOutput>,
}

impl HookOutput {
    /// Whether nothing would be printed.
    pub(crate) fn is_empty(&self) -> bool {
        self.system_message.is_none()
            && self.decision.is_none()
            && self.reason.is_none()
            && self.hook_specific_output.is_none()
    }
}

/// `hookSpecificOutput`, naming the event that fired.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookSpecificOutput {
    /// The firing event's name.
    pub(crate) hook_event_name: String,
    /// Text added to the model's context as a developer message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) additional_context: Option<String>,
    /// PreToolUse: `allow` or `deny`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision: Option<&'static str>,
    /// PreToolUse: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision_reason: Option<String>,
    /// PermissionRequest: the answer to the approval request.
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
