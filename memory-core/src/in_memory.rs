//! A store that lives in memory: the reference model the conformance suite checks other stores
//! against, and a store for tests and examples.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, MutexGuard};

use crate::search::expand;
use crate::store::{
    Appended, Capabilities, EventHit, EventQuery, EventVectorHit, EventVectorQuery, ForgetSet, Forgotten,
    MemoryStore, NoteFilter, SearchHit, SearchQuery, SessionInfo, TextMatch, VectorHit, VectorQuery,
    WatermarkAdvance, cosine, same_content,
};
use crate::{
    Error, EventId, HookEvent, Lease, Note, NoteChange, NotePath, Result, Scope, SessionKey, StoredEvent,
};

/// A note's embeddings: the model that made them and the vectors.
type Embeddings = (String, Vec<Vec<f32>>);

#[derive(Debug, Default)]
struct State {
    events: Vec<StoredEvent>,
    by_id: BTreeMap<EventId, usize>,
    sessions: BTreeMap<SessionKey, Vec<usize>>,
    notes: BTreeMap<(Scope, NotePath), Note>,
    history: BTreeMap<(Scope, NotePath), Vec<Note>>,
    /// Each note's embeddings.
    embeddings: BTreeMap<(Scope, NotePath), Embeddings>,
    /// Each event's embeddings, by its index and the model that made them.
    event_embeddings: BTreeMap<(usize, String), Vec<f32>>,
    watermarks: BTreeMap<String, u64>,
    leases: BTreeMap<String, Lease>,
    machines: BTreeMap<String, chrono::DateTime<chrono::Utc>>,
    /// Events removed by a prune or a forget (their slots stay, so positions and seqs are never
    /// reused).
    pruned: BTreeSet<usize>,
    /// Sessions forgotten: gone from the listing until an event of theirs is appended again.
    forgotten: BTreeSet<SessionKey>,
}

/// An in-memory [`MemoryStore`]. Everything is lost when it is dropped.
#[derive(Debug, Default)]
pub struct InMemoryStore {
    state: Mutex<State>,
}

impl InMemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> Result<MutexGuard<'_, State>> {
        self.state.lock().map_err(|_| Error::backend("memory", "store lock poisoned by a panic", false))
    }
}

impl State {
    fn put(&mut self, note: &Note) {
        let key = (note.meta.scope.clone(), note.path.clone());
        match self.notes.get(&key) {
            Some(current) if current == note => {}
            Some(current) => {
                if !same_content(current, note) {
                    self.embeddings.remove(&key);
                }
                let previous = current.clone();
                self.history.entry(key.clone()).or_default().push(previous);
                self.notes.insert(key, note.clone());
            }
            None => {
                self.notes.insert(key, note.clone());
            }
        }
    }

    fn delete(&mut self, scope: &Scope, path: &NotePath) -> bool {
        let key = (scope.clone(), path.clone());
        self.history.remove(&key);
        self.embeddings.remove(&key);
        self.notes.remove(&key).is_some()
    }
}

#[async_trait::async_trait]
impl MemoryStore for InMemoryStore {
    fn name(&self) -> &'static str {
        "memory"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::new(true, true, false, false).with_vector_search()
    }

    async fn append(&self, events: &[HookEvent]) -> Result<Vec<Appended>> {
        let mut state = self.lock()?;
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            if let Some(&index) = state.by_id.get(&event.id) {
                let stored = &state.events[index];
                out.push(Appended {
                    id: event.id.clone(),
                    session: stored.event.session.clone(),
                    seq: stored.seq,
                    inserted: false,
                });
                continue;
            }
            let index = state.events.len();
            if state.forgotten.remove(&event.session) {
                state.sessions.remove(&event.session);
            }
            let seq = state.sessions.get(&event.session).map_or(0, Vec::len) as u64 + 1;
            let position = index as u64 + 1;
            state.events.push(StoredEvent { seq, position, event: event.clone() });
            state.by_id.insert(event.id.clone(), index);
            state.sessions.entry(event.session.clone()).or_default().push(index);
            out.push(Appended { id: event.id.clone(), session: event.session.clone(), seq, inserted: true });
        }
        Ok(out)
    }

    async fn timeline(&self, session: &SessionKey, after_seq: u64, limit: usize) -> Result<Vec<StoredEvent>> {
        let state = self.lock()?;
        let Some(indexes) = state.sessions.get(session) else { return Ok(Vec::new()) };
        Ok(indexes
            .iter()
            .filter(|i| !state.pruned.contains(i))
            .map(|&i| &state.events[i])
            .filter(|e| e.seq > after_seq)
            .take(limit)
            .cloned()
            .collect())
    }

    async fn sessions(&self) -> Result<Vec<SessionInfo>> {
        let state = self.lock()?;
        let mut out: Vec<SessionInfo> = state
            .sessions
            .iter()
            .filter(|(key, _)| !state.forgotten.contains(*key))
            .map(|(key, indexes)| {
                let events: Vec<&HookEvent> = indexes.iter().map(|&i| &state.events[i].event).collect();
                SessionInfo {
                    key: key.clone(),
                    harness: events[0].harness.name.clone(),
                    project: events.iter().find_map(|e| e.project.clone()),
                    owner: events.iter().find_map(|e| e.owner.clone()),
                    started_at: events.iter().map(|e| e.occurred_at).min().unwrap_or_default(),
                    last_at: events.iter().map(|e| e.occurred_at).max().unwrap_or_default(),
                    events: events.len() as u64,
                }
            })
            .collect();
        out.sort_by(|a, b| b.last_at.cmp(&a.last_at).then_with(|| a.key.cmp(&b.key)));
        Ok(out)
    }

    async fn events_after(&self, after: u64, limit: usize) -> Result<Vec<StoredEvent>> {
        let state = self.lock()?;
        let start = usize::try_from(after).unwrap_or(usize::MAX).min(state.events.len());
        Ok(state.events[start..]
            .iter()
            .enumerate()
            .filter(|(i, _)| !state.pruned.contains(&(start + i)))
            .map(|(_, e)| e.clone())
            .take(limit)
            .collect())
    }

    async fn events_by_id(&self, ids: &[EventId]) -> Result<Vec<StoredEvent>> {
        let state = self.lock()?;
        Ok(ids.iter().filter_map(|id| state.by_id.get(id)).map(|&i| state.events[i].clone()).collect())
    }

    async fn get_note(&self, scope: &Scope, path: &NotePath) -> Result<Option<Note>> {
        Ok(self.lock()?.notes.get(&(scope.clone(), path.clone())).cloned())
    }

    async fn note_history(&self, scope: &Scope, path: &NotePath) -> Result<Vec<Note>> {
        Ok(self.lock()?.history.get(&(scope.clone(), path.clone())).cloned().unwrap_or_default())
    }

    async fn list_notes(&self, filter: &NoteFilter) -> Result<Vec<Note>> {
        let state = self.lock()?;
        Ok(state.notes.iter().filter(|((s, p), _)| filter.matches(s, p)).map(|(_, n)| n.clone()).collect())
    }

    async fn delete_note(&self, scope: &Scope, path: &NotePath) -> Result<bool> {
        Ok(self.lock()?.delete(scope, path))
    }

    async fn search_notes(&self, query: &SearchQuery) -> Result<Vec<SearchHit>> {
        let wanted = expand(&query.text);
        if wanted.is_empty() || query.limit == 0 {
            return Ok(Vec::new());
        }
        let state = self.lock()?;
        let notes: Vec<&Note> = state
            .notes
            .iter()
            .filter(|((scope, _), _)| query.scopes.is_empty() || query.scopes.contains(scope))
            .map(|(_, note)| note)
            .collect();
        let docs: Vec<Vec<String>> =
            notes.iter().map(|note| crate::search::words(&crate::search::indexed_text(note))).collect();
        let mut hits: Vec<SearchHit> = notes
            .iter()
            .zip(crate::search::bm25(&docs, &wanted))
            .filter_map(|(note, found)| {
                let (score, _) = found?;
                Some(SearchHit {
                    note: (*note).clone(),
                    score,
                    matched_terms: crate::search::matched_terms(note, &wanted).max(1),
                })
            })
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.note.meta.scope.cmp(&b.note.meta.scope))
                .then_with(|| a.note.path.cmp(&b.note.path))
        });
        hits.truncate(query.limit);
        Ok(hits)
    }

    async fn watermark(&self, name: &str) -> Result<Option<u64>> {
        Ok(self.lock()?.watermarks.get(name).copied())
    }

    async fn watermarks(&self) -> Result<Vec<(String, u64)>> {
        Ok(self.lock()?.watermarks.iter().map(|(k, v)| (k.clone(), *v)).collect())
    }

    async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        until: chrono::DateTime<chrono::Utc>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Lease> {
        let mut state = self.lock()?;
        let lease = state.leases.entry(name.to_owned()).or_insert_with(|| Lease {
            name: name.to_owned(),
            holder: holder.to_owned(),
            until,
        });
        if lease.holder == holder || lease.until < now {
            lease.holder = holder.to_owned();
            lease.until = until;
        }
        Ok(lease.clone())
    }

    async fn release_lease(&self, name: &str, holder: &str) -> Result<()> {
        let mut state = self.lock()?;
        if state.leases.get(name).is_some_and(|l| l.holder == holder) {
            state.leases.remove(name);
        }
        Ok(())
    }

    async fn lease(&self, name: &str) -> Result<Option<Lease>> {
        Ok(self.lock()?.leases.get(name).cloned())
    }

    async fn note_machine(&self, machine: &str, at: chrono::DateTime<chrono::Utc>) -> Result<()> {
        let mut state = self.lock()?;
        let last = state.machines.entry(machine.to_owned()).or_insert(at);
        *last = (*last).max(at);
        Ok(())
    }

    async fn machines(&self) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>> {
        let mut out: Vec<_> = self.lock()?.machines.iter().map(|(m, at)| (m.clone(), *at)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(out)
    }

    async fn commit(&self, changes: &[NoteChange], watermark: Option<&WatermarkAdvance>) -> Result<()> {
        let mut state = self.lock()?;
        for change in changes {
            match change {
                NoteChange::Put(note) => state.put(note),
                NoteChange::Delete { scope, path } => {
                    state.delete(scope, path);
                }
            }
        }
        if let Some(mark) = watermark {
            state.watermarks.insert(mark.name.clone(), mark.position);
        }
        Ok(())
    }

    async fn put_embeddings(&self, note: &Note, model: &str, vectors: &[Vec<f32>]) -> Result<bool> {
        let mut state = self.lock()?;
        let key = (note.meta.scope.clone(), note.path.clone());
        match state.notes.get(&key) {
            Some(current) if same_content(current, note) => {
                state.embeddings.insert(key, (model.to_owned(), vectors.to_vec()));
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn note_embeddings(&self, model: &str, notes: &[Note]) -> Result<Vec<Vec<Vec<f32>>>> {
        let state = self.lock()?;
        Ok(notes
            .iter()
            .map(|note| match state.embeddings.get(&(note.meta.scope.clone(), note.path.clone())) {
                Some((m, vectors)) if m == model => vectors.clone(),
                _ => Vec::new(),
            })
            .collect())
    }

    async fn notes_without_embeddings(&self, model: &str, limit: usize) -> Result<Vec<Note>> {
        let state = self.lock()?;
        Ok(state
            .notes
            .iter()
            .filter(|(key, _)| state.embeddings.get(*key).is_none_or(|(m, _)| m != model))
            .map(|(_, note)| note.clone())
            .take(limit)
            .collect())
    }

    async fn search_embeddings(&self, query: &VectorQuery) -> Result<Vec<VectorHit>> {
        let state = self.lock()?;
        let mut hits: Vec<VectorHit> = state
            .embeddings
            .iter()
            .filter(|((scope, _), (model, _))| {
                *model == query.model && (query.scopes.is_empty() || query.scopes.contains(scope))
            })
            .filter_map(|(key, (_, vectors))| {
                let (passage, similarity) = vectors
                    .iter()
                    .map(|v| cosine(v, &query.vector))
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))?;
                Some(VectorHit { note: state.notes.get(key)?.clone(), similarity, passage })
            })
            .collect();
        hits.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
        hits.truncate(query.limit);
        Ok(hits)
    }

    async fn put_event_embeddings(&self, model: &str, vectors: &[(u64, Vec<f32>)]) -> Result<usize> {
        let mut state = self.lock()?;
        let mut kept = 0;
        for (position, vector) in vectors {
            let Some(i) = (*position as usize).checked_sub(1) else { continue };
            if i < state.events.len() && !state.pruned.contains(&i) {
                state.event_embeddings.insert((i, model.to_owned()), vector.clone());
                kept += 1;
            }
        }
        Ok(kept)
    }

    async fn search_event_embeddings(&self, query: &EventVectorQuery) -> Result<Vec<EventVectorHit>> {
        let state = self.lock()?;
        let mut hits: Vec<EventVectorHit> = state
            .event_embeddings
            .iter()
            .filter(|((i, model), vector)| {
                *model == query.model
                    && !vector.is_empty()
                    && !state.pruned.contains(i)
                    && query.filter.matches(&state.events[*i].event)
            })
            .map(|((i, _), vector)| EventVectorHit {
                event: state.events[*i].clone(),
                similarity: cosine(vector, &query.vector),
            })
            .collect();
        hits.sort_by(|a, b| {
            b.similarity.total_cmp(&a.similarity).then(b.event.position.cmp(&a.event.position))
        });
        hits.truncate(query.limit);
        Ok(hits)
    }

    async fn search_events(&self, query: &EventQuery) -> Result<Vec<EventHit>> {
        let state = self.lock()?;
        let live: Vec<&StoredEvent> = state
            .events
            .iter()
            .enumerate()
            .rev()
            .filter(|(i, e)| !state.pruned.contains(i) && query.filter.matches(&e.event))
            .map(|(_, e)| e)
            .collect();
        let mut hits: Vec<EventHit> = match (&query.text, query.matching) {
            (None, _) => {
                live.iter().map(|e| EventHit { event: (*e).clone(), score: 0.0, matched_terms: 0 }).collect()
            }
            (Some(text), TextMatch::Phrase) => {
                let phrase = crate::search::words(text);
                live.iter()
                    .filter(|e| crate::search::event_matched(&e.event, &[], &phrase) > 0)
                    .map(|e| EventHit { event: (*e).clone(), score: 1.0, matched_terms: phrase.len() })
                    .collect()
            }
            (Some(text), TextMatch::Any) => {
                let wanted = expand(text);
                let docs: Vec<Vec<String>> =
                    live.iter().map(|e| crate::search::words(&crate::search::event_text(&e.event))).collect();
                let mut hits: Vec<EventHit> = crate::search::bm25(&docs, &wanted)
                    .into_iter()
                    .zip(&live)
                    .filter_map(|(rank, e)| {
                        rank.map(|(score, matched)| EventHit {
                            event: (*e).clone(),
                            score,
                            matched_terms: matched,
                        })
                    })
                    .collect();
                hits.sort_by(|a, b| {
                    b.score.total_cmp(&a.score).then(b.event.position.cmp(&a.event.position))
                });
                hits
            }
        };
        hits.truncate(query.limit);
        Ok(hits)
    }

    async fn forget(&self, what: &ForgetSet) -> Result<Forgotten> {
        let mut state = self.lock()?;
        let state = &mut *state;
        let mut forgotten = Forgotten::default();
        let mut gone: BTreeSet<usize> =
            what.events.iter().filter_map(|id| state.by_id.get(id).copied()).collect();
        for key in &what.sessions {
            if let Some(indexes) = state.sessions.get(key)
                && !state.forgotten.contains(key)
            {
                gone.extend(indexes.iter().copied().filter(|i| !state.pruned.contains(i)));
                state.forgotten.insert(key.clone());
                forgotten.sessions += 1;
            }
        }
        for i in gone {
            state.event_embeddings.retain(|(at, _), _| *at != i);
            if state.pruned.insert(i) {
                state.by_id.remove(&state.events[i].event.id);
                forgotten.events += 1;
            }
        }
        for (scope, path) in &what.notes {
            if state.delete(scope, path) {
                forgotten.notes += 1;
            }
        }
        Ok(forgotten)
    }
}
