//! Every token format of the redaction catalog, through the real binary: one synthetic sample of
//! each (plus `.netrc` and `.pgpass` lines and an Okta `SSWS` header) is sent by every harness's
//! hook in the carriers that harness uses: Claude Code's prompt and shell output, Codex's shell
//! output, Gemini CLI's shell output behind its `Output: ` prefix, Copilot CLI's shell output and
//! numbered file view, Cursor's shell output, and one hook journaled while the store is locked.
//! Then no sample may be readable in any file under the data folder, nor in what `search`,
//! `timeline`, the MCP server's `search_history` and the viewer's pages answer.

use std::path::Path;

use memory_redact::catalog::catalog;
use memory_redact::synthetic::Generator;
use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor};
use crate::viewer::Ui;
use crate::write_paths::{everything_under, mcp_calls};

/// Lines per hook event: each event carries this many samples.
const CHUNK: usize = 40;

/// One sample line per format, and the secrets in them.
fn samples() -> (Vec<String>, Vec<(String, String)>) {
    let mut generator = Generator::new(0x5eed_5eed);
    let mut lines = Vec::new();
    let mut secrets = Vec::new();
    let mut templates: Vec<(String, &str)> =
        catalog().formats().iter().map(|f| (format!("{} {}", f.provider, f.name), f.samples[0])).collect();
    templates.push(("netrc".to_owned(), "machine api.example.com login deploy password {alnum:18}"));
    templates.push(("pgpass".to_owned(), "db.internal:5432:app:app_user:{alnum:18}"));
    templates.push(("okta header".to_owned(), "Authorization: SSWS 00{b64url:40}"));
    for (name, template) in templates {
        let sample = generator.fill(template);
        lines.push(sample.text);
        secrets.extend(sample.secrets.into_iter().map(|s| (name.clone(), s)));
    }
    (lines, secrets)
}

fn gemini(session: &str, cwd: &Path, output: &str) -> Value {
    json!({
        "session_id": session, "cwd": cwd, "hook_event_name": "AfterTool",
        "transcript_path": "/tmp/gemini-session.jsonl", "timestamp": "2026-12-01T08:56:00.692Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "cat deploy/sweep.env", "description": "show the settings"},
        "tool_response": {
            "llmContent": format!("<untrusted_context>\nOutput: {output}\nProcess Group PGID: 23288\n</untrusted_context>"),
            "returnDisplay": output,
        },
    })
}

fn copilot(session: &str, cwd: &Path, tool: &str, text: &str) -> Value {
    json!({
        "hook_event_name": "PostToolUse", "session_id": session, "cwd": cwd,
        "timestamp": "2026-12-01T08:56:42.842Z", "tool_name": tool,
        "tool_input": {"command": "cat deploy/sweep.env", "description": "show the settings"},
        "tool_result": {"result_type": "success", "text_result_for_llm": text},
    })
}

#[test]
fn no_sample_of_any_catalog_format_is_readable_in_any_file_or_answer() {
    let m = Machine::new();
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 2000\n").unwrap();
    let cwd = m.project("sweep");
    let (lines, secrets) = samples();
    assert!(lines.len() >= 150, "{} samples", lines.len());
    let chunks: Vec<String> =
        lines.chunks(CHUNK).map(|c| format!("sweep settings\n{}", c.join("\n"))).collect();

    for (i, text) in chunks.iter().enumerate() {
        let numbered: String = text.lines().enumerate().map(|(n, l)| format!("{}. {l}\n", n + 1)).collect();
        m.hook("claude", &cwd, &claude("s-sweep", &cwd, "UserPromptSubmit", json!({ "prompt": text })));
        let shell = json!({ "tool_name": "Bash", "tool_input": { "command": "cat deploy/sweep.env" },
            "tool_response": { "stdout": text, "stderr": "", "interrupted": false }, "tool_use_id": format!("toolu_{i}") });
        m.hook("claude", &cwd, &claude("s-sweep", &cwd, "PostToolUse", shell));
        let codex_shell = json!({ "tool_name": "Bash", "tool_input": { "command": "cat deploy/sweep.env" },
            "tool_response": text, "tool_use_id": format!("call_{i}") });
        m.hook("codex", &cwd, &codex("s-sweep-codex", &cwd, "PostToolUse", codex_shell));
        m.hook("gemini", &cwd, &gemini("s-sweep-gemini", &cwd, text));
        let shell_text = format!("{text}\n<shellId: 0 completed with exit code 0>");
        m.hook("copilot", &cwd, &copilot("s-sweep-copilot", &cwd, "Bash", &shell_text));
        m.hook("copilot", &cwd, &copilot("s-sweep-copilot", &cwd, "view", &numbered));
        let shell = json!({ "command": "cat deploy/sweep.env", "output": text, "duration": 812 });
        m.hook("cursor", &cwd, &cursor("s-sweep-cursor", &cwd, "afterShellExecution", shell));
    }

    // One event journaled while the store is locked, then delivered.
    let lock = rusqlite::Connection::open(m.db()).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let prompt = json!({ "prompt": chunks[0].clone() });
    let mut printed =
        m.hook_env("claude", &cwd, &claude("s-sweep", &cwd, "UserPromptSubmit", prompt), &[]).stderr;
    let journal = everything_under(&m.home().join("journal"));
    assert!(journal.iter().any(|(_, t)| t.contains("[REDACTED:")), "the event was journaled: {journal:?}");
    drop(lock);

    printed.push_str(&m.run(&["sync"]));
    for session in
        ["claude:s-sweep", "codex:s-sweep-codex", "gemini:s-sweep-gemini", "copilot:s-sweep-copilot"]
    {
        let timeline = m.run(&["--json", "timeline", session]);
        assert!(timeline.contains("[REDACTED:"), "{session} was stored with markers: {timeline}");
        printed.push_str(&timeline);
    }
    let found = m.run(&["search", "--events", "--limit", "50", "sweep settings"]);
    assert!(found.contains("sweep"), "search finds the events: {found}");
    printed.push_str(&found);
    let answers = mcp_calls(&m, &[("search_history", json!({ "query": "sweep settings", "limit": 50 }))]);
    printed.push_str(&answers[0].to_string());
    assert!(printed.contains("[REDACTED:"), "the answers quote the redacted events");

    let ui = Ui::start(&m, &[]);
    let cookie = ui.cookie();
    for page in [
        "/",
        "/session?key=claude%3As-sweep",
        "/session?key=gemini%3As-sweep-gemini",
        "/search?q=sweep+settings",
    ] {
        let answer = ui.get(page, &[("Cookie", &cookie)]);
        assert_eq!(answer.status, 200, "{page}");
        printed.push_str(&answer.body);
    }

    let files = everything_under(&m.home());
    assert!(files.iter().any(|(p, _)| p.ends_with("memory.db")), "the store is there");
    let mut kept = Vec::new();
    // Pieces shorter than 8 characters (a 5-character part of an Azure key) could occur by chance
    // in a binary file; the longer pieces of the same samples are checked.
    for (name, secret) in secrets.iter().filter(|(_, s)| s.len() >= 8) {
        if let Some((path, _)) = files.iter().find(|(_, text)| text.contains(secret.as_str())) {
            kept.push(format!("{name}: in {path}"));
        } else if printed.contains(secret.as_str()) {
            kept.push(format!("{name}: printed"));
        }
    }
    assert!(kept.is_empty(), "{} of {} samples in clear:\n{}", kept.len(), secrets.len(), kept.join("\n"));
}
