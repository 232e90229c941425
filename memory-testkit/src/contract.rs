//! The shared part of every harness adapter's contract tests: fixture payloads in, checked events
//! and rendered answers out.
//!
//! An adapter's `tests/contract.rs` keeps what is its own (its output rules, the field names its
//! payloads use, its harness-specific behaviour) and the `insta` snapshot calls, so snapshot names
//! and paths stay in that adapter. Everything else lives here:
//!
//! - [`check_fixture`] parses one fixture file and runs the checks every harness shares, returning
//!   what the adapter snapshots ([`Checked`]);
//! - [`received_at`], [`NOTES`], [`BLOCK_REASON`] and [`responses`] are the fixed inputs;
//! - [`assert_context_sent`] and [`assert_strings_within_cap`] are output rules every harness has,
//!   [`assert_tool_described`] the rule for the harness-neutral description of a tool call;
//! - [`arb_json`] and [`arb_payload`] generate payload-like JSON for property tests.

use std::path::Path;

use chrono::{DateTime, TimeZone, Utc};
use memory_core::{
    Decision, Delivery, EventKind, HarnessAdapter, HookEvent, HookResponse, Rendered, TRUNCATION_MARKER,
    ToolCall,
};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Notes text rendered as context in every fixture's `answers` snapshot.
pub const NOTES: &str =
    "## agent-memory notes\n\n- Run tests with `cargo nextest run`.\n- Prefers small commits.\n";

/// Block reason rendered in every fixture's `answers` snapshot.
pub const BLOCK_REASON: &str = "agent-memory: the prompt contains what looks like an API key";

/// The fixed time every test delivery is received at.
pub fn received_at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

/// Parses a payload delivered at [`received_at`] with the given environment.
pub fn parse(
    adapter: &impl HarnessAdapter,
    payload: &[u8],
    env: &[(String, String)],
) -> memory_core::Result<HookEvent> {
    adapter.parse(&Delivery { payload, received_at: received_at(), env })
}

/// The fail-open fuzz of one payload: it parses, or fails with a one-line error; a parsed event's
/// tool call is described in harness-neutral terms; and every kind of answer (context, a block,
/// both with a user message) renders within `rules`. `Err` says what broke.
pub fn fuzz_payload<A: HarnessAdapter>(
    adapter: &A,
    payload: &[u8],
    context: &str,
    reason: &str,
    rules: impl Fn(&EventKind, &HookResponse, &Rendered),
) -> Result<(), String> {
    let event = match parse(adapter, payload, &[]) {
        Ok(event) => event,
        Err(error) if error.to_string().contains('\n') => {
            return Err(format!("a parse error of more than one line: {error}"));
        }
        Err(_) => return Ok(()),
    };
    if let Some(tool) = &event.tool {
        assert_tool_described(&event.kind, tool);
    }
    let answers = [
        HookResponse::with_context(context),
        HookResponse::block(reason),
        HookResponse {
            context: Some(context.to_owned()),
            decision: memory_core::Decision::Block { reason: reason.to_owned() },
            user_message: Some(reason.to_owned()),
        },
    ];
    for response in answers {
        rules(&event.kind, &response, &adapter.render(&event.kind, &response));
    }
    Ok(())
}

/// An environment from name/value pairs.
pub fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// The answers every event is rendered with: passes, context (normal, huge, blank), blocks (with
/// and without a reason), a user message, an explicit allow, and everything huge at once.
pub fn responses() -> Vec<HookResponse> {
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
pub fn rendered_json(rendered: &Rendered) -> Value {
    let stdout = if rendered.stdout.is_empty() {
        Value::String(String::new())
    } else {
        serde_json::from_str(&rendered.stdout).expect("stdout is JSON")
    };
    json!({ "stdout": stdout, "stderr": rendered.stderr, "exit_code": rendered.exit_code })
}

/// Renders every answer in [`responses`] for an event kind and checks it with `rules`.
#[track_caller]
pub fn assert_all_responses<A: HarnessAdapter>(
    adapter: &A,
    kind: &EventKind,
    rules: impl Fn(&EventKind, &HookResponse, &Rendered),
) {
    for response in responses() {
        rules(kind, &response, &adapter.render(kind, &response));
    }
}

/// What one fixture produced, for the adapter to snapshot.
#[derive(Debug)]
pub enum Checked {
    /// A valid fixture: the normalised event and the answers rendered for it.
    Parsed {
        /// The event.
        event: Box<HookEvent>,
        /// Support flags and the `context` and `block` answers, as JSON.
        answers: Value,
    },
    /// A fixture under `invalid/`: the one-line error.
    Failed(String),
}

/// Parses one fixture and runs the checks every harness shares.
///
/// Files under an `invalid` folder must fail with a one-line `invalid input: <harness> hook
/// payload …` error; every other file must parse into an event of this harness, received at
/// [`received_at`], whose raw payload is the whole file, and every answer in [`responses`] must
/// pass `rules`.
#[track_caller]
pub fn check_fixture<A: HarnessAdapter>(
    adapter: &A,
    path: &Path,
    rules: impl Fn(&EventKind, &HookResponse, &Rendered),
) -> Checked {
    let harness = adapter.harness();
    let payload = std::fs::read(path).expect("fixture is readable");
    let invalid = path.components().any(|c| c.as_os_str() == "invalid");
    match (parse(adapter, &payload, &[]), invalid) {
        (Ok(event), false) => {
            assert_eq!(event.id.as_str().len(), 32);
            assert_eq!(event.occurred_at, received_at(), "{harness} payloads carry no time");
            assert!(event.session.as_str().starts_with(&format!("{harness}:")));
            assert_eq!(event.harness.name, harness);
            let text = std::str::from_utf8(&payload).unwrap();
            let whole: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
            assert_eq!(event.raw, whole, "raw is the whole payload");
            if let Some(tool) = &event.tool {
                assert_tool_described(&event.kind, tool);
            }
            let support = adapter.support(&event.kind);
            let answers = json!({
                "support": { "context": support.context, "block": support.block, "user_message": support.user_message },
                "context": rendered_json(&adapter.render(&event.kind, &HookResponse::with_context(NOTES))),
                "block": rendered_json(&adapter.render(&event.kind, &HookResponse::block(BLOCK_REASON))),
            });
            assert_all_responses(adapter, &event.kind, rules);
            Checked::Parsed { event: Box::new(event), answers }
        }
        (Err(error), true) => {
            let message = error.to_string();
            assert!(!message.contains('\n') && !message.contains('\r'), "one line: {message:?}");
            assert!(message.starts_with(&format!("invalid input: {harness} hook payload ")), "{message}");
            Checked::Failed(message)
        }
        (Ok(event), true) => panic!("{} should not parse, got {:?}", path.display(), event.kind),
        (Err(error), false) => panic!("{} should parse: {error}", path.display()),
    }
}

/// The harness-neutral description of a tool call is consistent: only a result says whether the
/// call failed, a failure event always does, a nonzero exit code is a failure, and commands and
/// paths are not blank.
#[track_caller]
pub fn assert_tool_described(kind: &EventKind, tool: &ToolCall) {
    match kind {
        EventKind::PostToolUseFailure => assert_eq!(tool.failed, Some(true), "a failure event failed"),
        EventKind::PostToolUse => {}
        _ => assert_eq!(tool.failed, None, "{kind}: only a result says whether the call failed"),
    }
    if let Some(shell) = &tool.shell {
        assert!(!shell.command.trim().is_empty(), "a shell call has a command");
        if shell.exit_code.is_some_and(|code| code != 0) {
            assert_eq!(tool.failed, Some(true), "a nonzero exit code is a failure");
        }
    }
    for file in &tool.files {
        assert!(!file.path.trim().is_empty(), "a touched file has a path");
    }
}

/// The events a `docs.md` checklist lists: `(mapped, name)` for every `- [x] `Name`` (mapped)
/// and `- [ ] `Name`` (kept as an other kind) line.
pub fn docs_checklist(docs: &str) -> Vec<(bool, &str)> {
    docs.lines()
        .filter_map(|line| {
            let (mapped, rest) = match line.strip_prefix("- [x] `") {
                Some(rest) => (true, rest),
                None => (false, line.strip_prefix("- [ ] `")?),
            };
            Some((mapped, &rest[..rest.find('`')?]))
        })
        .collect()
}

/// The same delivery gets the same event id; one received a second later gets another.
#[track_caller]
pub fn assert_id_follows_delivery(adapter: &impl HarnessAdapter, payload: &[u8]) {
    let first = parse(adapter, payload, &[]).unwrap();
    assert_eq!(first.id, parse(adapter, payload, &[]).unwrap().id);
    let later = adapter
        .parse(&Delivery { payload, received_at: received_at() + chrono::Duration::seconds(1), env: &[] })
        .unwrap();
    assert_ne!(first.id, later.id);
}

/// A `SessionStart` whose `source` says the conversation was dropped (`compact`, `clear`) does not
/// keep earlier injections; a first start or a resume does.
#[track_caller]
pub fn assert_start_keeps_context_unless_dropped(adapter: &impl HarnessAdapter) {
    for (source, kept) in [("startup", true), ("resume", true), ("compact", false), ("clear", false)] {
        let payload =
            format!(r#"{{"session_id":"s-1","hook_event_name":"SessionStart","source":"{source}"}}"#);
        let event = parse(adapter, payload.as_bytes(), &[]).unwrap();
        assert_eq!(event.context_kept, Some(kept), "decided at parse time, source {source}");
        assert_eq!(adapter.start_keeps_context(&event), kept, "source {source}");
    }
}

/// Context that reached the harness (`sent` is the response's context) is the response's context
/// unchanged when it fits in `cap` characters, and cut with the truncation marker when it does not.
#[track_caller]
pub fn assert_context_sent(name: &str, response: &HookResponse, context: &str, cap: usize) {
    assert!(context.chars().count() <= cap);
    let sent = response.context.as_deref().unwrap_or_default();
    if sent.chars().count() > cap {
        assert!(context.ends_with(TRUNCATION_MARKER), "{name}: truncation is marked");
    } else {
        assert_eq!(context, sent, "{name}: context within the cap is sent unchanged");
    }
}

/// Every string anywhere in `value` is at most `cap` characters long.
#[track_caller]
pub fn assert_strings_within_cap(value: &Value, cap: usize) {
    match value {
        Value::String(s) => assert!(s.chars().count() <= cap, "string over the cap"),
        Value::Array(items) => items.iter().for_each(|item| assert_strings_within_cap(item, cap)),
        Value::Object(map) => map.values().for_each(|item| assert_strings_within_cap(item, cap)),
        _ => {}
    }
}

/// Arbitrary JSON whose object keys are often drawn from `keys` and whose strings are often
/// drawn from `events`, so generated objects reach an adapter's mapping code.
pub fn arb_json(
    keys: &'static [&'static str],
    events: &'static [&'static str],
) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        prop::sample::select(events).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 6, move |inner| {
        let key = prop_oneof![prop::sample::select(keys).prop_map(str::to_owned), "[a-z_]{1,8}"];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A JSON object from [`arb_json`] that carries a `session_field` (a short id) and a
/// `hook_event_name` drawn from `events` unless the generated object already has them.
pub fn arb_payload(
    keys: &'static [&'static str],
    events: &'static [&'static str],
    session_field: &'static str,
) -> impl Strategy<Value = Value> {
    (arb_json(keys, events), prop::sample::select(events), "[a-z0-9-]{0,8}").prop_map(
        move |(extra, event, session)| {
            let mut object = match extra {
                Value::Object(map) => map,
                other => [("extra".to_owned(), other)].into_iter().collect(),
            };
            object.entry(session_field).or_insert(Value::from(session));
            object.entry("hook_event_name").or_insert(Value::from(event));
            Value::Object(object)
        },
    )
}

/// The fixture test of an adapter's contract suite, `fixtures`: every file under the calling test's
/// `fixtures/` folder parsed by `$adapter` ([`check_fixture`]); a valid payload snapshots its event
/// and the answers rendered for it (each checked by `$rules`), an invalid one its one-line error.
/// A macro, so that the snapshots sit beside the test that calls it.
#[macro_export]
macro_rules! contract_fixtures {
    ($adapter:expr, $rules:expr) => {
        #[test]
        fn fixtures() {
            insta::glob!("fixtures/**/*.json", |path| {
                match $crate::contract::check_fixture(&$adapter, path, $rules) {
                    $crate::contract::Checked::Parsed { event, answers } => {
                        insta::assert_json_snapshot!(
                            "event",
                            event,
                            { ".id" => "[id]", ".occurred_at" => "[occurred_at]" }
                        );
                        insta::assert_json_snapshot!("answers", answers);
                    }
                    $crate::contract::Checked::Failed(message) => insta::assert_snapshot!("error", message),
                }
            });
        }
    };
}
