//! The hook-runtime behaviour suite: what [`memory_hook::Hook`] must do for any harness adapter,
//! one public function per behaviour, and [`hook_runtime_suite!`](crate::hook_runtime_suite) to
//! run them all as separate tests with one line.
//!
//! An adapter's tests implement [`HookFixtures`] (the adapter, payload builders, a store opener)
//! and write
//!
//! ```text
//! memory_testkit::hook_runtime_suite!(MyFixtures);
//! ```
//!
//! which expands into one `#[test]` per behaviour, named after it, so the first failure hides no
//! other and a test's name says what broke. [`BEHAVIOURS`] lists the same functions for runners
//! that register tests themselves.
//!
//! Every behaviour runs real hooks in process, each test in its own folder: its own data folder
//! (`AGENT_MEMORY_HOME`), configuration file (`AGENT_MEMORY_CONFIG`), temporary folder (`TMPDIR`,
//! so the fallback journal is the test's own) and home. The process side of each hook records the
//! watchdog's late answer with its time, finishes a hand-off by running a second hook with
//! [`memory_hook::HANDOFF_VAR`] set on a thread, as the `agent-memory` binary starts a process of
//! its own, and records each dream a hook starts, holding its lock as the dream would until the
//! behaviour lets it go. A store is made slow or unreachable with a real lock on its SQLite file, taken from a
//! connection of the suite's own, so the store opener must open the embedded SQLite store at
//! [`memory_hook::Config::sqlite_path`], as the binary does.
//!
//! Behaviours an adapter's harness cannot show (context on a prompt, a start after a compaction)
//! check what the harness gets instead, as [`memory_core::HarnessAdapter::support`] declares it.

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use serde_json::Value;

mod bench;
mod capture;
mod deadline;
mod dream;
mod inject;
mod input;
mod journal;
mod owner;

pub use capture::paused_and_excluded_sessions_record_nothing;
pub use deadline::{
    caught_payloads_are_handed_off_and_journaled, deadline_answers_pass_and_journals,
    maximal_payload_meets_the_deadline, slow_server_is_paused,
};
pub use dream::{
    a_backlog_starts_the_dream_without_a_session_end, a_session_end_starts_one_dream_at_a_time,
    hooks_ending_sessions_at_once_start_one_dream,
};
pub use inject::{compaction_makes_notes_due_again, notes_are_injected_once_per_session};
pub use input::{
    bad_input_fails_open_without_leaking, broken_config_warns_and_keeps_the_event, deep_payloads_read_back,
    random_extra_fields_read_back, unwritable_data_dir_journals_in_fallback,
};
pub use journal::{
    journaled_events_are_delivered_in_order, killed_writes_are_recovered_or_removed,
    large_events_do_not_hold_up_small_ones, no_event_lost_under_contention,
};
pub use owner::every_event_records_the_configured_owner;

/// What the suite needs from an adapter's tests: the adapter, payloads of its harness's shape, and
/// the store hooks write to.
///
/// Payload builders take the harness's own session id and the session's working directory, and
/// return the JSON the harness writes on the hook's stdin. The suite adds fields of its own to
/// them (unknown fields, deep nesting), so the adapter must keep unknown fields.
pub trait HookFixtures: Sync {
    /// The adapter under test.
    fn adapter(&self) -> &'static dyn HarnessAdapter;

    /// Opens the store hooks write to: the embedded SQLite store at
    /// [`memory_hook::Config::sqlite_path`], in its inline mode when [`OpenStore::local`] says
    /// `true` (a hook then polls the store without an async runtime).
    fn stores(&self) -> &dyn OpenStore;

    /// The start of a new session.
    fn session_start(&self, session: &str, cwd: &Path) -> Value;

    /// A start that resumes `session`: the conversation keeps what earlier hooks injected.
    fn resumed_start(&self, session: &str, cwd: &Path) -> Value;

    /// A start after the conversation was compacted or cleared, so what was injected is gone;
    /// `None` when the harness reports no such start.
    fn compacted_start(&self, session: &str, cwd: &Path) -> Option<Value>;

    /// The user submitting `prompt`.
    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value;

    /// A finished shell tool call that ran `command`.
    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value;

    /// The end of `session` (the harness's `SessionEnd`).
    fn session_end(&self, session: &str, cwd: &Path) -> Value;

    /// A payload the adapter rejects because one field has the wrong type, with `secret` in that
    /// field (a string where the harness sends a number, for example), so the parser's message may
    /// quote it.
    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value;
}

/// One behaviour of the suite.
pub type Behaviour = fn(&dyn HookFixtures);

#[doc(hidden)]
#[macro_export]
macro_rules! __hook_runtime_behaviours {
    ($callback:ident!($($args:tt)*)) => {
        $crate::$callback!(
            $($args)*;
            deadline_answers_pass_and_journals,
            caught_payloads_are_handed_off_and_journaled,
            bad_input_fails_open_without_leaking,
            no_event_lost_under_contention,
            large_events_do_not_hold_up_small_ones,
            broken_config_warns_and_keeps_the_event,
            unwritable_data_dir_journals_in_fallback,
            journaled_events_are_delivered_in_order,
            notes_are_injected_once_per_session,
            compaction_makes_notes_due_again,
            maximal_payload_meets_the_deadline,
            deep_payloads_read_back,
            random_extra_fields_read_back,
            killed_writes_are_recovered_or_removed,
            slow_server_is_paused,
            a_session_end_starts_one_dream_at_a_time,
            a_backlog_starts_the_dream_without_a_session_end,
            hooks_ending_sessions_at_once_start_one_dream,
            paused_and_excluded_sessions_record_nothing,
            every_event_records_the_configured_owner,
        );
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __hook_runtime_tests {
    ($fixtures:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $crate::hook_runtime::$name(&$fixtures);
            }
        )*
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __hook_runtime_table {
    (; $($name:ident),* $(,)?) => {
        /// Every behaviour of the suite, by name, in the order [`crate::hook_runtime_suite!`]
        /// declares their tests.
        pub const BEHAVIOURS: &[(&str, Behaviour)] = &[$((stringify!($name), $name as Behaviour)),*];
    };
}

__hook_runtime_behaviours!(__hook_runtime_table!());

/// Expands into one `#[test]` per behaviour of [`hook_runtime`](crate::hook_runtime), each running
/// it against the given [`HookFixtures`] expression (evaluated once per test).
///
/// ```text
/// mod claude {
///     memory_testkit::hook_runtime_suite!(super::ClaudeFixtures);
/// }
/// ```
#[macro_export]
macro_rules! hook_runtime_suite {
    ($fixtures:expr) => {
        $crate::__hook_runtime_behaviours!(__hook_runtime_tests!($fixtures));
    };
}
