//! Normalised [`HookResponse`] → the stdout a Claude-shaped harness accepts for each event.
//!
//! Everything is printed as one JSON object with exit 0: JSON on other exit codes is read
//! differently across harnesses and versions (Codex discards it, Claude Code's reading changed
//! between releases), and plain text is never printed (context starting with `[` or `{` would be
//! taken for JSON). Parts an event cannot carry are left out, each event gets only the keys that
//! carry what it honours (Codex fails a hook on any key its schema does not list), and an answer
//! with nothing to say prints nothing.

use memory_core::{Decision, EventKind, HookResponse, Rendered, Support, truncate_markdown};

use crate::output::{HookOutput, HookSpecificOutput, PermissionDecision};

/// Reason given when a block comes without one (Claude Code requires a reason on Stop blocks;
/// Codex fails a block with an empty reason).
pub const DEFAULT_REASON: &str = "Blocked by agent-memory.";

/// What one harness does with the shared answer format.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Protocol {
    /// What the harness honours in an answer to each kind of event.
    pub support: fn(&EventKind) -> Support,
    /// Longest text, in characters, the harness takes in one field of an answer; longer context
    /// is cut at a Markdown boundary with a visible marker.
    pub context_cap: usize,
    /// The harness's own name for an event kind, written as `hookSpecificOutput.hookEventName`:
    /// the normalised name unless the harness names its events otherwise (Gemini CLI's
    /// `BeforeAgent` is a `UserPromptSubmit`).
    pub event_name: fn(&EventKind) -> &str,
}

impl Protocol {
    /// A harness's protocol from what it honours and how much context it takes; events keep their
    /// normalised names.
    pub const fn new(support: fn(&EventKind) -> Support, context_cap: usize) -> Self {
        Self { support, context_cap, event_name: EventKind::as_str }
    }

    /// The same protocol, with the harness's own event names in answers.
    pub const fn with_event_names(self, event_name: fn(&EventKind) -> &str) -> Self {
        Self { event_name, ..self }
    }
}

/// Renders an answer for one event: context as `hookSpecificOutput.additionalContext`, a block as
/// PreToolUse's `permissionDecision: "deny"`, PermissionRequest's `decision.behavior: "deny"` or
/// the top-level `decision: "block"` with a `reason`, an allow as `permissionDecision: "allow"` or
/// `decision.behavior: "allow"` where the event has one, a user message as `systemMessage`.
pub fn render(protocol: &Protocol, kind: &EventKind, response: &HookResponse) -> Rendered {
    let name = (protocol.event_name)(kind);
    let can = (protocol.support)(kind);
    let cap = |text: &str| truncate_markdown(text, protocol.context_cap).into_owned();
    let mut out = HookOutput::default();
    let mut specific = HookSpecificOutput::new(name);

    if can.context
        && let Some(context) = response.context.as_deref().filter(|c| !c.trim().is_empty())
    {
        specific.additional_context = Some(cap(context));
    }
    match &response.decision {
        Decision::Block { reason } if can.block => {
            let reason = cap(if reason.trim().is_empty() { DEFAULT_REASON } else { reason });
            match name {
                "PreToolUse" => {
                    specific.permission_decision = Some("deny");
                    specific.permission_decision_reason = Some(reason);
                }
                "PermissionRequest" => {
                    specific.decision = Some(PermissionDecision { behavior: "deny", message: Some(reason) });
                }
                _ => {
                    out.decision = Some("block");
                    out.reason = Some(reason);
                }
            }
        }
        Decision::Allow { reason } => match name {
            "PreToolUse" => {
                specific.permission_decision = Some("allow");
                specific.permission_decision_reason = reason.as_deref().map(cap);
            }
            "PermissionRequest" => {
                specific.decision = Some(PermissionDecision { behavior: "allow", message: None });
            }
            _ => {}
        },
        _ => {}
    }
    if can.user_message
        && let Some(message) = response.user_message.as_deref().filter(|m| !m.trim().is_empty())
    {
        out.system_message = Some(cap(message));
    }
    if !specific.is_empty() {
        out.hook_specific_output = Some(specific);
    }
    if out.is_empty() {
        return Rendered::ok("");
    }
    Rendered::ok(serde_json::to_string(&out).expect("hook output always serialises"))
}
