//! The payload our plugin writes on the hook's stdin.
//!
//! `input` and `output` are exactly the two objects OpenCode handed the plugin's hook (for a bus
//! event, `input` is the event `{id, type, properties}` and there is no `output`); the rest is the
//! plugin's envelope.

use serde::Deserialize;
use serde_json::Value;

/// One payload, any event.
#[derive(Debug, Deserialize)]
pub(crate) struct HookInput {
    /// The event: an OpenCode hook or bus event name (`chat.message`, `session.idle`), or one of the
    /// plugin's own (`session.continued`, `tool.failed`).
    #[serde(default)]
    pub(crate) hook_event_name: String,
    /// OpenCode's session id (`ses_…`).
    #[serde(default)]
    pub(crate) session_id: String,
    /// The folder OpenCode runs in.
    #[serde(default)]
    pub(crate) directory: Option<String>,
    /// The top of its git work tree (`/` outside one).
    #[serde(default)]
    #[allow(dead_code, reason = "kept in `raw`; the project is told from `directory`")]
    pub(crate) worktree: Option<String>,
    /// What OpenCode passed as the hook's input.
    #[serde(default)]
    pub(crate) input: Option<Value>,
    /// What OpenCode passed as the hook's output.
    #[serde(default)]
    pub(crate) output: Option<Value>,
}
