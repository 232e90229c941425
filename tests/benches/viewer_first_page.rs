//! Viewer latency benchmark: a SQLite store filled with 100k events in 2,000 sessions of three
//! harnesses, the viewer serving it in process on loopback, and the time from request to the last
//! byte of its pages over a fresh connection each: the first page (the sessions timeline) cold
//! and warm, one session's events, the notes tree, a search.
//!
//! Run with `cargo bench -p tests --bench viewer_first_page` (add `-- --quick` for fewer runs).

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{TimeZone as _, Utc};
use memory_core::{EventId, EventKind, Harness, HookEvent, MemoryStore, SessionKey};
use serde_json::json;

const EVENTS: usize = 100_000;
const SESSIONS: usize = 2_000;

fn fill(store: &dyn MemoryStore, runtime: &tokio::runtime::Runtime) {
    let harnesses = ["claude", "codex", "cursor"];
    let start = Utc.with_ymd_and_hms(2026, 1, 1, 9, 0, 0).unwrap();
    let mut batch = Vec::with_capacity(1_000);
    for i in 0..EVENTS {
        let session = i % SESSIONS;
        let harness = harnesses[session % harnesses.len()];
        let key = SessionKey::new(harness, &format!("bench-{session}"));
        let at = start + chrono::Duration::seconds(i as i64 * 7);
        let mut event = HookEvent::new(
            EventId::derive(harness, key.as_str(), at, format!("{i}").as_bytes()),
            Harness::named(harness),
            key,
            EventKind::UserPromptSubmit,
            at,
            json!({}),
        );
        event.project = Some(format!("project-{}", session % 20));
        event.prompt =
            Some(format!("run the tests of module {i} and fix the retry timeout in the upload client"));
        batch.push(event);
        if batch.len() == 1_000 {
            runtime.block_on(store.append(&batch)).unwrap();
            batch.clear();
        }
    }
}

/// One GET over a fresh connection, read to its last byte.
fn get(addr: SocketAddr, token: &str, target: &str) -> (Duration, usize) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nCookie: agent_memory_token={token}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut body = Vec::new();
    stream.read_to_end(&mut body).unwrap();
    assert!(
        body.starts_with(b"HTTP/1.1 200"),
        "{target}: {}",
        String::from_utf8_lossy(&body[..body.len().min(200)])
    );
    (started.elapsed(), body.len())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 5 } else { 30 };
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let store: Arc<dyn MemoryStore> = Arc::new(
        memory_store_sqlite::SqliteStore::open(&memory_store_sqlite::SqliteConfig::new(
            dir.path().join("memory.db"),
        ))
        .unwrap(),
    );
    let filling = Instant::now();
    fill(store.as_ref(), &runtime);
    println!(
        "store: {EVENTS} events in {SESSIONS} sessions, filled in {:.1} s",
        filling.elapsed().as_secs_f64()
    );
    let env = memory_hook::Env::from_pairs([("AGENT_MEMORY_HOME", dir.path().to_str().unwrap())]);
    let config = memory_hook::Config::load_from(&env).unwrap();
    let viewer = memory_viewer::Viewer::new(store, config, env).unwrap();
    let token = viewer.token().to_owned();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    runtime.spawn(viewer.serve(listener, std::future::pending()));

    let (cold, bytes) = get(addr, &token, "/");
    println!("{:<44} {:>9} {:>9} {:>9}", "page", "p50 ms", "p99 ms", "KiB");
    println!(
        "{:<44} {:>9.2} {:>9} {:>9}",
        "/ (sessions timeline), first request",
        ms(cold),
        "",
        bytes / 1024
    );
    for (label, target) in [
        ("/ (sessions timeline)", "/".to_owned()),
        ("/?page=20 (sessions 1001-1050)", "/?page=20".to_owned()),
        ("/session (50 events)", "/session?key=codex%3Abench-7".to_owned()),
        ("/notes", "/notes".to_owned()),
        ("/search?q=retry+timeout", "/search?q=retry+timeout".to_owned()),
    ] {
        let mut times: Vec<Duration> = Vec::new();
        let mut size = 0;
        for _ in 0..runs {
            let (t, b) = get(addr, &token, &target);
            times.push(t);
            size = b;
        }
        times.sort();
        let p50 = times[times.len() / 2];
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        println!("{label:<44} {:>9.2} {:>9.2} {:>9}", ms(p50), ms(p99), size / 1024);
    }
}
