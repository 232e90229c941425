//! The `MemoryStore` trait every store implements, and the types it speaks.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Error, EventId, HookEvent, Note, NoteChange, NotePath, Result, Scope, SessionKey, StoredEvent};

/// What a store can do beyond the required core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Capabilities {
    /// `search_notes` ranks notes by full-text relevance.
    pub full_text_search: bool,
    /// `note_history` returns previous versions.
    pub note_history: bool,
    /// Notes are linked to the events they came from and to their previous versions as a graph.
    pub graph_links: bool,
    /// Several OS processes may use the same store at once.
    pub multi_process: bool,
    /// Notes' embeddings are kept (`put_embeddings`) and searched (`search_embeddings`).
    pub vector_search: bool,
}

impl Capabilities {
    /// Every capability on.
    pub const ALL: Self = Self {
        full_text_search: true,
        note_history: true,
        graph_links: true,
        multi_process: true,
        vector_search: true,
    };

    /// Builds a set from its flags, without vector search.
    pub fn new(full_text_search: bool, note_history: bool, graph_links: bool, multi_process: bool) -> Self {
        Self { full_text_search, note_history, graph_links, multi_process, vector_search: false }
    }

    /// The same set with vector search on.
    pub fn with_vector_search(self) -> Self {
        Self { vector_search: true, ..self }
    }
}

/// The outcome of appending one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appended {
    /// The event's id.
    pub id: EventId,
    /// Its session.
    pub session: SessionKey,
    /// Its 1-based place in the session.
    pub seq: u64,
    /// `false` when the id was already stored (a redelivery: nothing changed).
    pub inserted: bool,
}

/// One session, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SessionInfo {
    /// The session key.
    pub key: SessionKey,
    /// The harness that ran it.
    pub harness: String,
    /// The project of its first event that had one.
    pub project: Option<String>,
    /// The owner of its first event that had one ([`HookEvent::owner`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Time of its first event.
    pub started_at: DateTime<Utc>,
    /// Time of its last event.
    pub last_at: DateTime<Utc>,
    /// Number of events stored.
    pub events: u64,
}

/// Which notes to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoteFilter {
    /// Only notes in this scope; `None` lists every scope.
    pub scope: Option<Scope>,
    /// Only paths that start with this prefix (`tools/`).
    pub prefix: Option<String>,
}

impl NoteFilter {
    /// Every note in every scope.
    pub fn all() -> Self {
        Self::default()
    }

    /// Every note in one scope.
    pub fn scope(scope: Scope) -> Self {
        Self { scope: Some(scope), prefix: None }
    }

    /// Whether a note passes the filter.
    pub fn matches(&self, scope: &Scope, path: &NotePath) -> bool {
        self.scope.as_ref().is_none_or(|s| s == scope)
            && self.prefix.as_deref().is_none_or(|p| path.as_str().starts_with(p))
    }
}

/// A full-text search over notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    /// What the user typed. Never parsed as query syntax: see [`crate::search::terms`].
    pub text: String,
    /// The scopes to search; empty searches every scope.
    pub scopes: Vec<Scope>,
    /// Most hits to return.
    pub limit: usize,
}

impl SearchQuery {
    /// A search over the given scopes.
    pub fn new(text: impl Into<String>, scopes: Vec<Scope>, limit: usize) -> Self {
        Self { text: text.into(), scopes, limit }
    }
}

/// One search result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The note.
    pub note: Note,
    /// Relevance, higher is better; comparable within one result list only.
    pub score: f64,
    /// How many distinct query terms the note contains.
    pub matched_terms: usize,
}

/// A search by meaning: notes whose embeddings are closest to a query's.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorQuery {
    /// The model the vectors were made with; only its vectors are compared.
    pub model: String,
    /// The query's embedding.
    pub vector: Vec<f32>,
    /// The scopes to search; empty searches every scope.
    pub scopes: Vec<Scope>,
    /// Most hits to return.
    pub limit: usize,
}

/// A search by meaning over recorded events: the events `filter` passes whose embedding (by
/// `model`) is closest to a query's.
#[derive(Debug, Clone, PartialEq)]
pub struct EventVectorQuery {
    /// The model the vectors were made with; only its vectors are compared.
    pub model: String,
    /// The query's embedding.
    pub vector: Vec<f32>,
    /// Which events are looked at.
    pub filter: EventFilter,
    /// Most hits to return.
    pub limit: usize,
}

/// One event found by meaning.
#[derive(Debug, Clone, PartialEq)]
pub struct EventVectorHit {
    /// The event.
    pub event: StoredEvent,
    /// The cosine similarity of its embedding to the query's, in `[-1, 1]`.
    pub similarity: f32,
}

/// A query's vector still being made, on another thread (a prompt's embedding, while its hook
/// searches by words): a store can do what needs no vector first and take the vector when it
/// is there ([`MemoryStore::search_embeddings_pending`]).
pub trait PendingVector: Send {
    /// Whether the vector is made, so [`wait`](Self::wait) returns at once.
    fn ready(&self) -> bool;
    /// The vector, once made; `None` when it could not be made.
    fn wait(self: Box<Self>) -> Option<Vec<f32>>;
}

/// One note found by meaning.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorHit {
    /// The note.
    pub note: Note,
    /// The cosine similarity of its closest vector to the query's, in `[-1, 1]`.
    pub similarity: f32,
    /// Which of its vectors that is (their order as given to `put_embeddings`).
    pub passage: usize,
}

/// Whether two versions of a note say the same (title, description, tags and body): what its
/// embeddings are made from, so a change of anything else keeps them.
pub fn same_content(a: &Note, b: &Note) -> bool {
    a.meta.title == b.meta.title
        && a.meta.description == b.meta.description
        && a.meta.tags == b.meta.tags
        && a.body == b.body
}

/// The cosine similarity of two vectors; 0 when their lengths differ or one is zero.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut aa, mut bb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    let norms = (aa * bb).sqrt();
    if norms == 0.0 { 0.0 } else { dot / norms }
}

/// Which events a history search or a forget looks at: every condition given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilter {
    /// Only this session's events.
    pub session: Option<SessionKey>,
    /// Only events filed under this project id.
    pub project: Option<String>,
    /// Only events of this harness (`claude`, `codex`, `cursor`).
    pub harness: Option<String>,
    /// Only events of this owner ([`HookEvent::owner`]); events that record none never pass.
    pub owner: Option<String>,
    /// Only events that occurred at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only events that occurred before this time.
    pub until: Option<DateTime<Utc>>,
}

impl EventFilter {
    /// Every event.
    pub fn all() -> Self {
        Self::default()
    }

    /// Whether an event passes the filter.
    pub fn matches(&self, event: &HookEvent) -> bool {
        self.session.as_ref().is_none_or(|s| *s == event.session)
            && self.project.as_deref().is_none_or(|p| event.project.as_deref() == Some(p))
            && self.harness.as_deref().is_none_or(|h| event.harness.name == h)
            && self.owner.as_deref().is_none_or(|o| event.owner.as_deref() == Some(o))
            && self.since.is_none_or(|t| event.occurred_at >= t)
            && self.until.is_none_or(|t| event.occurred_at < t)
    }
}

/// How a query's text is matched against an event's ([`crate::search::event_text`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TextMatch {
    /// Ranked search: an event matches when it contains any form of any term
    /// ([`crate::search::expand`]); best first by BM25 relevance.
    #[default]
    Any,
    /// Exact: an event matches when it contains every word of the text ([`crate::search::words`]:
    /// no word dropped, no inflection added), one after the other. What `forget` uses: it finds a
    /// secret wherever it was typed and nothing that merely resembles it.
    Phrase,
}

/// A search over recorded events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventQuery {
    /// What to look for; `None` takes every event the filter passes, newest first. Text is never
    /// query syntax; text without searchable words matches nothing.
    pub text: Option<String>,
    /// How the text matches.
    pub matching: TextMatch,
    /// Which events are looked at.
    pub filter: EventFilter,
    /// Most hits to return.
    pub limit: usize,
}

impl EventQuery {
    /// A ranked search for `text` over the events `filter` passes.
    pub fn search(text: impl Into<String>, filter: EventFilter, limit: usize) -> Self {
        Self { text: Some(text.into()), matching: TextMatch::Any, filter, limit }
    }

    /// The events holding `text` word for word (see [`TextMatch::Phrase`]).
    pub fn phrase(text: impl Into<String>, filter: EventFilter, limit: usize) -> Self {
        Self { text: Some(text.into()), matching: TextMatch::Phrase, filter, limit }
    }

    /// Every event `filter` passes, newest first.
    pub fn filtered(filter: EventFilter, limit: usize) -> Self {
        Self { text: None, matching: TextMatch::Any, filter, limit }
    }
}

/// One event found by [`MemoryStore::search_events`].
#[derive(Debug, Clone, PartialEq)]
pub struct EventHit {
    /// The event.
    pub event: StoredEvent,
    /// Relevance, higher is better, positive for every text hit; comparable within one result
    /// list only. 0 for a query without text.
    pub score: f64,
    /// How many distinct query terms the event contains (every word, for a phrase).
    pub matched_terms: usize,
}

/// A ranked event search ranks the best `limit ×` this many matches by relevance (at least
/// [`EVENT_SEARCH_MIN`]) by how many terms they hold.
pub const EVENT_SEARCH_WINDOW: usize = 16;
/// See [`EVENT_SEARCH_WINDOW`].
pub const EVENT_SEARCH_MIN: usize = 200;

/// The order of ranked event hits: most terms held, then relevance, then newest.
pub fn rank_event_hits(hits: &mut [EventHit]) {
    hits.sort_by(|a, b| {
        b.matched_terms
            .cmp(&a.matched_terms)
            .then(b.score.total_cmp(&a.score))
            .then(b.event.position.cmp(&a.event.position))
    });
}

/// What [`MemoryStore::forget`] removes for good.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForgetSet {
    /// Events, by id.
    pub events: Vec<EventId>,
    /// Whole sessions: every event of theirs and the session itself.
    pub sessions: Vec<SessionKey>,
    /// Notes, each with its history and embeddings.
    pub notes: Vec<(Scope, NotePath)>,
}

impl ForgetSet {
    /// Whether it names nothing.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty() && self.sessions.is_empty() && self.notes.is_empty()
    }
}

/// What a forget removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Forgotten {
    /// Events deleted (those of forgotten sessions included).
    pub events: u64,
    /// Sessions deleted.
    pub sessions: u64,
    /// Notes deleted (their previous versions not counted).
    pub notes: u64,
}

/// A named lease on a store, held by one holder until a time: what makes work single-flight across
/// every machine that writes to one store (the dream, first of all).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// What it is for (`dream`).
    pub name: String,
    /// Who holds it: a machine and a process (`laptop#4242`).
    pub holder: String,
    /// When it lapses unless its holder takes it again.
    pub until: DateTime<Utc>,
}

/// A named watermark moved forward together with a batch of note changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatermarkAdvance {
    /// The watermark's name (for example `dream:project:acme`).
    pub name: String,
    /// The store position ([`StoredEvent::position`]) processed up to, inclusive.
    pub position: u64,
}

/// A store of events and notes.
///
/// Implementations must be safe to share (`Arc<dyn MemoryStore>`). The conformance suite in
/// `memory-testkit` states the behaviour precisely; the in-memory [`crate::InMemoryStore`] is its
/// reference model.
#[async_trait::async_trait]
pub trait MemoryStore: Send + Sync + std::fmt::Debug {
    /// The store's short name (`sqlite`, `neo4j`, `memory`).
    fn name(&self) -> &'static str;

    /// What the store can do beyond the required core.
    fn capabilities(&self) -> Capabilities;

    /// Appends events, each to the end of its session, in the given order.
    ///
    /// An id already stored (in this or an earlier call) is skipped and reported with
    /// `inserted: false` and its existing `seq`. Sequence numbers within a session are 1-based and
    /// gap-free, whatever number of processes append at once.
    async fn append(&self, events: &[HookEvent]) -> Result<Vec<Appended>>;

    /// A session's events with `seq > after_seq`, in order, at most `limit`.
    async fn timeline(&self, session: &SessionKey, after_seq: u64, limit: usize) -> Result<Vec<StoredEvent>>;

    /// Every session, most recently active first.
    async fn sessions(&self) -> Result<Vec<SessionInfo>>;

    /// The sessions of `project` (their [`SessionInfo::project`]), most recently active first, at
    /// most `limit`: what a session start reads to say where the last one left off.
    async fn project_sessions(&self, project: &str, limit: usize) -> Result<Vec<SessionInfo>> {
        let mut sessions = self.sessions().await?;
        sessions.retain(|s| s.project.as_deref() == Some(project));
        sessions.truncate(limit);
        Ok(sessions)
    }

    /// Events with store position `> after`, in position order, at most `limit`.
    async fn events_after(&self, after: u64, limit: usize) -> Result<Vec<StoredEvent>>;

    /// Looks events up by id; ids not stored are left out.
    async fn events_by_id(&self, ids: &[EventId]) -> Result<Vec<StoredEvent>>;

    /// Creates or replaces a note. The replaced version is kept in the note's history; writing a
    /// note identical to the current one changes nothing.
    async fn put_note(&self, note: &Note) -> Result<()> {
        self.commit(std::slice::from_ref(&NoteChange::Put(note.clone())), None).await
    }

    /// The current version of a note.
    async fn get_note(&self, scope: &Scope, path: &NotePath) -> Result<Option<Note>>;

    /// Previous versions of a note, oldest first (the current version is not included).
    async fn note_history(&self, scope: &Scope, path: &NotePath) -> Result<Vec<Note>>;

    /// Current notes passing the filter, ordered by scope then path.
    async fn list_notes(&self, filter: &NoteFilter) -> Result<Vec<Note>>;

    /// Deletes a note and its history. Returns whether it existed.
    async fn delete_note(&self, scope: &Scope, path: &NotePath) -> Result<bool>;

    /// Notes ranked by relevance to the query text, best first. A query with no searchable terms
    /// returns nothing; user text is never interpreted as query syntax.
    async fn search_notes(&self, query: &SearchQuery) -> Result<Vec<SearchHit>>;

    /// A named watermark's position, if set.
    async fn watermark(&self, name: &str) -> Result<Option<u64>>;

    /// Every watermark, ordered by name.
    async fn watermarks(&self) -> Result<Vec<(String, u64)>>;

    /// Sets a named watermark.
    async fn set_watermark(&self, name: &str, position: u64) -> Result<()> {
        self.commit(&[], Some(&WatermarkAdvance { name: name.to_owned(), position })).await
    }

    /// Applies note changes and advances a watermark in one atomic step: after a crash either all
    /// of it is visible or none of it.
    async fn commit(&self, changes: &[NoteChange], watermark: Option<&WatermarkAdvance>) -> Result<()>;

    /// Keeps `vectors` (made by `model`) as the embeddings of `note`, replacing any it had, when
    /// `note` is still the current version (same title, description, tags and body). Returns
    /// whether they were kept. Any later change to the note, or its deletion, drops them. A store
    /// without vector search keeps nothing.
    async fn put_embeddings(&self, note: &Note, model: &str, vectors: &[Vec<f32>]) -> Result<bool> {
        let _ = (note, model, vectors);
        Ok(false)
    }

    /// The embeddings by `model` each of `notes` has (by scope and path), in the order of its
    /// passages; an empty list for a note with none. A local copy of a server store's notes
    /// takes them from here. A store without vector search has none.
    async fn note_embeddings(&self, model: &str, notes: &[Note]) -> Result<Vec<Vec<Vec<f32>>>> {
        let _ = model;
        Ok(vec![Vec::new(); notes.len()])
    }

    /// Current notes with no embeddings by `model`, ordered by scope then path, at most `limit`.
    async fn notes_without_embeddings(&self, model: &str, limit: usize) -> Result<Vec<Note>> {
        let _ = (model, limit);
        Ok(Vec::new())
    }

    /// Notes ranked by the [`cosine`] similarity of their closest embedding to the query's, best
    /// first; ties in scope and path order.
    async fn search_embeddings(&self, query: &VectorQuery) -> Result<Vec<VectorHit>> {
        let _ = query;
        Ok(Vec::new())
    }

    /// [`search_embeddings`](Self::search_embeddings) for a query whose vector is still being
    /// made (`query.vector` is not read): the same hits, found by doing what needs no vector
    /// while it is made. No vector, no hits. By default, waits for the vector and searches.
    async fn search_embeddings_pending(
        &self,
        query: &VectorQuery,
        vector: Box<dyn PendingVector>,
    ) -> Result<Vec<VectorHit>> {
        match vector.wait() {
            Some(vector) => self.search_embeddings(&VectorQuery { vector, ..query.clone() }).await,
            None => Ok(Vec::new()),
        }
    }

    /// Keeps each vector (made by `model`) as the embedding of the event at its position,
    /// replacing any that event had by `model`; an empty vector records that the event has
    /// nothing to embed. Vectors of events no longer stored are passed over. Returns how many
    /// were kept. Forgetting an event drops its embeddings. A store without vector search keeps
    /// nothing.
    async fn put_event_embeddings(&self, model: &str, vectors: &[(u64, Vec<f32>)]) -> Result<usize> {
        let _ = (model, vectors);
        Ok(0)
    }

    /// Events the query's filter passes, ranked by the [`cosine`] similarity of their embedding
    /// by the query's model to its vector, best first (ties newest first), at most `limit`.
    /// Events without one are not found. A store without vector search finds none.
    async fn search_event_embeddings(&self, query: &EventVectorQuery) -> Result<Vec<EventVectorHit>> {
        let _ = query;
        Ok(Vec::new())
    }

    /// Events matching a query ([`EventQuery`]): with text, ranked ([`TextMatch::Any`]: the events
    /// holding the most distinct terms first, then by relevance, then newest first; a store may
    /// pick them among its best [`EVENT_SEARCH_WINDOW`]-times-`limit` matches by relevance) or
    /// newest first ([`TextMatch::Phrase`]); without text, every event the
    /// filter passes, newest first. At most `limit`. A store may index events for this lazily
    /// (when it is asked), so appends cost what they did.
    async fn search_events(&self, query: &EventQuery) -> Result<Vec<EventHit>> {
        let _ = query;
        Err(Error::Unsupported { operation: "search_events", store: self.name() })
    }

    /// Deletes events, sessions and notes for good, with every copy the store keeps of them:
    /// indexes, a note's history and embeddings, and (for a store on local files) the free space
    /// and write-ahead log they passed through. A session's remaining events keep their seqs and
    /// chain (a forgotten event leaves a gap in the numbering, later appends continue it); a
    /// forgotten session is gone from [`MemoryStore::sessions`]. Positions are never reused.
    /// Names of things not stored are ignored; a store that can finish an earlier forget's clean-up
    /// (SQLite's write-ahead log) does so on any call, even with nothing named. Notes derived
    /// from forgotten events are the caller's to update.
    async fn forget(&self, what: &ForgetSet) -> Result<Forgotten> {
        let _ = what;
        Err(Error::Unsupported { operation: "forget", store: self.name() })
    }

    /// Takes the lease `name` for `holder` until `until` when nobody holds it, its holder's time
    /// ran out (`until` of the lease before `now`), or `holder` holds it already (which extends
    /// it); returns the lease as it stands after the call: `holder`'s when taken, the other
    /// holder's otherwise. Atomic: of any number of callers at once, across processes and
    /// machines, one gets a free lease.
    async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Lease> {
        let _ = (name, holder, until, now);
        Err(Error::Unsupported { operation: "take_lease", store: self.name() })
    }

    /// Gives the lease `name` back when `holder` holds it; anyone else's is left alone.
    async fn release_lease(&self, name: &str, holder: &str) -> Result<()> {
        let _ = (name, holder);
        Err(Error::Unsupported { operation: "release_lease", store: self.name() })
    }

    /// The lease `name` as it stands, lapsed or not; `None` when it was never taken or was given
    /// back.
    async fn lease(&self, name: &str) -> Result<Option<Lease>> {
        let _ = name;
        Err(Error::Unsupported { operation: "lease", store: self.name() })
    }

    /// Records that `machine` wrote to the store at `at`; the latest time of each machine is kept.
    async fn note_machine(&self, machine: &str, at: DateTime<Utc>) -> Result<()> {
        let _ = (machine, at);
        Err(Error::Unsupported { operation: "note_machine", store: self.name() })
    }

    /// Every machine that wrote to the store ([`MemoryStore::note_machine`]) with when it last
    /// did, the most recent first.
    async fn machines(&self) -> Result<Vec<(String, DateTime<Utc>)>> {
        Err(Error::Unsupported { operation: "machines", store: self.name() })
    }
}
