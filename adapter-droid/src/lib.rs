//! Factory droid hook adapter for agent-memory.
//!
//! [`DroidAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON droid writes on a
//! hook's stdin into a [`memory_core::HookEvent`], and renders a [`memory_core::HookResponse`] into
//! the stdout JSON droid reads for that event.
//!
//! Droid runs hooks the way Claude Code does: Claude's event names (nine of them), snake_case
//! payload fields and answer format, all from `claude_protocol`. This crate keeps what is droid's
//! own: its tool names (`Execute`, `Read`, `Create`, `Edit`, `ApplyPatch`) and their text
//! responses, its extra payload fields, the events it installs and what each event honours.
//!
#![doc = include_str!("docs.md")]

mod hooks;
mod map;
mod output;
mod tools;
mod wire;

use memory_core::{
    Delivery, EventKind, HarnessAdapter, HookEvent, HookRegistration, HookResponse, Rendered, Result, Support,
};

/// The harness name used in session keys (`droid:<session_id>`).
pub const HARNESS: &str = "droid";

/// Longest context sent in one answer: 10 000 characters.
///
/// Droid documents no limit for SessionStart and UserPromptSubmit context; the cap keeps one
/// answer the size Claude Code takes whole.
pub const CONTEXT_CAP: usize = 10_000;

/// The Factory droid adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DroidAdapter;

impl HarnessAdapter for DroidAdapter {
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
        claude_protocol::render(&output::PROTOCOL, kind, response)
    }

    fn hook_events(&self) -> &'static [HookRegistration] {
        hooks::HOOK_EVENTS
    }
}
