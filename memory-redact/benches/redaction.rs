//! Redaction cost per hook event. A hook is a fresh process, so the first event pays for building
//! the redactor (reading the catalog, the keyword automaton) and compiling the patterns its text
//! needs: the `cold` rows time that in a new process each run (this binary started again with
//! `--cold`). The `warm` rows time the same events on a redactor that has seen them, the cost
//! once patterns are compiled. Prints the median and p90 of each, in microseconds.
//!
//! `cargo bench -p agent-memory-redact --bench redaction` (add `-- --quick` for fewer runs).

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::process::Command;
use std::time::Instant;

use chrono::{TimeZone, Utc};
use memory_core::{Delivery, HarnessAdapter, HookEvent};
use memory_redact::Redactor;
use serde_json::{Value, json};

/// A Claude Code payload of `event` with `fields`.
fn claude(event: &str, fields: Value) -> Vec<u8> {
    let mut payload = json!({
        "session_id": "3f2b8c1e-7d4a-4e2b-9c61-0a5d8e7f1b23",
        "transcript_path": "/home/alice/.claude/projects/-home-alice-src-acme-api/3f2b8c1e.jsonl",
        "cwd": "/home/alice/src/acme-api",
        "permission_mode": "default",
        "hook_event_name": event,
    });
    if let (Value::Object(into), Value::Object(from)) = (&mut payload, fields) {
        into.extend(from);
    }
    serde_json::to_vec(&payload).expect("json")
}

/// The events measured: a name and the payload.
fn events() -> Vec<(&'static str, Vec<u8>)> {
    let code: String = (0..400)
        .map(|i| {
            format!(
                "    let value_{i} = compute(&input[{i}..], Options {{ retries: 3, timeout_ms: 250 }})?;\n"
            )
        })
        .collect();
    let log: String = (0..60)
        .map(|i| {
            format!("2026-12-01T08:56:{:02}.692Z INFO api::jobs job {i} done in {i}ms (queue 3/20)\n", i % 60)
        })
        .collect();
    let secrets = [
        "export GITHUB_TOKEN=ghp_",
        "0123456789abcdefghijABCDEFGHIJ012345\n",
        "curl -H 'Authorization: SSWS 00",
        "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcD' https://acme.okta.com/api/v1/users\n",
        "VAULT_ADDR=https://vault.internal hvs.",
        "CAESIJlWh0Rb7f3q9Xv2k8sP4mT6yN1cZ0aB5dE7gH9jK2L\n",
    ]
    .concat();
    vec![
        (
            "prompt, 60 words",
            claude(
                "UserPromptSubmit",
                json!({"prompt": "Refactor the retry loop in the http client so it stops doubling the backoff twice, then run cargo test --workspace and fix whatever clippy reports; keep the public API unchanged and add a test for the timeout path"}),
            ),
        ),
        (
            "shell output, log 4 KB",
            claude(
                "PostToolUse",
                json!({"tool_name": "Bash", "tool_input": {"command": "tail -60 api.log"}, "tool_response": {"stdout": log, "stderr": ""}, "tool_use_id": "toolu_01"}),
            ),
        ),
        (
            "file write, code 36 KB",
            claude(
                "PostToolUse",
                json!({"tool_name": "Write", "tool_input": {"file_path": "/home/alice/src/acme-api/src/gen.rs", "content": code}, "tool_response": {"success": true}, "tool_use_id": "toolu_02"}),
            ),
        ),
        (
            "shell output with 3 secrets",
            claude(
                "PostToolUse",
                json!({"tool_name": "Bash", "tool_input": {"command": "cat .env"}, "tool_response": {"stdout": secrets, "stderr": ""}, "tool_use_id": "toolu_03"}),
            ),
        ),
    ]
}

fn parse(payload: &[u8]) -> HookEvent {
    let delivery = Delivery {
        payload,
        received_at: Utc.with_ymd_and_hms(2026, 12, 1, 8, 56, 0).single().expect("time"),
        env: &[],
    };
    adapter_claude::ClaudeAdapter.parse(&delivery).expect("payload")
}

/// Microseconds to build a redactor and redact event `index` once.
fn cold(index: usize) -> u128 {
    let (_, payload) = &events()[index];
    let mut event = parse(payload);
    let start = Instant::now();
    let redactor = Redactor::new();
    redactor.redact_event(&mut event, 64 * 1024);
    start.elapsed().as_micros()
}

fn percentiles(mut samples: Vec<u128>) -> (u128, u128) {
    samples.sort_unstable();
    let at = |q: usize| samples[(samples.len() * q / 100).min(samples.len() - 1)];
    (at(50), at(90))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--cold") {
        let index: usize = args[at + 1].parse().expect("index");
        println!("{}", cold(index));
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let (cold_runs, warm_runs) = if quick { (15, 200) } else { (50, 2000) };
    let exe = std::env::current_exe().expect("bench binary");
    println!(
        "{:<30} {:>12} {:>12} {:>12} {:>12}",
        "event", "cold p50 µs", "cold p90 µs", "warm p50 µs", "warm p90 µs"
    );
    for (index, (name, payload)) in events().iter().enumerate() {
        let cold_samples: Vec<u128> = (0..cold_runs)
            .map(|_| {
                let out = Command::new(&exe).args(["--cold", &index.to_string()]).output().expect("spawn");
                String::from_utf8_lossy(&out.stdout).trim().parse().expect("micros")
            })
            .collect();
        let redactor = Redactor::new();
        let event = parse(payload);
        redactor.redact_event(&mut event.clone(), 64 * 1024);
        let warm_samples: Vec<u128> = (0..warm_runs)
            .map(|_| {
                let mut copy = event.clone();
                let start = Instant::now();
                redactor.redact_event(&mut copy, 64 * 1024);
                start.elapsed().as_micros()
            })
            .collect();
        let (c50, c90) = percentiles(cold_samples);
        let (w50, w90) = percentiles(warm_samples);
        println!("{name:<30} {c50:>12} {c90:>12} {w50:>12} {w90:>12}");
    }
}
