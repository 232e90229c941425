//! Forgetting: a session, an event, the events holding a text, the events of a time range, a
//! project or a note, removed for good from the store and from every file agent-memory keeps.
//!
//! [`plan`] finds what a [`Target`] covers without changing anything (what `--dry-run` shows);
//! [`apply`] removes it:
//!
//! - from the store, in one [`MemoryStore::forget`]: the events, the sessions, the notes with
//!   their history and embeddings, and the indexes over them (a SQLite store also leaves no copy in
//!   its free pages or write-ahead log);
//! - from the journal (the data folder's and the fallback folder's, `large/` included): the
//!   events waiting there, and any file that holds the forgotten text or names a forgotten event
//!   or session;
//! - from the logs: every line naming a forgotten event or session, or holding the text, goes (the
//!   files are rewritten without them);
//! - from the once-per-session ledgers: a forgotten session's ledger, and lines holding the text;
//! - for a project, its entry in the project registry (its name, folders and remotes);
//! - from the harnesses' context files agent-memory wrote (Cursor's rules file, listed in
//!   [`crate::context_file::LIST_FILE`]): lines holding the text.
//!
//! Notes derived from forgotten events are re-derived from what remains: each loses the ids of
//! its forgotten sources; a note the dream wrote that is left with no source at all is forgotten
//! too, since nothing stays to justify it (a note a person wrote or edited stays, without those
//! sources). A note that holds a forgotten text (its current version or an older one) is
//! forgotten whoever wrote it.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use memory_core::search::{event_text, holds_phrase, note_text, words};
use memory_core::{
    EventFilter, EventId, EventQuery, ForgetSet, Forgotten, HookEvent, MemoryStore, Note, NoteChange,
    NoteFilter, NotePath, Scope, SessionKey, StoredEvent,
};
use serde::Serialize;

use crate::config::Config;
use crate::env::Env;
use crate::error::{Error, Result};
use crate::ledger::Ledger;
use crate::paths;

/// Every match, as a limit.
const ALL: usize = usize::MAX >> 1;

/// What to forget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A session: every event of it, the session itself, its session-scoped notes.
    Session(SessionKey),
    /// One event, by id.
    Event(EventId),
    /// The events holding this text word for word (among those `filter` passes), and every note
    /// holding it.
    Text {
        /// The text.
        text: String,
        /// Which events are looked at.
        filter: EventFilter,
    },
    /// Every event `filter` passes (a time range, optionally within a session or project).
    Events(EventFilter),
    /// A project, by id: its sessions with their events and session notes, every event filed
    /// under it, and its project notes.
    Project(String),
    /// One note with its history.
    Note {
        /// Its scope.
        scope: Scope,
        /// Its path.
        path: NotePath,
    },
}

/// An event a forget removes, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventLine {
    /// Its id.
    pub id: EventId,
    /// Its session.
    pub session: SessionKey,
    /// Its place in the session.
    pub seq: u64,
    /// Its kind.
    pub kind: String,
    /// When it occurred.
    pub occurred_at: DateTime<Utc>,
}

/// A note a forget removes or re-derives, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NoteLine {
    /// Its scope.
    pub scope: Scope,
    /// Its path.
    pub path: NotePath,
    /// Its title.
    pub title: String,
}

impl NoteLine {
    fn of(note: &Note) -> Self {
        Self { scope: note.meta.scope.clone(), path: note.path.clone(), title: note.meta.title.clone() }
    }
}

/// A file rewritten without some of its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinesOut {
    /// The file.
    pub path: PathBuf,
    /// Lines removed.
    pub lines: usize,
}

/// What a forget covers; nothing has changed yet.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    /// Stored events to delete (those of the sessions below included).
    pub events: Vec<EventLine>,
    /// Sessions to delete.
    pub sessions: Vec<SessionKey>,
    /// Notes to delete with their history and embeddings.
    pub notes: Vec<NoteLine>,
    /// Notes that lose the ids of forgotten sources and stay.
    pub rederived: Vec<NoteLine>,
    /// Journal files to delete.
    pub journal: Vec<PathBuf>,
    /// Log and ledger files to rewrite without some lines.
    pub lines: Vec<LinesOut>,
    /// Ledger files to delete.
    pub ledgers: Vec<PathBuf>,
    /// The project to remove from the project registry (its name, folders and remotes), for a
    /// forgotten project.
    pub registry_entry: Option<String>,
    /// The registry's data folder.
    #[serde(skip)]
    data_dir: PathBuf,
    /// The notes that stay, with their forgotten sources dropped (to commit before the forget).
    #[serde(skip)]
    updates: Vec<Note>,
    /// What identifies a forgotten thing in a file: event ids, session keys.
    #[serde(skip)]
    names: Vec<String>,
    /// The forgotten text, lowercased, if any.
    #[serde(skip)]
    text: Option<String>,
}

impl Plan {
    /// Whether there is nothing to forget.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
            && self.sessions.is_empty()
            && self.notes.is_empty()
            && self.rederived.is_empty()
            && self.journal.is_empty()
            && self.lines.is_empty()
            && self.ledgers.is_empty()
            && self.registry_entry.is_none()
    }
}

/// What a forget did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// What the store deleted.
    pub store: Forgotten,
    /// Notes kept without their forgotten sources.
    pub rederived: usize,
    /// Journal files deleted.
    pub journal_files: usize,
    /// Lines removed from logs and ledgers.
    pub lines: usize,
    /// Ledger files deleted.
    pub ledgers: usize,
    /// Projects removed from the project registry.
    pub registry_entries: usize,
}

fn line_of(stored: &StoredEvent) -> EventLine {
    EventLine {
        id: stored.event.id.clone(),
        session: stored.event.session.clone(),
        seq: stored.seq,
        kind: stored.event.kind.to_string(),
        occurred_at: stored.event.occurred_at,
    }
}

/// Whether a note was written by the dream (not by a person, by hand or by an edit).
fn by_the_dream(note: &Note) -> bool {
    !note.is_human_edited()
}

/// Finds what `target` covers, changing nothing.
pub async fn plan(store: &dyn MemoryStore, config: &Config, env: &Env, target: &Target) -> Result<Plan> {
    let mut plan = Plan { data_dir: config.data_dir(), ..Plan::default() };
    let mut events: Vec<StoredEvent> = Vec::new();
    let mut notes: Vec<Note> = Vec::new();
    let mut sessions: Vec<SessionKey> = Vec::new();
    let phrase = match target {
        Target::Text { text, .. } => words(text),
        _ => Vec::new(),
    };
    match target {
        Target::Session(key) => {
            let filter = EventFilter { session: Some(key.clone()), ..EventFilter::all() };
            events = hits(store, EventQuery::filtered(filter, ALL)).await?;
            if store.sessions().await?.iter().any(|s| s.key == *key) {
                sessions.push(key.clone());
            }
            notes = store.list_notes(&NoteFilter::scope(Scope::Session(key.to_string()))).await?;
        }
        Target::Event(id) => events = store.events_by_id(std::slice::from_ref(id)).await?,
        Target::Text { text, filter } => {
            if phrase.is_empty() {
                return Err(Error::Forget(format!("`{text}` has no words to look for")));
            }
            events = hits(store, EventQuery::phrase(text.clone(), filter.clone(), ALL)).await?;
            for note in store.list_notes(&NoteFilter::all()).await? {
                let mut versions = vec![note.clone()];
                if store.capabilities().note_history {
                    versions.extend(store.note_history(&note.meta.scope, &note.path).await?);
                }
                if versions.iter().any(|v| holds_phrase(&words(&note_text(v)), &phrase)) {
                    notes.push(note);
                }
            }
            plan.text = Some(text.to_lowercase());
        }
        Target::Events(filter) => {
            if filter.since.is_none()
                && filter.until.is_none()
                && filter.session.is_none()
                && filter.project.is_none()
            {
                return Err(Error::Forget(
                    "a range of events needs --since or --until (or a session or project)".to_owned(),
                ));
            }
            events = hits(store, EventQuery::filtered(filter.clone(), ALL)).await?;
        }
        Target::Project(id) => {
            sessions = store
                .sessions()
                .await?
                .into_iter()
                .filter(|s| s.project.as_deref() == Some(id.as_str()))
                .map(|s| s.key)
                .collect();
            let filter = EventFilter { project: Some(id.clone()), ..EventFilter::all() };
            events = hits(store, EventQuery::filtered(filter, ALL)).await?;
            for key in &sessions {
                let filter = EventFilter { session: Some(key.clone()), ..EventFilter::all() };
                events.extend(hits(store, EventQuery::filtered(filter, ALL)).await?);
                notes.extend(store.list_notes(&NoteFilter::scope(Scope::Session(key.to_string()))).await?);
            }
            notes.extend(store.list_notes(&NoteFilter::scope(Scope::Project(id.clone()))).await?);
            let registry = crate::project::Registry::new(&config.data_dir());
            if registry.load()?.projects.iter().any(|e| e.id == *id) {
                plan.registry_entry = Some(id.clone());
            }
        }
        Target::Note { scope, path } => {
            if let Some(note) = store.get_note(scope, path).await? {
                notes.push(note);
            }
        }
    }
    events.sort_by_key(|e| e.position);
    events.dedup_by_key(|e| e.position);
    let forgotten_ids: BTreeSet<&EventId> = events.iter().map(|e| &e.event.id).collect();
    let mut deleted: BTreeSet<(Scope, NotePath)> =
        notes.iter().map(|n| (n.meta.scope.clone(), n.path.clone())).collect();
    // Notes derived from forgotten events: re-derived from what remains.
    if !forgotten_ids.is_empty() {
        for note in store.list_notes(&NoteFilter::all()).await? {
            let key = (note.meta.scope.clone(), note.path.clone());
            if deleted.contains(&key) || !note.meta.sources.iter().any(|s| forgotten_ids.contains(s)) {
                continue;
            }
            let mut kept = note.clone();
            kept.meta.sources.retain(|s| !forgotten_ids.contains(s));
            if kept.meta.sources.is_empty() && by_the_dream(&note) {
                deleted.insert(key);
                notes.push(note);
            } else {
                plan.rederived.push(NoteLine::of(&kept));
                plan.updates.push(kept);
            }
        }
    }
    plan.names =
        events.iter().map(|e| e.event.id.to_string()).chain(sessions.iter().map(|s| s.to_string())).collect();
    match target {
        Target::Event(id) => plan.names.push(id.to_string()),
        Target::Session(key) if !sessions.contains(key) => plan.names.push(key.to_string()),
        _ => {}
    }
    plan.events = events.iter().map(line_of).collect();
    plan.notes = notes.iter().map(NoteLine::of).collect();
    plan.sessions = sessions.clone();
    // The journal: events waiting there that the target covers, and files that name or hold it.
    let matches_event = |event: &HookEvent| match target {
        Target::Session(key) => event.session == *key,
        Target::Event(id) => event.id == *id,
        Target::Text { filter, .. } => {
            filter.matches(event) && holds_phrase(&words(&event_text(event)), &phrase)
        }
        Target::Events(filter) => filter.matches(event),
        Target::Project(id) => {
            event.project.as_deref() == Some(id.as_str()) || sessions.contains(&event.session)
        }
        Target::Note { .. } => false,
    };
    for dir in journal_dirs(config, env) {
        for path in files_in(&dir) {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let covered = serde_json::from_slice::<HookEvent>(&bytes).is_ok_and(|e| matches_event(&e))
                || plan.names_or_text_in(&String::from_utf8_lossy(&bytes));
            if covered {
                plan.journal.push(path);
            }
        }
    }
    // Logs and ledgers: lines that name or hold what goes.
    for dir in [config.log_dir(), paths::fallback_data_dir(env).join("logs"), config.sessions_dir()] {
        for path in files_in(&dir) {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let lines = text.lines().filter(|line| plan.names_or_text_in(line)).count();
            if lines > 0 {
                plan.lines.push(LinesOut { path, lines });
            }
        }
    }
    // The harnesses' context files (Cursor's rules file) quote notes: lines holding the text go
    // (the next session start writes the file again from the notes that remain).
    if plan.text.is_some() {
        let listed = std::fs::read_to_string(config.data_dir().join(crate::context_file::LIST_FILE))
            .unwrap_or_default();
        for path in listed.lines().map(str::trim).filter(|l| !l.is_empty()).map(PathBuf::from) {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let lines = text.lines().filter(|line| plan.names_or_text_in(line)).count();
            if lines > 0 {
                plan.lines.push(LinesOut { path, lines });
            }
        }
    }
    for key in &sessions {
        let ledger = Ledger::new(&config.sessions_dir(), key);
        if ledger.path().exists() {
            plan.ledgers.push(ledger.path().to_owned());
        }
    }
    plan.lines.retain(|l| !plan.ledgers.contains(&l.path));
    Ok(plan)
}

impl Plan {
    /// Whether a text names a forgotten event or session, or holds the forgotten text.
    fn names_or_text_in(&self, text: &str) -> bool {
        self.names.iter().any(|name| text.contains(name.as_str()))
            || self.text.as_ref().is_some_and(|t| text.to_lowercase().contains(t.as_str()))
    }
}

async fn hits(store: &dyn MemoryStore, query: EventQuery) -> Result<Vec<StoredEvent>> {
    Ok(store.search_events(&query).await?.into_iter().map(|h| h.event).collect())
}

/// The journal folders: the data folder's and the fallback folder's, each with `large/`.
fn journal_dirs(config: &Config, env: &Env) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in [config.journal_dir(), paths::fallback_data_dir(env).join("journal")] {
        dirs.push(dir.join("large"));
        dirs.push(dir);
    }
    dirs
}

/// The regular files directly in `dir` (none when it is missing), the journal's lock aside.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n != ".lock"))
        .collect();
    files.sort();
    files
}

/// Removes what `plan` covers (see the module documentation). Notes that stay lose their
/// forgotten sources first, then the store forgets in one step, then the files are cleaned.
pub async fn apply(store: &dyn MemoryStore, plan: &Plan) -> Result<Report> {
    let mut report = Report::default();
    if !plan.updates.is_empty() {
        let now = Utc::now();
        let changes: Vec<NoteChange> = plan
            .updates
            .iter()
            .map(|n| {
                let mut n = n.clone();
                n.meta.updated = now;
                NoteChange::Put(n)
            })
            .collect();
        store.commit(&changes, None).await?;
        report.rederived = changes.len();
    }
    let what = ForgetSet {
        events: plan.events.iter().map(|e| e.id.clone()).collect(),
        sessions: plan.sessions.clone(),
        notes: plan.notes.iter().map(|n| (n.scope.clone(), n.path.clone())).collect(),
    };
    // Even with nothing to delete, so a store finishes what an earlier forget left (a SQLite
    // write-ahead log another process kept reading).
    report.store = store.forget(&what).await?;
    for path in &plan.journal {
        match std::fs::remove_file(path) {
            Ok(()) => report.journal_files += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path)(e)),
        }
    }
    for path in &plan.ledgers {
        match std::fs::remove_file(path) {
            Ok(()) => report.ledgers += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path)(e)),
        }
    }
    for file in &plan.lines {
        report.lines += rewrite_without(&file.path, |line| plan.names_or_text_in(line))?;
    }
    if let Some(id) = &plan.registry_entry {
        crate::project::Registry::new(&plan.data_dir).update(|projects| {
            projects.projects.retain(|e| e.id != *id);
            Ok(())
        })?;
        report.registry_entries = 1;
    }
    Ok(report)
}

/// Rewrites a file without the lines `drop` picks (a new file renamed over it, mode `0600`);
/// returns how many went.
fn rewrite_without(path: &Path, drop: impl Fn(&str) -> bool) -> Result<usize> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(Error::io(path)(e)),
    };
    let mut kept = String::with_capacity(text.len());
    let mut dropped = 0;
    for line in text.split_inclusive('\n') {
        if drop(line) {
            dropped += 1;
        } else {
            kept.push_str(line);
        }
    }
    if dropped == 0 {
        return Ok(0);
    }
    let tmp = path.with_file_name(format!(
        ".{}.forget.{}",
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    let write = || -> std::io::Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&tmp)?;
        file.write_all(kept.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path)(e)
    })?;
    Ok(dropped)
}
