//! Writing every note to a Markdown tree.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;
use memory_core::{MemoryStore, Note, NoteFilter, Scope};
use serde::Serialize;

use super::index;
use super::layout::{self, INDEX, MANIFEST};
use super::manifest::{self, Entry, Manifest};

/// What an export did.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ExportReport {
    /// The tree's folder.
    pub(crate) dir: String,
    /// Files written, relative to the tree.
    pub(crate) files: Vec<String>,
    /// Files of an earlier export removed because their note no longer exists.
    pub(crate) removed: Vec<String>,
    /// The generated index.
    pub(crate) index: String,
    /// The manifest.
    pub(crate) manifest: String,
}

/// Exports every note of the store to `dir`.
///
/// Refuses to overwrite anything that is not a previous, untouched export: a folder with files
/// but no manifest, or a tree with hand edits that were not imported yet.
pub(crate) async fn export_tree(store: &dyn MemoryStore, dir: &Path) -> anyhow::Result<ExportReport> {
    let previous = check_target(dir)?;
    let notes = store.list_notes(&NoteFilter::all()).await.context("cannot list notes")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;

    let folders = assign_folders(&notes);
    let mut manifest = Manifest::new();
    let mut placed: Vec<(String, &Note)> = Vec::with_capacity(notes.len());
    for note in &notes {
        let folder = &folders[&note.meta.scope];
        let rel = format!("{folder}/{}", note.path);
        let text = note.to_markdown();
        let abs = dir.join(&rel);
        if let Some(parent) = abs.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&abs, &text).with_context(|| format!("cannot write {}", abs.display()))?;
        manifest.files.insert(
            rel.clone(),
            Entry {
                scope: note.meta.scope.to_string(),
                path: note.path.to_string(),
                sha256: layout::sha256_hex(text.as_bytes()),
            },
        );
        placed.push((rel, note));
    }

    let mut removed = Vec::new();
    for rel in previous.iter().flat_map(|m| m.files.keys()) {
        if !manifest.files.contains_key(rel) {
            match std::fs::remove_file(dir.join(rel)) {
                Ok(()) => removed.push(rel.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("cannot remove stale {rel}")),
            }
        }
    }
    layout::prune_empty_dirs(dir);

    let index_path = dir.join(INDEX);
    std::fs::write(&index_path, index::render(&placed, manifest.exported_at))
        .with_context(|| format!("cannot write {}", index_path.display()))?;
    manifest::save(dir, &manifest)?;
    Ok(ExportReport {
        dir: dir.display().to_string(),
        files: placed.into_iter().map(|(rel, _)| rel).collect(),
        removed,
        index: index_path.display().to_string(),
        manifest: dir.join(MANIFEST).display().to_string(),
    })
}

/// Checks that `dir` may be written: missing, empty (hidden entries aside), or an earlier export
/// whose files are all as exported. Returns the earlier export's manifest.
fn check_target(dir: &Path) -> anyhow::Result<Option<Manifest>> {
    if !dir.exists() {
        return Ok(None);
    }
    anyhow::ensure!(dir.is_dir(), "{} is not a folder", dir.display());
    let previous = manifest::load(dir)?;
    let Some(previous) = previous else {
        let mut entries = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        let visible = entries.any(|e| e.is_ok_and(|e| !e.file_name().to_string_lossy().starts_with('.')));
        anyhow::ensure!(
            !visible,
            "{} is not empty and holds no earlier export; export into an empty or new folder",
            dir.display()
        );
        return Ok(None);
    };
    let mut edited = Vec::new();
    for file in layout::walk(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let bytes =
            std::fs::read(&file.abs).with_context(|| format!("cannot read {}", file.abs.display()))?;
        if !previous.is_pristine(&file.rel, &layout::sha256_hex(&bytes)) {
            edited.push(file.rel);
        }
    }
    if !edited.is_empty() {
        anyhow::bail!(
            "{} has files changed or added since the last export, which exporting would overwrite: {}; \
             run `agent-memory import {}` first (or export into another folder)",
            dir.display(),
            edited.join(", "),
            dir.display()
        );
    }
    Ok(Some(previous))
}

/// Gives each scope its folder; two scopes that would share one both get a disambiguated name.
fn assign_folders(notes: &[Note]) -> BTreeMap<Scope, String> {
    let mut by_folder: BTreeMap<String, Vec<Scope>> = BTreeMap::new();
    for note in notes {
        let scopes = by_folder.entry(layout::scope_dir(&note.meta.scope)).or_default();
        if !scopes.contains(&note.meta.scope) {
            scopes.push(note.meta.scope.clone());
        }
    }
    let mut out = BTreeMap::new();
    for (folder, scopes) in by_folder {
        let shared = scopes.len() > 1;
        for scope in scopes {
            let name = if shared { layout::disambiguated_scope_dir(&scope) } else { folder.clone() };
            out.insert(scope, name);
        }
    }
    out
}
