//! The one error type of the dream crate.

/// Errors returned by a dream run and by providers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store failed; the run stopped and nothing after the last committed chunk was written.
    #[error(transparent)]
    Store(#[from] memory_core::Error),
    /// A provider is misconfigured (a missing API key, an unknown price with a cost cap).
    #[error("{provider} configuration: {message}")]
    Config {
        /// The provider's name.
        provider: String,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// A provider could not be reached or refused the request (after its retries).
    #[error("{provider}: {message}")]
    Provider {
        /// The provider's name.
        provider: String,
        /// What went wrong.
        message: String,
        /// Whether retrying later may succeed (rate limits, server errors, timeouts).
        transient: bool,
    },
    /// A provider answered, but the answer is not a valid set of operations (malformed JSON, output
    /// cut off, a refusal). The run retries once with this message, then gives up on the chunk.
    #[error("{provider} returned invalid output: {message}")]
    InvalidOutput {
        /// The provider's name.
        provider: String,
        /// What is wrong with the output.
        message: String,
        /// Tokens the failed call consumed, so the run can account for them.
        usage: crate::Usage,
    },
}

impl Error {
    /// Builds an [`Error::Provider`].
    pub fn provider(provider: impl Into<String>, message: impl Into<String>, transient: bool) -> Self {
        Self::Provider { provider: provider.into(), message: message.into(), transient }
    }

    /// Builds an [`Error::Config`].
    pub fn config(provider: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Config { provider: provider.into(), message: message.into() }
    }

    /// Builds an [`Error::InvalidOutput`].
    pub fn invalid_output(
        provider: impl Into<String>,
        message: impl Into<String>,
        usage: crate::Usage,
    ) -> Self {
        Self::InvalidOutput { provider: provider.into(), message: message.into(), usage }
    }
}

/// `Result` with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
