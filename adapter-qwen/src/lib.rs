//! Qwen Code hook adapter for agent-memory.
//!
//! [`QwenAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Qwen Code writes
//! on a hook's stdin into a [`memory_core::HookEvent`], and renders a [`memory_core::HookResponse`]
//! into the stdout JSON Qwen Code reads for that event.
//!
//! Qwen Code is a fork of Gemini CLI whose hooks went back to Claude Code's protocol: Claude's
//! event names, payload fields and answer format (all from `claude_protocol`), with Gemini CLI's
//! tool names and tool responses (described by `adapter_gemini::tools`). This crate keeps what is
//! Qwen's own: its extra payload fields, the events it installs and what each event honours.
//!
#![doc = include_str!("docs.md")]

mod hooks;
mod map;
mod output;
mod wire;

use memory_core::{
    Delivery, EventKind, HarnessAdapter, HookEvent, HookRegistration, HookResponse, Rendered, Result, Support,
};

/// The harness name used in session keys (`qwen:<session_id>`).
pub const HARNESS: &str = "qwen";

/// Longest context sent in one answer: 10 000 characters.
///
/// Qwen Code documents no limit for SessionStart and UserPromptSubmit context; the cap keeps one
/// answer the size Claude Code takes whole.
pub const CONTEXT_CAP: usize = 10_000;

/// The Qwen Code adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QwenAdapter;

impl HarnessAdapter for QwenAdapter {
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
