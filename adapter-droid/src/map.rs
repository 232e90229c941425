//! Droid payload → normalised [`HookEvent`].

use memory_core::{Delivery, EventKind, HookEvent};
use serde_json::Value;

use crate::wire::HookInput;
use crate::{HARNESS, tools};

/// The kind of a droid event name: droid uses Claude Code's names, so a known name is its own kind
/// and anything else is kept as [`EventKind::Other`]. The list in `docs.md` must agree.
pub(crate) fn kind(name: &str) -> EventKind {
    EventKind::from_name(name)
}

/// Builds the event from a decoded payload: the common fields, then what the tool call does.
pub(crate) fn to_event(
    mut input: HookInput,
    raw: Value,
    delivery: &Delivery<'_>,
) -> memory_core::Result<HookEvent> {
    let mut event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
    event.prompt = event.prompt.filter(|p| !p.trim().is_empty());
    if let Some(tool) = event.tool.as_mut() {
        tools::describe(&event.kind, tool);
    }
    Ok(event)
}
