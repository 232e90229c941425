//! Gemini CLI hook adapter for agent-memory.
//!
//! [`GeminiAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Gemini CLI writes
//! on a hook's stdin into a [`memory_core::HookEvent`], and renders a [`memory_core::HookResponse`]
//! into the stdout JSON Gemini CLI reads for that event.
//!
//! Gemini CLI copied Claude Code's hook protocol under its own event names, so the payload struct,
//! the common mapping and the answer format come from `claude_protocol`; this crate keeps Gemini's
//! event names, its own payload fields, its tool names and what each event honours.
//!
#![doc = include_str!("docs.md")]

mod hooks;
mod map;
mod output;
pub mod tools;
mod wire;

use memory_core::{
    Delivery, EventKind, HarnessAdapter, HookEvent, HookRegistration, HookResponse, Rendered, Result, Support,
};

/// The harness name used in session keys (`gemini:<session_id>`).
pub const HARNESS: &str = "gemini";

/// Longest context sent in one answer: 10 000 characters.
///
/// Gemini CLI documents no limit (the context becomes part of the user turn); the cap keeps one
/// answer the size Claude Code takes whole.
pub const CONTEXT_CAP: usize = 10_000;

/// The Gemini CLI adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeminiAdapter;

impl HarnessAdapter for GeminiAdapter {
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

/// Gemini CLI's name for a normalised event kind: the name its hooks file and `hookEventName` use
/// (`UserPromptSubmit` is `BeforeAgent`). Kinds Gemini has no event for keep their own name.
pub fn event_name(kind: &EventKind) -> &str {
    map::gemini_name(kind)
}
