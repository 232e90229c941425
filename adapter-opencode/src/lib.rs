//! OpenCode adapter for agent-memory.
//!
//! OpenCode takes in-process JavaScript plugins rather than command hooks. [`plugin_source`] is the
//! small plugin `agent-memory install` writes into OpenCode's plugin folder: it hands each event to
//! `agent-memory hook opencode` as one JSON object on stdin (the event's name, the session id,
//! OpenCode's folders, and exactly what OpenCode gave the plugin) and gives the model the notes the
//! hook answers with. [`OpenCodeAdapter`] implements [`memory_core::HarnessAdapter`] for that
//! payload and answer.
//!
#![doc = include_str!("docs.md")]

mod hooks;
mod map;
mod output;
mod plugin;
mod tools;
mod wire;

use memory_core::{
    Delivery, EventKind, HarnessAdapter, HookEvent, HookRegistration, HookResponse, Rendered, Result, Support,
};

pub use plugin::{PLUGIN_FILE, is_ours, plugin_source};

/// The harness name used in session keys (`opencode:<session id>`).
pub const HARNESS: &str = "opencode";

/// Longest context sent in one answer: 10 000 characters.
///
/// OpenCode sets no limit on a message part; the cap keeps one answer the size the other harnesses
/// take whole.
pub const CONTEXT_CAP: usize = 10_000;

/// The OpenCode adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenCodeAdapter;

impl HarnessAdapter for OpenCodeAdapter {
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
}
