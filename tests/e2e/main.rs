//! Workspace end-to-end tests.
