//! Contract tests for the Claude Code adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! Claude Code runs, `docs/` shaped after the hooks reference, `variants/` for edge cases) snapshot
//! the normalised event and the answers rendered for it; files under `invalid/` snapshot the
//! one-line error. Every rendered answer is also checked against Claude Code's output rules.
//! The checks every harness shares live in `memory_testkit::contract`; this file keeps the ones
//! that are this harness's own.

use adapter_claude::{CONTEXT_CAP, ClaudeAdapter};
use memory_core::{Delivery, EventKind, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{
    self, arb_json, arb_payload, assert_context_sent, assert_strings_within_cap, env,
};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: ClaudeAdapter = ClaudeAdapter;

/// Top-level output keys Claude Code accepts on any event.
const TOP_LEVEL_KEYS: &[&str] = &[
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
];

/// `hookSpecificOutput` keys per event (hooks reference, "Event-specific output").
const SPECIFIC_KEYS: &[(&str, &[&str])] = &[
    (
        "SessionStart",
        &[
            "hookEventName",
            "additionalContext",
            "initialUserMessage",
            "sessionTitle",
            "watchPaths",
            "reloadSkills",
        ],
    ),
    ("UserPromptSubmit", &["hookEventName", "additionalContext", "sessionTitle"]),
    ("UserPromptExpansion", &["hookEventName", "additionalContext"]),
    ("Setup", &["hookEventName", "additionalContext"]),
    ("SubagentStart", &["hookEventName", "additionalContext"]),
    (
        "PreToolUse",
        &[
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
    ),
    ("PermissionRequest", &["hookEventName", "decision"]),
    ("PostToolUse", &["hookEventName", "additionalContext", "updatedToolOutput", "updatedMCPToolOutput"]),
    ("PostToolUseFailure", &["hookEventName", "additionalContext"]),
    ("PostToolBatch", &["hookEventName", "additionalContext"]),
    ("Stop", &["hookEventName", "additionalContext"]),
    ("SubagentStop", &["hookEventName", "additionalContext"]),
];

/// Events that accept a top-level `decision: "block"`.
const BLOCK_EVENTS: &[&str] = &[
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PostToolUse",
    "PostToolBatch",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "ConfigChange",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
];

/// Checks one answer against Claude Code's documented output rules.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
    let support = ADAPTER.support(kind);
    assert_eq!(rendered.exit_code, 0, "{name}: JSON is printed only with exit 0");
    assert!(rendered.stderr.is_empty(), "{name}: nothing on stderr");
    if rendered.stdout.is_empty() {
        return;
    }
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is one JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    assert!(!object.is_empty(), "{name}: an empty answer prints nothing");
    for key in object.keys() {
        assert!(TOP_LEVEL_KEYS.contains(&key.as_str()), "{name}: unexpected key {key}");
    }
    if let Some(decision) = object.get("decision") {
        assert_eq!(decision, "block");
        assert!(support.block && BLOCK_EVENTS.contains(&name), "{name}: no top-level decision here");
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
        let allowed = SPECIFIC_KEYS
            .iter()
            .find(|(event, _)| *event == name)
            .unwrap_or_else(|| panic!("{name}: no hookSpecificOutput for this event"))
            .1;
        for key in specific.keys() {
            assert!(allowed.contains(&key.as_str()), "{name}: hookSpecificOutput.{key} not accepted");
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
        assert_eq!(event.kind.as_str(), name, "Claude names are the normalised names");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 31, "the checklist lists every documented event");
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
        "tool_response": { "stdout": stdout, "stderr": "" },
        "tool_use_id": "toolu_1",
    })
    .to_string();
    let event = contract::parse(&ADAPTER, payload.as_bytes(), &[]).unwrap();
    let tool = event.tool.unwrap();
    assert_eq!(tool.output.unwrap()["stdout"].as_str().unwrap().len(), 5 * 1024 * 1024);
    assert_eq!(tool.use_id.as_deref(), Some("toolu_1"));
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
fn cursor_running_claude_hooks_is_detected() {
    let payload = std::fs::read("tests/fixtures/captured/UserPromptSubmit.print.json").unwrap();
    let claude_env = env(&[("CLAUDECODE", "1"), ("CLAUDE_PROJECT_DIR", "/p")]);
    let cursor_env = env(&[("CURSOR_VERSION", "3.18.25"), ("CLAUDE_PROJECT_DIR", "/p")]);
    let claude_in_cursor_terminal = env(&[("CLAUDECODE", "1"), ("CURSOR_VERSION", "3.18.25")]);
    let by = |payload: &[u8], env: &[(String, String)]| {
        ADAPTER.invoked_by_other(&Delivery { payload, received_at: contract::received_at(), env })
    };
    assert_eq!(by(&payload, &claude_env), None);
    assert_eq!(by(&payload, &[]), None);
    assert_eq!(by(&payload, &cursor_env), Some("cursor"));
    assert_eq!(by(&payload, &env(&[("CURSOR_PROJECT_DIR", "/p")])), Some("cursor"));
    assert_eq!(by(&payload, &claude_in_cursor_terminal), None);
    let cursor_payload = br#"{"conversation_id":"c","generation_id":"g","hook_event_name":"stop"}"#;
    assert_eq!(by(cursor_payload, &[]), Some("cursor"));
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "claude");
    assert_eq!(ADAPTER.context_cap(), 10_000);
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
    "duration_ms",
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
        let _ = ADAPTER.invoked_by_other(&Delivery { payload: &bytes, received_at: contract::received_at(), env: &[] });
    }

    #[test]
    fn arbitrary_json_never_panics(value in prop_oneof![arb_json(KEYS, EVENTS), arb_payload(KEYS, EVENTS, "session_id")], context in ".{0,64}", reason in ".{0,64}") {
        let checked = contract::fuzz_payload(&ADAPTER, value.to_string().as_bytes(), &context, &reason, assert_rules);
        prop_assert_eq!(checked, Ok(()));
    }
}
