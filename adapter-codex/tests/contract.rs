//! Contract tests for the Codex adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! Codex runs, `docs/` shaped after the hooks reference, `variants/` for edge cases) snapshot
//! the normalised event and the answers rendered for it; files under `invalid/` snapshot the
//! one-line error. Every rendered answer is also checked against Codex's strict output rules.

use std::path::Path;

use adapter_codex::{CONTEXT_CAP, CodexAdapter};
use chrono::{DateTime, TimeZone, Utc};
use memory_core::{
    Decision, Delivery, EventKind, HarnessAdapter, HookEvent, HookResponse, Rendered, TRUNCATION_MARKER,
};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: CodexAdapter = CodexAdapter;
const NOTES: &str =
    "## agent-memory notes\n\n- Run tests with `cargo nextest run`.\n- Prefers small commits.\n";
const BLOCK_REASON: &str = "agent-memory: the prompt contains what looks like an API key";

const UNIVERSAL: &[&str] = &["continue", "stopReason", "systemMessage", "suppressOutput"];

/// Keys Codex's strict output schemas accept per event, written from the hooks reference ("Output
/// and exit codes"): top-level keys, then `hookSpecificOutput` keys. An event not listed accepts no
/// output at all.
const ALLOWED: &[(&str, &[&str], &[&str])] = &[
    (
        "SessionStart",
        &["continue", "stopReason", "systemMessage", "suppressOutput", "hookSpecificOutput"],
        &["hookEventName", "additionalContext"],
    ),
    (
        "SubagentStart",
        &["continue", "stopReason", "systemMessage", "suppressOutput", "hookSpecificOutput"],
        &["hookEventName", "additionalContext"],
    ),
    (
        "UserPromptSubmit",
        &[
            "continue",
            "stopReason",
            "systemMessage",
            "suppressOutput",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        &["hookEventName", "additionalContext"],
    ),
    (
        "PreToolUse",
        &["systemMessage", "decision", "reason", "hookSpecificOutput"],
        &[
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
    ),
    ("PermissionRequest", &["systemMessage", "hookSpecificOutput"], &["hookEventName", "decision"]),
    (
        "PostToolUse",
        &["systemMessage", "continue", "stopReason", "decision", "reason", "hookSpecificOutput"],
        &["hookEventName", "additionalContext"],
    ),
    ("PreCompact", UNIVERSAL, &[]),
    ("PostCompact", UNIVERSAL, &[]),
    ("Stop", &["continue", "stopReason", "systemMessage", "suppressOutput", "decision", "reason"], &[]),
    (
        "SubagentStop",
        &["continue", "stopReason", "systemMessage", "suppressOutput", "decision", "reason"],
        &[],
    ),
    ("Interrupt", &["systemMessage"], &[]),
];

fn received_at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

fn parse(payload: &[u8], env: &[(String, String)]) -> memory_core::Result<HookEvent> {
    ADAPTER.parse(&Delivery { payload, received_at: received_at(), env })
}

/// The answers every event is rendered with.
fn responses() -> Vec<HookResponse> {
    let huge = format!("## Huge\n\n{}", "remember this word ".repeat(6_000));
    vec![
        HookResponse::pass(),
        HookResponse::with_context(NOTES),
        HookResponse::block(BLOCK_REASON),
        HookResponse::block(""),
        HookResponse { user_message: Some("agent-memory stored 3 notes".to_owned()), ..HookResponse::pass() },
        HookResponse::with_context(huge.clone()),
        HookResponse::with_context(" \n\t"),
        HookResponse {
            decision: Decision::Allow { reason: Some("known safe".to_owned()) },
            ..HookResponse::pass()
        },
        HookResponse {
            context: Some(huge.clone()),
            decision: Decision::Block { reason: huge.clone() },
            user_message: Some(huge),
        },
    ]
}

/// A rendered answer as JSON, for snapshots.
fn rendered_json(rendered: &Rendered) -> Value {
    let stdout = if rendered.stdout.is_empty() {
        Value::String(String::new())
    } else {
        serde_json::from_str(&rendered.stdout).expect("stdout is JSON")
    };
    json!({ "stdout": stdout, "stderr": rendered.stderr, "exit_code": rendered.exit_code })
}

/// Checks one answer against Codex's documented output rules.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
    let support = ADAPTER.support(kind);
    match rendered.exit_code {
        0 => {}
        2 => assert!(!rendered.stderr.trim().is_empty(), "{name}: exit 2 needs a reason on stderr"),
        code => panic!("{name}: exit {code} marks the hook Failed"),
    }
    if rendered.stdout.is_empty() {
        return;
    }
    assert!(rendered.stdout.starts_with('{'), "{name}: never plain text: {}", rendered.stdout);
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is one JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    assert!(!object.is_empty(), "{name}: an empty answer prints nothing");
    let (_, top, specific_keys) = ALLOWED
        .iter()
        .find(|(event, _, _)| *event == name)
        .unwrap_or_else(|| panic!("{name}: this event accepts no output, got {}", rendered.stdout));
    for key in object.keys() {
        assert!(top.contains(&key.as_str()), "{name}: Codex rejects the key {key}");
    }
    if let Some(decision) = object.get("decision") {
        assert_eq!(decision, "block");
        assert!(support.block, "{name}: block not offered");
        assert!(
            object["reason"].as_str().is_some_and(|r| !r.trim().is_empty()),
            "{name}: block needs a reason"
        );
    }
    if object.contains_key("systemMessage") {
        assert!(support.user_message, "{name}: systemMessage not offered");
    }
    if let Some(specific) = object.get("hookSpecificOutput") {
        let specific = specific.as_object().expect("hookSpecificOutput is an object");
        assert_eq!(specific["hookEventName"], name, "hookEventName names the firing event");
        for key in specific.keys() {
            assert!(specific_keys.contains(&key.as_str()), "{name}: Codex rejects hookSpecificOutput.{key}");
        }
        if let Some(decision) = specific.get("decision") {
            let decision = decision.as_object().expect("decision is an object");
            for key in decision.keys() {
                assert!(["behavior", "message"].contains(&key.as_str()), "{name}: decision.{key}");
            }
        }
        if let Some(context) = specific.get("additionalContext") {
            assert!(support.context, "{name}: context not offered");
            let context = context.as_str().expect("additionalContext is a string");
            assert!(context.chars().count() <= CONTEXT_CAP);
            let sent = response.context.as_deref().unwrap_or_default();
            if sent.chars().count() > CONTEXT_CAP {
                assert!(context.ends_with(TRUNCATION_MARKER), "{name}: truncation is marked");
            } else {
                assert_eq!(context, sent, "{name}: context within the cap is sent unchanged");
            }
        }
    }
    assert_strings_within_cap(&value);
}

fn assert_strings_within_cap(value: &Value) {
    match value {
        Value::String(s) => assert!(s.chars().count() <= CONTEXT_CAP, "string over the cap"),
        Value::Array(items) => items.iter().for_each(assert_strings_within_cap),
        Value::Object(map) => map.values().for_each(assert_strings_within_cap),
        _ => {}
    }
}

/// Parses one fixture and snapshots what comes out.
#[track_caller]
fn check(path: &Path) {
    let payload = std::fs::read(path).expect("fixture is readable");
    let invalid = path.components().any(|c| c.as_os_str() == "invalid");
    match (parse(&payload, &[]), invalid) {
        (Ok(event), false) => {
            assert_eq!(event.id.as_str().len(), 32);
            assert_eq!(event.occurred_at, received_at(), "Codex payloads carry no time");
            assert!(event.session.as_str().starts_with("codex:"));
            assert_eq!(event.harness.name, "codex");
            let text = std::str::from_utf8(&payload).unwrap();
            let whole: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
            assert_eq!(event.raw, whole, "raw is the whole payload");
            insta::assert_json_snapshot!("event", event, { ".id" => "[id]", ".occurred_at" => "[occurred_at]" });
            let support = ADAPTER.support(&event.kind);
            let answers = json!({
                "support": { "context": support.context, "block": support.block, "user_message": support.user_message },
                "context": rendered_json(&ADAPTER.render(&event.kind, &HookResponse::with_context(NOTES))),
                "block": rendered_json(&ADAPTER.render(&event.kind, &HookResponse::block(BLOCK_REASON))),
            });
            insta::assert_json_snapshot!("answers", answers);
            for response in responses() {
                assert_rules(&event.kind, &response, &ADAPTER.render(&event.kind, &response));
            }
        }
        (Err(error), true) => {
            let message = error.to_string();
            assert!(!message.contains('\n') && !message.contains('\r'), "one line: {message:?}");
            assert!(message.starts_with("invalid input: codex hook payload "), "{message}");
            insta::assert_snapshot!("error", message);
        }
        (Ok(event), true) => panic!("{} should not parse, got {:?}", path.display(), event.kind),
        (Err(error), false) => panic!("{} should parse: {error}", path.display()),
    }
}

#[test]
fn fixtures() {
    insta::glob!("fixtures/**/*.json", |path| check(path));
}

/// Every event named in `docs.md` maps as its checklist says, and every answer to it obeys the rules.
#[test]
fn docs_checklist_matches_mapping_and_rules() {
    let docs = include_str!("../src/docs.md");
    let mut seen = 0;
    for line in docs.lines() {
        let (mapped, rest) = match line.strip_prefix("- [x] `") {
            Some(rest) => (true, rest),
            None => match line.strip_prefix("- [ ] `") {
                Some(rest) => (false, rest),
                None => continue,
            },
        };
        let name = &rest[..rest.find('`').unwrap()];
        let payload = json!({ "session_id": "s-1", "hook_event_name": name }).to_string();
        let event = parse(payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        assert_eq!(event.kind.as_str(), name, "Codex names are the normalised names");
        for response in responses() {
            assert_rules(&event.kind, &response, &ADAPTER.render(&event.kind, &response));
        }
        seen += 1;
    }
    assert_eq!(seen, 13, "the checklist lists every documented event");
}

/// A 5 MB tool output is kept whole (the hook runtime caps what it stores).
#[test]
fn huge_tool_output() {
    let stdout = "x".repeat(5 * 1024 * 1024);
    let payload = json!({
        "session_id": "s-1",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": "yes x | head -c 5M" },
        "tool_response": stdout,
        "tool_use_id": "call_1",
    })
    .to_string();
    let event = parse(payload.as_bytes(), &[]).unwrap();
    let tool = event.tool.unwrap();
    assert_eq!(tool.output.unwrap().as_str().unwrap().len(), 5 * 1024 * 1024);
    assert_eq!(tool.use_id.as_deref(), Some("call_1"));
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    let payload = br#"{"session_id":"s-1","hook_event_name":"Stop"}"#;
    let first = parse(payload, &[]).unwrap();
    assert_eq!(first.id, parse(payload, &[]).unwrap().id);
    let later = ADAPTER
        .parse(&Delivery { payload, received_at: received_at() + chrono::Duration::seconds(1), env: &[] })
        .unwrap();
    assert_ne!(first.id, later.id);
}

#[test]
fn plain_text_context_is_never_printed() {
    for context in ["[notes] start with a bracket", "{\"looks\": \"like json\"}", "plain"] {
        let rendered = ADAPTER.render(&EventKind::SessionStart, &HookResponse::with_context(context));
        let value: Value = serde_json::from_str(&rendered.stdout).unwrap();
        assert_eq!(value["hookSpecificOutput"]["additionalContext"], context);
    }
    let pre_compact = ADAPTER.render(&EventKind::PreCompact, &HookResponse::with_context("notes"));
    assert_eq!(pre_compact, Rendered::ok(""), "PreCompact accepts nothing");
    assert_eq!(ADAPTER.support(&EventKind::PreCompact), memory_core::Support::default());
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "codex");
    assert_eq!(ADAPTER.context_cap(), 9_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok(""));
    assert!(ADAPTER.support(&EventKind::SessionStart).context);
    assert!(ADAPTER.support(&EventKind::UserPromptSubmit).context);
    assert_eq!(ADAPTER.support(&EventKind::SessionEnd), memory_core::Support::default());
}

/// Field names the generated payloads draw from, so generated objects reach the mapping code.
const KEYS: &[&str] = &[
    "session_id",
    "hook_event_name",
    "cwd",
    "prompt",
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_use_id",
    "error",
    "turn_id",
    "agent_id",
    "model",
    "transcript_path",
    "source",
];
const EVENTS: &[&str] = &["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "Nope"];

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        prop::sample::select(EVENTS).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        let key = prop_oneof![prop::sample::select(KEYS).prop_map(str::to_owned), "[a-z_]{1,8}"];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn arb_payload() -> impl Strategy<Value = Value> {
    (arb_json(), prop::sample::select(EVENTS), "[a-z0-9-]{0,8}").prop_map(|(extra, event, session)| {
        let mut object = match extra {
            Value::Object(map) => map,
            other => [("extra".to_owned(), other)].into_iter().collect(),
        };
        object.entry("session_id").or_insert(Value::from(session));
        object.entry("hook_event_name").or_insert(Value::from(event));
        Value::Object(object)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Err(error) = parse(&bytes, &[]) {
            prop_assert!(!error.to_string().contains('\n'));
        }
    }

    #[test]
    fn arbitrary_json_never_panics(value in prop_oneof![arb_json(), arb_payload()], context in ".{0,64}", reason in ".{0,64}") {
        match parse(value.to_string().as_bytes(), &[]) {
            Ok(event) => {
                let answers = [
                    HookResponse::with_context(context.clone()),
                    HookResponse::block(reason.clone()),
                    HookResponse { context: Some(context), decision: Decision::Block { reason: reason.clone() }, user_message: Some(reason) },
                ];
                for response in answers {
                    assert_rules(&event.kind, &response, &ADAPTER.render(&event.kind, &response));
                }
            }
            Err(error) => prop_assert!(!error.to_string().contains('\n')),
        }
    }
}
