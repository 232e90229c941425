//! Forward mode against a real Neo4j server: hooks journal every event and return, a forwarder
//! they start delivers it, `sync --wait` blocks until everything is delivered; injection reads the
//! local copy of the notes. Each test checks the whole chain in the server afterwards: every
//! event once, seqs 1..n without gaps.
//!
//! Tests that stop or need a fresh server start their own (`PrivateServer`, as the restart test
//! does); the others use the shared server of `NEO4J_TEST_URI`. Without the tooling they print a
//! skip line and pass, except under CI, where they fail.

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::neo4j_restart::{PrivateServer, describe, journaled, payloads, tooling_available};
use crate::support::{HookRun, Machine, claude};

/// A hook's deadline as shipped: in forward mode it is never reached.
const DEFAULT_DEADLINE_MS: &str = "300";

/// How long `sync --wait` may take in these tests.
const SYNC_TIMEOUT: &str = "120";

/// A server to talk to: its uri and password.
pub(crate) struct Server {
    uri: String,
    password: String,
}

impl Server {
    pub(crate) fn private(server: &PrivateServer) -> Self {
        Self { uri: server.uri.clone(), password: server.password.clone() }
    }

    /// The shared test server of `NEO4J_TEST_URI`.
    fn shared() -> Option<Self> {
        if !tooling_available() {
            return None;
        }
        let uri = std::env::var("NEO4J_TEST_URI").ok()?;
        Some(Self { uri, password: std::env::var("NEO4J_TEST_PASS").unwrap_or_default() })
    }

    /// Environment of processes using this server in forward mode (the default).
    pub(crate) fn env(&self) -> Vec<(&str, &str)> {
        vec![
            ("AGENT_MEMORY_STORE", "neo4j"),
            ("NEO4J_URI", self.uri.as_str()),
            ("NEO4J_USERNAME", "neo4j"),
            ("NEO4J_PASSWORD", self.password.as_str()),
            ("NEO4J_DATABASE", ""),
            ("AGENT_MEMORY_HOOK_DEADLINE_MS", DEFAULT_DEADLINE_MS),
        ]
    }
}

/// `agent-memory --json <args>` with `env`; fails the test on a non-zero exit.
pub(crate) fn run_json(m: &Machine, env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = m.command(&all).envs(env.iter().copied()).output().unwrap();
    assert!(out.status.success(), "agent-memory {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `notes add <title> --scope user --body=<body>` with `env`.
fn add_user_note(m: &Machine, env: &[(&str, &str)], title: &str, body: &str) {
    run_json(m, env, &["notes", "add", title, "--scope", "user", &format!("--body={body}")]);
}

/// `sync --wait`: everything journaled is in the server when it returns.
pub(crate) fn sync_wait(m: &Machine, env: &[(&str, &str)]) -> Value {
    let report = run_json(m, env, &["sync", "--wait", "--timeout", SYNC_TIMEOUT]);
    assert_eq!(report["remaining"], 0, "{report}");
    assert_eq!(journaled(m), 0, "nothing waits after sync --wait");
    report
}

/// A Bash `PostToolUse` of `session` whose tool call id is `toolu_<tag>`.
fn tool_use(session: &str, cwd: &std::path::Path, tag: &str) -> Value {
    claude(
        session,
        cwd,
        "PostToolUse",
        json!({ "tool_name": "Bash", "tool_use_id": format!("toolu_{tag}"),
            "tool_input": { "command": "cargo build" },
            "tool_response": { "stdout": "Finished", "stderr": "", "interrupted": false, "isImage": false } }),
    )
}

/// Fires `payloads` as concurrent hook processes; every one must answer Claude Code's pass.
fn fire_at_once(
    m: &Machine,
    cwd: &std::path::Path,
    payloads: &[Value],
    env: &[(&str, &str)],
) -> Vec<HookRun> {
    let runs: Vec<HookRun> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            payloads.iter().map(|p| scope.spawn(move || m.hook_env("claude", cwd, p, env))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for run in &runs {
        assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""), "a hook's answer");
    }
    runs
}

/// The session's timeline in the server: checks seqs 1..n and unique ids, returns the events.
fn chain(m: &Machine, env: &[(&str, &str)], key: &str, limit: usize) -> Vec<Value> {
    let timeline = run_json(m, env, &["timeline", key, "--limit", &limit.to_string()]);
    let events: Vec<Value> = timeline.as_array().unwrap().clone();
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=events.len() as u64).collect::<Vec<_>>(), "seqs 1..n, no gap");
    let ids: BTreeSet<&str> = events.iter().map(|e| e["event"]["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), events.len(), "no event stored twice");
    events
}

fn tool_ids(events: &[Value]) -> BTreeSet<String> {
    events.iter().filter_map(|e| e["event"]["tool"]["use_id"].as_str().map(str::to_owned)).collect()
}

fn log_count(m: &Machine, what: &str) -> usize {
    m.log("hook.log").iter().filter(|l| l.contains(what)).count()
}

#[test]
fn a_burst_against_a_freshly_started_server_is_delivered_and_the_server_keeps_serving() {
    if !tooling_available() {
        return;
    }
    let private = PrivateServer::start();
    let server = Server::private(&private);
    let env = server.env();
    let m = Machine::new();
    let cwd = m.project("burst-app");
    let session = "f1a0c9d2-forward-burst";
    // Forty hooks at once on a server that has just started, with the shipped deadline.
    let burst: Vec<Value> = (0..40).map(|i| tool_use(session, &cwd, &format!("burst_{i}"))).collect();
    fire_at_once(&m, &cwd, &burst, &env);
    assert_eq!(log_count(&m, "journaled for the forwarder"), 40, "{:?}", m.log("hook.log"));
    assert_eq!(log_count(&m, "deadline passed"), 0, "no hook waited for the server");

    sync_wait(&m, &env);
    let events = chain(&m, &env, &format!("claude:{session}"), 100);
    assert_eq!(tool_ids(&events), (0..40).map(|i| format!("toolu_burst_{i}")).collect(), "every event, once");

    // Still serving: a new process connects and reads, and direct writes go through.
    let sessions = run_json(&m, &env, &["sessions"]);
    assert_eq!(sessions[0]["events"], 40, "{sessions}");
    let mut direct = env.clone();
    direct.push(("AGENT_MEMORY_STORE_MODE", "direct"));
    direct.retain(|(k, _)| *k != "AGENT_MEMORY_HOOK_DEADLINE_MS");
    direct.push(("AGENT_MEMORY_HOOK_DEADLINE_MS", "30000"));
    let run = m.hook_env("claude", &cwd, &tool_use(session, &cwd, "direct"), &direct);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(m.log("hook.log").last().unwrap().contains(" stored"), "{:?}", m.log("hook.log").last());
    assert_eq!(chain(&m, &env, &format!("claude:{session}"), 100).len(), 41);
}

#[test]
fn direct_hooks_cut_off_mid_connection_leave_a_fresh_server_serving_us() {
    if !tooling_available() {
        return;
    }
    let private = PrivateServer::start();
    let server = Server::private(&private);
    let mut env = server.env();
    env.push(("AGENT_MEMORY_STORE_MODE", "direct"));
    let m = Machine::new();
    let cwd = m.project("wedge-app");
    let session = "0d3c2b1a-direct-cut-off";
    // Direct hooks with a short deadline on a server that has just started: most are ended by
    // their watchdog while connecting.
    let mut short = env.clone();
    short.retain(|(k, _)| *k != "AGENT_MEMORY_HOOK_DEADLINE_MS");
    short.push(("AGENT_MEMORY_HOOK_DEADLINE_MS", "100"));
    let burst: Vec<Value> = (0..40).map(|i| tool_use(session, &cwd, &format!("cut_{i}"))).collect();
    fire_at_once(&m, &cwd, &burst, &short);
    // Then our client connects as any command does, at once, and delivers every event.
    let started = Instant::now();
    sync_wait(&m, &env);
    let events = chain(&m, &env, &format!("claude:{session}"), 100);
    assert_eq!(tool_ids(&events), (0..40).map(|i| format!("toolu_cut_{i}")).collect(), "every event, once");
    assert!(started.elapsed() < Duration::from_secs(60), "delivered in {:?}", started.elapsed());
    assert_eq!(run_json(&m, &env, &["sessions"])[0]["events"], 40);
}

#[test]
fn sixty_four_concurrent_hooks_on_one_session_are_stored_with_seqs_1_to_64() {
    let Some(server) = Server::shared() else { return };
    let env = server.env();
    let m = Machine::new();
    let cwd = m.project("concurrent-app");
    let session = format!("c64-{}", std::process::id());
    let payloads: Vec<Value> = (0..64).map(|i| tool_use(&session, &cwd, &format!("c64_{i}"))).collect();
    fire_at_once(&m, &cwd, &payloads, &env);
    assert_eq!(log_count(&m, "journaled for the forwarder"), 64);
    sync_wait(&m, &env);
    let events = chain(&m, &env, &format!("claude:{session}"), 200);
    assert_eq!(events.len(), 64);
    assert_eq!(tool_ids(&events), (0..64).map(|i| format!("toolu_c64_{i}")).collect());
}

#[test]
fn a_server_stopped_mid_session_gets_every_event_once_in_order_and_injection_goes_on() {
    if !tooling_available() {
        return;
    }
    let private = PrivateServer::start();
    let server = Server::private(&private);
    let env = server.env();
    let m = Machine::new();
    let cwd = m.project("graph-app");
    let session = "5e6f7a8b-forward-restart";
    let key = format!("claude:{session}");
    let mut expected = vec!["SessionStart".to_owned()];
    let start = claude(session, &cwd, "SessionStart", json!({ "source": "startup" }));
    let mut up = vec![start];
    let before = payloads(session, &cwd, "before", 2);
    expected.extend(before.iter().map(|(_, what)| what.clone()));
    up.extend(before.into_iter().map(|(p, _)| p));
    for payload in &up {
        assert_eq!(m.hook_env("claude", &cwd, payload, &env).code, 0);
    }
    // A note written by hand goes to the server; sync refreshes the local copy hooks read.
    add_user_note(&m, &env, "Flamingo rollout checklist", "- Drain the flamingo queue before the rollout.");
    sync_wait(&m, &env);
    assert_eq!(chain(&m, &env, &key, 100).len(), expected.len());

    private.stop();
    let down = payloads(session, &cwd, "during", 3);
    for (payload, what) in down {
        let run = m.hook_env("claude", &cwd, &payload, &env);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "a hook with the server down");
        assert!(run.elapsed < Duration::from_secs(3), "took {:?}", run.elapsed);
        expected.push(what);
    }
    // Injection with the server down: from the local copy, at session start and on a prompt.
    let other = "7c8d9e0f-server-down";
    let started = m.hook_env(
        "claude",
        &cwd,
        &claude(other, &cwd, "SessionStart", json!({ "source": "startup" })),
        &env,
    );
    let context = started.context("claude").unwrap_or_default();
    assert!(context.contains("Flamingo rollout checklist"), "session start: {}", started.stdout);
    let prompt = claude(
        other,
        &cwd,
        "UserPromptSubmit",
        json!({ "prompt": "how do we drain the flamingo queue for the rollout?" }),
    );
    let asked = m.hook_env("claude", &cwd, &prompt, &env);
    assert_eq!(asked.code, 0, "{}", asked.stderr);
    assert!(journaled(&m) >= 6, "the events wait in the journal while the server is down");

    private.restart();
    sync_wait(&m, &env);
    let events = chain(&m, &env, &key, 100);
    let seen: Vec<String> = events.iter().map(|e| describe(&e["event"])).collect();
    assert_eq!(seen, expected, "every event, once, in firing order");
    let other_events = chain(&m, &env, &format!("claude:{other}"), 100);
    let kinds: Vec<&str> = other_events.iter().map(|e| e["event"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"SessionStart"), "{kinds:?}");
    assert!(kinds.contains(&"Injection"), "the injection was recorded too: {kinds:?}");
}

#[test]
fn a_forwarder_killed_mid_batch_loses_and_duplicates_nothing() {
    let Some(server) = Server::shared() else { return };
    let env = server.env();
    let m = Machine::new();
    let cwd = m.project("kill-app");
    let session = format!("kill-{}", std::process::id());
    // A backlog: direct hooks against a port nobody listens on journal at once.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let nowhere = format!("bolt://{}", closed.local_addr().unwrap());
    drop(closed);
    let dead = [
        ("AGENT_MEMORY_STORE", "neo4j"),
        ("AGENT_MEMORY_STORE_MODE", "direct"),
        ("NEO4J_URI", nowhere.as_str()),
        ("NEO4J_PASSWORD", "x"),
    ];
    // More than one batch of the forwarder (5,000), so it is killed with one still to go.
    const EVENTS: usize = 6_000;
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (m, cwd, session, dead) = (&m, &cwd, &session, &dead);
            scope.spawn(move || {
                for i in (t..EVENTS).step_by(4) {
                    let run = m.hook_env("claude", cwd, &tool_use(session, cwd, &format!("k_{i}")), dead);
                    assert_eq!(run.code, 0, "{}", run.stderr);
                }
            });
        }
    });
    assert_eq!(journaled(&m), EVENTS, "the backlog waits in the journal");

    // The forwarder, as a hook starts it, killed as soon as its first batch is committed.
    let mut forwarder =
        m.command(&["sync", "--background"]).envs(env.iter().copied()).stdin(Stdio::null()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while journaled(&m) == EVENTS && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    forwarder.kill().unwrap();
    forwarder.wait().unwrap();
    let left = journaled(&m);
    assert!(left > 0 && left < EVENTS, "killed mid-delivery: {left} of {EVENTS} left");

    sync_wait(&m, &env);
    let events = chain(&m, &env, &format!("claude:{session}"), EVENTS + 10);
    assert_eq!(events.len(), EVENTS, "nothing lost, nothing twice");
    assert_eq!(tool_ids(&events), (0..EVENTS).map(|i| format!("toolu_k_{i}")).collect());
}

#[test]
fn a_prompt_given_notes_from_the_local_copy_arrives_before_its_injection_record() {
    let Some(server) = Server::shared() else { return };
    let env = server.env();
    let m = Machine::new();
    let cwd = m.project("heron-app");
    add_user_note(&m, &env, "Heron deploy checklist", "- Warm the heron cache before the deploy.");
    sync_wait(&m, &env);
    let sessions: Vec<String> = (0..6).map(|i| format!("heron-{i}-{}", std::process::id())).collect();
    for session in &sessions {
        let prompt = claude(
            session,
            &cwd,
            "UserPromptSubmit",
            json!({ "prompt": "how do we warm the heron cache before the deploy?" }),
        );
        let run = m.hook_env("claude", &cwd, &prompt, &env);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""));
        let context = run.context("claude").unwrap_or_default();
        assert!(context.contains("Heron deploy checklist"), "injected from the copy: {}", run.stdout);
    }
    sync_wait(&m, &env);
    for session in &sessions {
        let events = chain(&m, &env, &format!("claude:{session}"), 10);
        let kinds: Vec<&str> = events.iter().map(|e| e["event"]["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["UserPromptSubmit", "Injection"], "{session}");
        assert_eq!(events[1]["event"]["raw"]["trigger_event"], events[0]["event"]["id"], "{session}");
    }
}

/// The paths of the notes of the local copy (`<data>/replica.db`) in a project's folder
/// (`project/<name>/…`), whatever the name, that say `kestrel canary` (the shared server holds
/// other tests' notes too).
fn copied_project_paths(m: &Machine) -> Vec<String> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        use memory_core::MemoryStore as _;
        let copy = memory_store_sqlite::SqliteStore::open(&memory_store_sqlite::SqliteConfig::new(
            m.home().join("replica.db"),
        ))
        .unwrap();
        let notes = copy.list_notes(&memory_core::NoteFilter::all()).await.unwrap();
        notes
            .into_iter()
            .filter(|n| n.body.contains("kestrel canary"))
            .map(|n| n.path.as_str().to_owned())
            .filter(|p| p.starts_with("project/"))
            .collect()
    })
}

#[test]
fn a_rename_reaches_the_local_copy_at_once_by_command_and_by_project_file() {
    let Some(server) = Server::shared() else { return };
    let env = server.env();
    let m = Machine::new();
    let dir = m.project("kestrel-shop");
    let start = |session: &str| {
        let run = m.hook_env(
            "claude",
            &dir,
            &claude(session, &dir, "SessionStart", json!({ "source": "startup" })),
            &env,
        );
        assert_eq!((run.code, run.stderr.as_str()), (0, ""));
        run.context("claude").unwrap_or_default()
    };
    start(&format!("kestrel-first-{}", std::process::id()));
    run_json(
        &m,
        &env,
        &[
            "notes",
            "add",
            "Kestrel deploys",
            "--scope",
            "project:kestrel-shop",
            "--body=- The kestrel canary goes out before noon.",
        ],
    );
    sync_wait(&m, &env);
    let [path] = &copied_project_paths(&m)[..] else { panic!("one note: {:?}", copied_project_paths(&m)) };
    assert!(path.starts_with("project/kestrel-shop/"), "{path}");
    let inner = path.strip_prefix("project/kestrel-shop/").unwrap().to_owned();

    // Renamed by command: the copy hooks read has the new paths when the command returns.
    run_json(&m, &env, &["projects", "rename", "kestrel-shop", "kestrel-store"]);
    assert_eq!(copied_project_paths(&m), [format!("project/kestrel-store/{inner}")]);
    let context = start(&format!("kestrel-renamed-{}", std::process::id()));
    assert!(context.contains("kestrel canary") && context.contains("(kestrel-store)"), "{context}");

    // Renamed in its project file: the next hook refiles the copy before it injects.
    std::fs::write(dir.join(".agent-memory.toml"), "project = \"kestrel-mart\"\n").unwrap();
    let context = start(&format!("kestrel-file-{}", std::process::id()));
    assert!(
        context.contains("kestrel canary") && context.contains("under `project/kestrel-mart/"),
        "{context}"
    );
    assert_eq!(copied_project_paths(&m), [format!("project/kestrel-mart/{inner}")], "before any refresh");

    // The next refresh files the server's notes there too, and the copy keeps its paths.
    sync_wait(&m, &env);
    assert_eq!(copied_project_paths(&m), [format!("project/kestrel-mart/{inner}")], "after the refresh");
    let listed = run_json(&m, &env, &["notes", "list", "--scope", "project:kestrel-mart"]);
    let paths: Vec<&str> = listed.as_array().unwrap().iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(paths, [format!("project/kestrel-mart/{inner}")], "the server's: {listed}");
}
