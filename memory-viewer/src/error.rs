//! The viewer's errors, and the page each one answers with.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// What can go wrong while serving the viewer. Messages are one line and quote nothing redaction
/// removed: everything the viewer reads comes from the store, which holds redacted text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The listener failed.
    #[error("the viewer's listener failed: {0}")]
    Io(#[from] std::io::Error),
    /// The operating system gave no random numbers for the per-launch secrets.
    #[error("no random numbers from the operating system: {0}")]
    Random(String),
    /// The file that keeps the viewer's token could not be read or written.
    #[error("viewer token {}: {cause}", path.display())]
    Token {
        /// The file.
        path: std::path::PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// A store call failed.
    #[error(transparent)]
    Store(#[from] memory_core::Error),
    /// The hook runtime (forget, injection, projects, notes) refused or failed.
    #[error(transparent)]
    Hook(#[from] memory_hook::Error),
    /// What a request asked for does not exist.
    #[error("{0}")]
    NotFound(String),
    /// A request that cannot be served as sent.
    #[error("{0}")]
    BadRequest(String),
}

/// The viewer's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = match &self {
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Hook(memory_hook::Error::Store(memory_core::Error::InvalidInput(_)))
            | Self::Hook(memory_hook::Error::Store(memory_core::Error::InvalidNote(_)))
            | Self::Store(memory_core::Error::InvalidInput(_))
            | Self::Store(memory_core::Error::InvalidNote(_))
            | Self::Hook(memory_hook::Error::UnknownProject { .. }) => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let body = crate::html::page(
            "Error",
            "",
            &format!("<h1>{}</h1><p class=\"error\">{}</p>", status, crate::html::esc(&self.to_string())),
        );
        (status, body).into_response()
    }
}
