//! The once-per-session rule: which notes a session has been given already.
//!
//! One small file per session under `<data_dir>/sessions/`, a `<scope> <path>` line per note
//! given, and a line [`START`] once a session start's block was given. A note is injected at most
//! once per session; a repeated session start that keeps its context (a resume) is given nothing
//! once the session had its start block (the conversation still holds it; notes the dream wrote
//! since come with the prompts that ask for them); after a compaction or a clear the context is
//! gone, the ledger is reset and everything is due again.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use memory_core::SessionKey;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::paths::ensure_private_dir;

/// The ledger's line for a session start's block given.
pub const START: &str = "@session-start";

/// The notes one session has been given.
#[derive(Debug, Clone)]
pub struct Ledger {
    path: PathBuf,
}

impl Ledger {
    /// The ledger of `session`, kept in `dir` (`Config::sessions_dir`).
    pub fn new(dir: &Path, session: &SessionKey) -> Self {
        let digest = Sha256::digest(session.as_str().as_bytes());
        let name: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        Self { path: dir.join(format!("{name}.injected")) }
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Keys ([`crate::inject::note_key`]) of the notes given so far.
    pub fn given(&self) -> BTreeSet<String> {
        std::fs::read_to_string(&self.path)
            .map(|t| t.lines().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// Whether the session was given a session start's block (since its last compaction or
    /// clear).
    pub fn started(&self) -> bool {
        self.given().contains(START)
    }

    /// Records notes as given.
    pub fn record(&self, notes: &[String]) -> Result<()> {
        let write = || -> std::io::Result<()> {
            ensure_private_dir(self.path.parent().unwrap_or(Path::new(".")))?;
            let mut options = std::fs::OpenOptions::new();
            options.append(true).create(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let text: String = notes.iter().map(|n| format!("{n}\n")).collect();
            options.open(&self.path)?.write_all(text.as_bytes())
        };
        write().map_err(Error::io(&self.path))
    }

    /// Waits for any other hook of this session that is choosing and recording what to give,
    /// and holds it off until the returned guard is dropped: a harness that fires a session's
    /// start and its first prompt at once gets each note once. An exclusive OS lock on the
    /// ledger's own file (created empty when missing); `None` when it cannot be taken, and the
    /// hook goes on without it.
    pub fn turn(&self) -> Option<crate::lock::ProcessLock> {
        ensure_private_dir(self.path.parent().unwrap_or(Path::new("."))).ok()?;
        crate::lock::ProcessLock::acquire(&self.path).ok()
    }

    /// Forgets everything given: the conversation no longer holds it.
    pub fn reset(&self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path)(e)),
            _ => Ok(()),
        }
    }
}
