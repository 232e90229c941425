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
//! Notes derived from forgotten events keep everything else, item by item: the dream's items
//! count their sightings (`- text (3×, …)`), and the forgotten events, folded alone as the
//! deterministic dream folds them ([`dream::sightings`]), say which sightings they gave; those
//! are taken off, so an item another event supports stays (its count lowered) and an item only
//! forgotten events support goes, from the note and from every older version of it (the note's
//! history is rewritten without it, its embeddings made again). A forgotten text leaves every line
//! holding it, in every version; a note whose title or description holds it goes whole. Each note
//! loses the ids of its forgotten sources; a note the dream wrote that is left with no source or
//! no item goes (a note a person wrote or edited stays, with every line they wrote).
//!
//! Retention ([`Target::Distilled`]) is a forget too, of events the dream has distilled: the
//! same purge of the store, logs and ledgers, while notes keep their items and sources.
//!
//! [`Target::Everything`] is the same purge of all of it: every event, session and note, every
//! journal file, log, ledger and record the data folder keeps of them, the project registry and
//! the context files written in projects; the configuration, the installed hooks, the embedding
//! model and the viewer's token stay.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use dream::Sightings;
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
    /// Retention: the events the dream has distilled (at or below `dream:scanned`) that occurred
    /// before this time, a prefix of each session ([`memory_core::retention::prefix_cuts`]).
    /// Notes keep their items and their sources.
    Distilled {
        /// The cut-off time.
        before: DateTime<Utc>,
    },
    /// Everything this memory holds: every event, session and note, and every file the data
    /// folder keeps of them (the journal, the logs, the ledgers, the dream's and the forwarder's
    /// records, the share ledgers, the project registry), with the context files written in
    /// projects. The configuration, the installed hooks, the embedding model and the viewer's
    /// token stay.
    Everything,
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

/// A note that stays with some of its lines gone, in its current version and its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NoteEdit {
    /// Its scope.
    pub scope: Scope,
    /// Its path.
    pub path: NotePath,
    /// Its title.
    pub title: String,
    /// The lines of its current version that go (an item another source supports stays, with
    /// its count lowered, and is not listed).
    pub lines: Vec<String>,
    /// Its older versions, rewritten without what goes.
    pub history: usize,
}

/// What a forget covers; nothing has changed yet.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Plan {
    /// Stored events to delete (those of the sessions below included).
    pub events: Vec<EventLine>,
    /// Sessions to delete.
    pub sessions: Vec<SessionKey>,
    /// Notes to delete with their history and embeddings.
    pub notes: Vec<NoteLine>,
    /// Notes that stay with some lines gone (items only forgotten events support, lines holding
    /// the text), their history rewritten without them.
    pub edited: Vec<NoteEdit>,
    /// Notes that lose the ids of forgotten sources and stay as they are otherwise.
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
    /// Other files deleted whole, when everything is forgotten: the logs, the dream's, the
    /// forwarder's and the team sync's records, the share ledgers, the project registry, the
    /// context files.
    pub files: Vec<PathBuf>,
    /// The configuration (the registry's data folder, the embedding model).
    #[serde(skip)]
    config: Config,
    /// What the plan covers.
    #[serde(skip)]
    target: Option<Target>,
    /// Each edited note's versions as they are to be written again, oldest first.
    #[serde(skip)]
    rewrites: Vec<Vec<Note>>,
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
            && self.edited.is_empty()
            && self.rederived.is_empty()
            && self.journal.is_empty()
            && self.lines.is_empty()
            && self.ledgers.is_empty()
            && self.registry_entry.is_none()
            && self.files.is_empty()
    }
}

/// What a forget did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// What the store deleted.
    pub store: Forgotten,
    /// Notes rewritten without some of their lines, with their history.
    pub edited: usize,
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
    /// Other files deleted whole.
    pub files: usize,
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
    let mut plan = Plan { config: config.clone(), target: Some(target.clone()), ..Plan::default() };
    // Notes holding the forgotten text (in any version): edited, not deleted whole.
    let mut holding_text: BTreeSet<(Scope, NotePath)> = BTreeSet::new();
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
                    holding_text.insert((note.meta.scope.clone(), note.path.clone()));
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
        Target::Distilled { before } => events = distilled(store, *before).await?,
        Target::Everything => {
            events = every_event(store).await?;
            sessions = store.sessions().await?.into_iter().map(|s| s.key).collect();
            notes = store.list_notes(&NoteFilter::all()).await?;
        }
    }
    events.sort_by_key(|e| e.position);
    events.dedup_by_key(|e| e.position);
    let forgotten_ids: BTreeSet<&EventId> = events.iter().map(|e| &e.event.id).collect();
    let mut deleted: BTreeSet<(Scope, NotePath)> =
        notes.iter().map(|n| (n.meta.scope.clone(), n.path.clone())).collect();
    // Notes derived from forgotten events, or holding the text: re-derived from what remains.
    // Retention keeps the notes as they are; forgetting everything deletes them all.
    let distilled = matches!(target, Target::Distilled { .. } | Target::Everything);
    let sightings = if forgotten_ids.is_empty() || distilled {
        Sightings::default()
    } else {
        dream::sightings(&events, Utc::now())
    };
    let fix = Fix { forgotten: &forgotten_ids, sightings: &sightings, phrase: &phrase };
    if (!forgotten_ids.is_empty() && !distilled) || !holding_text.is_empty() {
        for note in store.list_notes(&NoteFilter::all()).await? {
            let key = (note.meta.scope.clone(), note.path.clone());
            let cited = note.meta.sources.iter().any(|s| forgotten_ids.contains(s));
            if deleted.contains(&key) || !(cited && !distilled || holding_text.contains(&key)) {
                continue;
            }
            let history = if store.capabilities().note_history {
                store.note_history(&note.meta.scope, &note.path).await?
            } else {
                Vec::new()
            };
            match fix.note(&note, &history) {
                Fixed::Gone => {
                    deleted.insert(key);
                    notes.push(note);
                }
                Fixed::Sources(kept) => {
                    plan.rederived.push(NoteLine::of(&kept));
                    plan.updates.push(kept);
                }
                Fixed::Edited { versions, lines, history } => {
                    plan.edited.push(NoteEdit {
                        scope: note.meta.scope.clone(),
                        path: note.path.clone(),
                        title: note.meta.title.clone(),
                        lines,
                        history,
                    });
                    plan.rewrites.push(versions);
                }
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
        Target::Everything => true,
        Target::Note { .. } | Target::Distilled { .. } => false,
    };
    if *target == Target::Everything {
        whole_files(&mut plan, config, env);
        return Ok(plan);
    }
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

/// Before [`Target::Everything`] is planned and applied in forward mode: the journal is delivered
/// (as `sync` does, waiting for a delivery under way), so its events are stored ones the plan
/// covers, and no forwarder that had them in hand delivers one after the forget.
pub async fn deliver_first(config: &Config, env: &Env, store: &dyn MemoryStore) -> Result<()> {
    if config.forwards() {
        crate::forward::deliver(&crate::forward::journals(config, env), store).await?;
    }
    Ok(())
}

/// Forgetting everything: every file of the journal, the logs, the ledgers and the records of
/// the data folder (and the fallback folder's journal and logs), the project registry and the
/// context files listed, all deleted whole. Locks stay (a process may hold one); the
/// configuration, the embedding model, the viewer's token and the pause state are no memory.
fn whole_files(plan: &mut Plan, config: &Config, env: &Env) {
    let fallback = paths::fallback_data_dir(env);
    for dir in journal_dirs(config, env) {
        plan.journal.extend(files_in(&dir));
    }
    plan.ledgers.extend(files_below(&config.sessions_dir()));
    let data = config.data_dir();
    for dir in [
        config.log_dir(),
        fallback.join("logs"),
        config.dream_dir(),
        config.forward_dir(),
        data.join("share"),
        data.join("team"),
    ] {
        plan.files.extend(files_below(&dir));
    }
    // A local copy left from a time the store was a server's in forward mode: nothing reads it
    // now (in forward mode it is purged as the store is).
    if !config.forwards() {
        let copy = config.replica_path().to_string_lossy().into_owned();
        for path in ["", "-wal", "-shm"].map(|end| PathBuf::from(format!("{copy}{end}"))) {
            if path.exists() {
                plan.files.push(path);
            }
        }
    }
    let registry = crate::project::Registry::new(&data);
    if registry.path().exists() {
        plan.files.push(registry.path().to_owned());
    }
    let listed = std::fs::read_to_string(data.join(crate::context_file::LIST_FILE)).unwrap_or_default();
    plan.files.extend(
        listed.lines().map(str::trim).filter(|l| !l.is_empty()).map(PathBuf::from).filter(|p| p.exists()),
    );
}

/// Every regular file below `dir`, however deep, but locks (`lock`, `*.lock`): a process may
/// hold one.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.filter_map(|e| e.ok()) {
            let Ok(kind) = entry.file_type() else { continue };
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && name != "lock" && !name.ends_with(".lock") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

impl Plan {
    /// Every note the forget deletes or changes (its lines, or its sources).
    pub fn notes_touched(&self) -> Vec<(Scope, NotePath)> {
        let listed = self.notes.iter().chain(&self.rederived).map(|n| (n.scope.clone(), n.path.clone()));
        listed.chain(self.edited.iter().map(|n| (n.scope.clone(), n.path.clone()))).collect()
    }

    /// Whether a text names a forgotten event or session, or holds the forgotten text.
    fn names_or_text_in(&self, text: &str) -> bool {
        self.names.iter().any(|name| text.contains(name.as_str()))
            || self.text.as_ref().is_some_and(|t| text.to_lowercase().contains(t.as_str()))
    }
}

/// How a note comes out of a forget.
enum Fixed {
    /// It goes whole, with its history.
    Gone,
    /// It stays as it is but for the ids of its forgotten sources.
    Sources(Note),
    /// Some of its lines go: its versions as they are to be written again (oldest first, the
    /// current one last), the lines of the current one that go, and how many older versions
    /// changed.
    Edited { versions: Vec<Note>, lines: Vec<String>, history: usize },
}

/// What a forget takes out of notes.
struct Fix<'a> {
    forgotten: &'a BTreeSet<&'a EventId>,
    sightings: &'a Sightings,
    /// The forgotten text's words; empty when no text is forgotten.
    phrase: &'a [String],
}

impl Fix<'_> {
    /// One version without what goes; `None` when the version cannot stay at all (the text is in
    /// its title, description or tags, or runs across lines).
    fn version(&self, note: &Note) -> Option<(Note, Vec<String>)> {
        let mut kept = note.clone();
        kept.meta.sources.retain(|s| !self.forgotten.contains(s));
        let (body, mut gone) = dream::without_sightings(note.path.as_str(), &note.body, self.sightings);
        kept.body = body;
        if !self.phrase.is_empty() {
            let mut body = String::with_capacity(kept.body.len());
            for line in kept.body.split_inclusive('\n') {
                if holds_phrase(&words(line), self.phrase) {
                    gone.push(line.trim_end_matches(['\n', '\r']).to_owned());
                } else {
                    body.push_str(line);
                }
            }
            kept.body = body;
            if holds_phrase(&words(&note_text(&kept)), self.phrase) {
                return None;
            }
        }
        Some((kept, gone))
    }

    /// A note (with its older versions, oldest first) after the forget.
    fn note(&self, note: &Note, history: &[Note]) -> Fixed {
        let Some((mut current, lines)) = self.version(note) else { return Fixed::Gone };
        let by_the_dream = by_the_dream(note);
        let emptied = dream::has_items(&note.body) && !dream::has_items(&current.body);
        if by_the_dream && (emptied || (current.meta.sources.is_empty() && !note.meta.sources.is_empty())) {
            // Nothing stays to justify a note the dream wrote.
            return Fixed::Gone;
        }
        if current.body.trim().is_empty() {
            return Fixed::Gone;
        }
        let mut versions = Vec::with_capacity(history.len() + 1);
        let mut changed = 0;
        for old in history {
            match self.version(old) {
                Some((kept, gone)) => {
                    if !gone.is_empty() || kept.body != old.body {
                        changed += 1;
                    }
                    if !kept.body.trim().is_empty() {
                        versions.push(kept);
                    }
                }
                None => changed += 1,
            }
        }
        if current.body == note.body && changed == 0 {
            return Fixed::Sources(current);
        }
        current.meta.updated = Utc::now();
        versions.push(current);
        Fixed::Edited { versions, lines, history: changed }
    }
}

/// The events retention removes: those at or below `dream:scanned` (every event up to it has been
/// distilled) that occurred before `before`, a prefix of each session.
async fn distilled(store: &dyn MemoryStore, before: DateTime<Utc>) -> Result<Vec<StoredEvent>> {
    // A complete, unfiltered run has distilled every event up to `dream:scanned`, whatever group
    // it belongs to. A group's own watermark only says where its last chunk ended: one for a
    // project that has been quiet for months stays low, yet nothing of it waits.
    let Some(limit) = store.watermark(dream::SCANNED_WATERMARK).await? else { return Ok(Vec::new()) };
    let mut seen = events_up_to(store, limit).await?;
    seen.sort_by(|a, b| (a.event.session.as_str(), a.seq).cmp(&(b.event.session.as_str(), b.seq)));
    let cuts = memory_core::retention::prefix_cuts(
        seen.iter().map(|e| (e.event.session.as_str(), e.seq, e.event.occurred_at)),
        before,
    );
    seen.retain(|e| cuts.iter().any(|(cut, last)| cut == e.event.session.as_str() && e.seq <= *last));
    Ok(seen)
}

/// Every stored event.
async fn every_event(store: &dyn MemoryStore) -> Result<Vec<StoredEvent>> {
    events_up_to(store, u64::MAX).await
}

/// The stored events at or below position `limit`, in order.
async fn events_up_to(store: &dyn MemoryStore, limit: u64) -> Result<Vec<StoredEvent>> {
    const PAGE: usize = 1_000;
    let mut seen = Vec::new();
    let mut after = 0;
    loop {
        let page = store.events_after(after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.position;
        let done = page.len() < PAGE || after >= limit;
        seen.extend(page.into_iter().filter(|e| e.position <= limit));
        if done {
            break;
        }
    }
    Ok(seen)
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
/// forgotten sources first, then the store forgets in one step (the edited notes with their
/// history among what it forgets), the edited notes are written again, version by version, and
/// embedded, then the files are cleaned.
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
        notes: plan
            .notes
            .iter()
            .map(|n| (n.scope.clone(), n.path.clone()))
            .chain(plan.edited.iter().map(|n| (n.scope.clone(), n.path.clone())))
            .collect(),
    };
    // Even with nothing to delete, so a store finishes what an earlier forget left (a SQLite
    // write-ahead log another process kept reading); retention with nothing to remove has
    // nothing to finish.
    if !what.is_empty() || !matches!(plan.target, Some(Target::Distilled { .. })) {
        report.store = store.forget(&what).await?;
    }
    report.store.notes -= (plan.edited.len() as u64).min(report.store.notes);
    if !plan.rewrites.is_empty() {
        let changes: Vec<NoteChange> = plan.rewrites.iter().flatten().cloned().map(NoteChange::Put).collect();
        store.commit(&changes, None).await?;
        report.edited = plan.rewrites.len();
        // Their embeddings went with them: made again from what stays, when the model is there
        // (else the next dream run makes them).
        let _ = crate::dream_run::embed(&plan.config, store, 0).await;
    }
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
    for path in &plan.files {
        match std::fs::remove_file(path) {
            Ok(()) => report.files += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path)(e)),
        }
    }
    if let Some(id) = &plan.registry_entry {
        crate::project::Registry::new(&plan.config.data_dir()).update(|projects| {
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
