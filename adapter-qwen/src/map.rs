//! Qwen Code payload → normalised [`HookEvent`].

use adapter_gemini::tools;
use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::HARNESS;
use crate::wire::HookInput;

/// The kind of a Qwen Code event name: Qwen uses Claude Code's names, so a known name is its own
/// kind and anything else is kept as [`EventKind::Other`]. The list in `docs.md` must agree.
pub(crate) fn kind(name: &str) -> EventKind {
    EventKind::from_name(name)
}

/// Builds the event from a decoded payload: the common fields, the prompt (Qwen fires
/// UserPromptSubmit again with an empty one before each follow-up model call of a turn), then what
/// the tool call does and, for `PostToolUseFailure`, why it failed.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let mut event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
    event.prompt = event.prompt.filter(|p| !p.trim().is_empty());
    if let Some(tool) = event.tool.as_mut() {
        tool.duration_ms =
            input.duration_ms.filter(|ms| ms.is_finite() && *ms >= 0.0).map(|ms| ms.round() as u64);
        tools::describe(&event.kind, tool);
        if event.kind == EventKind::PostToolUseFailure {
            let exit_code = input.error.as_deref().and_then(tools::exit_code_line);
            if let (Some(shell), Some(code)) = (tool.shell.as_mut(), exit_code) {
                shell.exit_code = Some(code);
            }
            tool.failed = Some(true);
            tool.error = input.error;
        }
    }
    Ok(event)
}
