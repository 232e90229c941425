//! Secret redaction applied before anything persists.
