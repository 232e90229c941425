//! The conformance suite: the behaviour every [`MemoryStore`] must have.
//!
//! Each check panics with a message naming the broken rule. Every check names its own sessions,
//! scopes, paths and watermarks with a unique suffix, so the suite may run against a store that
//! already holds data, and checks may run in any order. Optional behaviour is checked only when
//! [`MemoryStore::capabilities`] declares it.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use memory_core::{
    Appended, Error, EventFilter, EventId, EventQuery, EventVectorQuery, ForgetSet, Forgotten, HookEvent,
    MemoryStore, NoteChange, NoteFilter, Scope, SearchQuery, SessionKey, StoredEvent, VectorQuery,
    WatermarkAdvance,
};

use crate::fixtures::{event, event_id, note, path, project_scope, session, unique};

/// Runs every check of the suite, in order, then [`crate::hostile_search`].
pub async fn run_conformance(store: &dyn MemoryStore) {
    append_assigns_gap_free_seqs(store).await;
    append_is_idempotent(store).await;
    distinct_events_never_collide(store).await;
    timeline_orders_and_pages(store).await;
    sessions_are_listed(store).await;
    events_after_pages_by_position(store).await;
    events_by_id_finds_stored_events(store).await;
    notes_put_get_list(store).await;
    identical_put_changes_nothing(store).await;
    put_keeps_history(store).await;
    delete_removes_note_and_history(store).await;
    search_ranks_and_respects_scopes(store).await;
    search_without_terms_returns_nothing(store).await;
    search_finds_inflections_and_abbreviations(store).await;
    embeddings_follow_their_note(store).await;
    event_embeddings_follow_their_event(store).await;
    watermarks_round_trip(store).await;
    commit_applies_changes_and_watermark(store).await;
    prune_removes_an_old_distilled_prefix_of_each_session(store).await;
    search_events_ranks_filters_and_matches_phrases(store).await;
    events_keep_their_owner_and_filter_by_it(store).await;
    forget_removes_events_sessions_and_notes(store).await;
    leases_are_single_flight(store).await;
    machines_are_listed_with_their_latest_write(store).await;
    crate::hostile_search(store).await;
}

fn ok<T>(result: memory_core::Result<T>, what: &str) -> T {
    result.unwrap_or_else(|e| panic!("{what} failed: {e}"))
}

/// Appending a session's events assigns seqs 1, 2, 3… in order, across several calls.
pub async fn append_assigns_gap_free_seqs(store: &dyn MemoryStore) {
    let key = session("seqs");
    let first: Vec<_> = (0..3).map(|i| event(&key, &format!("e{i}"), i)).collect();
    let appended = ok(store.append(&first).await, "append");
    let seqs: Vec<u64> = appended.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, [1, 2, 3], "first batch must get seqs 1..=3");
    assert!(appended.iter().all(|a| a.inserted), "fresh events must be reported inserted");
    for (a, e) in appended.iter().zip(&first) {
        assert_eq!((&a.id, &a.session), (&e.id, &e.session), "append results follow input order");
    }
    let second: Vec<_> = (3..5).map(|i| event(&key, &format!("e{i}"), i)).collect();
    let appended = ok(store.append(&second).await, "append");
    assert_eq!(appended.iter().map(|a| a.seq).collect::<Vec<_>>(), [4, 5], "seqs continue across calls");
    assert!(ok(store.append(&[]).await, "append of nothing").is_empty(), "empty append returns nothing");
}

/// The same id appended twice is stored once; the repeat reports `inserted: false` and its seq.
pub async fn append_is_idempotent(store: &dyn MemoryStore) {
    let key = session("idem");
    let a = event(&key, "a", 0);
    let b = event(&key, "b", 1);
    let first = ok(store.append(&[a.clone(), b.clone()]).await, "append");
    let again = ok(store.append(&[b.clone(), a.clone()]).await, "append again");
    let expected = vec![
        Appended { id: b.id.clone(), session: key.clone(), seq: first[1].seq, inserted: false },
        Appended { id: a.id.clone(), session: key.clone(), seq: first[0].seq, inserted: false },
    ];
    assert_eq!(again, expected, "redelivered events are reported with their existing seqs");
    let c = event(&key, "c", 2);
    let mixed = ok(store.append(&[c.clone(), c.clone(), a.clone()]).await, "append with a repeat");
    assert_eq!(
        mixed.iter().map(|x| (x.seq, x.inserted)).collect::<Vec<_>>(),
        [(3, true), (3, false), (1, false)],
        "a repeat inside one batch is stored once"
    );
    let timeline = ok(store.timeline(&key, 0, 100).await, "timeline");
    let ids: Vec<&EventId> = timeline.iter().map(|e| &e.event.id).collect();
    assert_eq!(ids, [&a.id, &b.id, &c.id], "each event is stored exactly once");
}

/// Events that differ only in id get distinct seqs and are all stored.
pub async fn distinct_events_never_collide(store: &dyn MemoryStore) {
    let key = session("distinct");
    let template = event(&key, "same", 0);
    let events: Vec<_> = (0..20)
        .map(|i| {
            let mut e = template.clone();
            e.id = event_id(&format!("{key}/distinct/{i}"));
            e
        })
        .collect();
    let appended = ok(store.append(&events).await, "append");
    assert!(appended.iter().all(|a| a.inserted), "distinct ids are all inserted");
    assert_eq!(appended.iter().map(|a| a.seq).collect::<Vec<_>>(), (1..=20).collect::<Vec<_>>());
    let stored =
        ok(store.events_by_id(&events.iter().map(|e| e.id.clone()).collect::<Vec<_>>()).await, "by id");
    assert_eq!(stored.len(), 20, "every distinct event can be found");
    let positions: BTreeSet<u64> = stored.iter().map(|s| s.position).collect();
    assert_eq!(positions.len(), 20, "distinct events have distinct positions");
}

/// A timeline lists a session's events in seq order, honours `after_seq` and `limit`, and returns
/// events exactly as appended.
pub async fn timeline_orders_and_pages(store: &dyn MemoryStore) {
    let key = session("timeline");
    let other = session("timeline-other");
    let mut events = Vec::new();
    for i in 0..6 {
        let mut e = event(&key, &format!("t{i}"), 100 - i);
        e.cwd = Some("/work/acme".to_owned());
        e.project = Some("acme".to_owned());
        events.push(e);
        events.push(event(&other, &format!("o{i}"), i));
    }
    ok(store.append(&events).await, "append");
    let mine: Vec<_> = events.iter().filter(|e| e.session == key).cloned().collect();
    let all = ok(store.timeline(&key, 0, 100).await, "timeline");
    assert_eq!(all.iter().map(|s| s.seq).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6], "seq order");
    assert_eq!(all.iter().map(|s| s.event.clone()).collect::<Vec<_>>(), mine, "events round-trip unchanged");
    let page = ok(store.timeline(&key, 2, 3).await, "timeline page");
    assert_eq!(page.iter().map(|s| s.seq).collect::<Vec<_>>(), [3, 4, 5], "after_seq and limit");
    assert!(ok(store.timeline(&key, 6, 10).await, "timeline").is_empty(), "nothing after the last seq");
    assert!(ok(store.timeline(&key, 0, 0).await, "timeline").is_empty(), "limit 0 returns nothing");
    let missing = SessionKey::new("test", &unique("missing"));
    assert!(ok(store.timeline(&missing, 0, 10).await, "timeline").is_empty(), "unknown session is empty");
    let positions: Vec<u64> = all.iter().map(|s| s.position).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "positions grow with seq within a session");
}

/// Sessions are listed with harness, project, times and counts, most recently active first.
pub async fn sessions_are_listed(store: &dyn MemoryStore) {
    let older = SessionKey::new("claude", &unique("older"));
    let newer = SessionKey::new("codex", &unique("newer"));
    let mut first = event(&older, "a", 10);
    first.harness.name = "claude".to_owned();
    let mut second = event(&older, "b", 20);
    second.harness.name = "claude".to_owned();
    second.project = Some("acme".to_owned());
    let mut third = event(&older, "c", 15);
    third.harness.name = "claude".to_owned();
    third.project = Some("other".to_owned());
    let mut fourth = event(&newer, "d", 500);
    fourth.harness.name = "codex".to_owned();
    ok(store.append(&[first.clone(), second.clone(), third, fourth.clone()]).await, "append");
    let listed: Vec<_> = ok(store.sessions().await, "sessions")
        .into_iter()
        .filter(|s| s.key == older || s.key == newer)
        .collect();
    assert_eq!(listed.len(), 2, "both sessions are listed");
    assert_eq!(listed[0].key, newer, "the most recently active session comes first");
    let (n, o) = (&listed[0], &listed[1]);
    assert_eq!((n.harness.as_str(), n.project.as_deref(), n.events), ("codex", None, 1));
    assert_eq!((n.started_at, n.last_at), (fourth.occurred_at, fourth.occurred_at));
    assert_eq!(o.harness, "claude");
    assert_eq!(o.project.as_deref(), Some("acme"), "project of the first event that had one");
    assert_eq!(o.events, 3, "event count");
    assert_eq!(o.started_at, first.occurred_at, "started_at is the earliest event time");
    assert_eq!(o.last_at, second.occurred_at, "last_at is the latest event time");
    let acme = ok(store.project_sessions("acme", 100).await, "project_sessions");
    assert!(acme.iter().any(|s| s.key == older), "a session is listed under its project");
    assert!(
        acme.iter().all(|s| s.project.as_deref() == Some("acme")),
        "and only the project's sessions: {acme:?}"
    );
    assert!(acme.windows(2).all(|w| w[0].last_at >= w[1].last_at), "most recently active first");
    assert!(
        !ok(store.project_sessions("other", 100).await, "project_sessions").iter().any(|s| s.key == older)
    );
    assert!(ok(store.project_sessions("acme", 0).await, "project_sessions").is_empty(), "limit 0 lists none");
    ok(store.append(&[first]).await, "redelivery");
    let again = ok(store.sessions().await, "sessions");
    let o = again.iter().find(|s| s.key == older).expect("session still listed");
    assert_eq!(o.events, 3, "a redelivery does not change the count");
}

async fn own_positions(store: &dyn MemoryStore, ids: &[EventId]) -> Vec<StoredEvent> {
    let mut stored = ok(store.events_by_id(ids).await, "events_by_id");
    stored.sort_by_key(|s| s.position);
    stored
}

/// `events_after` pages through events in strictly increasing position, in append order.
pub async fn events_after_pages_by_position(store: &dyn MemoryStore) {
    let a = session("after-a");
    let b = session("after-b");
    let events: Vec<_> =
        (0..9).map(|i| event(if i % 2 == 0 { &a } else { &b }, &format!("p{i}"), i)).collect();
    ok(store.append(&events).await, "append");
    let ids: Vec<EventId> = events.iter().map(|e| e.id.clone()).collect();
    let stored = own_positions(store, &ids).await;
    let in_order: Vec<&EventId> = stored.iter().map(|s| &s.event.id).collect();
    assert_eq!(in_order, ids.iter().collect::<Vec<_>>(), "positions follow append order");
    let last = stored.last().map_or(0, |s| s.position);
    let mut cursor = stored[0].position - 1;
    let mut seen = Vec::new();
    loop {
        let page = ok(store.events_after(cursor, 2).await, "events_after");
        assert!(page.len() <= 2, "limit is honoured");
        if page.is_empty() {
            break;
        }
        for s in &page {
            assert!(s.position > cursor, "positions strictly increase across pages");
            cursor = s.position;
            if ids.contains(&s.event.id) {
                seen.push(s.clone());
            }
        }
        if cursor >= last {
            break;
        }
    }
    assert_eq!(seen, stored, "paging visits every event once, as events_by_id reports it");
    let from_third = ok(store.events_after(stored[2].position, 1).await, "events_after");
    assert!(from_third[0].position > stored[2].position, "after is exclusive");
    assert!(ok(store.events_after(0, 0).await, "events_after").is_empty(), "limit 0 returns nothing");
}

/// `events_by_id` returns stored events and leaves unknown ids out.
pub async fn events_by_id_finds_stored_events(store: &dyn MemoryStore) {
    let key = session("byid");
    let events: Vec<_> = (0..3).map(|i| event(&key, &format!("b{i}"), i)).collect();
    ok(store.append(&events).await, "append");
    let unknown = event_id(&unique("unknown"));
    let found = ok(store.events_by_id(&[events[2].id.clone(), unknown, events[0].id.clone()]).await, "by id");
    let mut got: Vec<(u64, EventId)> = found.iter().map(|s| (s.seq, s.event.id.clone())).collect();
    got.sort();
    assert_eq!(got, [(1, events[0].id.clone()), (3, events[2].id.clone())], "unknown ids are left out");
    assert!(found.iter().all(|s| events.contains(&s.event)), "events come back unchanged");
    assert!(ok(store.events_by_id(&[]).await, "by id").is_empty());
}

/// Notes can be put, read back unchanged and listed by scope and prefix, ordered by scope then path.
pub async fn notes_put_get_list(store: &dyn MemoryStore) {
    let scope = project_scope("notes");
    let other = project_scope("notes-other");
    let notes = [
        note(&scope, "tools/cargo/test-flags.md", "Cargo test flags", &["cargo"], "Use --workspace.\n"),
        note(&scope, "profile/role.md", "Role", &[], "---\nnot frontmatter\r\n---\n\nbody ✓ 日本語\n"),
        note(&scope, "tools/git.md", "Git", &["git", "vcs"], ""),
        note(&other, "tools/cargo/test-flags.md", "Other scope", &[], "other\n"),
    ];
    for n in &notes {
        ok(store.put_note(n).await, "put_note");
    }
    for n in &notes {
        let got = ok(store.get_note(&n.meta.scope, &n.path).await, "get_note");
        assert_eq!(got.as_ref(), Some(n), "a note reads back exactly as written");
    }
    let missing = ok(store.get_note(&scope, &path("nothing/here.md")).await, "get_note");
    assert_eq!(missing, None, "a missing note is None");
    let listed = ok(store.list_notes(&NoteFilter::scope(scope.clone())).await, "list_notes");
    let paths: Vec<&str> = listed.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["profile/role.md", "tools/cargo/test-flags.md", "tools/git.md"], "one scope, by path");
    let tools = NoteFilter { scope: Some(scope.clone()), prefix: Some("tools/".to_owned()) };
    let listed = ok(store.list_notes(&tools).await, "list_notes");
    let paths: Vec<&str> = listed.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["tools/cargo/test-flags.md", "tools/git.md"], "prefix filter");
    let by_prefix = NoteFilter { scope: None, prefix: Some("tools/cargo/".to_owned()) };
    let listed: Vec<_> = ok(store.list_notes(&by_prefix).await, "list_notes")
        .into_iter()
        .filter(|n| n.meta.scope == scope || n.meta.scope == other)
        .collect();
    assert_eq!(listed.len(), 2, "a prefix without a scope lists every scope");
    let mut expected = vec![listed[0].meta.scope.clone(), listed[1].meta.scope.clone()];
    expected.sort();
    assert_eq!(vec![listed[0].meta.scope.clone(), listed[1].meta.scope.clone()], expected, "scope order");
    let all = ok(store.list_notes(&NoteFilter::all()).await, "list_notes");
    let keys: Vec<(Scope, String)> =
        all.iter().map(|n| (n.meta.scope.clone(), n.path.as_str().to_owned())).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "every note listed once, by scope then path");
    assert!(notes.iter().all(|n| all.contains(n)), "listing every scope includes every note");
}

/// Putting a note identical to the current version changes nothing: no history entry.
pub async fn identical_put_changes_nothing(store: &dyn MemoryStore) {
    let scope = project_scope("same");
    let n = note(&scope, "facts/same.md", "Same", &["x1"], "same body\n");
    ok(store.put_note(&n).await, "put_note");
    ok(store.put_note(&n).await, "put_note again");
    ok(store.commit(&[NoteChange::Put(n.clone())], None).await, "commit of the same note");
    assert_eq!(ok(store.get_note(&scope, &n.path).await, "get_note"), Some(n.clone()));
    if store.capabilities().note_history {
        assert!(ok(store.note_history(&scope, &n.path).await, "history").is_empty(), "no history entry");
    }
}

/// Replacing a note keeps the previous versions in its history, oldest first.
pub async fn put_keeps_history(store: &dyn MemoryStore) {
    if !store.capabilities().note_history {
        return;
    }
    let scope = project_scope("history");
    let v1 = note(&scope, "facts/versions.md", "Versions", &[], "one\n");
    let mut v2 = v1.clone();
    v2.body = "two\n".to_owned();
    let mut v3 = v2.clone();
    v3.meta.title = "Versions, third".to_owned();
    for v in [&v1, &v2, &v3] {
        ok(store.put_note(v).await, "put_note");
    }
    assert_eq!(ok(store.get_note(&scope, &v1.path).await, "get_note"), Some(v3.clone()));
    let history = ok(store.note_history(&scope, &v1.path).await, "history");
    assert_eq!(history, vec![v1.clone(), v2.clone()], "previous versions, oldest first");
    let unrelated = ok(store.note_history(&scope, &path("facts/other.md")).await, "history");
    assert!(unrelated.is_empty(), "a note never written has no history");
}

/// Deleting a note removes it and its history; a second delete reports `false`.
pub async fn delete_removes_note_and_history(store: &dyn MemoryStore) {
    let scope = project_scope("delete");
    let n = note(&scope, "facts/gone.md", "Gone", &[], "first\n");
    let mut n2 = n.clone();
    n2.body = "second\n".to_owned();
    ok(store.put_note(&n).await, "put_note");
    ok(store.put_note(&n2).await, "put_note");
    let keep = note(&scope, "facts/kept.md", "Kept", &[], "kept\n");
    ok(store.put_note(&keep).await, "put_note");
    assert!(ok(store.delete_note(&scope, &n.path).await, "delete"), "deleting an existing note is true");
    assert_eq!(ok(store.get_note(&scope, &n.path).await, "get_note"), None, "the note is gone");
    if store.capabilities().note_history {
        assert!(ok(store.note_history(&scope, &n.path).await, "history").is_empty(), "history is gone");
    }
    assert!(!ok(store.delete_note(&scope, &n.path).await, "delete"), "a second delete is false");
    let listed = ok(store.list_notes(&NoteFilter::scope(scope.clone())).await, "list");
    assert_eq!(listed, vec![keep.clone()], "other notes stay");
    ok(store.put_note(&n).await, "put_note after delete");
    if store.capabilities().note_history {
        let history = ok(store.note_history(&scope, &n.path).await, "history");
        assert!(history.is_empty(), "a recreated note starts without history");
    }
    if store.capabilities().full_text_search {
        let hits =
            ok(store.search_notes(&SearchQuery::new("second", vec![scope.clone()], 10)).await, "search");
        assert!(hits.is_empty(), "a deleted version is not found by search");
    }
}

/// Embeddings are kept for a note's current version only, found by similarity (a note by its
/// closest vector, in the asked scopes, by the asked model), and dropped when the note changes
/// or is deleted.
pub async fn embeddings_follow_their_note(store: &dyn MemoryStore) {
    if !store.capabilities().vector_search {
        return;
    }
    let scope = project_scope("vectors");
    let other = project_scope("vectors-other");
    let model = format!("test-model-{}", unique("m"));
    let a = note(&scope, "notes/a.md", "A", &[], "about deploys\n");
    let b = note(&scope, "notes/b.md", "B", &[], "about tests\n");
    let elsewhere = note(&other, "notes/a.md", "A", &[], "about deploys\n");
    for n in [&a, &b, &elsewhere] {
        ok(store.put_note(n).await, "put_note");
    }
    let missing = ok(store.notes_without_embeddings(&model, 1000).await, "notes_without_embeddings");
    assert!(missing.iter().any(|n| n == &a) && missing.iter().any(|n| n == &b), "new notes wait for vectors");
    assert!(ok(store.put_embeddings(&a, &model, &[vec![1.0, 0.0, 0.0], vec![0.0, 0.0, 1.0]]).await, "put"));
    assert!(ok(store.put_embeddings(&b, &model, &[vec![0.6, 0.8, 0.0]]).await, "put"));
    assert!(ok(store.put_embeddings(&elsewhere, &model, &[vec![1.0, 0.0, 0.0]]).await, "put"));
    let missing = ok(store.notes_without_embeddings(&model, 1000).await, "notes_without_embeddings");
    assert!(!missing.iter().any(|n| n == &a || n == &b), "embedded notes are not missing");
    let unknown = note(&scope, "notes/none.md", "None", &[], "never stored\n");
    let back = ok(store.note_embeddings(&model, &[b.clone(), a.clone(), unknown]).await, "note_embeddings");
    let put: [&[Vec<f32>]; 2] = [&[vec![0.6, 0.8, 0.0]], &[vec![1.0, 0.0, 0.0], vec![0.0, 0.0, 1.0]]];
    assert_eq!(back.len(), 3, "one list per asked note");
    for (got, want) in back.iter().zip(put) {
        assert_eq!(got.len(), want.len(), "every passage's vector, in order: {back:?}");
        for (g, w) in got.iter().zip(want) {
            assert!(memory_core::cosine(g, w) > 0.999, "the stored direction comes back: {g:?} vs {w:?}");
        }
    }
    assert!(back[2].is_empty(), "a note not stored has none");
    let other_model =
        ok(store.note_embeddings("another-model", std::slice::from_ref(&a)).await, "note_embeddings");
    assert_eq!(other_model, vec![Vec::<Vec<f32>>::new()], "only the asked model's");
    let ask = |vector: Vec<f32>, limit| VectorQuery {
        model: model.clone(),
        vector,
        scopes: vec![scope.clone()],
        limit,
    };
    let hits = ok(store.search_embeddings(&ask(vec![0.0, 0.1, 1.0], 10)).await, "search_embeddings");
    let paths: Vec<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
    assert_eq!(
        paths,
        ["notes/a.md", "notes/b.md"],
        "a note counts by its closest vector, only the asked scope"
    );
    assert!((hits[0].similarity - 0.995).abs() < 0.01, "cosine similarity: {}", hits[0].similarity);
    assert_eq!(hits[0].note, a, "hits carry the current note");
    assert_eq!((hits[0].passage, hits[1].passage), (1, 0), "and which of its vectors is closest");
    assert_eq!(ok(store.search_embeddings(&ask(vec![1.0, 0.0, 0.0], 1)).await, "search").len(), 1, "limit");
    // A vector still being made finds what the made one finds, whenever it arrives; none, nothing.
    for delay in [Duration::ZERO, Duration::from_millis(30)] {
        let later = Later::after(vec![0.0, 0.1, 1.0], delay);
        let pending =
            ok(store.search_embeddings_pending(&ask(Vec::new(), 10), Box::new(later)).await, "pending");
        assert_eq!(pending, hits, "a vector ready after {delay:?} gives the same hits");
    }
    let never = Later { vector: None, ready_at: Instant::now() };
    let none = ok(store.search_embeddings_pending(&ask(Vec::new(), 10), Box::new(never)).await, "pending");
    assert!(none.is_empty(), "no vector, no hits: {none:?}");
    let other_model = VectorQuery { model: "another-model".to_owned(), ..ask(vec![1.0, 0.0, 0.0], 10) };
    assert!(ok(store.search_embeddings(&other_model).await, "search").is_empty(), "only the asked model");

    let changed = note(&scope, "notes/a.md", "A", &[], "about deploys, changed\n");
    ok(store.put_note(&changed).await, "put_note");
    let hits = ok(store.search_embeddings(&ask(vec![1.0, 0.0, 0.0], 10)).await, "search");
    assert!(hits.iter().all(|h| h.note.path.as_str() != "notes/a.md"), "a changed note's vectors are gone");
    assert!(
        !ok(store.put_embeddings(&a, &model, &[vec![1.0, 0.0, 0.0]]).await, "put"),
        "an old version is refused"
    );
    let missing = ok(store.notes_without_embeddings(&model, 1000).await, "notes_without_embeddings");
    assert!(missing.iter().any(|n| n == &changed), "the changed note waits for vectors again");
    ok(store.delete_note(&scope, &b.path).await, "delete_note");
    let hits = ok(store.search_embeddings(&ask(vec![0.6, 0.8, 0.0], 10)).await, "search");
    assert!(hits.is_empty(), "a deleted note's vectors are gone: {hits:?}");
}

/// Events' embeddings: kept per model for stored events only, searched closest first within the
/// filter (session, project), an event with an empty vector never found, a vector put again
/// replacing the old one, and a forgotten event's vector gone with it.
pub async fn event_embeddings_follow_their_event(store: &dyn MemoryStore) {
    if !store.capabilities().vector_search {
        return;
    }
    let model = format!("test-model-{}", unique("m"));
    let project = unique("vecproj");
    let p = Some(project.as_str());
    let (a, b) = (session("event-vectors-a"), session("event-vectors-b"));
    let events = [
        said(&a, "v1", 1, "the deploy failed on the missing secret", p),
        said(&a, "v2", 2, "we added the secret to the vault", p),
        said(&a, "v3", 3, "ok", p),
        said(&b, "v4", 4, "the deploy failed again elsewhere", None),
    ];
    ok(store.append(&events).await, "append");
    let ids: Vec<EventId> = events.iter().map(|e| e.id.clone()).collect();
    let stored = own_positions(store, &ids).await;
    let at = |i: usize| stored[i].position;
    let vectors = [
        (at(0), vec![1.0, 0.0, 0.0]),
        (at(1), vec![0.6, 0.8, 0.0]),
        (at(2), Vec::new()),
        (at(3), vec![1.0, 0.0, 0.0]),
        (u64::MAX / 2, vec![1.0, 0.0, 0.0]),
    ];
    let kept = ok(store.put_event_embeddings(&model, &vectors).await, "put_event_embeddings");
    assert_eq!(kept, 4, "every stored event's vector is kept, an unknown position's not");
    let ask = |vector: Vec<f32>, filter: EventFilter, limit| EventVectorQuery {
        model: model.clone(),
        vector,
        filter,
        limit,
    };
    let in_project = EventFilter { project: Some(project.clone()), ..EventFilter::all() };
    let found = |hits: &[memory_core::EventVectorHit]| -> Vec<EventId> {
        hits.iter().map(|h| h.event.event.id.clone()).collect()
    };
    let hits =
        ok(store.search_event_embeddings(&ask(vec![1.0, 0.1, 0.0], in_project.clone(), 10)).await, "search");
    assert_eq!(found(&hits), [ids[0].clone(), ids[1].clone()], "closest first, the project's only");
    assert!((hits[0].similarity - 0.995).abs() < 0.01, "cosine similarity: {}", hits[0].similarity);
    assert_eq!(hits[0].event.event, events[0], "hits carry the stored event");
    let one =
        ok(store.search_event_embeddings(&ask(vec![1.0, 0.1, 0.0], in_project.clone(), 1)).await, "search");
    assert_eq!(one.len(), 1, "limit");
    let in_b = EventFilter { session: Some(b.clone()), ..EventFilter::all() };
    let hits = ok(store.search_event_embeddings(&ask(vec![1.0, 0.0, 0.0], in_b, 10)).await, "search");
    assert_eq!(found(&hits), [ids[3].clone()], "the session's only");
    let other = EventVectorQuery {
        model: "another-model".to_owned(),
        ..ask(vec![1.0, 0.0, 0.0], in_project.clone(), 10)
    };
    assert!(ok(store.search_event_embeddings(&other).await, "search").is_empty(), "only the asked model");

    ok(store.put_event_embeddings(&model, &[(at(1), vec![0.0, 0.0, 1.0])]).await, "put_event_embeddings");
    let hits =
        ok(store.search_event_embeddings(&ask(vec![0.0, 0.0, 1.0], in_project.clone(), 1)).await, "search");
    assert_eq!(found(&hits), [ids[1].clone()], "a vector put again replaces the old one");
    let forget = ForgetSet { events: vec![ids[0].clone()], ..ForgetSet::default() };
    ok(store.forget(&forget).await, "forget");
    let hits = ok(store.search_event_embeddings(&ask(vec![1.0, 0.0, 0.0], in_project, 10)).await, "search");
    assert_eq!(found(&hits), [ids[1].clone()], "a forgotten event's vector is gone with it");
}

/// A query finds a note that words it differently: another inflection (`listening` finds
/// `listens`), an abbreviation for its expansion (`db` finds `database`) and a spelled-out phrase
/// for its abbreviation (`minimum supported rust version` finds `MSRV`); each counts as one
/// matched term.
pub async fn search_finds_inflections_and_abbreviations(store: &dyn MemoryStore) {
    if !store.capabilities().full_text_search {
        return;
    }
    let scope = project_scope("search-forms");
    let server =
        note(&scope, "notes/server.md", "Dev server", &[], "The API listens on 8081 behind the proxy.\n");
    let database =
        note(&scope, "notes/database.md", "Local database", &[], "The database is Postgres 16 in docker.\n");
    let msrv = note(&scope, "notes/msrv.md", "Toolchain", &[], "We bumped the MSRV to 1.82.\n");
    for n in [&server, &database, &msrv] {
        ok(store.put_note(n).await, "put_note");
    }
    let ask = |text: &'static str| SearchQuery::new(text, vec![scope.clone()], 10);
    let hits = ok(store.search_notes(&ask("where is the api listening")).await, "search");
    assert_eq!(hits.first().map(|h| &h.note), Some(&server), "listening finds listens");
    assert_eq!(hits[0].matched_terms, 2, "api and listening, each once");
    let hits = ok(store.search_notes(&ask("db version")).await, "search");
    assert_eq!(hits.first().map(|h| &h.note), Some(&database), "db finds database");
    let hits = ok(store.search_notes(&ask("minimum supported rust version")).await, "search");
    assert_eq!(hits.first().map(|h| &h.note), Some(&msrv), "the phrase finds its abbreviation");
    let node =
        note(&scope, "notes/node.md", "Node versions", &[], "Node 20 by default; rust is elsewhere.\n");
    ok(store.put_note(&node).await, "put_note");
    let hits = ok(store.search_notes(&ask("minimum rust version")).await, "search");
    let matched = |n: &memory_core::Note| hits.iter().find(|h| h.note == *n).map(|h| h.matched_terms);
    assert_eq!(matched(&msrv), Some(3), "MSRV covers every word of \"minimum rust version\"");
    assert_eq!(matched(&node), Some(2), "rust and versions: two of its words");
}

/// Search ranks the obviously better note first, reports matched terms and respects scopes.
pub async fn search_ranks_and_respects_scopes(store: &dyn MemoryStore) {
    if !store.capabilities().full_text_search {
        return;
    }
    let scope = project_scope("search");
    let other = project_scope("search-other");
    let best = note(
        &scope,
        "tools/cargo/test-flags.md",
        "Cargo test flags",
        &["cargo", "testing"],
        "Run cargo test with --workspace. Cargo test flags: --nocapture, --test-threads.\n",
    );
    let weak = note(
        &scope,
        "notes/misc.md",
        "Miscellaneous",
        &[],
        "Long notes about many unrelated things: gardening, cooking, a trip, weather, and once cargo.\n",
    );
    let unrelated = note(&scope, "notes/bread.md", "Bread", &[], "Flour, water, salt, yeast.\n");
    let elsewhere = note(&other, "tools/cargo/test-flags.md", "Cargo test flags", &["cargo"], "cargo test\n");
    for n in [&best, &weak, &unrelated, &elsewhere] {
        ok(store.put_note(n).await, "put_note");
    }
    let hits = ok(
        store.search_notes(&SearchQuery::new("cargo test flags", vec![scope.clone()], 10)).await,
        "search",
    );
    let paths: Vec<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
    assert_eq!(paths, ["tools/cargo/test-flags.md", "notes/misc.md"], "better note first, only matches");
    assert!(hits.iter().all(|h| h.note.meta.scope == scope), "only the searched scope");
    assert_eq!(hits[0].note, best, "hits carry the current note");
    assert_eq!(hits[0].matched_terms, 3, "the best note has all three terms");
    assert_eq!(hits[1].matched_terms, 1, "the weak note has one term");
    assert!(hits[0].score > hits[1].score, "scores order the hits");
    let both = vec![scope.clone(), other.clone()];
    let hits = ok(store.search_notes(&SearchQuery::new("cargo", both.clone(), 10)).await, "search");
    let scopes: BTreeSet<Scope> = hits.iter().map(|h| h.note.meta.scope.clone()).collect();
    assert_eq!(scopes, both.iter().cloned().collect(), "several scopes are searched together");
    assert_eq!(hits.len(), 3);
    let one = ok(store.search_notes(&SearchQuery::new("cargo", both, 1)).await, "search");
    assert_eq!(one.len(), 1, "limit is honoured");
    let hits =
        ok(store.search_notes(&SearchQuery::new("CARGO Flags", vec![scope.clone()], 10)).await, "search");
    assert_eq!(hits.first().map(|h| &h.note), Some(&best), "search ignores case");
    let hits = ok(store.search_notes(&SearchQuery::new("yeast", vec![other], 10)).await, "search");
    assert!(hits.is_empty(), "a term in another scope is not found");
    let mut changed = unrelated.clone();
    changed.body = "Now about cargo only.\n".to_owned();
    ok(store.put_note(&changed).await, "put_note");
    let hits = ok(store.search_notes(&SearchQuery::new("yeast", vec![scope.clone()], 10)).await, "search");
    assert!(hits.is_empty(), "a replaced body is no longer found");
    let hits = ok(store.search_notes(&SearchQuery::new("testing", vec![scope], 10)).await, "search");
    assert_eq!(hits.first().map(|h| &h.note), Some(&best), "tags are searched");
}

/// A query with no searchable terms (empty, stop words, punctuation) returns nothing.
pub async fn search_without_terms_returns_nothing(store: &dyn MemoryStore) {
    let scope = project_scope("empty-query");
    ok(store.put_note(&note(&scope, "facts/the.md", "The and of", &[], "the and of a\n")).await, "put");
    for text in ["", "   ", "the and of", "a", "!!! ??? ***", "\"\""] {
        match store.search_notes(&SearchQuery::new(text, vec![scope.clone()], 10)).await {
            Ok(hits) => assert!(hits.is_empty(), "query {text:?} has no terms and must find nothing"),
            Err(Error::Unsupported { .. }) if !store.capabilities().full_text_search => {}
            Err(e) => panic!("search {text:?} failed: {e}"),
        }
    }
}

/// Watermarks are unset until set, read back exactly, may move back, and are listed by name.
pub async fn watermarks_round_trip(store: &dyn MemoryStore) {
    let prefix = unique("wm");
    let (a, b) = (format!("{prefix}:a"), format!("{prefix}:b"));
    assert_eq!(ok(store.watermark(&a).await, "watermark"), None, "unset watermark");
    ok(store.set_watermark(&b, 7).await, "set_watermark");
    ok(store.set_watermark(&a, 42).await, "set_watermark");
    ok(store.set_watermark(&a, 43).await, "set_watermark");
    assert_eq!(ok(store.watermark(&a).await, "watermark"), Some(43));
    ok(store.set_watermark(&b, 3).await, "set_watermark backwards");
    assert_eq!(ok(store.watermark(&b).await, "watermark"), Some(3), "set replaces the value");
    ok(store.set_watermark(&a, u64::from(u32::MAX) * 4).await, "set a large watermark");
    assert_eq!(ok(store.watermark(&a).await, "watermark"), Some(u64::from(u32::MAX) * 4));
    let listed: Vec<(String, u64)> = ok(store.watermarks().await, "watermarks")
        .into_iter()
        .filter(|(n, _)| n.starts_with(&prefix))
        .collect();
    assert_eq!(listed, [(a, u64::from(u32::MAX) * 4), (b, 3)], "listed by name");
    let all = ok(store.watermarks().await, "watermarks");
    assert!(all.windows(2).all(|w| w[0].0 < w[1].0), "every watermark is listed once, ordered by name");
}

/// A lease is held by one holder at a time: taken when free, lapsed or the holder's own
/// (extending it), refused (showing the holder) otherwise, given back by its holder alone; of
/// eight takers at once exactly one gets a free lease.
pub async fn leases_are_single_flight(store: &dyn MemoryStore) {
    use chrono::{Duration, TimeZone as _, Utc};
    let name = unique("lease");
    let at = |s: i64| Utc.with_ymd_and_hms(2026, 12, 5, 10, 0, 0).unwrap() + Duration::seconds(s);
    assert_eq!(ok(store.lease(&name).await, "lease"), None, "never taken");
    let a = ok(store.take_lease(&name, "laptop#1", at(60), at(0)).await, "take_lease");
    assert_eq!((a.holder.as_str(), a.until), ("laptop#1", at(60)), "a free lease is taken");
    let b = ok(store.take_lease(&name, "desktop#2", at(90), at(30)).await, "take_lease");
    assert_eq!(
        (b.holder.as_str(), b.until),
        ("laptop#1", at(60)),
        "a held lease is refused, naming its holder"
    );
    let a = ok(store.take_lease(&name, "laptop#1", at(120), at(50)).await, "take_lease");
    assert_eq!(a.until, at(120), "the holder extends it");
    ok(store.release_lease(&name, "desktop#2").await, "release_lease");
    assert_eq!(
        ok(store.lease(&name).await, "lease").map(|l| l.holder),
        Some("laptop#1".to_owned()),
        "only the holder gives it back"
    );
    let b = ok(store.take_lease(&name, "desktop#2", at(300), at(121)).await, "take_lease");
    assert_eq!(b.holder, "desktop#2", "a lapsed lease is taken by another");
    ok(store.release_lease(&name, "desktop#2").await, "release_lease");
    assert_eq!(ok(store.lease(&name).await, "lease"), None, "given back");

    let raced = unique("lease-race");
    let takers: Vec<String> = (0..8).map(|i| format!("machine-{i}#1")).collect();
    let results = futures_join(takers.iter().map(|h| store.take_lease(&raced, h, at(600), at(0)))).await;
    let holders: std::collections::BTreeSet<String> =
        results.into_iter().map(|r| ok(r, "take_lease at once").holder).collect();
    assert_eq!(holders.len(), 1, "every taker sees the one holder: {holders:?}");
}

/// Each machine that wrote is listed once with the latest time it noted, the most recent first.
pub async fn machines_are_listed_with_their_latest_write(store: &dyn MemoryStore) {
    use chrono::{Duration, TimeZone as _, Utc};
    let (laptop, desk) = (unique("laptop"), unique("desk"));
    // Far in the future, so that these come first whatever other tests noted.
    let at = |s: i64| Utc.with_ymd_and_hms(2999, 1, 1, 0, 0, 0).unwrap() + Duration::seconds(s);
    ok(store.note_machine(&laptop, at(10)).await, "note_machine");
    ok(store.note_machine(&desk, at(20)).await, "note_machine");
    ok(store.note_machine(&laptop, at(30)).await, "note_machine");
    ok(store.note_machine(&laptop, at(5)).await, "note_machine an older time");
    let listed: Vec<(String, chrono::DateTime<Utc>)> = ok(store.machines().await, "machines")
        .into_iter()
        .filter(|(m, _)| *m == laptop || *m == desk)
        .collect();
    assert_eq!(listed, [(laptop, at(30)), (desk, at(20))], "the latest write of each, most recent first");
}

/// Runs futures at once on this task, each to its end, results in order.
async fn futures_join<F: std::future::Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut pending: Vec<std::pin::Pin<Box<F>>> = futures.map(Box::pin).collect();
    let mut out: Vec<Option<F::Output>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut done = true;
        for (slot, future) in out.iter_mut().zip(pending.iter_mut()) {
            if slot.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => *slot = Some(value),
                    std::task::Poll::Pending => done = false,
                }
            }
        }
        if done { std::task::Poll::Ready(()) } else { std::task::Poll::Pending }
    })
    .await;
    out.into_iter().map(|v| v.expect("every future finished")).collect()
}

/// `commit` applies puts and deletes in order and moves the watermark in the same step.
pub async fn commit_applies_changes_and_watermark(store: &dyn MemoryStore) {
    let scope = project_scope("commit");
    let mark = unique("dream");
    let keep = note(&scope, "facts/keep.md", "Keep", &[], "keep\n");
    let drop = note(&scope, "facts/drop.md", "Drop", &[], "drop\n");
    ok(store.put_note(&drop).await, "put_note");
    let mut keep2 = keep.clone();
    keep2.body = "keep, second version\n".to_owned();
    let changes = vec![
        NoteChange::Put(keep.clone()),
        NoteChange::Delete { scope: scope.clone(), path: drop.path.clone() },
        NoteChange::Put(keep2.clone()),
    ];
    let advance = WatermarkAdvance { name: mark.clone(), position: 17 };
    ok(store.commit(&changes, Some(&advance)).await, "commit");
    assert_eq!(ok(store.watermark(&mark).await, "watermark"), Some(17), "watermark moved");
    assert_eq!(ok(store.get_note(&scope, &keep.path).await, "get"), Some(keep2), "changes applied in order");
    assert_eq!(ok(store.get_note(&scope, &drop.path).await, "get"), None, "delete applied");
    if store.capabilities().note_history {
        let history = ok(store.note_history(&scope, &keep.path).await, "history");
        assert_eq!(history, vec![keep.clone()], "a put earlier in the same commit becomes history");
    }
    ok(store.commit(&[], Some(&WatermarkAdvance { name: mark.clone(), position: 18 })).await, "commit");
    assert_eq!(ok(store.watermark(&mark).await, "watermark"), Some(18), "a commit of only a watermark");
    let fresh = note(&scope, "facts/fresh.md", "Fresh", &[], "fresh\n");
    ok(store.commit(&[NoteChange::Put(fresh.clone())], None).await, "commit without a watermark");
    assert_eq!(ok(store.get_note(&scope, &fresh.path).await, "get"), Some(fresh));
    assert_eq!(ok(store.watermark(&mark).await, "watermark"), Some(18), "no watermark, no move");
}

/// Retention: forgetting what [`memory_core::retention::prefix_cuts`] picks (in each session,
/// the run of events from its first stored one that occurred before the cut-off and sit at or
/// below the position limit) keeps chains whole, later appends continue the numbering, and notes
/// keep the ids of the events they came from.
pub async fn prune_removes_an_old_distilled_prefix_of_each_session(store: &dyn MemoryStore) {
    let years = |n: i64| crate::fixtures::base_time() - chrono::Duration::days(365 * n);
    let aged = |key: &SessionKey, seed: &str, at: chrono::DateTime<chrono::Utc>| {
        let mut e = event(key, seed, 0);
        e.occurred_at = at;
        e
    };
    let (a, b, c) = (session("prune-a"), session("prune-b"), session("prune-c"));
    let old = years(25);
    let cut_off = years(24);
    let first = [
        aged(&a, "a1", old),
        aged(&a, "a2", old),
        aged(&b, "b1", old),
        aged(&a, "a3", crate::fixtures::base_time()),
        aged(&a, "a4", old),
        aged(&b, "b2", old),
    ];
    ok(store.append(&first).await, "append");
    let ids: Vec<EventId> = first.iter().map(|e| e.id.clone()).collect();
    let up_to = own_positions(store, &ids).await.iter().map(|e| e.position).max().expect("stored");
    let above = aged(&c, "c1", old);
    ok(store.append(std::slice::from_ref(&above)).await, "append");
    let scope = project_scope("prune");
    let mut derived = note(&scope, "facts/derived.md", "Derived", &[], "from old events\n");
    derived.meta.sources = vec![ids[0].clone()];
    ok(store.put_note(&derived).await, "put_note");

    let pruned = ok(store.forget(&prefixes(store, cut_off, up_to).await).await, "forget").events;
    assert!(pruned >= 4, "a1, a2, b1 and b2 are pruned (pruned {pruned})");
    let seqs = |events: Vec<StoredEvent>| events.iter().map(|e| e.seq).collect::<Vec<_>>();
    assert_eq!(
        seqs(ok(store.timeline(&a, 0, 10).await, "timeline")),
        [3, 4],
        "a session loses only the old prefix: a young event keeps itself and everything after it"
    );
    assert!(ok(store.timeline(&b, 0, 10).await, "timeline").is_empty(), "a wholly old session is emptied");
    assert_eq!(
        seqs(ok(store.timeline(&c, 0, 10).await, "timeline")),
        [1],
        "events above the position limit (not distilled yet) stay, however old"
    );
    let gone = ok(store.events_by_id(&ids[..3]).await, "events_by_id");
    assert!(gone.is_empty(), "pruned events are gone by id: {gone:?}");
    let after: Vec<EventId> = ok(store.events_after(0, usize::MAX >> 1).await, "events_after")
        .into_iter()
        .map(|e| e.event.id)
        .collect();
    assert!(
        !after.contains(&ids[0]) && after.contains(&ids[3]) && after.contains(&above.id),
        "events_after skips them"
    );

    let b3 = aged(&b, "b3", crate::fixtures::base_time());
    let appended = ok(store.append(std::slice::from_ref(&b3)).await, "append");
    assert_eq!(appended[0].seq, 3, "a pruned session continues its numbering");
    assert_eq!(seqs(ok(store.timeline(&b, 0, 10).await, "timeline")), [3], "and its chain starts again");
    let a5 = aged(&a, "a5", crate::fixtures::base_time());
    assert_eq!(ok(store.append(std::slice::from_ref(&a5)).await, "append")[0].seq, 5);
    assert_eq!(seqs(ok(store.timeline(&a, 2, 10).await, "timeline")), [3, 4, 5]);
    let kept = ok(store.get_note(&scope, &derived.path).await, "get_note").expect("the note stays");
    assert_eq!(kept.meta.sources, derived.meta.sources, "a note keeps the ids of its pruned sources");
    assert!(prefixes(store, cut_off, 0).await.is_empty(), "nothing at or below position 0");
}

/// The events retention removes: [`memory_core::retention::prefix_cuts`] over the events at or
/// below `up_to`.
async fn prefixes(store: &dyn MemoryStore, before: chrono::DateTime<chrono::Utc>, up_to: u64) -> ForgetSet {
    let mut events: Vec<StoredEvent> = ok(store.events_after(0, usize::MAX >> 1).await, "events_after")
        .into_iter()
        .filter(|e| e.position <= up_to)
        .collect();
    events.sort_by(|a, b| (a.event.session.as_str(), a.seq).cmp(&(b.event.session.as_str(), b.seq)));
    let cuts = memory_core::retention::prefix_cuts(
        events.iter().map(|e| (e.event.session.as_str(), e.seq, e.event.occurred_at)),
        before,
    );
    ForgetSet {
        events: events
            .into_iter()
            .filter(|e| cuts.iter().any(|(s, last)| s == e.event.session.as_str() && e.seq <= *last))
            .map(|e| e.event.id)
            .collect(),
        ..ForgetSet::default()
    }
}

/// A word no other check (and no earlier run) uses: a letter and hex digits, one search term.
fn marker(label: &str) -> String {
    unique(label).replace('-', "")
}

/// A prompt event with this text, in a session, `secs` after the base time.
fn said(key: &SessionKey, seed: &str, secs: i64, prompt: &str, project: Option<&str>) -> HookEvent {
    let mut e = event(key, seed, secs);
    e.prompt = Some(prompt.to_owned());
    e.raw = serde_json::json!({ "prompt": prompt });
    e.project = project.map(str::to_owned);
    e
}

fn hit_ids(hits: &[memory_core::EventHit]) -> Vec<EventId> {
    hits.iter().map(|h| h.event.event.id.clone()).collect()
}

/// `search_events` finds events by their text: the events holding the most terms first, then by
/// relevance (every hit scored above 0), inflections included; filtered by session, project,
/// harness and time; a phrase matches only its words in order; without text, the filter's events
/// newest first; text without searchable words finds nothing.
pub async fn search_events_ranks_filters_and_matches_phrases(store: &dyn MemoryStore) {
    let tag = marker("w");
    let a = session("history-a");
    let b = SessionKey::new("other", &unique("history-b"));
    let project = unique("histproj");
    let p = Some(project.as_str());
    let e1 = said(&a, "h1", 10, &format!("{tag} cargo nextest run failed"), p);
    let e2 = said(&a, "h2", 20, &format!("{tag} deploy to staging"), p);
    let e3 = said(&b, "h3", 30, &format!("{tag} nextest again, nextest"), None);
    let e4 = said(&a, "h4", 40, "unrelated words only", p);
    let e5 = said(&a, "h5", 50, &format!("nextest {tag} cargo"), p);
    ok(store.append(&[e1.clone(), e2.clone(), e3.clone(), e4.clone(), e5.clone()]).await, "append");
    let search = |q: EventQuery| async move { ok(store.search_events(&q).await, "search_events") };

    let hits = search(EventQuery::search(format!("{tag} cargo nextest"), EventFilter::all(), 50)).await;
    let mine: BTreeSet<EventId> = [&e1, &e2, &e3, &e4, &e5].iter().map(|e| e.id.clone()).collect();
    let found: BTreeSet<EventId> = hit_ids(&hits).into_iter().filter(|id| mine.contains(id)).collect();
    let expected: BTreeSet<EventId> = [&e1, &e2, &e3, &e5].iter().map(|e| e.id.clone()).collect();
    assert_eq!(found, expected, "every event holding a term is found, and only those");
    assert_eq!(hits[0].matched_terms, 3, "the events holding every term rank first: {hits:?}");
    assert!(hits.iter().all(|h| h.score > 0.0), "every hit has a positive score: {hits:?}");
    assert!(
        hits.windows(2).all(|w| (w[0].matched_terms, w[0].score) >= (w[1].matched_terms, w[1].score)),
        "most terms first, then best first: {hits:?}"
    );
    assert_eq!(
        hits.iter().find(|h| h.event.event.id == e1.id).map(|h| h.event.seq),
        Some(1),
        "hits carry seqs"
    );

    let hits = search(EventQuery::search(format!("{tag} deploying"), EventFilter::all(), 10)).await;
    assert_eq!(hits[0].event.event.id, e2.id, "an inflection finds the event");

    let in_a = EventFilter { session: Some(a.clone()), ..EventFilter::all() };
    let hits = search(EventQuery::search(format!("{tag} nextest"), in_a.clone(), 10)).await;
    assert!(!hit_ids(&hits).contains(&e3.id) && hits.len() == 3, "only the asked session: {hits:?}");
    let other = EventFilter { harness: Some("other".to_owned()), ..EventFilter::all() };
    let hits = search(EventQuery::search(tag.clone(), other, 10)).await;
    assert_eq!(hit_ids(&hits), std::slice::from_ref(&e3.id), "only the asked harness");
    let in_project = EventFilter { project: Some(project.clone()), ..EventFilter::all() };
    let hits = search(EventQuery::search(tag.clone(), in_project, 10)).await;
    assert_eq!(hits.len(), 3, "only the asked project: {hits:?}");
    assert!(!hit_ids(&hits).contains(&e3.id));
    let base = crate::fixtures::base_time();
    let window = EventFilter {
        since: Some(base + chrono::Duration::seconds(20)),
        until: Some(base + chrono::Duration::seconds(50)),
        ..EventFilter::all()
    };
    let hits = search(EventQuery::search(tag.clone(), window, 10)).await;
    let found: BTreeSet<EventId> = hit_ids(&hits).into_iter().collect();
    assert_eq!(
        found,
        [e2.id.clone(), e3.id.clone()].into_iter().collect(),
        "since is inclusive, until is not"
    );
    let hits = search(EventQuery::search(tag.clone(), EventFilter::all(), 2)).await;
    assert_eq!(hits.len(), 2, "limit");

    let hits = search(EventQuery::phrase(format!("{tag} cargo nextest"), EventFilter::all(), 10)).await;
    assert_eq!(hit_ids(&hits), std::slice::from_ref(&e1.id), "a phrase matches its words in order only");
    let hits =
        search(EventQuery::phrase(format!("{} Cargo", tag.to_uppercase()), EventFilter::all(), 10)).await;
    assert_eq!(hit_ids(&hits), [e5.id.clone(), e1.id.clone()], "case does not matter; newest first");
    let hits = search(EventQuery::phrase(format!("{tag} deploying"), EventFilter::all(), 10)).await;
    assert!(hits.is_empty(), "a phrase takes no inflection: {hits:?}");

    let hits = search(EventQuery::filtered(in_a.clone(), 10)).await;
    assert_eq!(
        hit_ids(&hits),
        [&e5, &e4, &e2, &e1].iter().map(|e| e.id.clone()).collect::<Vec<_>>(),
        "without text: the filter's events, newest first"
    );
    assert!(search(EventQuery::search("the of and", in_a.clone(), 10)).await.is_empty(), "stop words only");
    assert!(search(EventQuery::phrase("  ", in_a, 10)).await.is_empty(), "no words, no hits");
}

/// An event's owner round-trips through every read (by id, timeline, position, search); a
/// session is listed with the owner of its first event that had one; filtering by owner, with
/// text or without, returns that person's events only, never an event that records no owner.
pub async fn events_keep_their_owner_and_filter_by_it(store: &dyn MemoryStore) {
    let tag = marker("o");
    let (alice, bob) = (unique("alice"), unique("bob"));
    let (a, b) = (session("owner-a"), session("owner-b"));
    let mut nobody = said(&a, "o0", 1, &format!("{tag} before anyone was configured"), None);
    nobody.owner = None;
    let owned = |key: &SessionKey, seed: &str, secs: i64, owner: &str| {
        let mut e = said(key, seed, secs, &format!("{tag} deploy by {seed}"), None);
        e.owner = Some(owner.to_owned());
        e
    };
    let (a1, a2, b1) = (owned(&a, "o1", 2, &alice), owned(&a, "o2", 3, &alice), owned(&b, "o3", 4, &bob));
    let all = [nobody.clone(), a1.clone(), a2.clone(), b1.clone()];
    ok(store.append(&all).await, "append");

    let ids: Vec<EventId> = all.iter().map(|e| e.id.clone()).collect();
    let read = own_positions(store, &ids).await;
    let owners: Vec<Option<&str>> = read.iter().map(|s| s.event.owner.as_deref()).collect();
    assert_eq!(owners, [None, Some(alice.as_str()), Some(alice.as_str()), Some(bob.as_str())], "by id");
    let timeline = ok(store.timeline(&a, 0, 10).await, "timeline");
    assert_eq!(timeline.iter().map(|s| &s.event).collect::<Vec<_>>(), [&nobody, &a1, &a2], "timeline");
    let after = ok(store.events_after(read[0].position - 1, 4).await, "events_after");
    assert!(after.iter().any(|s| s.event == b1), "events_after carries the owner: {after:?}");
    let sessions = ok(store.sessions().await, "sessions");
    let owner_of = |key: &SessionKey| sessions.iter().find(|s| s.key == *key).and_then(|s| s.owner.clone());
    assert_eq!(owner_of(&a), Some(alice.clone()), "a session's owner is its first event's that had one");
    assert_eq!(owner_of(&b), Some(bob.clone()));

    let search = |q: EventQuery| async move { ok(store.search_events(&q).await, "search_events") };
    let of = |owner: &str| EventFilter { owner: Some(owner.to_owned()), ..EventFilter::all() };
    let found = |hits: Vec<memory_core::EventHit>| hit_ids(&hits).into_iter().collect::<BTreeSet<_>>();
    let alices: BTreeSet<EventId> = [a1.id.clone(), a2.id.clone()].into();
    assert_eq!(found(search(EventQuery::filtered(of(&alice), 10)).await), alices, "by owner alone");
    assert_eq!(found(search(EventQuery::search(tag.clone(), of(&alice), 10)).await), alices, "with text");
    assert_eq!(
        hit_ids(&search(EventQuery::search(format!("{tag} deploy"), of(&bob), 10)).await),
        std::slice::from_ref(&b1.id),
        "only the asked owner's"
    );
    let in_a = EventFilter { session: Some(a.clone()), ..of(&bob) };
    assert!(search(EventQuery::filtered(in_a, 10)).await.is_empty(), "every condition must hold");
    assert!(search(EventQuery::filtered(of(&unique("carol")), 10)).await.is_empty(), "nobody's events");
    let everyone = found(search(EventQuery::search(tag, EventFilter::all(), 10)).await);
    assert_eq!(everyone, ids.into_iter().collect(), "no owner filter: every event");
}

/// `forget` deletes events by id, whole sessions and notes with their history for good: none is
/// found again by id, timeline, listing or search; a session keeps its other events, their seqs
/// and its numbering; a forgotten session that records again starts anew; forgetting what is not
/// stored does nothing.
pub async fn forget_removes_events_sessions_and_notes(store: &dyn MemoryStore) {
    let secret = marker("s");
    let (a, b) = (session("forget-a"), session("forget-b"));
    let a1 = said(&a, "f1", 1, "first prompt", None);
    let a2 = said(&a, "f2", 2, &format!("my token is {secret} ok"), None);
    let a3 = said(&a, "f3", 3, "third prompt", None);
    let b1 = said(&b, "g1", 4, &format!("{secret} again"), None);
    let b2 = said(&b, "g2", 5, "more", None);
    ok(store.append(&[a1.clone(), a2.clone(), a3.clone(), b1.clone(), b2.clone()]).await, "append");
    let scope = project_scope("forget");
    let mut n1 = note(&scope, "facts/token.md", "Token", &[], &format!("the token is {secret}\n"));
    n1.meta.sources = vec![a2.id.clone()];
    ok(store.put_note(&n1).await, "put_note");
    let mut n1b = n1.clone();
    n1b.body = "the token changed\n".to_owned();
    ok(store.put_note(&n1b).await, "put_note");
    let kept = note(&scope, "facts/kept.md", "Kept", &[], "nothing secret\n");
    ok(store.put_note(&kept).await, "put_note");
    let model = format!("test-model-{}", unique("m"));
    if store.capabilities().vector_search {
        assert!(ok(store.put_embeddings(&n1b, &model, &[vec![1.0, 0.0]]).await, "put_embeddings"));
    }
    let phrase = EventQuery::phrase(secret.clone(), EventFilter::all(), 10);
    assert_eq!(ok(store.search_events(&phrase).await, "search_events").len(), 2, "both are found first");

    let what = ForgetSet {
        events: vec![a2.id.clone()],
        sessions: vec![b.clone()],
        notes: vec![(scope.clone(), n1.path.clone())],
    };
    let forgotten = ok(store.forget(&what).await, "forget");
    assert_eq!(forgotten, Forgotten { events: 3, sessions: 1, notes: 1 }, "what went is counted");
    let seqs = |events: Vec<StoredEvent>| events.iter().map(|e| e.seq).collect::<Vec<_>>();
    assert_eq!(seqs(ok(store.timeline(&a, 0, 10).await, "timeline")), [1, 3], "the rest of a session stays");
    assert!(ok(store.timeline(&b, 0, 10).await, "timeline").is_empty(), "a forgotten session has no events");
    let gone = [a2.id.clone(), b1.id.clone(), b2.id.clone()];
    assert!(
        ok(store.events_by_id(&gone).await, "events_by_id").is_empty(),
        "forgotten events are gone by id"
    );
    let after: Vec<EventId> = ok(store.events_after(0, usize::MAX >> 1).await, "events_after")
        .into_iter()
        .map(|e| e.event.id)
        .collect();
    assert!(gone.iter().all(|id| !after.contains(id)) && after.contains(&a3.id), "events_after skips them");
    assert!(ok(store.search_events(&phrase).await, "search_events").is_empty(), "search finds none of them");
    let by_session = EventQuery::filtered(EventFilter { session: Some(b.clone()), ..EventFilter::all() }, 10);
    assert!(ok(store.search_events(&by_session).await, "search_events").is_empty());
    let listed: Vec<SessionKey> = ok(store.sessions().await, "sessions").into_iter().map(|s| s.key).collect();
    assert!(listed.contains(&a) && !listed.contains(&b), "a forgotten session is not listed");
    assert_eq!(ok(store.get_note(&scope, &n1.path).await, "get_note"), None, "the note is gone");
    assert!(ok(store.note_history(&scope, &n1.path).await, "history").is_empty(), "with its history");
    assert_eq!(ok(store.get_note(&scope, &kept.path).await, "get_note"), Some(kept.clone()), "others stay");
    if store.capabilities().full_text_search {
        let hits =
            ok(store.search_notes(&SearchQuery::new(secret.clone(), vec![], 10)).await, "search_notes");
        assert!(hits.is_empty(), "a forgotten note is not found: {hits:?}");
    }
    if store.capabilities().vector_search {
        let q = VectorQuery {
            model: model.clone(),
            vector: vec![1.0, 0.0],
            scopes: vec![scope.clone()],
            limit: 10,
        };
        assert!(ok(store.search_embeddings(&q).await, "search_embeddings").is_empty(), "nor its vectors");
    }

    let a4 = said(&a, "f4", 6, "fourth", None);
    assert_eq!(ok(store.append(std::slice::from_ref(&a4)).await, "append")[0].seq, 4, "numbering continues");
    assert_eq!(seqs(ok(store.timeline(&a, 0, 10).await, "timeline")), [1, 3, 4]);
    let b3 = said(&b, "g3", 7, "back again", None);
    assert_eq!(
        ok(store.append(std::slice::from_ref(&b3)).await, "append")[0].seq,
        1,
        "a forgotten session starts anew"
    );
    let again = ForgetSet {
        events: vec![a2.id.clone()],
        sessions: vec![],
        notes: vec![(scope.clone(), n1.path.clone())],
    };
    assert_eq!(
        ok(store.forget(&again).await, "forget"),
        Forgotten::default(),
        "what is not stored is ignored"
    );
    assert_eq!(ok(store.forget(&ForgetSet::default()).await, "forget"), Forgotten::default());
}

/// A query vector made on another thread, there after a while (or never).
struct Later {
    vector: Option<Vec<f32>>,
    ready_at: Instant,
}

impl Later {
    fn after(vector: Vec<f32>, delay: Duration) -> Self {
        Self { vector: Some(vector), ready_at: Instant::now() + delay }
    }
}

impl memory_core::PendingVector for Later {
    fn ready(&self) -> bool {
        Instant::now() >= self.ready_at
    }

    fn wait(self: Box<Self>) -> Option<Vec<f32>> {
        std::thread::sleep(self.ready_at.saturating_duration_since(Instant::now()));
        self.vector
    }
}
