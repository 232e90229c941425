//! `agent-memory migrate`: SQLite → Neo4j → SQLite keeps sessions, event order, notes with their
//! history and watermarks. Runs against the real Neo4j test server (`scripts/neo4j-test-server`).

#![allow(clippy::print_stderr, reason = "the test says when it is skipped")]

use std::path::Path;

use memory_core::{MemoryStore, NoteFilter, WatermarkAdvance};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use memory_testkit::fixtures::{event, note, project_scope, session, unique};

use crate::support::Machine;

/// The test server's address and credentials; `None` (with a skip line) outside CI.
fn neo4j() -> Option<(String, String, String)> {
    let vars = ["NEO4J_TEST_URI", "NEO4J_TEST_USER", "NEO4J_TEST_PASS"].map(|v| std::env::var(v).ok());
    match vars {
        [Some(uri), user, pass] => {
            Some((uri, user.unwrap_or_else(|| "neo4j".into()), pass.unwrap_or_default()))
        }
        _ if std::env::var_os("CI").is_some() => {
            panic!(
                "NEO4J_TEST_URI is not set: run the suite with scripts/test (it starts the Neo4j test server)"
            )
        }
        _ => {
            eprintln!("skipping: NEO4J_TEST_URI is not set (scripts/test starts a Neo4j test server)");
            None
        }
    }
}

fn sqlite(path: &Path) -> SqliteStore {
    SqliteStore::open(&SqliteConfig::new(path)).unwrap()
}

#[test]
fn sqlite_to_neo4j_to_sqlite_keeps_everything() {
    let Some((uri, user, pass)) = neo4j() else { return };
    let m = Machine::new();
    let (a, b) = (m.dir.path().join("a.db"), m.dir.path().join("b.db"));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let label = unique("migrate");
    let sessions = [session(&format!("{label}-one")), session(&format!("{label}-two"))];
    let scope = project_scope(&label);
    let mark = format!("dream:{label}");

    let source = sqlite(&a);
    runtime.block_on(async {
        for (i, s) in sessions.iter().enumerate() {
            let events: Vec<_> = (0..7).map(|k| event(s, &format!("{label}-{i}-{k}"), k)).collect();
            source.append(&events).await.unwrap();
        }
        let middle = source.timeline(&sessions[0], 3, 1).await.unwrap()[0].position;
        source.commit(&[], Some(&WatermarkAdvance { name: mark.clone(), position: middle })).await.unwrap();
        for version in ["first", "second", "third"] {
            source
                .put_note(&note(&scope, "conventions.md", "Conventions", &["rust"], version))
                .await
                .unwrap();
        }
        source
            .put_note(&note(&scope, "tools/cargo.md", "Cargo", &[], "cargo test --workspace"))
            .await
            .unwrap();
    });

    let migrate = |from: &str, to: &str| {
        let out = m
            .command(&["--json", "migrate", "--from", from, "--to", to])
            .env("NEO4J_USERNAME", &user)
            .env("NEO4J_PASSWORD", &pass)
            .output()
            .unwrap();
        assert!(out.status.success(), "migrate {from} → {to}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let neo = format!("neo4j:{uri}");
    let first = migrate(&format!("sqlite:{}", a.display()), &neo);
    assert_eq!(first["events"], 14, "{first}");
    let again = migrate(&format!("sqlite:{}", a.display()), &neo);
    assert_eq!(again["events"], 0, "a second run copies nothing new: {again}");
    migrate(&neo, &format!("sqlite:{}", b.display()));

    let target = sqlite(&b);
    runtime.block_on(async {
        for s in &sessions {
            let strip = |events: Vec<memory_core::StoredEvent>| -> Vec<_> {
                events.into_iter().map(|e| (e.seq, e.event)).collect()
            };
            let before = strip(source.timeline(s, 0, 100).await.unwrap());
            assert_eq!(before.len(), 7);
            assert_eq!(strip(target.timeline(s, 0, 100).await.unwrap()), before, "session {s}");
        }
        let notes = source.list_notes(&NoteFilter::scope(scope.clone())).await.unwrap();
        assert_eq!(target.list_notes(&NoteFilter::scope(scope.clone())).await.unwrap(), notes);
        for n in &notes {
            assert_eq!(
                target.note_history(&scope, &n.path).await.unwrap(),
                source.note_history(&scope, &n.path).await.unwrap(),
                "history of {}",
                n.path
            );
        }
        assert_eq!(source.note_history(&scope, &notes[0].path).await.unwrap().len(), 2);
        // The watermark points at the same event in both stores.
        let mut marked = Vec::new();
        for store in [&source, &target] {
            let position = store.watermark(&mark).await.unwrap().expect("watermark copied");
            marked.push(store.events_after(position - 1, 1).await.unwrap()[0].event.id.clone());
        }
        assert_eq!(marked[0], marked[1]);
    });
}
