//! A project's notes shared through its repository, for teams without a server.
//!
//! A project turns it on in its committed `.agent-memory.toml`:
//!
//! ```toml
//! [share]
//! notes = ".agent-memory/notes"   # a folder of the repository, relative to the project's root
//! ```
//!
//! Then the project's notes are kept in that folder as Markdown, one file per note
//! ([`memory_tree::share`]): the dream writes them there after each run ([`after_dream`]) and
//! never runs git; every clone's hooks read the folder into the store at a session start and a
//! prompt when a file changed since they last looked ([`bring_in`]), so the notes are injected
//! like any other. What was last seen of each folder is kept in `<data_dir>/share/`, one ledger
//! per folder.

use std::path::{Component, Path, PathBuf};

use memory_core::{MemoryStore, ProjectNames};
use memory_tree::share::{BroughtIn, Recorded, Shared, Written};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::project::{PROJECT_FILE, Project, short_hash};

/// The folder `share on` names when it is given none.
pub const DEFAULT_FOLDER: &str = ".agent-memory/notes";

/// The folder the project file at `root` shares the notes in (`[share] notes`), when it names
/// one inside the project: a relative path without `..`, that no symbolic link takes elsewhere
/// (a repository cannot make the dream write outside it).
pub fn setting(root: &Path) -> Option<PathBuf> {
    let folder = crate::project::project_file(root)?.share.notes?;
    let path = root.join(folder.trim_end_matches('/'));
    (inside(&folder) && stays_in(root, &path)).then_some(path)
}

/// Whether `path`, or the nearest of its folders that exists, resolves to a place inside `root`.
fn stays_in(root: &Path, path: &Path) -> bool {
    let Ok(root) = std::fs::canonicalize(root) else { return false };
    path.ancestors().find_map(|at| std::fs::canonicalize(at).ok()).is_some_and(|real| real.starts_with(&root))
}

/// Whether `folder` is a relative path that stays inside the project (and out of `.git`).
fn inside(folder: &str) -> bool {
    let path = Path::new(folder);
    !folder.trim().is_empty()
        && path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        && path.components().next().is_some_and(|c| c.as_os_str() != ".git")
}

/// The ledger of a shared folder in the data folder.
fn ledger(config: &Config, project: &str, folder: &Path) -> PathBuf {
    let name = format!("{project}-{}.json", short_hash(&folder.display().to_string()));
    config.data_dir().join("share").join(name)
}

/// The shared folder of `project`, when its project file turns sharing on.
pub fn shared(config: &Config, project: &Project) -> Option<Shared> {
    let folder = setting(&project.root)?;
    Some(Shared {
        project: project.id.clone(),
        name: project.name.clone(),
        root: project.root.clone(),
        ledger: ledger(config, &project.id, &folder),
        folder,
    })
}

/// Changed files a hook reads at most: a first look at a large folder is spread over a few hooks,
/// each well within its deadline (the dream reads the rest at once).
pub const HOOK_BATCH: usize = 200;

/// Reads `project`'s shared folder into `store` when a file changed since the last look, at most
/// [`HOOK_BATCH`] files; `None` when the project does not share its notes. A hook calls this
/// before it injects.
pub async fn bring_in(
    config: &Config,
    store: &dyn MemoryStore,
    project: &Project,
) -> Result<Option<BroughtIn>> {
    let Some(shared) = shared(config, project) else { return Ok(None) };
    Ok(Some(memory_tree::share::bring_in(store, &shared, &config.redactor(), HOOK_BATCH).await?))
}

/// Writes `project`'s notes to its shared folder now (reading it in first); `None` when the
/// project does not share its notes.
pub async fn write_out(
    config: &Config,
    store: &dyn MemoryStore,
    project: &Project,
) -> Result<Option<Written>> {
    let Some(shared) = shared(config, project) else { return Ok(None) };
    Ok(Some(write(config, store, &shared).await?))
}

async fn write(config: &Config, store: &dyn MemoryStore, shared: &Shared) -> Result<Written> {
    let written =
        memory_tree::share::write_out(store, shared, &config.redactor(), &dream::carries_secret).await?;
    if !(written.written.is_empty()
        && written.brought_in.created.is_empty()
        && written.brought_in.updated.is_empty())
    {
        // Notes read in or written want their embeddings; without them they are found by words.
        let _ = crate::dream_run::embed(config, store, 0).await;
    }
    Ok(written)
}

/// Every root folder of a known project (one a hook has seen) whose project file shares its
/// notes, with the project's name from `names` (the folder its notes are filed in).
fn still_shared(config: &Config, names: &ProjectNames) -> Vec<Shared> {
    sharing(config)
        .into_iter()
        .filter_map(|s| {
            // The catalog's name is the folder the dream files the notes in; the registry's else.
            let name = if names.id_of(&s.id).is_some() { names.name(&s.id).to_owned() } else { s.name };
            let project = Project { name, id: s.id, root: s.root };
            shared(config, &project)
        })
        .collect()
}

/// Every shared folder a hook or a command has seen on this machine.
pub fn recorded(config: &Config) -> Vec<Recorded> {
    memory_tree::share::recorded(&config.data_dir().join("share"))
}

/// Before a dream: every shared folder read in, so the run merges into what people changed.
/// Returns the failures, by folder (one folder's failure stops no other).
pub async fn before_dream(
    config: &Config,
    store: &dyn MemoryStore,
    names: &ProjectNames,
) -> Vec<(PathBuf, Error)> {
    let mut failed = Vec::new();
    for shared in still_shared(config, names) {
        if let Err(e) = memory_tree::share::bring_in(store, &shared, &config.redactor(), usize::MAX).await {
            failed.push((shared.folder.clone(), e.into()));
        }
    }
    failed
}

/// After a dream: every shared folder rewritten to match the store (new, changed and deleted
/// notes), nothing committed. Returns what was written, by folder.
pub async fn after_dream(
    config: &Config,
    store: &dyn MemoryStore,
    names: &ProjectNames,
) -> Vec<(PathBuf, Result<Written>)> {
    let mut out = Vec::new();
    for shared in still_shared(config, names) {
        let result = write(config, store, &shared).await;
        out.push((shared.folder.clone(), result));
    }
    out
}

/// A known project that shares its notes through its repository, for `doctor` and `share status`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Sharing {
    /// The project's id.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Its root folder.
    pub root: PathBuf,
    /// The shared folder.
    pub folder: PathBuf,
    /// Note files agent-memory has seen there, when it looked yet.
    pub files: Option<usize>,
}

/// Where `project` shares its notes, when it does.
pub fn sharing_of(config: &Config, project: &Project) -> Option<Sharing> {
    let shared = shared(config, project)?;
    let files = recorded(config).into_iter().find(|r| r.folder == shared.folder).map(|r| r.files);
    Some(Sharing { id: shared.project, name: shared.name, root: shared.root, folder: shared.folder, files })
}

/// Every known project (every root folder the registry holds) that shares its notes.
pub fn sharing(config: &Config) -> Vec<Sharing> {
    let registry = crate::project::Registry::new(&config.data_dir());
    let projects = registry.load().map(|p| p.projects).unwrap_or_default();
    projects
        .iter()
        .flat_map(|entry| {
            entry.roots.iter().filter_map(|root| {
                let project =
                    Project { id: entry.id.clone(), name: entry.name.clone(), root: root.path.clone() };
                sharing_of(config, &project)
            })
        })
        .collect()
}

/// Turns sharing on in the project file at `root` (created when missing, other settings and
/// comments kept), in `folder` or [`DEFAULT_FOLDER`]. Returns the shared folder.
pub fn turn_on(root: &Path, folder: Option<&str>) -> Result<PathBuf> {
    let folder = folder.unwrap_or(DEFAULT_FOLDER).trim_end_matches('/');
    if !inside(folder) {
        return Err(Error::ShareFolder { folder: folder.to_owned() });
    }
    let path = root.join(PROJECT_FILE);
    let mut doc = read_project_file(&path)?;
    if !doc.contains_table("share") {
        doc.insert("share", toml_edit::Item::Table(toml_edit::Table::new()));
    }
    doc["share"]["notes"] = toml_edit::value(folder);
    std::fs::write(&path, doc.to_string()).map_err(|cause| Error::ProjectFile { path, cause })?;
    Ok(root.join(folder))
}

/// Turns sharing off in the project file at `root` (the folder and its files stay); a file left
/// with nothing in it is removed. Returns whether it was on.
pub fn turn_off(root: &Path) -> Result<bool> {
    let path = root.join(PROJECT_FILE);
    if !path.exists() {
        return Ok(false);
    }
    let mut doc = read_project_file(&path)?;
    let Some(share) = doc.get_mut("share").and_then(toml_edit::Item::as_table_like_mut) else {
        return Ok(false);
    };
    let was = share.remove("notes").is_some();
    if share.is_empty() {
        doc.remove("share");
    }
    let text = doc.to_string();
    let written =
        if text.trim().is_empty() { std::fs::remove_file(&path) } else { std::fs::write(&path, text) };
    written.map_err(|cause| Error::ProjectFile { path, cause })?;
    Ok(was)
}

fn read_project_file(path: &Path) -> Result<toml_edit::DocumentMut> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(cause) => return Err(Error::ProjectFile { path: path.to_owned(), cause }),
    };
    text.parse().map_err(|e: toml_edit::TomlError| Error::ProjectFile {
        path: path.to_owned(),
        cause: std::io::Error::new(std::io::ErrorKind::InvalidData, e.message().to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_is_a_folder_inside_the_project() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        assert_eq!(setting(root), None);
        std::fs::write(root.join(PROJECT_FILE), "# ours\nproject = \"App\"\n").unwrap();
        assert_eq!(turn_on(root, None).unwrap(), root.join(DEFAULT_FOLDER));
        let text = std::fs::read_to_string(root.join(PROJECT_FILE)).unwrap();
        assert!(text.starts_with("# ours\nproject = \"App\"\n"), "{text}");
        assert_eq!(setting(root), Some(root.join(DEFAULT_FOLDER)));
        for bad in ["../elsewhere", "/tmp/notes", ".git/notes", ""] {
            assert!(turn_on(root, Some(bad)).is_err(), "{bad}");
            std::fs::write(root.join(PROJECT_FILE), format!("[share]\nnotes = {bad:?}\n")).unwrap();
            assert_eq!(setting(root), None, "{bad}");
        }
        std::fs::write(root.join(PROJECT_FILE), "[share]\nnotes = \"docs/memory/\"\n").unwrap();
        assert_eq!(setting(root), Some(root.join("docs/memory")));
        #[cfg(unix)]
        {
            // A link in the repository that leads out of it makes no shared folder.
            let outside = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(outside.path(), root.join("docs")).unwrap();
            assert_eq!(setting(root), None);
            std::fs::remove_file(root.join("docs")).unwrap();
        }
        assert!(turn_off(root).unwrap());
        assert!(!root.join(PROJECT_FILE).exists(), "a file left empty is removed");
        assert!(!turn_off(root).unwrap());
    }
}
