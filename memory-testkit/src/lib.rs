//! Shared test support for agent-memory: stores, harness adapters and the hook runtime.
//!
//! - [`run_conformance`] and the individual checks in [`conformance`] state the behaviour every
//!   [`memory_core::MemoryStore`] must have. Every check works in its own freshly named sessions,
//!   scopes and watermarks, so the suite can run against a store that already holds data.
//! - [`hostile_search`] and [`HOSTILE_QUERIES`] make sure user text never reaches query syntax.
//! - [`strategies`] holds proptest strategies for events, notes, note paths and scopes.
//! - [`model_check`] applies random operation sequences to a store and to
//!   [`memory_core::InMemoryStore`] and compares everything observable.
//! - [`multi_process`] lets a store's test spawn copies of its own test binary that append to one
//!   session at once.
//! - [`contract`] holds the fixture checks, fixed inputs and output rules every harness adapter's
//!   contract tests share.
//! - [`hook_runtime`] states the behaviour of [`memory_hook::Hook`] for any harness adapter: one
//!   function per behaviour, and [`hook_runtime_suite!`] to run them all as tests with one line.
#![deny(missing_docs)]

pub mod conformance;
pub mod contract;
pub mod fixtures;
pub mod hook_runtime;
mod hostile;
mod model;
pub mod multi_process;
pub mod strategies;

pub use conformance::run_conformance;
pub use hostile::{HOSTILE_QUERIES, hostile_search};
pub use model::model_check;
pub use strategies::{arb_event, arb_events_for_sessions, arb_note, arb_note_path, arb_scope};
