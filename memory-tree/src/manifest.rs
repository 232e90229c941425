//! `.agent-memory-export.json`: what an export wrote, so an import can tell hand edits apart.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::confine;
use crate::error::{Error, Result};
use crate::layout::MANIFEST;

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

/// Reads a tree's manifest; `None` when the tree has none. A manifest that is a symbolic link,
/// or that lists a path outside the tree, is refused.
pub(crate) fn load(dir: &Path) -> Result<Option<Manifest>> {
    confine::no_links(dir, MANIFEST)?;
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(Error::Read { path, source }),
    };
    let manifest: Manifest = match serde_json::from_str(&text) {
        Ok(manifest) => manifest,
        Err(source) => return Err(Error::ManifestDamaged { path, source }),
    };
    if manifest.format != FORMAT {
        return Err(Error::ManifestFormat { path, found: manifest.format, supported: FORMAT });
    }
    if let Some((entry, reason)) =
        manifest.files.keys().find_map(|rel| confine::entry_problem(rel).map(|why| (rel.clone(), why)))
    {
        return Err(Error::ManifestEntry { path, entry, reason });
    }
    Ok(Some(manifest))
}

/// Writes a tree's manifest.
pub(crate) fn save(dir: &Path, manifest: &Manifest) -> Result<()> {
    let path = dir.join(MANIFEST);
    let mut text = serde_json::to_string_pretty(manifest)
        .map_err(|e| Error::Write { path: path.clone(), source: e.into() })?;
    text.push('\n');
    confine::write(dir, MANIFEST, text.as_bytes()).map(drop)
}
