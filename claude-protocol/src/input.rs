//! The payload fields every Claude-shaped harness sends under the same names and types.

use serde_json::Value;

/// The fields of a hook payload that every Claude-shaped harness sends with the same meaning.
///
/// Only `session_id` and `hook_event_name` are always sent; which of the others an event carries
/// depends on the event and the harness. A harness's payload struct declares these fields through
/// [`hook_input!`](crate::hook_input) and hands them over with its `take_common`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommonInput {
    /// The harness's session id; the same on every event of a session.
    pub session_id: String,
    /// The event's name (`SessionStart`, `PreToolUse`, …).
    pub hook_event_name: String,
    /// Path of the session transcript.
    pub transcript_path: Option<String>,
    /// Working directory.
    pub cwd: Option<String>,
    /// Model slug, when the event names it.
    pub model: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear`, `compact` or `fork`.
    pub source: Option<String>,
    /// Prompt events: the prompt text.
    pub prompt: Option<String>,
    /// Tool events: the tool's name (`Bash`, `apply_patch`, `mcp__server__tool`).
    pub tool_name: Option<String>,
    /// Tool events: the tool's input.
    pub tool_input: Option<Value>,
    /// After a tool ran: its response.
    pub tool_response: Option<Value>,
    /// Tool events: the call id that pairs the events of one call.
    pub tool_use_id: Option<String>,
}

/// Declares a harness's hook payload struct: the [`CommonInput`] fields first, then the
/// harness's own, and a `take_common` method that moves the common fields out.
///
/// The fields are declared in one struct (not a flattened [`CommonInput`]) so that one pass of
/// `serde` reads the payload and an error names the field at fault, as
/// [`memory_core::parse_payload`] reports it. The struct derives `Debug` and
/// `serde::Deserialize`, so the calling crate depends on `serde` and `serde_json`.
///
/// ```text
/// claude_protocol::hook_input! {
///     /// One Codex hook payload.
///     pub(crate) struct HookInput {
///         /// Turn id, on turn-scoped events.
///         #[serde(default)]
///         pub(crate) turn_id: Option<String>,
///     }
/// }
/// ```
#[macro_export]
macro_rules! hook_input {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, ::serde::Deserialize)]
        $vis struct $name {
            /// The harness's session id; the same on every event of a session.
            $vis session_id: ::std::string::String,
            /// The event's name (`SessionStart`, `PreToolUse`, …).
            $vis hook_event_name: ::std::string::String,
            /// Path of the session transcript.
            #[serde(default)]
            $vis transcript_path: ::std::option::Option<::std::string::String>,
            /// Working directory.
            #[serde(default)]
            $vis cwd: ::std::option::Option<::std::string::String>,
            /// Model slug, when the event names it.
            #[serde(default)]
            $vis model: ::std::option::Option<::std::string::String>,
            /// SessionStart: `startup`, `resume`, `clear`, `compact` or `fork`.
            #[serde(default)]
            $vis source: ::std::option::Option<::std::string::String>,
            /// Prompt events: the prompt text.
            #[serde(default)]
            $vis prompt: ::std::option::Option<::std::string::String>,
            /// Tool events: the tool's name.
            #[serde(default)]
            $vis tool_name: ::std::option::Option<::std::string::String>,
            /// Tool events: the tool's input.
            #[serde(default)]
            $vis tool_input: ::std::option::Option<::serde_json::Value>,
            /// After a tool ran: its response.
            #[serde(default)]
            $vis tool_response: ::std::option::Option<::serde_json::Value>,
            /// Tool events: the call id that pairs the events of one call.
            #[serde(default)]
            $vis tool_use_id: ::std::option::Option<::std::string::String>,
            $(
                $(#[$field_meta])*
                $field_vis $field: $ty,
            )*
        }

        impl $name {
            /// Moves the fields every Claude-shaped harness sends out of the payload; the
            /// harness's own fields stay.
            $vis fn take_common(&mut self) -> $crate::CommonInput {
                $crate::CommonInput {
                    session_id: ::std::mem::take(&mut self.session_id),
                    hook_event_name: ::std::mem::take(&mut self.hook_event_name),
                    transcript_path: self.transcript_path.take(),
                    cwd: self.cwd.take(),
                    model: self.model.take(),
                    source: self.source.take(),
                    prompt: self.prompt.take(),
                    tool_name: self.tool_name.take(),
                    tool_input: self.tool_input.take(),
                    tool_response: self.tool_response.take(),
                    tool_use_id: self.tool_use_id.take(),
                }
            }
        }
    };
}
