//! Where we left off: a session start in a project is told what the project's last session, in
//! any harness, asked, edited and broke, and whether it fixed it; never in another project, never
//! about the session itself.

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor};

const HEADING: &str = "Where the last session here left off";
const CLAUDE_SESSION: &str = "5e55104e-aaaa-4bbb-8ccc-000000000001";

/// A Claude Code `Bash` result: `ok` or failed with `error`.
fn bash(cwd: &std::path::Path, id: &str, command: &str, failed: Option<&str>) -> Value {
    let input = json!({ "command": command });
    match failed {
        Some(error) => claude(
            CLAUDE_SESSION,
            cwd,
            "PostToolUseFailure",
            json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input, "error": error }),
        ),
        None => claude(
            CLAUDE_SESSION,
            cwd,
            "PostToolUse",
            json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                "tool_response": { "stdout": "test result: ok. 4 passed", "stderr": "", "interrupted": false, "isImage": false } }),
        ),
    }
}

/// A Claude Code session in `project`: a task, an edit, a test that fails and later passes, a
/// lint that fails and is left failing.
fn work(m: &Machine, project: &std::path::Path) {
    let s = CLAUDE_SESSION;
    m.hook("claude", project, &claude(s, project, "SessionStart", json!({ "source": "startup" })));
    m.hook(
        "claude",
        project,
        &claude(
            s,
            project,
            "UserPromptSubmit",
            json!({ "prompt":
        "fix the rounding of invoice totals; the staging key is AKIAIOSFODNN7EXAMPLE" }),
        ),
    );
    let file = project.join("src/invoice.rs");
    m.hook("claude", project, &claude(s, project, "PostToolUse", json!({
        "tool_name": "Edit", "tool_use_id": "toolu_edit",
        "tool_input": { "file_path": file, "old_string": "total as f32", "new_string": "total.round_cents()" },
        "tool_response": { "filePath": file, "success": true } })));
    m.hook(
        "claude",
        project,
        &bash(project, "toolu_1", "cargo test -p invoice", Some("test invoice::rounds ... FAILED")),
    );
    m.hook("claude", project, &bash(project, "toolu_2", "cargo test -p invoice rounds", None));
    m.hook(
        "claude",
        project,
        &claude(s, project, "UserPromptSubmit", json!({ "prompt": "now make clippy happy" })),
    );
    m.hook(
        "claude",
        project,
        &bash(project, "toolu_3", "cargo clippy -- -D warnings", Some("error: unused variable `rate`")),
    );
    m.hook("claude", project, &claude(s, project, "Stop", json!({ "stop_hook_active": false })));
}

#[test]
fn a_codex_session_is_told_where_claude_code_left_off_in_the_same_project_only() {
    let m = Machine::new();
    let a = m.project("invoicing");
    let b = m.project("website");
    work(&m, &a);

    let start = m.hook("codex", &a, &codex("codex-a", &a, "SessionStart", json!({ "source": "startup" })));
    let context = start.context("codex").expect("a session start after work in the project is told about it");
    assert!(context.contains(HEADING), "{context}");
    assert!(context.contains(&format!("Claude Code session `claude:{CLAUDE_SESSION}`")), "{context}");
    assert!(context.contains("local time (just now)"), "{context}");
    assert!(context.contains("asked: \"fix the rounding of invoice totals"), "{context}");
    assert!(context.contains("last: \"now make clippy happy\""), "{context}");
    assert!(context.contains("edited `src/invoice.rs`"), "relative to the project: {context}");
    assert!(context.contains("`cargo test -p invoice` failed, then passed"), "{context}");
    assert!(context.contains("`cargo clippy -- -D warnings` failed and had not passed since"), "{context}");
    assert!(!context.contains("AKIAIOSFODNN7EXAMPLE"), "redacted like every injection: {context}");
    assert!(start.elapsed.as_millis() < 2_000, "within the hook's deadline: {:?}", start.elapsed);

    // Cursor takes context at session start only: it gets it there, and its standing rules file
    // (the profile and the project's notes) does not.
    let cursor_start =
        m.hook("cursor", &a, &cursor("cursor-a", &a, "sessionStart", json!({ "session_id": "cursor-a" })));
    let context = cursor_start.context("cursor").expect("cursor is told where the last session left off");
    assert!(
        context.contains(HEADING) && context.contains("`cargo clippy -- -D warnings` failed"),
        "{context}"
    );
    let rules = std::fs::read_to_string(a.join(".cursor/rules/agent-memory.mdc")).unwrap_or_default();
    assert!(!rules.contains(HEADING), "{rules}");

    let other = m.hook("codex", &b, &codex("codex-b", &b, "SessionStart", json!({ "source": "startup" })));
    let context = other.context("codex").unwrap_or_default();
    assert!(
        !context.contains(HEADING) && !context.contains("invoice"),
        "not from another project: {context}"
    );

    // The session that left off, resumed: no start block about itself.
    let resumed =
        m.hook("claude", &a, &claude(CLAUDE_SESSION, &a, "SessionStart", json!({ "source": "resume" })));
    let context = resumed.context("claude").unwrap_or_default();
    assert!(!context.contains(HEADING), "a resumed session is not told about itself: {context}");
    // Nor is the Codex session when it resumes: it had its start block.
    let again = m.hook("codex", &a, &codex("codex-a", &a, "SessionStart", json!({ "source": "resume" })));
    assert_eq!(again.context("codex"), None, "no second start block");
}
