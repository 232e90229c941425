//! The one error type of this crate.

use std::path::{Path, PathBuf};

/// What can go wrong finding, installing or running the model.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No model is installed where it was looked for.
    #[error("no embedding model in {}; run `agent-memory model install`", dir.display())]
    NotInstalled {
        /// The folder looked in.
        dir: PathBuf,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The package or the model files are not what was expected.
    #[error("{0}")]
    Model(String),
    /// The store failed while notes were being embedded.
    #[error("store: {0}")]
    Store(String),
    /// A downloaded or given package does not have the pinned checksum.
    #[error("{what} has SHA-256 {actual}, expected {expected}: not the pinned model package")]
    Checksum {
        /// The file checked.
        what: String,
        /// Its digest.
        actual: String,
        /// The pinned digest.
        expected: String,
    },
}

impl Error {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io { path: path.to_owned(), source }
    }
}

/// This crate's results.
pub type Result<T, E = Error> = std::result::Result<T, E>;
