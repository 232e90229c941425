//! `.agent-memory-export.json`: what an export wrote, so an import can tell hand edits apart.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::layout::MANIFEST;

/// The manifest layout version.
const FORMAT: u32 = 1;

/// One exported file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// The note's scope (`user`, `project:<id>`, `session:<key>`).
    pub(crate) scope: String,
    /// The note's path within its scope.
    pub(crate) path: String,
    /// SHA-256 of the file's bytes when the store and the file last agreed.
    pub(crate) sha256: String,
}

/// Every file of an exported tree, keyed by its `/`-separated path relative to the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    /// Layout version.
    pub(crate) format: u32,
    /// When the tree was last exported.
    pub(crate) exported_at: DateTime<Utc>,
    /// When the tree was last imported, if ever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) imported_at: Option<DateTime<Utc>>,
    /// The files.
    pub(crate) files: BTreeMap<String, Entry>,
}

impl Manifest {
    /// An empty manifest stamped now.
    pub(crate) fn new() -> Self {
        Self { format: FORMAT, exported_at: Utc::now(), imported_at: None, files: BTreeMap::new() }
    }

    /// Whether a file's bytes are the ones last recorded for it.
    pub(crate) fn is_pristine(&self, rel: &str, sha256: &str) -> bool {
        self.files.get(rel).is_some_and(|e| e.sha256 == sha256)
    }
}

/// Reads a tree's manifest; `None` when the tree has none.
pub(crate) fn load(dir: &Path) -> anyhow::Result<Option<Manifest>> {
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let manifest: Manifest = serde_json::from_str(&text).with_context(|| {
        format!("{} is damaged; delete it to treat every file in the tree as a hand edit", path.display())
    })?;
    anyhow::ensure!(
        manifest.format == FORMAT,
        "{} has format {}, this version reads format {FORMAT}",
        path.display(),
        manifest.format
    );
    Ok(Some(manifest))
}

/// Writes a tree's manifest.
pub(crate) fn save(dir: &Path, manifest: &Manifest) -> anyhow::Result<()> {
    let path = dir.join(MANIFEST);
    let mut text = serde_json::to_string_pretty(manifest)?;
    text.push('\n');
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}
