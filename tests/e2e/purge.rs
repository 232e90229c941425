//! Forgetting item by item, and one purge for everything that deletes events, through the real
//! binary: a forgotten line leaves its note with every other item; a forgotten session leaves no
//! byte of its text in any file under the data folder (database, write-ahead log, free pages,
//! indexes, note history, journal, logs) while what other sessions taught stays; `prune` and
//! `[retention] events_days` leave nothing of the events they remove either; and the same on
//! Neo4j, its server and the local copy hooks read.

use std::path::Path;

use serde_json::{Value, json};

use crate::neo4j_restart::{PrivateServer, tooling_available};
use crate::support::{Machine, claude, cursor, holding};

/// A Claude Code session in `dir` that says each of `prompts`, then runs `command`.
fn session(m: &Machine, dir: &Path, id: &str, prompts: &[&str], command: &str) {
    session_env(m, dir, id, prompts, command, &[]);
}

/// [`session`] with hooks run in `env`.
fn session_env(m: &Machine, dir: &Path, id: &str, prompts: &[&str], command: &str, env: &[(&str, &str)]) {
    let hook = |payload: Value| {
        let run = m.hook_env("claude", dir, &payload, env);
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    hook(claude(id, dir, "SessionStart", json!({ "source": "startup" })));
    for prompt in prompts {
        hook(claude(id, dir, "UserPromptSubmit", json!({ "prompt": prompt })));
    }
    hook(claude(
        id,
        dir,
        "PostToolUse",
        json!({ "tool_name": "Bash", "tool_use_id": format!("{id}-t1"),
                "tool_input": { "command": command },
                "tool_response": { "stdout": "ok", "stderr": "", "interrupted": false, "isImage": false } }),
    ));
    hook(claude(id, dir, "Stop", json!({ "stop_hook_active": false })));
}

/// The note at `path` (its end: `conventions.md`, `profile/preferences.md`), if any.
fn note_ending(notes: &Value, path: &str) -> Option<Value> {
    notes.as_array().unwrap().iter().find(|n| n["path"].as_str().is_some_and(|p| p.ends_with(path))).cloned()
}

fn body(note: &Value) -> &str {
    note["body"].as_str().unwrap()
}

#[test]
fn forgetting_one_line_keeps_every_other_item_of_its_note() {
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");
    session(
        &m,
        &app,
        "one",
        &[
            "We use tabs for indentation in this repo.",
            "In this repo the release branch is called Zebra-Kettle-Q4471.",
            "We use thiserror for error types in this repo.",
        ],
        "cargo build --workspace",
    );
    session(&m, &app, "two", &["We use tabs for indentation in this repo."], "cargo test --workspace");
    m.run(&["dream"]);
    let notes = m.run_json(&["notes", "list"]);
    let conventions = note_ending(&notes, "conventions.md").expect("the dream wrote the conventions");
    for said in ["tabs for indentation", "Zebra-Kettle-Q4471", "thiserror"] {
        assert!(body(&conventions).contains(said), "the note holds `{said}`: {}", body(&conventions));
    }

    let dry = m.run_json(&["forget", "text", "Zebra-Kettle-Q4471", "--dry-run"]);
    assert!(dry["plan"]["notes"].as_array().unwrap().is_empty(), "no note goes whole: {dry:#}");
    let edited = dry["plan"]["edited"].as_array().unwrap();
    assert_eq!(edited.len(), 1, "{dry:#}");
    assert!(edited[0]["path"].as_str().unwrap().ends_with("conventions.md"), "{dry:#}");
    let lines: Vec<&str> =
        edited[0]["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert_eq!(lines.len(), 1, "one line goes: {lines:?}");
    assert!(lines[0].contains("Zebra-Kettle-Q4471"), "{lines:?}");
    let said = m.run(&["forget", "text", "Zebra-Kettle-Q4471", "--dry-run"]);
    assert!(
        said.contains("conventions.md") && said.contains("Zebra-Kettle-Q4471"),
        "the dry run shows the line: {said}"
    );

    m.run(&["forget", "text", "Zebra-Kettle-Q4471", "--yes"]);
    let notes = m.run_json(&["notes", "list"]);
    let kept = note_ending(&notes, "conventions.md").expect("the conventions note stays");
    assert!(!body(&kept).contains("Zebra-Kettle"), "{}", body(&kept));
    assert!(
        body(&kept).contains("tabs for indentation in this repo. (2×"),
        "both sessions' sightings stay: {}",
        body(&kept)
    );
    assert!(body(&kept).contains("thiserror"), "every other item stays: {}", body(&kept));
    assert!(note_ending(&notes, "commands.md").is_some(), "the other notes stay: {notes:#}");
    let left = holding(&m.home(), "zebra-kettle");
    assert!(left.is_empty(), "files still holding the line: {left:?}");
    for word in ["zebra", "kettle", "q4471"] {
        assert!(holding(&m.home(), word).is_empty(), "files still holding `{word}`");
    }
    // Nothing is left for the dream to rebuild, and nothing of what stays is lost to it.
    m.run(&["dream"]);
    let again = note_ending(&m.run_json(&["notes", "list"]), "conventions.md").unwrap();
    assert_eq!(body(&again), body(&kept), "the next dream leaves the note as the forget left it");
}

/// Two sessions teaching the same convention; the careless one also says what only it says.
fn two_sessions(m: &Machine, app: &Path) {
    two_sessions_env(m, app, &[]);
}

fn two_sessions_env(m: &Machine, app: &Path, env: &[(&str, &str)]) {
    session_env(
        m,
        app,
        "careless",
        &[
            "I prefer terse answers with Marzipan headings.",
            "We use thiserror for error types in this repo.",
            "Why does the Blorptastic job keep failing?",
        ],
        "ls -la",
        env,
    );
    session_env(
        m,
        app,
        "careful",
        &["I prefer terse answers without emojis.", "We use thiserror for error types in this repo."],
        "cargo test --workspace",
        env,
    );
}

/// Words only the careless session holds.
const CARELESS: [&str; 2] = ["marzipan", "blorptastic"];

#[test]
fn forgetting_a_session_leaves_no_byte_of_it_and_keeps_what_others_taught() {
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");
    two_sessions(&m, &app);
    m.run(&["dream"]);
    // A later session changes the profile: its older version, with the careless words, is history.
    session(&m, &app, "later", &["I prefer short commit messages."], "cargo check");
    m.run(&["dream"]);
    let history = m.run_json(&["notes", "show", "user", "profile/preferences.md", "--history"]);
    assert!(history["history"].to_string().contains("Marzipan"), "an older version holds it: {history:#}");
    // The history's search index holds the events' words once searched.
    assert!(!m.run_json(&["search", "blorptastic", "--events"])["events"].as_array().unwrap().is_empty());
    let notes = m.run_json(&["notes", "list"]);
    let preferences = note_ending(&notes, "profile/preferences.md").expect("the profile");
    assert!(body(&preferences).contains("Marzipan"), "{}", body(&preferences));
    for word in CARELESS {
        assert!(!holding(&m.home(), word).is_empty(), "`{word}` was recorded");
    }

    let dry = m.run_json(&["forget", "session", "claude:careless", "--dry-run"]);
    let edited = dry["plan"]["edited"].as_array().unwrap();
    let profile =
        edited.iter().find(|n| n["path"] == "profile/preferences.md").expect("the profile is edited");
    let lines: Vec<&str> = profile["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(lines.len() == 1 && lines[0].contains("Marzipan"), "{lines:?}");

    m.run(&["forget", "session", "claude:careless", "--yes"]);
    for word in CARELESS {
        let left = holding(&m.home(), word);
        assert!(left.is_empty(), "files still holding `{word}`: {left:?}");
    }
    assert!(holding(&m.home(), "claude:careless").is_empty(), "no log line or ledger names it");
    let notes = m.run_json(&["notes", "list"]);
    let preferences = note_ending(&notes, "profile/preferences.md").expect("the profile stays");
    assert!(
        body(&preferences).contains("without emojis"),
        "the other session's item: {}",
        body(&preferences)
    );
    let conventions = note_ending(&notes, "conventions.md").expect("the conventions stay");
    assert!(
        body(&conventions).contains("thiserror for error types in this repo. (1×"),
        "an item both taught stays, with one sighting: {}",
        body(&conventions)
    );
    assert!(!m.run_json(&["search", "thiserror", "--events"])["events"].as_array().unwrap().is_empty());
}

#[test]
fn prune_and_retention_leave_no_byte_of_the_events_they_remove() {
    for retention in [false, true] {
        let m = Machine::new();
        m.write_config("[dream]\nauto = false\n");
        let app = m.project("app");
        two_sessions(&m, &app);
        m.run(&["dream"]);
        assert!(!m.run_json(&["search", "blorptastic", "--events"])["events"].as_array().unwrap().is_empty());
        std::thread::sleep(std::time::Duration::from_millis(1_100));
        if retention {
            m.write_config("[dream]\nauto = false\n[retention]\nevents_days = 0\n");
            m.run(&["dream"]);
        } else {
            let pruned = m.run_json(&["prune", "--older-than", "1s"]);
            assert!(pruned["events"].as_u64().unwrap() >= 10, "{pruned:#}");
        }
        assert!(m.run_json(&["search", "blorptastic", "--events"])["events"].as_array().unwrap().is_empty());
        // The question and the command were never distilled: nothing of them stays anywhere.
        let left = holding(&m.home(), "blorptastic");
        assert!(left.is_empty(), "retention {retention}: files still holding it: {left:?}");
        // Notes keep what was distilled.
        let notes = m.run_json(&["notes", "list"]);
        let preferences = note_ending(&notes, "profile/preferences.md").expect("the profile stays");
        assert!(body(&preferences).contains("Marzipan"), "{}", body(&preferences));
    }
}

/// `agent-memory --json <args>` with `env`; fails the test on a non-zero exit.
fn run_json_env(m: &Machine, env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = m.command(&all).envs(env.iter().copied()).output().unwrap();
    assert!(out.status.success(), "agent-memory {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn on_neo4j_a_forgotten_session_leaves_the_server_and_the_local_copy_and_prune_its_events() {
    if !tooling_available() {
        return;
    }
    let server = PrivateServer::start();
    // Forward mode (the default with a server): hooks journal, the dream delivers first, hooks
    // read the notes from the local copy.
    let reach = crate::forward::Server::private(&server);
    let env = reach.env();
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");
    two_sessions_env(&m, &app, &env);
    run_json_env(&m, &env, &["dream"]);
    session_env(&m, &app, "later", &["I prefer short commit messages."], "cargo check", &env);
    run_json_env(&m, &env, &["dream"]);
    let history = run_json_env(&m, &env, &["notes", "show", "user", "profile/preferences.md", "--history"]);
    assert!(history["history"].to_string().contains("Marzipan"), "an older version holds it: {history:#}");
    run_json_env(&m, &env, &["sync", "--wait", "--timeout", "120"]);
    let found = run_json_env(&m, &env, &["search", "blorptastic", "--events"]);
    assert!(!found["events"].as_array().unwrap().is_empty(), "the server holds it: {found:#}");
    assert!(!holding(&m.home(), "marzipan").is_empty(), "the local copy holds the profile");

    let dry = run_json_env(&m, &env, &["forget", "session", "claude:careless", "--dry-run"]);
    assert!(
        dry["plan"]["edited"].as_array().unwrap().iter().any(|n| n["path"] == "profile/preferences.md"),
        "{dry:#}"
    );
    run_json_env(&m, &env, &["forget", "session", "claude:careless", "--yes"]);
    for word in CARELESS {
        let found = run_json_env(&m, &env, &["search", word]);
        assert!(found["events"].as_array().unwrap().is_empty(), "the server's history: {found:#}");
        assert!(found["notes"].as_array().unwrap().is_empty(), "the server's notes: {found:#}");
        let left = holding(&m.home(), word);
        assert!(left.is_empty(), "files under the data folder still holding `{word}`: {left:?}");
    }
    let notes = run_json_env(&m, &env, &["notes", "list"]);
    let preferences = note_ending(&notes, "profile/preferences.md").expect("the profile stays");
    assert!(body(&preferences).contains("without emojis"), "{}", body(&preferences));
    assert!(!body(&preferences).contains("Marzipan"), "{}", body(&preferences));
    let history = run_json_env(&m, &env, &["notes", "show", "user", "profile/preferences.md", "--history"]);
    assert!(!history.to_string().to_lowercase().contains("marzipan"), "its history: {history:#}");
    assert!(!history["history"].as_array().unwrap().is_empty(), "the history stays, rewritten: {history:#}");
    let conventions = note_ending(&notes, "conventions.md").expect("the conventions stay");
    assert!(
        body(&conventions).contains("thiserror for error types in this repo. (1×"),
        "{}",
        body(&conventions)
    );

    // Prune: the careful session's events leave the server; the notes stay as they are.
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    let pruned = run_json_env(&m, &env, &["prune", "--older-than", "1s"]);
    assert!(pruned["events"].as_u64().unwrap() >= 5, "{pruned:#}");
    let found = run_json_env(&m, &env, &["search", "emojis", "--events"]);
    assert!(found["events"].as_array().unwrap().is_empty(), "pruned from the server: {found:#}");
    let after = note_ending(&run_json_env(&m, &env, &["notes", "list"]), "profile/preferences.md").unwrap();
    assert_eq!(body(&after), body(&preferences), "notes keep what was distilled");
}

/// Words every session of [`two_sessions`] and the later one said.
const SAID: [&str; 4] = ["marzipan", "blorptastic", "emojis", "short commit messages"];

#[test]
fn forget_all_leaves_no_byte_of_any_prompt_and_keeps_the_config_and_hooks() {
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");
    let hooked = m.run(&["install", "--harness", "claude", "--no-model"]);
    assert!(hooked.contains("Claude Code"), "{hooked}");
    let settings = m.dir.path().join(".claude/settings.json");
    let hooks = std::fs::read_to_string(&settings).expect("install wrote the hooks");
    two_sessions(&m, &app);
    m.run(&["dream"]);
    session(&m, &app, "later", &["I prefer short commit messages."], "cargo check");
    m.run(&["dream"]);
    assert!(!m.run_json(&["search", "blorptastic", "--events"])["events"].as_array().unwrap().is_empty());
    // Cursor's rules file quotes the notes, in the project.
    m.hook("cursor", &app, &cursor("cur-1", &app, "sessionStart", json!({ "session_id": "cur-1" })));
    let rules = app.join(".cursor/rules/agent-memory.mdc");
    assert!(std::fs::read_to_string(&rules).unwrap().contains("emojis"), "the rules file quotes the profile");
    // A local copy of a server's notes left from a time the store was Neo4j: it goes too.
    std::fs::write(m.home().join("replica.db"), "- I prefer terse answers with Marzipan headings.").unwrap();
    for word in SAID {
        assert!(!holding(&m.home(), word).is_empty(), "`{word}` was recorded");
    }

    // Without --yes: what would go, nothing deleted.
    let dry = m.run(&["forget", "--all"]);
    assert!(dry.contains("would forget everything") && dry.contains("dry run: nothing was deleted"), "{dry}");
    assert!(dry.contains("left as they are: the config file"), "{dry}");
    let plan = m.run_json(&["forget", "--all"]);
    assert_eq!(plan["dry_run"], json!(true), "{plan:#}");
    assert!(plan["plan"]["events"].as_array().unwrap().len() >= 15, "{plan:#}");
    assert!(!holding(&m.home(), "blorptastic").is_empty(), "a dry run deletes nothing");

    let done = m.run(&["forget", "--all", "--yes"]);
    assert!(done.starts_with("forgot ") && done.contains("left as they are: the config file"), "{done}");
    for word in SAID {
        let left = holding(&m.home(), word);
        assert!(left.is_empty(), "files under the data folder still holding `{word}`: {left:?}");
    }
    assert!(!rules.exists(), "the rules file quoting the notes is gone");
    assert_eq!(m.run_json(&["notes", "list"]), json!([]));
    assert_eq!(m.run_json(&["sessions"]), json!([]));
    assert!(m.run_json(&["search", "thiserror"])["events"].as_array().unwrap().is_empty());
    // The config and the hooks stay, and the memory records again.
    let config = std::fs::read_to_string(m.dir.path().join("config.toml")).unwrap();
    assert!(config.contains("auto = false"), "{config}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), hooks, "the hooks are as install wrote them");
    session(&m, &app, "after", &["We use tabs for indentation in this repo."], "cargo fmt");
    let sessions = m.run_json(&["sessions"]);
    assert_eq!(sessions.as_array().unwrap().len(), 1, "{sessions:#}");
    assert!(holding(&m.home(), "marzipan").is_empty());
}

#[test]
fn on_neo4j_forget_all_empties_the_server_and_the_local_copy() {
    if !tooling_available() {
        return;
    }
    let server = PrivateServer::start();
    let reach = crate::forward::Server::private(&server);
    let env = reach.env();
    let m = Machine::new();
    m.write_config("[dream]\nauto = false\n");
    let app = m.project("app");
    two_sessions_env(&m, &app, &env);
    run_json_env(&m, &env, &["dream"]);
    run_json_env(&m, &env, &["sync", "--wait", "--timeout", "120"]);
    let found = run_json_env(&m, &env, &["search", "blorptastic", "--events"]);
    assert!(!found["events"].as_array().unwrap().is_empty(), "the server holds it: {found:#}");
    assert!(!holding(&m.home(), "marzipan").is_empty(), "the local copy holds the profile");
    // Events still in the journal when the forget starts are forgotten too.
    session_env(&m, &app, "waiting", &["Why is the Blorptastic job slow?"], "ls", &env);

    let dry = run_json_env(&m, &env, &["forget", "--all"]);
    assert_eq!(dry["dry_run"], json!(true), "{dry:#}");
    let done = run_json_env(&m, &env, &["forget", "--all", "--yes"]);
    assert_eq!(done["dry_run"], json!(false), "{done:#}");
    for word in CARELESS {
        let found = run_json_env(&m, &env, &["search", word]);
        assert!(found["events"].as_array().unwrap().is_empty(), "the server's history: {found:#}");
        assert!(found["notes"].as_array().unwrap().is_empty(), "the server's notes: {found:#}");
        let left = holding(&m.home(), word);
        assert!(left.is_empty(), "files under the data folder still holding `{word}`: {left:?}");
    }
    assert_eq!(run_json_env(&m, &env, &["notes", "list"]), json!([]));
    assert_eq!(run_json_env(&m, &env, &["sessions"]), json!([]));
}
