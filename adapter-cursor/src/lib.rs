//! Cursor hook adapter for agent-memory.
//!
//! [`CursorAdapter`] implements [`memory_core::HarnessAdapter`]: it reads the JSON Cursor writes on a
//! hook's stdin into a [`memory_core::HookEvent`], and renders a [`memory_core::HookResponse`] into
//! the stdout JSON Cursor accepts for that event. Cursor cannot take context per prompt, so its
//! [`HarnessAdapter::context_file`] is the always-apply rules file at [`RULES_FILE`], which the hook
//! runtime keeps current with what [`HarnessAdapter::render_context_file`] renders.
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

/// The harness name used in session keys (`cursor:<conversation_id>`).
pub const HARNESS: &str = "cursor";

/// Longest context sent in one answer: 8 000 characters.
///
/// Cursor documents no limit for `additional_context`. It lands in the conversation's initial system
/// context next to the user's rules, so the cap stays below the other harnesses' (Claude Code's
/// 10 000, Codex's measured ~10 000) and leaves room in smaller context windows.
pub const CONTEXT_CAP: usize = 8_000;

/// Where the hook runtime keeps the always-apply rules file, relative to the workspace root.
pub const RULES_FILE: &str = ".cursor/rules/agent-memory.mdc";

/// The Cursor adapter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CursorAdapter;

impl HarnessAdapter for CursorAdapter {
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

    fn render_noop(&self) -> Rendered {
        output::noop()
    }

    fn hook_events(&self) -> &'static [HookRegistration] {
        hooks::HOOK_EVENTS
    }

    /// [`RULES_FILE`]: Cursor includes always-apply rules in every chat, which stands in for the
    /// per-prompt injection `beforeSubmitPrompt` cannot do. The hook runtime rewrites the file at
    /// `sessionStart`; whether Cursor would reread a rule rewritten during `beforeSubmitPrompt` for
    /// the prompt being submitted is not documented.
    fn context_file(&self) -> Option<&'static str> {
        Some(RULES_FILE)
    }

    /// An always-apply Cursor rule holding the notes, cut to [`CONTEXT_CAP`] characters at a
    /// Markdown boundary.
    fn render_context_file(&self, context: &str) -> String {
        let body = truncate_markdown(context.trim(), CONTEXT_CAP);
        format!(
            "---\ndescription: What agent-memory remembers about this user and project (reference notes)\n\
             alwaysApply: true\n---\n\n{body}\n"
        )
    }
}
