//! adapter-codex.
