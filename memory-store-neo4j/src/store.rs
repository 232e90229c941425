//! [`Neo4jStore`]: the [`MemoryStore`] implementation.
//!
//! Every trait call runs inside `tokio::time::timeout(query_timeout)`. Appends and note commits
//! run in explicit transactions; reads are auto-commit queries.
//!
//! Appends first write-lock the store-wide position counter, then each touched session, so
//! positions are handed out and committed in one order (a reader paging by position never skips
//! an event that commits later), and appenders never wait on each other in a cycle. Within the
//! locks the store computes seqs and positions for the new events and writes them with one
//! statement that creates and chains them, updates the sessions and stores the counter. Events are
//! assumed new; when the id constraint finds one stored, the batch is rolled back and appended
//! again after reading which ids exist.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use memory_core::search::{event_index_text, event_matched, expand, forms, matched_terms, words};
use memory_core::{
    Appended, Capabilities, EventHit, EventId, EventQuery, EventVectorHit, EventVectorQuery, ForgetSet,
    Forgotten, HookEvent, MemoryStore, Note, NoteChange, NoteFilter, NotePath, Scope, SearchHit, SearchQuery,
    SessionInfo, SessionKey, StoredEvent, TextMatch, VectorHit, VectorQuery, WatermarkAdvance, same_content,
};
use neo4rs::{BoltMap, BoltType, ConfigBuilder, Graph, Query, Row, Txn, query};
use serde::Deserialize;

use crate::batch::{EventColumns, Link, NewEvent};
use crate::codec::{
    decode_event, decode_note, encode_event, encode_note, note_key, position_from_bolt, position_to_bolt,
};
use crate::cypher::{self, COUNTER_NAME, NOTE_INDEX};
use crate::error::Neo4jStoreError;
use crate::nodelay;
use crate::schema::{AWAIT_INDEXES, SCHEMA, SHOW_CONSTRAINTS, SHOW_INDEXES};
use crate::search::{indexed_text, lucene_query};
use crate::{Neo4jConfig, STORE_NAME};

type StoreResult<T> = Result<T, Neo4jStoreError>;

/// A search first asks the full-text index for its best `limit × SEARCH_FETCH_FACTOR` matches (at
/// least [`SEARCH_FETCH_MIN`]), and reads every match only when those cannot decide the answer.
const SEARCH_FETCH_FACTOR: usize = 16;
/// See [`SEARCH_FETCH_FACTOR`].
const SEARCH_FETCH_MIN: usize = 200;
/// Notes whose `search_text` one statement writes when notes are indexed anew.
const NOTE_TEXT_BATCH: usize = 1_000;

/// A [`MemoryStore`] on a Neo4j server (5.x or later, over Bolt 4.4).
///
/// Safe to share between tasks and to use from many processes at once.
pub struct Neo4jStore {
    graph: Graph,
    config: Neo4jConfig,
    /// The server's addresses, to find the driver's connections to it ([`nodelay`]).
    servers: Vec<SocketAddr>,
}

impl fmt::Debug for Neo4jStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Neo4jStore")
            .field("uri", &self.config.uri)
            .field("username", &self.config.username)
            .field("database", &self.config.database)
            .finish_non_exhaustive()
    }
}

impl Neo4jStore {
    /// Connects, checks that the server answers within `connect_timeout`, and creates any missing
    /// constraints and indexes (idempotent; safe when several processes connect at once).
    ///
    /// Wrong credentials give [`memory_core::Error::Config`]; an unreachable server gives a
    /// transient [`memory_core::Error::Backend`].
    pub async fn connect(config: &Neo4jConfig) -> memory_core::Result<Self> {
        config.validate()?;
        let secret = config.password.as_str();
        let mut builder = ConfigBuilder::default()
            .uri(config.uri.as_str())
            .user(config.username.as_str())
            .password(secret)
            // The driver's "connection timeout" bounds every wait for a server message, not only
            // the connection: the longest a statement may take. The connection itself is bounded
            // by `connect_timeout` below, around the first round trip.
            .connection_timeout(config.query_timeout)
            // Despite its name, the pool's wait timeout: how long to wait for a free connection.
            .max_lifetime(config.query_timeout);
        if let Some(database) = &config.database {
            builder = builder.db(database.as_str());
        }
        let driver_config =
            builder.build().map_err(|e| Neo4jStoreError::from_driver("connect", e, secret).into_core())?;
        let graph = Graph::connect(driver_config)
            .map_err(|e| Neo4jStoreError::from_driver("connect", e, secret).into_core())?;
        let servers = nodelay::server_addresses(&config.uri).await;
        let store = Self { graph, config: config.clone(), servers };
        store.bounded("connect", config.connect_timeout, store.ping()).await?;
        store.bounded("connect", config.query_timeout, store.ensure_schema()).await?;
        Ok(store)
    }

    /// The settings this store was opened with.
    pub fn config(&self) -> &Neo4jConfig {
        &self.config
    }

    async fn bounded<T>(
        &self,
        operation: &'static str,
        limit: Duration,
        work: impl Future<Output = StoreResult<T>>,
    ) -> memory_core::Result<T> {
        match tokio::time::timeout(limit, work).await {
            Ok(result) => result.map_err(Neo4jStoreError::into_core),
            Err(_) => Err(Neo4jStoreError::Timeout { operation, after: limit }.into_core()),
        }
    }

    async fn timed<T>(
        &self,
        operation: &'static str,
        work: impl Future<Output = StoreResult<T>>,
    ) -> memory_core::Result<T> {
        self.bounded(operation, self.config.query_timeout, work).await
    }

    /// Maps driver errors of one operation, removing the password from their text.
    fn err(&self, operation: &'static str) -> impl Fn(neo4rs::Error) -> Neo4jStoreError + '_ {
        move |e| Neo4jStoreError::from_driver(operation, e, &self.config.password)
    }

    /// Runs `attempt` again while the server reports a transient failure that rolled it back
    /// (deadlock, lock timeout). The caller's timeout bounds the whole loop.
    async fn retrying<T, F, Fut>(&self, attempt: F) -> StoreResult<T>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = StoreResult<T>>,
    {
        let mut delay = Duration::from_millis(5);
        loop {
            match attempt().await {
                Err(e @ Neo4jStoreError::Server { .. }) if e.is_transient() => {
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_millis(250));
                }
                other => return other,
            }
        }
    }

    async fn fetch(&self, operation: &'static str, q: Query) -> StoreResult<Vec<Row>> {
        let mut stream = self.graph.execute(q).await.map_err(self.err(operation))?;
        let mut rows = Vec::new();
        while let Some(row) = stream.next().await.map_err(self.err(operation))? {
            rows.push(row);
        }
        Ok(rows)
    }

    async fn txn_fetch(&self, operation: &'static str, txn: &mut Txn, q: Query) -> StoreResult<Vec<Row>> {
        let mut stream = txn.execute(q).await.map_err(self.err(operation))?;
        let mut rows = Vec::new();
        while let Some(row) = stream.next(txn.handle()).await.map_err(self.err(operation))? {
            rows.push(row);
        }
        Ok(rows)
    }

    /// Starts a transaction on a pooled connection, new ones included, with Nagle turned off.
    async fn begin(&self, operation: &'static str) -> StoreResult<Txn> {
        let txn = self.graph.start_txn().await.map_err(self.err(operation))?;
        nodelay::apply(&self.servers);
        Ok(txn)
    }

    async fn txn_run(&self, operation: &'static str, txn: &mut Txn, q: Query) -> StoreResult<()> {
        txn.run(q).await.map(|_| ()).map_err(self.err(operation))
    }

    async fn ping(&self) -> StoreResult<()> {
        let rows = self.fetch("connect", query(cypher::PING)).await?;
        let one: i64 =
            get("connect", rows.first().ok_or_else(|| corrupt("connect", "no answer to a ping"))?, "one")?;
        if one == 1 { Ok(()) } else { Err(corrupt("connect", "wrong answer to a ping")) }
    }

    /// The names of existing constraints and indexes, and those of our indexes whose population
    /// failed.
    async fn schema_state(&self) -> StoreResult<(HashSet<String>, Vec<String>)> {
        let op = "connect";
        let mut names = HashSet::new();
        for row in self.fetch(op, query(SHOW_CONSTRAINTS)).await? {
            names.insert(get::<String>(op, &row, "name")?);
        }
        let mut failed = Vec::new();
        for row in self.fetch(op, query(SHOW_INDEXES)).await? {
            let name: String = get(op, &row, "name")?;
            let state: String = get(op, &row, "state")?;
            if state == "FAILED" && SCHEMA.iter().any(|item| item.name == name) {
                failed.push(name.clone());
            }
            names.insert(name);
        }
        Ok((names, failed))
    }

    /// Creates what is missing. An index another client is still populating is not waited for
    /// (statements run meanwhile, a search may fail until it is online): a connection never
    /// depends on how long a population takes. One whose population failed is dropped and
    /// created again.
    async fn ensure_schema(&self) -> StoreResult<()> {
        let op = "connect";
        let (mut names, failed) = self.schema_state().await?;
        for name in &failed {
            self.graph.run(query(&format!("DROP INDEX {name} IF EXISTS"))).await.map_err(self.err(op))?;
            names.remove(name);
        }
        let missing: Vec<_> = SCHEMA.iter().filter(|item| !names.contains(item.name)).collect();
        if !names.contains(NOTE_INDEX) {
            self.index_notes_anew().await?;
            for earlier in cypher::EARLIER_NOTE_INDEXES.iter().filter(|name| names.contains(**name)) {
                self.graph
                    .run(query(&format!("DROP INDEX {earlier} IF EXISTS")))
                    .await
                    .map_err(self.err(op))?;
            }
        }
        for item in &missing {
            if let Err(e) = self.graph.run(query(item.create)).await {
                // Another process may have created it at the same moment.
                let (now, _) = self.schema_state().await?;
                if !now.contains(item.name) {
                    return Err(self.err(op)(e));
                }
            }
        }
        if !missing.is_empty() {
            // New indexes on an empty database are online at once; on a large one this waits a
            // bounded time and then goes on (the server reports a population still under way as
            // an error, which is not this connection's).
            let _ = self.graph.run(query(AWAIT_INDEXES)).await;
        }
        self.graph
            .run(query(cypher::ENSURE_COUNTER).param("name", COUNTER_NAME))
            .await
            .map_err(self.err(op))?;
        Ok(())
    }

    /// Writes every note's `search_text` by today's rule ([`indexed_text`]), in batches: the notes
    /// of a database indexed by an earlier one are then found as new notes are.
    async fn index_notes_anew(&self) -> StoreResult<()> {
        let op = "connect";
        let mut rows: Vec<BoltType> = Vec::new();
        for row in self.fetch(op, query(cypher::NOTE_TEXTS)).await? {
            let key: String = get(op, &row, "key")?;
            let json: String = get(op, &row, "json")?;
            let note = decode_note(&json).map_err(|e| corrupt(op, &format!("note {key}: {e}")))?;
            let mut entry: HashMap<String, BoltType> = HashMap::new();
            entry.insert("key".to_owned(), key.into());
            entry.insert("text".to_owned(), indexed_text(&note).into());
            rows.push(entry.into());
        }
        for batch in rows.chunks(NOTE_TEXT_BATCH) {
            let q = query(cypher::SET_NOTE_TEXTS).param("rows", batch.to_vec());
            self.graph.run(q).await.map_err(self.err(op))?;
        }
        Ok(())
    }

    /// Appends as if every event were new, as nearly all are: the id constraint then checks
    /// existence as part of the write. A batch holding a stored id (a redelivered journal) fails
    /// that constraint, rolls back, and is appended again with an explicit check first.
    async fn append_once(&self, events: &[HookEvent]) -> StoreResult<Vec<Appended>> {
        match self.append_attempt(events, false).await {
            Err(e) if e.is_constraint_violation() => self.append_attempt(events, true).await,
            other => other,
        }
    }

    async fn append_attempt(&self, events: &[HookEvent], check_stored: bool) -> StoreResult<Vec<Appended>> {
        let op = "append";
        // The first occurrence of each id in the batch; later repeats are answered from it.
        let mut first_index: HashMap<&EventId, usize> = HashMap::new();
        for (i, event) in events.iter().enumerate() {
            first_index.entry(&event.id).or_insert(i);
        }
        let mut txn = self.begin(op).await?;
        let mut sessions: BTreeMap<String, SessionState> = BTreeMap::new();
        let session_param = |ids: &[usize]| -> Vec<BoltType> {
            let mut sessions: Vec<&str> = ids.iter().map(|&i| events[i].session.as_str()).collect();
            sessions.sort_unstable();
            sessions.dedup();
            sessions.into_iter().map(Into::into).collect()
        };

        let mut known: HashMap<String, (SessionKey, u64)> = HashMap::new();
        let (base, fresh): (i64, Vec<usize>) = if check_stored {
            let rows =
                self.txn_fetch(op, &mut txn, query(cypher::LOCK_COUNTER).param("name", COUNTER_NAME)).await?;
            let base: i64 =
                get(op, rows.first().ok_or_else(|| corrupt(op, "position counter missing"))?, "position")?;
            let ids: Vec<BoltType> = events
                .iter()
                .enumerate()
                .filter(|(i, e)| first_index[&e.id] == *i)
                .map(|(_, e)| e.id.0.as_str().into())
                .collect();
            let q = query(cypher::EXISTING_EVENTS).param("ids", ids);
            for row in self.txn_fetch(op, &mut txn, q).await? {
                let id: String = get(op, &row, "id")?;
                let session: String = get(op, &row, "session")?;
                known.insert(id, (SessionKey(session), to_u64(op, get(op, &row, "seq")?)?));
            }
            let fresh: Vec<usize> = (0..events.len())
                .filter(|&i| first_index[&events[i].id] == i && !known.contains_key(&events[i].id.0))
                .collect();
            if fresh.is_empty() {
                txn.rollback().await.map_err(self.err(op))?;
                return answer(op, events, &known, &HashSet::new());
            }
            let q = query(cypher::LOCK_SESSIONS).param("sessions", session_param(&fresh));
            for row in self.txn_fetch(op, &mut txn, q).await? {
                sessions.insert(get(op, &row, "id")?, SessionState::from_row(op, &row)?);
            }
            (base, fresh)
        } else {
            // Every first occurrence is new, or the write fails the id constraint and the batch
            // comes back here checked.
            let fresh: Vec<usize> = (0..events.len()).filter(|&i| first_index[&events[i].id] == i).collect();
            let q = query(cypher::LOCK_COUNTER_AND_SESSIONS)
                .param("name", COUNTER_NAME)
                .param("sessions", session_param(&fresh));
            let rows = self.txn_fetch(op, &mut txn, q).await?;
            let base: i64 =
                get(op, rows.first().ok_or_else(|| corrupt(op, "position counter missing"))?, "position")?;
            for row in rows {
                sessions.insert(get(op, &row, "id")?, SessionState::from_row(op, &row)?);
            }
            (base, fresh)
        };

        let mut columns = EventColumns::with_capacity(fresh.len());
        let mut newest: HashMap<&str, i64> = HashMap::new();
        let mut projects = Vec::new();
        for &i in &fresh {
            let event = &events[i];
            let state = sessions
                .get_mut(event.session.as_str())
                .ok_or_else(|| corrupt(op, "a locked session was not returned"))?;
            state.last_seq += 1;
            let stored_last = state.last_id.replace(event.id.0.clone());
            let link = match (newest.insert(event.session.as_str(), columns.next_index()), stored_last) {
                (Some(from), _) => Link::AfterNew(from),
                (None, Some(previous)) => Link::AfterStored(previous),
                (None, None) => Link::First,
            };
            state.harness.get_or_insert_with(|| event.harness.name.clone());
            if state.owner.is_none() {
                state.owner.clone_from(&event.owner);
            }
            if state.project.is_none()
                && let Some(project) = &event.project
            {
                state.project = Some(project.clone());
                projects.push(bolt_map([
                    ("project", project.as_str().into()),
                    ("session", event.session.as_str().into()),
                ]));
            }
            let at = (event.occurred_at.timestamp(), i64::from(event.occurred_at.timestamp_subsec_nanos()));
            state.started = Some(state.started.map_or(at, |s| s.min(at)));
            state.last = Some(state.last.map_or(at, |l| l.max(at)));
            let json = encode_event(event).map_err(|e| Neo4jStoreError::Driver {
                operation: op,
                message: format!("encode event: {e}"),
            })?;
            let new = NewEvent {
                id: event.id.as_str(),
                session: event.session.as_str(),
                seq: state.last_seq,
                kind: event.kind.as_str(),
                harness: event.harness.name.as_str(),
                project: event.project.as_deref(),
                owner: event.owner.as_deref(),
                occurred_at: event.occurred_at.to_rfc3339(),
                json,
            };
            columns.push(new, link);
            known.insert(event.id.0.clone(), (event.session.clone(), to_u64(op, state.last_seq)?));
        }

        let mut updates = Vec::with_capacity(sessions.len());
        for (id, state) in &sessions {
            let last =
                newest.get(id.as_str()).ok_or_else(|| corrupt(op, "a locked session has no new event"))?;
            updates.push(state.update(id, *last));
        }
        let last_position = base + columns.next_index();
        let create = columns
            .into_params(query(cypher::CREATE_EVENTS), base + 1)
            .param("sessions", updates)
            .param("counter", COUNTER_NAME)
            .param("position", last_position);
        self.txn_run(op, &mut txn, create).await?;
        if !projects.is_empty() {
            self.txn_run(op, &mut txn, query(cypher::LINK_PROJECTS).param("projects", projects)).await?;
        }
        txn.commit().await.map_err(self.err(op))?;
        let inserted: HashSet<&str> = fresh.iter().map(|&i| events[i].id.as_str()).collect();
        answer(op, events, &known, &inserted)
    }

    async fn events(&self, operation: &'static str, q: Query) -> StoreResult<Vec<StoredEvent>> {
        self.fetch(operation, q).await?.iter().map(|row| stored_event(operation, row)).collect()
    }

    async fn notes(&self, operation: &'static str, q: Query) -> StoreResult<Vec<Note>> {
        self.fetch(operation, q).await?.iter().map(|row| note_from_row(operation, row)).collect()
    }

    async fn put_in(&self, operation: &'static str, txn: &mut Txn, note: &Note) -> StoreResult<()> {
        let key = note_key(&note.meta.scope, &note.path);
        let json = encode_note(note)
            .map_err(|e| Neo4jStoreError::Driver { operation, message: format!("encode note: {e}") })?;
        let rows =
            self.txn_fetch(operation, txn, query(cypher::LOCK_NOTE).param("key", key.as_str())).await?;
        let current: Option<String> = match rows.first() {
            Some(row) => get(operation, row, "json")?,
            None => return Err(corrupt(operation, "a locked note was not returned")),
        };
        if current.as_deref() == Some(json.as_str()) {
            return Ok(());
        }
        if let Some(current) = current.as_deref() {
            self.txn_run(operation, txn, query(cypher::ARCHIVE_NOTE).param("key", key.as_str())).await?;
            let same = decode_note(current).is_ok_and(|old| same_content(&old, note));
            if !same {
                self.txn_run(operation, txn, query(cypher::DELETE_NOTE_VECTORS).param("key", key.as_str()))
                    .await?;
            }
        }
        let sources: Vec<BoltType> = note.meta.sources.iter().map(|s| s.0.as_str().into()).collect();
        let write = query(cypher::WRITE_NOTE)
            .param("key", key.as_str())
            .param("scope", note.meta.scope.to_string())
            .param("path", note.path.as_str())
            .param("json", json)
            .param("search_text", indexed_text(note))
            .param("title", note.meta.title.as_str())
            .param("kind", note.meta.kind.as_str())
            .param("generator", note.meta.generator.as_str())
            .param("updated", note.meta.updated.to_rfc3339())
            .param("sources", sources);
        self.txn_run(operation, txn, write).await
    }

    async fn delete_in(
        &self,
        operation: &'static str,
        txn: &mut Txn,
        scope: &Scope,
        path: &NotePath,
    ) -> StoreResult<bool> {
        let key = note_key(scope, path);
        self.txn_run(operation, txn, query(cypher::DELETE_NOTE_VERSIONS).param("key", key.as_str())).await?;
        self.txn_run(operation, txn, query(cypher::DELETE_NOTE_VECTORS).param("key", key.as_str())).await?;
        let rows =
            self.txn_fetch(operation, txn, query(cypher::DELETE_NOTE).param("key", key.as_str())).await?;
        let deleted: i64 =
            get(operation, rows.first().ok_or_else(|| corrupt(operation, "no delete count"))?, "deleted")?;
        Ok(deleted > 0)
    }

    async fn commit_once(
        &self,
        changes: &[NoteChange],
        watermark: Option<&WatermarkAdvance>,
    ) -> StoreResult<()> {
        let op = "commit";
        let mut txn = self.begin(op).await?;
        for change in changes {
            match change {
                NoteChange::Put(note) => self.put_in(op, &mut txn, note).await?,
                NoteChange::Delete { scope, path } => {
                    self.delete_in(op, &mut txn, scope, path).await?;
                }
            }
        }
        if let Some(mark) = watermark {
            let q = query(cypher::SET_WATERMARK)
                .param("name", mark.name.as_str())
                .param("position", position_to_bolt(mark.position));
            self.txn_run(op, &mut txn, q).await?;
        }
        txn.commit().await.map_err(self.err(op))
    }

    /// Gives the events appended since the last search their search text (see
    /// [`cypher::EVENTS_INDEXED`]): appends never pay for the event index.
    async fn index_events(&self) -> StoreResult<()> {
        let op = "search_events";
        let mark = query(cypher::EVENTS_INDEXED_MARK).param("name", cypher::EVENTS_INDEXED);
        let rows = self.fetch(op, mark).await?;
        let mut after: i64 = get(op, rows.first().ok_or_else(|| corrupt(op, "no index mark"))?, "position")?;
        loop {
            let page = query(cypher::EVENTS_TO_INDEX).param("after", after).param("limit", 1_000i64);
            let rows = self.fetch(op, page).await?;
            let Some(last) = rows.last() else { return Ok(()) };
            let last: i64 = get(op, last, "position")?;
            let mut texts = Vec::with_capacity(rows.len());
            for row in &rows {
                let position: i64 = get(op, row, "position")?;
                let json: String = get(op, row, "json")?;
                let event = decode_event(&json).map_err(|e| corrupt(op, &format!("stored event: {e}")))?;
                texts.push(bolt_map([
                    ("position", position.into()),
                    ("text", event_index_text(&event).into()),
                ]));
            }
            let write = query(cypher::SET_EVENT_TEXT)
                .param("rows", texts)
                .param("name", cypher::EVENTS_INDEXED)
                .param("position", last);
            self.fetch(op, write).await?;
            after = last;
        }
    }

    async fn search_events_once(&self, search: &EventQuery) -> StoreResult<Vec<EventHit>> {
        let op = "search_events";
        if search.limit == 0 {
            return Ok(Vec::new());
        }
        let filter = &search.filter;
        // Time is compared here, on the decoded event; the other filters in the query.
        let timed = filter.since.is_some() || filter.until.is_some();
        // A ranked search picks among the best matches by relevance those holding the most terms.
        let wanted = match (&search.text, search.matching) {
            (Some(_), TextMatch::Any) => search
                .limit
                .saturating_mul(memory_core::EVENT_SEARCH_WINDOW)
                .max(memory_core::EVENT_SEARCH_MIN),
            _ => search.limit,
        };
        let limit = if timed { i64::MAX } else { clamp(wanted) };
        let with_filters = |q: Query| {
            q.param("session", filter.session.as_ref().map(|s| s.as_str().to_owned()))
                .param("project", filter.project.clone())
                .param("harness", filter.harness.clone())
                .param("owner", filter.owner.clone())
                .param("limit", limit)
        };
        let mut hits = Vec::new();
        let Some(text) = &search.text else {
            for row in self.fetch(op, with_filters(query(cypher::FILTER_EVENTS))).await? {
                let stored = stored_event(op, &row)?;
                if filter.matches(&stored.event) && hits.len() < search.limit {
                    hits.push(EventHit { event: stored, score: 0.0, matched_terms: 0 });
                }
            }
            return Ok(hits);
        };
        let (terms, phrase) = match search.matching {
            TextMatch::Any => (expand(text), Vec::new()),
            TextMatch::Phrase => (Vec::new(), words(text)),
        };
        let lucene = match search.matching {
            TextMatch::Any => lucene_query(&forms(&terms)),
            TextMatch::Phrase => lucene_query(&[phrase.join(" ")]).filter(|_| !phrase.is_empty()),
        };
        let Some(lucene) = lucene else { return Ok(Vec::new()) };
        self.index_events().await?;
        let statement = match search.matching {
            TextMatch::Any => cypher::SEARCH_EVENTS,
            TextMatch::Phrase => cypher::SEARCH_EVENTS_NEWEST,
        };
        let q = with_filters(query(statement)).param("index", cypher::EVENT_INDEX).param("query", lucene);
        for row in self.fetch(op, q).await? {
            let stored = stored_event(op, &row)?;
            if !filter.matches(&stored.event) {
                continue;
            }
            let matched = event_matched(&stored.event, &terms, &phrase);
            let score: f64 = get(op, &row, "score")?;
            if matched > 0 && hits.len() < wanted {
                hits.push(EventHit {
                    event: stored,
                    score: score.max(f64::MIN_POSITIVE),
                    matched_terms: matched,
                });
            }
        }
        if search.matching == TextMatch::Any {
            memory_core::rank_event_hits(&mut hits);
        }
        hits.truncate(search.limit);
        Ok(hits)
    }

    async fn put_event_vectors_once(&self, model: &str, vectors: &[(u64, Vec<f32>)]) -> StoreResult<usize> {
        let op = "put_event_embeddings";
        let mut kept = 0;
        for chunk in vectors.chunks(500) {
            let rows: Vec<BoltType> = chunk
                .iter()
                .map(|(position, vector)| {
                    let mut row = BoltMap::new();
                    row.put("position".into(), BoltType::from(i64::try_from(*position).unwrap_or(i64::MAX)));
                    row.put(
                        "vector".into(),
                        BoltType::from(vector.iter().map(|x| f64::from(*x)).collect::<Vec<f64>>()),
                    );
                    BoltType::Map(row)
                })
                .collect();
            let q = query(cypher::WRITE_EVENT_VECTORS).param("rows", rows).param("model", model);
            if let Some(row) = self.fetch(op, q).await?.first() {
                kept += usize::try_from(get::<i64>(op, row, "kept")?).unwrap_or(0);
            }
        }
        Ok(kept)
    }

    async fn search_event_vectors_once(&self, search: &EventVectorQuery) -> StoreResult<Vec<EventVectorHit>> {
        let op = "search_event_embeddings";
        if search.limit == 0 || search.vector.is_empty() {
            return Ok(Vec::new());
        }
        let filter = &search.filter;
        // Time is compared here, on the decoded event; the other filters in the query.
        let timed = filter.since.is_some() || filter.until.is_some();
        let q = query(cypher::SEARCH_EVENT_VECTORS)
            .param("model", search.model.as_str())
            .param("vector", search.vector.iter().map(|x| f64::from(*x)).collect::<Vec<f64>>())
            .param("session", filter.session.as_ref().map(|s| s.as_str().to_owned()))
            .param("project", filter.project.clone())
            .param("harness", filter.harness.clone())
            .param("owner", filter.owner.clone())
            .param("limit", if timed { i64::MAX } else { clamp(search.limit) });
        let mut hits = Vec::new();
        for row in self.fetch(op, q).await? {
            let event = stored_event(op, &row)?;
            if filter.matches(&event.event) && hits.len() < search.limit {
                let score: f64 = get(op, &row, "score")?;
                // Neo4j scores cosine as (1 + cos) / 2.
                hits.push(EventVectorHit { event, similarity: (2.0 * score - 1.0) as f32 });
            }
        }
        Ok(hits)
    }

    async fn forget_once(&self, what: &ForgetSet) -> StoreResult<Forgotten> {
        let op = "forget";
        let mut forgotten = Forgotten::default();
        if what.is_empty() {
            return Ok(forgotten);
        }
        let mut txn = self.begin(op).await?;
        // The counter first, as appends take it: a forget and an append never wait on each other
        // in a cycle.
        self.txn_fetch(op, &mut txn, query(cypher::LOCK_COUNTER).param("name", COUNTER_NAME)).await?;
        let count = |rows: Vec<Row>| -> StoreResult<u64> {
            match rows.first() {
                Some(row) => to_u64(op, get(op, row, "deleted")?),
                None => Ok(0),
            }
        };
        for key in &what.sessions {
            let events = query(cypher::FORGET_SESSION_EVENTS).param("session", key.as_str());
            forgotten.events += count(self.txn_fetch(op, &mut txn, events).await?)?;
            let session = query(cypher::FORGET_SESSION).param("session", key.as_str());
            forgotten.sessions += count(self.txn_fetch(op, &mut txn, session).await?)?;
        }
        for id in &what.events {
            let event = query(cypher::FORGET_EVENT).param("id", id.as_str());
            forgotten.events += count(self.txn_fetch(op, &mut txn, event).await?)?;
        }
        for (scope, path) in &what.notes {
            if self.delete_in(op, &mut txn, scope, path).await? {
                forgotten.notes += 1;
            }
        }
        txn.commit().await.map_err(self.err(op))?;
        Ok(forgotten)
    }

    async fn delete_once(&self, scope: &Scope, path: &NotePath) -> StoreResult<bool> {
        let op = "delete_note";
        let mut txn = self.begin(op).await?;
        let existed = self.delete_in(op, &mut txn, scope, path).await?;
        txn.commit().await.map_err(self.err(op))?;
        Ok(existed)
    }

    async fn put_vectors_once(&self, note: &Note, model: &str, vectors: &[Vec<f32>]) -> StoreResult<bool> {
        let op = "put_embeddings";
        let key = note_key(&note.meta.scope, &note.path);
        let mut txn = self.begin(op).await?;
        let rows = self.txn_fetch(op, &mut txn, query(cypher::GET_NOTE).param("key", key.as_str())).await?;
        let current = match rows.first() {
            Some(row) => Some(note_from_row(op, row)?),
            None => None,
        };
        if !current.is_some_and(|current| same_content(&current, note)) || vectors.is_empty() {
            return Ok(false);
        }
        let lists: Vec<BoltType> = vectors
            .iter()
            .map(|v| BoltType::from(v.iter().map(|x| f64::from(*x)).collect::<Vec<f64>>()))
            .collect();
        let write = query(cypher::WRITE_NOTE_VECTORS)
            .param("key", key.as_str())
            .param("model", model)
            .param("vectors", lists);
        self.txn_run(op, &mut txn, write).await?;
        txn.commit().await.map_err(self.err(op))?;
        Ok(true)
    }

    async fn vectors_of_once(&self, model: &str, notes: &[Note]) -> StoreResult<Vec<Vec<Vec<f32>>>> {
        let op = "note_embeddings";
        let keys: Vec<String> = notes.iter().map(|n| note_key(&n.meta.scope, &n.path)).collect();
        let mut found: HashMap<String, Vec<Vec<f32>>> = HashMap::new();
        for chunk in keys.chunks(500) {
            let param: Vec<BoltType> = chunk.iter().map(|k| k.as_str().into()).collect();
            let q = query(cypher::NOTE_VECTORS).param("keys", param).param("model", model);
            for row in self.fetch(op, q).await? {
                let key: String = get(op, &row, "key")?;
                let vectors: Vec<Vec<f64>> = get(op, &row, "vectors")?;
                // Stored as Neo4j floats (f64) from the f32 the model gives: the cast back is exact.
                #[allow(clippy::cast_possible_truncation)]
                let vectors =
                    vectors.into_iter().map(|v| v.into_iter().map(|x| x as f32).collect()).collect();
                found.insert(key, vectors);
            }
        }
        Ok(keys.iter().map(|k| found.remove(k).unwrap_or_default()).collect())
    }

    async fn vectors_missing_once(&self, model: &str, limit: usize) -> StoreResult<Vec<Note>> {
        let op = "notes_without_embeddings";
        let q = query(cypher::NOTES_WITHOUT_VECTORS).param("model", model).param("limit", clamp(limit));
        self.fetch(op, q).await?.iter().map(|row| note_from_row(op, row)).collect()
    }

    async fn search_vectors_once(&self, search: &VectorQuery) -> StoreResult<Vec<VectorHit>> {
        let op = "search_embeddings";
        if search.limit == 0 || search.vector.is_empty() {
            return Ok(Vec::new());
        }
        let scopes: Vec<BoltType> = search.scopes.iter().map(|s| s.to_string().into()).collect();
        let vector: Vec<f64> = search.vector.iter().map(|x| f64::from(*x)).collect();
        let hits = |rows: Vec<Row>| -> StoreResult<Vec<VectorHit>> {
            let mut out = Vec::new();
            for row in rows {
                if get::<Option<String>>(op, &row, "json")?.is_none() {
                    continue;
                }
                let score: f64 = get(op, &row, "score")?;
                let passage = usize::try_from(get::<i64>(op, &row, "chunk")?).unwrap_or(0);
                // Neo4j scores cosine as (1 + cos) / 2.
                let similarity = (2.0 * score - 1.0) as f32;
                out.push(VectorHit { note: note_from_row(op, &row)?, similarity, passage });
            }
            Ok(out)
        };
        if search.vector.len() == cypher::VECTOR_DIMENSIONS {
            let fetch = search.limit.saturating_mul(SEARCH_FETCH_FACTOR).max(SEARCH_FETCH_MIN);
            let top = query(cypher::SEARCH_VECTORS_TOP)
                .param("index", cypher::VECTOR_INDEX)
                .param("fetch", clamp(fetch))
                .param("vector", vector.clone())
                .param("model", search.model.as_str())
                .param("scopes", scopes.clone())
                .param("limit", clamp(search.limit));
            let rows = self.fetch(op, top).await?;
            let complete = match rows.first() {
                Some(row) => get::<i64>(op, row, "fetched")? < clamp(fetch),
                None => true,
            };
            let found = hits(rows)?;
            // The index's best vectors decide when they hold `limit` notes of the asked scopes
            // and model, or when they were every vector there is.
            if complete || found.len() == search.limit {
                return Ok(found);
            }
        }
        let all = query(cypher::SEARCH_VECTORS)
            .param("vector", vector)
            .param("model", search.model.as_str())
            .param("scopes", scopes)
            .param("limit", clamp(search.limit));
        hits(self.fetch(op, all).await?)
    }

    async fn search_once(&self, search: &SearchQuery) -> StoreResult<Vec<SearchHit>> {
        let op = "search_notes";
        let wanted = expand(&search.text);
        let Some(lucene) = lucene_query(&forms(&wanted)) else { return Ok(Vec::new()) };
        if search.limit == 0 {
            return Ok(Vec::new());
        }
        let scopes: Vec<BoltType> = search.scopes.iter().map(|s| s.to_string().into()).collect();
        let fetch = search.limit.saturating_mul(SEARCH_FETCH_FACTOR).max(SEARCH_FETCH_MIN);
        let top = query(cypher::SEARCH_NOTES_TOP)
            .param("index", NOTE_INDEX)
            .param("query", lucene.as_str())
            .param("scopes", scopes.clone())
            .param("limit", clamp(search.limit))
            .param("fetch", clamp(fetch));
        let mut rows = Vec::new();
        let mut complete = true;
        for row in self.fetch(op, top).await? {
            complete = get::<i64>(op, &row, "fetched")? < clamp(fetch);
            if get::<Option<String>>(op, &row, "json")?.is_some() {
                rows.push(row);
            }
        }
        // The best `fetch` matches decide the answer when every match was fetched, or when they
        // hold `limit` hits in the asked scopes: a match left out scores no higher than the last
        // one fetched, so at most it ties with the last hit, and a tie at the cut goes to the
        // index's own order (as in the SQLite store). Only when other scopes crowd the best
        // matches is every match read.
        let decided = complete || rows.len() == search.limit;
        if !decided {
            let all = query(cypher::SEARCH_NOTES)
                .param("index", NOTE_INDEX)
                .param("query", lucene)
                .param("scopes", scopes)
                .param("limit", clamp(search.limit));
            rows = self.fetch(op, all).await?;
        }
        let mut hits = Vec::new();
        for row in rows {
            let note = note_from_row(op, &row)?;
            let score: f64 = get(op, &row, "score")?;
            let matched = matched_terms(&note, &wanted);
            if matched > 0 {
                hits.push(SearchHit { note, score, matched_terms: matched });
            }
        }
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.note.meta.scope.cmp(&b.note.meta.scope))
                .then_with(|| a.note.path.cmp(&b.note.path))
        });
        Ok(hits)
    }
}

/// A session's state as read under its lock, updated as the batch's events are placed.
#[derive(Debug)]
struct SessionState {
    last_seq: i64,
    last_id: Option<String>,
    harness: Option<String>,
    project: Option<String>,
    owner: Option<String>,
    started: Option<(i64, i64)>,
    last: Option<(i64, i64)>,
}

impl SessionState {
    fn from_row(op: &'static str, row: &Row) -> StoreResult<Self> {
        let pair = |s: &str, ns: &str| -> StoreResult<Option<(i64, i64)>> {
            Ok(get::<Option<i64>>(op, row, s)?.zip(get::<Option<i64>>(op, row, ns)?))
        };
        Ok(Self {
            last_seq: get(op, row, "last_seq")?,
            last_id: get(op, row, "last_id")?,
            harness: get(op, row, "harness")?,
            project: get(op, row, "project")?,
            owner: get(op, row, "owner")?,
            started: pair("started_s", "started_ns")?,
            last: pair("last_s", "last_ns")?,
        })
    }

    /// The session's row of the batch write; `last` is the index of its newest event in the batch.
    fn update(&self, id: &str, last: i64) -> BoltType {
        let (started_s, started_ns) = self.started.unwrap_or_default();
        let (last_s, last_ns) = self.last.unwrap_or_default();
        bolt_map([
            ("id", id.into()),
            ("last", last.into()),
            ("last_seq", self.last_seq.into()),
            ("harness", self.harness.clone().into()),
            ("project", self.project.clone().into()),
            ("owner", self.owner.clone().into()),
            ("started_s", started_s.into()),
            ("started_ns", started_ns.into()),
            ("last_s", last_s.into()),
            ("last_ns", last_ns.into()),
        ])
    }
}

/// The per-event answer of an append, from what is stored (or was just stored) under each id.
/// Only the first occurrence of an id inserted by this call reports `inserted: true`.
fn answer(
    op: &'static str,
    events: &[HookEvent],
    known: &HashMap<String, (SessionKey, u64)>,
    inserted: &HashSet<&str>,
) -> StoreResult<Vec<Appended>> {
    let mut seen = HashSet::new();
    events
        .iter()
        .map(|event| {
            let (session, seq) =
                known.get(&event.id.0).ok_or_else(|| corrupt(op, "an appended id is missing"))?;
            let fresh = inserted.contains(event.id.as_str()) && seen.insert(event.id.as_str());
            Ok(Appended { id: event.id.clone(), session: session.clone(), seq: *seq, inserted: fresh })
        })
        .collect()
}

fn bolt_map<const N: usize>(entries: [(&'static str, BoltType); N]) -> BoltType {
    let map: HashMap<String, BoltType> = entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    map.into()
}

fn get<'row, T: Deserialize<'row>>(operation: &'static str, row: &'row Row, key: &str) -> StoreResult<T> {
    row.get::<T>(key).map_err(|e| corrupt(operation, &format!("column {key}: {e}")))
}

/// A lease's time as stored: RFC 3339 with nanoseconds in UTC, whose text order is time order.
fn lease_time(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)
}

fn lease_from(operation: &'static str, name: &str, row: &Row) -> StoreResult<memory_core::Lease> {
    let until: String = get(operation, row, "until")?;
    let until = chrono::DateTime::parse_from_rfc3339(&until)
        .map_err(|e| corrupt(operation, &format!("lease time {until}: {e}")))?
        .to_utc();
    Ok(memory_core::Lease { name: name.to_owned(), holder: get(operation, row, "holder")?, until })
}

fn corrupt(operation: &'static str, message: &str) -> Neo4jStoreError {
    Neo4jStoreError::Corrupt { operation, message: message.to_owned() }
}

fn to_u64(operation: &'static str, value: i64) -> StoreResult<u64> {
    u64::try_from(value).map_err(|_| corrupt(operation, &format!("negative number {value}")))
}

/// A `usize` limit as a Cypher integer.
fn clamp(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

fn stored_event(operation: &'static str, row: &Row) -> StoreResult<StoredEvent> {
    let json: String = get(operation, row, "json")?;
    let event = decode_event(&json).map_err(|e| corrupt(operation, &format!("event json: {e}")))?;
    Ok(StoredEvent {
        seq: to_u64(operation, get(operation, row, "seq")?)?,
        position: to_u64(operation, get(operation, row, "position")?)?,
        event,
    })
}

fn note_from_row(operation: &'static str, row: &Row) -> StoreResult<Note> {
    let json: String = get(operation, row, "json")?;
    decode_note(&json).map_err(|e| corrupt(operation, &format!("note json: {e}")))
}

fn time(operation: &'static str, row: &Row, secs: &str, nanos: &str) -> StoreResult<DateTime<Utc>> {
    let s: i64 = get(operation, row, secs)?;
    let ns: i64 = get(operation, row, nanos)?;
    u32::try_from(ns)
        .ok()
        .and_then(|ns| DateTime::from_timestamp(s, ns))
        .ok_or_else(|| corrupt(operation, &format!("time {s}.{ns}")))
}

#[async_trait::async_trait]
impl MemoryStore for Neo4jStore {
    fn name(&self) -> &'static str {
        STORE_NAME
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::ALL
    }

    async fn append(&self, events: &[HookEvent]) -> memory_core::Result<Vec<Appended>> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        self.timed("append", self.retrying(|| self.append_once(events))).await
    }

    async fn timeline(
        &self,
        session: &SessionKey,
        after_seq: u64,
        limit: usize,
    ) -> memory_core::Result<Vec<StoredEvent>> {
        let Ok(after) = i64::try_from(after_seq) else { return Ok(Vec::new()) };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let q = query(cypher::TIMELINE)
            .param("session", session.as_str())
            .param("after", after)
            .param("limit", clamp(limit));
        self.timed("timeline", self.events("timeline", q)).await
    }

    async fn sessions(&self) -> memory_core::Result<Vec<SessionInfo>> {
        let op = "sessions";
        self.timed(op, async {
            let mut out = Vec::new();
            for row in self.fetch(op, query(cypher::SESSIONS)).await? {
                out.push(SessionInfo {
                    key: SessionKey(get(op, &row, "id")?),
                    harness: get(op, &row, "harness")?,
                    project: get(op, &row, "project")?,
                    owner: get(op, &row, "owner")?,
                    started_at: time(op, &row, "started_s", "started_ns")?,
                    last_at: time(op, &row, "last_s", "last_ns")?,
                    events: to_u64(op, get(op, &row, "events")?)?,
                });
            }
            out.sort_by(|a, b| b.last_at.cmp(&a.last_at).then_with(|| a.key.cmp(&b.key)));
            Ok(out)
        })
        .await
    }

    async fn events_after(&self, after: u64, limit: usize) -> memory_core::Result<Vec<StoredEvent>> {
        let Ok(after) = i64::try_from(after) else { return Ok(Vec::new()) };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let q = query(cypher::EVENTS_AFTER).param("after", after).param("limit", clamp(limit));
        self.timed("events_after", self.events("events_after", q)).await
    }

    async fn events_by_id(&self, ids: &[EventId]) -> memory_core::Result<Vec<StoredEvent>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<BoltType> = ids.iter().map(|id| id.0.as_str().into()).collect();
        let q = query(cypher::EVENTS_BY_ID).param("ids", ids);
        self.timed("events_by_id", self.events("events_by_id", q)).await
    }

    async fn get_note(&self, scope: &Scope, path: &NotePath) -> memory_core::Result<Option<Note>> {
        let q = query(cypher::GET_NOTE).param("key", note_key(scope, path));
        self.timed("get_note", async { Ok(self.notes("get_note", q).await?.into_iter().next()) }).await
    }

    async fn note_history(&self, scope: &Scope, path: &NotePath) -> memory_core::Result<Vec<Note>> {
        let q = query(cypher::NOTE_HISTORY).param("key", note_key(scope, path));
        self.timed("note_history", self.notes("note_history", q)).await
    }

    async fn list_notes(&self, filter: &NoteFilter) -> memory_core::Result<Vec<Note>> {
        let prefix = filter.prefix.clone().unwrap_or_default();
        let q = match &filter.scope {
            Some(scope) => {
                query(cypher::LIST_NOTES_IN_SCOPE).param("scope", scope.to_string()).param("prefix", prefix)
            }
            None => query(cypher::LIST_NOTES).param("prefix", prefix),
        };
        self.timed("list_notes", async {
            let mut notes: Vec<Note> = self
                .notes("list_notes", q)
                .await?
                .into_iter()
                .filter(|n| filter.matches(&n.meta.scope, &n.path))
                .collect();
            notes.sort_by(|a, b| a.meta.scope.cmp(&b.meta.scope).then_with(|| a.path.cmp(&b.path)));
            Ok(notes)
        })
        .await
    }

    async fn delete_note(&self, scope: &Scope, path: &NotePath) -> memory_core::Result<bool> {
        self.timed("delete_note", self.retrying(|| self.delete_once(scope, path))).await
    }

    async fn search_notes(&self, search: &SearchQuery) -> memory_core::Result<Vec<SearchHit>> {
        self.timed("search_notes", self.search_once(search)).await
    }

    async fn put_embeddings(
        &self,
        note: &Note,
        model: &str,
        vectors: &[Vec<f32>],
    ) -> memory_core::Result<bool> {
        self.timed("put_embeddings", self.retrying(|| self.put_vectors_once(note, model, vectors))).await
    }

    async fn note_embeddings(&self, model: &str, notes: &[Note]) -> memory_core::Result<Vec<Vec<Vec<f32>>>> {
        self.timed("note_embeddings", self.vectors_of_once(model, notes)).await
    }

    async fn notes_without_embeddings(&self, model: &str, limit: usize) -> memory_core::Result<Vec<Note>> {
        self.timed("notes_without_embeddings", self.vectors_missing_once(model, limit)).await
    }

    async fn search_embeddings(&self, search: &VectorQuery) -> memory_core::Result<Vec<VectorHit>> {
        self.timed("search_embeddings", self.search_vectors_once(search)).await
    }

    async fn search_events(&self, search: &EventQuery) -> memory_core::Result<Vec<EventHit>> {
        self.timed("search_events", self.search_events_once(search)).await
    }

    async fn put_event_embeddings(
        &self,
        model: &str,
        vectors: &[(u64, Vec<f32>)],
    ) -> memory_core::Result<usize> {
        self.timed("put_event_embeddings", self.retrying(|| self.put_event_vectors_once(model, vectors)))
            .await
    }

    async fn search_event_embeddings(
        &self,
        search: &EventVectorQuery,
    ) -> memory_core::Result<Vec<EventVectorHit>> {
        self.timed("search_event_embeddings", self.search_event_vectors_once(search)).await
    }

    async fn forget(&self, what: &ForgetSet) -> memory_core::Result<Forgotten> {
        self.timed("forget", self.retrying(|| self.forget_once(what))).await
    }

    async fn watermark(&self, name: &str) -> memory_core::Result<Option<u64>> {
        let op = "watermark";
        let q = query(cypher::GET_WATERMARK).param("name", name);
        self.timed(op, async {
            match self.fetch(op, q).await?.first() {
                Some(row) => Ok(Some(position_from_bolt(get(op, row, "position")?))),
                None => Ok(None),
            }
        })
        .await
    }

    async fn watermarks(&self) -> memory_core::Result<Vec<(String, u64)>> {
        let op = "watermarks";
        self.timed(op, async {
            let mut out = Vec::new();
            for row in self.fetch(op, query(cypher::WATERMARKS)).await? {
                out.push((get(op, &row, "name")?, position_from_bolt(get(op, &row, "position")?)));
            }
            out.sort();
            Ok(out)
        })
        .await
    }

    async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        until: chrono::DateTime<chrono::Utc>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> memory_core::Result<memory_core::Lease> {
        let op = "take_lease";
        let attempt = || async {
            let q = query(cypher::TAKE_LEASE)
                .param("name", name)
                .param("holder", holder)
                .param("until", lease_time(until))
                .param("now", lease_time(now));
            let rows = self.fetch(op, q).await?;
            let row = rows.first().ok_or_else(|| corrupt(op, "no lease returned"))?;
            lease_from(op, name, row)
        };
        self.timed(op, self.retrying(attempt)).await
    }

    async fn release_lease(&self, name: &str, holder: &str) -> memory_core::Result<()> {
        let op = "release_lease";
        let attempt = || async {
            let q = query(cypher::RELEASE_LEASE).param("name", name).param("holder", holder);
            self.fetch(op, q).await.map(drop)
        };
        self.timed(op, self.retrying(attempt)).await
    }

    async fn note_machine(
        &self,
        machine: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> memory_core::Result<()> {
        let op = "note_machine";
        let attempt = || async {
            let q = query(cypher::NOTE_MACHINE).param("name", machine).param("at", lease_time(at));
            self.fetch(op, q).await.map(drop)
        };
        self.timed(op, self.retrying(attempt)).await
    }

    async fn machines(&self) -> memory_core::Result<Vec<(String, chrono::DateTime<chrono::Utc>)>> {
        let op = "machines";
        self.timed(op, async {
            let mut out = Vec::new();
            for row in self.fetch(op, query(cypher::MACHINES)).await? {
                let last: String = get(op, &row, "last")?;
                let at = chrono::DateTime::parse_from_rfc3339(&last)
                    .map_err(|e| corrupt(op, &format!("machine time {last}: {e}")))?;
                out.push((get(op, &row, "name")?, at.to_utc()));
            }
            Ok(out)
        })
        .await
    }

    async fn lease(&self, name: &str) -> memory_core::Result<Option<memory_core::Lease>> {
        let op = "lease";
        self.timed(op, async {
            match self.fetch(op, query(cypher::GET_LEASE).param("name", name)).await?.first() {
                Some(row) => Ok(Some(lease_from(op, name, row)?)),
                None => Ok(None),
            }
        })
        .await
    }

    async fn commit(
        &self,
        changes: &[NoteChange],
        watermark: Option<&WatermarkAdvance>,
    ) -> memory_core::Result<()> {
        if changes.is_empty() && watermark.is_none() {
            return Ok(());
        }
        self.timed("commit", self.retrying(|| self.commit_once(changes, watermark))).await
    }
}
