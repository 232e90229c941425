//! Subcommands other than `hook`.

pub(crate) mod capture;
pub(crate) mod demo;
pub(crate) mod dream;
pub(crate) mod forget;
pub(crate) mod history;
pub(crate) mod migrate;
pub(crate) mod model;
pub(crate) mod notes;
pub(crate) mod projects;
pub(crate) mod prune;
pub(crate) mod query;
pub(crate) mod redact;
pub(crate) mod share;
pub(crate) mod sync;
pub(crate) mod team;
pub(crate) mod ui;

use memory_core::{HarnessAdapter, NotePath};

pub(crate) use self::dream::for_demo as dream_for_demo;

pub(crate) static CLAUDE: adapter_claude::ClaudeAdapter = adapter_claude::ClaudeAdapter;
pub(crate) static CODEX: adapter_codex::CodexAdapter = adapter_codex::CodexAdapter;
pub(crate) static CURSOR: adapter_cursor::CursorAdapter = adapter_cursor::CursorAdapter;
pub(crate) static GEMINI: adapter_gemini::GeminiAdapter = adapter_gemini::GeminiAdapter;
pub(crate) static COPILOT: adapter_copilot::CopilotAdapter = adapter_copilot::CopilotAdapter;
pub(crate) static QWEN: adapter_qwen::QwenAdapter = adapter_qwen::QwenAdapter;
pub(crate) static DROID: adapter_droid::DroidAdapter = adapter_droid::DroidAdapter;
pub(crate) static OPENCODE: adapter_opencode::OpenCodeAdapter = adapter_opencode::OpenCodeAdapter;
pub(crate) static CLINE: adapter_cline::ClineAdapter = adapter_cline::ClineAdapter;

/// Every harness the binary serves, in the order commands list them: the one adapter registry.
pub(crate) static ADAPTERS: &[&dyn HarnessAdapter] =
    &[&CLAUDE, &CODEX, &CURSOR, &GEMINI, &COPILOT, &QWEN, &DROID, &OPENCODE, &CLINE];

/// The adapter of a harness named on the command line (ASCII case ignored).
pub(crate) fn adapter(name: &str) -> Option<&'static dyn HarnessAdapter> {
    ADAPTERS.iter().copied().find(|a| a.harness().eq_ignore_ascii_case(name))
}

/// The harness names, for messages: `claude, codex, …, opencode, cline`.
pub(crate) fn harness_names() -> String {
    ADAPTERS.iter().map(|a| a.harness()).collect::<Vec<_>>().join(", ")
}

/// `agent-memory notes …`
#[derive(Debug, clap::Subcommand)]
pub(crate) enum NotesCommand {
    /// List notes (every scope unless `--scope` is given).
    List {
        /// Only this scope: `user`, `project` (this folder's), `project:<name or id>`,
        /// `session:<key>`.
        #[arg(long)]
        scope: Option<String>,
        /// Only paths starting with this prefix (`tools/`).
        #[arg(long)]
        prefix: Option<String>,
    },
    /// Print a note as Markdown with its frontmatter.
    Show {
        /// The note's scope: `user`, `project` (this folder's), `project:<name or id>` (or the
        /// name alone), `session:<key>`.
        scope: String,
        /// The note's path (`profile/role.md`; a project's note may leave out its folder,
        /// `project/<name>/`).
        path: NotePath,
        /// Also list its previous versions.
        #[arg(long)]
        history: bool,
    },
    /// Say where each item of a note comes from: the sentence it was distilled from (with its
    /// session's harness, time and project) and why such a statement is kept in your profile or
    /// in the project; an item no sentence says was learned from what the sessions did.
    Explain {
        /// The note's scope: `user`, `project` (this folder's), `project:<name or id>` (or the
        /// name alone), `session:<key>`.
        scope: String,
        /// The note's path (a project's note may leave out its folder, `project/<name>/`).
        path: NotePath,
    },
    /// Write a note by hand ("remember that …"): every frontmatter field has a default, so a
    /// title is enough. The body comes from --body, from stdin when it is not a terminal, or else
    /// from $EDITOR.
    Add(notes::AddArgs),
    /// Change a note in $EDITOR (frontmatter and body); checked before it is saved, and the
    /// previous version is kept in the note's history.
    Edit {
        /// The note's scope: `user`, `project` (this folder's), `project:<name or id>` (or the
        /// name alone), `session:<key>`.
        scope: String,
        /// The note's path (a project's note may leave out its folder, `project/<name>/`).
        path: NotePath,
    },
    /// Delete a note and its history for good (asks first unless --yes).
    Delete {
        /// The note's scope: `user`, `project` (this folder's), `project:<name or id>` (or the
        /// name alone), `session:<key>`.
        scope: String,
        /// The note's path (a project's note may leave out its folder, `project/<name>/`).
        path: NotePath,
        /// Delete without asking (needed when stdin is not a terminal).
        #[arg(long, short = 'y')]
        yes: bool,
    },
}
