//! The one error type every `memory-core` API returns.

/// Errors returned by stores, note parsing and validation.
///
/// Stores keep their own private error types and convert them into this enum, choosing the most
/// meaningful variant and falling back to [`Error::Backend`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The thing asked for does not exist.
    #[error("{what} not found")]
    NotFound {
        /// What was looked up, in words (for example `note project:acme/conventions.md`).
        what: String,
    },
    /// A write conflicts with what the store already holds.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The caller passed something invalid (a bad note path, an oversize body, a broken cursor).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// Markdown with frontmatter could not be parsed into a note.
    #[error("invalid note document: {0}")]
    InvalidNote(String),
    /// The store does not implement an optional operation (see [`crate::Capabilities`]).
    #[error("{store} does not support {operation}")]
    Unsupported {
        /// The operation, for example `search_notes`.
        operation: &'static str,
        /// The store's name.
        store: &'static str,
    },
    /// The store's configuration is missing or wrong.
    #[error("{store} configuration: {message}")]
    Config {
        /// The store's name.
        store: &'static str,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// The storage backend failed.
    #[error("{store} backend error: {source}")]
    Backend {
        /// The store's name.
        store: &'static str,
        /// The underlying error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
        /// Whether retrying later may succeed (timeouts, a server that is down, lock contention).
        transient: bool,
    },
}

impl Error {
    /// Builds a [`Error::Backend`] from any error.
    pub fn backend(
        store: &'static str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
        transient: bool,
    ) -> Self {
        Self::Backend { store, source: source.into(), transient }
    }

    /// Whether retrying the same operation later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Backend { transient: true, .. })
    }
}

/// `Result` with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
