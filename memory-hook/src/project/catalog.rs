//! Every project a command can name: the registry's, and the project ids a store holds that the
//! registry does not (another machine's on a shared server store, or older than the registry).
//! Turns what users type (`project:webshop`, `project:webshop-09503e0d`, `project`) into scopes,
//! ids into readable names, and renames and merges projects.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use memory_core::{MemoryStore, Note, NoteChange, NoteFilter, NotePath, ProjectNames, Scope, SessionInfo};
use serde::Serialize;

use super::Project;
use super::registry::{Entry, Projects, Registry};
use crate::error::{Error, Result};

/// One project as commands show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Known {
    /// Its id (`Scope::Project(id)`).
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Its registry entry; `None` when only the store knows it.
    pub entry: Option<Entry>,
    /// The last event of its sessions.
    pub last_seen: Option<DateTime<Utc>>,
    /// How many sessions it has (under its id or a former one).
    pub sessions: u64,
    /// How many notes its scope holds.
    pub notes: u64,
}

impl Known {
    /// Its id and every id merged into it.
    pub fn ids(&self) -> Vec<String> {
        let mut ids = vec![self.id.clone()];
        ids.extend(self.entry.iter().flat_map(|e| e.former_ids.iter().cloned()));
        ids
    }

    /// Its scope.
    pub fn scope(&self) -> Scope {
        Scope::Project(self.id.clone())
    }

    fn answers_to(&self, text: &str) -> bool {
        self.id == text || self.entry.as_ref().is_some_and(|e| e.answers_to(text))
    }
}

/// The known projects, at one moment.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    projects: Vec<Known>,
}

impl Catalog {
    /// The registry's projects and those the store's notes and sessions name.
    pub async fn load(registry: &Registry, store: &dyn MemoryStore) -> Result<Self> {
        let projects = registry.load()?;
        let sessions = store.sessions().await?;
        let notes = store.list_notes(&NoteFilter::all()).await?;
        Ok(Self::from_parts(projects, &sessions, &notes))
    }

    /// [`Catalog::load`], after filing every project's notes in its folder
    /// (`project/<name>/`): notes written at the top of a scope by earlier versions, or filed
    /// under the project's id or a name it had before a rename, move there with their history.
    /// Commands load the catalog this way, so a renamed project's paths read its new name.
    pub async fn load_settled(registry: &Registry, store: &dyn MemoryStore) -> Result<Self> {
        let projects = registry.load()?;
        let sessions = store.sessions().await?;
        let notes = store.list_notes(&NoteFilter::all()).await?;
        let catalog = Self::from_parts(projects, &sessions, &notes);
        catalog.settle(store, &notes).await?;
        Ok(catalog)
    }

    /// Moves the notes of each known project that sit outside its folder into it; returns how
    /// many moved.
    async fn settle(&self, store: &dyn MemoryStore, notes: &[Note]) -> Result<usize> {
        let naming = self.naming();
        let mut astray = std::collections::BTreeSet::new();
        for note in notes {
            if let Scope::Project(id) = &note.meta.scope
                && self.projects.iter().any(|k| k.id == *id)
                && naming.place(&note.meta.scope, &note.path) != note.path
            {
                astray.insert(id.clone());
            }
        }
        let mut moved = 0;
        for id in astray {
            moved += dream::relocate(store, &Scope::Project(id.clone()), &naming.folder(&id)).await?;
        }
        Ok(moved)
    }

    /// The catalog of a registry's contents and what a store holds.
    pub fn from_parts(registry: Projects, sessions: &[SessionInfo], notes: &[Note]) -> Self {
        let mut projects: Vec<Known> = registry
            .projects
            .into_iter()
            .map(|entry| Known {
                id: entry.id.clone(),
                name: entry.name.clone(),
                entry: Some(entry),
                last_seen: None,
                sessions: 0,
                notes: 0,
            })
            .collect();
        let stored_ids =
            sessions.iter().filter_map(|s| s.project.clone()).chain(notes.iter().filter_map(|n| {
                match &n.meta.scope {
                    Scope::Project(id) => Some(id.clone()),
                    _ => None,
                }
            }));
        for id in stored_ids {
            if projects.iter().any(|k| k.answers_to(&id)) {
                continue;
            }
            let wanted = readable(&id);
            let taken = |name: &str| projects.iter().any(|k| k.name == name || k.answers_to(name));
            let name = if taken(&wanted) { id.clone() } else { wanted };
            projects.push(Known { id, name, entry: None, last_seen: None, sessions: 0, notes: 0 });
        }
        for session in sessions {
            let Some(id) = &session.project else { continue };
            if let Some(known) = projects.iter_mut().find(|k| k.answers_to(id)) {
                known.sessions += 1;
                known.last_seen = known.last_seen.max(Some(session.last_at));
            }
        }
        for note in notes {
            if let Scope::Project(id) = &note.meta.scope
                && let Some(known) = projects.iter_mut().find(|k| k.id == *id)
            {
                known.notes += 1;
            }
        }
        Self { projects }
    }

    /// Every known project: the registry's first, oldest first, then those only the store knows.
    pub fn projects(&self) -> &[Known] {
        &self.projects
    }

    /// The project whose id, former id or name is `text`.
    pub fn find(&self, text: &str) -> Option<&Known> {
        let text = text.trim();
        self.projects
            .iter()
            .find(|k| k.id == text)
            .or_else(|| self.projects.iter().find(|k| k.answers_to(text)))
            .or_else(|| self.projects.iter().find(|k| k.name.eq_ignore_ascii_case(text)))
    }

    /// The project `text` names, or an error listing the known ones.
    pub fn project(&self, text: &str) -> Result<&Known> {
        self.find(text).ok_or_else(|| self.unknown(text))
    }

    /// The scope a user wrote: `user`, `session:<key>`, `project:<name or id>`, or `project`
    /// alone for `here`, the current folder's project. A project nobody knows is an error, never
    /// a new scope.
    pub fn scope(&self, text: &str, here: Option<&Project>) -> Result<Scope> {
        let text = text.trim();
        if text == "project" {
            let here = here.ok_or_else(|| Error::UnknownProject {
                name: "project (the current folder's)".to_owned(),
                known: self.listing(),
            })?;
            return Ok(self.find(&here.id).map_or_else(|| Scope::Project(here.id.clone()), Known::scope));
        }
        match text.parse::<Scope>() {
            Ok(Scope::Project(name)) => Ok(self.project(&name)?.scope()),
            Ok(other) => Ok(other),
            // A project's name or id alone (`webshop`).
            Err(e) => self.find(text).map(Known::scope).ok_or(e.into()),
        }
    }

    /// The path of a note of `scope` that a user typed: a project's notes are in its folder, so
    /// `conventions.md` and `project/<name>/conventions.md` are the same note.
    pub fn note_path(&self, scope: &Scope, typed: &NotePath) -> NotePath {
        self.naming().place(scope, typed)
    }

    /// A scope as users read it: `project:<name>` for a known project.
    pub fn label(&self, scope: &Scope) -> String {
        match scope {
            Scope::Project(id) => match self.projects.iter().find(|k| k.id == *id) {
                Some(known) => format!("project:{}", known.name),
                None => scope.to_string(),
            },
            other => other.to_string(),
        }
    }

    /// The readable name of every known project, by id.
    pub fn names(&self) -> BTreeMap<String, String> {
        self.projects.iter().map(|k| (k.id.clone(), k.name.clone())).collect()
    }

    /// [`Catalog::names`], to show scopes and notes by name and read them back.
    pub fn naming(&self) -> ProjectNames {
        ProjectNames::new(self.names())
    }

    fn listing(&self) -> Vec<String> {
        self.projects.iter().map(|k| format!("{} ({})", k.name, k.id)).collect()
    }

    fn unknown(&self, text: &str) -> Error {
        Error::UnknownProject { name: text.trim().to_owned(), known: self.listing() }
    }
}

/// The name an id without a registry entry is shown by: the id without its hash.
fn readable(id: &str) -> String {
    match id.rsplit_once('-') {
        Some((name, hash))
            if !name.is_empty() && hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            name.to_owned()
        }
        _ => id.to_owned(),
    }
}

/// Gives a project a new readable name. A project only the store knows gets a registry entry.
pub async fn rename(
    registry: &Registry,
    store: &dyn MemoryStore,
    project: &str,
    new_name: &str,
) -> Result<Entry> {
    let name = new_name.trim();
    if name.is_empty() || memory_core::slug(name) != name {
        return Err(Error::ProjectName {
            name: name.to_owned(),
            problem: format!(
                "is not a name: use lowercase letters, digits and dashes (for example `{}`)",
                memory_core::slug(name)
            ),
        });
    }
    let catalog = Catalog::load(registry, store).await?;
    let known = catalog.project(project)?.clone();
    if let Some(other) = catalog.find(name).filter(|other| other.id != known.id) {
        return Err(Error::ProjectName {
            name: name.to_owned(),
            problem: format!("is taken by project {} ({})", other.name, other.id),
        });
    }
    let entry = registry.update(|projects| {
        if !projects.projects.iter().any(|e| e.id == known.id) {
            projects.projects.push(Entry::new(known.id.clone(), known.name.clone(), Utc::now()));
        }
        let entry = projects
            .projects
            .iter_mut()
            .find(|e| e.id == known.id)
            .expect("the entry exists or was just added");
        entry.name = name.to_owned();
        if !entry.named.iter().any(|n| n == name) {
            entry.named.push(name.to_owned());
        }
        Ok(entry.clone())
    })?;
    // Its notes move to the folder of the new name.
    dream::relocate(store, &known.scope(), &memory_core::project_folder(name)).await?;
    Ok(entry)
}

/// What [`merge`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MergeReport {
    /// The project merged away: its id and name.
    pub from: (String, String),
    /// The project it now is: its id and name.
    pub into: (String, String),
    /// Paths of the notes moved, as they are now in `into`.
    pub moved: Vec<String>,
    /// Of those, the paths `into` had too: the newer version is current, the other is kept in
    /// the note's history.
    pub collided: Vec<String>,
}

/// Merges project `from` into `into`: its notes (with their history) move into `into`'s scope in
/// one store commit, then its identifiers (folders, remotes, root commits, names, id) join
/// `into`'s registry entry, so its folders and its id resolve to `into`.
///
/// Naming a former id of `into` as `from` moves notes still filed under that id (written after
/// the merge from events recorded before it).
pub async fn merge(
    registry: &Registry,
    store: &dyn MemoryStore,
    from: &str,
    into: &str,
) -> Result<MergeReport> {
    let catalog = Catalog::load(registry, store).await?;
    let source = catalog.project(from)?.clone();
    let target = catalog.project(into)?.clone();
    let sweep = source.id == target.id;
    let from_ids: Vec<String> = if !sweep {
        source.ids()
    } else if source.id != from.trim() && source.answers_to(from.trim()) {
        vec![from.trim().to_owned()]
    } else {
        return Err(Error::SameProject { from: from.to_owned(), into: into.to_owned(), id: source.id });
    };

    let mut changes = Vec::new();
    let mut report = MergeReport {
        from: (from_ids[0].clone(), if sweep { from.trim().to_owned() } else { source.name.clone() }),
        into: (target.id.clone(), target.name.clone()),
        moved: Vec::new(),
        collided: Vec::new(),
    };
    for from_id in &from_ids {
        let scope = Scope::Project(from_id.clone());
        for note in store.list_notes(&NoteFilter::scope(scope.clone())).await? {
            let history = match store.note_history(&scope, &note.path).await {
                Ok(history) => history,
                Err(memory_core::Error::Unsupported { .. }) => Vec::new(),
                Err(e) => return Err(e.into()),
            };
            let path = moved_path(&note.path, &target.name);
            let current = store.get_note(&target.scope(), &path).await?;
            for version in history.iter().chain([&note]) {
                changes.push(NoteChange::Put(moved(version, &path, from_id, &target.id)));
            }
            if let Some(current) = current {
                if current.meta.updated >= note.meta.updated {
                    changes.push(NoteChange::Put(current));
                }
                report.collided.push(path.to_string());
            }
            changes.push(NoteChange::Delete { scope: scope.clone(), path: note.path.clone() });
            report.moved.push(path.to_string());
        }
    }
    if !changes.is_empty() {
        store.commit(&changes, None).await?;
    }
    if !sweep {
        registry.update(|projects| {
            join(projects, &source, &target);
            Ok(())
        })?;
    }
    Ok(report)
}

/// Moves `source`'s registry identifiers into `target`'s entry (made when only the store knew it).
fn join(projects: &mut Projects, source: &Known, target: &Known) {
    let removed =
        projects.projects.iter().position(|e| e.id == source.id).map(|i| projects.projects.remove(i));
    if !projects.projects.iter().any(|e| e.id == target.id) {
        projects.projects.push(Entry::new(target.id.clone(), target.name.clone(), Utc::now()));
    }
    let entry =
        projects.projects.iter_mut().find(|e| e.id == target.id).expect("the entry exists or was just added");
    let add = |list: &mut Vec<String>, items: &[String]| {
        for item in items {
            if !list.contains(item) {
                list.push(item.clone());
            }
        }
    };
    add(&mut entry.former_ids, &source.ids());
    if let Some(removed) = removed {
        add(&mut entry.remotes, &removed.remotes);
        add(&mut entry.root_commits, &removed.root_commits);
        add(&mut entry.named, &removed.named);
        for root in removed.roots {
            if !entry.roots.iter().any(|r| r.path == root.path) {
                entry.roots.push(root);
            }
        }
    }
}

/// A note's path in the project it moves to: in the new one's folder
/// ([`memory_core::project_folder`]), so the dream keeps maintaining the note.
fn moved_path(path: &NotePath, into_name: &str) -> NotePath {
    let inner = path.below_project_folder().unwrap_or(path.as_str());
    NotePath::new(format!("{}/{inner}", memory_core::project_folder(into_name)))
        .unwrap_or_else(|_| path.clone())
}

fn moved(note: &Note, path: &NotePath, from_id: &str, into_id: &str) -> Note {
    let mut note = note.clone();
    note.path = path.clone();
    note.meta.scope = Scope::Project(into_id.to_owned());
    note.meta.title = note.meta.title.replace(from_id, into_id);
    note
}
