//! Contract tests for the Gemini CLI adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! Gemini CLI 0.61.0 runs, `variants/` for edge cases) snapshot the normalised event and the
//! answers rendered for it; files under `invalid/` snapshot the one-line error. Every rendered
//! answer is also checked against Gemini's output rules. The checks every harness shares live in
//! `memory_testkit::contract`; this file keeps the ones that are this harness's own.

use adapter_gemini::{CONTEXT_CAP, GeminiAdapter, event_name};
use memory_core::{EventKind, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{self, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: GeminiAdapter = GeminiAdapter;

/// Checks one answer against Gemini CLI's output rules: exit 0, stdout empty or one JSON object
/// with only `decision`, `reason` and `hookSpecificOutput{hookEventName, additionalContext}`, the
/// event named as Gemini names it.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = event_name(kind);
    let support = ADAPTER.support(kind);
    assert_eq!(rendered.exit_code, 0, "{name}: exit 2 blocks and other codes warn");
    if rendered.stdout.is_empty() {
        return;
    }
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is one JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    assert!(!object.is_empty(), "{name}: an empty answer prints nothing");
    for key in object.keys() {
        assert!(["decision", "reason", "hookSpecificOutput"].contains(&key.as_str()), "{name}: key {key}");
    }
    if let Some(decision) = object.get("decision") {
        assert_eq!(decision, "block");
        assert!(support.block, "{name}: block not offered");
        assert!(object["reason"].as_str().is_some_and(|r| !r.trim().is_empty()), "{name}: a reason");
    }
    if let Some(specific) = object.get("hookSpecificOutput") {
        let specific = specific.as_object().expect("hookSpecificOutput is an object");
        assert_eq!(specific["hookEventName"], name, "hookEventName names Gemini's event");
        for key in specific.keys() {
            assert!(["hookEventName", "additionalContext"].contains(&key.as_str()), "{name}: {key}");
        }
        let context = specific["additionalContext"].as_str().expect("context is a string");
        assert!(support.context, "{name}: context not offered");
        assert_context_sent(name, response, context, CONTEXT_CAP);
    }
    assert_strings_within_cap(&value, CONTEXT_CAP);
}

memory_testkit::contract_fixtures!(ADAPTER, assert_rules);

/// Every event named in `docs.md` maps as its checklist says, back to its own name, and every
/// answer to it obeys the rules.
#[test]
fn docs_checklist_matches_mapping_and_rules() {
    let docs = include_str!("../src/docs.md");
    let checklist = contract::docs_checklist(docs);
    for &(mapped, name) in &checklist {
        let payload = json!({ "session_id": "s-1", "hook_event_name": name }).to_string();
        let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        assert_eq!(event_name(&event.kind), name, "answers name Gemini's event");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 11, "the checklist lists every documented event");
    for registration in ADAPTER.hook_events() {
        assert!(
            checklist.iter().any(|(_, n)| *n == registration.name),
            "{} is documented",
            registration.name
        );
    }
}

/// Context a SessionStart answer added is not part of the prompt the store keeps.
#[test]
fn the_stored_prompt_is_the_users_own() {
    let payload = include_bytes!("fixtures/captured/BeforeAgent.after_sessionstart_context.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::UserPromptSubmit);
    assert_eq!(event.prompt.as_deref(), Some("list the files"));
    assert!(
        event.raw["prompt"].as_str().unwrap().contains("MARKER-CTX-123-SESSIONSTART"),
        "raw is untouched"
    );
}

#[test]
fn a_failed_tool_call_is_a_failure_event() {
    let payload = json!({
        "session_id": "s-1", "hook_event_name": "AfterTool", "tool_name": "run_shell_command",
        "tool_input": { "command": "ls missing-dir" },
        "tool_response": { "llmContent": "Output: ls: cannot access 'missing-dir'\nExit Code: 2", "returnDisplay": "" },
    });
    let event = contract::parse(&ADAPTER, payload.to_string().as_bytes(), &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUseFailure);
    let tool = event.tool.unwrap();
    assert_eq!((tool.failed, tool.shell.unwrap().exit_code), (Some(true), Some(2)));
    let rendered = ADAPTER.render(&EventKind::PostToolUseFailure, &HookResponse::with_context("notes"));
    assert_eq!(rendered, Rendered::ok(""), "AfterTool carries none of our context");
}

#[test]
fn a_start_keeps_earlier_context_unless_compacted_or_cleared() {
    contract::assert_start_keeps_context_unless_dropped(&ADAPTER);
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    let payload = br#"{"session_id":"s-1","hook_event_name":"AfterAgent"}"#;
    contract::assert_id_follows_delivery(&ADAPTER, payload);
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "gemini");
    assert_eq!(ADAPTER.context_cap(), 10_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok(""));
    assert_eq!(ADAPTER.context_file(), None, "context goes in each answer");
    assert!(ADAPTER.support(&EventKind::SessionStart).context);
    assert!(ADAPTER.support(&EventKind::UserPromptSubmit).context);
    assert_eq!(ADAPTER.support(&EventKind::SessionEnd), memory_core::Support::default());
    let prompt = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::with_context("## Notes"));
    assert_eq!(
        prompt.stdout,
        r###"{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"## Notes"}}"###
    );
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
    "llmContent",
    "error",
    "timestamp",
    "prompt_response",
    "transcript_path",
    "source",
];
const EVENTS: &[&str] = &["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "Nope"];

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
