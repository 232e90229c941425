//! Gemini CLI payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::wire::HookInput;
use crate::{HARNESS, tools};

/// Where Gemini CLI puts the context a hook gave: `<hook_context>…</hook_context>` blocks before the
/// prompt (SessionStart) or after it (BeforeAgent, in a part of its own).
const OPEN: &str = "<hook_context>";
const CLOSE: &str = "</hook_context>";

/// The kind of a Gemini CLI event name. Names without a normalised kind are kept as
/// [`EventKind::Other`]; the list in `docs.md` must agree with this table. `AfterTool` is refined
/// to `PostToolUseFailure` once the response is read.
pub(crate) fn kind(name: &str) -> EventKind {
    match name {
        "SessionStart" => EventKind::SessionStart,
        "BeforeAgent" => EventKind::UserPromptSubmit,
        "BeforeTool" => EventKind::PreToolUse,
        "AfterTool" => EventKind::PostToolUse,
        "AfterAgent" => EventKind::Stop,
        "PreCompress" => EventKind::PreCompact,
        "Notification" => EventKind::Notification,
        "SessionEnd" => EventKind::SessionEnd,
        other => EventKind::Other(other.to_owned()),
    }
}

/// Gemini's name for a kind, the inverse of [`kind`].
pub(crate) fn gemini_name(kind: &EventKind) -> &str {
    match kind {
        EventKind::UserPromptSubmit => "BeforeAgent",
        EventKind::PreToolUse => "BeforeTool",
        EventKind::PostToolUse | EventKind::PostToolUseFailure => "AfterTool",
        EventKind::Stop => "AfterAgent",
        EventKind::PreCompact => "PreCompress",
        other => other.as_str(),
    }
}

/// Builds the event from a decoded payload: the common fields, the user's own prompt, then what
/// the tool call does and whether it failed.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let mut event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
    event.prompt = event.prompt.map(|p| without_hook_context(&p));
    if let Some(tool) = event.tool.as_mut() {
        tools::describe(&event.kind, tool);
        if tool.failed == Some(true) {
            event.kind = EventKind::PostToolUseFailure;
        }
    }
    Ok(event)
}

/// The prompt without the `<hook_context>` blocks Gemini put before it.
pub(crate) fn without_hook_context(prompt: &str) -> String {
    let mut rest = prompt.trim_start();
    while let Some(after) = rest.strip_prefix(OPEN) {
        let Some(end) = after.find(CLOSE) else { break };
        rest = after[end + CLOSE.len()..].trim_start();
    }
    rest.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_context_before_the_prompt_is_not_the_users() {
        assert_eq!(
            without_hook_context("<hook_context>notes</hook_context>\n\nlist the files"),
            "list the files"
        );
        assert_eq!(
            without_hook_context("<hook_context>a</hook_context><hook_context>b</hook_context> x"),
            "x"
        );
        assert_eq!(
            without_hook_context("list <hook_context>x</hook_context>"),
            "list <hook_context>x</hook_context>"
        );
        assert_eq!(without_hook_context("<hook_context>unclosed"), "<hook_context>unclosed");
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "SessionStart",
            "BeforeAgent",
            "BeforeTool",
            "AfterTool",
            "AfterAgent",
            "PreCompress",
            "Notification",
            "SessionEnd",
            "BeforeModel",
            "AfterModel",
            "BeforeToolSelection",
        ] {
            assert_eq!(gemini_name(&kind(name)), name);
        }
        assert_eq!(gemini_name(&EventKind::PostToolUseFailure), "AfterTool");
    }
}
