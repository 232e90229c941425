//! What agent-memory last saw of a shared folder, kept in the data folder (never in the
//! repository): each file's bytes, size and modification time, and the note it stood for.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The ledger layout version.
const FORMAT: u32 = 1;

/// One file as last seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Seen {
    /// SHA-256 of the file's bytes when the store and the file last agreed.
    pub(crate) sha256: String,
    /// Its size then.
    pub(crate) size: u64,
    /// Its modification time then, in nanoseconds since the epoch.
    pub(crate) modified: u128,
    /// SHA-256 of the note as the store held it then (rendered as Markdown).
    pub(crate) note: String,
}

/// A shared folder's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Ledger {
    /// Layout version.
    pub(crate) format: u32,
    /// The project's id.
    pub(crate) project: String,
    /// The project's root folder (where `.agent-memory.toml` says to share).
    pub(crate) root: PathBuf,
    /// The shared folder.
    pub(crate) folder: PathBuf,
    /// Every file, by its `/`-separated path in the folder.
    pub(crate) files: BTreeMap<String, Seen>,
}

impl Ledger {
    /// Reads a ledger; an empty one for `project` and `folder` when there is none or it does not
    /// parse (every file is then read again, which costs a read, never a note).
    pub(crate) fn load(path: &Path, project: &str, root: &Path, folder: &Path) -> Self {
        let fresh = || Self {
            format: FORMAT,
            project: project.to_owned(),
            root: root.to_owned(),
            folder: folder.to_owned(),
            files: BTreeMap::new(),
        };
        let Ok(text) = std::fs::read(path) else { return fresh() };
        match serde_json::from_slice::<Self>(&text) {
            Ok(ledger) if ledger.format == FORMAT && ledger.project == project && ledger.folder == folder => {
                Self { root: root.to_owned(), ..ledger }
            }
            _ => fresh(),
        }
    }

    /// Reads a ledger as it is, for listing shared folders.
    pub(crate) fn peek(path: &Path) -> Option<Self> {
        let ledger: Self = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        (ledger.format == FORMAT).then_some(ledger)
    }

    /// Writes the ledger (a new file renamed over the old one).
    pub(crate) fn save(&self, path: &Path) -> Result<()> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(Error::create_dir(dir))?;
        let text = serde_json::to_vec_pretty(self)
            .map_err(|e| Error::Write { path: path.to_owned(), source: e.into() })?;
        let temp = path.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&temp, text).and_then(|()| std::fs::rename(&temp, path)).map_err(|source| {
            let _ = std::fs::remove_file(&temp);
            Error::Write { path: path.to_owned(), source }
        })
    }
}
