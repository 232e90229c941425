//! Project notes shared with a team through a server, everything else kept on each person's
//! machine.
//!
//! `[team]` in `config.toml` names a Neo4j server and the projects shared through it
//! (`agent-memory team join`). After each dream run (and on `team sync`, and after a forget) this
//! memory:
//!
//! - **publishes** its notes of each shared project: the server keeps every person's notes apart,
//!   each at `project/<id>/<owner>/<path>` with the generator `team:<owner>`; a changed note
//!   replaces the person's old one with no history kept, a note gone is deleted there, a note that
//!   carries a secret ([`dream::carries_secret`]) is withheld. Nothing else is ever written there:
//!   no event, no session, no profile or other user note, no other project's notes.
//! - **brings in** the other people's notes of those projects: for each note path one local note,
//!   `project/<name>/team/<path>`, whose items each say who noted them and when, the latest
//!   first, an item two people noted once with both names, an item this memory's own notes hold
//!   left out. Conflicting items of two people are both kept until one of them changes theirs.
//!
//! A hook never reaches the server: the notes brought in are in the store the hooks read (the
//! local copy in forward mode), so they are injected like the project's other notes.
//!
//! Privacy is by what is sent, not by the server: everyone who can reach the server with the
//! team's credentials can read and change every published note (docs/team.md).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use chrono::{DateTime, NaiveDate, Utc};
use memory_core::{
    ForgetSet, GENERATOR_TEAM, MemoryStore, Note, NoteChange, NoteFilter, NotePath, ProjectNames, Scope,
};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::error::Result;

/// The folder, inside a project's, that holds the notes brought in from the team.
pub const TEAM_FOLDER: &str = "team";

const LAST_FILE: &str = "last.json";
const LOG_FILE: &str = "team.log";

/// Who this memory's notes are from, as the team reads them: the owner its events record
/// ([`crate::owner::of`]), else git's global `user.email` asked now (a sync is off the hook's
/// path), else the login name.
pub fn owner(config: &Config) -> String {
    crate::owner::of(config)
        .map(str::to_owned)
        .or_else(|| crate::owner::git_email(None))
        .unwrap_or_else(|| std::env::var("USER").unwrap_or_else(|_| "someone".to_owned()))
}

/// A shared project: its id and the name its notes are filed under here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedProject {
    /// Its id: the same on every clone of one repository.
    pub id: String,
    /// Its readable name here.
    pub name: String,
}

/// The projects of `[team] projects` that `names` knows, by id (a name or an id given).
pub fn shared_projects(config: &Config, names: &ProjectNames) -> Vec<SharedProject> {
    let mut out: Vec<SharedProject> = Vec::new();
    for given in &config.team.projects {
        let id = names.id_of(given).unwrap_or(given.as_str()).to_owned();
        if !out.iter().any(|p| p.id == id) {
            out.push(SharedProject { name: names.name(&id).to_owned(), id });
        }
    }
    out
}

/// Whether `note` was brought in from the team (by its generator, or because it sits in the
/// project's team folder): never published as this memory's own.
pub fn brought_in(note: &Note) -> bool {
    note.team_owner().is_some()
        || note.path.below_project_folder().is_some_and(|rest| rest.starts_with(&format!("{TEAM_FOLDER}/")))
}

/// What one shared project's sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectSync {
    /// The project, by name.
    pub project: String,
    /// This memory's notes written to the server (new or changed).
    pub published: usize,
    /// This memory's notes deleted from the server (gone here).
    pub withdrawn: usize,
    /// Notes kept off the server because they carry a secret.
    pub withheld: usize,
    /// Notes brought in or changed here from the team.
    pub brought_in: usize,
    /// Notes from the team removed here (nobody else notes those items any more).
    pub removed: usize,
    /// The other people whose notes of the project are on the server.
    pub people: Vec<String>,
}

/// A sync: when, as whom, with which server, and what each project's did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Synced {
    /// When it ended.
    pub at: DateTime<Utc>,
    /// Whose notes this memory published.
    pub owner: String,
    /// The server.
    pub uri: String,
    /// Each shared project's part.
    pub projects: Vec<ProjectSync>,
    /// Why it stopped, when it did.
    pub error: Option<String>,
}

impl Synced {
    /// Every other person seen on the server, across the shared projects.
    pub fn people(&self) -> BTreeSet<&str> {
        self.projects.iter().flat_map(|p| p.people.iter().map(String::as_str)).collect()
    }

    /// The last sync recorded, if any.
    pub fn last(config: &Config) -> Option<Self> {
        crate::log::last_run(&dir(config), LAST_FILE)
    }

    fn record(&self, config: &Config) -> Result<()> {
        let mut line = format!("team sync with {} as {}", self.uri, self.owner);
        for p in &self.projects {
            line.push_str(&format!(
                "; {}: {} published, {} withdrawn, {} withheld, {} brought in, {} removed",
                p.project, p.published, p.withdrawn, p.withheld, p.brought_in, p.removed
            ));
        }
        if let Some(error) = &self.error {
            line.push_str(&format!("; stopped: {error}"));
        }
        crate::log::record_run((&config.log_dir(), LOG_FILE), &line, (&dir(config), LAST_FILE), self)
    }
}

fn dir(config: &Config) -> PathBuf {
    config.data_dir().join("team")
}

/// Publishes this memory's notes of every shared project to `team` and brings the others' into
/// `store`, then records the run (`doctor` and `team status` read it). One project's failure
/// stops the run; what was done before stays.
pub async fn sync(
    config: &Config,
    store: &dyn MemoryStore,
    team: &dyn MemoryStore,
    names: &ProjectNames,
) -> Result<Synced> {
    let owner = owner(config);
    let mut synced = Synced {
        at: Utc::now(),
        owner: owner.clone(),
        uri: config.team.uri.clone().unwrap_or_default(),
        projects: Vec::new(),
        error: None,
    };
    let mut result = Ok(());
    for project in shared_projects(config, names) {
        match sync_project(store, team, &project, &owner).await {
            Ok(done) => synced.projects.push(done),
            Err(e) => {
                synced.error = Some(format!("{}: {e}", project.name));
                result = Err(e);
                break;
            }
        }
    }
    if synced.projects.iter().any(|p| p.brought_in > 0) {
        // Notes brought in want their embeddings; without them they are found by words.
        let _ = crate::dream_run::embed(config, store, 0).await;
    }
    synced.at = Utc::now();
    let _ = synced.record(config);
    result.map(|()| synced)
}

/// [`sync`] with the team server `stores` opens, when `[team]` shares a project; `None` when it
/// shares none. A server that cannot be reached is recorded like any failure, for `doctor`.
pub async fn sync_configured(
    config: &Config,
    stores: &dyn crate::OpenStore,
    store: &dyn MemoryStore,
    names: &ProjectNames,
) -> Option<Result<Synced>> {
    if !config.team.is_on() {
        return None;
    }
    let team = match stores.open_team(config).await {
        Ok(Some(team)) => team,
        Ok(None) => return None,
        Err(e) => {
            let failed = Synced {
                at: Utc::now(),
                owner: owner(config),
                uri: config.team.uri.clone().unwrap_or_default(),
                projects: Vec::new(),
                error: Some(e.to_string()),
            };
            let _ = failed.record(config);
            return Some(Err(e.into()));
        }
    };
    Some(sync(config, store, &*team, names).await)
}

async fn sync_project(
    store: &dyn MemoryStore,
    team: &dyn MemoryStore,
    project: &SharedProject,
    owner: &str,
) -> Result<ProjectSync> {
    let scope = Scope::Project(project.id.clone());
    let here = store.list_notes(&NoteFilter::scope(scope.clone())).await?;
    let (pulled, mine): (Vec<&Note>, Vec<&Note>) = here.iter().partition(|n| brought_in(n));
    let mut done = ProjectSync { project: project.name.clone(), ..ProjectSync::default() };

    // Publish: this memory's notes, each person's apart on the server.
    let on_server = team.list_notes(&NoteFilter::scope(scope.clone())).await?;
    let own_slug = memory_core::slug(owner);
    let mut outgoing = Vec::new();
    for note in &mine {
        let private = [Some(note.meta.title.as_str()), note.meta.description.as_deref(), Some(&note.body)]
            .into_iter()
            .flatten()
            .any(dream::carries_secret);
        if private {
            done.withheld += 1;
            continue;
        }
        outgoing.push(published(note, &project.id, &own_slug, owner)?);
    }
    let theirs: Vec<&Note> =
        on_server.iter().filter(|n| n.team_owner().is_some_and(|o| o != owner)).collect();
    let ours_there: BTreeMap<&str, &Note> =
        on_server.iter().filter(|n| n.team_owner() == Some(owner)).map(|n| (n.path.as_str(), n)).collect();
    let changed: Vec<&Note> =
        outgoing.iter().filter(|n| ours_there.get(n.path.as_str()).is_none_or(|t| !same(t, n))).collect();
    let gone: Vec<&Note> =
        ours_there.values().copied().filter(|t| !outgoing.iter().any(|n| n.path == t.path)).collect();
    replace(team, &scope, &changed, &gone).await?;
    done.published = changed.len();
    done.withdrawn = gone.len();

    // Bring in: the others' notes, one local note per path, items attributed.
    let own_items: BTreeSet<String> = mine
        .iter()
        .flat_map(|n| n.body.lines().map(crate::inject::said_in))
        .filter(|k| !k.is_empty())
        .collect();
    let incoming = merged(&theirs, &own_items, &scope, &memory_core::project_folder(&project.name))?;
    let pulled_at: BTreeMap<&str, &Note> = pulled.iter().map(|n| (n.path.as_str(), *n)).collect();
    let changed: Vec<&Note> =
        incoming.iter().filter(|n| pulled_at.get(n.path.as_str()).is_none_or(|t| !same(t, n))).collect();
    let gone: Vec<&Note> =
        pulled.iter().copied().filter(|t| !incoming.iter().any(|n| n.path == t.path)).collect();
    replace(store, &scope, &changed, &gone).await?;
    done.brought_in = changed.len();
    done.removed = gone.len();
    done.people = theirs
        .iter()
        .filter_map(|n| n.team_owner())
        .map(str::to_owned)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    Ok(done)
}

/// Writes `changed` and deletes `gone` in `store`, keeping no earlier version of either: what a
/// person took out of a note leaves every copy.
async fn replace(store: &dyn MemoryStore, scope: &Scope, changed: &[&Note], gone: &[&Note]) -> Result<()> {
    if changed.is_empty() && gone.is_empty() {
        return Ok(());
    }
    let notes = changed.iter().chain(gone).map(|n| (scope.clone(), n.path.clone())).collect();
    store.forget(&ForgetSet { notes, ..ForgetSet::default() }).await?;
    let puts: Vec<NoteChange> = changed.iter().map(|n| NoteChange::Put((*n).clone())).collect();
    if !puts.is_empty() {
        store.commit(&puts, None).await?;
    }
    Ok(())
}

/// Whether two versions say the same (what a sync compares; the time of writing aside).
fn same(a: &Note, b: &Note) -> bool {
    a.body == b.body
        && a.meta.title == b.meta.title
        && a.meta.kind == b.meta.kind
        && a.meta.description == b.meta.description
        && a.meta.tags == b.meta.tags
        && a.meta.generator == b.meta.generator
        && a.meta.owner == b.meta.owner
}

/// `note` as the server keeps it: under the project's id and its owner, no sources (event ids
/// mean nothing on another machine), written by `team:<owner>` and owned by them.
fn published(note: &Note, id: &str, owner_slug: &str, owner: &str) -> Result<Note> {
    let rest = note.path.below_project_folder().unwrap_or(note.path.as_str());
    let mut out = note.clone();
    out.path = NotePath::new(format!("project/{id}/{owner_slug}/{rest}"))?;
    out.meta.sources.clear();
    out.meta.generator = format!("{GENERATOR_TEAM}{owner}");
    out.meta.owner = Some(owner.to_owned());
    Ok(out)
}

/// One item of the others' notes: its text, who noted it, when last.
struct Item {
    text: String,
    owners: Vec<String>,
    when: NaiveDate,
}

/// The others' notes (`theirs`, as the server keeps them) as local notes: one per path below the
/// owner's folder, at `<folder>/team/<path>`, each item once with everyone who noted it, the
/// latest first; items `own` (the words of this memory's own items) holds are left out.
fn merged(theirs: &[&Note], own: &BTreeSet<String>, scope: &Scope, folder: &str) -> Result<Vec<Note>> {
    let mut by_path: BTreeMap<&str, Vec<&Note>> = BTreeMap::new();
    for note in theirs {
        let rest = note.path.below_project_folder().and_then(|r| r.split_once('/')).map(|(_, rest)| rest);
        if let Some(rest) = rest {
            by_path.entry(rest).or_default().push(note);
        }
    }
    let mut out = Vec::new();
    for (rest, mut notes) in by_path {
        notes.sort_by_key(|n| std::cmp::Reverse(n.meta.updated));
        let mut items: Vec<Item> = Vec::new();
        let mut at: BTreeMap<String, usize> = BTreeMap::new();
        for note in &notes {
            let Some(owner) = note.team_owner() else { continue };
            for line in note.body.lines() {
                let trimmed = line.trim();
                if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("```") {
                    continue;
                }
                let key = crate::inject::said_in(trimmed);
                if key.is_empty() || own.contains(&key) {
                    continue;
                }
                let when = last_date(trimmed).unwrap_or_else(|| note.meta.updated.date_naive());
                match at.get(&key) {
                    Some(&i) => {
                        let item = &mut items[i];
                        if !item.owners.iter().any(|o| o == owner) {
                            item.owners.push(owner.to_owned());
                        }
                        item.when = item.when.max(when);
                    }
                    None => {
                        at.insert(key, items.len());
                        let text = memory_core::item_text(trimmed).unwrap_or(trimmed).to_owned();
                        items.push(Item { text, owners: vec![owner.to_owned()], when });
                    }
                }
            }
        }
        if items.is_empty() {
            continue;
        }
        items.sort_by_key(|i| std::cmp::Reverse(i.when));
        let mut body = String::new();
        for item in &items {
            let line = format!("- {} (noted by {}, {})\n", item.text, item.owners.join(" and "), item.when);
            if body.len() + line.len() > memory_core::MAX_BODY_LEN {
                break;
            }
            body.push_str(&line);
        }
        let mut owners: Vec<&str> = Vec::new();
        for item in &items {
            for owner in &item.owners {
                if !owners.contains(&owner.as_str()) {
                    owners.push(owner);
                }
            }
        }
        let newest = notes[0];
        let mut note = newest.clone();
        note.path = NotePath::new(format!("{folder}/{TEAM_FOLDER}/{rest}"))?;
        note.meta.scope = scope.clone();
        note.meta.title = format!("{} (team)", newest.meta.title);
        if note.meta.title.chars().count() > memory_core::MAX_TITLE_LEN {
            note.meta.title = newest.meta.title.clone();
        }
        note.meta.description = Some(format!("What {} noted", owners.join(", ")));
        note.meta.generator = format!("{GENERATOR_TEAM}{}", owners.join(", "));
        // One person's items are theirs; several people's are each attributed in the body.
        note.meta.owner = match owners.as_slice() {
            [one] => Some((*one).to_owned()),
            _ => None,
        };
        note.meta.sources.clear();
        note.body = body;
        out.push(note);
    }
    Ok(out)
}

/// What is shared with whom, for `doctor` and `team status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamStatus {
    /// The server.
    pub uri: String,
    /// Whose notes this memory publishes.
    pub owner: String,
    /// The projects shared, as configured.
    pub projects: Vec<String>,
    /// The last sync, when one ran.
    pub last: Option<Synced>,
}

/// `None` when no team server is set up.
pub fn status(config: &Config) -> Option<TeamStatus> {
    let uri = config.team.uri.clone().filter(|u| !u.trim().is_empty())?;
    Some(TeamStatus {
        uri,
        owner: owner(config),
        projects: config.team.projects.clone(),
        last: Synced::last(config),
    })
}

/// Takes this memory's notes of every shared project off `team`, and the notes brought in from
/// it out of `store`; returns how many of each. `team leave` runs it before the settings go.
pub async fn withdraw(
    config: &Config,
    store: &dyn MemoryStore,
    team: &dyn MemoryStore,
    names: &ProjectNames,
) -> Result<(usize, usize)> {
    let owner = owner(config);
    let (mut withdrawn, mut removed) = (0, 0);
    for project in shared_projects(config, names) {
        let scope = Scope::Project(project.id.clone());
        let there = team.list_notes(&NoteFilter::scope(scope.clone())).await?;
        let ours: Vec<&Note> = there.iter().filter(|n| n.team_owner() == Some(owner.as_str())).collect();
        replace(team, &scope, &[], &ours).await?;
        let here = store.list_notes(&NoteFilter::scope(scope.clone())).await?;
        let pulled: Vec<&Note> = here.iter().filter(|n| brought_in(n)).collect();
        replace(store, &scope, &[], &pulled).await?;
        withdrawn += ours.len();
        removed += pulled.len();
    }
    Ok((withdrawn, removed))
}

/// A change to `[team]` in the config file.
#[derive(Debug, Clone, Default)]
pub struct Setup<'a> {
    /// The server's URI.
    pub uri: Option<&'a str>,
    /// The user name on it.
    pub username: Option<&'a str>,
    /// The password, written to the config file (readable by this user only).
    pub password: Option<&'a str>,
    /// Whose notes these are: written as `[user] owner`, the owner of every event too.
    pub owner: Option<&'a str>,
    /// A project (its id) to share.
    pub add: Option<&'a str>,
    /// A project (its id or name) to stop sharing.
    pub remove: Option<&'a str>,
    /// Remove the whole section.
    pub leave: bool,
}

/// Applies `setup` to the config file at `path` (created when missing; other settings and
/// comments kept). Returns whether the projects shared changed.
pub fn write_setup(path: &std::path::Path, setup: &Setup<'_>) -> Result<bool> {
    let changed = crate::config::edit_file(path, |doc| setup_in(doc, setup))?;
    #[cfg(unix)]
    if setup.password.is_some() {
        use std::os::unix::fs::PermissionsExt as _;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(changed)
}

/// [`write_setup`]'s change to the file's document; whether the projects shared changed.
fn setup_in(doc: &mut toml_edit::DocumentMut, setup: &Setup<'_>) -> bool {
    if let Some(owner) = setup.owner {
        crate::owner::set_in(doc, "owner", owner);
    }
    let mut changed = false;
    if setup.leave {
        changed = doc.remove("team").is_some();
    } else {
        if !doc.contains_table("team") {
            doc.insert("team", toml_edit::Item::Table(toml_edit::Table::new()));
        }
        let team = &mut doc["team"];
        for (key, value) in [("uri", setup.uri), ("username", setup.username), ("password", setup.password)] {
            if let Some(value) = value {
                team[key] = toml_edit::value(value);
            }
        }
        let mut projects: Vec<String> = team
            .get("projects")
            .and_then(toml_edit::Item::as_array)
            .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        if let Some(add) = setup.add
            && !projects.iter().any(|p| p == add)
        {
            projects.push(add.to_owned());
            changed = true;
        }
        if let Some(remove) = setup.remove {
            let before = projects.len();
            projects.retain(|p| p != remove);
            changed |= projects.len() != before;
        }
        team["projects"] = toml_edit::value(projects.iter().collect::<toml_edit::Array>());
    }
    changed
}

/// The date of a dream's item count (`… (2×, last 2026-12-01)`).
fn last_date(line: &str) -> Option<NaiveDate> {
    let at = line.rfind("last ")?;
    let date = line[at + 5..].get(..10)?;
    NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use memory_core::{NoteKind, NoteMeta};

    fn note(path: &str, owner: &str, updated: &str, body: &str) -> Note {
        Note {
            path: NotePath::new(path).unwrap(),
            meta: NoteMeta {
                title: "Conventions".into(),
                description: None,
                tags: vec![],
                scope: Scope::Project("shop-1".into()),
                kind: NoteKind::Convention,
                sources: vec![],
                updated: updated.parse().unwrap(),
                generator: format!("{GENERATOR_TEAM}{owner}"),
                owner: None,
            },
            body: body.into(),
        }
    }

    #[test]
    fn the_others_items_are_merged_attributed_latest_first_without_our_own() {
        let alice = note(
            "project/shop-1/alice-example-com/conventions.md",
            "alice@example.com",
            "2026-12-01T10:00:00Z",
            "- We deploy with fly (2×, last 2026-12-01)\n- Tabs for indentation (1×, last 2026-11-20)\n- Use pnpm\n",
        );
        let bob = note(
            "project/shop-1/bob-example-com/conventions.md",
            "bob@example.com",
            "2026-12-03T10:00:00Z",
            "## Rules\n- We deploy with render (1×, last 2026-12-03)\n- Tabs for indentation (3×, last 2026-11-25)\n",
        );
        let own: BTreeSet<String> = [crate::inject::said_in("- Use pnpm (4×, last 2026-12-04)")].into();
        let out = merged(&[&alice, &bob], &own, &Scope::Project("shop-1".into()), "project/shop").unwrap();
        assert_eq!(out.len(), 1);
        let note = &out[0];
        assert_eq!(note.path.as_str(), "project/shop/team/conventions.md");
        assert_eq!(note.meta.title, "Conventions (team)");
        assert!(note.team_owner().is_some() && brought_in(note));
        assert_eq!(
            note.body,
            "- We deploy with render (noted by bob@example.com, 2026-12-03)\n\
             - We deploy with fly (noted by alice@example.com, 2026-12-01)\n\
             - Tabs for indentation (noted by bob@example.com and alice@example.com, 2026-11-25)\n"
        );
        assert_eq!(note.meta.owner, None, "several people's items are each attributed instead");
        let alone = merged(&[&bob], &own, &Scope::Project("shop-1".into()), "project/shop").unwrap();
        assert_eq!(alone[0].meta.owner.as_deref(), Some("bob@example.com"));
    }

    #[test]
    fn a_published_note_keeps_its_path_below_the_project_under_its_owner() {
        let mut mine = note("project/shop/conventions.md", "x", "2026-12-01T10:00:00Z", "- a\n");
        mine.meta.generator = "deterministic".into();
        mine.meta.sources = vec![memory_core::EventId("e1".into())];
        let out = published(&mine, "shop-1", "sam-example-com", "sam@example.com").unwrap();
        assert_eq!(out.path.as_str(), "project/shop-1/sam-example-com/conventions.md");
        assert_eq!(out.team_owner(), Some("sam@example.com"));
        assert_eq!(out.meta.owner.as_deref(), Some("sam@example.com"));
        assert!(out.meta.sources.is_empty());
        assert!(!brought_in(&mine));
    }

    #[test]
    fn the_setup_is_written_beside_the_other_settings() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("config.toml");
        std::fs::write(&path, "# mine\n[hook]\nprompt_budget = 900\n").unwrap();
        let join = Setup {
            uri: Some("bolt://team:7687"),
            owner: Some("sam@example.com"),
            add: Some("shop-1"),
            ..Setup::default()
        };
        assert!(write_setup(&path, &join).unwrap());
        assert!(!write_setup(&path, &Setup { add: Some("shop-1"), ..Setup::default() }).unwrap());
        let config = Config::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(config.hook.prompt_budget, 900);
        assert_eq!(config.team.uri.as_deref(), Some("bolt://team:7687"));
        assert_eq!(config.team.projects, ["shop-1"]);
        assert!(config.team.is_on());
        assert_eq!(owner(&config), "sam@example.com");
        assert_eq!(config.user.owner.as_deref(), Some("sam@example.com"), "one home for the owner");
        assert!(write_setup(&path, &Setup { remove: Some("shop-1"), ..Setup::default() }).unwrap());
        assert!(!Config::parse(&std::fs::read_to_string(&path).unwrap()).unwrap().team.is_on());
        assert!(write_setup(&path, &Setup { leave: true, ..Setup::default() }).unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n[hook]") && !text.contains("team"), "{text}");
    }

    #[test]
    fn an_items_date_is_read_from_its_count() {
        assert_eq!(last_date("- x (2×, last 2026-12-01)"), NaiveDate::from_ymd_opt(2026, 12, 1));
        assert_eq!(last_date("- x"), None);
        assert_eq!(last_date("- the last word"), None);
    }
}
