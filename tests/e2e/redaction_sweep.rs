//! Every token format of the redaction catalog, through the real binary: one synthetic sample of
//! each (plus `.netrc` and `.pgpass` lines and an Okta `SSWS` header) is sent by every harness's
//! hook in the carriers that harness uses: prompts (Claude Code, Codex, Gemini CLI, Copilot CLI,
//! Qwen Code, Factory droid, Cursor), tool inputs (a Claude Code file write, a Codex patch, a Gemini
//! CLI shell command, a droid `Create`, a Cursor edit), tool outputs (shell output of each harness,
//! Gemini CLI's and Qwen Code's behind `Output: `, a failed Qwen Code call's `error`, Claude Code's and Copilot CLI's numbered
//! file views), one hook journaled while the store
//! is locked, and a note written through MCP then given to the next session. Then no sample may be
//! readable in any file under the data folder (store, journal, logs, notes), nor in what the hooks
//! printed (injected context included), `search`, `timeline`, the MCP server's answers and the
//! viewer's pages.

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

/// Gemini CLI's shell output: `Output: ` before the first line, inside its untrusted-context wrapper.
fn gemini_shell(cwd: &Path, output: &str) -> Value {
    let content =
        format!("<untrusted_context>\nOutput: {output}\nProcess Group PGID: 23288\n</untrusted_context>");
    gemini_event(
        "s-sweep-gemini",
        cwd,
        "AfterTool",
        json!({
            "tool_name": "run_shell_command",
            "tool_input": {"command": "cat deploy/sweep.env", "description": "show the settings"},
            "tool_response": { "llmContent": content, "returnDisplay": output },
        }),
    )
}

fn gemini_event(session: &str, cwd: &Path, event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "session_id": session, "cwd": cwd, "hook_event_name": event,
        "transcript_path": "/tmp/gemini-session.jsonl", "timestamp": "2026-12-01T08:56:00.692Z",
    });
    if let (Value::Object(into), Value::Object(from)) = (&mut payload, fields) {
        into.extend(from);
    }
    payload
}

/// Qwen Code: Claude Code's event names, Gemini CLI's tools, a failed call's output in `error`.
fn qwen_event(cwd: &Path, event: &str, fields: Value) -> Value {
    let mut payload = gemini_event("s-sweep-qwen", cwd, event, fields);
    payload["permission_mode"] = json!("yolo");
    payload
}

/// Factory droid: Claude Code's event names and fields, its own tools (`Execute` output closed by
/// `[Process exited with code N]`, `Create` with the file's content).
fn droid_event(cwd: &Path, event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "session_id": "s-sweep-droid", "transcript_path": "/tmp/droid-session.jsonl", "cwd": cwd,
        "permission_mode": "auto-high", "hook_event_name": event,
    });
    if let (Value::Object(into), Value::Object(from)) = (&mut payload, fields) {
        into.extend(from);
    }
    payload
}

/// OpenCode: our plugin's envelope around what OpenCode handed its hook.
fn opencode_event(cwd: &Path, event: &str, input: Value, output: Value) -> Value {
    json!({
        "hook_event_name": event, "session_id": "ses_sweep", "directory": cwd, "worktree": cwd,
        "input": input, "output": output,
    })
}

/// Cline: camelCase payloads keyed by `hookName` and the root session; a command's output (and a
/// failed one's error) in the CLI's `tool_result` and again, as JSON text, in `postToolUse`.
fn cline_event(cwd: &Path, event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "clineVersion": "", "timestamp": "2026-12-04T23:46:29.842Z", "taskId": "conv_1796427988898_3lpi890",
        "sessionContext": { "rootSessionId": "s-sweep-cline" }, "workspaceRoots": [cwd],
        "workspaceInfo": { "rootPath": cwd, "hint": "project" }, "userId": "unknown",
        "agent_id": "agent_1", "parent_agent_id": null, "hookName": event,
    });
    if let (Value::Object(into), Value::Object(from)) = (&mut payload, fields) {
        into.extend(from);
    }
    payload
}

/// A Cline `run_commands` result: the command's output, failed or not.
fn cline_result(command: &str, text: &str, failed: bool) -> Value {
    let mut item = json!({ "query": command, "result": text, "success": !failed });
    if failed {
        item["error"] = json!("Command exited with code 1");
    }
    let output = json!([item]);
    json!({
        "tool_result": { "id": "call_0", "name": "run_commands", "input": { "commands": [command] },
                         "output": output, "durationMs": 42 },
        "postToolUse": { "toolName": "run_commands", "parameters": { "commands": json!([command]).to_string() },
                         "result": output.to_string(), "success": true, "executionTimeMs": 42 },
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

fn copilot_prompt(session: &str, cwd: &Path, text: &str) -> Value {
    json!({
        "hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": cwd,
        "timestamp": "2026-12-01T08:56:42.842Z", "prompt": text,
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

    let mut printed = String::new();
    for (i, text) in chunks.iter().enumerate() {
        let numbered: String = text.lines().enumerate().map(|(n, l)| format!("{}. {l}\n", n + 1)).collect();
        let arrows: String =
            text.lines().enumerate().map(|(n, l)| format!("{:>6}\u{2192}{l}\n", n + 1)).collect();
        let added: String = text.lines().map(|l| format!("+{l}\n")).collect();
        let file = cwd.join("deploy/sweep.env");
        let prompt = json!({ "prompt": text });
        let bash_output = json!({
            "tool_name": "Bash", "tool_input": { "command": "cat deploy/sweep.env" },
            "tool_response": { "stdout": text, "stderr": "", "interrupted": false },
            "tool_use_id": format!("toolu_a{i}"),
        });
        let write = json!({
            "tool_name": "Write", "tool_input": { "file_path": file, "content": text },
            "tool_response": { "filePath": file, "success": true }, "tool_use_id": format!("toolu_b{i}"),
        });
        let read = json!({
            "tool_name": "Read", "tool_input": { "file_path": file },
            "tool_response": { "type": "text", "file": { "filePath": file, "content": arrows } },
            "tool_use_id": format!("toolu_c{i}"),
        });
        let codex_output = json!({
            "tool_name": "Bash", "tool_input": { "command": "cat deploy/sweep.env" }, "tool_response": text,
            "tool_use_id": format!("call_a{i}"),
        });
        let patch = format!("*** Begin Patch\n*** Add File: deploy/sweep{i}.env\n{added}*** End Patch\n");
        let codex_patch = json!({
            "tool_name": "apply_patch", "tool_input": { "command": patch },
            "tool_use_id": format!("call_b{i}"),
        });
        let gemini_command = json!({
            "tool_name": "run_shell_command", "tool_input": { "command": text, "description": "run it" },
        });
        let qwen_shell = json!({
            "tool_name": "run_shell_command", "tool_input": { "command": "cat deploy/sweep.env" },
            "tool_response": { "llmContent": format!("Command: cat deploy/sweep.env\nOutput: {text}\nExit Code: 0"), "returnDisplay": text },
        });
        let mut qwen_failed = qwen_shell.clone();
        qwen_failed["error"] = json!(format!("Command: cat deploy/sweep.env\nOutput: {text}\nExit Code: 1"));
        let droid_shell = json!({
            "tool_name": "Execute",
            "tool_input": { "summary": "Show the settings file", "command": "cat deploy/sweep.env", "riskLevel": "low" },
            "tool_response": format!("{text}\n\n\n[Process exited with code 0]"),
        });
        let droid_create = json!({
            "tool_name": "Create", "tool_input": { "file_path": file, "content": text },
            "tool_response": format!("{{\"success\":true,\"file_path\":\"{}\"}}", file.display()),
        });
        let opencode_prompt = json!({ "message": { "id": "msg_1", "role": "user", "sessionID": "ses_sweep" },
            "parts": [{ "type": "text", "text": text, "id": "prt_1" }] });
        let opencode_shell = json!({ "tool": "bash", "sessionID": "ses_sweep", "callID": format!("call_o{i}"),
            "args": { "command": "cat deploy/sweep.env", "description": "Show the settings" } });
        let opencode_output = json!({ "title": "cat deploy/sweep.env", "output": text,
            "metadata": { "output": text, "exit": 1, "truncated": false } });
        let opencode_failed = json!({ "id": "evt_1", "type": "message.part.updated", "properties": {
            "sessionID": "ses_sweep", "part": { "type": "tool", "tool": "read", "callID": format!("call_r{i}"),
            "sessionID": "ses_sweep", "state": { "status": "error", "input": { "filePath": file }, "error": text } } } });
        let copilot_shell = format!("{text}\n<shellId: 0 completed with exit code 0>");
        let cursor_prompt = json!({ "prompt": text, "attachments": [] });
        let cursor_shell = json!({ "command": "cat deploy/sweep.env", "output": text, "duration": 812 });
        let cursor_edit = json!({ "file_path": file, "edits": [{ "old_string": "", "new_string": text }] });
        let events = [
            ("claude", claude("s-sweep", &cwd, "UserPromptSubmit", prompt.clone())),
            ("claude", claude("s-sweep", &cwd, "PostToolUse", bash_output)),
            ("claude", claude("s-sweep", &cwd, "PostToolUse", write)),
            ("claude", claude("s-sweep", &cwd, "PostToolUse", read)),
            ("codex", codex("s-sweep-codex", &cwd, "UserPromptSubmit", prompt.clone())),
            ("codex", codex("s-sweep-codex", &cwd, "PostToolUse", codex_output)),
            ("codex", codex("s-sweep-codex", &cwd, "PreToolUse", codex_patch)),
            ("gemini", gemini_event("s-sweep-gemini", &cwd, "BeforeAgent", prompt)),
            ("gemini", gemini_event("s-sweep-gemini", &cwd, "BeforeTool", gemini_command)),
            ("gemini", gemini_shell(&cwd, text)),
            ("copilot", copilot_prompt("s-sweep-copilot", &cwd, text)),
            ("copilot", copilot("s-sweep-copilot", &cwd, "Bash", &copilot_shell)),
            ("copilot", copilot("s-sweep-copilot", &cwd, "view", &numbered)),
            ("qwen", qwen_event(&cwd, "UserPromptSubmit", json!({ "prompt": text }))),
            ("qwen", qwen_event(&cwd, "PostToolUse", qwen_shell.clone())),
            ("qwen", qwen_event(&cwd, "PostToolUseFailure", qwen_failed)),
            ("droid", droid_event(&cwd, "UserPromptSubmit", json!({ "prompt": text, "has_images": false }))),
            ("droid", droid_event(&cwd, "PostToolUse", droid_shell)),
            ("droid", droid_event(&cwd, "PostToolUse", droid_create)),
            (
                "opencode",
                opencode_event(&cwd, "chat.message", json!({ "sessionID": "ses_sweep" }), opencode_prompt),
            ),
            ("opencode", opencode_event(&cwd, "tool.execute.after", opencode_shell, opencode_output)),
            ("opencode", opencode_event(&cwd, "tool.failed", opencode_failed, Value::Null)),
            (
                "cline",
                cline_event(
                    &cwd,
                    "prompt_submit",
                    json!({ "userPromptSubmit": { "prompt": text, "attachments": [] } }),
                ),
            ),
            (
                "cline",
                cline_event(
                    &cwd,
                    "tool_call",
                    json!({ "tool_call": { "id": "call_0", "name": "run_commands", "input": { "commands": [text] } }, "preToolUse": { "toolName": "run_commands", "parameters": { "commands": json!([text]).to_string() } } }),
                ),
            ),
            ("cline", cline_event(&cwd, "tool_result", cline_result("cat deploy/sweep.env", text, false))),
            ("cline", cline_event(&cwd, "tool_result", cline_result("cat deploy/sweep.env", text, true))),
            ("cursor", cursor("s-sweep-cursor", &cwd, "beforeSubmitPrompt", cursor_prompt)),
            ("cursor", cursor("s-sweep-cursor", &cwd, "afterShellExecution", cursor_shell)),
            ("cursor", cursor("s-sweep-cursor", &cwd, "afterFileEdit", cursor_edit)),
        ];
        for (harness, payload) in &events {
            let run = m.hook(harness, &cwd, payload);
            printed.push_str(&run.stdout);
            printed.push_str(&run.stderr);
        }
    }

    // One event journaled while the store is locked, then delivered.
    let lock = rusqlite::Connection::open(m.db()).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let prompt = json!({ "prompt": chunks[0].clone() });
    let journaled = m.hook_env("claude", &cwd, &claude("s-sweep", &cwd, "UserPromptSubmit", prompt), &[]);
    printed.push_str(&journaled.stdout);
    printed.push_str(&journaled.stderr);
    let journal = everything_under(&m.home().join("journal"));
    assert!(journal.iter().any(|(_, t)| t.contains("[REDACTED:")), "the event was journaled: {journal:?}");
    drop(lock);

    printed.push_str(&m.run(&["sync"]));
    for session in [
        "claude:s-sweep",
        "codex:s-sweep-codex",
        "gemini:s-sweep-gemini",
        "copilot:s-sweep-copilot",
        "qwen:s-sweep-qwen",
        "droid:s-sweep-droid",
        "opencode:ses_sweep",
        "cline:s-sweep-cline",
    ] {
        let timeline = m.run(&["--json", "timeline", session]);
        assert!(timeline.contains("[REDACTED:"), "{session} was stored with markers: {timeline}");
        printed.push_str(&timeline);
    }
    let found = m.run(&["search", "--events", "--limit", "50", "sweep settings"]);
    assert!(found.contains("sweep"), "search finds the events: {found}");
    printed.push_str(&found);
    let note = chunks.join("\n");
    let answers = mcp_calls(
        &m,
        &[
            ("search_history", json!({ "query": "sweep settings", "limit": 50 })),
            (
                "write_note",
                json!({
                    "scope": "user", "path": "profile/sweep.md", "title": "Sweep settings", "kind": "fact",
                    "description": "the settings of the sweep", "tags": ["sweep"], "body": note,
                }),
            ),
        ],
    );
    for answer in &answers {
        printed.push_str(&answer.to_string());
    }
    assert!(printed.contains("[REDACTED:"), "the answers quote the redacted events");
    printed.push_str(&m.run(&["notes", "show", "user", "profile/sweep.md"]));
    let start =
        m.hook("claude", &cwd, &claude("s-sweep-next", &cwd, "SessionStart", json!({ "source": "startup" })));
    let given = start.context("claude").unwrap_or_default();
    assert!(given.contains("profile/sweep.md") && given.contains("[REDACTED:"), "the note is given: {given}");
    printed.push_str(&start.stdout);

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
        if let Some((path, text)) = files.iter().find(|(_, text)| text.contains(secret.as_str())) {
            kept.push(format!("{name}: in {path}, after {:?}", before(text, secret)));
        } else if printed.contains(secret.as_str()) {
            kept.push(format!("{name}: printed, after {:?}", before(&printed, secret)));
        }
    }
    assert!(kept.is_empty(), "{} of {} samples in clear:\n{}", kept.len(), secrets.len(), kept.join("\n"));
}

/// Up to 200 characters before `secret` in `text`: where it was kept.
fn before<'t>(text: &'t str, secret: &str) -> &'t str {
    let at = text.find(secret).unwrap_or(0);
    let mut from = at.saturating_sub(200);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    &text[from..at]
}
