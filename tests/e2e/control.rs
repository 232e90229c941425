//! The user's control over what is kept: pause and resume, excluded folders and projects, a
//! project file that switches capture off, and the Cursor rules file kept out of git and removed
//! by uninstall.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor, git};

/// A short Claude Code session in `dir`: start, a prompt, a command, stop.
fn session(m: &Machine, dir: &Path, id: &str) {
    for (event, extra) in [
        ("SessionStart", json!({ "source": "startup" })),
        ("UserPromptSubmit", json!({ "prompt": "I prefer small focused commits. We use thiserror here." })),
        (
            "PostToolUse",
            json!({ "tool_name": "Bash", "tool_use_id": "t1", "tool_input": { "command": "cargo build" },
                "tool_response": { "stdout": "ok", "stderr": "", "interrupted": false, "isImage": false } }),
        ),
        ("Stop", json!({ "stop_hook_active": false })),
    ] {
        let run = m.hook("claude", dir, &claude(id, dir, event, extra));
        // The harness is answered in its own protocol: nothing, or one JSON document.
        assert!(
            run.stdout.trim().is_empty() || serde_json::from_str::<Value>(&run.stdout).is_ok(),
            "{}",
            run.stdout
        );
    }
}

/// The session keys the store holds.
fn sessions(m: &Machine) -> Vec<String> {
    let listed = m.run_json(&["sessions"]);
    listed.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect()
}

/// Files waiting in the journal.
fn journaled(m: &Machine) -> usize {
    std::fs::read_dir(m.home().join("journal"))
        .map(|d| d.filter_map(Result::ok).filter(|e| e.path().is_file()).count())
        .unwrap_or(0)
}

/// Bytes counted for the dream.
fn waiting(m: &Machine) -> u64 {
    std::fs::metadata(m.dream_dir().join("waiting")).map_or(0, |meta| meta.len())
}

fn run_in(m: &Machine, dir: &Path, args: &[&str]) -> String {
    let out = m.command(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "agent-memory {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn doctor(m: &Machine) -> String {
    let out = m.command(&["doctor"]).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_paused_machine_records_nothing_and_resume_records_again() {
    let m = Machine::new();
    let app = m.project("app");
    let said = m.run(&["pause"]);
    assert!(said.contains("capture paused"), "{said}");
    session(&m, &app, "paused-1");
    assert_eq!(sessions(&m), Vec::<String>::new(), "a paused session leaves nothing in the store");
    assert_eq!(journaled(&m), 0, "nor in the journal");
    assert_eq!(waiting(&m), 0, "nor counts for the dream");
    let log = m.log("hook.log").join("\n");
    assert!(log.contains("not recorded: capture is paused") && !log.contains("paused-1"), "{log}");
    assert!(doctor(&m).contains("capture: PAUSED for every project"), "{}", doctor(&m));

    m.run(&["resume"]);
    session(&m, &app, "after-1");
    assert_eq!(sessions(&m), ["claude:after-1"]);
    let report = doctor(&m);
    assert!(report.contains("capture: on") && report.contains("retention: every event is kept"), "{report}");

    // A timed pause ends by itself.
    m.run(&["pause", "--for", "2s"]);
    session(&m, &app, "timed-1");
    std::thread::sleep(std::time::Duration::from_millis(2_100));
    session(&m, &app, "timed-2");
    let mut got = sessions(&m);
    got.sort();
    assert_eq!(got, ["claude:after-1", "claude:timed-2"]);
}

#[test]
fn pausing_one_project_leaves_the_others_recording() {
    let m = Machine::new();
    let (a, b) = (m.project("alpha"), m.project("beta"));
    let said = run_in(&m, &a, &["pause", "--here"]);
    assert!(said.contains("project alpha"), "{said}");
    session(&m, &a, "in-alpha");
    session(&m, &b, "in-beta");
    assert_eq!(sessions(&m), ["claude:in-beta"]);
    let report = doctor(&m);
    assert!(report.contains("not recorded: alpha") && report.contains("paused for this project"), "{report}");
    assert!(!report.contains("not recorded: beta"), "{report}");

    // By name, from anywhere; an unknown name is refused with the known ones.
    m.run(&["pause", "--project", "beta", "--for", "1h"]);
    session(&m, &b, "in-beta-2");
    let unknown = m.command(&["pause", "--project", "gamma"]).output().unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("alpha"));
    m.run(&["resume", "--project", "alpha"]);
    session(&m, &a, "in-alpha-2");
    let mut got = sessions(&m);
    got.sort();
    assert_eq!(got, ["claude:in-alpha-2", "claude:in-beta"]);
}

#[test]
fn excluded_folders_projects_and_project_files_record_nothing() {
    let m = Machine::new();
    m.write_config("[capture]\nexclude = [\"~/src/secret-*\", \"clientx\"]\n");
    let secret = m.project("secret-plans");
    let client = m.project("clientx");
    let opted_out = m.project("opted-out");
    std::fs::write(opted_out.join(".agent-memory.toml"), "capture = false\n").unwrap();
    let open = m.project("open");
    std::fs::create_dir_all(secret.join("deep")).unwrap();
    session(&m, &secret.join("deep"), "s-secret");
    session(&m, &client, "s-client");
    session(&m, &opted_out, "s-opted-out");
    session(&m, &open, "s-open");
    assert_eq!(sessions(&m), ["claude:s-open"]);
    assert_eq!(journaled(&m), 0);
    let report = doctor(&m);
    // The session ran in a folder below the excluded one, which made a project of its own.
    for (name, why) in
        [("deep", "`~/src/secret-*`"), ("clientx", "entry `clientx`"), ("opted-out", "`capture = false`")]
    {
        assert!(report.contains(&format!("not recorded: {name}")), "{name}: {report}");
        assert!(report.contains(why), "{why}: {report}");
    }
    assert!(!report.contains("not recorded: open"), "{report}");
}

#[test]
fn sessions_that_are_not_recorded_get_notes_only_when_configured() {
    let m = Machine::new();
    let app = m.project("app");
    session(&m, &app, "teach");
    let report = m.run_json(&["dream"]);
    assert!(report["notes_created"].as_u64().unwrap() > 0, "{report}");
    m.run(&["pause"]);
    let start =
        |id: &str| m.hook("codex", &app, &codex(id, &app, "SessionStart", json!({ "source": "startup" })));
    assert_eq!(start("codex-1").context("codex"), None, "by default a paused session is left alone");

    m.write_config("[capture]\ninject_when_paused = true\n");
    let given = start("codex-2").context("codex").expect("notes are given while paused");
    assert!(given.contains("thiserror"), "{given}");
    assert_eq!(sessions(&m), ["claude:teach"], "and still nothing is recorded, not even the injection");
}

#[test]
fn the_cursor_rules_file_stays_out_of_git_holds_only_its_project_and_goes_with_uninstall() {
    let m = Machine::new();
    let repo = m.project("acme");
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("README.md"), "acme\n").unwrap();
    git(&repo, &["add", "README.md"]);
    git(&repo, &["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "init"]);
    let other = m.project("other-app");
    session(&m, &repo, "teach-acme");
    // Another project's session, with a command of its own.
    let s = "teach-other";
    m.hook("claude", &other, &claude(s, &other, "SessionStart", json!({ "source": "startup" })));
    for i in 0..3 {
        m.hook(
            "claude",
            &other,
            &claude(
                s,
                &other,
                "PostToolUse",
                json!({ "tool_name": "Bash", "tool_use_id": format!("o{i}"),
                    "tool_input": { "command": "pnpm run other-app-deploy --prod" },
                    "tool_response": { "stdout": "ok", "stderr": "", "interrupted": false, "isImage": false } }),
            ),
        );
    }
    m.hook("claude", &other, &claude(s, &other, "Stop", json!({ "stop_hook_active": false })));
    m.run_json(&["dream"]);
    // A note of the user's own about a tool, with history from the other project.
    crate::write_paths::mcp_calls(
        &m,
        &[(
            "write_note",
            json!({ "scope": "user", "path": "tools/pnpm/deploy.md", "title": "pnpm deploys",
                "kind": "tool", "tags": ["pnpm"], "body": "- `pnpm run other-app-deploy --prod` (3x)\n" }),
        )],
    );
    let notes = m.run_json(&["notes", "list"]);
    let scopes: Vec<&str> =
        notes.as_array().unwrap().iter().filter_map(|n| n["meta"]["scope"].as_str()).collect();
    assert!(scopes.iter().any(|s| s.starts_with("project:other-app")), "{notes}");

    let start =
        m.hook("cursor", &repo, &cursor("cur-1", &repo, "sessionStart", json!({ "session_id": "cur-1" })));
    assert_eq!(start.code, 0);
    let rules_path = repo.join(".cursor/rules/agent-memory.mdc");
    let rules = std::fs::read_to_string(&rules_path).expect("the rules file is written");
    assert!(rules.contains("alwaysApply: true") && rules.contains("small focused commits"), "{rules}");
    assert!(!rules.contains("other-app") && !rules.contains("pnpm"), "nothing of another project: {rules}");
    assert!(rules.contains("thiserror"), "the project's own notes: {rules}");
    assert!(!rules.contains("Other notes") && !rules.contains("tools/"), "no user tool notes: {rules}");
    assert_eq!(git(&repo, &["status", "--porcelain"]), "", "the rules file never shows in git status");
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert_eq!(exclude.matches("/.cursor/rules/agent-memory.mdc").count(), 1, "{exclude}");
    // A second session start adds no second line.
    m.hook("cursor", &repo, &cursor("cur-2", &repo, "sessionStart", json!({ "session_id": "cur-2" })));
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert_eq!(exclude.matches("/.cursor/rules/agent-memory.mdc").count(), 1, "{exclude}");

    let said = m.run(&["uninstall", "--harness", "cursor", "--verbose"]);
    assert!(said.contains(&format!("cursor rules file {}: removed", rules_path.display())), "{said}");
    assert!(!rules_path.exists() && !repo.join(".cursor").exists(), "the file and its folders are gone");
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert!(!exclude.contains("agent-memory.mdc"), "{exclude}");
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
}

fn timeline_len(m: &Machine, session: &str) -> usize {
    m.run_json(&["timeline", session]).as_array().map_or(0, Vec::len)
}

#[test]
fn prune_deletes_old_distilled_events_and_keeps_notes_and_the_rest() {
    let m = Machine::new();
    // No dream starts by itself here: what is distilled is what the test says.
    m.write_dream_config("auto = false");
    let app = m.project("app");
    let refused = m.command(&["prune"]).output().unwrap();
    assert!(!refused.status.success(), "no retention configured, no age given: nothing to do");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("events_days"));

    session(&m, &app, "old");
    let said = m.run(&["prune", "--older-than", "1s"]);
    assert!(said.contains("not distilled any events yet"), "{said}");
    m.run_json(&["dream"]);
    let notes = m.run_json(&["notes", "list"]).as_array().unwrap().len();
    assert!(notes > 0);
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    session(&m, &app, "new-undistilled");
    let undistilled = timeline_len(&m, "claude:new-undistilled");
    assert!(undistilled >= 4, "its four events and the notes it was given");
    let pruned = m.run_json(&["prune", "--older-than", "1s"]);
    assert_eq!(pruned["events"], 4, "the old session's four events: {pruned}");
    assert_eq!(timeline_len(&m, "claude:old"), 0);
    assert_eq!(timeline_len(&m, "claude:new-undistilled"), undistilled, "events the dream has not read stay");
    assert_eq!(m.run_json(&["notes", "list"]).as_array().unwrap().len(), notes, "notes stay");
    // The session goes on where it was: its next event is its fifth.
    let more = claude("old", &app, "Stop", json!({ "stop_hook_active": true }));
    m.hook("claude", &app, &more);
    let timeline = m.run_json(&["timeline", "claude:old"]);
    assert_eq!(timeline[0]["seq"], 5, "{timeline}");
}

#[test]
fn a_dream_prunes_what_it_distilled_when_retention_is_configured() {
    let m = Machine::new();
    m.write_config("[retention]\nevents_days = 0\n[dream]\nauto = false\n");
    let app = m.project("app");
    session(&m, &app, "s1");
    assert_eq!(timeline_len(&m, "claude:s1"), 4);
    let report = m.run_json(&["dream"]);
    assert!(report["notes_created"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(timeline_len(&m, "claude:s1"), 0, "the dream run pruned what it distilled");
    assert!(doctor(&m).contains("events older than 0 days are pruned"), "{}", doctor(&m));
    assert!(!m.run_json(&["notes", "list"]).as_array().unwrap().is_empty());
}

#[test]
fn the_hook_log_rotates_by_size_and_keeps_two_old_files() {
    let m = Machine::new();
    let app = m.project("app");
    let logs = m.home().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    for round in 1..=3u8 {
        std::fs::write(logs.join("hook.log"), vec![b'0' + round; 1024 * 1024]).unwrap();
        m.hook("claude", &app, &claude("rot", &app, "Stop", json!({ "stop_hook_active": false })));
        let log = std::fs::read_to_string(logs.join("hook.log")).unwrap();
        assert_eq!(log.lines().count(), 1, "a fresh log after rotation");
        assert_eq!(std::fs::read(logs.join("hook.log.1")).unwrap()[0], b'0' + round);
    }
    assert_eq!(std::fs::read(logs.join("hook.log.2")).unwrap()[0], b'2');
    assert!(!logs.join("hook.log.3").exists(), "two old files are kept");
}
