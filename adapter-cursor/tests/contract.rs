//! Contract tests for the Cursor adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`docs/` shaped after the hooks reference, `variants/`
//! for edge cases and other builds; Cursor has no CLI to capture from here) snapshot
//! the normalised event and the answers rendered for it; files under `invalid/` snapshot the
//! one-line error. Every rendered answer is also checked against Cursor's output rules.
//! The checks every harness shares live in `memory_testkit::contract`; this file keeps the ones
//! that are this harness's own.

use adapter_cursor::{CONTEXT_CAP, CursorAdapter, RULES_FILE};
use memory_core::{Decision, EventKind, HarnessAdapter, HookResponse, Rendered, TRUNCATION_MARKER};
use memory_testkit::contract::{
    self, NOTES, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap, env,
};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: CursorAdapter = CursorAdapter;

/// Output fields Cursor accepts per kind, from the hooks reference ("Events"). A kind shared by
/// several Cursor events lists only what all of them accept; a kind not listed accepts only `{}`.
const ALLOWED: &[(&str, &[&str])] = &[
    ("SessionStart", &["env", "additional_context", "continue", "user_message"]),
    ("UserPromptSubmit", &["continue", "user_message"]),
    ("PreToolUse", &["permission", "user_message", "agent_message", "updated_input"]),
    ("SubagentStart", &["permission", "user_message"]),
    ("SubagentStop", &["followup_message"]),
    ("Stop", &["followup_message"]),
    ("PreCompact", &["user_message"]),
    ("beforeReadFile", &["permission", "user_message"]),
    ("beforeTabFileRead", &["permission"]),
];

/// Checks one answer against Cursor's documented output rules.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
    let support = ADAPTER.support(kind);
    assert_eq!(rendered.exit_code, 0, "{name}: answers exit 0");
    assert!(rendered.stderr.is_empty(), "{name}: nothing on stderr");
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is always a JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    let allowed = ALLOWED.iter().find(|(event, _)| *event == name).map_or(&[][..], |(_, keys)| *keys);
    for key in object.keys() {
        assert!(allowed.contains(&key.as_str()), "{name}: Cursor does not read {key}");
    }
    if name == "UserPromptSubmit" {
        let go = object["continue"].as_bool().expect("beforeSubmitPrompt always answers continue");
        let blocked = matches!(response.decision, Decision::Block { .. });
        assert_eq!(go, !blocked, "{name}: continue is false exactly on a block");
        if !go {
            assert!(object["user_message"].as_str().is_some_and(|m| !m.trim().is_empty()));
        } else {
            assert_eq!(object.len(), 1, "{name}: a pass is just continue: true");
        }
    }
    if let Some(permission) = object.get("permission") {
        assert!(permission == "allow" || permission == "deny", "{name}: permission {permission}");
        if permission == "deny" {
            assert!(support.block);
        }
    }
    if object.contains_key("followup_message") {
        assert!(support.block, "{name}: follow-up only on a block");
    }
    if let Some(context) = object.get("additional_context") {
        assert_eq!(name, "SessionStart", "additional_context only on sessionStart");
        assert!(support.context);
        let context = context.as_str().expect("additional_context is a string");
        assert_context_sent(name, response, context, CONTEXT_CAP);
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
        let payload = json!({ "conversation_id": "c-1", "hook_event_name": name }).to_string();
        let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 21, "the checklist lists every documented event");
}

/// A 5 MB tool output is kept whole (the hook runtime caps what it stores).
#[test]
fn huge_tool_output() {
    let output = "x".repeat(5 * 1024 * 1024);
    let payload = json!({
        "conversation_id": "c-1",
        "hook_event_name": "postToolUse",
        "tool_name": "Shell",
        "tool_input": { "command": "yes x | head -c 5M" },
        "tool_output": output,
        "tool_use_id": "tool_1",
    })
    .to_string();
    let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
    let tool = event.tool.unwrap();
    assert_eq!(tool.output.unwrap().as_str().unwrap().len(), 5 * 1024 * 1024);
    assert_eq!(tool.use_id.as_deref(), Some("tool_1"));
}

/// Cursor reports a shell command in its generic tool events and again in its shell events; only
/// the generic ones describe the command, so it is counted once.
#[test]
fn a_shell_command_is_described_once() {
    let tool = |path: &str| {
        let payload = std::fs::read(path).unwrap();
        contract::parse(&ADAPTER, &payload, &[]).unwrap().tool.unwrap()
    };
    let generic = tool("tests/fixtures/docs/post_tool_use.shell.json");
    let shell = generic.shell.expect("the generic event describes the command");
    assert_eq!((shell.command.as_str(), shell.exit_code), ("cargo test -p http-client retry", Some(0)));
    assert_eq!(generic.failed, Some(false));
    for path in [
        "tests/fixtures/docs/after_shell_execution.json",
        "tests/fixtures/variants/before_shell_execution.json",
    ] {
        let again = tool(path);
        assert_eq!((again.name.as_str(), again.shell, again.failed), ("Shell", None, None), "{path}");
    }
    let payload = json!({
        "conversation_id": "c-1",
        "hook_event_name": "postToolUse",
        "tool_name": "Shell",
        "tool_input": { "command": "cargo build" },
        "tool_output": "{\"exitCode\":101,\"stdout\":\"\",\"stderr\":\"error[E0425]: cannot find value\"}",
    })
    .to_string();
    let failed = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap().tool.unwrap();
    assert_eq!(failed.shell.and_then(|s| s.exit_code), Some(101));
    assert_eq!(failed.failed, Some(true));
    assert_eq!(failed.error.as_deref(), Some("error[E0425]: cannot find value"));
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    let payload = br#"{"conversation_id":"c-1","hook_event_name":"stop"}"#;
    contract::assert_id_follows_delivery(&ADAPTER, payload);
}

#[test]
fn version_comes_from_the_payload_or_the_environment() {
    let with = br#"{"conversation_id":"c-1","hook_event_name":"stop","cursor_version":"3.18.25"}"#;
    let without = br#"{"conversation_id":"c-1","hook_event_name":"stop"}"#;
    let cursor_env = env(&[("CURSOR_VERSION", "3.20.0")]);
    assert_eq!(
        contract::parse(&ADAPTER, with, &cursor_env).unwrap().harness.version.as_deref(),
        Some("3.18.25")
    );
    assert_eq!(
        contract::parse(&ADAPTER, without, &cursor_env).unwrap().harness.version.as_deref(),
        Some("3.20.0")
    );
    assert_eq!(contract::parse(&ADAPTER, without, &[]).unwrap().harness.version, None);
}

#[test]
fn conversation_id_keys_the_session() {
    let both = br#"{"conversation_id":"c-1","session_id":"s-1","hook_event_name":"stop"}"#;
    assert_eq!(contract::parse(&ADAPTER, both, &[]).unwrap().session.as_str(), "cursor:c-1");
    let session_only = br#"{"session_id":"s-1","hook_event_name":"sessionEnd"}"#;
    assert_eq!(contract::parse(&ADAPTER, session_only, &[]).unwrap().session.as_str(), "cursor:s-1");
}

#[test]
fn rules_file_is_an_always_apply_rule_within_the_cap() {
    assert_eq!(RULES_FILE, ".cursor/rules/agent-memory.mdc");
    assert_eq!(ADAPTER.context_file(), Some(RULES_FILE));
    let rule = ADAPTER.render_context_file(NOTES);
    assert_eq!(ADAPTER.render_context_file(NOTES), rule);
    assert!(rule.starts_with("---\n"));
    let (front, body) = rule[4..].split_once("\n---\n").unwrap();
    assert!(front.lines().any(|l| l == "alwaysApply: true"), "{front}");
    assert!(front.lines().any(|l| l.starts_with("description: ")), "{front}");
    assert_eq!(body.trim(), NOTES.trim());
    let huge = ADAPTER.render_context_file(&"remember this word ".repeat(10_000));
    let (_, body) = huge[4..].split_once("\n---\n").unwrap();
    assert!(body.trim_start().chars().count() <= CONTEXT_CAP + 1);
    assert!(body.trim().ends_with(TRUNCATION_MARKER.trim()));
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "cursor");
    assert_eq!(ADAPTER.context_cap(), 8_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok("{}"));
    assert!(ADAPTER.support(&EventKind::SessionStart).context);
    assert!(!ADAPTER.support(&EventKind::UserPromptSubmit).context, "beforeSubmitPrompt takes no context");
    let pass = ADAPTER.render(&EventKind::UserPromptSubmit, &HookResponse::with_context(NOTES));
    assert_eq!(pass.stdout, r#"{"continue":true}"#);
    assert_eq!(ADAPTER.render(&EventKind::PostToolUse, &HookResponse::with_context(NOTES)).stdout, "{}");
    assert_eq!(ADAPTER.support(&EventKind::SessionEnd), memory_core::Support::default());
}

/// Field names the generated payloads draw from, so generated objects reach the mapping code.
const KEYS: &[&str] = &[
    "conversation_id",
    "session_id",
    "workspace_roots",
    "tool_output",
    "command",
    "output",
    "result_json",
    "cursor_version",
    "hook_event_name",
    "cwd",
    "prompt",
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_use_id",
    "error",
    "duration",
    "model",
    "transcript_path",
    "source",
];
const EVENTS: &[&str] = &[
    "sessionStart",
    "beforeSubmitPrompt",
    "preToolUse",
    "postToolUse",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "afterFileEdit",
    "stop",
    "workspaceOpen",
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
    fn arbitrary_json_never_panics(value in prop_oneof![arb_json(KEYS, EVENTS), arb_payload(KEYS, EVENTS, "conversation_id")], context in ".{0,64}", reason in ".{0,64}") {
        let checked = contract::fuzz_payload(&ADAPTER, value.to_string().as_bytes(), &context, &reason, assert_rules);
        prop_assert_eq!(checked, Ok(()));
    }
}
