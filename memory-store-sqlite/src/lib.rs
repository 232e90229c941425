//! memory-store-sqlite.
