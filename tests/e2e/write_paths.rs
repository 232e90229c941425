//! No secret in clear anywhere under the data folder, whichever way it came in: hook events
//! (stored and journaled), log lines and error messages, notes written through MCP, and notes
//! imported from a hand-edited Markdown tree. (The dream's own output: `dream/tests/dream/redaction.rs`.)

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex};

/// One credential of each documented kind, built at run time so this file holds none of them.
fn corpus() -> Vec<(&'static str, String)> {
    vec![
        ("github token", format!("ghp_{}", "Zq8Rt5Vw2Xy7Ab4Cd1Ef6Gh9Ij3Kl0Mn5Op2Q")),
        ("aws access key", format!("AKIA{}", "R7WQ3ZT9XK2MBPLA")),
        ("aws secret", format!("{}{}", "wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYzq8Rt5Vw2Xy7Ab4C")),
        ("slack token", format!("xoxb-{}-{}-{}", "2716053845", "4839201746", "Kp2Rt5Vw8Xy1Ab4Cd7Ef0Gh")),
        ("stripe key", format!("sk_live_{}", "51Hq8Rt5Vw2Xy7Ab4Cd1Ef6Gh9Ij")),
        (
            "jwt",
            format!(
                "eyJhbGciOiJIUzI1NiJ9.{}.{}",
                "eyJzdWIiOiJhbGljZSIsImFkbWluIjp0cnVlfQ", "Zq8Rt5Vw2Xy7Ab4Cd1Ef6Gh9Ij3Kl0Mn5Op2QrStU"
            ),
        ),
        ("password", format!("{}{}", "Corr3ct-Horse-", "Battery-Staple")),
        ("private", "the combination to the office safe".to_owned()),
    ]
}

/// Text that carries every corpus entry the way people paste them.
fn leaky_text(secrets: &[(&str, String)]) -> String {
    let value = |name: &str| secrets.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()).unwrap();
    format!(
        "use token {} for the push; AWS_ACCESS_KEY_ID={} AWS_SECRET_ACCESS_KEY={} SLACK_BOT_TOKEN={} \
         STRIPE_KEY={} Authorization: Bearer {} password={} <private>{}</private> thanks",
        value("github token"),
        value("aws access key"),
        value("aws secret"),
        value("slack token"),
        value("stripe key"),
        value("jwt"),
        value("password"),
        value("private"),
    )
}

/// Every file under `dir`, as lossy text.
pub(crate) fn everything_under(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push((path.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    out
}

fn assert_nothing_leaked(m: &Machine, secrets: &[(&str, String)], also: &str) {
    let files = everything_under(&m.home());
    assert!(files.iter().any(|(p, _)| p.ends_with("memory.db")), "the store is there: {files:?}");
    for (name, secret) in secrets {
        for (path, text) in &files {
            assert!(!text.contains(secret.as_str()), "the {name} is in clear in {path}");
        }
        assert!(!also.contains(secret.as_str()), "the {name} was printed: {also}");
    }
}

/// Calls MCP tools over stdio with plain JSON-RPC, as any client does.
pub(crate) fn mcp_calls(m: &Machine, calls: &[(&str, Value)]) -> Vec<Value> {
    let mut child = m
        .command(&["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut send = |message: Value| writeln!(stdin, "{message}").unwrap();
    send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}}));
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let init: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert!(init["result"]["serverInfo"].is_object(), "{init}");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let mut replies = Vec::new();
    for (i, (name, arguments)) in calls.iter().enumerate() {
        send(
            json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}),
        );
        let reply: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        assert!(reply["error"].is_null() && reply["result"]["isError"] != true, "{name}: {reply}");
        replies.push(reply);
    }
    drop(stdin);
    child.wait().unwrap();
    replies
}

#[test]
fn no_secret_reaches_any_file_under_the_data_folder_by_any_write_path() {
    let m = Machine::new();
    std::fs::write(m.dir.path().join("config.toml"), "[hook]\ndeadline_ms = 300\n").unwrap();
    let cwd = m.project("leaky");
    let secrets = corpus();
    let text = leaky_text(&secrets);
    let mut printed = String::new();

    // Hooks: a prompt, a tool's output, Codex's shell, all stored.
    m.hook("claude", &cwd, &claude("s-leak", &cwd, "SessionStart", json!({ "source": "startup" })));
    m.hook("claude", &cwd, &claude("s-leak", &cwd, "UserPromptSubmit", json!({ "prompt": text })));
    let tool = json!({ "tool_name": "Bash", "tool_input": { "command": format!("echo {text}") },
        "tool_response": { "stdout": text, "stderr": "", "interrupted": false } });
    m.hook("claude", &cwd, &claude("s-leak", &cwd, "PostToolUse", tool));
    m.hook("codex", &cwd, &codex("s-leak-codex", &cwd, "UserPromptSubmit", json!({ "prompt": text })));

    // Journaled while the store is locked, then delivered.
    let lock = rusqlite::Connection::open(m.db()).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let run = m.hook_env(
        "claude",
        &cwd,
        &claude("s-leak", &cwd, "UserPromptSubmit", json!({ "prompt": text })),
        &[],
    );
    printed.push_str(&run.stdout);
    printed.push_str(&run.stderr);
    let journaled = everything_under(&m.home().join("journal"));
    assert!(journaled.iter().any(|(p, t)| p.ends_with(".json") && t.contains("[REDACTED:")), "{journaled:?}");
    for (name, secret) in &secrets {
        assert!(journaled.iter().all(|(_, t)| !t.contains(secret.as_str())), "the {name} is in the journal");
    }
    drop(lock);

    // Error messages, on stderr and in the log: a secret in a field of the wrong type.
    for (_, secret) in &secrets {
        let bad = claude("s-leak", &cwd, "Stop", json!({ "stop_hook_active": secret }));
        let run = m.hook_env("claude", &cwd, &bad, &[]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        printed.push_str(&run.stderr);
    }

    // MCP writes.
    mcp_calls(
        &m,
        &[(
            "write_note",
            json!({ "scope": "user", "path": "profile/deploy.md", "title": format!("Deploy {}", secrets[0].1),
            "description": text, "kind": "fact", "tags": ["deploy"], "body": format!("- {text}\n") }),
        )],
    );

    // Import of a hand-edited export.
    let tree = m.dir.path().join("tree");
    m.run(&["export", tree.to_str().unwrap()]);
    let file = tree.join("user/profile/deploy.md");
    let edited = std::fs::read_to_string(&file).unwrap() + &format!("\n- edited by hand: {text}\n");
    std::fs::write(&file, edited).unwrap();
    let imported = m.run_json(&["import", tree.to_str().unwrap()]);
    assert_eq!(imported["updated"].as_array().map(Vec::len), Some(1), "{imported}");

    printed.push_str(&m.run(&["sync"]));
    printed.push_str(&m.run(&["--json", "timeline", "claude:s-leak"]));
    printed.push_str(&m.run(&["notes", "show", "user", "profile/deploy.md"]));
    // The next session is given the note: redacted.
    let start =
        m.hook("claude", &cwd, &claude("s-next", &cwd, "SessionStart", json!({ "source": "startup" })));
    let given = start.context("claude").unwrap_or_default();
    assert!(given.contains("profile/deploy.md") && given.contains("[REDACTED:"), "{given}");
    printed.push_str(&given);

    assert_nothing_leaked(&m, &secrets, &printed);
    let timeline = m.run_json(&["timeline", "claude:s-leak"]);
    assert!(timeline.as_array().unwrap().len() >= 4, "the events were kept: {timeline}");
}
