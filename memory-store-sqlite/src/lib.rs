//! An embedded SQLite store for agent-memory.
//! [`SqliteStore`] implements [`memory_core::MemoryStore`] on one SQLite file (by default
//! `$XDG_DATA_HOME/agent-memory/memory.db`, see [`SqliteConfig`]). It is built for hook processes
//! that open the database, append one event and exit, while other processes do the same:
//!
//! - WAL journal, `synchronous=NORMAL`, a busy timeout, and `BEGIN IMMEDIATE` for every write, so
//!   concurrent processes queue instead of failing; lock contention that outlasts the timeout is
//!   reported as a transient [`memory_core::Error::Backend`].
//! - Per-session sequence numbers are assigned inside the write transaction and guarded by a
//!   `UNIQUE (session, seq)` constraint; the store-wide position is the table's integer key.
//! - Opening is cheap: migrations run only when `PRAGMA user_version` is behind.
//! - Notes are indexed by an FTS5 table (`unicode61`, diacritics kept) ranked with BM25, title and
//!   tags weighted above the body. Queries are built only from [`memory_core::search::terms`],
//!   each term quoted, so user text is never FTS syntax.
//! - History search (`search_events`) reads a contentless FTS5 table of events' words, which
//!   searches fill from a mark (appends never touch it); `forget` deletes with `secure_delete`,
//!   merges both FTS5 indexes, vacuums and truncates the WAL, so no copy stays in the file.
//! - The database file is created with mode `0600`, and its directory `0700` when the store
//!   creates it.

mod config;
mod embeddings;
mod error;
mod event_embeddings;
mod events;
mod history;
mod leases;
mod notes;
mod schema;
mod search;
mod store;

pub use config::{DB_PATH_ENV, SqliteConfig};
pub use schema::SCHEMA_VERSION;
pub use store::SqliteStore;
