//! The `Provider` trait: anything that turns a chunk of events into note operations.

use crate::{DreamRequest, Pricing, ProviderReply, Result, Usage};

/// Proposes note operations for one chunk of events.
///
/// A provider only proposes; the dream validates every operation, renders the frontmatter and
/// commits. Providers must not read the clock (use [`DreamRequest::now`]) and must not print.
#[async_trait::async_trait]
pub trait Provider: Send + Sync + std::fmt::Debug {
    /// The name written as the `generator` of the notes it proposes (`deterministic`,
    /// `anthropic:claude-sonnet-4-5`, `claude-cli`).
    fn name(&self) -> String;

    /// Prices used to compute the cost of calls whose reply reports none; `None` when unknown.
    fn pricing(&self) -> Option<Pricing> {
        None
    }

    /// The most a call for this request may consume, checked against the run's caps before the call.
    /// The default assumes characters / 4 input tokens and the full output allowance.
    fn estimate_usage(&self, request: &DreamRequest) -> Usage {
        Usage {
            input_tokens: request.estimated_input_tokens(),
            output_tokens: request.limits.max_output_tokens,
            cost_usd: None,
        }
    }

    /// Proposes operations. Returns [`crate::Error::InvalidOutput`] when the answer cannot be parsed
    /// (the dream then retries once with the message), or another error when the call failed.
    async fn propose(&self, request: &DreamRequest) -> Result<ProviderReply>;
}
