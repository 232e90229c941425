//! adapter-claude.
