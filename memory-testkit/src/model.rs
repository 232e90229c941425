//! Model-based testing: random operation sequences applied to a store and to
//! [`InMemoryStore`], comparing everything observable after every step.

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;

use memory_core::{
    EventId, HookEvent, InMemoryStore, MemoryStore, Note, NoteChange, NoteFilter, NoteKind, NoteMeta,
    NotePath, Scope, SearchQuery, SessionKey, StoredEvent, WatermarkAdvance,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::fixtures::{base_time, event_id, unique};
use crate::strategies::arb_event;

const SESSIONS: usize = 3;
const SCOPES: usize = 3;
const PATHS: &[&str] =
    &["tools/alpha.md", "tools/cargo/bravo.md", "profile/role.md", "notes/charlie-delta.md"];
const WATERMARKS: usize = 3;
const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "cargo", "tokio", "serde", "sqlite", "tools", "notes",
    "md", "x2", "42",
];
const QUERY_WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "cargo", "tokio", "serde", "sqlite", "tools", "notes",
    "md", "x2", "42", "profile", "missing", "Cargo", "the",
];
const SEPARATORS: &[&str] = &[" ", "\n", "\n---\n", ", ", "\r\n", "/", "-", ": ", " (", ") ", "\"", "*"];

/// The content of one note, to be placed at a slot (scope, path) of the case.
#[derive(Debug, Clone)]
struct NoteSpec {
    title: Vec<usize>,
    description: Option<Vec<usize>>,
    tags: Vec<usize>,
    body: Vec<(usize, usize)>,
    kind: usize,
    updated: i64,
}

#[derive(Debug, Clone)]
enum ChangeSpec {
    Put { scope: usize, path: usize, spec: NoteSpec },
    Delete { scope: usize, path: usize },
}

#[derive(Debug, Clone)]
enum Op {
    /// Append these pool events, in order (indexes may repeat: redeliveries).
    Append(Vec<usize>),
    Put {
        scope: usize,
        path: usize,
        spec: NoteSpec,
    },
    /// Put the note currently at a slot again, unchanged.
    Reput {
        scope: usize,
        path: usize,
    },
    Delete {
        scope: usize,
        path: usize,
    },
    Commit {
        changes: Vec<ChangeSpec>,
        watermark: Option<(usize, u64)>,
    },
    SetWatermark {
        name: usize,
        position: u64,
    },
    Search {
        word: usize,
        scopes: Vec<bool>,
        limit: usize,
    },
    Timeline {
        session: usize,
        after_seq: u64,
        limit: usize,
    },
    EventsAfter {
        start: usize,
        limit: usize,
    },
    /// Forget pool events, session slots and note slots.
    Forget {
        events: Vec<usize>,
        sessions: Vec<usize>,
        notes: Vec<(usize, usize)>,
    },
    /// A session slot's events through `search_events` without text, newest first.
    SessionEvents {
        session: usize,
        limit: usize,
    },
}

fn arb_words(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..WORDS.len(), 1..=max)
}

fn arb_spec() -> impl Strategy<Value = NoteSpec> {
    (
        arb_words(3),
        proptest::option::of(arb_words(4)),
        prop::collection::vec(0..WORDS.len(), 0..3),
        prop::collection::vec((0..WORDS.len(), 0..SEPARATORS.len()), 0..12),
        0usize..6,
        0i64..3,
    )
        .prop_map(|(title, description, tags, body, kind, updated)| NoteSpec {
            title,
            description,
            tags,
            body,
            kind,
            updated,
        })
}

fn arb_op(pool: usize) -> impl Strategy<Value = Op> {
    let slot = (0..SCOPES, 0..PATHS.len());
    prop_oneof![
        4 => prop::collection::vec(0..pool, 0..6).prop_map(Op::Append),
        4 => (slot.clone(), arb_spec()).prop_map(|((scope, path), spec)| Op::Put { scope, path, spec }),
        1 => slot.clone().prop_map(|(scope, path)| Op::Reput { scope, path }),
        2 => slot.clone().prop_map(|(scope, path)| Op::Delete { scope, path }),
        2 => (
            prop::collection::vec(
                prop_oneof![
                    3 => (slot.clone(), arb_spec())
                        .prop_map(|((scope, path), spec)| ChangeSpec::Put { scope, path, spec }),
                    1 => slot.clone().prop_map(|(scope, path)| ChangeSpec::Delete { scope, path }),
                ],
                0..4,
            ),
            proptest::option::of((0..WATERMARKS, any::<u32>().prop_map(u64::from))),
        )
            .prop_map(|(changes, watermark)| Op::Commit { changes, watermark }),
        1 => (0..WATERMARKS, prop_oneof![any::<u32>().prop_map(u64::from), Just(0u64)])
            .prop_map(|(name, position)| Op::SetWatermark { name, position }),
        3 => (0..QUERY_WORDS.len(), prop::collection::vec(any::<bool>(), SCOPES), 1usize..6)
            .prop_map(|(word, scopes, limit)| Op::Search { word, scopes, limit: limit * 4 }),
        2 => (0..SESSIONS, 0u64..8, 0usize..6)
            .prop_map(|(session, after_seq, limit)| Op::Timeline { session, after_seq, limit }),
        1 => (0usize..20, 0usize..6).prop_map(|(start, limit)| Op::EventsAfter { start, limit }),
        1 => (
            prop::collection::vec(0..pool, 0..3),
            prop::collection::vec(0..SESSIONS, 0..2),
            prop::collection::vec(slot.clone(), 0..2),
        )
            .prop_map(|(events, sessions, notes)| Op::Forget { events, sessions, notes }),
        1 => (0..SESSIONS, 1usize..8).prop_map(|(session, limit)| Op::SessionEvents { session, limit }),
    ]
}

/// Events to append, each assigned to a session slot, with ASCII-safe unicode left as generated.
fn arb_pool() -> impl Strategy<Value = Vec<(HookEvent, usize)>> {
    prop::collection::vec((arb_event(), 0..SESSIONS), 1..10)
}

fn arb_case() -> impl Strategy<Value = (Vec<(HookEvent, usize)>, Vec<Op>)> {
    arb_pool().prop_flat_map(|pool| {
        let n = pool.len();
        (Just(pool), prop::collection::vec(arb_op(n), 1..24))
    })
}

/// The names one case works in, unique to it.
struct Names {
    sessions: Vec<SessionKey>,
    scopes: Vec<Scope>,
    paths: Vec<NotePath>,
    watermarks: Vec<String>,
    events: Vec<HookEvent>,
}

impl Names {
    fn new(pool: &[(HookEvent, usize)]) -> Self {
        let suffix = unique("model");
        let sessions: Vec<SessionKey> =
            (0..SESSIONS).map(|i| SessionKey(format!("model:{suffix}-{i}"))).collect();
        let events = pool
            .iter()
            .enumerate()
            .map(|(i, (event, slot))| {
                let mut event = event.clone();
                event.id = event_id(&format!("{suffix}/{i}"));
                event.session = sessions[*slot].clone();
                event
            })
            .collect();
        Self {
            sessions,
            scopes: vec![
                Scope::Project(format!("{suffix}-p")),
                Scope::Project(format!("{suffix}-q")),
                Scope::Session(format!("{suffix}-s")),
            ],
            paths: PATHS.iter().map(|p| NotePath::new(*p).expect("valid")).collect(),
            watermarks: (0..WATERMARKS).map(|i| format!("{suffix}:wm{i}")).collect(),
            events,
        }
    }

    fn note(&self, scope: usize, path: usize, spec: &NoteSpec) -> Note {
        let words = |ids: &[usize]| ids.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
        let kinds = [
            NoteKind::Profile,
            NoteKind::Preference,
            NoteKind::Convention,
            NoteKind::Tool,
            NoteKind::Procedure,
            NoteKind::Fact,
        ];
        let mut tags: Vec<String> = spec.tags.iter().map(|&i| WORDS[i].to_owned()).collect();
        tags.dedup();
        let mut body = String::new();
        for &(word, sep) in &spec.body {
            body.push_str(WORDS[word]);
            body.push_str(SEPARATORS[sep]);
        }
        Note {
            path: self.paths[path].clone(),
            meta: NoteMeta {
                title: words(&spec.title),
                description: spec.description.as_deref().map(words),
                tags,
                scope: self.scopes[scope].clone(),
                kind: kinds[spec.kind],
                sources: Vec::new(),
                updated: base_time() + chrono::Duration::seconds(spec.updated),
                generator: "model".to_owned(),
                owner: None,
            },
            body,
        }
    }

    fn change(&self, change: &ChangeSpec) -> NoteChange {
        match change {
            ChangeSpec::Put { scope, path, spec } => NoteChange::Put(self.note(*scope, *path, spec)),
            ChangeSpec::Delete { scope, path } => {
                NoteChange::Delete { scope: self.scopes[*scope].clone(), path: self.paths[*path].clone() }
            }
        }
    }
}

fn ok<T>(result: memory_core::Result<T>, step: usize, what: &str) -> T {
    result.unwrap_or_else(|e| panic!("step {step}: {what} failed: {e}"))
}

/// Runs `cases` random operation sequences against fresh stores from `make_store`, comparing the
/// store with [`InMemoryStore`] after every step.
///
/// Operations: append batches (with redeliveries), put, re-put unchanged, delete, commit with and
/// without a watermark, set watermark, search, timeline pages, `events_after` pages, forget
/// (events, sessions, notes) and a session's events through `search_events`. Compared:
/// append results, timelines (events, seqs, and positions consistent with `events_by_id`), session
/// listings, the order and paging of `events_after`, every note and its history, note listings,
/// watermarks, and search *membership* for single-word queries (scores differ between stores).
///
/// Positions are compared by order only, and every case names its sessions, scopes and watermarks
/// with a unique suffix, so the store may already hold other data. Note text is ASCII, so
/// tokenisation cannot differ between stores. Call it from a plain `#[test]`, not from inside a
/// Tokio runtime: it runs its own.
pub fn model_check<F, Fut>(make_store: F, cases: u32)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Arc<dyn MemoryStore>>,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime for the model check");
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&arb_case(), |(pool, ops)| {
        runtime.block_on(async {
            let store = make_store().await;
            run_case(store.as_ref(), &pool, &ops).await;
        });
        Ok(())
    });
    if let Err(e) = result {
        panic!("model check failed: {e}");
    }
}

async fn run_case(store: &dyn MemoryStore, pool: &[(HookEvent, usize)], ops: &[Op]) {
    let model = InMemoryStore::new();
    let names = Names::new(pool);
    let caps = store.capabilities();
    for (step, op) in ops.iter().enumerate() {
        match op {
            Op::Append(indexes) => {
                let batch: Vec<HookEvent> = indexes.iter().map(|&i| names.events[i].clone()).collect();
                let want = ok(model.append(&batch).await, step, "model append");
                let got = ok(store.append(&batch).await, step, "append");
                assert_eq!(got, want, "step {step}: append results differ");
            }
            Op::Put { scope, path, spec } => {
                let note = names.note(*scope, *path, spec);
                ok(model.put_note(&note).await, step, "model put");
                ok(store.put_note(&note).await, step, "put_note");
            }
            Op::Reput { scope, path } => {
                let (scope, path) = (&names.scopes[*scope], &names.paths[*path]);
                if let Some(note) = ok(model.get_note(scope, path).await, step, "model get") {
                    ok(model.put_note(&note).await, step, "model put");
                    ok(store.put_note(&note).await, step, "put_note unchanged");
                }
            }
            Op::Delete { scope, path } => {
                let (scope, path) = (&names.scopes[*scope], &names.paths[*path]);
                let want = ok(model.delete_note(scope, path).await, step, "model delete");
                let got = ok(store.delete_note(scope, path).await, step, "delete_note");
                assert_eq!(got, want, "step {step}: delete_note result differs");
            }
            Op::Commit { changes, watermark } => {
                let changes: Vec<NoteChange> = changes.iter().map(|c| names.change(c)).collect();
                let advance = watermark.map(|(name, position)| WatermarkAdvance {
                    name: names.watermarks[name].clone(),
                    position,
                });
                ok(model.commit(&changes, advance.as_ref()).await, step, "model commit");
                ok(store.commit(&changes, advance.as_ref()).await, step, "commit");
            }
            Op::SetWatermark { name, position } => {
                ok(model.set_watermark(&names.watermarks[*name], *position).await, step, "model watermark");
                ok(store.set_watermark(&names.watermarks[*name], *position).await, step, "set_watermark");
            }
            Op::Search { word, scopes, limit } => {
                if caps.full_text_search {
                    compare_search(store, &model, &names, step, QUERY_WORDS[*word], scopes, *limit).await;
                }
            }
            Op::Timeline { session, after_seq, limit } => {
                let key = &names.sessions[*session];
                let want = ok(model.timeline(key, *after_seq, *limit).await, step, "model timeline");
                let got = ok(store.timeline(key, *after_seq, *limit).await, step, "timeline");
                assert_eq!(strip(&got), strip(&want), "step {step}: timeline page of {key} differs");
            }
            Op::EventsAfter { start, limit } => {
                compare_events_after_page(store, &model, step, *start, *limit).await;
            }
            Op::Forget { events, sessions, notes } => {
                let what = memory_core::ForgetSet {
                    events: events.iter().map(|&i| names.events[i].id.clone()).collect(),
                    sessions: sessions.iter().map(|&i| names.sessions[i].clone()).collect(),
                    notes: notes
                        .iter()
                        .map(|&(s, p)| (names.scopes[s].clone(), names.paths[p].clone()))
                        .collect(),
                };
                let want = ok(model.forget(&what).await, step, "model forget");
                let got = ok(store.forget(&what).await, step, "forget");
                assert_eq!(got, want, "step {step}: forget results differ");
            }
            Op::SessionEvents { session, limit } => {
                let filter = memory_core::EventFilter {
                    session: Some(names.sessions[*session].clone()),
                    ..Default::default()
                };
                let query = memory_core::EventQuery::filtered(filter, *limit);
                let seqs = |hits: Vec<memory_core::EventHit>| {
                    hits.into_iter().map(|h| (h.event.seq, h.event.event.id)).collect::<Vec<_>>()
                };
                let want = seqs(ok(model.search_events(&query).await, step, "model search_events"));
                let got = seqs(ok(store.search_events(&query).await, step, "search_events"));
                assert_eq!(got, want, "step {step}: a session's events, newest first, differ");
            }
        }
        compare_all(store, &model, &names, step).await;
    }
}

/// Events without their positions, which differ between stores.
fn strip(events: &[StoredEvent]) -> Vec<(u64, &HookEvent)> {
    events.iter().map(|s| (s.seq, &s.event)).collect()
}

/// The store's view of the case's own events, in store position order.
async fn own_events(store: &dyn MemoryStore, model: &InMemoryStore, step: usize) -> Vec<StoredEvent> {
    let want = ok(model.events_after(0, usize::MAX).await, step, "model events_after");
    let ids: Vec<EventId> = want.iter().map(|s| s.event.id.clone()).collect();
    let mut got = ok(store.events_by_id(&ids).await, step, "events_by_id");
    got.sort_by_key(|s| s.position);
    assert_eq!(strip(&got), strip(&want), "step {step}: events in position order differ from append order");
    got
}

async fn compare_events_after_page(
    store: &dyn MemoryStore,
    model: &InMemoryStore,
    step: usize,
    start: usize,
    limit: usize,
) {
    let own = own_events(store, model, step).await;
    let Some(cursor) = own.get(start).map(|s| s.position) else { return };
    let page = ok(store.events_after(cursor, limit).await, step, "events_after");
    assert!(page.len() <= limit, "step {step}: events_after returned more than the limit");
    assert!(page.iter().all(|s| s.position > cursor), "step {step}: events_after is exclusive");
    assert!(page.windows(2).all(|w| w[0].position < w[1].position), "step {step}: positions increase");
    let ids: BTreeSet<&EventId> = own.iter().map(|s| &s.event.id).collect();
    let mine: Vec<&StoredEvent> = page.iter().filter(|s| ids.contains(&s.event.id)).collect();
    let expected: Vec<&StoredEvent> = own[start + 1..].iter().take(mine.len()).collect();
    assert_eq!(mine, expected, "step {step}: events_after page skips or reorders events");
    if page.len() < limit {
        assert_eq!(mine.len(), own.len() - start - 1, "step {step}: a short page must be the last one");
    }
}

async fn compare_all(store: &dyn MemoryStore, model: &InMemoryStore, names: &Names, step: usize) {
    let caps = store.capabilities();
    // Timelines, and positions agreeing with events_by_id.
    let own = own_events(store, model, step).await;
    for key in &names.sessions {
        let want = ok(model.timeline(key, 0, usize::MAX).await, step, "model timeline");
        let got = ok(store.timeline(key, 0, usize::MAX).await, step, "timeline");
        assert_eq!(strip(&got), strip(&want), "step {step}: timeline of {key} differs");
        for s in &got {
            let by_id = own.iter().find(|o| o.event.id == s.event.id).map(|o| o.position);
            assert_eq!(
                by_id,
                Some(s.position),
                "step {step}: timeline and events_by_id disagree on position"
            );
        }
    }
    // Sessions: same facts, most recent first.
    let want = ok(model.sessions().await, step, "model sessions");
    let got: Vec<_> = ok(store.sessions().await, step, "sessions")
        .into_iter()
        .filter(|s| names.sessions.contains(&s.key))
        .collect();
    assert!(
        got.windows(2).all(|w| w[0].last_at >= w[1].last_at),
        "step {step}: sessions not most recent first"
    );
    let sorted = |mut v: Vec<memory_core::SessionInfo>| {
        v.sort_by(|a, b| a.key.cmp(&b.key));
        v
    };
    assert_eq!(sorted(got), sorted(want), "step {step}: sessions differ");
    // Notes, history and listings.
    for scope in &names.scopes {
        for path in &names.paths {
            let want = ok(model.get_note(scope, path).await, step, "model get");
            let got = ok(store.get_note(scope, path).await, step, "get_note");
            assert_eq!(got, want, "step {step}: note {scope} {path} differs");
            if caps.note_history {
                let want = ok(model.note_history(scope, path).await, step, "model history");
                let got = ok(store.note_history(scope, path).await, step, "note_history");
                assert_eq!(got, want, "step {step}: history of {scope} {path} differs");
            }
        }
        for prefix in [None, Some("tools/"), Some("tools/cargo/"), Some("zzz")] {
            let filter = NoteFilter { scope: Some(scope.clone()), prefix: prefix.map(str::to_owned) };
            let want = ok(model.list_notes(&filter).await, step, "model list");
            let got = ok(store.list_notes(&filter).await, step, "list_notes");
            assert_eq!(got, want, "step {step}: list of {scope} with prefix {prefix:?} differs");
        }
    }
    let all = NoteFilter { scope: None, prefix: Some("tools/".to_owned()) };
    let want = ok(model.list_notes(&all).await, step, "model list");
    let got: Vec<Note> = ok(store.list_notes(&all).await, step, "list_notes")
        .into_iter()
        .filter(|n| names.scopes.contains(&n.meta.scope))
        .collect();
    assert_eq!(got, want, "step {step}: list of every scope differs");
    // Watermarks.
    for name in &names.watermarks {
        let want = ok(model.watermark(name).await, step, "model watermark");
        let got = ok(store.watermark(name).await, step, "watermark");
        assert_eq!(got, want, "step {step}: watermark {name} differs");
    }
    let want = ok(model.watermarks().await, step, "model watermarks");
    let got: Vec<(String, u64)> = ok(store.watermarks().await, step, "watermarks")
        .into_iter()
        .filter(|(n, _)| names.watermarks.contains(n))
        .collect();
    assert_eq!(got, want, "step {step}: watermark listing differs");
}

async fn compare_search(
    store: &dyn MemoryStore,
    model: &InMemoryStore,
    names: &Names,
    step: usize,
    word: &str,
    mask: &[bool],
    limit: usize,
) {
    let scopes: Vec<Scope> =
        names.scopes.iter().zip(mask).filter(|(_, on)| **on).map(|(s, _)| s.clone()).collect();
    if scopes.is_empty() {
        // An empty scope list searches every scope, including other data in the store.
        return;
    }
    let query = SearchQuery::new(word, scopes, limit);
    let want = ok(model.search_notes(&query).await, step, "model search");
    let got = ok(store.search_notes(&query).await, step, "search_notes");
    assert_eq!(got.len(), want.len(), "step {step}: search {word:?} found a different number of notes");
    let key = |n: &Note| (n.meta.scope.clone(), n.path.clone());
    if want.len() < limit {
        let want_set: BTreeSet<_> = want.iter().map(|h| key(&h.note)).collect();
        let got_set: BTreeSet<_> = got.iter().map(|h| key(&h.note)).collect();
        assert_eq!(got_set, want_set, "step {step}: search {word:?} found different notes");
    }
    for hit in &got {
        let current = ok(model.get_note(&hit.note.meta.scope, &hit.note.path).await, step, "model get");
        assert_eq!(Some(&hit.note), current.as_ref(), "step {step}: a hit is not the current note");
        assert_eq!(hit.matched_terms, 1, "step {step}: a one-word query matches one term");
    }
    assert!(got.windows(2).all(|w| w[0].score >= w[1].score), "step {step}: hits are not best first");
}
