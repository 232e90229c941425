//! Codex CLI hook adapter for agent-memory.
//!
//! [`CodexAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Codex writes on a
//! hook's stdin into a [`memory_core::HookEvent`], and renders a [`memory_core::HookResponse`] into
//! the stdout JSON Codex's strict output schemas accept for that event.
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

/// The harness name used in session keys (`codex:<session_id>`).
pub const HARNESS: &str = "codex";

/// Longest context sent in one answer: 9 000 characters.
///
/// Codex spills hook text over about 2 500 tokens (`additionalContextLimit`) to a file and shows the
/// model a head-and-tail preview; 10 000 characters were measured to arrive whole on one build. Dense
/// Markdown can run below 4 characters a token, so the cap stays under that measurement.
pub const CONTEXT_CAP: usize = 9_000;

/// The Codex adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CodexAdapter;

impl HarnessAdapter for CodexAdapter {
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
