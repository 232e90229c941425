//! The store's private error type and its conversion into [`memory_core::Error`].

use std::path::PathBuf;

use rusqlite::ErrorCode;

const STORE: &str = "sqlite";

/// Everything that can go wrong inside the store.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StoreError {
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error("cannot prepare {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("stored JSON is unreadable: {0}")]
    Json(#[from] serde_json::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error(
        "the database has schema version {found}, newer than the {supported} this version knows; upgrade agent-memory"
    )]
    TooNew { found: i64, supported: i64 },
    #[error("the connection lock was poisoned by a panic")]
    Poisoned,
    #[error("the database worker stopped: {0}")]
    Worker(String),
    #[error(
        "another process kept reading the database, so its write-ahead log could not be emptied: what \
         was forgotten is deleted, but older copies of it may stay in the log until the same forget runs again"
    )]
    WalBusy,
}

impl StoreError {
    pub(crate) fn is_transient(&self) -> bool {
        match self {
            Self::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                matches!(e.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            }
            Self::WalBusy => true,
            _ => false,
        }
    }
}

impl From<StoreError> for memory_core::Error {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Io { .. } | StoreError::TooNew { .. } => {
                memory_core::Error::Config { store: STORE, message: error.to_string() }
            }
            other => {
                let transient = other.is_transient();
                memory_core::Error::backend(STORE, other, transient)
            }
        }
    }
}
