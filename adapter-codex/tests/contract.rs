//! Contract tests for the Codex adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! Codex runs, `docs/` shaped after the hooks reference, `variants/` for edge cases) snapshot
//! the normalised event and the answers rendered for it; files under `invalid/` snapshot the
//! one-line error. Every rendered answer is also checked against Codex's strict output rules.
//! The checks every harness shares live in `memory_testkit::contract`; this file keeps the ones
//! that are this harness's own.

use adapter_codex::{CONTEXT_CAP, CodexAdapter};
use memory_core::{EventKind, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{self, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: CodexAdapter = CodexAdapter;

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
            assert_context_sent(name, response, context, CONTEXT_CAP);
        }
    }
    assert_strings_within_cap(&value, CONTEXT_CAP);
}

memory_testkit::contract_fixtures!(ADAPTER, assert_rules);

/// Every event named in `docs.md` maps as its checklist says, and every answer to it obeys the rules.
#[test]
fn docs_checklist_matches_mapping_and_rules() {
    let docs = include_str!("../src/docs.md");
    let checklist = contract::docs_checklist(docs);
    for &(mapped, name) in &checklist {
        let payload = json!({ "session_id": "s-1", "hook_event_name": name }).to_string();
        let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        assert_eq!(event.kind.as_str(), name, "Codex names are the normalised names");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 13, "the checklist lists every documented event");
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
    let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
    let tool = event.tool.unwrap();
    assert_eq!(tool.output.unwrap().as_str().unwrap().len(), 5 * 1024 * 1024);
    assert_eq!(tool.use_id.as_deref(), Some("call_1"));
}

#[test]
fn a_start_keeps_earlier_context_unless_compacted_or_cleared() {
    contract::assert_start_keeps_context_unless_dropped(&ADAPTER);
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    let payload = br#"{"session_id":"s-1","hook_event_name":"Stop"}"#;
    contract::assert_id_follows_delivery(&ADAPTER, payload);
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
    assert_eq!(ADAPTER.context_file(), None, "context goes in each answer");
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Err(error) = contract::parse(&ADAPTER, &bytes, &[]) {
            prop_assert!(!error.to_string().contains('\n'));
        }
    }

    #[test]
    fn arbitrary_json_never_panics(value in prop_oneof![arb_json(KEYS, EVENTS), arb_payload(KEYS, EVENTS, "session_id")], context in ".{0,64}", reason in ".{0,64}") {
        let checked = contract::fuzz_payload(&ADAPTER, value.to_string().as_bytes(), &context, &reason, assert_rules);
        prop_assert_eq!(checked, Ok(()));
    }
}
