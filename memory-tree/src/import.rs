//! Reading a Markdown tree back into the store.
//!
//! A file whose bytes match the manifest is as exported: the store keeps its own copy (which the
//! dream may have improved since), and restores the file only when the store has lost the note.
//! Any other file is a hand edit or a new note: it wins over the store copy and is recorded with
//! `generator: human`, so the dream merges into it rather than overwriting it. Files that do not
//! parse are reported and left alone. Notes whose files were removed stay in the store unless
//! `delete_missing` is set.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::Utc;
use memory_core::{GENERATOR_HUMAN, MemoryStore, Note, NoteChange, NoteDefaults, NoteKind, NotePath, Scope};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::layout::{self, Naming, TreeFile};
use crate::manifest::{self, Entry, Manifest};

/// A file that could not be imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Invalid {
    /// The file, relative to the tree.
    pub file: String,
    /// What is wrong with it.
    pub reason: String,
}

/// What an import did. Paths are relative to the tree.
#[derive(Debug, Clone, Default, Serialize)]
#[non_exhaustive]
pub struct ImportReport {
    /// The tree's folder.
    pub dir: String,
    /// Notes the store did not have.
    pub created: Vec<String>,
    /// Notes replaced by a hand-edited file.
    pub updated: Vec<String>,
    /// Files that needed nothing.
    pub unchanged: Vec<String>,
    /// Files skipped because they are not valid notes.
    pub invalid: Vec<Invalid>,
    /// Notes deleted because their file was removed (with `delete_missing` only).
    pub deleted: Vec<String>,
    /// Notes whose file was removed but which stay in the store: changed in the store since the
    /// export (with `delete_missing`), or every such note without it.
    pub kept: Vec<String>,
}

/// Imports the tree at `dir` into the store, in one atomic commit.
///
/// With `delete_missing`, notes whose files were removed since the export are deleted, unless
/// they changed in the store since; this needs the tree's manifest. Files that are not valid notes
/// are reported in [`ImportReport::invalid`] and do not stop the import.
pub async fn import_tree(store: &dyn MemoryStore, dir: &Path, delete_missing: bool) -> Result<ImportReport> {
    import_tree_named(store, dir, delete_missing, &Naming::default()).await
}

/// [`import_tree`] of a tree whose project folders were named by `naming` (folders named after
/// project ids are read too).
pub async fn import_tree_named(
    store: &dyn MemoryStore,
    dir: &Path,
    delete_missing: bool,
    naming: &Naming,
) -> Result<ImportReport> {
    import_tree_redacted(store, dir, delete_missing, naming, &memory_redact::Redactor::new()).await
}

/// [`import_tree_named`] redacting every note with `redactor` (one carrying the user's own rules).
pub async fn import_tree_redacted(
    store: &dyn MemoryStore,
    dir: &Path,
    delete_missing: bool,
    naming: &Naming,
    redactor: &memory_redact::Redactor,
) -> Result<ImportReport> {
    if !dir.is_dir() {
        return Err(Error::NotAFolder { dir: dir.to_owned() });
    }
    let previous = manifest::load(dir)?;
    if previous.is_none() && delete_missing {
        return Err(Error::NoManifest { dir: dir.to_owned() });
    }
    let files = layout::walk(dir).map_err(Error::read(dir))?;
    let mut report = ImportReport { dir: dir.display().to_string(), ..ImportReport::default() };
    let mut changes = Vec::new();
    let mut next = Manifest::new();
    if let Some(previous) = &previous {
        next.exported_at = previous.exported_at;
    }
    next.imported_at = Some(Utc::now());
    let mut seen: BTreeMap<(Scope, NotePath), String> = BTreeMap::new();

    for file in &files {
        let bytes = std::fs::read(&file.abs).map_err(Error::read(&file.abs))?;
        let exported = previous.as_ref().and_then(|m| m.files.get(&file.rel));
        let note = match read_note(file, &bytes, naming, exported) {
            Ok(mut note) => {
                // A hand edit can paste a secret: it is redacted like everything else stored.
                redactor.redact_note(&mut note);
                note
            }
            Err(reason) => {
                report.invalid.push(Invalid { file: file.rel.clone(), reason });
                continue;
            }
        };
        let key = (note.meta.scope.clone(), note.path.clone());
        if let Some(first) = seen.get(&key) {
            let reason = format!("is the same note ({} {}) as {first}; keep one of them", key.0, key.1);
            report.invalid.push(Invalid { file: file.rel.clone(), reason });
            continue;
        }
        seen.insert(key, file.rel.clone());

        let sha256 = layout::sha256_hex(&bytes);
        let pristine = previous.as_ref().is_some_and(|m| m.is_pristine(&file.rel, &sha256));
        let current = store.get_note(&note.meta.scope, &note.path).await?;
        let outcome = if pristine {
            match current {
                Some(_) => None,
                None => Some((note.clone(), Created::Yes)),
            }
        } else {
            let edited = Note {
                meta: memory_core::NoteMeta { generator: GENERATOR_HUMAN.to_owned(), ..note.meta.clone() },
                ..note.clone()
            };
            match current {
                Some(current) if current == note || same_apart_from_time(&current, &edited) => None,
                Some(_) => Some((stamped(edited), Created::No)),
                None => Some((stamped(edited), Created::Yes)),
            }
        };
        match outcome {
            None => report.unchanged.push(file.rel.clone()),
            Some((note, created)) => {
                match created {
                    Created::Yes => report.created.push(file.rel.clone()),
                    Created::No => report.updated.push(file.rel.clone()),
                }
                changes.push(NoteChange::Put(note));
            }
        }
        next.files.insert(
            file.rel.clone(),
            Entry { scope: note.meta.scope.to_string(), path: note.path.to_string(), sha256 },
        );
    }

    for (rel, entry) in previous.iter().flat_map(|m| &m.files) {
        if files.iter().any(|f| &f.rel == rel) {
            if !next.files.contains_key(rel) {
                next.files.insert(rel.clone(), entry.clone());
            }
            continue;
        }
        let (Ok(scope), Ok(path)) = (entry.scope.parse::<Scope>(), NotePath::new(entry.path.clone())) else {
            continue;
        };
        let Some(current) = store.get_note(&scope, &path).await? else { continue };
        if delete_missing && layout::sha256_hex(naming.markdown(&current).as_bytes()) == entry.sha256 {
            changes.push(NoteChange::Delete { scope, path });
            report.deleted.push(rel.clone());
        } else {
            report.kept.push(rel.clone());
            if !delete_missing {
                next.files.insert(rel.clone(), entry.clone());
            }
        }
    }

    if !changes.is_empty() {
        store.commit(&changes, None).await.map_err(Error::Commit)?;
    }
    if previous.is_some() || !changes.is_empty() {
        manifest::save(dir, &next)?;
    }
    Ok(report)
}

/// Whether a written note is new to the store.
enum Created {
    Yes,
    No,
}

/// Parses and checks one file. Its frontmatter's scope names a project by name or id; a file
/// without one takes the scope of its folder. A file the last export wrote keeps the note path it
/// was written for; any other project note is filed in its project's folder
/// (`project/<name>/<path>`), as every writer files them.
fn read_note(
    file: &TreeFile,
    bytes: &[u8],
    naming: &Naming,
    exported: Option<&Entry>,
) -> Result<Note, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_owned())?;
    let placement = layout::place(&file.rel)?;
    // A file written by hand may leave out `updated`, `generator`, `kind`, `title` and `scope`:
    // they get now, `human`, `fact`, the file name and its folder's scope.
    let defaults = NoteDefaults {
        scope: layout::folder_scope(&placement.folder, naming),
        kind: NoteKind::Fact,
        updated: Utc::now(),
        generator: GENERATOR_HUMAN.to_owned(),
        // A file names its owner, or names nobody.
        owner: None,
    };
    let mut note =
        Note::from_markdown_or(placement.path.clone(), text, &defaults).map_err(|e| e.to_string())?;
    note.meta.scope = naming.resolve(note.meta.scope);
    match exported {
        Some(exported) if exported.scope == note.meta.scope.to_string() => {
            if let Ok(path) = NotePath::new(exported.path.clone()) {
                note.path = path;
            }
        }
        _ => note.path = naming.place(&note.meta.scope, &note.path),
    }
    note.validate().map_err(|e| e.to_string())?;
    if !layout::folder_matches(&placement.folder, &note.meta.scope, naming) {
        return Err(format!(
            "is in {}/ but its frontmatter says `scope: {}` (expected folder {}/); move the file or \
             change its scope line",
            placement.folder,
            naming.label(&note.meta.scope),
            layout::scope_dir(&note.meta.scope, naming)
        ));
    }
    Ok(note)
}

/// The note as a hand edit written now.
fn stamped(mut note: Note) -> Note {
    note.meta.updated = Utc::now();
    note
}

fn same_apart_from_time(a: &Note, b: &Note) -> bool {
    let mut b = b.clone();
    b.meta.updated = a.meta.updated;
    *a == b
}
