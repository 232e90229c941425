//! Subcommands other than `hook`.

pub(crate) mod demo;
pub(crate) mod dream;
pub(crate) mod migrate;
pub(crate) mod query;
pub(crate) mod sync;

use memory_core::{HarnessAdapter, NotePath, Scope};

pub(crate) use self::dream::for_demo as dream_for_demo;

/// A harness named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum HarnessArg {
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
    /// Cursor.
    Cursor,
}

static CLAUDE: adapter_claude::ClaudeAdapter = adapter_claude::ClaudeAdapter;
static CODEX: adapter_codex::CodexAdapter = adapter_codex::CodexAdapter;
static CURSOR: adapter_cursor::CursorAdapter = adapter_cursor::CursorAdapter;

impl HarnessArg {
    pub(crate) fn adapter(self) -> &'static dyn HarnessAdapter {
        match self {
            Self::Claude => &CLAUDE,
            Self::Codex => &CODEX,
            Self::Cursor => &CURSOR,
        }
    }
}

/// `agent-memory notes …`
#[derive(Debug, clap::Subcommand)]
pub(crate) enum NotesCommand {
    /// List notes (every scope unless `--scope` is given).
    List {
        /// Only this scope (`user`, `project:<id>`, `session:<key>`).
        #[arg(long)]
        scope: Option<Scope>,
        /// Only paths starting with this prefix (`tools/`).
        #[arg(long)]
        prefix: Option<String>,
    },
    /// Print a note as Markdown with its frontmatter.
    Show {
        /// The note's scope.
        scope: Scope,
        /// The note's path (`profile/role.md`).
        path: NotePath,
        /// Also list its previous versions.
        #[arg(long)]
        history: bool,
    },
    /// Delete a note and its history for good.
    Delete {
        /// The note's scope.
        scope: Scope,
        /// The note's path.
        path: NotePath,
    },
}
