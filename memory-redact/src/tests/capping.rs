//! Tool output caps and transcript copies.

use serde_json::{Value, json};

use super::super::{Redactor, cap};
use super::{ALNUM, Fake, assert_no_leak, cat, tool_event};

fn output_len(value: &Value) -> usize {
    match value {
        Value::String(s) => s.len(),
        Value::Array(items) => items.iter().map(output_len).sum(),
        Value::Object(map) => map.values().map(output_len).sum(),
        _ => 0,
    }
}

#[test]
fn a_long_string_output_is_cut_with_a_marker_in_both_copies() {
    let r = Redactor::new();
    let line = "test retry::doubles_once ... ok\n";
    let long = line.repeat(1000);
    let mut event = tool_event("cargo test", json!(long), None);
    let counts = r.redact_event(&mut event, 4096);
    for output in [event.tool.as_ref().unwrap().output.as_ref().unwrap(), &event.raw["tool_response"]] {
        let s = output.as_str().unwrap();
        assert!(s.len() <= 4096, "{} bytes", s.len());
        let kept = s.find("[agent-memory: output truncated, ").unwrap();
        assert!(
            s.ends_with(&format!("[agent-memory: output truncated, {} bytes omitted]", long.len() - kept))
        );
        assert!(s[..kept].ends_with('\n'), "cut inside a line");
        assert!(long.starts_with(&s[..kept]));
    }
    assert_eq!(counts.get("truncated"), 2);
}

#[test]
fn cuts_fall_on_char_boundaries() {
    for max in 60..140 {
        let mut s = "é€😀".repeat(100);
        let omitted = cap::cap_string(&mut s, max);
        assert!(omitted > 0);
        assert!(s.len() <= max.max(60), "{max}: {}", s.len());
        assert!(s.contains("bytes omitted]"));
    }
}

#[test]
fn structured_outputs_keep_their_shape() {
    let r = Redactor::new();
    let output = json!({"stdout": "x".repeat(10_000), "stderr": "warning: unused\n", "interrupted": false});
    let mut event = tool_event("cargo build", output, None);
    r.redact_event(&mut event, 2048);
    let out = event.tool.as_ref().unwrap().output.as_ref().unwrap();
    assert_eq!(out["stderr"], json!("warning: unused\n"));
    assert_eq!(out["interrupted"], json!(false));
    assert!(output_len(out) <= 2048);
    assert!(out["stdout"].as_str().unwrap().ends_with("bytes omitted]"));
    assert_eq!(&event.raw["tool_response"], out);
}

#[test]
fn raw_output_fields_of_other_harnesses_are_capped() {
    let r = Redactor::new();
    let mut event = tool_event("ls", json!("small"), None);
    let big = "y".repeat(9000);
    event.raw["tool_output"] = json!(big.clone());
    event.raw["tool_calls"] = json!([{"tool_name": "Bash", "tool_response": big.clone()}]);
    event.raw["error"] = json!(big);
    r.redact_event(&mut event, 1000);
    for field in
        [&event.raw["tool_output"], &event.raw["tool_calls"][0]["tool_response"], &event.raw["error"]]
    {
        assert!(output_len(field) <= 1000, "{field}");
    }
    assert_eq!(event.tool.as_ref().unwrap().output, Some(json!("small")));
}

#[test]
fn capping_twice_changes_nothing() {
    let r = Redactor::new();
    let mut event = tool_event("ls", json!({"a": "z".repeat(5000), "b": "w".repeat(5000)}), None);
    r.redact_event(&mut event, 3000);
    let once = event.clone();
    let counts = r.redact_event(&mut event, 3000);
    assert_eq!(event, once);
    assert!(counts.is_empty(), "{counts}");
}

#[test]
fn a_secret_across_the_cut_leaves_no_partial() {
    let r = Redactor::new();
    let token = cat(&["gh", "p_"]) + &Fake::new(7).chars(ALNUM, 36);
    for pad in [0usize, 10, 20, 30, 37] {
        let text = format!("{}DEPLOY_TOKEN={token} --retry\nmore output\n", "a".repeat(1000 - pad));
        let mut event = tool_event("env", json!(text.repeat(3)), None);
        r.redact_event(&mut event, 1100);
        assert_no_leak(&event, &token, &format!("pad {pad}"));
        let out = event.tool.as_ref().unwrap().output.as_ref().unwrap().as_str().unwrap().to_owned();
        assert!(!out.contains(&token[..8]), "partial token survived: {out}");
    }
}

#[test]
fn a_private_region_cut_open_keeps_the_truncation_marker() {
    let r = Redactor::new();
    let text = format!("{}<private>{}</private>", "log line\n".repeat(10), "hidden ".repeat(500));
    let mut event = tool_event("cat notes", json!(text), None);
    r.redact_event(&mut event, 1500);
    let out = event.tool.as_ref().unwrap().output.as_ref().unwrap().as_str().unwrap();
    assert!(!out.contains("hidden"), "{out}");
    assert!(out.contains("[private]"), "{out}");
    assert!(out.ends_with("bytes omitted]"), "{out}");
}

#[test]
fn a_five_megabyte_output_is_redacted_and_capped() {
    let r = Redactor::new();
    let token = cat(&["gl", "pat-"]) + &Fake::new(9).chars(ALNUM, 20);
    let mut text =
        "2026-08-13T13:49:56Z INFO request served in 3ms path=/v1/ping status=200\n".repeat(70_000);
    text.push_str(&format!("GITLAB_TOKEN={token}\n"));
    assert!(text.len() > 5_000_000);
    let direct = r.redact_text(&text);
    assert!(!direct.contains(&token));
    assert_eq!(direct.len(), text.len() - token.len() + "[REDACTED:gitlab-token]".len());
    let mut event = tool_event("cat server.log", json!({"stdout": text}), None);
    r.redact_event(&mut event, 32 * 1024);
    assert!(output_len(event.tool.as_ref().unwrap().output.as_ref().unwrap()) <= 32 * 1024);
    assert!(serde_json::to_string(&event).unwrap().len() < 200 * 1024);
}

#[test]
fn transcript_contents_are_dropped_but_references_kept() {
    let r = Redactor::new();
    let mut event = tool_event("ls", json!("ok"), None);
    event.raw["transcript"] = json!([{"role": "user", "content": "my whole conversation"}]);
    event.raw["tool_info"] = json!({"transcript_jsonl": "{\"role\":\"user\"}\n{\"role\":\"assistant\"}\n"});
    event.raw["agent_transcript_path"] = json!("/home/alice/.claude/projects/x/subagents/agent-1.jsonl");
    let counts = r.redact_event(&mut event, 64 * 1024);
    assert!(
        event.raw["transcript"].as_str().unwrap().starts_with("[agent-memory: transcript contents omitted, ")
    );
    assert!(event.raw["tool_info"]["transcript_jsonl"].as_str().unwrap().contains("omitted"));
    assert_eq!(
        event.raw["transcript_path"],
        json!("/home/alice/.claude/projects/-home-alice-src-acme/c3b4152b.jsonl")
    );
    assert_eq!(
        event.raw["agent_transcript_path"],
        json!("/home/alice/.claude/projects/x/subagents/agent-1.jsonl")
    );
    assert_eq!(counts.get("transcript"), 2);
    assert!(!serde_json::to_string(&event).unwrap().contains("my whole conversation"));
}

#[test]
fn markers_longer_than_what_they_replace_keep_the_cap() {
    let r = Redactor::new();
    let input = "passwordAAaAa0AAA0A0a00Aa00AAaAaaAaaa000AAAuthorization: https://";
    let mut event = tool_event(input, json!({"stdout": input, "stderr": input}), Some(input));
    r.redact_event(&mut event, 130);
    let out = event.tool.as_ref().unwrap().output.as_ref().unwrap();
    assert!(output_len(out) <= 130, "{out}");
    let once = event.clone();
    r.redact_event(&mut event, 130);
    assert_eq!(event, once);
}

#[test]
fn a_cut_after_an_authorization_scheme_stays_stable() {
    let r = Redactor::new();
    let input = "-----END RSA PRIVATE KEY-----</PRIVATE>Authorization: Bearer aAa00ATOKEN";
    let mut event = tool_event(input, json!({"stdout": input, "stderr": input}), Some(input));
    r.redact_event(&mut event, 123);
    let once = event.clone();
    r.redact_event(&mut event, 123);
    assert_eq!(event, once);
}

#[test]
fn text_shaped_like_a_truncation_marker_before_the_real_one_is_redacted_as_text() {
    let r = Redactor::new();
    let fake = "[agent-memory: output truncated, 12 bytes omitted]";
    let capped = format!("Authorization: {fake}{}", cap::marker(120));
    let once = r.redact_text(&capped).into_owned();
    assert!(once.starts_with("Authorization: [REDACTED:bearer-token]"), "{once}");
    assert!(once.ends_with("[agent-memory: output truncated, 120 bytes omitted]"), "{once}");
    assert_eq!(r.redact_text(&once), once);

    let input = format!("header\nAuthorization: {fake}\n{}", "line of output\n".repeat(20));
    let mut event = tool_event(&input, json!({"stdout": input, "stderr": input}), Some(&input));
    r.redact_event(&mut event, 200);
    let first = event.clone();
    r.redact_event(&mut event, 200);
    assert_eq!(event, first);
    let stderr = first.tool.as_ref().unwrap().output.as_ref().unwrap()["stderr"].as_str().unwrap().to_owned();
    assert!(!stderr.contains(&format!("Authorization: {fake}")), "{stderr}");
}
