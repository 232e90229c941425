//! Forgetting through the real binary: a secret no redaction rule matches, typed into a prompt, a
//! command and a file write (and journaled once while the store was locked), distilled by the
//! dream into notes, then forgotten: afterwards not one file under the data folder holds it.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor, files_under, holding};

/// Typed by mistake; ordinary words and digits, so no rule can know it is a secret.
const SECRET: &str = "Zanzibar-Tulip-8812";

fn journal_files(m: &Machine) -> usize {
    files_under(&m.home().join("journal"))
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .count()
}

/// A Claude Code session in `dir` that types the secret into a prompt, a command and a file.
fn careless_session(m: &Machine, dir: &Path, id: &str) {
    let events = [
        ("SessionStart", json!({ "source": "startup" })),
        (
            "UserPromptSubmit",
            json!({ "prompt": format!("We use the staging pin {SECRET} here, keep it handy.") }),
        ),
        (
            "PostToolUse",
            json!({ "tool_name": "Bash", "tool_use_id": "t1",
                "tool_input": { "command": format!("deploy-tool push --pin {SECRET} --target staging") },
                "tool_response": { "stdout": "pushed", "stderr": "", "interrupted": false, "isImage": false } }),
        ),
        (
            "PostToolUse",
            json!({ "tool_name": "Write", "tool_use_id": "t2",
                "tool_input": { "file_path": dir.join("notes/staging.md"), "content": format!("staging pin: {SECRET}\n") },
                "tool_response": { "filePath": dir.join("notes/staging.md"), "success": true } }),
        ),
        ("Stop", json!({ "stop_hook_active": false })),
    ];
    for (event, extra) in events {
        m.hook("claude", dir, &claude(id, dir, event, extra));
    }
}

/// An ordinary session that must survive the forget.
fn careful_session(m: &Machine, dir: &Path, id: &str) {
    for (event, extra) in [
        ("SessionStart", json!({ "source": "startup" })),
        ("UserPromptSubmit", json!({ "prompt": "We use thiserror for errors in this repo." })),
        (
            "PostToolUse",
            json!({ "tool_name": "Bash", "tool_use_id": "t1", "tool_input": { "command": "cargo build --workspace" },
                "tool_response": { "stdout": "ok", "stderr": "", "interrupted": false, "isImage": false } }),
        ),
        ("Stop", json!({ "stop_hook_active": false })),
    ] {
        m.hook("claude", dir, &claude(id, dir, event, extra));
    }
}

#[test]
fn a_secret_no_rule_matches_is_forgotten_from_every_file_of_the_data_folder() {
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");

    // No rule knows it: redaction leaves every carrier's text as typed.
    let mut check =
        m.command(&["redact", "--check", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(
        &mut check.stdin.take().unwrap(),
        format!(
            "We use the staging pin {SECRET} here\ndeploy-tool push --pin {SECRET}\nstaging pin: {SECRET}\n"
        )
        .as_bytes(),
    )
    .unwrap();
    let checked = String::from_utf8(check.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(checked.matches(SECRET).count(), 3, "no rule matches the secret: {checked}");

    careless_session(&m, &app, "careless-1");
    careful_session(&m, &app, "careful-1");
    m.run(&["dream"]);
    let notes = m.run_json(&["notes", "list"]);
    let with_secret: Vec<&Value> = notes
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["body"].as_str().is_some_and(|b| b.contains(SECRET)))
        .collect();
    assert!(!with_secret.is_empty(), "the dream carried the secret into a note: {notes:#}");
    // Cursor's rules file quotes the project's notes, the secret with them.
    m.hook("cursor", &app, &cursor("cur-1", &app, "sessionStart", json!({ "session_id": "cur-1" })));
    let rules = app.join(".cursor/rules/agent-memory.mdc");
    assert!(std::fs::read_to_string(&rules).unwrap().contains(SECRET), "the rules file quotes it");

    // One more mention waits in the journal: typed while the store was locked.
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 300\n[dream]\nauto = false\n")
        .unwrap();
    let lock = rusqlite::Connection::open(m.db()).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let prompt = json!({ "prompt": format!("is {SECRET} still the pin?") });
    m.hook("codex", &app, &codex("careless-2", &app, "UserPromptSubmit", prompt));
    let waited = Instant::now();
    while journal_files(&m) == 0 && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(journal_files(&m), 1, "the locked store sent the event to the journal");
    drop(lock);
    m.write_config("[dream]\nauto = false\n");

    let before = holding(&m.home(), SECRET);
    assert!(before.iter().any(|p| p.starts_with(m.home().join("journal"))), "in the journal: {before:?}");
    assert!(
        before.iter().any(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("memory.db"))),
        "in the database or its WAL: {before:?}"
    );
    let found = m.run_json(&["search", "staging pin", "--events"]);
    assert!(found["events"].as_array().unwrap().len() >= 2, "history search finds it: {found:#}");

    // Without a terminal and without --yes, nothing is deleted.
    let refused = m.command(&["forget", "text", SECRET]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("stdin is not a terminal") && said.contains("--yes"), "{said}");
    let dry = m.run_json(&["forget", "text", SECRET, "--dry-run"]);
    assert_eq!(dry["dry_run"], json!(true));
    assert_eq!(dry["plan"]["events"].as_array().unwrap().len(), 3, "prompt, command and file write: {dry:#}");
    assert_eq!(dry["plan"]["journal"].as_array().unwrap().len(), 1, "{dry:#}");
    // The notes holding it lose the lines that hold it, and keep the rest.
    let edited = dry["plan"]["edited"].as_array().unwrap();
    assert!(!edited.is_empty(), "{dry:#}");
    assert!(
        edited.iter().any(|n| n["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains(SECRET))),
        "the lines holding the secret are listed: {dry:#}"
    );
    assert_eq!(holding(&m.home(), SECRET), before, "neither the refusal nor the dry run deleted anything");

    let done = m.run_json(&["forget", "text", SECRET, "--yes"]);
    assert_eq!(done["forgotten"]["store"]["events"], json!(3), "{done:#}");
    assert_eq!(done["forgotten"]["journal_files"], json!(1), "{done:#}");

    let left = holding(&m.home(), SECRET);
    assert!(left.is_empty(), "files still holding the secret: {left:?}");
    let rules_now = std::fs::read_to_string(&rules).unwrap();
    assert!(!rules_now.contains(SECRET) && rules_now.contains("agent-memory"), "{rules_now}");
    // Nor its words as a full-text index keeps them (lowercased, one term each).
    for word in ["zanzibar", "tulip", "8812"] {
        let left = holding(&m.home(), word);
        assert!(left.is_empty(), "files still holding `{word}`: {left:?}");
    }

    // Everything else stays.
    let sessions: Vec<String> = m
        .run_json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap().to_owned())
        .collect();
    assert!(sessions.contains(&"claude:careful-1".to_owned()), "{sessions:?}");
    let kept = m.run_json(&["timeline", "claude:careless-1"]);
    let kinds: Vec<&str> =
        kept.as_array().unwrap().iter().map(|e| e["event"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["SessionStart", "Stop"], "the careless session keeps what did not hold the secret");
    let found = m.run_json(&["search", "thiserror"]);
    assert!(!found["events"].as_array().unwrap().is_empty(), "other history is still searchable: {found:#}");
    assert!(m.run_json(&["search", SECRET])["events"].as_array().unwrap().is_empty());
    let log = m.log("hook.log").join("\n");
    assert!(log.contains("careful-1"), "the log keeps the other lines: {log}");
}

#[test]
fn forget_a_session_and_prune_dry_run_change_nothing_until_asked() {
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");
    careless_session(&m, &app, "one");
    careful_session(&m, &app, "two");
    let plan = m.run_json(&["forget", "session", "claude:one", "--dry-run"]);
    assert_eq!(plan["plan"]["events"].as_array().unwrap().len(), 5, "{plan:#}");
    assert_eq!(plan["plan"]["sessions"], json!(["claude:one"]));
    assert!(
        plan["plan"]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"].as_str().unwrap().ends_with("hook.log"))
    );
    std::thread::sleep(Duration::from_millis(1100));
    let pruned = m.run_json(&["prune", "--older-than", "1s", "--dry-run"]);
    assert_eq!(pruned["events"], json!(0), "nothing distilled yet, so nothing would go: {pruned:#}");
    m.run(&["dream"]);
    let pruned = m.run_json(&["prune", "--older-than", "1s", "--dry-run"]);
    // Nine recorded events and the injection that told the second session where the first left off.
    assert_eq!(pruned["events"], json!(10), "every distilled event would go: {pruned:#}");
    assert_eq!(pruned["dry_run"], json!(true));
    assert_eq!(
        m.run_json(&["timeline", "claude:one"]).as_array().unwrap().len(),
        5,
        "a dry run deletes nothing"
    );

    let said = m.run(&["forget", "session", "claude:one", "--yes"]);
    assert!(said.contains("forgot 5 events, 1 session"), "{said}");
    let sessions = m.run_json(&["sessions"]);
    assert_eq!(sessions.as_array().unwrap().len(), 1, "{sessions:#}");
    let log = m.log("hook.log").join("\n");
    assert!(!log.contains("claude:one") && log.contains("claude:two"), "{log}");
    let out = m.command(&["timeline", "claude:one"]).output().unwrap();
    assert!(!out.status.success(), "a forgotten session is unknown");
}

#[test]
fn forget_a_project_leaves_nothing_of_it_and_keeps_the_others() {
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let (app, other) = (m.project("app"), m.project("other"));
    careless_session(&m, &app, "in-app");
    careful_session(&m, &other, "in-other");
    m.run(&["dream"]);
    let projects = m.run_json(&["projects"]);
    assert_eq!(projects.as_array().map(Vec::len), Some(2), "{projects:#}");
    let said = m.command(&["forget", "project", "app", "--yes"]).current_dir(&other).output().unwrap();
    assert!(said.status.success(), "{}", String::from_utf8_lossy(&said.stderr));
    let projects = m.run_json(&["projects"]);
    let names: Vec<&str> = projects.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["other"], "{projects:#}");
    let sessions = m.run_json(&["sessions"]);
    let keys: Vec<&str> = sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["claude:in-other"]);
    let left = holding(&m.home(), SECRET);
    assert!(left.is_empty(), "nothing of the project's secret is left: {left:?}");
    let notes = m.run_json(&["notes", "list"]);
    assert!(
        notes.as_array().unwrap().iter().all(|n| !n["meta"]["scope"].as_str().unwrap_or("").contains("app")),
        "{notes:#}"
    );
}
