//! The redaction corpus, through the hook's own path: every secret format of
//! `tests/corpus/secrets.txt` and every ordinary text of `tests/corpus/ordinary.txt` is written
//! into the payload of each carrier (a prompt, a shell command, its output, a file write, a Codex
//! patch, Cursor's JSON-in-JSON shell output, a Cursor edit), read into a `HookEvent` by that
//! harness's adapter, and redacted as the hook redacts it. No secret may survive anywhere in the
//! stored event; ordinary texts must come through unchanged, bar a small stated number. Both
//! figures are printed (`cargo test -p agent-memory-redact --test corpus -- --nocapture`).

#![allow(clippy::print_stdout, reason = "the corpus reports its figures on stdout")]

use std::collections::BTreeMap;

use chrono::{TimeZone, Utc};
use memory_core::{Delivery, HarnessAdapter, HookEvent};
use memory_redact::Redactor;
use serde_json::{Value, json};

/// How many ordinary texts may be changed by redaction (in any carrier) before the test fails.
const MAX_FALSE_POSITIVES: usize = 2;

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

/// Deterministic fake characters (SplitMix64).
struct Fake(u64);

impl Fake {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick(&mut self, alphabet: &str, n: usize) -> String {
        let bytes = alphabet.as_bytes();
        let len = u64::try_from(bytes.len()).unwrap();
        (0..n).map(|_| char::from(bytes[usize::try_from(self.next() % len).unwrap()])).collect()
    }

    /// `n` characters of `alphabet`; when it has digits and letters, with at least one of each,
    /// as generated keys have.
    fn chars(&mut self, alphabet: &str, n: usize) -> String {
        let mut s = self.pick(alphabet, n);
        let letter = alphabet.chars().find(char::is_ascii_alphabetic);
        if let (true, Some(letter)) = (n > 4 && alphabet.contains('7'), letter) {
            s.replace_range(n / 2..n / 2 + 2, &format!("7{letter}"));
        }
        s
    }
}

const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS: &str = "0123456789";
const HEX: &str = "0123456789abcdef";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

fn base64(bytes: &[u8], padded: bool) -> String {
    let table = B64.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(table[usize::try_from((n >> (18 - 6 * i)) & 63).unwrap()]));
        }
        if padded {
            out.push_str(&"=".repeat(3 - chunk.len()));
        }
    }
    out
}

/// One filled placeholder: the text written, and the secret it holds.
fn fill(kind: &str, arg: usize, f: &mut Fake) -> String {
    let alnum = format!("{UPPER}{LOWER}{DIGITS}");
    let upper_alnum = format!("{UPPER}{DIGITS}");
    match kind {
        "alnum" => f.chars(&alnum, arg),
        "upperalnum" => f.chars(&upper_alnum, arg),
        "hex" => f.chars(HEX, arg),
        "b64" => f.chars(B64, arg),
        "b64url" => f.chars(B64URL, arg),
        "digits" => format!("{}{}", f.pick("123456789", 1), f.pick(DIGITS, arg - 1)),
        "lower" => f.pick(LOWER, arg),
        "enc" => base64(f.chars(&alnum, arg).as_bytes(), true),
        "userpass" => base64(format!("deploy:{}", f.chars(&alnum, 16)).as_bytes(), true),
        "discordid" => {
            let id = format!("{}{}", f.pick("123456789", 1), f.pick(DIGITS, 17));
            base64(id.as_bytes(), false)
        }
        "pw" => {
            let word = f.pick(LOWER, arg.saturating_sub(6).max(2));
            format!(
                "{}{}{}-{}!{}",
                f.pick(UPPER, 1),
                word,
                f.pick(DIGITS, 2),
                f.pick(LOWER, 1),
                f.pick(DIGITS, 1)
            )
        }
        other => panic!("unknown placeholder {{{other}}}"),
    }
}

/// A secret case with its placeholders filled: the text and the secrets in it.
fn expand(template: &str, f: &mut Fake) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut secrets = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else { break };
        let inner = &rest[open + 1..close];
        let (kind, arg) = inner.split_once(':').unwrap_or((inner, "0"));
        if !kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            || arg.parse::<usize>().is_err()
        {
            // Literal braces (JSON): keep them.
            text.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        }
        text.push_str(&rest[..open]);
        let value = fill(kind, arg.parse().unwrap_or(0), f);
        text.push_str(&value);
        secrets.push(value);
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    (text, secrets)
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

#[test]
fn no_secret_of_any_format_survives_in_any_carrier() {
    let cases = blocks("secrets.txt");
    let carriers = carriers();
    let redactor = Redactor::new();
    let mut fake = Fake(0x00c0_ffee_5eed);
    let mut kept = Vec::new();
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut events = 0;
    for case in &cases {
        let (text, secrets) = expand(&case.text, &mut fake);
        assert!(!secrets.is_empty(), "{}: no placeholder", case.name);
        for carrier in &carriers {
            let mut event = event(carrier, &text);
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
    println!(
        "redaction corpus: {} secret formats x {} carriers = {events} events, {} secrets kept; markers: {kinds:?}",
        cases.len(),
        carriers.len(),
        kept.len()
    );
    assert!(cases.len() >= 60, "only {} secret formats", cases.len());
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
    println!(
        "redaction corpus: {} ordinary texts x {} carriers, {} false positives (at most {MAX_FALSE_POSITIVES} allowed){}{}",
        texts.len(),
        carriers.len(),
        changed.len(),
        if changed.is_empty() { "" } else { ":\n" },
        changed.join("\n")
    );
    assert!(texts.len() >= 50, "only {} ordinary texts", texts.len());
    assert!(
        changed.len() <= MAX_FALSE_POSITIVES,
        "{} ordinary texts were redacted:\n{}",
        changed.len(),
        changed.join("\n")
    );
}
