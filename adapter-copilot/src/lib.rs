//! GitHub Copilot CLI hook adapter for agent-memory.
//!
//! [`CopilotAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Copilot CLI
//! writes on a hook's stdin into a [`memory_core::HookEvent`], and renders a
//! [`memory_core::HookResponse`] into the stdout JSON Copilot CLI reads for that event.
//!
//! Copilot CLI fires every event twice, once per naming style. Its PascalCase events send a
//! payload shaped like Claude Code's (read with `claude_protocol`); its answers are its own: a
//! top-level `additionalContext`, no `hookSpecificOutput`.
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

/// The harness name used in session keys (`copilot:<session_id>`).
pub const HARNESS: &str = "copilot";

/// Longest context sent in one answer: 8 000 characters.
///
/// Copilot CLI documents no limit; field reports put it near 10 kB per answer, and characters
/// outside ASCII take more than one byte.
pub const CONTEXT_CAP: usize = 8_000;

/// The Copilot CLI adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CopilotAdapter;

impl HarnessAdapter for CopilotAdapter {
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
        let (raw, input) = wire::parse(delivery.payload)?;
        map::to_event(input, raw, delivery)
    }

    fn render(&self, kind: &EventKind, response: &HookResponse) -> Rendered {
        output::render(kind, response)
    }

    fn hook_events(&self) -> &'static [HookRegistration] {
        hooks::HOOK_EVENTS
    }
}
