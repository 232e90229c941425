//! Many OS processes appending to one session at once.
//!
//! A store crate's test re-runs its own test binary as child processes. The same `#[test]` plays
//! both roles: when [`AppendChild::from_env`] returns `Some`, it is a child and appends its events;
//! otherwise it is the parent and calls [`run_append_processes`], which spawns the children, waits
//! for them and checks that every event was stored exactly once with seqs 1..=N gap-free.
//!
//! ```ignore
//! #[test]
//! fn processes_append_to_one_session() {
//!     if let Some(child) = AppendChild::from_env() {
//!         let store = open_store(std::env::var("MY_DB").unwrap());
//!         return child.run_blocking(&store);
//!     }
//!     let store = open_store(db_path);
//!     let plan = AppendProcesses::new("processes_append_to_one_session", 32, 10).env("MY_DB", db_path);
//!     run_append_processes_blocking(&store, &plan);
//! }
//! ```

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use memory_core::{EventId, HookEvent, MemoryStore, SessionKey};

use crate::fixtures::{event, event_id, unique};

const ROLE: &str = "MEMORY_TESTKIT_APPEND_CHILD";
const SESSION: &str = "MEMORY_TESTKIT_APPEND_SESSION";
const EVENTS: &str = "MEMORY_TESTKIT_APPEND_EVENTS";
const START: &str = "MEMORY_TESTKIT_APPEND_START";

/// How the parent runs the children.
#[derive(Debug, Clone)]
pub struct AppendProcesses {
    /// The exact name of the test that plays both roles (its path within the test binary).
    pub test_name: String,
    /// How many child processes append at once.
    pub processes: usize,
    /// How many distinct events each child appends, one `append` call each.
    pub events_per_process: usize,
    /// Extra environment for the children (for example where the store lives).
    pub env: Vec<(String, String)>,
    /// How long to wait for every child before failing.
    pub timeout: Duration,
}

impl AppendProcesses {
    /// A plan with no extra environment and a two-minute timeout.
    pub fn new(test_name: &str, processes: usize, events_per_process: usize) -> Self {
        Self {
            test_name: test_name.to_owned(),
            processes,
            events_per_process,
            env: Vec::new(),
            timeout: Duration::from_secs(120),
        }
    }

    /// Adds an environment variable for the children.
    pub fn env(mut self, name: &str, value: impl Into<String>) -> Self {
        self.env.push((name.to_owned(), value.into()));
        self
    }
}

/// The id every child also appends, so that one id is delivered by every process at once.
fn shared_id(session: &SessionKey) -> EventId {
    event_id(&format!("{session}/shared"))
}

fn child_events(session: &SessionKey, index: usize, count: usize) -> Vec<HookEvent> {
    let mut events: Vec<HookEvent> = (0..count)
        .map(|i| event(session, &format!("child{index}-{i}"), (index * count + i) as i64))
        .collect();
    let mut shared = event(session, "shared", 0);
    shared.id = shared_id(session);
    events.insert(count / 2, shared);
    events
}

/// A child's part: which session to append to, and its events.
#[derive(Debug, Clone)]
pub struct AppendChild {
    session: SessionKey,
    index: usize,
    events: usize,
    start: PathBuf,
}

impl AppendChild {
    /// `Some` when this process was spawned by [`run_append_processes`] as a child.
    pub fn from_env() -> Option<Self> {
        let index = std::env::var(ROLE).ok()?.parse().ok()?;
        let session = SessionKey(std::env::var(SESSION).ok()?);
        let events = std::env::var(EVENTS).ok()?.parse().ok()?;
        let start = PathBuf::from(std::env::var_os(START)?);
        Some(Self { session, index, events, start })
    }

    /// Waits for the parent's start signal, then appends this child's events one call at a time
    /// (like hook processes do), redelivers its first event and checks every answer. Panics on any
    /// failure, which fails the child process and so the parent's test.
    pub async fn run(&self, store: &dyn MemoryStore) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.start.exists() {
            assert!(Instant::now() < deadline, "child {}: no start signal", self.index);
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let events = child_events(&self.session, self.index, self.events);
        let mut first = None;
        for event in &events {
            let appended = store
                .append(std::slice::from_ref(event))
                .await
                .unwrap_or_else(|e| panic!("child {}: append failed: {e}", self.index));
            assert_eq!(appended.len(), 1, "one result per event");
            let a = &appended[0];
            assert_eq!((&a.id, &a.session), (&event.id, &self.session), "result names the event");
            assert!(a.seq >= 1, "seqs are 1-based");
            if event.id != shared_id(&self.session) {
                assert!(a.inserted, "child {}: a fresh event was reported as a repeat", self.index);
                first.get_or_insert_with(|| (event.clone(), a.seq));
            }
        }
        if let Some((event, seq)) = first {
            let again = store.append(&[event]).await.unwrap_or_else(|e| panic!("redelivery failed: {e}"));
            assert_eq!((again[0].seq, again[0].inserted), (seq, false), "a redelivery keeps its seq");
        }
    }

    /// [`AppendChild::run`] on a fresh current-thread Tokio runtime.
    pub fn run_blocking(&self, store: &dyn MemoryStore) {
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
        runtime.block_on(self.run(store));
    }
}

/// What the parent saw.
#[derive(Debug, Clone)]
pub struct AppendReport {
    /// The session every child appended to.
    pub session: SessionKey,
    /// Events stored in it (`processes * events_per_process + 1`: the shared event once).
    pub stored: u64,
    /// Time from the start signal to the last child's exit.
    pub elapsed: Duration,
}

fn spawn(plan: &AppendProcesses, session: &SessionKey, index: usize, start: &std::path::Path) -> Child {
    let exe = std::env::current_exe().expect("path of the running test binary");
    let mut command = Command::new(exe);
    command
        .args([plan.test_name.as_str(), "--exact", "--nocapture", "--test-threads", "1"])
        .env(ROLE, index.to_string())
        .env(SESSION, session.as_str())
        .env(EVENTS, plan.events_per_process.to_string())
        .env(START, start)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in &plan.env {
        command.env(name, value);
    }
    command.spawn().expect("spawn a child test process")
}

/// Spawns the children, releases them at once, waits for all of them and checks the session:
/// every event stored exactly once, seqs `1..=processes * events_per_process + 1` with no gap or
/// duplicate, each child's events in its own order. Panics on any failure.
pub async fn run_append_processes(store: &dyn MemoryStore, plan: &AppendProcesses) -> AppendReport {
    let session = SessionKey::new("test", &unique("processes"));
    let dir = tempfile::tempdir().expect("temporary directory for the start signal");
    let start = dir.path().join("start");
    let mut children: Vec<Child> = (0..plan.processes).map(|i| spawn(plan, &session, i, &start)).collect();
    std::fs::write(&start, b"go").expect("write the start signal");
    let started = Instant::now();
    let deadline = started + plan.timeout;
    let mut failures = Vec::new();
    for child in &mut children {
        loop {
            match child.try_wait().expect("wait for a child") {
                Some(_) => break,
                None if Instant::now() > deadline => {
                    let _ = child.kill();
                    break;
                }
                None => tokio::time::sleep(Duration::from_millis(5)).await,
            }
        }
    }
    for (index, child) in children.into_iter().enumerate() {
        let output = child.wait_with_output().expect("collect a child's output");
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || !stdout.contains("1 passed") {
            failures.push(format!(
                "child {index} ({}):\n{stdout}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    let elapsed = started.elapsed();
    assert!(failures.is_empty(), "child processes failed:\n{}", failures.join("\n"));
    let stored = check_session(store, plan, &session).await;
    AppendReport { session, stored, elapsed }
}

/// [`run_append_processes`] on a fresh multi-thread Tokio runtime, for a plain `#[test]`.
pub fn run_append_processes_blocking(store: &dyn MemoryStore, plan: &AppendProcesses) -> AppendReport {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(run_append_processes(store, plan))
}

async fn check_session(store: &dyn MemoryStore, plan: &AppendProcesses, session: &SessionKey) -> u64 {
    let expected = (plan.processes * plan.events_per_process + 1) as u64;
    let timeline = store.timeline(session, 0, usize::MAX).await.expect("timeline of the shared session");
    let seqs: Vec<u64> = timeline.iter().map(|s| s.seq).collect();
    assert_eq!(
        seqs,
        (1..=expected).collect::<Vec<_>>(),
        "seqs must be 1..={expected} with no gap or duplicate"
    );
    let mut ids: Vec<&EventId> = timeline.iter().map(|s| &s.event.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len() as u64, expected, "every event is stored exactly once");
    for index in 0..plan.processes {
        let events = child_events(session, index, plan.events_per_process);
        let order: Vec<u64> = events
            .iter()
            .filter(|e| e.id != shared_id(session))
            .map(|e| {
                timeline
                    .iter()
                    .find(|s| s.event == *e)
                    .unwrap_or_else(|| panic!("event of child {index} missing or changed"))
                    .seq
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "child {index}'s events keep their order");
    }
    let positions: Vec<u64> = timeline.iter().map(|s| s.position).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "positions grow with seq");
    let info = store.sessions().await.expect("sessions");
    let listed = info.iter().find(|s| &s.key == session).expect("the session is listed");
    assert_eq!(listed.events, expected, "the session's event count");
    expected
}
