//! The registry of known projects: `<data_dir>/projects.json`, one entry per project with its id,
//! readable name and every identifier seen for it.
//!
//! Hooks read it on every event and write it only when something new was seen: a folder, a
//! remote, a root commit, a project file's name. Writes take `projects.json.lock`, read the file
//! again, change it and replace it atomically (temporary file, fsync, rename), so concurrent hooks
//! never lose each other's entries and readers never see half a file. A hook waits for the lock a
//! few milliseconds at most; when it cannot write (a read-only data folder, a busy lock, a file
//! that does not parse) it still answers with the best identity it has, and a later event records
//! it.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Project, Sighting, git, short_hash};
use crate::error::{Error, Result};
use crate::paths::ensure_private_dir;

/// The registry's file name in the data folder.
pub const FILE: &str = "projects.json";

/// Longest wait for the lock in a hook.
const HOOK_LOCK_WAIT: Duration = Duration::from_millis(50);

/// How long after a failed attempt the root commit of a known repository is looked for again.
const COMMIT_RETRY: chrono::TimeDelta = chrono::TimeDelta::days(1);

static WRITES: AtomicU64 = AtomicU64::new(0);

/// One root folder of a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// The folder, canonical.
    pub path: PathBuf,
    /// What tells this folder from another later made at the same path (inode and birth time of
    /// its git directory, or of the folder outside git); a folder whose marker differs is looked
    /// up by its other identifiers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<String>,
}

/// One known project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Entry {
    /// The id notes and events are filed under (`Scope::Project(id)`); never changes.
    pub id: String,
    /// The readable name, unique among entries; `projects rename` changes it.
    pub name: String,
    /// Root folders it was seen in.
    #[serde(default)]
    pub roots: Vec<Root>,
    /// Remote URLs, canonical (`github.com/org/app`).
    #[serde(default)]
    pub remotes: Vec<String>,
    /// Root commits of its history.
    #[serde(default)]
    pub root_commits: Vec<String>,
    /// Names the user gave it, as slugs: in `.agent-memory.toml` or with `projects rename`. A
    /// project file naming one of them, anywhere, is this project.
    #[serde(default)]
    pub named: Vec<String>,
    /// Ids of projects merged into it, which resolve to it.
    #[serde(default)]
    pub former_ids: Vec<String>,
    /// When it was first seen.
    pub first_seen: DateTime<Utc>,
    /// When its root commit was last looked for and not found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commits_tried: Option<DateTime<Utc>>,
}

impl Entry {
    /// A new entry with an id and a name and nothing else.
    pub fn new(id: impl Into<String>, name: impl Into<String>, first_seen: DateTime<Utc>) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            roots: Vec::new(),
            remotes: Vec::new(),
            root_commits: Vec::new(),
            named: Vec::new(),
            former_ids: Vec::new(),
            first_seen,
            commits_tried: None,
        }
    }

    /// Whether `id` is this project's id or one merged into it.
    pub fn answers_to(&self, id: &str) -> bool {
        self.id == id || self.former_ids.iter().any(|f| f == id)
    }

    fn project(&self, root: &Path) -> Project {
        Project { id: self.id.clone(), name: self.name.clone(), root: root.to_path_buf() }
    }

    fn holds_root(&self, sighting: &Sighting) -> bool {
        self.roots.iter().any(|r| {
            r.path == sighting.root
                && (r.marker.is_none() || sighting.marker.is_none() || r.marker == sighting.marker)
        })
    }

    /// Whether `sighting` carries something this entry does not record yet.
    fn lacks(&self, sighting: &Sighting) -> bool {
        let root_known = self
            .roots
            .iter()
            .any(|r| r.path == sighting.root && (r.marker == sighting.marker || sighting.marker.is_none()));
        !root_known
            || sighting.remotes.iter().any(|r| !self.remotes.contains(r))
            || sighting.named.as_deref().is_some_and(|n| !self.named.contains(&memory_core::slug(n)))
    }

    /// Whether the repository's root commit should be looked for now.
    fn wants_commits(&self, sighting: &Sighting, now: DateTime<Utc>) -> bool {
        self.root_commits.is_empty()
            && self.commits_tried.is_none_or(|at| now - at > COMMIT_RETRY)
            && sighting.git_dir.as_deref().is_some_and(git::has_commits)
    }
}

/// The registry's contents.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Projects {
    /// Format version.
    #[serde(default)]
    pub version: u32,
    /// Every known project, oldest first.
    #[serde(default)]
    pub projects: Vec<Entry>,
}

impl Projects {
    /// The entry whose id, former id or name is `text`.
    pub fn find(&self, text: &str) -> Option<&Entry> {
        let text = text.trim();
        self.projects
            .iter()
            .find(|e| e.id == text)
            .or_else(|| self.projects.iter().find(|e| e.answers_to(text)))
            .or_else(|| self.projects.iter().find(|e| e.name.eq_ignore_ascii_case(text)))
    }

    fn find_mut(&mut self, id: &str) -> Option<&mut Entry> {
        self.projects.iter_mut().find(|e| e.id == id)
    }

    /// The entry holding a root folder (the same folder: a marker that differs does not count).
    pub(crate) fn at_root(&self, sighting: &Sighting) -> Option<&Entry> {
        self.projects.iter().find(|e| e.holds_root(sighting))
    }

    /// The entry a folder the registry does not hold belongs to, by its other identifiers: the
    /// project file's name, then the `origin` URL, then a root commit, then any other remote. A
    /// root commit joins only where no remote says otherwise: two repositories that share their
    /// first commit (one started from a copy of the other, or both from the same empty commit) but
    /// pull from different places are different projects.
    pub(crate) fn matching(&self, sighting: &Sighting, commits: &[String]) -> Option<&Entry> {
        if let Some(entry) = self.at_root(sighting) {
            return Some(entry);
        }
        let find = |test: &dyn Fn(&Entry) -> bool| self.projects.iter().find(|e| test(e));
        let named = sighting.named.as_deref().map(memory_core::slug);
        let origin = sighting.origin.as_deref().map(git::canonical_remote);
        let elsewhere = |e: &Entry| origin.is_some() && !e.remotes.is_empty();
        named
            .and_then(|n| find(&|e| e.named.contains(&n)))
            .or_else(|| origin.as_ref().and_then(|o| find(&|e| e.remotes.contains(o))))
            .or_else(|| find(&|e| commits.iter().any(|c| e.root_commits.contains(c)) && !elsewhere(e)))
            .or_else(|| find(&|e| sighting.remotes.iter().any(|r| e.remotes.contains(r))))
    }

    /// Files `sighting` under its project, adding a new entry when none matches and recording
    /// every identifier not recorded yet. Returns the project's id.
    pub(crate) fn record(&mut self, sighting: &Sighting, commits: &[String], now: DateTime<Utc>) -> String {
        let id = match self.matching(sighting, commits) {
            Some(entry) => entry.id.clone(),
            None => {
                let fresh = sighting.fresh();
                let id = if self.projects.iter().any(|e| e.answers_to(&fresh.id)) {
                    // The id a path or a name would give is taken (a project that moved away, one
                    // merged into another): this one gets its own.
                    format!(
                        "{}-{}",
                        fresh.name,
                        short_hash(&format!("{}#{}", sighting.key(), now.to_rfc3339()))
                    )
                } else {
                    fresh.id
                };
                let name = self.free_name(&fresh.name, None);
                self.projects.push(Entry::new(id.clone(), name, now));
                id
            }
        };
        // A folder belongs to one project: a folder made again where another project was moves.
        for other in self.projects.iter_mut().filter(|e| e.id != id) {
            other.roots.retain(|r| r.path != sighting.root);
        }
        let named = sighting.named.as_deref().map(memory_core::slug);
        let new_name = named.as_ref().filter(|n| self.find_mut(&id).is_some_and(|e| !e.named.contains(n)));
        let new_name = new_name.map(|n| self.free_name(n, Some(&id)));
        let entry = self.find_mut(&id).expect("the entry was found or added above");
        let old = entry.roots.iter().position(|r| r.path == sighting.root).map(|i| entry.roots.remove(i));
        let marker = sighting.marker.clone().or_else(|| old.and_then(|r| r.marker));
        entry.roots.push(Root { path: sighting.root.clone(), marker });
        for remote in &sighting.remotes {
            if !entry.remotes.contains(remote) {
                entry.remotes.push(remote.clone());
            }
        }
        for commit in commits {
            if !entry.root_commits.contains(commit) {
                entry.root_commits.push(commit.clone());
            }
        }
        if let Some(named) = named
            && !entry.named.contains(&named)
        {
            entry.named.push(named);
            // The name a project file gives is the one the user chose.
            if let Some(name) = new_name {
                entry.name = name;
            }
        }
        id
    }

    /// `wanted`, or `wanted-2`, `wanted-3`… : the first name no other project uses as a name or
    /// an id (`except` is the project being named).
    pub fn free_name(&self, wanted: &str, except: Option<&str>) -> String {
        let taken = |name: &str| {
            self.projects
                .iter()
                .filter(|e| Some(e.id.as_str()) != except)
                .any(|e| e.name.eq_ignore_ascii_case(name) || e.answers_to(name))
        };
        if !taken(wanted) {
            return wanted.to_owned();
        }
        (2..).map(|n| format!("{wanted}-{n}")).find(|name| !taken(name)).expect("some suffix is free")
    }
}

/// The registry file of a data folder.
#[derive(Debug, Clone)]
pub struct Registry {
    path: PathBuf,
}

impl Registry {
    /// The registry of the data folder `data_dir` (`<data_dir>/projects.json`).
    pub fn new(data_dir: &Path) -> Self {
        Self { path: data_dir.join(FILE) }
    }

    /// The registry file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The registry's contents; empty when the file does not exist yet.
    pub fn load(&self) -> Result<Projects> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Projects::default()),
            Err(cause) => return Err(Error::Registry { path: self.path.clone(), cause }),
        };
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::RegistryFormat { path: self.path.clone(), message: e.to_string() })
    }

    /// The project a hook files a working directory's events under; never fails.
    ///
    /// A folder the registry holds costs the scan [`super::identify`] does and one read of the
    /// registry, and writes only when it shows an identifier not recorded yet. A folder it does
    /// not hold is matched by its other identifiers (looking up the root commit with `git`, within
    /// a bound) and recorded.
    pub fn identify(&self, cwd: &Path) -> Project {
        self.identify_noting_rename(cwd).0
    }

    /// [`Registry::identify`], and whether this sighting renamed a project the registry held
    /// (its project file names it anew): the notes filed under the old name are then astray.
    pub fn identify_noting_rename(&self, cwd: &Path) -> (Project, bool) {
        let sighting = Sighting::scan(cwd);
        let Ok(projects) = self.load() else { return (sighting.fresh(), false) };
        let now = Utc::now();
        if let Some(entry) = projects.at_root(&sighting) {
            let commits = entry.wants_commits(&sighting, now).then(|| {
                sighting.git_dir.as_deref().map(|g| git::root_commits(&sighting.root, g)).unwrap_or_default()
            });
            if !entry.lacks(&sighting) && commits.is_none() {
                return (entry.project(&sighting.root), false);
            }
            let id = entry.id.clone();
            let recorded = self.update_within(Some(HOOK_LOCK_WAIT), |p| {
                let commits = commits.unwrap_or_default();
                if commits.is_empty()
                    && let Some(e) = p.find_mut(&id)
                    && e.wants_commits(&sighting, now)
                {
                    e.commits_tried = Some(now);
                }
                let id = p.record(&sighting, &commits, now);
                Ok(p.projects.iter().find(|e| e.id == id).map(|e| e.project(&sighting.root)))
            });
            let project = recorded.ok().flatten().unwrap_or_else(|| entry.project(&sighting.root));
            let renamed = project.id == entry.id && project.name != entry.name;
            return (project, renamed);
        }
        let commits =
            sighting.git_dir.as_deref().map(|g| git::root_commits(&sighting.root, g)).unwrap_or_default();
        let recorded = self.update_within(Some(HOOK_LOCK_WAIT), |p| {
            let id = p.record(&sighting, &commits, now);
            Ok(p.projects.iter().find(|e| e.id == id).map(|e| e.project(&sighting.root)))
        });
        let project = match recorded {
            Ok(Some(project)) => project,
            _ => projects
                .matching(&sighting, &commits)
                .map_or_else(|| sighting.fresh(), |e| e.project(&sighting.root)),
        };
        // A folder seen for the first time under a project the registry held by another name.
        let renamed = projects.projects.iter().any(|e| e.id == project.id && e.name != project.name);
        (project, renamed)
    }

    /// The project of a working directory if the registry knows it, without recording anything.
    pub fn lookup(&self, cwd: &Path) -> Result<Option<Project>> {
        let sighting = Sighting::scan(cwd);
        let projects = self.load()?;
        if let Some(entry) = projects.at_root(&sighting) {
            return Ok(Some(entry.project(&sighting.root)));
        }
        let commits =
            sighting.git_dir.as_deref().map(|g| git::root_commits(&sighting.root, g)).unwrap_or_default();
        Ok(projects.matching(&sighting, &commits).map(|e| e.project(&sighting.root)))
    }

    /// Changes the registry under its lock, waiting as long as it takes. `change` sees the
    /// current contents; the file is rewritten only when they changed.
    pub fn update<T>(&self, change: impl FnOnce(&mut Projects) -> Result<T>) -> Result<T> {
        self.update_within(None, change)
    }

    fn update_within<T>(
        &self,
        wait: Option<Duration>,
        change: impl FnOnce(&mut Projects) -> Result<T>,
    ) -> Result<T> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let io = |cause| Error::Registry { path: self.path.clone(), cause };
        ensure_private_dir(dir).map_err(io)?;
        let lock_path = self.path.with_extension("json.lock");
        let lock = open_private(&lock_path, false).map_err(io)?;
        match wait {
            None => lock.lock().map_err(io)?,
            Some(wait) => {
                let started = Instant::now();
                while lock.try_lock().is_err() {
                    if started.elapsed() >= wait {
                        return Err(io(std::io::Error::new(
                            std::io::ErrorKind::WouldBlock,
                            "another process holds the registry's lock",
                        )));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
        let before = self.load()?;
        let mut after = before.clone();
        after.version = 1;
        let out = change(&mut after)?;
        if after != before {
            self.write(&after).map_err(io)?;
        }
        drop(lock);
        Ok(out)
    }

    fn write(&self, projects: &Projects) -> std::io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let n = WRITES.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{FILE}.{}.{n}.tmp", std::process::id()));
        let written = (|| {
            let mut file = open_private(&tmp, true)?;
            let mut bytes = serde_json::to_vec_pretty(projects).map_err(std::io::Error::other)?;
            bytes.push(b'\n');
            std::io::Write::write_all(&mut file, &bytes)?;
            file.sync_all()?;
            std::fs::rename(&tmp, &self.path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }
}

fn open_private(path: &Path, new: bool) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if new {
        options.create_new(true);
    } else {
        options.create(true).truncate(false);
    }
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}
