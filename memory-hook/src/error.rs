//! The errors of the hook runtime.

use std::path::PathBuf;

/// What can go wrong in the hook runtime. Every message is one line, safe to print: no payload
/// value is quoted in it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The configuration file does not parse.
    #[error("config file {} is invalid: {message}; fix or remove it", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// The configuration file named by `AGENT_MEMORY_CONFIG` cannot be read.
    #[error("cannot read config file {} (from AGENT_MEMORY_CONFIG): {cause}", path.display())]
    ConfigUnreadable {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// An environment variable has a value that cannot be used.
    #[error("{name}: {message}")]
    Env {
        /// The variable.
        name: &'static str,
        /// What is wrong with its value.
        message: String,
    },
    /// The journal could not be read or written.
    #[error("journal {}: {cause}", path.display())]
    Journal {
        /// The file or folder.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// A store call failed.
    #[error(transparent)]
    Store(#[from] memory_core::Error),
    /// A file the runtime keeps (a ledger, a context file) could not be written.
    #[error("{}: {cause}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
}

/// The runtime's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |cause| Self::Io { path, cause }
    }

    pub(crate) fn journal(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |cause| Self::Journal { path, cause }
    }
}
