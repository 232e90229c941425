//! `<private>` regions: removed on every path, whatever their case, nesting or closing.

use serde_json::json;

use super::super::Redactor;
use super::{assert_no_leak, tool_event};

#[test]
fn a_private_region_becomes_a_marker() {
    let r = Redactor::new();
    assert_eq!(
        r.redact_text("deploy <private>to the staging box at 10.0.0.7</private> now"),
        "deploy [private] now"
    );
}

#[test]
fn tags_match_whatever_their_case_and_span_lines() {
    let r = Redactor::new();
    let text = "a <PRIVATE>line one\nline two\n</Private > b <private >c</PRIVATE> d";
    assert_eq!(r.redact_text(text), "a [private] b [private] d");
    assert_eq!(r.totals().get("private"), 2);
}

#[test]
fn an_unclosed_region_runs_to_the_end() {
    let r = Redactor::new();
    assert_eq!(
        r.redact_text("keep this <private>my home address is 1 Main St\nand more"),
        "keep this [private]"
    );
}

#[test]
fn nested_regions_end_at_the_matching_close() {
    let r = Redactor::new();
    let text = "a <private>x <private>y</private> still hidden</private> b";
    assert_eq!(r.redact_text(text), "a [private] b");
}

#[test]
fn a_stray_closing_tag_is_left_alone() {
    let r = Redactor::new();
    let text = "a </private> b";
    assert_eq!(r.redact_text(text), text);
}

#[test]
fn lookalike_tags_are_not_private() {
    let r = Redactor::new();
    let text = "<privateer> and <private-data> and <priv> stay";
    assert_eq!(r.redact_text(text), text);
}

#[test]
fn private_regions_are_removed_from_every_field_of_an_event() {
    let r = Redactor::new();
    let hidden = "the launch codes are 0000 and the safe is behind the painting";
    let text = format!("summary <private>{hidden}</private> done");
    let mut event = tool_event(&text, json!({"stdout": text, "stderr": ""}), Some(&text));
    if let serde_json::Value::Object(raw) = &mut event.raw {
        raw.insert("last_assistant_message".to_owned(), json!(format!("ok <private>{hidden}")));
    }
    r.redact_event(&mut event, 64 * 1024);
    assert_no_leak(&event, hidden, "private region");
    assert_eq!(event.prompt.as_deref(), Some("summary [private] done"));
    assert_eq!(event.raw["last_assistant_message"], json!("ok [private]"));
}
