//! The loop closes by itself: a session's end starts the dream in the background, one at a time,
//! within its limits, and the next session is given what it distilled without anyone typing
//! `dream`. A dream held up by a provider that never answers shows single flight; killing it
//! shows that a dead dream's lock never blocks the next one.

use std::io::{BufRead as _, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use memory_hook::DreamLock;
use memory_hook::autodream::Holder;
use serde_json::{Value, json};

use crate::support::{Machine, claude};

/// How long a test waits for the background dream to do something.
const PATIENCE: Duration = Duration::from_secs(20);

/// What the deterministic dream keeps from the prompt below, as it is injected.
const PREFERENCE: &str = "small focused commits";

/// A Claude Code session in `project` that states a preference, up to (not including) its end.
fn session(m: &Machine, project: &Path, id: &str) {
    m.hook("claude", project, &claude(id, project, "SessionStart", json!({ "source": "startup" })));
    m.hook(
        "claude",
        project,
        &claude(
            id,
            project,
            "UserPromptSubmit",
            json!({ "prompt": "I prefer small focused commits with lowercase subjects." }),
        ),
    );
    m.hook("claude", project, &claude(id, project, "Stop", json!({ "stop_hook_active": false })));
}

fn end(m: &Machine, project: &Path, id: &str) -> crate::support::HookRun {
    m.hook("claude", project, &claude(id, project, "SessionEnd", json!({ "reason": "prompt_input_exit" })))
}

/// Polls `check` every 100 ms until it gives a value or `PATIENCE` runs out.
fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let until = Instant::now() + PATIENCE;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(Instant::now() < until, "{what} within {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn count(lines: &[String], what: &str) -> usize {
    lines.iter().filter(|l| l.contains(what)).count()
}

/// A model server that accepts connections and never answers: a dream calling it runs until it is
/// killed or reaches its time limit.
struct SilentServer {
    port: u16,
    accepted: Arc<AtomicUsize>,
}

impl SilentServer {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&accepted);
        std::thread::spawn(move || {
            let open: Mutex<Vec<TcpStream>> = Mutex::new(Vec::new());
            for stream in listener.incoming().flatten() {
                counter.fetch_add(1, Ordering::SeqCst);
                open.lock().unwrap().push(stream);
            }
        });
        Self { port, accepted }
    }

    /// `[dream]` settings that send the dream to this server, within a token cap.
    fn dream_config(&self, max_seconds: u64) -> String {
        format!(
            "provider = \"openai\"\nbase_url = \"http://127.0.0.1:{}/v1\"\nmax_tokens = 100000\n\
             auto_max_seconds = {max_seconds}\n",
            self.port
        )
    }

    fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

/// The running dream's holder record, once the dream process calls the provider (it records
/// itself as the holder before it starts).
fn running_dream(m: &Machine, server: &SilentServer) -> Holder {
    eventually("the background dream calls the provider", || (server.accepted() > 0).then_some(()));
    let holder = DreamLock::holder(&m.dream_dir()).expect("the dream holds the lock");
    assert!(holder.pid.is_some_and(alive), "{holder:?}");
    holder
}

fn alive(pid: u32) -> bool {
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn kill(pid: u32) {
    let status = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap();
    assert!(status.success(), "kill -9 {pid}");
}

fn last_run(m: &Machine) -> Option<Value> {
    let text = std::fs::read(m.dream_dir().join("last.json")).ok()?;
    serde_json::from_slice(&text).ok()
}

#[test]
fn a_session_that_ends_is_distilled_and_the_next_session_is_given_it_without_typing_dream() {
    let m = Machine::new();
    let project = m.project("acme-api");
    session(&m, &project, "33333333-aaaa-4bbb-8ccc-000000000001");
    end(&m, &project, "33333333-aaaa-4bbb-8ccc-000000000001");

    let mut sessions = 0;
    let context = eventually("a new session is given the distilled preference", || {
        sessions += 1;
        let id = format!("33333333-aaaa-4bbb-8ccc-1000000000{sessions:02}");
        let start = m.hook(
            "claude",
            &project,
            &claude(&id, &project, "SessionStart", json!({ "source": "startup" })),
        );
        // In a note, not in the quote of the last session's prompt where it left off.
        start
            .context("claude")
            .filter(|c| c.split("## Where the last session").next().unwrap_or(c).contains(PREFERENCE))
    });
    assert!(context.contains(PREFERENCE), "{context}");
    // Its notes are written before the run is recorded, under the lock its process lets go of as
    // it exits.
    eventually("the lock is free once the dream ended", || {
        DreamLock::holder(&m.dream_dir()).is_none().then_some(())
    });

    let hooks = m.log("hook.log");
    assert_eq!(count(&hooks, "dream started (session-end"), 1, "{hooks:#?}");
    let dreams = m.log("dream.log");
    assert_eq!(dreams.len(), 1, "one run, none by hand: {dreams:#?}");
    assert!(
        dreams[0].contains(" dream session-end ok ") && dreams[0].contains("provider:deterministic"),
        "{dreams:#?}"
    );
    let last = last_run(&m).expect("the run is recorded");
    assert_eq!(
        (last["trigger"].as_str(), last["outcome"].as_str()),
        (Some("session-end"), Some("ok")),
        "{last}"
    );
    assert!(last["notes_created"].as_u64() > Some(0), "{last}");

    // A dream typed now finds nothing new, and says so in the same log.
    let report = m.run_json(&["dream"]);
    assert_eq!(report["notes_created"], 0, "{report}");
    assert!(count(&m.log("dream.log"), " dream manual ok ") == 1, "{:#?}", m.log("dream.log"));
}

#[test]
fn sessions_ending_at_once_start_one_dream_and_a_killed_dream_does_not_block_the_next() {
    let m = Machine::new();
    let server = SilentServer::start();
    m.write_dream_config(&server.dream_config(60));
    let project = m.project("acme-api");
    let ids = ["44444444-aaaa-4bbb-8ccc-000000000001", "44444444-aaaa-4bbb-8ccc-000000000002"];
    for id in ids {
        session(&m, &project, id);
    }
    std::thread::scope(|scope| {
        for id in ids {
            let (m, project) = (&m, &project);
            scope.spawn(move || end(m, project, id));
        }
    });
    let holder = running_dream(&m, &server);
    let hooks = m.log("hook.log");
    assert_eq!(
        (count(&hooks, "dream started (session-end"), count(&hooks, "dream already running")),
        (1, 1),
        "two sessions ended at once, one dream started: {hooks:#?}"
    );
    assert_eq!(holder.trigger.as_deref(), Some("session-end"));

    // While it runs, another session's end starts nothing.
    session(&m, &project, "44444444-aaaa-4bbb-8ccc-000000000003");
    end(&m, &project, "44444444-aaaa-4bbb-8ccc-000000000003");
    assert_eq!(count(&m.log("hook.log"), "dream already running"), 2);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.accepted(), 1, "no second dream called the provider");

    // Killed, it leaves its lock file behind, held by nobody; the next session's end takes it.
    let pid = holder.pid.expect("the holder names its process");
    kill(pid);
    eventually("the killed dream's lock is free", || {
        DreamLock::holder(&m.dream_dir()).is_none().then_some(())
    });
    assert!(m.dream_dir().join("lock").exists(), "the lock file stays behind");
    m.write_dream_config("");
    session(&m, &project, "44444444-aaaa-4bbb-8ccc-000000000004");
    end(&m, &project, "44444444-aaaa-4bbb-8ccc-000000000004");
    let last = eventually("the next dream runs to its end", || last_run(&m).filter(|l| l["outcome"] == "ok"));
    assert_eq!(last["provider"], "deterministic", "{last}");
    assert!(last["events_read"].as_u64() >= Some(12), "every session's events, the killed run's too: {last}");
    assert_eq!(count(&m.log("hook.log"), "dream started (session-end"), 2);
    let notes = m.run_json(&["notes", "list"]);
    assert!(notes.to_string().contains("preferences"), "{notes}");
}

#[test]
fn a_dream_typed_by_hand_waits_for_the_running_one() {
    let m = Machine::new();
    let server = SilentServer::start();
    m.write_dream_config(&server.dream_config(60));
    let project = m.project("acme-api");
    session(&m, &project, "55555555-aaaa-4bbb-8ccc-000000000001");
    end(&m, &project, "55555555-aaaa-4bbb-8ccc-000000000001");
    let holder = running_dream(&m, &server);

    let mut by_hand = m
        .command(&["--json", "dream", "--provider", "deterministic"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(by_hand.stderr.take().unwrap());
    let (said, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = said.send(line);
        }
    });
    let line = heard.recv_timeout(PATIENCE).expect("the dream typed by hand says why it waits");
    assert!(line.contains("another dream is running (started by a hook: session-end"), "{line}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(by_hand.try_wait().unwrap().is_none(), "it waits while the other runs");

    kill(holder.pid.expect("the holder names its process"));
    let out = by_hand.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["notes_created"].as_u64() > Some(0),
        "it distilled what the killed dream had not: {report}"
    );
    let last = last_run(&m).unwrap();
    assert_eq!((last["trigger"].as_str(), last["outcome"].as_str()), (Some("manual"), Some("ok")), "{last}");
}

#[test]
fn a_dream_at_its_time_limit_stops_keeps_the_lock_free_and_doctor_says_so() {
    let m = Machine::new();
    let server = SilentServer::start();
    m.write_dream_config(&server.dream_config(1));
    let project = m.project("acme-api");
    session(&m, &project, "66666666-aaaa-4bbb-8ccc-000000000001");
    end(&m, &project, "66666666-aaaa-4bbb-8ccc-000000000001");
    let last = eventually("the dream stops at its time limit", || last_run(&m));
    assert_eq!(last["outcome"], "timed_out", "{last}");
    assert!(last["duration_ms"].as_u64() < Some(10_000), "{last}");
    // The run's record is written before its process ends and lets go of the lock.
    eventually("its lock is released", || DreamLock::holder(&m.dream_dir()).is_none().then_some(()));
    let dreams = m.log("dream.log");
    assert!(dreams.iter().any(|l| l.contains("dream session-end timed-out")), "{dreams:#?}");

    let doctor = doctor(&m);
    assert_eq!(doctor["dream"]["last"]["outcome"], "timed_out", "{doctor}");
    let warnings = doctor["warnings"].to_string();
    assert!(warnings.contains("reached its time limit"), "{warnings}");
}

#[test]
fn doctor_reports_the_backlog_and_calls_it_a_problem_when_no_dream_will_take_it() {
    let m = Machine::new();
    m.write_dream_config("auto = false\nauto_after_events = 5\n");
    let project = m.project("acme-api");
    let id = "77777777-aaaa-4bbb-8ccc-000000000001";
    session(&m, &project, id);
    for n in 0..3 {
        let prompt = json!({ "prompt": format!("look at item {n}") });
        m.hook("claude", &project, &claude(id, &project, "UserPromptSubmit", prompt));
    }
    end(&m, &project, id);
    assert!(m.log("dream.log").is_empty(), "no dream starts by itself");

    let report = doctor(&m);
    assert_eq!(
        (report["dream"]["auto"].as_bool(), report["dream"]["waiting"].as_u64()),
        (Some(false), Some(7))
    );
    let problems = report["problems"].to_string();
    assert!(problems.contains("7 events wait for the dream and it does not run by itself"), "{problems}");
    let text = String::from_utf8(m.command(&["doctor"]).output().unwrap().stdout).unwrap();
    assert!(text.contains("events waiting for the dream: 7"), "{text}");
    assert!(!text.contains("no problems found"), "{text}");

    m.run_json(&["dream"]);
    let report = doctor(&m);
    assert_eq!(report["dream"]["waiting"], 0, "{report}");
    assert_eq!(report["dream"]["last"]["trigger"], "manual");
    assert!(!report["problems"].to_string().contains("wait for the dream"), "{report}");

    m.write_dream_config("");
    let report = doctor(&m);
    assert_eq!(report["dream"]["auto"], true);
    let text = String::from_utf8(m.command(&["doctor"]).output().unwrap().stdout).unwrap();
    assert!(text.contains("dream: runs by itself after a session ends or 200 new events"), "{text}");
    assert!(text.contains("last dream: ") && text.contains("ok, "), "{text}");
}

/// `doctor --json`, whatever its exit code (no harness is installed on this machine).
fn doctor(m: &Machine) -> Value {
    let out = m.command(&["--json", "doctor"]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("doctor --json: {e}: {out:?}"))
}
