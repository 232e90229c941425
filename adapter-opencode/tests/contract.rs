//! Contract tests for the OpenCode adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/`, what our plugin
//! sent from real OpenCode 1.18.33 runs, and `variants/` for edge cases) snapshot the normalised
//! event and the answers rendered for it; files under `invalid/` snapshot the one-line error. Every
//! rendered answer is also checked against what the plugin reads.

use adapter_opencode::{CONTEXT_CAP, OpenCodeAdapter};
use memory_core::{EventKind, FileAction, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{self, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: OpenCodeAdapter = OpenCodeAdapter;

/// Checks one answer against what the plugin reads: exit 0, stdout empty or one JSON object with
/// only `context` (where offered) and `block` (at PreToolUse), never empty strings.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
    let support = ADAPTER.support(kind);
    assert_eq!(rendered.exit_code, 0, "{name}: always exit 0");
    assert!(rendered.stderr.is_empty(), "{name}: nothing on stderr");
    if rendered.stdout.is_empty() {
        return;
    }
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is one JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    assert!(!object.is_empty(), "{name}: an empty answer prints nothing");
    for key in object.keys() {
        assert!(["context", "block"].contains(&key.as_str()), "{name}: key {key}");
    }
    if let Some(context) = object.get("context") {
        assert!(support.context, "{name}: context not offered");
        assert_context_sent(name, response, context.as_str().expect("context is a string"), CONTEXT_CAP);
    }
    if let Some(block) = object.get("block") {
        assert_eq!(*kind, EventKind::PreToolUse, "only a tool call is blocked");
        assert!(block.as_str().is_some_and(|r| !r.trim().is_empty()), "{name}: a reason");
    }
    assert_strings_within_cap(&value, CONTEXT_CAP);
}

memory_testkit::contract_fixtures!(ADAPTER, assert_rules);

/// Every event named in `docs.md` maps as its checklist says and every answer to it obeys the
/// rules; every event the plugin forwards is documented, and the plugin forwards it.
#[test]
fn docs_checklist_matches_mapping_plugin_and_rules() {
    let docs = include_str!("../src/docs.md");
    let plugin = adapter_opencode::plugin_source("agent-memory");
    let checklist = contract::docs_checklist(docs);
    for &(mapped, name) in &checklist {
        let payload = json!({ "session_id": "ses_1", "hook_event_name": name }).to_string();
        let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        assert!(plugin.contains(&format!("\"{name}\"")), "the plugin forwards {name}");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), ADAPTER.hook_events().len(), "every forwarded event is documented once");
    for registration in ADAPTER.hook_events() {
        assert!(
            checklist.iter().any(|(_, n)| *n == registration.name),
            "{} is documented",
            registration.name
        );
    }
}

#[test]
fn the_prompt_is_the_users_own_text() {
    let payload = include_bytes!("fixtures/captured/chat.message.prompt.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::UserPromptSubmit);
    assert_eq!(event.prompt.as_deref(), Some("\"Run ls for me\""));
    assert_eq!(event.model.as_deref(), Some("local/scripted"));
    assert_eq!(event.cwd.as_deref(), Some("/tmp/ocx/proj"));
    let payload = include_bytes!("fixtures/variants/chat.message.with_file.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(
        event.prompt.as_deref(),
        Some("Fix the failing test in @src/lib.rs"),
        "synthetic and ignored parts left out"
    );
}

#[test]
fn a_shell_command_that_exited_nonzero_is_a_failure_with_its_exit_code() {
    let payload = include_bytes!("fixtures/captured/tool.execute.after.bash_exit_2.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUseFailure);
    let tool = event.tool.unwrap();
    let shell = tool.shell.unwrap();
    assert_eq!((shell.command.as_str(), shell.exit_code), ("ls missing-dir", Some(2)));
    assert_eq!(tool.use_id.as_deref(), Some("call_1"));
    assert_eq!(tool.failed, Some(true));
    assert!(tool.error.unwrap().contains("No such file"));
    let payload = include_bytes!("fixtures/captured/tool.execute.after.bash.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUse);
    let tool = event.tool.unwrap();
    assert_eq!((tool.failed, tool.shell.unwrap().exit_code), (Some(false), Some(0)));
    assert_eq!(tool.output, Some(json!("README.md\n")));
}

#[test]
fn a_failed_tool_part_is_a_failure_with_its_error() {
    let payload = include_bytes!("fixtures/captured/tool.failed.read_missing_file.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUseFailure);
    let tool = event.tool.unwrap();
    assert_eq!((tool.name.as_str(), tool.use_id.as_deref()), ("read", Some("call_2")));
    assert_eq!(tool.error.as_deref(), Some("File not found: /tmp/ocx/proj/nope.txt"));
    assert_eq!(tool.files[0].action, FileAction::Read);
    assert_eq!(tool.duration_ms, Some(249));
    let payload = include_bytes!("fixtures/captured/tool.failed.blocked.json");
    let tool = contract::parse(&ADAPTER, payload, &[]).unwrap().tool.unwrap();
    assert_eq!(tool.error.as_deref(), Some("agent-memory: this command is not allowed here"));
}

/// A session this process did not create gets its notes again: the plugin's notes are never saved
/// in the session.
#[test]
fn a_continued_session_starts_again_without_its_notes() {
    let payload = include_bytes!("fixtures/captured/session.continued.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::SessionStart);
    assert!(!ADAPTER.start_keeps_context(&event));
    let payload = include_bytes!("fixtures/captured/session.created.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::SessionStart);
    assert_eq!(event.session.as_str(), "opencode:ses_dbc8cf53effekTG06UbIVDdN1a");
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    let payload = br#"{"session_id":"ses_1","hook_event_name":"session.idle"}"#;
    contract::assert_id_follows_delivery(&ADAPTER, payload);
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "opencode");
    assert_eq!(ADAPTER.context_cap(), 10_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok(""));
    assert_eq!(ADAPTER.context_file(), None, "context goes in each answer");
    assert_eq!(ADAPTER.support(&EventKind::Stop), memory_core::Support::default());
    let prompt = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::with_context("## Notes"));
    assert_eq!(prompt.stdout, r###"{"context":"## Notes"}"###);
    let block = ADAPTER.render(&EventKind::PreToolUse, &HookResponse::block("no"));
    assert_eq!(block.stdout, r#"{"block":"no"}"#);
    let ignored = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::block("no"));
    assert_eq!(ignored.stdout, "", "no prompt is blocked");
}

/// Field names the generated payloads draw from, so generated objects reach the mapping code.
const KEYS: &[&str] = &[
    "session_id",
    "hook_event_name",
    "directory",
    "input",
    "output",
    "parts",
    "type",
    "text",
    "tool",
    "callID",
    "args",
    "command",
    "metadata",
    "exit",
    "properties",
    "part",
    "state",
    "error",
];
const EVENTS: &[&str] = &[
    "session.created",
    "chat.message",
    "tool.execute.before",
    "tool.execute.after",
    "tool.failed",
    "session.idle",
    "nope",
];

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
