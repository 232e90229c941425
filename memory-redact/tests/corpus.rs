//! The redaction corpus, through the hook's own path. Every token format of the catalog
//! (`src/catalog.toml`, each synthetic sample written into prose, a header, an env line, JSON, YAML
//! and a URL) and every credential of `tests/corpus/secrets.txt` (`.netrc`, `.pgpass`, assignments,
//! connection strings…) is written into the payload of each carrier of each harness: prompts, shell
//! commands, shell output with the prefixes harnesses put before it (Gemini's `Output: `, Codex's
//! summary, Copilot's shell id), file writes, numbered file views, a Codex patch, Cursor's
//! JSON-in-JSON output and edits. The payload is read into a `HookEvent` by that harness's
//! adapter and redacted as the hook redacts it; no secret may survive anywhere in the event.
//! Ordinary texts of `tests/corpus/ordinary.txt` must come through unchanged in every carrier:
//! the share changed is the false-positive rate, at most 2 %. Both figures are printed
//! (`cargo test -p agent-memory-redact --test corpus -- --nocapture`).

#![allow(clippy::print_stdout, reason = "the corpus reports its figures on stdout")]

use std::collections::BTreeMap;

use chrono::{TimeZone, Utc};
use memory_core::{Delivery, HarnessAdapter, HookEvent};
use memory_redact::Redactor;
use memory_redact::catalog::catalog;
use memory_redact::synthetic::{Generator, Sample};
use serde_json::{Value, json};

/// The share of ordinary texts redaction may change (in any carrier) before the test fails.
const MAX_FALSE_POSITIVE_RATE: f64 = 0.02;

/// Redaction kinds that are limits rather than secrets.
const NOT_SECRETS: &[&str] = &["truncated", "transcript", "too-deep"];

/// A `--- name` block of a corpus file.
struct Block {
    name: String,
    text: String,
}

fn blocks(file: &str) -> Vec<Block> {
    let path = format!("{}/tests/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("--- ") {
            out.push(Block { name: name.to_owned(), text: String::new() });
        } else if let Some(block) = out.last_mut() {
            if !block.text.is_empty() {
                block.text.push('\n');
            }
            block.text.push_str(line);
        }
    }
    out
}

/// A carrier: a name and how a text becomes one harness payload.
struct Carrier {
    name: &'static str,
    adapter: &'static dyn HarnessAdapter,
    payload: fn(&str) -> Value,
}

const CLAUDE_SESSION: &str = "3f2b8c1e-7d4a-4e2b-9c61-0a5d8e7f1b23";
const CODEX_SESSION: &str = "019ff93d-ab2d-7852-9060-300be7f422c0";
const CURSOR_CONVERSATION: &str = "8c1f4e2a-6b3d-4f9e-a2c7-5d0e1b9f3a64";
const GEMINI_SESSION: &str = "f6cc3679-2234-4fcc-8348-dedba268b77b";
const COPILOT_SESSION: &str = "30af8838-b6a5-4b9f-8557-914c5d36218f";

fn gemini(event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "session_id": GEMINI_SESSION,
        "transcript_path": format!("/home/alice/.gemini/tmp/acme-api/chats/session-{GEMINI_SESSION}.jsonl"),
        "cwd": "/home/alice/src/acme-api",
        "hook_event_name": event,
        "timestamp": "2026-12-01T08:56:00.692Z",
    });
    merge(&mut payload, fields);
    payload
}

fn copilot(event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "hook_event_name": event,
        "session_id": COPILOT_SESSION,
        "timestamp": "2026-12-01T08:56:42.842Z",
        "cwd": "/home/alice/src/acme-api",
    });
    merge(&mut payload, fields);
    payload
}

/// `text` as a file view shows it: each line after its number (`     1→`, `1. `).
fn numbered(text: &str, style: fn(usize) -> String) -> String {
    text.lines().enumerate().map(|(i, line)| format!("{}{line}\n", style(i + 1))).collect()
}

fn claude(event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "session_id": CLAUDE_SESSION,
        "transcript_path": format!("/home/alice/.claude/projects/-home-alice-src-acme-api/{CLAUDE_SESSION}.jsonl"),
        "cwd": "/home/alice/src/acme-api",
        "permission_mode": "default",
        "hook_event_name": event,
    });
    merge(&mut payload, fields);
    payload
}

fn codex(event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "session_id": CODEX_SESSION,
        "turn_id": "019ff93d-dd1b-7782-b78c-18db10eef2b0",
        "transcript_path": format!("/home/alice/.codex/sessions/2026/08/13/rollout-{CODEX_SESSION}.jsonl"),
        "cwd": "/home/alice/src/acme-api",
        "hook_event_name": event,
        "model": "gpt-5.5",
        "permission_mode": "default",
    });
    merge(&mut payload, fields);
    payload
}

fn cursor(event: &str, fields: Value) -> Value {
    let mut payload = json!({
        "conversation_id": CURSOR_CONVERSATION,
        "generation_id": "5b9a7c3e-2d1f-4e8a-b6c4-0f9e8d7c6b5a",
        "model": "claude-4.5-sonnet-thinking",
        "hook_event_name": event,
        "cursor_version": "3.18.25",
        "workspace_roots": ["/Users/alice/src/acme-api"],
        "user_email": "alice@example.com",
        "transcript_path": null,
    });
    merge(&mut payload, fields);
    payload
}

fn merge(payload: &mut Value, fields: Value) {
    if let (Value::Object(into), Value::Object(from)) = (payload, fields) {
        into.extend(from);
    }
}

fn patch_adding(text: &str) -> String {
    let added: String = text.lines().map(|line| format!("+{line}\n")).collect();
    format!("*** Begin Patch\n*** Add File: deploy/app.env\n{added}*** End Patch\n")
}

fn carriers() -> Vec<Carrier> {
    vec![
        Carrier {
            name: "claude prompt",
            adapter: &adapter_claude::ClaudeAdapter,
            payload: |t| claude("UserPromptSubmit", json!({"prompt": t})),
        },
        Carrier {
            name: "claude shell command",
            adapter: &adapter_claude::ClaudeAdapter,
            payload: |t| {
                claude(
                    "PreToolUse",
                    json!({"tool_name": "Bash", "tool_input": {"command": t, "description": "Run it"}, "tool_use_id": "toolu_01"}),
                )
            },
        },
        Carrier {
            name: "claude shell output",
            adapter: &adapter_claude::ClaudeAdapter,
            payload: |t| {
                claude(
                    "PostToolUse",
                    json!({
                        "tool_name": "Bash",
                        "tool_input": {"command": "./scripts/show-config.sh", "description": "Show config"},
                        "tool_response": {"stdout": t, "stderr": "", "interrupted": false, "isImage": false},
                        "tool_use_id": "toolu_02",
                        "duration_ms": 31,
                    }),
                )
            },
        },
        Carrier {
            name: "claude file write",
            adapter: &adapter_claude::ClaudeAdapter,
            payload: |t| {
                claude(
                    "PostToolUse",
                    json!({
                        "tool_name": "Write",
                        "tool_input": {"file_path": "/home/alice/src/acme-api/deploy/app.env", "content": t},
                        "tool_response": {"filePath": "/home/alice/src/acme-api/deploy/app.env", "success": true},
                        "tool_use_id": "toolu_03",
                    }),
                )
            },
        },
        Carrier {
            name: "codex patch",
            adapter: &adapter_codex::CodexAdapter,
            payload: |t| {
                codex(
                    "PreToolUse",
                    json!({"tool_name": "apply_patch", "tool_input": {"command": patch_adding(t)}, "tool_use_id": "call_01"}),
                )
            },
        },
        Carrier {
            name: "codex shell output",
            adapter: &adapter_codex::CodexAdapter,
            payload: |t| {
                codex(
                    "PostToolUse",
                    json!({"tool_name": "Bash", "tool_input": {"command": "cat deploy/app.env"}, "tool_response": t, "tool_use_id": "call_02"}),
                )
            },
        },
        Carrier {
            name: "cursor prompt",
            adapter: &adapter_cursor::CursorAdapter,
            payload: |t| cursor("beforeSubmitPrompt", json!({"prompt": t, "attachments": []})),
        },
        Carrier {
            name: "cursor nested json output",
            adapter: &adapter_cursor::CursorAdapter,
            payload: |t| {
                let output = json!({"exitCode": 0, "stdout": t, "stderr": ""}).to_string();
                cursor(
                    "postToolUse",
                    json!({
                        "tool_name": "Shell",
                        "tool_input": {"command": "cat deploy/app.env", "working_directory": "/Users/alice/src/acme-api"},
                        "tool_output": output,
                        "tool_use_id": "tool_3c9b1e7a",
                        "cwd": "/Users/alice/src/acme-api",
                        "duration": 812,
                    }),
                )
            },
        },
        Carrier {
            name: "cursor shell output",
            adapter: &adapter_cursor::CursorAdapter,
            payload: |t| {
                cursor(
                    "afterShellExecution",
                    json!({"command": "cat deploy/app.env", "output": t, "duration": 812, "sandbox": false}),
                )
            },
        },
        Carrier {
            name: "claude file read",
            adapter: &adapter_claude::ClaudeAdapter,
            payload: |t| {
                claude(
                    "PostToolUse",
                    json!({
                        "tool_name": "Read",
                        "tool_input": {"file_path": "/home/alice/src/acme-api/deploy/app.env"},
                        "tool_response": {"type": "text", "file": {
                            "filePath": "/home/alice/src/acme-api/deploy/app.env",
                            "content": numbered(t, |n| format!("{n:>6}\u{2192}")),
                            "numLines": t.lines().count(), "startLine": 1, "totalLines": t.lines().count(),
                        }},
                        "tool_use_id": "toolu_04",
                    }),
                )
            },
        },
        Carrier {
            name: "codex shell summary",
            adapter: &adapter_codex::CodexAdapter,
            payload: |t| {
                codex(
                    "PostToolUse",
                    json!({
                        "tool_name": "Bash",
                        "tool_input": {"command": "cat deploy/app.env"},
                        "tool_response": format!("Exit code: 0\nWall time: 0.1 seconds\nOutput:\n{t}\n"),
                        "tool_use_id": "call_03",
                    }),
                )
            },
        },
        Carrier {
            name: "gemini prompt",
            adapter: &adapter_gemini::GeminiAdapter,
            payload: |t| gemini("BeforeAgent", json!({"prompt": t})),
        },
        Carrier {
            name: "gemini shell command",
            adapter: &adapter_gemini::GeminiAdapter,
            payload: |t| {
                gemini(
                    "BeforeTool",
                    json!({"tool_name": "run_shell_command", "tool_input": {"command": t, "description": "run it"}}),
                )
            },
        },
        Carrier {
            name: "gemini shell output",
            adapter: &adapter_gemini::GeminiAdapter,
            payload: |t| {
                gemini(
                    "AfterTool",
                    json!({
                        "tool_name": "run_shell_command",
                        "tool_input": {"command": "cat deploy/app.env", "description": "show config"},
                        "tool_response": {
                            "llmContent": format!("<untrusted_context>\nOutput: {t}\nProcess Group PGID: 23288\n</untrusted_context>"),
                            "returnDisplay": t,
                        },
                    }),
                )
            },
        },
        Carrier {
            name: "gemini file write",
            adapter: &adapter_gemini::GeminiAdapter,
            payload: |t| {
                gemini(
                    "AfterTool",
                    json!({
                        "tool_name": "write_file",
                        "tool_input": {"file_path": "/home/alice/src/acme-api/deploy/app.env", "content": t},
                        "tool_response": {"llmContent": "Successfully created and wrote to new file.", "returnDisplay": "Wrote app.env"},
                    }),
                )
            },
        },
        Carrier {
            name: "copilot prompt",
            adapter: &adapter_copilot::CopilotAdapter,
            payload: |t| copilot("UserPromptSubmit", json!({"prompt": t})),
        },
        Carrier {
            name: "copilot shell output",
            adapter: &adapter_copilot::CopilotAdapter,
            payload: |t| {
                copilot(
                    "PostToolUse",
                    json!({
                        "tool_name": "Bash",
                        "tool_input": {"command": "cat deploy/app.env", "description": "show config"},
                        "tool_result": {
                            "result_type": "success",
                            "text_result_for_llm": format!("{t}\n<shellId: 0 completed with exit code 0>"),
                        },
                    }),
                )
            },
        },
        Carrier {
            name: "copilot file view",
            adapter: &adapter_copilot::CopilotAdapter,
            payload: |t| {
                copilot(
                    "PostToolUse",
                    json!({
                        "tool_name": "view",
                        "tool_input": {"path": "/home/alice/src/acme-api/deploy/app.env"},
                        "tool_result": {"result_type": "success", "text_result_for_llm": numbered(t, |n| format!("{n}. "))},
                    }),
                )
            },
        },
        Carrier {
            name: "cursor edit",
            adapter: &adapter_cursor::CursorAdapter,
            payload: |t| {
                cursor(
                    "afterFileEdit",
                    json!({
                        "file_path": "/Users/alice/src/acme-api/deploy/app.env",
                        "edits": [{"old_string": "", "new_string": t}],
                    }),
                )
            },
        },
    ]
}

/// The event the hook would store for `text` in `carrier`, before redaction.
fn event(carrier: &Carrier, text: &str) -> HookEvent {
    let payload = serde_json::to_vec(&(carrier.payload)(text)).unwrap();
    let delivery = Delivery {
        payload: &payload,
        received_at: Utc.with_ymd_and_hms(2026, 8, 13, 13, 49, 56).unwrap(),
        env: &[],
    };
    carrier.adapter.parse(&delivery).unwrap_or_else(|e| panic!("{}: {e}", carrier.name))
}

/// Every string of a JSON value, keys included, one per line.
fn strings(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => {
            for (key, item) in map {
                out.push_str(key);
                out.push('\n');
                strings(item, out);
            }
        }
        _ => {}
    }
}

/// Whether `secret`, or a 12-character piece of a longer one, can still be read in the event:
/// in its serialized form or in any of its strings (a JSON document inside a string included).
fn survives(event: &HookEvent, secret: &str) -> bool {
    let serialized = serde_json::to_string(event).unwrap();
    let mut text = String::new();
    strings(&serde_json::to_value(event).unwrap(), &mut text);
    let chars: Vec<char> = secret.chars().collect();
    let mut pieces = vec![secret.to_owned()];
    if chars.len() >= 16 {
        pieces.extend(chars.windows(12).map(|w| w.iter().collect::<String>()));
    }
    pieces.iter().any(|piece| serialized.contains(piece.as_str()) || text.contains(piece.as_str()))
}

/// A secret case: where it comes from, and its filled text with the secrets in it.
struct Case {
    name: String,
    sample: Sample,
}

/// The lines a catalog sample is written into: prose, a header, an env line, JSON, YAML, and a
/// URL when it fits in one.
fn in_contexts(token: &str) -> String {
    let mut lines = vec![
        format!("the new key is {token}, rotate the old one"),
        format!("curl -sS -H \"X-Relay-Auth: {token}\" https://relay.example.com/v1/ping"),
        format!("export RELAY_VALUE={token}"),
        format!("{{\"relay\": \"{token}\"}}"),
        format!("relay:\n  value: {token}"),
    ];
    if !token.contains([' ', '"', '\'', '\n']) {
        lines.push(format!("https://relay.example.com/v1/hook?to={token}&retry=3"));
    }
    lines.join("\n")
}

/// Every sample of every catalog format, in its contexts, and every case of `secrets.txt`.
fn cases() -> Vec<Case> {
    let mut generator = Generator::new(0x00c0_ffee_5eed);
    let mut cases = Vec::new();
    for format in catalog().formats() {
        for template in format.samples {
            let sample = generator.fill(template);
            cases.push(Case {
                name: format!("{} {} ({})", format.provider, format.name, format.kind),
                sample: Sample { text: in_contexts(&sample.text), secrets: sample.secrets },
            });
        }
    }
    for block in blocks("secrets.txt") {
        cases.push(Case { name: block.name, sample: generator.fill(&block.text) });
    }
    cases
}

#[test]
fn every_catalog_sample_alone_becomes_its_own_marker() {
    let redactor = Redactor::new();
    let mut generator = Generator::new(7);
    let mut wrong = Vec::new();
    for format in catalog().formats() {
        for template in format.samples {
            let sample = generator.fill(template);
            let out = redactor.redact_text(&sample.text);
            let marker = format!("[REDACTED:{}]", format.kind);
            if !out.contains(&marker) || sample.secrets.iter().any(|s| out.contains(s.as_str())) {
                wrong.push(format!("{} {}: {out}", format.provider, format.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{} samples:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn no_secret_of_any_format_survives_in_any_carrier() {
    let cases = cases();
    let carriers = carriers();
    let redactor = Redactor::new();
    let mut kept = Vec::new();
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut events = 0;
    for case in &cases {
        let Sample { text, secrets } = &case.sample;
        assert!(!secrets.is_empty(), "{}: no secret placeholder", case.name);
        for carrier in &carriers {
            let mut event = event(carrier, text);
            assert!(
                secrets.iter().any(|s| survives(&event, s)),
                "{} in {}: the carrier does not hold the text",
                case.name,
                carrier.name
            );
            let counts = redactor.redact_event(&mut event, 64 * 1024);
            events += 1;
            for (kind, n) in counts.iter() {
                *kinds.entry(kind).or_default() += n;
            }
            if let Some(secret) = secrets.iter().find(|s| survives(&event, s)) {
                kept.push(format!("{} in {}: `{secret}` survived", case.name, carrier.name));
            }
        }
    }
    let formats = catalog().formats().len();
    let adapters: std::collections::BTreeSet<&str> = carriers.iter().map(|c| c.adapter.harness()).collect();
    println!(
        "redaction corpus: {formats} catalog formats and {} credential cases ({} cases) x {} carriers of {} harnesses = {events} events, {} secrets kept",
        cases.len() - catalog().formats().iter().map(|f| f.samples.len()).sum::<usize>(),
        cases.len(),
        carriers.len(),
        adapters.len(),
        kept.len()
    );
    println!("markers: {kinds:?}");
    assert!(formats >= 150, "only {formats} catalog formats");
    assert_eq!(adapters.len(), 5, "every harness has carriers: {adapters:?}");
    assert!(kept.is_empty(), "{} secrets kept:\n{}", kept.len(), kept.join("\n"));
}

#[test]
fn ordinary_texts_come_through_unchanged() {
    let texts = blocks("ordinary.txt");
    let carriers = carriers();
    let redactor = Redactor::new();
    let mut changed = Vec::new();
    for block in &texts {
        let mut hits = Vec::new();
        for carrier in &carriers {
            let mut event = event(carrier, &block.text);
            let before = event.clone();
            let counts = redactor.redact_event(&mut event, 64 * 1024);
            let secrets: Vec<String> = counts
                .iter()
                .filter(|(kind, _)| !NOT_SECRETS.contains(kind))
                .map(|(kind, n)| format!("{kind}={n}"))
                .collect();
            if !secrets.is_empty() || event != before {
                hits.push(format!("{} ({})", carrier.name, secrets.join(" ")));
            }
        }
        if !hits.is_empty() {
            changed.push(format!("{}: {}", block.name, hits.join(", ")));
        }
    }
    #[allow(clippy::cast_precision_loss, reason = "counts of a few hundred")]
    let rate = changed.len() as f64 / texts.len() as f64;
    println!(
        "false positives: {} of {} ordinary texts x {} carriers = {:.1} % (at most {:.0} % allowed){}{}",
        changed.len(),
        texts.len(),
        carriers.len(),
        rate * 100.0,
        MAX_FALSE_POSITIVE_RATE * 100.0,
        if changed.is_empty() { "" } else { ":\n" },
        changed.join("\n")
    );
    assert!(texts.len() >= 100, "only {} ordinary texts", texts.len());
    assert!(
        rate <= MAX_FALSE_POSITIVE_RATE,
        "{} ordinary texts were redacted:\n{}",
        changed.len(),
        changed.join("\n")
    );
}
