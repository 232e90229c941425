//! Contract tests for the Copilot CLI adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! Copilot CLI 1.0.102 runs, `variants/` for edge cases) snapshot the normalised event and the
//! answers rendered for it; files under `invalid/` snapshot the one-line error. Every rendered
//! answer is also checked against Copilot's output rules. The checks every harness shares live in
//! `memory_testkit::contract`; this file keeps the ones that are this harness's own.

use adapter_copilot::{CONTEXT_CAP, CopilotAdapter};
use memory_core::{EventKind, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{self, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: CopilotAdapter = CopilotAdapter;

/// Checks one answer against Copilot CLI's output rules: exit 0, stdout empty or one JSON object
/// with a top-level `additionalContext` where context is offered and `permissionDecision` on
/// PreToolUse; never `hookSpecificOutput`, which Copilot ignores.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
    let support = ADAPTER.support(kind);
    assert_eq!(rendered.exit_code, 0, "{name}: always exit 0");
    if rendered.stdout.is_empty() {
        return;
    }
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is one JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    assert!(!object.is_empty(), "{name}: an empty answer prints nothing");
    for key in object.keys() {
        let allowed = match key.as_str() {
            "additionalContext" => support.context,
            "permissionDecision" | "permissionDecisionReason" => *kind == EventKind::PreToolUse,
            _ => false,
        };
        assert!(allowed, "{name}: Copilot does not read {key}");
    }
    if let Some(context) = object.get("additionalContext") {
        assert_context_sent(name, response, context.as_str().expect("a string"), CONTEXT_CAP);
    }
    if object.get("permissionDecision").is_some_and(|d| d == "deny") {
        assert!(support.block, "{name}: block not offered");
        assert!(object["permissionDecisionReason"].as_str().is_some_and(|r| !r.trim().is_empty()));
    }
    assert_strings_within_cap(&value, CONTEXT_CAP);
}

memory_testkit::contract_fixtures!(ADAPTER, assert_rules);

/// Every event named in `docs.md` maps as its checklist says, and every answer to it obeys the
/// rules; every event `install` registers is one of them.
#[test]
fn docs_checklist_matches_mapping_and_rules() {
    let docs = include_str!("../src/docs.md");
    let checklist = contract::docs_checklist(docs);
    for &(mapped, name) in &checklist {
        let payload = json!({ "session_id": "s-1", "hook_event_name": name }).to_string();
        let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 13, "the checklist lists every event Copilot fires");
    for registration in ADAPTER.hook_events() {
        assert!(
            checklist.iter().any(|(_, n)| *n == registration.name),
            "{} is documented",
            registration.name
        );
    }
}

/// The camelCase twin of an event maps to the same kind.
#[test]
fn camel_case_names_are_the_same_events() {
    for (camel, pascal) in
        [("sessionStart", "SessionStart"), ("userPromptSubmitted", "UserPromptSubmit"), ("agentStop", "Stop")]
    {
        let parse = |name: &str| {
            let payload = json!({ "session_id": "s-1", "hook_event_name": name }).to_string();
            contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap().kind
        };
        assert_eq!(parse(camel), parse(pascal), "{camel}");
    }
}

/// The camelCase payload Copilot sends for PermissionRequest is read like the snake_case ones.
#[test]
fn the_camel_case_dialect_is_read() {
    let payload = include_bytes!("fixtures/captured/PermissionRequest.bash.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PermissionRequest);
    assert_eq!(event.session.as_str(), "copilot:30af8838-b6a5-4b9f-8557-914c5d36218f");
    let tool = event.tool.unwrap();
    assert_eq!((tool.name.as_str(), tool.shell.unwrap().command.as_str()), ("bash", "ls"));
    assert_eq!(event.raw["hookName"], "permissionRequest", "raw is the payload as sent");
}

/// A command that exits nonzero comes as a successful PostToolUse; it is a failure.
#[test]
fn a_nonzero_exit_is_a_failure() {
    let payload = include_bytes!("fixtures/captured/PostToolUse.bash_exit_2.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUseFailure);
    let tool = event.tool.unwrap();
    assert_eq!((tool.failed, tool.shell.unwrap().exit_code), (Some(true), Some(2)));
    let ok =
        contract::parse(&ADAPTER, include_bytes!("fixtures/captured/PostToolUse.bash.json"), &[]).unwrap();
    assert_eq!(ok.kind, EventKind::PostToolUse);
    assert_eq!(ok.tool.unwrap().shell.unwrap().exit_code, Some(0));
}

#[test]
fn context_is_top_level() {
    let rendered = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::with_context("## Notes"));
    assert_eq!(rendered.stdout, r###"{"additionalContext":"## Notes"}"###);
    let tool = ADAPTER.render(&EventKind::PostToolUse, &HookResponse::with_context("## Notes"));
    assert_eq!(tool, Rendered::ok(""), "tool events carry none of our context");
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    let payload = br#"{"session_id":"s-1","hook_event_name":"Stop"}"#;
    contract::assert_id_follows_delivery(&ADAPTER, payload);
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "copilot");
    assert_eq!(ADAPTER.context_cap(), 8_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok(""));
    assert_eq!(ADAPTER.context_file(), None, "context goes in each answer");
    assert!(ADAPTER.support(&EventKind::SessionStart).context);
    assert!(ADAPTER.support(&EventKind::UserPromptSubmit).context);
    assert_eq!(ADAPTER.support(&EventKind::SessionEnd), memory_core::Support::default());
}

/// Field names the generated payloads draw from, so generated objects reach the mapping code.
const KEYS: &[&str] = &[
    "session_id",
    "sessionId",
    "hook_event_name",
    "hookName",
    "cwd",
    "prompt",
    "tool_name",
    "toolName",
    "tool_input",
    "toolArgs",
    "tool_result",
    "text_result_for_llm",
    "result_type",
    "error",
    "timestamp",
    "source",
];
const EVENTS: &[&str] =
    &["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "postToolUse", "Nope"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Err(error) = contract::parse(&ADAPTER, &bytes, &[]) {
            prop_assert!(!error.to_string().contains('\n'));
        }
    }

    #[test]
    fn arbitrary_json_never_panics(value in prop_oneof![arb_json(KEYS, EVENTS), arb_payload(KEYS, EVENTS, "session_id"), arb_payload(KEYS, EVENTS, "sessionId")], context in ".{0,64}", reason in ".{0,64}") {
        let checked = contract::fuzz_payload(&ADAPTER, value.to_string().as_bytes(), &context, &reason, assert_rules);
        prop_assert_eq!(checked, Ok(()));
    }
}
