//! The crate's error type and its mapping onto [`memory_core::Error`].
//!
//! Every message is built from driver and server text with the configured password removed, so
//! no error can carry it.

use std::time::Duration;

use crate::STORE_NAME;

/// What went wrong talking to Neo4j. Returned as the `source` of [`memory_core::Error::Backend`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Neo4jStoreError {
    /// The operation did not finish within the configured timeout.
    #[error("{operation} timed out after {after:?}")]
    Timeout {
        /// The store operation (`append`, `search_notes`…).
        operation: &'static str,
        /// The timeout that expired.
        after: Duration,
    },
    /// The server could not be reached, or the connection broke.
    #[error("{operation}: cannot reach the Neo4j server: {message}")]
    Connection {
        /// The store operation.
        operation: &'static str,
        /// The driver's description.
        message: String,
    },
    /// The server rejected a statement.
    #[error("{operation}: Neo4j error {code}: {message}")]
    Server {
        /// The store operation.
        operation: &'static str,
        /// The Neo4j status code (`Neo.TransientError.Transaction.DeadlockDetected`).
        code: String,
        /// The server's message.
        message: String,
    },
    /// The driver failed in another way.
    #[error("{operation}: {message}")]
    Driver {
        /// The store operation.
        operation: &'static str,
        /// The driver's description.
        message: String,
    },
    /// Data read back from the database is not what this crate writes.
    #[error("{operation}: unreadable stored data: {message}")]
    Corrupt {
        /// The store operation.
        operation: &'static str,
        /// What could not be read.
        message: String,
    },
}

impl Neo4jStoreError {
    /// Whether retrying later may succeed: timeouts, connection failures and Neo4j transient
    /// errors (deadlocks, lock timeouts, an unavailable database).
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Timeout { .. } | Self::Connection { .. } => true,
            Self::Server { code, .. } => {
                code.starts_with("Neo.TransientError.")
                    || code == "Neo.ClientError.Transaction.LockClientStopped"
                    || code == "Neo.ClientError.Database.DatabaseUnavailable"
            }
            Self::Driver { .. } | Self::Corrupt { .. } => false,
        }
    }

    /// Whether a write broke a uniqueness constraint (an event id already stored).
    pub(crate) fn is_constraint_violation(&self) -> bool {
        matches!(self, Self::Server { code, .. } if code == "Neo.ClientError.Schema.ConstraintValidationFailed")
    }

    /// Whether the server refused the credentials.
    fn is_auth_failure(&self) -> bool {
        matches!(self, Self::Server { code, .. } if code.starts_with("Neo.ClientError.Security."))
    }

    /// Classifies a driver error, removing `secret` from every message.
    pub(crate) fn from_driver(operation: &'static str, error: neo4rs::Error, secret: &str) -> Self {
        let clean = |text: String| redact(text, secret);
        match error {
            neo4rs::Error::Neo4j(e) => {
                Self::Server { operation, code: e.code().to_owned(), message: clean(e.message().to_owned()) }
            }
            neo4rs::Error::AuthenticationError(message) => Self::Server {
                operation,
                code: "Neo.ClientError.Security.Unauthorized".to_owned(),
                message: clean(message),
            },
            e @ (neo4rs::Error::IOError { .. }
            | neo4rs::Error::ConnectionError
            | neo4rs::Error::ConnectionTimedOut
            | neo4rs::Error::IncompleteBoltExchange
            | neo4rs::Error::ServerUnavailableError(_)
            | neo4rs::Error::RequestIgnoredError) => {
                Self::Connection { operation, message: clean(e.to_string()) }
            }
            e => Self::Driver { operation, message: clean(e.to_string()) },
        }
    }

    /// Converts into the error every store returns.
    pub(crate) fn into_core(self) -> memory_core::Error {
        if self.is_auth_failure() {
            return memory_core::Error::Config {
                store: STORE_NAME,
                message: format!("{self} (check the user name and password)"),
            };
        }
        let transient = self.is_transient();
        memory_core::Error::backend(STORE_NAME, self, transient)
    }
}

/// `text` with every occurrence of `secret` replaced.
pub(crate) fn redact(text: String, secret: &str) -> String {
    if secret.is_empty() || !text.contains(secret) { text } else { text.replace(secret, "<redacted>") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_transient_errors() {
        let timeout = Neo4jStoreError::Timeout { operation: "append", after: Duration::from_secs(1) };
        assert!(timeout.is_transient());
        assert!(timeout.into_core().is_transient());
        let deadlock = Neo4jStoreError::Server {
            operation: "commit",
            code: "Neo.TransientError.Transaction.DeadlockDetected".to_owned(),
            message: "deadlock".to_owned(),
        };
        assert!(deadlock.is_transient());
        let syntax = Neo4jStoreError::Server {
            operation: "commit",
            code: "Neo.ClientError.Statement.SyntaxError".to_owned(),
            message: "bad".to_owned(),
        };
        assert!(!syntax.is_transient());
        assert!(!syntax.into_core().is_transient());
    }

    #[test]
    fn auth_failures_become_config_errors_without_the_password() {
        let error = neo4rs::Error::AuthenticationError("bad credentials for s3cret-pass".to_owned());
        let core = Neo4jStoreError::from_driver("connect", error, "s3cret-pass").into_core();
        assert!(matches!(core, memory_core::Error::Config { store: "neo4j", .. }), "{core:?}");
        assert!(!core.to_string().contains("s3cret-pass"), "{core}");
        assert!(!format!("{core:?}").contains("s3cret-pass"), "{core:?}");
    }

    #[test]
    fn connection_errors_are_transient() {
        let core = Neo4jStoreError::from_driver("append", neo4rs::Error::ConnectionError, "x").into_core();
        assert!(core.is_transient(), "{core:?}");
    }
}
