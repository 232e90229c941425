//! Tool-time recall through the real binary: a command fails and gets fixed in one session; after
//! the dream, an agent in a new session about to run it again is handed the fix before the call
//! (Claude Code and Codex, through `PreToolUse`), once per session, and never for an unrelated
//! command, for the fixed invocation, in another project, or in Cursor, which takes no context
//! there.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor};

fn bash(m: &Machine, project: &Path, session: &str, event: &str, command: &str, result: Value) {
    let mut extra = json!({
        "tool_name": "Bash",
        "tool_use_id": format!("toolu_{}_{}", event.len(), command.len()),
        "tool_input": { "command": command },
    });
    if let (Some(map), Value::Object(more)) = (extra.as_object_mut(), result) {
        map.extend(more);
    }
    m.hook("claude", project, &claude(session, project, event, extra));
}

/// What Claude Code is given before running `command` in `session`.
fn before_claude(m: &Machine, project: &Path, session: &str, command: &str) -> Option<String> {
    let payload = claude(
        session,
        project,
        "PreToolUse",
        json!({ "tool_name": "Bash", "tool_use_id": format!("toolu_pre_{}", command.len()), "tool_input": { "command": command } }),
    );
    m.hook("claude", project, &payload).context("claude")
}

fn before_codex(m: &Machine, project: &Path, session: &str, command: &str) -> Option<String> {
    let payload = codex(
        session,
        project,
        "PreToolUse",
        json!({ "tool_name": "Bash", "tool_use_id": "call_pre", "tool_input": { "command": command } }),
    );
    m.hook("codex", project, &payload).context("codex")
}

#[test]
fn a_command_that_failed_before_comes_with_its_fix() {
    let m = Machine::new();
    let ledger = m.project("ledger");
    let shop = m.project("shop");
    bash(
        &m,
        &ledger,
        "s1",
        "PostToolUseFailure",
        "cargo build",
        json!({
            "error": "Exit code 101\nerror: failed to run custom build command for `openssl-sys v0.9.103`\nCould not find directory of OpenSSL installation",
            "is_interrupt": false,
        }),
    );
    bash(
        &m,
        &ledger,
        "s1",
        "PostToolUse",
        "cargo build --features vendored",
        json!({
            "tool_response": { "stdout": "Finished `dev` profile [unoptimized + debuginfo] target(s) in 41.2s", "stderr": "", "interrupted": false },
        }),
    );
    m.run(&["dream", "--provider", "deterministic"]);

    let given = before_codex(&m, &ledger, "c1", "cargo build --release").expect("the fix is handed over");
    assert!(given.contains("--features vendored"), "it names the fix: {given}");
    assert!(given.contains("openssl-sys"), "and the error it fixed: {given}");
    assert_eq!(before_codex(&m, &ledger, "c1", "cargo build"), None, "once per session");
    let claude_given = before_claude(&m, &ledger, "k1", "cargo build").expect("Claude Code is handed it too");
    assert!(claude_given.contains("--features vendored"), "{claude_given}");

    assert_eq!(before_claude(&m, &ledger, "k2", "cargo fmt --check"), None, "an unrelated command");
    assert_eq!(before_claude(&m, &ledger, "k3", "git status"), None, "a command that only looks");
    assert_eq!(before_claude(&m, &ledger, "k4", "cargo build --features vendored"), None, "the fix is in it");
    assert_eq!(before_claude(&m, &shop, "k5", "cargo build"), None, "another project's failure");

    let payload = cursor(
        "u1",
        &ledger,
        "beforeShellExecution",
        json!({ "command": "cargo build", "cwd": ledger, "sandbox": false }),
    );
    let run = m.hook("cursor", &ledger, &payload);
    assert_eq!(run.context("cursor"), None, "Cursor takes no context before a tool call");

    let log = m.log("hook.log").join("\n");
    assert!(
        log.contains("PreToolUse") && log.contains("injected 1 notes"),
        "the log says what was given: {log}"
    );
}
