//! Where the database lives and how long a writer waits for the lock.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Environment variable that overrides the database path.
pub const DB_PATH_ENV: &str = "AGENT_MEMORY_DB";

/// How to open a [`crate::SqliteStore`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SqliteConfig {
    /// The database file. Its directory is created (mode `0700`) when missing.
    pub path: PathBuf,
    /// How long a write waits for another process's lock before failing with a transient error.
    pub busy_timeout: Duration,
    /// Run each query on the calling thread instead of Tokio's blocking pool. For a process that
    /// does one thing at a time, such as a hook: it saves two thread hand-offs per call, and needs
    /// no Tokio runtime at all, but a query blocks the calling task while it runs. Default: off.
    pub inline: bool,
}

impl SqliteConfig {
    /// The default busy timeout: ten seconds.
    pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(10);

    /// A database at `path` with the default busy timeout.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into(), busy_timeout: Self::DEFAULT_BUSY_TIMEOUT, inline: false }
    }

    /// The same configuration with another busy timeout.
    pub fn with_busy_timeout(mut self, busy_timeout: Duration) -> Self {
        self.busy_timeout = busy_timeout;
        self
    }

    /// The same configuration, running queries on the calling thread (see [`SqliteConfig::inline`]).
    pub fn with_inline(mut self, inline: bool) -> Self {
        self.inline = inline;
        self
    }

    /// The database path: `$AGENT_MEMORY_DB` when set, else [`SqliteConfig::default_path`].
    pub fn from_env() -> memory_core::Result<Self> {
        if let Some(path) = std::env::var_os(DB_PATH_ENV).filter(|p| !p.is_empty()) {
            return Ok(Self::new(path));
        }
        Self::default_path().map(Self::new).ok_or_else(|| memory_core::Error::Config {
            store: "sqlite",
            message: format!("cannot find a home directory; set {DB_PATH_ENV} to the database file"),
        })
    }

    /// `$XDG_DATA_HOME/agent-memory/memory.db`, falling back to
    /// `~/.local/share/agent-memory/memory.db`; `None` when neither can be found.
    pub fn default_path() -> Option<PathBuf> {
        let xdg = std::env::var_os("XDG_DATA_HOME").map(PathBuf::from).filter(|p| p.is_absolute());
        let data = xdg.or_else(|| dirs::home_dir().map(|home| home.join(".local").join("share")))?;
        Some(data.join("agent-memory").join("memory.db"))
    }

    /// The database path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
