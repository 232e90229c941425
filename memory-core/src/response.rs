//! The normalised answer a hook gives, which each adapter renders for its harness.

use serde::{Deserialize, Serialize};

/// Whether the action the hook fired for may go ahead.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "lowercase")]
pub enum Decision {
    /// Say nothing: the harness proceeds as it would without the hook.
    #[default]
    Pass,
    /// Explicitly allow.
    Allow {
        /// Why, when the harness shows it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Block the prompt, tool call or stop.
    Block {
        /// Why; shown to the agent or user.
        reason: String,
    },
}

/// What a hook answers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookResponse {
    /// Text to add to the agent's context (notes, labelled as reference material).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// Allow, block, or say nothing.
    #[serde(default)]
    pub decision: Decision,
    /// A message for the user, where the harness can show one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_message: Option<String>,
}

impl HookResponse {
    /// The empty answer: no context, no decision.
    pub fn pass() -> Self {
        Self::default()
    }

    /// An answer that adds context.
    pub fn with_context(context: impl Into<String>) -> Self {
        Self { context: Some(context.into()), ..Self::default() }
    }

    /// An answer that blocks with a reason.
    pub fn block(reason: impl Into<String>) -> Self {
        Self { decision: Decision::Block { reason: reason.into() }, ..Self::default() }
    }

    /// Whether there is nothing to say.
    pub fn is_empty(&self) -> bool {
        self.context.is_none() && self.decision == Decision::Pass && self.user_message.is_none()
    }
}
