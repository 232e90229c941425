//! Neo4j store benchmark against a real server: bulk append throughput (batches of hook events over
//! many sessions, as `agent-memory sync` delivers a journal) and note search latency with many
//! notes (prompts as the per-prompt injection sends them).
//!
//! Run it against a fresh server:
//!
//! ```text
//! scripts/neo4j-test-server run -- cargo bench -p agent-memory-store-neo4j --bench neo4j_store
//! ```
//!
//! The server comes from `NEO4J_TEST_URI`, `NEO4J_TEST_USER` and `NEO4J_TEST_PASS`. Sizes: 100,000
//! events and 100,000 notes; `-- --quick` uses 20,000 and 10,000; `NEO4J_BENCH_EVENTS` and
//! `NEO4J_BENCH_NOTES` set them, and `NEO4J_BENCH_BATCH` the events per append (default 1,000).
//! Appends are measured twice, on the fresh server and again once it has compiled its hot paths
//! (the events of the first pass stay in the store); searches after 20 unmeasured ones.
//! Everything is written under unique session and scope names, so a server holding other data is
//! fine, but search figures then include that data's notes.

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use memory_core::{
    EventId, EventKind, Harness, HookEvent, MemoryStore, Note, NoteChange, NoteKind, NoteMeta, NotePath,
    Scope, SearchQuery, SessionKey, ToolCall,
};
use memory_store_neo4j::{Neo4jConfig, Neo4jStore};
use memory_testkit::fixtures::{base_time, unique};
use serde_json::json;

/// Events per `append` call (`NEO4J_BENCH_BATCH` sets it).
const APPEND_BATCH: usize = 1_000;
/// Sessions the appended events are spread over.
const SESSIONS: usize = 50;
/// Notes per `commit` call while seeding.
const NOTE_BATCH: usize = 500;
/// Commits running at once while seeding (each note costs a few round trips).
const SEED_TASKS: usize = 8;
/// Searches per query shape.
const SEARCHES: usize = 200;
/// Hits asked per search, as the per-prompt injection asks.
const SEARCH_LIMIT: usize = 12;

/// Everyday developer words: each is in many notes.
const COMMON: &[&str] = &[
    "cargo",
    "test",
    "workspace",
    "clippy",
    "retry",
    "http",
    "client",
    "timeout",
    "error",
    "async",
    "tokio",
    "runtime",
    "sqlite",
    "graph",
    "migration",
    "schema",
    "index",
    "cache",
    "deploy",
    "docker",
    "python",
    "pytest",
    "fixture",
    "snapshot",
    "serde",
    "json",
    "yaml",
    "toml",
    "branch",
    "commit",
    "rebase",
    "review",
    "lint",
    "format",
    "release",
    "version",
    "feature",
    "flag",
    "logging",
    "config",
    "secret",
    "token",
    "build",
    "linker",
    "profile",
    "benchmark",
    "database",
    "query",
    "server",
    "socket",
];

/// Verbs and glue of note sentences.
const VERBS: &[&str] =
    &["use", "prefer", "avoid", "run", "pin", "check", "keep", "split", "bump", "document", "mock", "wrap"];

/// Project-specific words (crate names, hosts, identifiers): each is in a handful of notes.
fn rare_word(n: usize) -> String {
    const SYLLABLES: &[&str] = &["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "qu", "po", "da"];
    let n = n % RARE_WORDS;
    format!("{}{}{}{}", SYLLABLES[n % 12], SYLLABLES[(n / 12) % 12], SYLLABLES[(n / 144) % 12], n / 1728)
}

/// Size of the vocabulary of project-specific words.
const RARE_WORDS: usize = 40_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let quick = std::env::args().any(|a| a == "--quick");
    let size = |name: &str, full: usize, small: usize| -> Result<usize, Box<dyn std::error::Error>> {
        match std::env::var(name) {
            Ok(v) => Ok(v.parse().map_err(|_| format!("{name}={v} is not a number"))?),
            Err(_) => Ok(if quick { small } else { full }),
        }
    };
    let events = size("NEO4J_BENCH_EVENTS", 100_000, 20_000)?;
    let batch = size("NEO4J_BENCH_BATCH", APPEND_BATCH, APPEND_BATCH)?.max(1);
    let notes = size("NEO4J_BENCH_NOTES", 100_000, 10_000)?;
    let uri = std::env::var("NEO4J_TEST_URI").map_err(|_| {
        "NEO4J_TEST_URI is not set; run: scripts/neo4j-test-server run -- cargo bench -p agent-memory-store-neo4j \
         --bench neo4j_store"
    })?;
    let user = std::env::var("NEO4J_TEST_USER").unwrap_or_else(|_| "neo4j".to_owned());
    let pass = std::env::var("NEO4J_TEST_PASS").unwrap_or_default();
    let mut config = Neo4jConfig::new(uri, user, pass);
    config.connect_timeout = Duration::from_secs(30);
    config.query_timeout = Duration::from_secs(300);

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let store = Arc::new(Neo4jStore::connect(&config).await?);
        println!("neo4j store benchmark: {} ({events} events, {notes} notes)", config.uri);
        bench_append(&store, events, batch).await?;
        let scope = Scope::Project(unique("bench-project"));
        seed_notes(&store, &scope, notes).await?;
        bench_search(&store, &scope, notes).await?;
        Ok(())
    })
}

/// A hook event of the kinds a session mostly fires: tool calls, with a prompt now and then.
fn hook_event(session: &SessionKey, i: usize, at: DateTime<Utc>) -> HookEvent {
    let word = COMMON[i % COMMON.len()];
    let rare = rare_word(i * 13);
    let (kind, raw) = if i.is_multiple_of(8) {
        (EventKind::UserPromptSubmit, json!({ "prompt": format!("why does {word} fail for {rare} again?") }))
    } else {
        let command = format!("cargo test -p {rare} -- {word}");
        (
            EventKind::PostToolUse,
            json!({
                "tool_name": "Bash",
                "tool_use_id": format!("toolu_{i:08}"),
                "tool_input": { "command": command },
                "tool_response": { "stdout": format!("running 12 tests\ntest {word}::{rare} ... ok\ntest result: ok. 12 passed; 0 failed"), "stderr": "" },
            }),
        )
    };
    let id = EventId::derive("claude", session.as_str(), at, format!("{i}").as_bytes());
    let mut event = HookEvent::new(id, Harness::named("claude"), session.clone(), kind, at, raw.clone());
    event.cwd = Some("/home/dev/src/bench-app".to_owned());
    event.project = Some("bench-app".to_owned());
    if let Some(prompt) = raw.get("prompt").and_then(|p| p.as_str()) {
        event.prompt = Some(prompt.to_owned());
    } else {
        event.tool = Some(ToolCall {
            name: "Bash".to_owned(),
            use_id: raw["tool_use_id"].as_str().map(str::to_owned),
            input: Some(raw["tool_input"].clone()),
            output: Some(raw["tool_response"].clone()),
            duration_ms: Some(40 + (i % 900) as u64),
            ..ToolCall::default()
        });
    }
    event
}

async fn bench_append(
    store: &Neo4jStore,
    count: usize,
    batch_size: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    // The server compiles its hot paths while it works: the first pass shows a fresh server, the
    // second one a server that has been running for a while.
    let mut last = Vec::new();
    for pass in ["fresh server", "warm server"] {
        last = append_pass(store, pass, count, batch_size).await?;
    }
    // A repeated batch (a journal redelivered after a crash) only reads.
    let t = Instant::now();
    let again = store.append(&last[..batch_size.min(count)]).await?;
    if again.iter().any(|a| a.inserted) {
        return Err("a redelivered event was stored twice".into());
    }
    println!("append: redelivery of {} stored events: {:.1} ms", again.len(), ms(t.elapsed()));
    Ok(())
}

/// Appends `count` fresh events in batches, checks the chains and prints the throughput; returns
/// the events.
async fn append_pass(
    store: &Neo4jStore,
    pass: &str,
    count: usize,
    batch_size: usize,
) -> Result<Vec<HookEvent>, Box<dyn std::error::Error>> {
    let (sessions, all) = batch_events(count);
    let mut batch_times = Vec::with_capacity(count / batch_size + 1);
    let started = Instant::now();
    for batch in all.chunks(batch_size) {
        let t = Instant::now();
        let appended = store.append(batch).await?;
        batch_times.push(t.elapsed());
        if appended.iter().any(|a| !a.inserted) {
            return Err("an event of a fresh batch was reported as already stored".into());
        }
    }
    let total = started.elapsed();
    // The chains must be whole: the last event of each session has the session's full count as seq.
    let last = store.timeline(&sessions[0], 0, usize::MAX).await?;
    let expected = count.div_ceil(SESSIONS);
    if last.len() != expected || last.last().map(|e| e.seq) != Some(expected as u64) {
        return Err(format!("session 0 holds {} events, expected {expected}", last.len()).into());
    }
    batch_times.sort();
    println!(
        "append ({pass}): {count} events in batches of {batch_size} over {SESSIONS} sessions: {:.1} s, \
         {:.0} events/s (batch p50 {:.1} ms, p95 {:.1} ms)",
        total.as_secs_f64(),
        count as f64 / total.as_secs_f64(),
        ms(percentile(&batch_times, 50)),
        ms(percentile(&batch_times, 95)),
    );
    Ok(all)
}

/// `count` events in fresh sessions, interleaved over [`SESSIONS`] sessions.
fn batch_events(count: usize) -> (Vec<SessionKey>, Vec<HookEvent>) {
    let run = unique("bench");
    let sessions: Vec<SessionKey> =
        (0..SESSIONS).map(|s| SessionKey::new("claude", &format!("{run}-{s}"))).collect();
    let start_at = base_time();
    let all = (0..count)
        .map(|i| {
            let at = start_at + chrono::Duration::milliseconds(i as i64);
            hook_event(&sessions[i % SESSIONS], i, at)
        })
        .collect();
    (sessions, all)
}

fn bench_note(scope: &Scope, i: usize) -> Result<Note, memory_core::Error> {
    let common: Vec<&str> = (0..5).map(|k| COMMON[(i * 31 + k * 17 + k * k) % COMMON.len()]).collect();
    let rare: Vec<String> = (0..6).map(|k| rare_word(i * 6 + k)).collect();
    let verb = |k: usize| VERBS[(i + k * 5) % VERBS.len()];
    Ok(Note {
        path: NotePath::new(format!("tools/{}/{}-{i}.md", common[0], rare[0]))?,
        meta: NoteMeta {
            title: format!("{} {} with {}", common[0], common[1], rare[0]),
            description: Some(format!("When {} touches {} in {}", common[2], common[3], rare[1])),
            tags: vec![common[0].to_owned(), rare[2].to_owned()],
            scope: scope.clone(),
            kind: NoteKind::Tool,
            sources: Vec::new(),
            updated: DateTime::UNIX_EPOCH,
            generator: "bench".to_owned(),
            owner: None,
        },
        body: format!(
            "- {} {} for {}; {} the {} flags.\n- {} {} before {}.\n- See {} and {}.\n",
            verb(0),
            common[4],
            rare[3],
            verb(1),
            common[1],
            verb(2),
            rare[4],
            common[2],
            rare[5],
            common[3],
        ),
    })
}

async fn seed_notes(
    store: &Arc<Neo4jStore>,
    scope: &Scope,
    count: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    let mut batches = (0..count).step_by(NOTE_BATCH).map(|from| from..(from + NOTE_BATCH).min(count));
    let mut running = tokio::task::JoinSet::new();
    loop {
        while running.len() < SEED_TASKS {
            let Some(range) = batches.next() else { break };
            let changes =
                range.map(|i| bench_note(scope, i).map(NoteChange::Put)).collect::<Result<Vec<_>, _>>()?;
            let store = Arc::clone(store);
            running.spawn(async move { store.commit(&changes, None).await });
        }
        match running.join_next().await {
            Some(done) => done??,
            None => break,
        }
    }
    let total = started.elapsed();
    println!(
        "notes: {count} notes committed in batches of {NOTE_BATCH}, {SEED_TASKS} commits at a time: {:.1} s, \
         {:.0} notes/s",
        total.as_secs_f64(),
        count as f64 / total.as_secs_f64()
    );
    Ok(())
}

async fn bench_search(
    store: &Neo4jStore,
    scope: &Scope,
    notes: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let scopes = vec![Scope::User, scope.clone()];
    // Warm the page cache and the query plans, as a long-running server is.
    for i in 0..20 {
        store.search_notes(&SearchQuery::new(prompt(i, notes), scopes.clone(), SEARCH_LIMIT)).await?;
    }
    let shapes: [(&str, PromptFn); 2] =
        [("prompt (common + project words)", prompt), ("common words only", common_prompt)];
    for (label, make) in shapes {
        let mut times = Vec::with_capacity(SEARCHES);
        let mut hits = 0;
        for i in 0..SEARCHES {
            let query = SearchQuery::new(make(i * 7 + 3, notes), scopes.clone(), SEARCH_LIMIT);
            let t = Instant::now();
            let found = store.search_notes(&query).await?;
            times.push(t.elapsed());
            hits += found.len();
        }
        times.sort();
        println!(
            "search: {label}: {SEARCHES} searches over {notes} notes: p50 {:.1} ms, p95 {:.1} ms, \
             {:.1} hits per search",
            ms(percentile(&times, 50)),
            ms(percentile(&times, 95)),
            hits as f64 / SEARCHES as f64,
        );
        if hits == 0 {
            return Err(format!("search `{label}` found nothing: the notes were not indexed").into());
        }
    }
    Ok(())
}

/// Makes the `i`-th search prompt for a store of `notes` notes.
type PromptFn = fn(usize, usize) -> String;

/// A prompt naming a common word and a project word of some note.
fn prompt(i: usize, notes: usize) -> String {
    let note = (i * 7919) % notes.max(1);
    format!(
        "how do we handle {} and {} in this repository?",
        COMMON[(note * 31) % COMMON.len()],
        rare_word(note * 6 + 1)
    )
}

/// A prompt of common words only: the worst case, each word is in thousands of notes.
fn common_prompt(i: usize, _notes: usize) -> String {
    format!(
        "fix the {} {} so {} passes",
        COMMON[i % COMMON.len()],
        COMMON[(i * 7 + 3) % COMMON.len()],
        COMMON[(i * 13 + 5) % COMMON.len()]
    )
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
