//! Writing every note to a Markdown tree.

use std::collections::BTreeMap;
use std::path::Path;

use memory_core::{MemoryStore, Note, NoteFilter, Scope};
use serde::Serialize;

use crate::confine;
use crate::error::{Error, Result};
use crate::index;
use crate::layout::{self, INDEX, MANIFEST, Naming};
use crate::manifest::{self, Entry, Manifest};

/// What an export did.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ExportReport {
    /// The tree's folder.
    pub dir: String,
    /// Files written, relative to the tree.
    pub files: Vec<String>,
    /// Files of an earlier export removed because their note no longer exists.
    pub removed: Vec<String>,
    /// The generated index.
    pub index: String,
    /// The manifest.
    pub manifest: String,
}

/// Exports every note of the store to `dir`, project folders named after the project ids.
///
/// Refuses to overwrite anything that is not a previous, untouched export: a folder with files
/// but no manifest, or a tree with hand edits that were not imported yet.
pub async fn export_tree(store: &dyn MemoryStore, dir: &Path) -> Result<ExportReport> {
    export_tree_named(store, dir, &Naming::default()).await
}

/// [`export_tree`] with project folders named by `naming` (`project/webshop/…`).
pub async fn export_tree_named(store: &dyn MemoryStore, dir: &Path, naming: &Naming) -> Result<ExportReport> {
    let previous = check_target(dir)?;
    let notes = store.list_notes(&NoteFilter::all()).await.map_err(Error::ListNotes)?;
    std::fs::create_dir_all(dir).map_err(Error::create_dir(dir))?;

    let folders = assign_folders(&notes, naming);
    let taken: std::collections::BTreeSet<(&Scope, &str)> =
        notes.iter().map(|n| (&n.meta.scope, n.path.as_str())).collect();
    let mut manifest = Manifest::new();
    let mut placed: Vec<(String, &Note)> = Vec::with_capacity(notes.len());
    for note in &notes {
        let folder = &folders[&note.meta.scope];
        // The short path, unless another note of the scope has it as its own path.
        let inner = layout::short_path(&note.meta.scope, &note.path)
            .filter(|short| !taken.contains(&(&note.meta.scope, short.as_str())))
            .unwrap_or_else(|| note.path.to_string());
        let rel = format!("{folder}/{inner}");
        let text = naming.markdown(note);
        confine::write(dir, &rel, text.as_bytes())?;
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
        if !manifest.files.contains_key(rel) && confine::remove(dir, rel)? {
            removed.push(rel.clone());
        }
    }
    layout::prune_empty_dirs(dir);

    let index_path =
        confine::write(dir, INDEX, index::render(&placed, manifest.exported_at, naming).as_bytes())?;
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
fn check_target(dir: &Path) -> Result<Option<Manifest>> {
    if !dir.exists() {
        return Ok(None);
    }
    if !dir.is_dir() {
        return Err(Error::NotAFolder { dir: dir.to_owned() });
    }
    let previous = manifest::load(dir)?;
    let Some(previous) = previous else {
        let mut entries = std::fs::read_dir(dir).map_err(Error::read(dir))?;
        let visible = entries.any(|e| e.is_ok_and(|e| !e.file_name().to_string_lossy().starts_with('.')));
        if visible {
            return Err(Error::NotEmpty { dir: dir.to_owned() });
        }
        return Ok(None);
    };
    let mut edited = Vec::new();
    for file in layout::walk(dir).map_err(Error::read(dir))? {
        let bytes = std::fs::read(&file.abs).map_err(Error::read(&file.abs))?;
        if !previous.is_pristine(&file.rel, &layout::sha256_hex(&bytes)) {
            edited.push(file.rel);
        }
    }
    if !edited.is_empty() {
        return Err(Error::Unimported { dir: dir.to_owned(), files: edited });
    }
    Ok(Some(previous))
}

/// Gives each scope its folder; two scopes that would share one both get a disambiguated name.
fn assign_folders(notes: &[Note], naming: &Naming) -> BTreeMap<Scope, String> {
    let mut by_folder: BTreeMap<String, Vec<Scope>> = BTreeMap::new();
    for note in notes {
        let scopes = by_folder.entry(layout::scope_dir(&note.meta.scope, naming)).or_default();
        if !scopes.contains(&note.meta.scope) {
            scopes.push(note.meta.scope.clone());
        }
    }
    let mut out = BTreeMap::new();
    for (folder, scopes) in by_folder {
        let shared = scopes.len() > 1;
        for scope in scopes {
            let name = if shared { layout::disambiguated_scope_dir(&scope, naming) } else { folder.clone() };
            out.insert(scope, name);
        }
    }
    out
}
