//! memory-testkit.
