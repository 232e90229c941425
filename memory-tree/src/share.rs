//! A project's notes shared through its repository: a folder of Markdown files (one per note,
//! frontmatter as [`crate::export_tree`] writes it) that people review and merge like code, and
//! that every clone's hooks read as the project's notes.
//!
//! - [`bring_in`] reads the folder into the store: only when a file's size or modification time
//!   differs from what the ledger (in the data folder, never in the repository) last saw, so an
//!   unchanged folder costs a directory listing and a `stat` per file. A file as agent-memory
//!   wrote it (its seal intact) keeps its generator; any other file was edited by a person or
//!   merged by git and is stored as a person's note (`generator: human`), which the dream merges
//!   into and never drops lines of. A file removed from the folder deletes its note, unless the
//!   note changed in the store since.
//! - [`write_out`] writes the store's notes of the project to the folder: new and changed notes
//!   rewritten, notes gone removed, a file changed since agent-memory last saw it left alone
//!   (read in first). Only the project's own notes go there, never one a filter says is private.
//!   It never runs git.
//!
//! A union merge (`merge=union` in the folder's `.gitattributes`, written with the notes) keeps
//! both sides' lines when two branches changed one note; the reader folds what it leaves (see
//! `file`).

mod file;
mod ledger;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chrono::Utc;
use memory_core::{MemoryStore, Note, NoteChange, NoteFilter, NotePath, Scope};
use serde::Serialize;

use crate::confine;
use crate::error::{Error, Result};
use crate::import::Invalid;
use crate::layout::{Naming, sha256_hex};
use ledger::{Ledger, Seen};

/// The file that gives the folder's Markdown files a union merge.
pub const GITATTRIBUTES: &str = ".gitattributes";

/// What [`GITATTRIBUTES`] holds when agent-memory writes it.
pub const GITATTRIBUTES_TEXT: &str = "# Written by agent-memory: a merge keeps both sides' lines of a note (docs/team.md).\n*.md merge=union\n";

/// A project's shared folder, and where agent-memory keeps what it last saw of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    /// The project's id (its notes' scope is `project:<id>`).
    pub project: String,
    /// The project's readable name: its notes are filed under `project/<name>/`.
    pub name: String,
    /// The project's root folder.
    pub root: PathBuf,
    /// The folder in the repository.
    pub folder: PathBuf,
    /// The ledger file in the data folder.
    pub ledger: PathBuf,
}

impl Shared {
    fn scope(&self) -> Scope {
        Scope::Project(self.project.clone())
    }

    fn naming(&self) -> Naming {
        Naming::new([(self.project.clone(), self.name.clone())].into())
    }

    /// The note a file of the folder stands for: `project/<slug of the name>/<file>`, where every
    /// note of the project is filed.
    fn note_path(&self, rel: &str) -> std::result::Result<NotePath, String> {
        NotePath::new(format!("{}/{rel}", self.naming().folder(&self.project))).map_err(|e| e.to_string())
    }
}

/// The file of the folder a note is written to: its path below the project's folder.
fn file_of(note: &Note) -> String {
    note.path.below_project_folder().map_or_else(|| note.path.to_string(), str::to_owned)
}

/// A shared folder as a ledger records it: its project, root folder and folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Recorded {
    /// The project's id.
    pub project: String,
    /// The project's root folder.
    pub root: PathBuf,
    /// The shared folder.
    pub folder: PathBuf,
    /// The ledger file.
    pub ledger: PathBuf,
    /// Files the ledger knows.
    pub files: usize,
}

/// Every shared folder whose ledger is in `dir`.
pub fn recorded(dir: &Path) -> Vec<Recorded> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<Recorded> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|path| {
            let ledger = Ledger::peek(&path)?;
            Some(Recorded {
                project: ledger.project,
                root: ledger.root,
                folder: ledger.folder,
                files: ledger.files.len(),
                ledger: path,
            })
        })
        .collect();
    out.sort_by(|a, b| a.folder.cmp(&b.folder));
    out
}

/// What [`bring_in`] did. Files are named by their path in the folder.
#[derive(Debug, Clone, Default, Serialize)]
#[non_exhaustive]
pub struct BroughtIn {
    /// Whether any file was read (`false`: nothing changed since the ledger's last look).
    pub looked: bool,
    /// Notes the store did not have.
    pub created: Vec<String>,
    /// Notes the folder changed.
    pub updated: Vec<String>,
    /// Notes deleted because their file was removed.
    pub deleted: Vec<String>,
    /// Files that are not valid notes, left alone.
    pub invalid: Vec<Invalid>,
    /// Changed files left for the next call (over its limit).
    pub pending: usize,
}

/// What [`write_out`] did.
#[derive(Debug, Clone, Default, Serialize)]
#[non_exhaustive]
pub struct Written {
    /// What was read in first.
    pub brought_in: BroughtIn,
    /// Files written (new or changed notes).
    pub written: Vec<String>,
    /// Files removed (their note is gone, or private now).
    pub removed: Vec<String>,
    /// Files changed since agent-memory last saw them, left as they are.
    pub left: Vec<String>,
    /// Notes of the project kept out of the folder as private.
    pub withheld: usize,
    /// Files in the folder now.
    pub files: usize,
}

/// A Markdown file of the folder, with what `stat` says of it.
struct Found {
    rel: String,
    abs: PathBuf,
    size: u64,
    modified: u128,
}

/// Reads the shared folder into the store (see the module docs), at most `limit` changed files
/// at a time (the others at the next call; [`BroughtIn::pending`] says how many wait). A folder
/// that does not exist (a branch without it) changes nothing.
pub async fn bring_in(
    store: &dyn MemoryStore,
    shared: &Shared,
    redactor: &memory_redact::Redactor,
    limit: usize,
) -> Result<BroughtIn> {
    let mut report = BroughtIn::default();
    if !shared.folder.is_dir() {
        return Ok(report);
    }
    let ledger = Ledger::load(&shared.ledger, &shared.project, &shared.root, &shared.folder);
    let found = list(&shared.folder)?;
    let unchanged = found.len() == ledger.files.len()
        && found
            .iter()
            .all(|f| ledger.files.get(&f.rel).is_some_and(|s| s.size == f.size && s.modified == f.modified));
    if unchanged {
        return Ok(report);
    }
    report.looked = true;
    let (scope, naming, now) = (shared.scope(), shared.naming(), Utc::now());
    let mut changes = Vec::new();
    let mut next: BTreeMap<String, Seen> = BTreeMap::new();
    let mut read_files = 0;
    for f in &found {
        let seen = ledger.files.get(&f.rel);
        if let Some(seen) = seen.filter(|s| s.size == f.size && s.modified == f.modified) {
            next.insert(f.rel.clone(), seen.clone());
            continue;
        }
        if read_files == limit {
            // Left for the next call, as last seen.
            if let Some(seen) = seen {
                next.insert(f.rel.clone(), seen.clone());
            }
            report.pending += 1;
            continue;
        }
        read_files += 1;
        let bytes = std::fs::read(&f.abs).map_err(Error::read(&f.abs))?;
        let sha256 = sha256_hex(&bytes);
        if let Some(seen) = seen.filter(|s| s.sha256 == sha256) {
            next.insert(f.rel.clone(), Seen { size: f.size, modified: f.modified, ..seen.clone() });
            continue;
        }
        let read = std::str::from_utf8(&bytes).map_err(|_| "is not UTF-8 text".to_owned()).and_then(|text| {
            file::read(shared.note_path(&f.rel)?, text, &file::defaults(scope.clone(), now))
        });
        let (mut note, intact) = match read {
            Ok(read) => read,
            Err(reason) => {
                report.invalid.push(Invalid { file: f.rel.clone(), reason });
                // Not read again until it changes, and never written over.
                next.insert(
                    f.rel.clone(),
                    Seen { sha256, size: f.size, modified: f.modified, note: String::new() },
                );
                continue;
            }
        };
        // A file from the repository can carry a secret like any hand edit.
        redactor.redact_note(&mut note);
        let current = store.get_note(&scope, &note.path).await?;
        if let Some(current) = &current {
            // Changed in this store since the two last agreed (an edit not written out yet).
            let changed_here = seen.is_some_and(|s| {
                !s.note.is_empty() && sha256_hex(naming.markdown(current).as_bytes()) != s.note
            });
            let store_newer = current.meta.updated > note.meta.updated;
            if !changed_here && store_newer && intact {
                // An older version as agent-memory wrote it (a branch behind, another worktree):
                // the store keeps its own, and the next write brings the file up to date.
                let note_hash = sha256_hex(naming.markdown(&note).as_bytes());
                next.insert(
                    f.rel.clone(),
                    Seen { sha256, size: f.size, modified: f.modified, note: note_hash },
                );
                continue;
            }
            if changed_here || store_newer {
                // Both sides changed: both sides' lines are kept, as a person's note.
                note = file::joined(note, current);
            }
        }
        let changed = match current {
            Some(current) if current == note => false,
            Some(_) => {
                report.updated.push(f.rel.clone());
                true
            }
            None => {
                report.created.push(f.rel.clone());
                true
            }
        };
        let note_hash = sha256_hex(naming.markdown(&note).as_bytes());
        next.insert(f.rel.clone(), Seen { sha256, size: f.size, modified: f.modified, note: note_hash });
        if changed {
            changes.push(NoteChange::Put(note));
        }
    }
    for (rel, seen) in &ledger.files {
        if next.contains_key(rel) || seen.note.is_empty() {
            continue;
        }
        let Ok(path) = shared.note_path(rel) else { continue };
        let Some(current) = store.get_note(&scope, &path).await? else { continue };
        // Removed from the folder: the note goes too, unless it changed here since.
        if sha256_hex(naming.markdown(&current).as_bytes()) == seen.note {
            changes.push(NoteChange::Delete { scope: scope.clone(), path });
            report.deleted.push(rel.clone());
        }
    }
    if !changes.is_empty() {
        store.commit(&changes, None).await.map_err(Error::Commit)?;
    }
    Ledger { files: next, ..ledger }.save(&shared.ledger)?;
    Ok(report)
}

/// Writes the project's notes to the shared folder after reading it in (see the module docs).
/// `private` says whether a text must stay out of the repository: a note whose title,
/// description or body it flags is not written (and its file, if agent-memory wrote one, is
/// removed).
pub async fn write_out(
    store: &dyn MemoryStore,
    shared: &Shared,
    redactor: &memory_redact::Redactor,
    private: &dyn Fn(&str) -> bool,
) -> Result<Written> {
    let mut report =
        Written { brought_in: bring_in(store, shared, redactor, usize::MAX).await?, ..Written::default() };
    let mut ledger = Ledger::load(&shared.ledger, &shared.project, &shared.root, &shared.folder);
    let (scope, naming) = (shared.scope(), shared.naming());
    let notes = store.list_notes(&NoteFilter::scope(scope)).await.map_err(Error::ListNotes)?;
    std::fs::create_dir_all(&shared.folder).map_err(Error::create_dir(&shared.folder))?;
    let mut kept = BTreeSet::new();
    for note in &notes {
        if note.team_owner().is_some() {
            // Other people's notes from a team server are theirs to share.
            continue;
        }
        let rel = file_of(note);
        let texts = [Some(note.meta.title.as_str()), note.meta.description.as_deref(), Some(&note.body)];
        if texts.into_iter().flatten().any(private) {
            report.withheld += 1;
            continue;
        }
        kept.insert(rel.clone());
        let markdown = naming.markdown(note);
        let note_hash = sha256_hex(markdown.as_bytes());
        let abs = shared.folder.join(&rel);
        let seen = ledger.files.get(&rel);
        let on_disk = std::fs::symlink_metadata(&abs).ok();
        match seen {
            Some(seen) if seen.note.is_empty() => {
                report.left.push(rel);
                continue;
            }
            Some(seen) if seen.note == note_hash && on_disk.is_some() => continue,
            _ => {}
        }
        if on_disk.is_some() {
            // A file nobody has read in as it is now is a person's: never written over.
            let bytes = std::fs::read(&abs).map_err(Error::read(&abs))?;
            if seen.is_none_or(|s| s.sha256 != sha256_hex(&bytes)) {
                report.left.push(rel);
                continue;
            }
        }
        let sealed = file::seal(&markdown);
        let written = confine::write(&shared.folder, &rel, sealed.as_bytes())?;
        let (size, modified) = stat(&written).map_err(Error::read(&written))?;
        ledger.files.insert(
            rel.clone(),
            Seen { sha256: sha256_hex(sealed.as_bytes()), size, modified, note: note_hash },
        );
        report.written.push(rel);
    }
    for (rel, seen) in ledger.files.clone() {
        if kept.contains(&rel) {
            continue;
        }
        let abs = shared.folder.join(&rel);
        match std::fs::read(&abs) {
            Ok(bytes) if sha256_hex(&bytes) != seen.sha256 => report.left.push(rel),
            Ok(_) => {
                confine::remove(&shared.folder, &rel)?;
                ledger.files.remove(&rel);
                report.removed.push(rel);
            }
            Err(_) => {
                ledger.files.remove(&rel);
            }
        }
    }
    prune_empty(&shared.folder);
    let attributes = shared.folder.join(GITATTRIBUTES);
    if !attributes.exists() {
        confine::write(&shared.folder, GITATTRIBUTES, GITATTRIBUTES_TEXT.as_bytes())?;
    }
    report.files = ledger.files.len();
    ledger.save(&shared.ledger)?;
    Ok(report)
}

/// A file's size and modification time in nanoseconds.
fn stat(path: &Path) -> std::io::Result<(u64, u128)> {
    let meta = std::fs::metadata(path)?;
    let modified = meta.modified()?.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    Ok((meta.len(), modified))
}

/// Every Markdown file below `folder` (hidden entries and symbolic links skipped), sorted.
fn list(folder: &Path) -> Result<Vec<Found>> {
    let files = crate::layout::markdown_files(folder).map_err(Error::read(folder))?;
    files
        .into_iter()
        .map(|file| {
            let (size, modified) = stat(&file.abs).map_err(Error::read(&file.abs))?;
            Ok(Found { rel: file.rel, abs: file.abs, size, modified })
        })
        .collect()
}

/// Removes empty folders below `folder` (the folder itself stays).
fn prune_empty(folder: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            crate::layout::prune(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests;
