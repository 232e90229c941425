//! dream.
