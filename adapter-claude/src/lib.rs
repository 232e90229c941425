//! Claude Code hook adapter for agent-memory.
//!
//! [`ClaudeAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Claude Code writes
//! on a hook's stdin into a [`memory_core::HookEvent`], and renders a [`memory_core::HookResponse`]
//! into the stdout JSON Claude Code accepts for that event.
//!
//! ```text
//! let adapter = ClaudeAdapter;
//! let event = adapter.parse(&delivery)?;
//! let answer = adapter.render(&event.kind, &HookResponse::with_context("## Notes\n…"));
//! // print answer.stdout, exit with answer.exit_code
//! ```
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

/// The harness name used in session keys (`claude:<session_id>`).
pub const HARNESS: &str = "claude";

/// Longest context Claude Code takes in one string before it spills it to a file and shows the
/// model only a preview: 10 000 characters.
pub const CONTEXT_CAP: usize = 10_000;

/// Environment variables Cursor sets when it runs hooks, including Claude Code hooks it imports
/// from `.claude/settings*.json`.
const CURSOR_ENV: &[&str] = &["CURSOR_VERSION", "CURSOR_PROJECT_DIR", "CURSOR_TRANSCRIPT_PATH"];

/// The Claude Code adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClaudeAdapter;

impl HarnessAdapter for ClaudeAdapter {
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

    /// `Some("cursor")` when Cursor ran this Claude-format hook: Cursor's own variables are set and
    /// Claude Code's marker `CLAUDECODE=1` is not (Claude Code started from a Cursor terminal keeps
    /// being Claude Code), or the payload carries Cursor's `cursor_version`.
    fn invoked_by_other(&self, delivery: &Delivery<'_>) -> Option<&'static str> {
        if delivery.var("CLAUDECODE") == Some("1") {
            return None;
        }
        let cursor_env = CURSOR_ENV.iter().any(|name| delivery.var(name).is_some_and(|v| !v.is_empty()));
        (cursor_env || map::has_cursor_fields(delivery.payload)).then_some("cursor")
    }
}
