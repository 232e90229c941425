//! The parameters of each MCP tool, with the JSON schemas clients are shown.
//!
//! Scopes, paths and kinds arrive as plain strings and are checked by the tools themselves, so a
//! bad value comes back as a tool error explaining the expected form instead of a bare
//! protocol-level rejection.

use rmcp::schemars::JsonSchema;
use serde::Deserialize;

/// `search_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct SearchParams {
    /// What to look for, in plain words (for example `cargo test flags`). Never parsed as query
    /// syntax.
    pub(crate) query: String,
    /// Only search this scope: `user`, `project` (the current project), `project:<name or id>` or `session:<key>`.
    #[serde(default)]
    pub(crate) scope: Option<String>,
    /// Only search these scopes (combined with `scope`); every scope when both are empty.
    #[serde(default)]
    pub(crate) scopes: Vec<String>,
    /// Most results to return (default 10, at most 50).
    #[serde(default)]
    pub(crate) limit: Option<u32>,
}

/// `read_note`, `delete_note` and `explain_note`: one note.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct NoteRef {
    /// The note's scope: `user`, `project` (the current project), `project:<name or id>` or `session:<key>`.
    pub(crate) scope: String,
    /// The note's path within its scope, for example `tools/cargo/test-flags.md`.
    pub(crate) path: String,
}

/// `write_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct WriteParams {
    /// Where the note applies: `user` (everywhere), `project` (the current project),
    /// `project:<name or id>` (a known project) or `session:<key>`.
    pub(crate) scope: String,
    /// Where to file it: a relative path of lowercase segments (a-z, 0-9, `-`, `_`, `.`) ending
    /// in `.md`, for example `tools/cargo/test-flags.md`.
    pub(crate) path: String,
    /// A short one-line title.
    pub(crate) title: String,
    /// One line saying when the note is useful.
    #[serde(default)]
    pub(crate) description: Option<String>,
    /// One of `profile`, `preference`, `convention`, `tool`, `procedure`, `fact`.
    pub(crate) kind: String,
    /// Lowercase slug tags such as `cargo` or `test-flags` (at most 16).
    #[serde(default)]
    pub(crate) tags: Vec<String>,
    /// The Markdown body (at most 16 KiB), stored verbatim.
    pub(crate) body: String,
}

/// `list_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct ListParams {
    /// Only this scope: `user`, `project` (the current project), `project:<name or id>` or `session:<key>`; every scope when absent.
    #[serde(default)]
    pub(crate) scope: Option<String>,
    /// Only paths starting with this prefix, for example `tools/`.
    #[serde(default)]
    pub(crate) prefix: Option<String>,
    /// Most notes to return (default 200, at most 1000).
    #[serde(default)]
    pub(crate) limit: Option<u32>,
}

/// `session_timeline`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct TimelineParams {
    /// The session: its key, `<harness>:<session id>` (for example `claude:3f2c…`), a unique
    /// start of it (`claude:3f2c`, `3f2c`), or `last` (the most recent session).
    pub(crate) session: String,
    /// Most events to return (default 50, at most 500).
    #[serde(default)]
    pub(crate) limit: Option<u32>,
    /// Only events after this sequence number (to page through a long session).
    #[serde(default)]
    pub(crate) after_seq: Option<u64>,
}

/// `list_sessions`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct SessionsParams {
    /// Only sessions of this project: `project` (the current one) or a project's name or id.
    #[serde(default)]
    pub(crate) project: Option<String>,
    /// Only sessions of this harness: `claude`, `codex` or `cursor`.
    #[serde(default)]
    pub(crate) harness: Option<String>,
    /// Most sessions to return, most recent first (default 20, at most 200).
    #[serde(default)]
    pub(crate) limit: Option<u32>,
}

/// `search_history`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct HistoryParams {
    /// What to look for in recorded prompts, commands, errors and files, in plain words (for
    /// example `migration failed postgres`). Never parsed as query syntax.
    pub(crate) query: String,
    /// Only this project's events: `project` (the current one) or a project's name or id.
    #[serde(default)]
    pub(crate) project: Option<String>,
    /// Only this harness's events: `claude`, `codex` or `cursor`.
    #[serde(default)]
    pub(crate) harness: Option<String>,
    /// Only this session's events (`claude:<session id>`, as list_sessions shows).
    #[serde(default)]
    pub(crate) session: Option<String>,
    /// Only events from this time on: `2026-03-01`, `2026-03-01T14:00:00Z`, or a while ago (`2h`, `7d`).
    #[serde(default)]
    pub(crate) since: Option<String>,
    /// Only events before this time (same forms as `since`).
    #[serde(default)]
    pub(crate) until: Option<String>,
    /// Most hits to return (default 10, at most 50).
    #[serde(default)]
    pub(crate) limit: Option<u32>,
}

/// `forget`: exactly one of `text`, `session`, `event`, `project`, `note_path` (with
/// `note_scope`), or a time range (`since`/`until`).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct ForgetParams {
    /// Forget every event holding this text word for word, and every note holding it.
    #[serde(default)]
    pub(crate) text: Option<String>,
    /// Forget this session (`claude:<session id>`) with its events and session notes.
    #[serde(default)]
    pub(crate) session: Option<String>,
    /// Forget this one event (its 32-character id, as search_history shows).
    #[serde(default)]
    pub(crate) event: Option<String>,
    /// Forget this project (`project` for the current one, or a name or id): its sessions, events and notes.
    #[serde(default)]
    pub(crate) project: Option<String>,
    /// With `note_path`: the scope of the note to forget (`user`, `project`, `project:<name>`, `session:<key>`).
    #[serde(default)]
    pub(crate) note_scope: Option<String>,
    /// Forget this note with its history.
    #[serde(default)]
    pub(crate) note_path: Option<String>,
    /// Forget events from this time on (alone, or to narrow `text`).
    #[serde(default)]
    pub(crate) since: Option<String>,
    /// Forget events before this time (alone, or to narrow `text`).
    #[serde(default)]
    pub(crate) until: Option<String>,
    /// `true` to delete. Without it nothing is deleted: the answer lists what would go, to show
    /// the user before asking them.
    #[serde(default)]
    pub(crate) confirm: bool,
}
