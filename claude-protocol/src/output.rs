//! The answer a hook prints: one JSON object, every field optional.

use serde::Serialize;

/// What a hook prints on stdout (exit 0). Absent fields are not printed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookOutput {
    /// A message for the user (a warning in the harness's UI), never seen by the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) system_message: Option<String>,
    /// `block` on events with decision control.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decision: Option<&'static str>,
    /// Why the event is blocked; never empty with a block.
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

/// `hookSpecificOutput`: must name the event that fired.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HookSpecificOutput {
    /// The firing event's name.
    pub(crate) hook_event_name: String,
    /// Text added to the model's context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) additional_context: Option<String>,
    /// PreToolUse: `allow` or `deny`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision: Option<&'static str>,
    /// PreToolUse: why (shown to the model on deny).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision_reason: Option<String>,
    /// PermissionRequest: the answer to the permission request.
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
