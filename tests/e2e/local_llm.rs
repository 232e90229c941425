//! One dream through a real LLM: a small model behind llama.cpp's OpenAI-compatible server
//! (`scripts/local-llm start` prints the `AGENT_MEMORY_TEST_LLM_URL` to export).
//!
//! The model is far too small to write useful notes, so this checks the path through a real model,
//! not the notes' content: the request is accepted with its bounded JSON schema, the server's
//! grammar-constrained answer parses and passes validation, the operation is applied with the model's
//! name as generator, the watermark advances, and a second run has nothing to read. The run asks for
//! one operation with a short body (`--max-operations 1 --max-body-bytes 300`), which keeps the
//! longest possible answer inside the server's context (see `scripts/local-llm`).
#![allow(clippy::print_stderr, reason = "the test says when it is skipped and which outcome it saw")]

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use memory_core::MemoryStore as _;
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use serde_json::{Value, json};

use crate::support::{Machine, claude};

/// The variable naming the server's base URL, `http://127.0.0.1:<port>/v1`.
const URL_VAR: &str = "AGENT_MEMORY_TEST_LLM_URL";
/// The model name sent on the wire (llama-server serves its one model under any name).
const MODEL: &str = "smollm2";
/// The longest a whole dream run through the small model may take: about 20 s on an idle 2-core
/// machine, minutes when the rest of the suite competes for the cores. The request timeout is raised
/// to match, so a slow answer is waited for rather than retried.
const RUN_BOUND: Duration = Duration::from_secs(900);
const REQUEST_TIMEOUT_SECS: &str = "600";

/// A short Claude Code session in one project: a stated preference, a failing then passing test
/// command, an edit. Returns the number of events recorded.
fn record_session(m: &Machine, cwd: &Path) -> usize {
    let s = "1a2b3c4d-0000-4000-8000-00000000llm1";
    let mut payloads = vec![
        claude(s, cwd, "SessionStart", json!({ "source": "startup" })),
        claude(
            s,
            cwd,
            "UserPromptSubmit",
            json!({ "prompt": "I prefer cargo nextest for running tests. Fix the failing store test." }),
        ),
    ];
    for (id, ok) in [("toolu_1", false), ("toolu_2", true)] {
        let input = json!({ "command": "cargo nextest run -p store" });
        payloads.push(claude(
            s,
            cwd,
            "PreToolUse",
            json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input }),
        ));
        payloads.push(if ok {
            claude(
                s,
                cwd,
                "PostToolUse",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                    "tool_response": { "stdout": "12 tests passed", "stderr": "", "interrupted": false } }),
            )
        } else {
            claude(
                s,
                cwd,
                "PostToolUseFailure",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                    "error": "test store::tests::open failed: missing table" }),
            )
        });
    }
    payloads.push(claude(s, cwd, "Stop", json!({ "stop_hook_active": false })));
    for payload in &payloads {
        m.hook("claude", cwd, payload);
    }
    payloads.len()
}

/// Runs `agent-memory --json dream` against the server; returns the exit code and the report.
fn dream(m: &Machine, url: &str) -> (i32, Value, Duration) {
    let started = Instant::now();
    let out: Output = m
        .command(&[
            "--json",
            "dream",
            "--provider",
            "openai",
            "--base-url",
            url,
            "--model",
            MODEL,
            "--max-operations",
            "1",
            "--max-body-bytes",
            "300",
        ])
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("AGENT_MEMORY_OPENAI_MODEL")
        .env("AGENT_MEMORY_DREAM_TIMEOUT_SECS", REQUEST_TIMEOUT_SECS)
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "the dream printed no JSON report ({e}); exit {:?}, stdout {stdout:?}, stderr {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report, elapsed)
}

/// The store's `dream:*` watermarks.
fn dream_watermarks(m: &Machine) -> Vec<(String, u64)> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        let all = store.watermarks().await.unwrap();
        all.into_iter().filter(|(name, _)| name.starts_with("dream:")).collect()
    })
}

#[test]
fn a_real_model_dreams_through_the_openai_provider() {
    let Some(url) = std::env::var(URL_VAR).ok().filter(|u| !u.trim().is_empty()) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{URL_VAR} is not set; in CI the suite runs through scripts/test, which starts the server"
        );
        eprintln!("local_llm: skipped, {URL_VAR} is not set (run `eval \"$(scripts/local-llm start)\"`)");
        return;
    };
    let m = Machine::new();
    let cwd = m.project("llm-shop");
    let recorded = record_session(&m, &cwd);

    let (code, report, elapsed) = dream(&m, &url);
    eprintln!("local_llm: first run took {elapsed:?}, exit {code}: {report}");
    assert!(elapsed < RUN_BOUND, "the dream took {elapsed:?}");
    assert_eq!(report["events_read"].as_u64(), Some(recorded as u64), "{report}");
    assert_eq!(report["chunks"], 1, "{report}");
    let calls = report["provider_calls"].as_u64().unwrap();
    assert!((1..=2).contains(&calls), "one call, two with the retry: {report}");
    assert_eq!(report["stopped"], Value::Null, "the server answered every request: {report}");
    assert!(report["tokens_in"].as_u64().unwrap() > 0, "usage is read from the reply: {report}");
    assert!(report["tokens_out"].as_u64().unwrap() > 0, "usage is read from the reply: {report}");
    assert_eq!(report["cost_usd"], 0.0, "a local server is free: {report}");

    let notes = m.run_json(&["notes", "list"]);
    let notes = notes.as_array().unwrap();
    assert_eq!(report["failures"], json!([]), "the model's answer is valid: {report}");
    assert_eq!(code, 0, "{report}");
    eprintln!("local_llm: {} note(s) written in {calls} call(s)", notes.len());
    let written = report["notes_created"].as_u64().unwrap() + report["notes_updated"].as_u64().unwrap();
    assert!(written <= 1, "one operation at most: {report}");
    assert_eq!(notes.len() as u64, report["notes_created"].as_u64().unwrap(), "{report}");
    assert_eq!(report["changes"].as_array().unwrap().len() as u64, written, "{report}");
    for note in notes {
        assert_eq!(note["meta"]["generator"], format!("openai:{MODEL}"), "{note}");
        assert!(note["body"].as_str().unwrap().len() <= 301, "the body bound holds: {note}");
    }
    let marks = dream_watermarks(&m);
    assert!(
        marks.iter().any(|(name, position)| name.starts_with("dream:project:") && *position > 0),
        "the project's watermark advanced: {marks:?}"
    );
    let (code, again, _) = dream(&m, &url);
    assert_eq!(code, 0, "{again}");
    assert_eq!(again["events_read"], 0, "nothing new to read: {again}");
    assert_eq!(again["provider_calls"], 0, "no call without new events: {again}");
}
