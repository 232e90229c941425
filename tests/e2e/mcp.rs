//! `agent-memory mcp` driven by the official MCP Python SDK (`tests/mcp/client.py`): initialize,
//! tools/list and every tool, against a real SQLite store in a throwaway home.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use chrono::{TimeZone as _, Utc};
use memory_core::{
    EventId, EventKind, Harness, HookEvent, MemoryStore, Note, NoteKind, NoteMeta, NotePath, Scope,
    SessionKey,
};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use serde_json::{Value, json};

use crate::support::{Machine, binary};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// A virtualenv with the pinned `mcp` SDK, created once under `target/` and reused.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let requirements = workspace_root().join("tests/mcp/requirements.txt");
        let wanted = std::fs::read_to_string(&requirements).expect("tests/mcp/requirements.txt");
        let exe = std::env::current_exe().expect("test binary path");
        let target = exe.ancestors().nth(3).expect("target dir").to_path_buf();
        let venv = target.join("mcp-venv");
        let python = venv.join("bin/python");
        let stamp = venv.join("requirements.installed");
        if std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) && python.exists() {
            return python;
        }
        let status = Command::new("python3").arg("-m").arg("venv").arg(&venv).status().expect("python3 runs");
        assert!(status.success(), "python3 -m venv {} failed", venv.display());
        let status = Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(&requirements)
            .status()
            .expect("pip runs");
        assert!(status.success(), "installing tests/mcp/requirements.txt failed");
        std::fs::write(&stamp, wanted).unwrap();
        python
    })
}

const SESSION: &str = "claude:mcp-e2e";
const PROMPT: &str = "please always run the acme tests with cargo nextest";

/// Seeds one recorded prompt and a note distilled from it, straight into the SQLite store.
fn seed(machine: &Machine) -> EventId {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(machine.db())).unwrap();
        let at = Utc.with_ymd_and_hms(2026, 2, 3, 10, 0, 0).unwrap();
        let id = EventId("5e".repeat(16));
        let mut event = HookEvent::new(
            id.clone(),
            Harness::named("claude"),
            SessionKey(SESSION.to_owned()),
            EventKind::UserPromptSubmit,
            at,
            json!({"prompt": PROMPT}),
        );
        event.prompt = Some(PROMPT.to_owned());
        event.project = Some("acme-1a2b".to_owned());
        store.append(&[event]).await.unwrap();
        let note = Note {
            path: NotePath::new("conventions.md").unwrap(),
            meta: NoteMeta {
                title: "Acme conventions".to_owned(),
                description: None,
                tags: vec!["testing".to_owned()],
                scope: Scope::Project("acme-1a2b".to_owned()),
                kind: NoteKind::Convention,
                sources: vec![id.clone()],
                updated: at,
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: "Run tests with `cargo nextest run`.\n".to_owned(),
        };
        store.put_note(&note).await.unwrap();
        id
    })
}

fn tool<'a>(report: &'a Value, step: &str) -> &'a Value {
    let out = &report[step];
    assert!(out.is_object(), "no step {step} in {report}");
    out
}

fn ok<'a>(report: &'a Value, step: &str) -> &'a Value {
    let out = tool(report, step);
    assert_eq!(out["is_error"], json!(false), "{step} failed: {out}");
    &out["structured"]
}

fn error_text(report: &Value, step: &str) -> String {
    let out = tool(report, step);
    assert_eq!(out["is_error"], json!(true), "{step} should be a tool error: {out}");
    out["text"].as_str().unwrap().to_owned()
}

#[test]
fn the_python_sdk_uses_every_tool() {
    let machine = Machine::new();
    let source = seed(&machine);
    let note = json!({
        "scope": "user",
        "path": "tools/jj/basics.md",
        "title": "jj basics",
        "description": "When using jj instead of git",
        "kind": "tool",
        "tags": ["jj", "vcs"],
        "body": "Use `jj git push` to frobnicate the remote.\n",
    });
    let scenario = json!({
        "note": note,
        "query": "frobnicate remote",
        "explained": {"scope": "project:acme-1a2b", "path": "conventions.md"},
        "other_scope": "project:acme-1a2b",
        "session": SESSION,
    });
    let output = Command::new(python())
        .arg(workspace_root().join("tests/mcp/client.py"))
        .arg(binary())
        .arg(scenario.to_string())
        .env("AGENT_MEMORY_HOME", machine.home())
        .env("AGENT_MEMORY_CONFIG", machine.dir.path().join("config.toml"))
        .env("HOME", machine.dir.path())
        .env_remove("AGENT_MEMORY_STORE")
        .env_remove("AGENT_MEMORY_DB")
        .output()
        .expect("the MCP client runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "client.py failed: {stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("client.py printed no JSON ({e}): {}\n{stderr}", String::from_utf8_lossy(&output.stdout))
    });

    assert_eq!(report["server"]["name"], json!("agent-memory"));
    assert_eq!(report["server"]["has_instructions"], json!(true));
    let tools = report["tools"].as_object().unwrap();
    let mut names: Vec<&str> = tools.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "delete_note",
            "explain_note",
            "forget",
            "list_notes",
            "list_sessions",
            "read_note",
            "search_history",
            "search_notes",
            "session_timeline",
            "write_note"
        ]
    );
    assert_eq!(tools["write_note"]["required"], json!(["body", "kind", "path", "scope", "title"]));
    assert_eq!(tools["search_notes"]["required"], json!(["query"]));
    assert_eq!(tools["search_history"]["required"], json!(["query"]));
    assert!(tools.values().all(|t| t["description"].as_str().is_some_and(|d| d.len() > 40)));

    assert_eq!(ok(&report, "write")["created"], json!(true));
    let read = ok(&report, "read");
    assert_eq!(read["body"], note["body"]);
    assert_eq!(read["generator"], json!("mcp"));
    assert_eq!(read["tags"], json!(["jj", "vcs"]));

    let search = ok(&report, "search");
    assert_eq!(search["hits"][0]["path"], json!("tools/jj/basics.md"), "{search}");
    assert_eq!(ok(&report, "search_other_scope")["count"], json!(0));
    let listed = ok(&report, "list");
    assert!(listed["notes"].as_array().unwrap().iter().any(|n| n["path"] == json!("tools/jj/basics.md")));

    let explain = ok(&report, "explain");
    assert_eq!(explain["sources"][0]["id"], json!(source.as_str()));
    assert_eq!(explain["sources"][0]["summary"], json!(format!("prompt: {PROMPT}")));
    assert_eq!(explain["previous_versions"], json!(0));
    let timeline = ok(&report, "timeline");
    assert_eq!(timeline["events"][0]["kind"], json!("UserPromptSubmit"));
    let sessions = ok(&report, "sessions");
    let listed = sessions["sessions"].as_array().unwrap_or_else(|| panic!("{sessions}"));
    let seeded =
        listed.iter().find(|s| s["session"] == json!(SESSION)).unwrap_or_else(|| panic!("{sessions}"));
    assert!(
        seeded["title"].as_str().is_some_and(|t| PROMPT.starts_with(t.trim_end_matches('…'))),
        "{sessions}"
    );

    assert!(error_text(&report, "invalid_path").contains("note path"));
    assert!(error_text(&report, "bad_scope").contains("project:<id>"));
    let unknown = error_text(&report, "unknown_project");
    assert!(unknown.contains("no project `nowhere`") && unknown.contains("acme-1a2b"), "{unknown}");
    assert_eq!(ok(&report, "delete")["deleted"], json!(true));
    assert!(error_text(&report, "read_after_delete").contains("no note at user tools/jj/basics.md"));
    assert!(error_text(&report, "delete_again").contains("no note"));

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(machine.db())).unwrap();
        let path = NotePath::new("tools/jj/basics.md").unwrap();
        assert!(store.get_note(&Scope::User, &path).await.unwrap().is_none());
        assert!(store.note_history(&Scope::User, &path).await.unwrap().is_empty());
        // Filed at the top of its scope by an earlier version, the seeded note moved into its
        // project's folder when the server opened the store, and is otherwise untouched.
        let acme = Scope::Project("acme-1a2b".to_owned());
        let conventions = NotePath::new("project/acme-1a2b/conventions.md").unwrap();
        assert!(store.get_note(&acme, &conventions).await.unwrap().is_some(), "the seeded note is kept");
        let top = NotePath::new("conventions.md").unwrap();
        assert!(store.get_note(&acme, &top).await.unwrap().is_none(), "one layout");
    });
}
