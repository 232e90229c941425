//! The hook protocol Claude Code defined, as other harnesses copied it.
//!
//! Codex, Gemini CLI, Copilot CLI and Factory droid run hooks the way Claude Code does: one JSON
//! object on stdin with `session_id`, `hook_event_name`, `cwd`, `transcript_path` and the tool
//! fields, and one JSON object on stdout with `hookSpecificOutput`
//! (`hookEventName`, `additionalContext`, `permissionDecision`), `decision`/`reason` and
//! `systemMessage`. This crate holds what their agent-memory adapters share, so an adapter keeps
//! only what its harness does differently:
//!
//! - [`hook_input!`] declares a harness's payload struct: the fields every such harness sends
//!   ([`CommonInput`]) followed by the harness's own;
//! - [`to_event`] builds the normalised [`memory_core::HookEvent`] from the common fields;
//! - [`render()`] turns a [`memory_core::HookResponse`] into the answer, given the harness's
//!   [`Protocol`]: what it honours for each event and how much context it takes;
//! - [`shell_command`] and [`leading_exit_code`] read the shell tool input and output shapes the
//!   harnesses share, for the adapters' tool tables.
//!
//! ```text
//! claude_protocol::hook_input! {
//!     pub(crate) struct HookInput {
//!         #[serde(default)]
//!         pub(crate) turn_id: Option<String>,
//!     }
//! }
//! let (raw, mut input) = memory_core::parse_payload::<HookInput>(HARNESS, delivery.payload)?;
//! let event = claude_protocol::to_event(HARNESS, kind, input.take_common(), raw, delivery)?;
//! let answer = claude_protocol::render(&PROTOCOL, &event.kind, &response);
//! ```
//!
//! The crate does no IO.

#![deny(missing_docs)]

mod input;
mod map;
mod output;
mod render;
mod tool;

pub use input::CommonInput;
pub use map::to_event;
pub use render::{DEFAULT_REASON, Protocol, render};
pub use tool::{leading_exit_code, shell_command};

#[cfg(test)]
mod tests;
