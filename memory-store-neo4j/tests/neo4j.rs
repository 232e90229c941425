//! Integration tests against a real Neo4j server.
//!
//! The server comes from `NEO4J_TEST_URI`, `NEO4J_TEST_USER` and `NEO4J_TEST_PASS`
//! (`scripts/neo4j-test-server run -- cargo test -p agent-memory-store-neo4j` sets them). Without them
//! every test prints one skip line and passes, except under CI (`CI` set), where they fail.
//!
//! Every test works in its own uniquely named sessions, scopes and watermarks, so the suite can
//! run against a shared server that already holds data, and its tests can run in parallel.
#![allow(clippy::print_stderr)]

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use memory_core::{EventId, HookEvent, MemoryStore, NoteChange, Scope, SessionKey, VectorQuery};
use memory_store_neo4j::{Neo4jConfig, Neo4jStore};
use memory_testkit::fixtures::{event, note, project_scope, session, unique};
use memory_testkit::multi_process::{AppendChild, AppendProcesses, run_append_processes};
use neo4rs::{Graph, query};
use support::{connect, raw, server};

mod support;

/// Model-check cases run against the server (each case is up to 24 operations, each followed by a
/// full comparison of the case's data: about one second per case). `NEO4J_TEST_MODEL_CASES`
/// overrides it for longer runs.
const MODEL_CASES: u32 = 64;

/// The chain facts of one session (see `docs.md`).
#[derive(Debug, PartialEq, Eq)]
struct Chain {
    last_seq: i64,
    events: i64,
    chain_len: i64,
    forks: i64,
    branches: i64,
    firsts: i64,
    out_of_order_links: i64,
    last_pointer_seq: i64,
}

impl Chain {
    fn intact(n: i64) -> Self {
        Self {
            last_seq: n,
            events: n,
            chain_len: n,
            forks: 0,
            branches: 0,
            firsts: 1,
            out_of_order_links: 0,
            last_pointer_seq: n,
        }
    }
}

const CHAIN_QUERY: &str = "
MATCH (s:Session {id: $session})
OPTIONAL MATCH (s)-[:HAS_FIRST_EVENT]->(f:Event)
OPTIONAL MATCH path = (f)-[:NEXT*0..]->(last:Event)
WHERE NOT (last)-[:NEXT]->()
WITH s, max(length(path)) + 1 AS chain_len
CALL (s) { MATCH (e:Event {session_id: s.id}) RETURN count(e) AS n }
CALL (s) {
  MATCH (e:Event {session_id: s.id})<-[r:NEXT]-()
  WITH e, count(r) AS c WHERE c > 1
  RETURN count(e) AS forks
}
CALL (s) {
  MATCH (e:Event {session_id: s.id})-[r:NEXT]->()
  WITH e, count(r) AS c WHERE c > 1
  RETURN count(e) AS branches
}
CALL (s) { MATCH (s)-[r:HAS_FIRST_EVENT]->() RETURN count(r) AS firsts }
CALL (s) {
  MATCH (a:Event {session_id: s.id})-[:NEXT]->(b:Event)
  WHERE b.seq <> a.seq + 1 OR b.session_id <> a.session_id
  RETURN count(*) AS out_of_order
}
CALL (s) { OPTIONAL MATCH (s)-[:LAST_EVENT]->(l:Event) RETURN coalesce(max(l.seq), -1) AS last_pointer }
RETURN s.last_seq AS last_seq, n, chain_len, forks, branches, firsts, out_of_order, last_pointer";

async fn chain(graph: &Graph, session: &SessionKey) -> Chain {
    let mut rows =
        graph.execute(query(CHAIN_QUERY).param("session", session.as_str())).await.expect("chain query");
    let row = rows.next().await.expect("chain row").expect("the session exists");
    let int = |k: &str| row.get::<i64>(k).unwrap_or_else(|e| panic!("column {k}: {e}"));
    Chain {
        last_seq: int("last_seq"),
        events: int("n"),
        chain_len: int("chain_len"),
        forks: int("forks"),
        branches: int("branches"),
        firsts: int("firsts"),
        out_of_order_links: int("out_of_order"),
        last_pointer_seq: int("last_pointer"),
    }
}

async fn count(graph: &Graph, cypher: &str, key: &str, value: &str) -> i64 {
    let mut rows = graph.execute(query(cypher).param(key, value)).await.expect("count query");
    let row = rows.next().await.expect("count row").expect("one row");
    row.get::<i64>("n").expect("column n")
}

#[tokio::test]
async fn append_is_idempotent_and_keeps_one_chain() {
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    let key = session("chain");
    let events: Vec<HookEvent> = (0..5).map(|i| event(&key, &format!("c{i}"), i)).collect();

    let first = store.append(&events[..3]).await.expect("append");
    assert_eq!(
        first.iter().map(|a| (a.seq, a.inserted)).collect::<Vec<_>>(),
        [(1, true), (2, true), (3, true)]
    );

    // A redelivery, a repeat inside the batch, and new events, all at once.
    let batch =
        [events[1].clone(), events[3].clone(), events[3].clone(), events[4].clone(), events[0].clone()];
    let second = store.append(&batch).await.expect("append with repeats");
    assert_eq!(
        second.iter().map(|a| (a.seq, a.inserted)).collect::<Vec<_>>(),
        [(2, false), (4, true), (4, false), (5, true), (1, false)]
    );
    let again = store.append(&events).await.expect("redeliver everything");
    assert!(again.iter().all(|a| !a.inserted), "nothing new: {again:?}");
    assert_eq!(again.iter().map(|a| a.seq).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);

    let timeline = store.timeline(&key, 0, 100).await.expect("timeline");
    assert_eq!(timeline.iter().map(|s| &s.event).collect::<Vec<_>>(), events.iter().collect::<Vec<_>>());
    assert_eq!(chain(&raw(&config), &key).await, Chain::intact(5));
}

#[tokio::test]
async fn concurrent_tasks_append_to_one_session_without_forks() {
    let Some(config) = server() else { return };
    let store = Arc::new(connect(&config).await);
    let key = session("tasks");
    let tasks = 8;
    let per_task = 12;
    let mut handles = Vec::new();
    for t in 0..tasks {
        let store = Arc::clone(&store);
        let key = key.clone();
        handles.push(tokio::spawn(async move {
            for i in 0..per_task {
                let e = event(&key, &format!("t{t}-{i}"), i64::from(i));
                let shared = event(&key, &format!("shared-{i}"), 0);
                let appended = store.append(&[e, shared]).await.expect("append");
                assert!(appended[0].inserted, "a fresh id is inserted");
            }
        }));
    }
    for handle in handles {
        handle.await.expect("task");
    }
    let n = i64::from(tasks * per_task + per_task);
    assert_eq!(chain(&raw(&config), &key).await, Chain::intact(n));
    let seqs: Vec<u64> =
        store.timeline(&key, 0, usize::MAX).await.expect("timeline").iter().map(|s| s.seq).collect();
    assert_eq!(seqs, (1..=n as u64).collect::<Vec<_>>());
}

#[tokio::test]
async fn notes_link_to_events_versions_and_projects() {
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    let graph = raw(&config);
    let key = session("links");
    let project = unique("proj");
    let mut events: Vec<HookEvent> = (0..3).map(|i| event(&key, &format!("l{i}"), i)).collect();
    events[1].project = Some(project.clone());
    store.append(&events).await.expect("append");
    let filed = count(
        &graph,
        "MATCH (:Project {id: $project})-[:HAS_SESSION]->(s:Session) RETURN count(s) AS n",
        "project",
        &project,
    )
    .await;
    assert_eq!(filed, 1, "the session is filed under its project");

    let scope = project_scope("links");
    let mut v1 = note(&scope, "facts/linked.md", "Linked", &[], "first\n");
    v1.meta.sources = vec![events[0].id.clone(), events[2].id.clone(), EventId("f".repeat(32))];
    let mut v2 = v1.clone();
    v2.body = "second\n".to_owned();
    v2.meta.sources = vec![events[1].id.clone()];
    let mut v3 = v2.clone();
    v3.body = "third\n".to_owned();
    store.put_note(&v1).await.expect("put v1");
    let note_key = serde_json::json!([scope.to_string(), "facts/linked.md"]).to_string();
    let derived = "MATCH (:Note {key: $key})-[:DERIVED_FROM]->(e:Event) RETURN count(e) AS n";
    assert_eq!(count(&graph, derived, "key", &note_key).await, 2, "links to the stored source events only");
    store.commit(&[NoteChange::Put(v2.clone()), NoteChange::Put(v3.clone())], None).await.expect("commit");
    assert_eq!(count(&graph, derived, "key", &note_key).await, 1, "links follow the current version");
    let chain_len = "MATCH p = (:Note {key: $key})-[:PREVIOUS_VERSION*]->(v:NoteVersion) \
                     WHERE NOT (v)-[:PREVIOUS_VERSION]->() RETURN max(length(p)) AS n";
    assert_eq!(count(&graph, chain_len, "key", &note_key).await, 2, "two previous versions, chained");
    assert_eq!(store.note_history(&scope, &v1.path).await.expect("history"), vec![v1.clone(), v2.clone()]);

    assert!(store.delete_note(&scope, &v1.path).await.expect("delete"));
    let left = "MATCH (v:NoteVersion {key: $key}) RETURN count(v) AS n";
    assert_eq!(count(&graph, left, "key", &note_key).await, 0, "versions are deleted with the note");
    let events_left = "MATCH (e:Event {session_id: $key}) RETURN count(e) AS n";
    assert_eq!(count(&graph, events_left, "key", key.as_str()).await, 3, "source events stay");
}

#[tokio::test]
async fn debug_and_errors_never_show_the_password() {
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    let shown = format!("{store:?} {config:?}");
    if !config.password.is_empty() {
        assert!(!shown.contains(&config.password), "Debug shows the password: {shown}");
    }

    // Wrong credentials (for a user that does not exist, so no real account gets rate-limited).
    let wrong_password = format!("wrong-{}", unique("pw"));
    let mut wrong = Neo4jConfig::new(config.uri.clone(), unique("nobody"), wrong_password.clone());
    wrong.connect_timeout = Duration::from_secs(20);
    let err = Neo4jStore::connect(&wrong).await.expect_err("bad credentials must fail");
    assert!(matches!(err, memory_core::Error::Config { store: "neo4j", .. }), "{err:?}");
    let text = format!("{err} {err:?}");
    assert!(!text.contains(&wrong_password), "an error shows the password: {text}");

    // Nothing listens: a transient error within the connect timeout.
    let closed_port =
        std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let mut down =
        Neo4jConfig::new(format!("bolt://127.0.0.1:{closed_port}"), "neo4j", wrong_password.clone());
    down.connect_timeout = Duration::from_secs(1);
    let started = Instant::now();
    let err = Neo4jStore::connect(&down).await.expect_err("nothing listens");
    assert!(err.is_transient(), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "connect gave up after {:?}", started.elapsed());
    assert!(!format!("{err} {err:?}").contains(&wrong_password));

    // Something accepts connections but never answers: a transient timeout.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = silent.local_addr().expect("addr").port();
    let mut hung = Neo4jConfig::new(format!("bolt://127.0.0.1:{port}"), "neo4j", wrong_password.clone());
    hung.connect_timeout = Duration::from_millis(500);
    let started = Instant::now();
    let err = Neo4jStore::connect(&hung).await.expect_err("the server never answers");
    assert!(err.is_transient(), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "connect gave up after {:?}", started.elapsed());
    drop(silent);
}

/// Held by the conformance suite and the model check, which share the server: the suite's
/// retention check removes every old enough event at or below a position, whoever wrote it,
/// and the model check's events carry arbitrary times, decades old ones included.
static SHARED_SERVER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test]
async fn conformance_suite() {
    let Some(config) = server() else { return };
    let _alone = SHARED_SERVER.lock().await;
    let store = connect(&config).await;
    memory_testkit::run_conformance(&store).await;
}

#[tokio::test]
async fn hostile_queries() {
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    memory_testkit::hostile_search(&store).await;
}

#[test]
fn model_check_against_in_memory() {
    let Some(config) = server() else { return };
    let cases =
        std::env::var("NEO4J_TEST_MODEL_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(MODEL_CASES);
    let _alone = SHARED_SERVER.blocking_lock();
    let started = Instant::now();
    memory_testkit::model_check(
        || {
            let config = config.clone();
            async move { Arc::new(connect(&config).await) as Arc<dyn MemoryStore> }
        },
        cases,
    );
    eprintln!("model check: {cases} cases in {:?}", started.elapsed());
}

/// 32 OS processes append to one session at once: one chain, no fork, no gap, every event once.
#[test]
fn processes_append_to_one_session() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    if let Some(child) = AppendChild::from_env() {
        let config = server().expect("a child process needs NEO4J_TEST_URI");
        runtime.block_on(async {
            let store = connect(&config).await;
            child.run(&store).await;
        });
        return;
    }
    let Some(config) = server() else { return };
    runtime.block_on(async {
        let store = connect(&config).await;
        let plan = AppendProcesses::new("processes_append_to_one_session", 32, 5);
        let report = run_append_processes(&store, &plan).await;
        eprintln!("32 processes: {} events in {:?}", report.stored, report.elapsed);
        let n = i64::try_from(report.stored).expect("small");
        assert_eq!(chain(&raw(&config), &report.session).await, Chain::intact(n));
        let ids: BTreeSet<EventId> = store
            .timeline(&report.session, 0, usize::MAX)
            .await
            .expect("timeline")
            .into_iter()
            .map(|s| s.event.id)
            .collect();
        assert_eq!(ids.len() as u64, report.stored, "every event once");
    });
}

#[tokio::test]
async fn searches_only_the_scopes_asked_for_on_a_shared_server() {
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    let word = unique("zebra").replace('-', "");
    let mine = project_scope("mine");
    let theirs = Scope::Project(unique("theirs"));
    for scope in [&mine, &theirs] {
        store
            .put_note(&note(scope, "facts/animal.md", "Animal", &[], &format!("{word} stripes\n")))
            .await
            .expect("put");
    }
    let hits = store
        .search_notes(&memory_core::SearchQuery::new(format!("{word} (\"OR\" *"), vec![mine.clone()], 10))
        .await
        .expect("search");
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].note.meta.scope, mine);
    assert_eq!(hits[0].matched_terms, 1);
    let everywhere =
        store.search_notes(&memory_core::SearchQuery::new(word.clone(), vec![], 10)).await.expect("search");
    assert_eq!(everywhere.len(), 2, "no scopes searches every scope");
}

/// A unit vector of the model's length pointing mostly along `axis`.
fn along(axis: usize, tilt: f32) -> Vec<f32> {
    let mut v = vec![0.0f32; 384];
    v[axis] = 1.0;
    v[(axis + 1) % 384] = tilt;
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.into_iter().map(|x| x / norm).collect()
}

/// Vectors of the model's length go through the vector index; when other scopes crowd its best
/// matches, the exact comparison still finds the asked scope's notes, in order.
#[tokio::test]
async fn vector_search_through_the_index() {
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    let model = unique("model");
    let scope = project_scope(&unique("vectors"));
    let crowd = project_scope(&unique("crowd"));
    let mine = [note(&scope, "notes/a.md", "A", &[], "a\n"), note(&scope, "notes/b.md", "B", &[], "b\n")];
    store.put_note(&mine[0]).await.unwrap();
    store.put_note(&mine[1]).await.unwrap();
    assert!(store.put_embeddings(&mine[0], &model, &[along(7, 0.0), along(9, 0.0)]).await.unwrap());
    assert!(store.put_embeddings(&mine[1], &model, &[along(7, 0.5)]).await.unwrap());
    // 240 vectors closer to the crowded query than `b`'s: more than the index is asked for.
    for i in 0..30 {
        let other = note(&crowd, &format!("notes/{i}.md"), "C", &[], "c\n");
        store.put_note(&other).await.unwrap();
        let vectors: Vec<Vec<f32>> = (0..8).map(|k| along(7, 0.001 * (i * 8 + k) as f32)).collect();
        store.put_embeddings(&other, &model, &vectors).await.unwrap();
    }
    let query =
        VectorQuery { model: model.clone(), vector: along(9, 0.1), scopes: vec![scope.clone()], limit: 2 };
    let hits = store.search_embeddings(&query).await.unwrap();
    let found: Vec<(&str, usize)> = hits.iter().map(|h| (h.note.path.as_str(), h.passage)).collect();
    assert_eq!(found, [("notes/a.md", 1), ("notes/b.md", 0)], "{hits:?}");
    assert!(
        (hits[0].similarity - 0.995).abs() < 0.01,
        "cosine, not Neo4j's (1 + cos) / 2: {}",
        hits[0].similarity
    );
    let crowded = VectorQuery { vector: along(7, 0.0), ..query };
    let hits = store.search_embeddings(&crowded).await.unwrap();
    assert_eq!(hits.len(), 2, "the asked scope's notes, though 240 vectors are closer: {hits:?}");
    assert!(hits.iter().all(|h| h.note.meta.scope == scope));
}

#[tokio::test]
async fn forget_keeps_chains_whole_and_leaves_no_node_behind() {
    use memory_core::{ForgetSet, Forgotten};
    let Some(config) = server() else { return };
    let store = connect(&config).await;
    let graph = raw(&config);
    let key = session("forget-chain");
    let events: Vec<HookEvent> = (0..6).map(|i| event(&key, &format!("f{i}"), i)).collect();
    store.append(&events).await.expect("append");
    // The first, a middle one and the last go.
    let gone = vec![events[0].id.clone(), events[2].id.clone(), events[5].id.clone()];
    let forgotten = store.forget(&ForgetSet { events: gone, ..ForgetSet::default() }).await.expect("forget");
    assert_eq!(forgotten, Forgotten { events: 3, sessions: 0, notes: 0 });
    let facts = chain(&graph, &key).await;
    assert_eq!(
        (facts.events, facts.chain_len, facts.forks, facts.branches, facts.firsts, facts.last_pointer_seq),
        (3, 3, 0, 0, 1, 5),
        "the remaining events stay one chain from the new first to the new last: {facts:?}"
    );
    let more = event(&key, "f6", 6);
    assert_eq!(store.append(std::slice::from_ref(&more)).await.expect("append")[0].seq, 7);
    let seqs: Vec<u64> = store.timeline(&key, 0, 10).await.expect("timeline").iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [2, 4, 5, 7]);
    let facts = chain(&graph, &key).await;
    assert_eq!(
        (facts.events, facts.chain_len, facts.firsts, facts.last_pointer_seq),
        (4, 4, 1, 7),
        "{facts:?}"
    );

    // A whole session, with its project link, and a note with its versions and vectors.
    let scope = project_scope("forget-nodes");
    let mut n = note(&scope, "facts/a.md", "A", &[], "first\n");
    store.put_note(&n).await.expect("put_note");
    n.body = "second\n".to_owned();
    store.put_note(&n).await.expect("put_note");
    assert!(store.put_embeddings(&n, "test-model", &[vec![0.5; 384]]).await.expect("vectors"));
    let key_of = serde_json::json!([scope.to_string(), n.path.as_str()]).to_string();
    let nodes = "MATCH (v) WHERE (v:NoteVersion OR v:NoteVector) AND v.key = $key RETURN count(v) AS n";
    assert_eq!(count(&graph, nodes, "key", &key_of).await, 2, "a version and a vector exist first");
    let other = session("forget-whole");
    let mut whole: Vec<HookEvent> = (0..3).map(|i| event(&other, &format!("w{i}"), i)).collect();
    let project = unique("proj");
    whole[0].project = Some(project.clone());
    store.append(&whole).await.expect("append");
    let what = ForgetSet {
        sessions: vec![other.clone()],
        notes: vec![(scope.clone(), n.path.clone())],
        ..ForgetSet::default()
    };
    assert_eq!(store.forget(&what).await.expect("forget"), Forgotten { events: 3, sessions: 1, notes: 1 });
    assert_eq!(
        count(&graph, "MATCH (s:Session {id: $id}) RETURN count(s) AS n", "id", other.as_str()).await,
        0
    );
    assert_eq!(
        count(&graph, "MATCH (e:Event {session_id: $id}) RETURN count(e) AS n", "id", other.as_str()).await,
        0
    );
    assert_eq!(count(&graph, nodes, "key", &key_of).await, 0, "no version or vector is left");
    assert_eq!(count(&graph, "MATCH (n:Note {key: $k}) RETURN count(n) AS n", "k", &key_of).await, 0);
    let linked = "MATCH (:Project {id: $p})-[:HAS_SESSION]->(s) RETURN count(s) AS n";
    assert_eq!(count(&graph, linked, "p", &project).await, 0, "the project no longer lists the session");
}
