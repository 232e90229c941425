//! Contract tests for the Cline adapter: fixture payloads in, insta snapshots out.
//!
//! Every file under `fixtures/` goes through [`check`]. Valid payloads (`captured/` from real
//! Cline CLI 3.0.65 runs, `variants/` for the documented shape and events a one-shot run does not
//! fire) snapshot the normalised event and the answers rendered for it; files under `invalid/`
//! snapshot the one-line error. Every rendered answer is also checked against Cline's output
//! rules. The checks every harness shares live in `memory_testkit::contract`.

use adapter_cline::{CONTEXT_CAP, ClineAdapter, RULES_FILE};
use memory_core::{EventKind, HarnessAdapter, HookResponse, Rendered};
use memory_testkit::contract::{self, arb_json, assert_context_sent, assert_strings_within_cap};
use proptest::prelude::*;
use serde_json::{Value, json};

const ADAPTER: ClineAdapter = ClineAdapter;

/// Checks one answer against Cline's output rules: exit 0, stdout empty or one JSON object with
/// only `cancel` (always `true`, with an `errorMessage`), `contextModification` and `errorMessage`.
#[track_caller]
fn assert_rules(kind: &EventKind, response: &HookResponse, rendered: &Rendered) {
    let name = kind.as_str();
    let support = ADAPTER.support(kind);
    assert_eq!(rendered.exit_code, 0, "{name}: answers always exit 0");
    if rendered.stdout.is_empty() {
        return;
    }
    let value: Value = serde_json::from_str(&rendered.stdout).expect("stdout is one JSON object");
    let object = value.as_object().expect("stdout is a JSON object");
    assert!(!object.is_empty(), "{name}: an empty answer prints nothing");
    for key in object.keys() {
        assert!(
            ["cancel", "contextModification", "errorMessage"].contains(&key.as_str()),
            "{name}: key {key}"
        );
    }
    if let Some(cancel) = object.get("cancel") {
        assert_eq!(cancel, &json!(true), "{name}: cancel is only ever printed true");
        assert!(support.block, "{name}: block not offered");
        assert!(object["errorMessage"].as_str().is_some_and(|r| !r.trim().is_empty()), "{name}: a reason");
        assert!(object.get("contextModification").is_none(), "{name}: Cline drops context on cancel");
    } else {
        assert!(object.get("errorMessage").is_none(), "{name}: errorMessage without cancel is context");
    }
    if let Some(context) = object.get("contextModification") {
        assert!(support.context, "{name}: context not offered");
        assert_context_sent(name, response, context.as_str().expect("context is a string"), CONTEXT_CAP);
    }
    assert_strings_within_cap(&value, CONTEXT_CAP);
}

memory_testkit::contract_fixtures!(ADAPTER, assert_rules);

/// A payload of `name` with the fields every Cline payload carries.
fn payload(name: &str) -> String {
    json!({ "hookName": name, "taskId": "conv_1", "sessionContext": { "rootSessionId": "s-1" },
            "workspaceRoots": ["/home/user/project"] })
    .to_string()
}

/// Every event named in `docs.md` maps as its checklist says, under both of its names, and every
/// answer to it obeys the rules; every hook file installed is documented.
#[test]
fn docs_checklist_matches_mapping_and_rules() {
    let docs = include_str!("../src/docs.md");
    let checklist = contract::docs_checklist(docs);
    for &(mapped, name) in &checklist {
        let event = contract::parse(&ADAPTER, payload(name).as_bytes(), &[]).unwrap();
        assert_eq!(!matches!(event.kind, EventKind::Other(_)), mapped, "{name}");
        let wire = docs
            .lines()
            .find(|l| l.contains(&format!("`{name}` (")))
            .and_then(|l| l.split("(`").nth(1))
            .and_then(|l| l.split('`').next())
            .unwrap_or_else(|| panic!("{name} has its CLI name in docs.md"));
        assert_eq!(ClineAdapter::file_name(wire), name);
        let by_wire = contract::parse(&ADAPTER, payload(wire).as_bytes(), &[]).unwrap();
        assert_eq!(by_wire.kind, event.kind, "{wire} and {name} are one event");
        contract::assert_all_responses(&ADAPTER, &event.kind, assert_rules);
    }
    assert_eq!(checklist.len(), 10, "the checklist lists every hook file Cline knows");
    for registration in ADAPTER.hook_events() {
        assert!(
            checklist.iter().any(|(_, n)| *n == registration.name),
            "{} is documented",
            registration.name
        );
    }
}

#[test]
fn the_session_is_the_root_session_and_the_project_the_workspace() {
    let event =
        contract::parse(&ADAPTER, include_bytes!("fixtures/captured/TaskStart.startup.json"), &[]).unwrap();
    assert_eq!(event.session.as_str(), "cline:1796427988543_i4s3s");
    assert_eq!(event.cwd.as_deref(), Some("/home/user/project"));
    assert_eq!((event.kind, event.context_kept), (EventKind::SessionStart, None));
    let documented = contract::parse(
        &ADAPTER,
        include_bytes!("fixtures/variants/user_prompt_submit.documented.json"),
        &[],
    )
    .unwrap();
    assert_eq!(documented.session.as_str(), "cline:1786629001999", "taskId without a session context");
    assert_eq!(documented.prompt.as_deref(), Some("Why does the retry loop double the backoff twice?"));
    assert_eq!(documented.harness.version.as_deref(), Some("3.30.0"));
    let resume =
        contract::parse(&ADAPTER, include_bytes!("fixtures/variants/task_resume.cli.json"), &[]).unwrap();
    assert_eq!((resume.kind, resume.context_kept), (EventKind::SessionStart, Some(true)));
}

#[test]
fn a_command_that_exited_nonzero_is_a_failure_with_its_exit_code() {
    let payload = include_bytes!("fixtures/captured/PostToolUse.run_commands_exit_2.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUseFailure);
    let tool = event.tool.unwrap();
    let shell = tool.shell.unwrap();
    assert_eq!((shell.command.as_str(), shell.exit_code), ("ls missing-dir", Some(2)));
    assert_eq!((tool.failed, tool.duration_ms), (Some(true), Some(42)));
    assert!(tool.error.unwrap().contains("No such file"));
    let payload = include_bytes!("fixtures/captured/PostToolUse.run_commands.json");
    let event = contract::parse(&ADAPTER, payload, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUse);
    let tool = event.tool.unwrap();
    assert_eq!((tool.failed, tool.shell.unwrap().command.as_str()), (Some(false), "git status --short"));
    let aborted = include_bytes!("fixtures/captured/PostToolUse.run_commands_aborted.json");
    let tool = contract::parse(&ADAPTER, aborted, &[]).unwrap().tool.unwrap();
    assert_eq!(
        (tool.failed, tool.error.as_deref()),
        (Some(true), Some("Command failed: Command was aborted"))
    );
}

#[test]
fn files_read_and_edited() {
    let read = include_bytes!("fixtures/captured/PostToolUse.read_files.json");
    let tool = contract::parse(&ADAPTER, read, &[]).unwrap().tool.unwrap();
    assert_eq!(tool.files.len(), 1);
    assert_eq!(tool.files[0].path, "/home/user/project/notes.txt");
    assert_eq!(tool.files[0].action, memory_core::FileAction::Read);
    let edit = include_bytes!("fixtures/captured/PreToolUse.editor.json");
    let tool = contract::parse(&ADAPTER, edit, &[]).unwrap().tool.unwrap();
    assert_eq!(tool.files[0].action, memory_core::FileAction::Edited);
    let documented = include_bytes!("fixtures/variants/post_tool_use.documented_failure.json");
    let event = contract::parse(&ADAPTER, documented, &[]).unwrap();
    assert_eq!(event.kind, EventKind::PostToolUseFailure);
    assert_eq!(event.tool.unwrap().shell.unwrap().command, "cargo test");
}

#[test]
fn same_delivery_same_id_and_different_time_different_id() {
    contract::assert_id_follows_delivery(&ADAPTER, payload("agent_end").as_bytes());
}

#[test]
fn harness_facts() {
    assert_eq!(ADAPTER.harness(), "cline");
    assert_eq!(ADAPTER.context_cap(), 10_000);
    assert_eq!(ADAPTER.render_noop(), Rendered::ok(""));
    assert_eq!(ADAPTER.context_file(), Some(RULES_FILE));
    assert!(ADAPTER.render_context_file("## Notes\n- x").contains("## Notes\n- x"));
    assert!(!ADAPTER.support(&EventKind::SessionStart).context, "TaskStart runs detached");
    assert!(!ADAPTER.support(&EventKind::UserPromptSubmit).context, "UserPromptSubmit runs detached");
    assert!(ADAPTER.support(&EventKind::PreToolUse).context);
    let context = ADAPTER.render(&EventKind::PreToolUse, &HookResponse::with_context("## Notes"));
    assert_eq!(context.stdout, r###"{"contextModification":"## Notes"}"###);
    let block = ADAPTER.render(&EventKind::PreToolUse, &HookResponse::block("no"));
    assert_eq!(block.stdout, r#"{"cancel":true,"errorMessage":"no"}"#);
    assert_eq!(ADAPTER.render(&EventKind::SessionStart, &HookResponse::with_context("x")).stdout, "");
}

/// Field names the generated payloads draw from, so generated objects reach the mapping code.
const KEYS: &[&str] = &[
    "hookName",
    "taskId",
    "sessionContext",
    "rootSessionId",
    "workspaceRoots",
    "workspaceInfo",
    "rootPath",
    "tool_call",
    "tool_result",
    "name",
    "input",
    "output",
    "commands",
    "success",
    "error",
    "durationMs",
    "preToolUse",
    "postToolUse",
    "toolName",
    "parameters",
    "userPromptSubmit",
    "prompt",
];
const EVENTS: &[&str] = &[
    "agent_start",
    "tool_call",
    "tool_result",
    "prompt_submit",
    "TaskStart",
    "PostToolUse",
    "run_commands",
    "Nope",
];

/// A JSON object from [`arb_json`] that carries a `hookName` and a `taskId` unless it has them.
fn arb_payload() -> impl Strategy<Value = Value> {
    (arb_json(KEYS, EVENTS), prop::sample::select(EVENTS), "[a-z0-9-]{0,8}").prop_map(
        |(extra, event, task)| {
            let mut object = match extra {
                Value::Object(map) => map,
                other => [("extra".to_owned(), other)].into_iter().collect(),
            };
            object.entry("taskId").or_insert(Value::from(task));
            object.entry("hookName").or_insert(Value::from(event));
            Value::Object(object)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Err(error) = contract::parse(&ADAPTER, &bytes, &[]) {
            prop_assert!(!error.to_string().contains('\n'));
        }
    }

    #[test]
    fn arbitrary_json_never_panics(value in prop_oneof![arb_json(KEYS, EVENTS), arb_payload()], context in ".{0,64}", reason in ".{0,64}") {
        let checked = contract::fuzz_payload(&ADAPTER, value.to_string().as_bytes(), &context, &reason, assert_rules);
        prop_assert_eq!(checked, Ok(()));
    }
}
