//! Delivery to a server store in forward mode: the lag of events while hooks run at a steady
//! rate, and the rate of a bulk delivery of a journal.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use memory_core::{EventId, EventKind, Harness, HookEvent, MemoryStore, SessionKey};
use serde_json::json;

/// Watches a session in the store from a thread of its own (its own connection, on loopback) and
/// notes when each tool call id first appears.
pub(crate) struct Watcher {
    seen: Arc<Mutex<HashMap<String, Instant>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watcher {
    pub(crate) fn start(
        config: memory_store_neo4j::Neo4jConfig,
        session: SessionKey,
    ) -> anyhow::Result<Self> {
        let seen = Arc::new(Mutex::new(HashMap::new()));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (seen2, stop2) = (Arc::clone(&seen), Arc::clone(&stop));
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let store = runtime.block_on(memory_store_neo4j::Neo4jStore::connect(&config))?;
        let thread = std::thread::spawn(move || {
            let mut after = 0;
            while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(events) = runtime.block_on(store.timeline(&session, after, 1_000)) {
                    let now = Instant::now();
                    let mut seen = seen2.lock().unwrap();
                    for e in events {
                        after = after.max(e.seq);
                        if let Some(id) = e.event.tool.as_ref().and_then(|t| t.use_id.clone()) {
                            seen.entry(id).or_insert(now);
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        Ok(Self { seen, stop, thread: Some(thread) })
    }

    /// When `id` was first seen, waiting up to `limit` for it.
    pub(crate) fn seen(&self, id: &str, limit: Duration) -> Option<Instant> {
        let until = Instant::now() + limit;
        loop {
            if let Some(at) = self.seen.lock().unwrap().get(id) {
                return Some(*at);
            }
            if Instant::now() > until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Writes `count` Bash `PostToolUse` events over 50 sessions into a journal folder, as hooks
/// journal them (one file each, named by time).
pub(crate) fn fill_journal(dir: &Path, count: usize, tag: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let base = Utc::now();
    for i in 0..count {
        let session = format!("bench-bulk-{tag}-{}", i % 50);
        let at = base + chrono::Duration::microseconds(i as i64);
        let raw = json!({
            "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": format!("toolu_{tag}_{i}"),
            "tool_input": { "command": "cargo test --workspace" },
            "tool_response": { "stdout": "test result: ok. 42 passed; 0 failed; 0 ignored; finished in 3.1s\n".repeat(12),
                "stderr": "", "interrupted": false, "isImage": false },
        });
        let id = EventId::derive("claude", &session, at, format!("{tag}-{i}").as_bytes());
        let harness = Harness { name: "claude".to_owned(), version: None };
        let event = HookEvent::new(
            id.clone(),
            harness,
            SessionKey::new("claude", &session),
            EventKind::PostToolUse,
            at,
            raw,
        );
        let nanos = at.timestamp_nanos_opt().unwrap_or_default();
        std::fs::write(dir.join(format!("{nanos:020}-{id}.json")), serde_json::to_vec(&event)?)?;
    }
    Ok(())
}

/// Delivers a journal folder to `store` as the forwarder does; events per second.
pub(crate) async fn bulk(store: &dyn MemoryStore, dir: &Path) -> anyhow::Result<(usize, f64)> {
    let journals = [memory_hook::Journal::new(dir.to_path_buf())];
    let started = Instant::now();
    let done = memory_hook::forward::deliver(&journals, store).await?;
    anyhow::ensure!(done.remaining == 0, "{} events left", done.remaining);
    Ok((done.delivered, done.delivered as f64 / started.elapsed().as_secs_f64()))
}
