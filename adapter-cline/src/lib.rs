//! Cline CLI hook adapter for agent-memory.
//!
//! [`ClineAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Cline writes on
//! a hook file's stdin into a [`memory_core::HookEvent`], and renders a
//! [`memory_core::HookResponse`] into the stdout JSON Cline reads back.
//!
//! Cline's hooks are files named after the event (`TaskStart`, `PreToolUse`, …) in a hooks folder,
//! with a protocol of its own (camelCase payloads keyed by `hookName` and `taskId`, answers
//! `{cancel, contextModification, errorMessage}`), so nothing here is shared with the
//! Claude-shaped adapters. Only the tool hooks' answers reach the model; the notes of a session
//! start reach it through the always-read rules file at [`RULES_FILE`], which the hook runtime
//! keeps current (see [`HarnessAdapter::context_file`]).
//!
#![doc = include_str!("docs.md")]

mod hooks;
mod map;
mod output;
mod tools;
mod wire;

use memory_core::{
    Delivery, EventKind, HarnessAdapter, HookEvent, HookRegistration, HookResponse, Rendered, Result,
    Support, truncate_markdown,
};

/// The harness name used in session keys (`cline:<session id>`).
pub const HARNESS: &str = "cline";

/// Longest context sent in one answer: 10 000 characters.
///
/// Cline cuts a hook's context at 50 000 characters; the cap keeps one answer (and the rules file)
/// the size the other harnesses take.
pub const CONTEXT_CAP: usize = 10_000;

/// Where the hook runtime keeps the rules file, relative to the workspace root. Cline reads every
/// file in the workspace's `.clinerules/` folder into the system prompt of each new task.
pub const RULES_FILE: &str = ".clinerules/agent-memory.md";

/// The Cline adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClineAdapter;

impl ClineAdapter {
    /// The hook file's name of an event, whichever of its two names (`agent_start` or
    /// `TaskStart`) a payload carries; other names as they are.
    pub fn file_name(name: &str) -> &str {
        map::file_name(name)
    }
}

impl HarnessAdapter for ClineAdapter {
    fn harness(&self) -> &'static str {
        HARNESS
    }

    fn context_cap(&self) -> usize {
        CONTEXT_CAP
    }

    fn support(&self, kind: &EventKind) -> Support {
        output::support(kind)
    }

    fn parse(&self, delivery: &Delivery<'_>) -> Result<HookEvent> {
        let (raw, input) = memory_core::parse_payload::<wire::HookInput>(HARNESS, delivery.payload)?;
        map::to_event(input, raw, delivery)
    }

    fn render(&self, kind: &EventKind, response: &HookResponse) -> Rendered {
        output::render(kind, response)
    }

    fn hook_events(&self) -> &'static [HookRegistration] {
        hooks::HOOK_EVENTS
    }

    /// [`RULES_FILE`]: Cline reads it when a task starts, which stands in for the context
    /// TaskStart cannot give (Cline runs that hook detached and ignores its answer). The hook
    /// runtime rewrites it at TaskStart, so a task sees what the previous task's start wrote.
    fn context_file(&self) -> Option<&'static str> {
        Some(RULES_FILE)
    }

    /// A rules file holding the notes, cut to [`CONTEXT_CAP`] characters at a Markdown boundary.
    fn render_context_file(&self, context: &str) -> String {
        let body = truncate_markdown(context.trim(), CONTEXT_CAP);
        format!("# What agent-memory remembers about this user and project (reference notes)\n\n{body}\n")
    }
}
