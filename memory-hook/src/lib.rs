//! The agent-memory hook runtime: everything that makes a hook correct, for the `agent-memory`
//! binary and for custom harness integrations alike.
//!
//! A harness runs a hook with one lifecycle event as JSON on stdin and reads its answer on stdout.
//! [`Hook::run`] takes it from there, with any [`memory_core::HarnessAdapter`]:
//!
//! 1. a watchdog starts first: whatever happens, the harness is answered within the deadline
//!    ([`config::HookConfig::deadline_ms`], longer for events that inject) with a non-blocking
//!    answer;
//! 2. stdin is read up to a bound, parsed by the adapter, skipped when agent-memory's own
//!    processes ([`GUARD_VAR`]) or another harness's hook own it;
//! 3. the event is filed under its [`project`] (the [`project::Registry`] in the data folder keeps
//!    a project's id when a remote, a project file, a move or a second clone changes its folder),
//!    stamped with its [`owner`] (read from the configuration, never from a process) and redacted
//!    ([`memory_redact`]);
//! 4. journaled events are delivered in order, then the event is appended to the store (or
//!    [`journal`]ed when the store is slow, down or paused by [`health`]); with a server store in
//!    forward mode the event is journaled at once and a single-flight forwarder delivers it
//!    ([`forward`]), and notes are read from a local copy ([`replica`]);
//! 5. at a session start or a prompt, the relevant notes are selected within budgets
//!    ([`inject`]) and given at most once per session ([`ledger`]), and the adapter renders the
//!    answer;
//! 6. the event is counted for the dream, and after a session ends (or once enough events wait)
//!    the dream is started in the background, one at a time ([`autodream`]).
//!
//! A project can share its notes through its repository ([`share`]): the dream writes them to a
//! folder there, and every clone's hooks read it before they inject.
//!
//! The dream such a hook starts runs through [`dream_run`] ([`dream_run::background`] with the lock
//! the hook handed over; [`dream_run::by_hand`] for a run someone asks for), so a custom
//! integration's dream is the binary's: the same provider, limits, lock and record of each run.
//!
//! The caller supplies the store ([`OpenStore`]) and the process-level parts ([`Process`]: writing
//! a late answer and exiting, handing a payload off, starting the dream). [`paths`] and [`Config`]
//! say where the binary keeps its files, so a custom integration shares the user's memory.
//!
//! Invariants: a hook never exits with a blocking code; no event is lost (an event that cannot be
//! stored is journaled, in a fallback folder when the data folder cannot be written); nothing
//! reaches the store, the journal, a log or stderr before redaction.

pub mod autodream;
pub mod capture;
pub mod config;
pub mod context_file;
pub mod dream_lease;
pub mod dream_run;
mod env;
mod error;
pub mod explain;
pub mod forget;
pub mod forward;
pub mod health;
pub mod history;
pub mod hook_log;
pub mod in_general;
pub mod inject;
pub mod journal;
pub mod ledger;
pub mod left_off;
pub mod lock;
pub mod log;
pub mod notes;
pub mod owner;
pub mod paths;
pub mod project;
pub mod replica;
pub mod retention;
mod runtime;
pub mod sessions;
pub mod settings;
pub mod share;
pub mod team;
pub mod tool_time;
mod watchdog;

pub use autodream::{DreamClaim, DreamLock, Trigger};
pub use config::{Backend, Config, StoreMode};
pub use env::Env;
pub use error::{Error, Result};
pub use forward::ForwardClaim;
pub use journal::{DrainMode, Drained, Journal};
pub use project::Project;
pub use runtime::{Answered, EXIT_BAD_INPUT, GUARD_VAR, HANDOFF_VAR, Hook, OpenStore, Outcome, Process};
