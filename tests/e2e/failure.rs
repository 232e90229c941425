//! Hooks fail open and lose nothing: bad input, a locked or missing store, guards, secrets.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex};

#[test]
fn bad_input_gets_one_line_on_stderr_and_a_non_blocking_exit() {
    let m = Machine::new();
    let cwd = m.project("p");
    let harnesses = [
        ("claude", ""),
        ("codex", ""),
        ("cursor", "{}"),
        ("gemini", ""),
        ("copilot", ""),
        ("qwen", ""),
        ("droid", ""),
        ("opencode", ""),
        ("cline", ""),
    ];
    for (harness, noop) in harnesses {
        for input in ["", "not json", "{\"session_id\": 5", "[1,2]"] {
            let run = m.hook_env(harness, &cwd, &Value::String(input.to_owned()), &[]);
            assert_eq!(run.code, 1, "{harness} {input:?}: {}", run.stderr);
            assert_eq!(run.stderr.lines().count(), 1, "{harness} {input:?}: {:?}", run.stderr);
            assert!(run.stderr.starts_with("agent-memory: "), "{}", run.stderr);
            assert_eq!(run.stdout.trim(), noop, "{harness} {input:?}");
        }
    }
}

#[test]
fn oversized_input_is_refused_with_a_clear_error() {
    let m = Machine::new();
    m.write_config("max_input_bytes = 1000\n");
    let cwd = m.project("p");
    let payload = claude("s-big", &cwd, "UserPromptSubmit", json!({ "prompt": "x".repeat(5000) }));
    let run = m.hook_env("claude", &cwd, &payload, &[]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("larger than 1000 bytes"), "{}", run.stderr);
}

#[test]
fn guarded_runs_and_cursor_run_claude_hooks_record_nothing() {
    let m = Machine::new();
    let cwd = m.project("p");
    let payload = claude("s-guard", &cwd, "UserPromptSubmit", json!({ "prompt": "hello there" }));
    let run = m.hook_env("claude", &cwd, &payload, &[("AGENT_MEMORY_DREAM", "1")]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    let run = m.hook_env("claude", &cwd, &payload, &[("CURSOR_VERSION", "3.18.25")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(m.run_json(&["sessions"]), json!([]));

    m.hook("claude", &cwd, &payload);
    let sessions = m.run_json(&["sessions"]);
    assert_eq!(sessions.as_array().unwrap().len(), 1);
    assert_eq!(sessions[0]["key"], "claude:s-guard");
}

/// Holds SQLite's write lock, as a long transaction in another process would.
fn lock_store(m: &Machine) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(m.db()).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    conn
}

#[test]
fn a_locked_store_journals_within_the_deadline_and_sync_delivers_in_order() {
    let m = Machine::new();
    m.write_config("");
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 300\n").unwrap();
    let cwd = m.project("p");
    // The first hook creates the store.
    m.hook("codex", &cwd, &codex("s-down", &cwd, "SessionStart", json!({ "source": "startup" })));

    let lock = lock_store(&m);
    let mut prompts = Vec::new();
    for i in 0..5 {
        let prompt = format!("prompt number {i}");
        let run = m.hook(
            "codex",
            &cwd,
            &codex(
                "s-down",
                &cwd,
                "UserPromptSubmit",
                json!({ "turn_id": format!("t{i}"), "prompt": prompt }),
            ),
        );
        assert!(run.elapsed < Duration::from_secs(3), "hook took {:?} with the store locked", run.elapsed);
        prompts.push(prompt);
    }
    let journal = m.home().join("journal");
    let waiting = std::fs::read_dir(&journal)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(waiting, 5, "every event waits in the journal");
    drop(lock);

    let report = m.run_json(&["sync"]);
    assert_eq!(report["delivered"], 5);
    assert_eq!(report["remaining"], 0);
    let timeline = m.run_json(&["timeline", "codex:s-down"]);
    let seen: Vec<&str> =
        timeline.as_array().unwrap().iter().filter_map(|e| e["event"]["prompt"].as_str()).collect();
    assert_eq!(seen, prompts.iter().map(String::as_str).collect::<Vec<_>>());
    let seqs: Vec<u64> = timeline.as_array().unwrap().iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=6).collect::<Vec<_>>());
}

#[test]
fn a_later_hook_delivers_the_journal_before_its_own_event() {
    let m = Machine::new();
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 300\n").unwrap();
    let cwd = m.project("p");
    m.hook("claude", &cwd, &claude("s-order", &cwd, "SessionStart", json!({ "source": "startup" })));
    let lock = lock_store(&m);
    m.hook("claude", &cwd, &claude("s-order", &cwd, "UserPromptSubmit", json!({ "prompt": "first" })));
    drop(lock);
    m.hook("claude", &cwd, &claude("s-order", &cwd, "UserPromptSubmit", json!({ "prompt": "second" })));
    let timeline = m.run_json(&["timeline", "claude:s-order"]);
    let prompts: Vec<&str> =
        timeline.as_array().unwrap().iter().filter_map(|e| e["event"]["prompt"].as_str()).collect();
    assert_eq!(prompts, ["first", "second"]);
}

#[test]
fn an_unopenable_store_still_answers_and_journals() {
    let m = Machine::new();
    let cwd = m.project("p");
    // A directory where the database file should be: the store cannot open.
    std::fs::create_dir_all(m.db()).unwrap();
    let run = m.hook(
        "claude",
        &cwd,
        &claude("s-broken", &cwd, "UserPromptSubmit", json!({ "prompt": "still here" })),
    );
    assert_eq!(run.stdout, "");
    let log = std::fs::read_to_string(m.home().join("logs/hook.log")).unwrap();
    assert!(log.contains("journaled"), "{log}");
    std::fs::remove_dir(m.db()).unwrap();
    assert_eq!(m.run_json(&["sync"])["delivered"], 1);
    assert_eq!(m.run_json(&["timeline", "claude:s-broken"])[0]["event"]["prompt"], "still here");
}

#[test]
fn secrets_reach_neither_store_nor_journal_nor_log() {
    let m = Machine::new();
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 300\n").unwrap();
    let cwd = m.project("p");
    let github = format!("ghp_{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
    let aws = format!("AKIA{}", "Q4ZT7X2M9BPLW3RA");
    let prompt =
        format!("deploy with token {github} and key {aws} <private>my home address</private> please");
    m.hook("claude", &cwd, &claude("s-secret", &cwd, "SessionStart", json!({ "source": "startup" })));
    m.hook("claude", &cwd, &claude("s-secret", &cwd, "UserPromptSubmit", json!({ "prompt": prompt })));
    let lock = lock_store(&m);
    m.hook("claude", &cwd, &claude("s-secret", &cwd, "UserPromptSubmit", json!({ "prompt": prompt })));
    let journal: String = std::fs::read_dir(m.home().join("journal"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect();
    assert!(journal.contains("[REDACTED"), "journal holds the redacted event: {journal}");
    drop(lock);
    m.run(&["sync"]);
    let mut everything = journal;
    everything.push_str(&m.run(&["--json", "timeline", "claude:s-secret"]));
    everything.push_str(&std::fs::read_to_string(m.home().join("logs/hook.log")).unwrap());
    for suffix in ["", "-wal"] {
        let db = std::fs::read(format!("{}{suffix}", m.db().display())).unwrap_or_default();
        everything.push_str(&String::from_utf8_lossy(&db));
    }
    for secret in [github.as_str(), aws.as_str(), "my home address"] {
        assert!(!everything.contains(secret), "{secret} leaked");
    }
}

#[test]
fn mistakes_on_the_hook_command_line_never_block() {
    let m = Machine::new();
    let cwd = m.project("p");
    let payload = claude("s-args", &cwd, "UserPromptSubmit", json!({ "prompt": "hello there" }));
    for args in [&["hook", "claud"][..], &["hook"], &["hook", "kiro", "--debug"]] {
        let mut cmd = m.command(args);
        cmd.current_dir(&cwd).stdin(std::process::Stdio::null());
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(stderr.contains("claude, codex, cursor"), "{args:?} names the harnesses: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A known harness in another case, or with extra arguments, still records its event.
    let run = m.hook_env("Claude", &cwd, &payload, &[]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{}", run.stderr);
    let mut cmd = m.command(&["hook", "claude", "--debug"]);
    cmd.current_dir(&cwd)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(stderr.contains("--debug"), "{stderr}");
    let sessions = m.run_json(&["sessions"]);
    assert_eq!(sessions[0]["events"], 2, "both runs recorded their event: {sessions}");
}

#[test]
fn a_parse_error_never_quotes_the_value_it_refused() {
    let m = Machine::new();
    let cwd = m.project("p");
    let secret = "Tr0ub4dor-and-3-horse-staple";
    let payload = claude("s-typed", &cwd, "Stop", json!({ "stop_hook_active": secret }));
    let run = m.hook_env("claude", &cwd, &payload, &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{:?}", run.stderr);
    assert!(!run.stderr.contains(secret), "{}", run.stderr);
    let log = std::fs::read_to_string(m.home().join("logs/hook.log")).unwrap();
    assert!(log.contains("error:"), "{log}");
    assert!(!log.contains(secret), "{log}");
}

#[test]
fn a_maximal_payload_is_answered_within_the_deadline_and_kept() {
    let m = Machine::new();
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 300\ninject_deadline_ms = 300\n")
        .unwrap();
    let cwd = m.project("p");
    let prompt = "lorem ipsum dolor sit amet, ".repeat(7 * 1024 * 1024 / 28);
    let payload = claude("s-huge", &cwd, "UserPromptSubmit", json!({ "prompt": prompt }));
    let run = m.hook_env("claude", &cwd, &payload, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The deadline, plus starting a debug build and writing 7 MB to its stdin.
    assert!(run.elapsed < Duration::from_millis(1_500), "took {:?}", run.elapsed);
    // Stored, journaled, or handed off and journaled a moment later: never lost.
    let key = "claude:s-huge";
    for _ in 0..100 {
        let journaled = std::fs::read_dir(m.home().join("journal"))
            .map(|d| {
                d.filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "json")))
                    .count()
            })
            .unwrap_or(0);
        if journaled > 0 || m.run_json(&["sessions"]).as_array().is_some_and(|s| !s.is_empty()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    m.run(&["sync"]);
    let timeline = m.run_json(&["timeline", key]);
    let stored = timeline[0]["event"]["prompt"].as_str().unwrap();
    assert!(stored.len() < 100 * 1024, "the prompt is capped: {} bytes", stored.len());
    assert!(stored.contains("truncated"), "with a visible marker");
}

#[test]
fn a_server_that_never_answers_is_paused_after_three_missed_deadlines() {
    let m = Machine::new();
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 200\ninject_deadline_ms = 200\n")
        .unwrap();
    let cwd = m.project("p");
    // Accepts connections and never says a word.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let uri = format!("bolt://{}", listener.local_addr().unwrap());
    let held = std::thread::spawn(move || {
        let mut open = Vec::new();
        for stream in listener.incoming().take(64) {
            open.push(stream);
        }
    });
    // Direct mode: each hook tries the server itself (in forward mode no hook connects at all).
    let env = [
        ("AGENT_MEMORY_STORE", "neo4j"),
        ("AGENT_MEMORY_STORE_MODE", "direct"),
        ("NEO4J_URI", uri.as_str()),
        ("NEO4J_PASSWORD", "x"),
    ];
    let mut times = Vec::new();
    for i in 0..5 {
        let payload = claude(
            "s-silent",
            &cwd,
            "PostToolUse",
            json!({ "tool_name": "Bash", "tool_input": { "command": format!("echo {i}") }, "tool_response": {} }),
        );
        let run = m.hook_env("claude", &cwd, &payload, &env);
        assert_eq!(run.code, 0, "{}", run.stderr);
        times.push(run.elapsed);
    }
    let log = std::fs::read_to_string(m.home().join("logs/hook.log")).unwrap();
    assert_eq!(log.lines().filter(|l| l.contains("journaled (deadline passed)")).count(), 3, "{log}");
    assert_eq!(log.lines().filter(|l| l.contains("store paused")).count(), 2, "{log}");
    assert!(
        times[3] < Duration::from_millis(150) && times[4] < Duration::from_millis(150),
        "paused hooks do not wait: {times:?}"
    );
    let journaled = std::fs::read_dir(m.home().join("journal"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(journaled, 5, "every event waits in the journal");
    drop(held);
}
