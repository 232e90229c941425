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
    /// The session key, `<harness>:<session id>` (for example `claude:3f2c…`).
    pub(crate) session: String,
    /// Most events to return (default 50, at most 500).
    #[serde(default)]
    pub(crate) limit: Option<u32>,
    /// Only events after this sequence number (to page through a long session).
    #[serde(default)]
    pub(crate) after_seq: Option<u64>,
}
