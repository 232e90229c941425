//! Contract tests for the Factory droid adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! droid 0.225 runs, `variants/` shaped after the payloads the binary builds) snapshot the normalised event and the
//! answers rendered for it; files under `invalid/` snapshot the one-line error. Every rendered
//! answer is also checked against droid's output rules. The checks every harness shares live in
//! `memory_testkit::contract`; this file keeps the ones that are this harness's own.

use adapter_droid::{CONTEXT_CAP, DroidAdapter};
use memory_core::{EventKind, FileAction, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{self, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: DroidAdapter = DroidAdapter;

/// Checks one answer against droid's output rules: exit 0, stdout empty or one JSON object
/// with only `decision`, `reason` and `hookSpecificOutput{hookEventName, additionalContext,
/// permissionDecision, permissionDecisionReason, decision}`, the event under its own name.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
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
        assert_eq!(specific["hookEventName"], name, "hookEventName names the event");
        for key in specific.keys() {
            let known =
                ["hookEventName", "additionalContext", "permissionDecision", "permissionDecisionReason"];
            assert!(known.contains(&key.as_str()) || key == "decision", "{name}: {key}");
        }
        if let Some(decision) = specific.get("decision") {
            assert_eq!(name, "PermissionRequest", "only PermissionRequest takes a behaviour");
            assert_eq!(decision["behavior"], "allow", "no block is offered at PermissionRequest");
        }
        if let Some(decision) = specific.get("permissionDecision") {
            assert_eq!(name, "PreToolUse", "only PreToolUse takes a permission decision");
            assert!(decision == "deny" || decision == "allow", "{decision}");
        }
        if let Some(context) = specific.get("additionalContext") {
            assert!(support.context, "{name}: context not offered");
            assert_context_sent(name, response, context.as_str().expect("context is a string"), CONTEXT_CAP);
        }
    }
    assert_strings_within_cap(&value, CONTEXT_CAP);
}

memory_testkit::contract_fixtures!(ADAPTER, assert_rules);

/// Every event named in `docs.md` maps as its checklist says, back to its own name, and every
/// answer to it obeys the rules; every event installed is documented.
#[test]
fn docs_checklist_matches_mapping_and_rules() {
    let docs = include_str!("../src/docs.md");
    let checklist = contract::docs_checklist(docs);
    for &(mapped, name) in &checklist {
        let payload = json!({ "session_id": "s-1", "hook_event_name": name }).to_string();
        let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        assert_eq!(event.kind.as_str(), name, "answers name the event as droid does");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 9, "the checklist lists every event droid defines");
    for registration in ADAPTER.hook_events() {
        assert!(
            checklist.iter().any(|(_, n)| *n == registration.name),
            "{} is documented",
            registration.name
        );
    }
}

#[test]
fn the_prompt_is_read() {
    let payload = include_bytes!("fixtures/captured/UserPromptSubmit.prompt.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!((event.kind, event.prompt.as_deref()), (EventKind::UserPromptSubmit, Some("list the files")));
    assert_eq!(event.session.as_str(), "droid:fc34aa85-9658-4507-aae7-ddd69facecd2");
    assert_eq!(event.cwd.as_deref(), Some("/home/user/project"));
}

#[test]
fn execute_is_a_shell_call_with_the_exit_code_its_output_closes_with() {
    let payload = include_bytes!("fixtures/captured/PostToolUse.execute.json");
    let tool = contract::parse(&ADAPTER, payload, &[]).unwrap().tool.unwrap();
    let shell = tool.shell.unwrap();
    assert_eq!((shell.command.as_str(), shell.exit_code, tool.failed), ("ls", Some(0), Some(false)));
    let payload = include_bytes!("fixtures/variants/post_tool_use.execute_exit_1.json");
    let tool = contract::parse(&ADAPTER, payload, &[]).unwrap().tool.unwrap();
    assert_eq!((tool.shell.unwrap().exit_code, tool.failed), (Some(1), Some(true)));
    let payload = include_bytes!("fixtures/captured/PreToolUse.execute_exit_2.json");
    let tool = contract::parse(&ADAPTER, payload, &[]).unwrap().tool.unwrap();
    assert_eq!((tool.shell.unwrap().command.as_str(), tool.failed), ("ls missing-dir", None));
}

#[test]
fn file_tools_name_their_file() {
    for (fixture, action) in [
        (&include_bytes!("fixtures/captured/PostToolUse.read.json")[..], FileAction::Read),
        (&include_bytes!("fixtures/captured/PostToolUse.create.json")[..], FileAction::Edited),
        (&include_bytes!("fixtures/captured/PostToolUse.edit.json")[..], FileAction::Edited),
    ] {
        let tool = contract::parse(&ADAPTER, fixture, &[]).unwrap().tool.unwrap();
        assert_eq!(tool.files.len(), 1, "{}", tool.name);
        assert_eq!(tool.files[0].action, action, "{}", tool.name);
        assert!(tool.files[0].path.starts_with("/home/user/project/"));
        assert_eq!(tool.failed, Some(false));
    }
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
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "droid");
    assert_eq!(ADAPTER.context_cap(), 10_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok(""));
    assert_eq!(ADAPTER.context_file(), None, "context goes in each answer");
    assert!(ADAPTER.support(&EventKind::SessionStart).context);
    assert!(ADAPTER.support(&EventKind::UserPromptSubmit).context);
    assert_eq!(ADAPTER.support(&EventKind::SessionEnd), memory_core::Support::default());
    let prompt = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::with_context("## Notes"));
    assert_eq!(
        prompt.stdout,
        r###"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"## Notes"}}"###
    );
    let block = ADAPTER.render(&EventKind::PreToolUse, &HookResponse::block("no"));
    assert_eq!(
        block.stdout,
        r###"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"###
    );
    let unread = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::block("no"));
    assert_eq!(unread, Rendered::ok(""), "droid reads no decision at UserPromptSubmit");
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
    "message_id",
    "permission_mode",
    "CLAUDE_ENV_FILE",
    "trigger",
    "reason",
    "transcript_path",
    "source",
];
const EVENTS: &[&str] =
    &["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "Nope"];

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
