//! The product's promise: memory made in one harness is injected in another, for the same project
//! only, and a note is injected at most once per session.

use serde_json::json;

use crate::support::{Machine, claude, codex, cursor};

/// A Claude Code session in project A that teaches a preference and a convention and runs tools.
fn teach(m: &Machine, project_a: &std::path::Path) {
    let s = "11111111-aaaa-4bbb-8ccc-000000000001";
    m.hook("claude", project_a, &claude(s, project_a, "SessionStart", json!({ "source": "startup" })));
    m.hook("claude", project_a, &claude(s, project_a, "UserPromptSubmit", json!({ "prompt":
        "I prefer small focused commits. In this project we use thiserror for library errors, never anyhow." })));
    for (i, ok) in [(1, false), (2, true), (3, true)] {
        let id = format!("toolu_{i}");
        let input = json!({ "command": "cargo test --workspace" });
        m.hook(
            "claude",
            project_a,
            &claude(
                s,
                project_a,
                "PreToolUse",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input }),
            ),
        );
        let post = if ok {
            claude(
                s,
                project_a,
                "PostToolUse",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                "tool_response": { "stdout": "test result: ok", "stderr": "", "interrupted": false, "isImage": false } }),
            )
        } else {
            claude(
                s,
                project_a,
                "PostToolUseFailure",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                "error": "error[E0432]: unresolved import" }),
            )
        };
        m.hook("claude", project_a, &post);
    }
    m.hook("claude", project_a, &claude(s, project_a, "Stop", json!({ "stop_hook_active": false })));
}

#[test]
fn claude_memory_reaches_codex_and_cursor_in_the_same_project_only() {
    let m = Machine::new();
    let a = m.project("acme-api");
    let b = m.project("other");
    teach(&m, &a);

    let timeline = m.run_json(&["timeline", "claude:11111111-aaaa-4bbb-8ccc-000000000001"]);
    let kinds: Vec<&str> =
        timeline.as_array().unwrap().iter().map(|e| e["event"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[..3], ["SessionStart", "UserPromptSubmit", "PreToolUse"]);
    assert!(kinds.contains(&"PostToolUseFailure"));
    let projects: std::collections::BTreeSet<&str> =
        timeline.as_array().unwrap().iter().map(|e| e["event"]["project"].as_str().unwrap()).collect();
    assert_eq!(projects.len(), 1, "one project for the whole session: {projects:?}");

    let report = m.run_json(&["dream"]);
    assert!(report["notes_created"].as_u64().unwrap() > 0, "{report}");

    let start = m.hook("codex", &a, &codex("codex-a", &a, "SessionStart", json!({ "source": "startup" })));
    let context = start.context("codex").expect("codex is given notes at session start in project A");
    assert!(context.contains("thiserror"), "{context}");
    assert!(context.contains("small focused commits"), "{context}");

    let cursor_start =
        m.hook("cursor", &a, &cursor("cursor-a", &a, "sessionStart", json!({ "session_id": "cursor-a" })));
    let context =
        cursor_start.context("cursor").expect("cursor is given notes at session start in project A");
    assert!(context.contains("thiserror"), "{context}");
    let rules = std::fs::read_to_string(a.join(".cursor/rules/agent-memory.mdc")).unwrap();
    assert!(rules.contains("alwaysApply: true") && rules.contains("thiserror"), "{rules}");

    let other = m.hook("codex", &b, &codex("codex-b", &b, "SessionStart", json!({ "source": "startup" })));
    let context = other.context("codex").unwrap_or_default();
    assert!(!context.contains("thiserror"), "project B must not see project A's conventions: {context}");
}

#[test]
fn a_prompt_gets_relevant_notes_once_per_session() {
    let m = Machine::new();
    let a = m.project("acme-api");
    teach(&m, &a);
    m.run_json(&["dream"]);

    let ask = |session: &str, turn: &str, prompt: &str| {
        m.hook(
            "codex",
            &a,
            &codex(session, &a, "UserPromptSubmit", json!({ "turn_id": turn, "prompt": prompt })),
        )
    };
    let first = ask("codex-p", "t1", "which errors crate do we use for library errors, thiserror or anyhow?");
    let context = first.context("codex").expect("a relevant note is injected on the prompt");
    assert!(context.contains("thiserror"), "{context}");
    let again = ask("codex-p", "t2", "which errors crate do we use for library errors, thiserror or anyhow?");
    assert_eq!(again.context("codex"), None, "the same note is not injected twice in a session");
    let fresh = ask("codex-q", "t1", "which errors crate do we use for library errors, thiserror or anyhow?");
    assert!(fresh.context("codex").is_some(), "another session gets it again");
    let unrelated = ask("codex-r", "t1", "draw a unicorn in ascii");
    assert_eq!(unrelated.context("codex"), None, "nothing is injected when nothing matches");

    let timeline = m.run_json(&["timeline", "codex:codex-p"]);
    let injections =
        timeline.as_array().unwrap().iter().filter(|e| e["event"]["kind"] == "Injection").count();
    assert_eq!(injections, 1, "every injection is recorded as an event");
}

#[test]
fn a_resumed_session_is_not_given_the_same_notes_again_but_a_compacted_one_is() {
    let m = Machine::new();
    let a = m.project("acme-api");
    teach(&m, &a);
    m.run_json(&["dream"]);

    let start = |source: &str| {
        m.hook("codex", &a, &codex("codex-r", &a, "SessionStart", json!({ "source": source })))
            .context("codex")
    };
    assert!(start("startup").is_some_and(|c| c.contains("thiserror")), "the first start injects");
    assert_eq!(start("resume"), None, "a resumed session still holds what was injected");
    // Between two runs of the session the project gains a note: the resumed conversation still
    // holds its start block, so it is not given one again (the note comes with a prompt for it).
    let added = m
        .command(&[
            "notes",
            "add",
            "Deploy to staging",
            "--kind",
            "procedure",
            "--body",
            "Run the xylophone script.",
        ])
        .current_dir(&a)
        .output()
        .unwrap();
    assert!(added.status.success(), "{}", String::from_utf8_lossy(&added.stderr));
    let fresh = m.hook("codex", &a, &codex("codex-new", &a, "SessionStart", json!({ "source": "startup" })));
    assert!(fresh.context("codex").is_some_and(|c| c.contains("xylophone")), "a new session gets it");
    assert_eq!(start("resume"), None, "nor after the notes changed");
    assert!(
        start("compact").is_some_and(|c| c.contains("thiserror") && c.contains("xylophone")),
        "a compaction dropped it: again"
    );
}

/// A harness may run a session's first prompt hook before (or while) its start hook: the start
/// then leaves out what the prompt was given, and several hooks of one session fired at once
/// give each note once between them.
#[test]
fn a_start_that_comes_after_the_first_prompt_gives_nothing_twice() {
    let m = Machine::new();
    let a = m.project("acme-api");
    teach(&m, &a);
    m.run_json(&["dream"]);

    let prompt = "which errors crate do we use for library errors, thiserror or anyhow?";
    let asked = m.hook(
        "codex",
        &a,
        &codex("codex-early", &a, "UserPromptSubmit", json!({ "turn_id": "t1", "prompt": prompt })),
    );
    assert!(asked.context("codex").is_some_and(|c| c.contains("thiserror")), "the prompt gets the note");
    let started =
        m.hook("codex", &a, &codex("codex-early", &a, "SessionStart", json!({ "source": "startup" })));
    let start = started.context("codex").unwrap_or_default();
    assert!(!start.contains("thiserror"), "the start leaves out what the prompt was given: {start}");

    // A start and a prompt of one session at once, three times over.
    for session in ["codex-at-once-1", "codex-at-once-2", "codex-at-once-3"] {
        let (start, asked) = std::thread::scope(|s| {
            let start = s.spawn(|| {
                m.hook("codex", &a, &codex(session, &a, "SessionStart", json!({ "source": "startup" })))
                    .context("codex")
                    .unwrap_or_default()
            });
            let asked = s.spawn(|| {
                m.hook(
                    "codex",
                    &a,
                    &codex(session, &a, "UserPromptSubmit", json!({ "turn_id": "t1", "prompt": prompt })),
                )
                .context("codex")
                .unwrap_or_default()
            });
            (start.join().unwrap(), asked.join().unwrap())
        });
        let given = start.matches("thiserror for library errors").count()
            + asked.matches("thiserror for library errors").count();
        assert_eq!(given, 1, "{session}: the note once between the two: {start}\n---\n{asked}");
    }
}
