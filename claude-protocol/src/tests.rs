//! The shared payload struct, mapping and renderer, on their own; the adapters' contract tests
//! check them against each harness's rules.

use chrono::{TimeZone, Utc};
use memory_core::{Delivery, EventKind, HookResponse, Rendered, Support};
use serde_json::json;

use crate::{Protocol, render, to_event};

crate::hook_input! {
    /// A payload with one field of its own.
    struct Input {
        #[serde(default)]
        turn_id: Option<String>,
    }
}

fn support(kind: &EventKind) -> Support {
    let context = *kind == EventKind::SessionStart;
    Support { context, block: *kind == EventKind::PreToolUse, user_message: false }
}

const PROTOCOL: Protocol = Protocol::new(support, 100);

fn parse(payload: &str) -> memory_core::Result<memory_core::HookEvent> {
    let (raw, mut input) = memory_core::parse_payload::<Input>("demo", payload.as_bytes())?;
    assert_eq!(input.turn_id.as_deref(), Some("t-1"), "the harness's own fields stay");
    let delivery = Delivery {
        payload: payload.as_bytes(),
        received_at: Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap(),
        env: &[],
    };
    to_event("demo", EventKind::from_name, input.take_common(), raw, &delivery)
}

#[test]
fn common_fields_become_the_event() {
    let payload = json!({
        "session_id": "s-1", "hook_event_name": "PostToolUse", "turn_id": "t-1", "cwd": "/p",
        "model": "", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "a\n",
        "tool_use_id": "call_1"
    });
    let event = parse(&payload.to_string()).unwrap();
    assert_eq!(event.session.as_str(), "demo:s-1");
    assert_eq!(event.kind, EventKind::PostToolUse);
    assert_eq!(event.cwd.as_deref(), Some("/p"));
    assert_eq!(event.model, None, "an empty model is no model");
    let tool = event.tool.unwrap();
    assert_eq!((tool.name.as_str(), tool.use_id.as_deref()), ("Bash", Some("call_1")));
    assert_eq!(tool.output, Some(json!("a\n")));
    assert_eq!(event.context_kept, None, "only a start says");
}

#[test]
fn a_start_says_whether_it_kept_context() {
    for (source, kept) in [("resume", true), ("fork", true), ("compact", false), ("clear", false)] {
        let payload =
            json!({"session_id": "s", "hook_event_name": "SessionStart", "turn_id": "t-1", "source": source});
        assert_eq!(parse(&payload.to_string()).unwrap().context_kept, Some(kept), "{source}");
    }
}

#[test]
fn empty_ids_are_errors() {
    let payload = json!({"session_id": " ", "hook_event_name": "Stop", "turn_id": "t-1"});
    assert_eq!(
        parse(&payload.to_string()).unwrap_err().to_string(),
        "invalid input: demo hook payload has no `session_id`"
    );
}

#[test]
fn renders_only_what_the_event_honours() {
    let notes = HookResponse::with_context("## Notes");
    assert_eq!(
        render(&PROTOCOL, &EventKind::SessionStart, &notes).stdout,
        r###"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"## Notes"}}"###
    );
    assert_eq!(render(&PROTOCOL, &EventKind::Stop, &notes), Rendered::ok(""));
    let deny = render(&PROTOCOL, &EventKind::PreToolUse, &HookResponse::block(""));
    assert_eq!(
        deny.stdout,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by agent-memory."}}"#
    );
}
