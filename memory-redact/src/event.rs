//! Redaction of JSON values and whole hook events.

use memory_core::HookEvent;
use serde_json::{Map, Value};

use super::counts::RedactionCounts;
use super::{Limits, MARKER_PREFIX, Redactor, cap, entropy, formats, is_marker, keywords, limits};

/// Kind recorded for a capped tool output.
pub(super) const TRUNCATED_KIND: &str = "truncated";

/// Kind recorded for a transcript copy dropped from a payload.
pub(super) const TRANSCRIPT_KIND: &str = "transcript";

/// Payload keys that hold tool output, capped like `tool.output` wherever they appear.
const OUTPUT_KEYS: &[&str] =
    &["tool_response", "tool_output", "tool_result", "output", "response", "stdout", "stderr"];

/// Payload keys that hold an error message from a tool, capped the same way.
const ERROR_KEYS: &[&str] = &["error", "error_details"];

/// Redacts every string of `value`; values under secret-named keys are replaced whole.
pub(super) fn redact_value(redactor: &Redactor, value: &mut Value, counts: &mut RedactionCounts) {
    match value {
        Value::String(s) => redact_string(redactor, s, counts),
        Value::Array(items) => items.iter_mut().for_each(|item| redact_value(redactor, item, counts)),
        Value::Object(map) => redact_object(redactor, map, counts),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn redact_string(redactor: &Redactor, s: &mut String, counts: &mut RedactionCounts) {
    if let Some(redacted) = redact_embedded_json(redactor, s, counts) {
        *s = redacted;
    }
    if let std::borrow::Cow::Owned(redacted) = redactor.redact_text_counted(s, counts) {
        *s = redacted;
    }
}

/// A string that holds a JSON document (a harness passing a tool's JSON output on as text) has
/// its strings redacted as values, so line rules see real lines and secret-named keys count.
/// `None` when it is not JSON or nothing in it changed; otherwise the document re-encoded.
fn redact_embedded_json(redactor: &Redactor, s: &str, counts: &mut RedactionCounts) -> Option<String> {
    let trimmed = s.trim();
    let framed = (trimmed.starts_with('{') && trimmed.ends_with('}'))
        || (trimmed.starts_with('[') && trimmed.ends_with(']'));
    if !framed {
        return None;
    }
    let mut value: Value = serde_json::from_str(trimmed).ok()?;
    let mut inner = RedactionCounts::default();
    redact_value(redactor, &mut value, &mut inner);
    if inner.is_empty() {
        return None;
    }
    counts.merge(&inner);
    serde_json::to_string(&value).ok()
}

/// The kind of secret a string value is by its key and shape, where the key alone says nothing:
/// a Docker `auth` value (base64 of `user:password`), a high-entropy value under an
/// environment-style name (`"APP_SIGNING_SALT": "…"`).
fn keyed_value_kind(key: &str, value: &str) -> Option<&'static str> {
    if key.eq_ignore_ascii_case("auth") && formats::is_user_password_base64(value) {
        return Some("docker-auth");
    }
    let env_like = key.len() >= 2
        && key.starts_with(|c: char| c.is_ascii_uppercase())
        && key.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    (env_like && entropy::looks_like_secret(key, value)).then_some("high-entropy")
}

/// Whether an object is a Kubernetes Secret (`"kind": "Secret"`), whose `data` and `stringData`
/// hold secrets under any name.
fn is_kubernetes_secret(map: &Map<String, Value>) -> bool {
    map.get("kind").and_then(Value::as_str) == Some("Secret")
        && map.get("apiVersion").is_some_and(Value::is_string)
}

fn redact_object(redactor: &Redactor, map: &mut Map<String, Value>, counts: &mut RedactionCounts) {
    let mut renamed = Vec::new();
    let kubernetes_secret = is_kubernetes_secret(map);
    for (key, value) in map.iter_mut() {
        match value {
            Value::Object(_) | Value::Array(_)
                if kubernetes_secret && matches!(key.as_str(), "data" | "stringData" | "binaryData") =>
            {
                replace_all_strings(value, "kubernetes-secret", counts);
            }
            Value::String(s) => {
                if let Some(kind) = keywords::secret_name_kind(key)
                    && !s.is_empty()
                    && !is_marker(s)
                    && !keywords::is_reference(s)
                    && !(key.to_ascii_lowercase().ends_with("pwd") && s.starts_with(['/', '~']))
                {
                    *s = format!("{MARKER_PREFIX}{kind}]");
                    counts.add(kind, 1);
                } else if let Some(kind) = keyed_value_kind(key, s) {
                    *s = format!("{MARKER_PREFIX}{kind}]");
                    counts.add(kind, 1);
                } else {
                    redact_string(redactor, s, counts);
                }
            }
            Value::Number(_) if keywords::secret_name_kind(key) == Some("password") => {
                *value = Value::String(format!("{MARKER_PREFIX}password]"));
                counts.add("password", 1);
            }
            Value::Object(_) | Value::Array(_) if keywords::secret_container_kind(key).is_some() => {
                let kind = keywords::secret_container_kind(key).unwrap_or("secret");
                replace_all_strings(value, kind, counts);
            }
            _ => redact_value(redactor, value, counts),
        }
        let redacted_key = redactor.redact_text_counted(key, counts);
        if redacted_key != key.as_str() {
            renamed.push((key.clone(), redacted_key.into_owned()));
        }
    }
    for (old, new) in renamed {
        if let Some(value) = map.remove(&old) {
            map.insert(new, value);
        }
    }
}

/// Replaces every non-empty string under a secret container (`"credentials": {…}`).
fn replace_all_strings(value: &mut Value, kind: &'static str, counts: &mut RedactionCounts) {
    match value {
        Value::String(s) if !s.is_empty() && !is_marker(s) => {
            *s = format!("{MARKER_PREFIX}{kind}]");
            counts.add(kind, 1);
        }
        Value::Array(items) => items.iter_mut().for_each(|item| replace_all_strings(item, kind, counts)),
        Value::Object(map) => map.values_mut().for_each(|item| replace_all_strings(item, kind, counts)),
        _ => {}
    }
}

/// Cuts what nests too deep, drops transcript copies, caps outputs and long texts, then redacts
/// every text field.
pub(super) fn redact_event(
    redactor: &Redactor,
    event: &mut HookEvent,
    limits: &Limits,
    counts: &mut RedactionCounts,
) {
    let max_tool_output = limits.max_tool_output;
    let too_deep = limits::cut_depth(event, limits.max_depth);
    counts.add(limits::DEPTH_KIND, too_deep);
    drop_transcripts(&mut event.raw, counts);
    // Cap before redacting (so a huge text is scanned only up to the cap) and again after,
    // since markers can be longer than what they replace.
    let mut truncated = limits::cap_texts(event, limits.max_text);
    truncated += cap_event(event, max_tool_output);
    if let Some(tool) = event.tool.as_mut() {
        for value in [tool.input.as_mut(), tool.output.as_mut()].into_iter().flatten() {
            redact_value(redactor, value, counts);
        }
        if let Some(error) = tool.error.as_mut() {
            redact_string(redactor, error, counts);
        }
        for text in tool.normalised_texts_mut() {
            redact_string(redactor, text, counts);
        }
    }
    if let Some(prompt) = event.prompt.as_mut() {
        redact_string(redactor, prompt, counts);
    }
    redact_value(redactor, &mut event.raw, counts);
    truncated = truncated.max(cap_event(event, max_tool_output));
    counts.add(TRUNCATED_KIND, truncated);
}

/// Caps the tool output and error and the payload's output fields; returns how many were cut.
fn cap_event(event: &mut HookEvent, max: usize) -> usize {
    let mut truncated = cap_raw(&mut event.raw, max);
    if let Some(tool) = event.tool.as_mut() {
        if let Some(output) = tool.output.as_mut() {
            truncated += usize::from(cap::cap_value(output, max) > 0);
        }
        if let Some(error) = tool.error.as_mut() {
            truncated += usize::from(cap::cap_string(error, max) > 0);
        }
    }
    truncated
}

/// Caps every output-like field of the payload, at any depth (`tool_calls[].tool_response`).
fn cap_raw(value: &mut Value, max: usize) -> usize {
    match value {
        Value::Object(map) => map
            .iter_mut()
            .map(|(key, item)| {
                if OUTPUT_KEYS.contains(&key.as_str()) || ERROR_KEYS.contains(&key.as_str()) {
                    usize::from(cap::cap_value(item, max) > 0)
                } else {
                    cap_raw(item, max)
                }
            })
            .sum(),
        Value::Array(items) => items.iter_mut().map(|item| cap_raw(item, max)).sum(),
        _ => 0,
    }
}

/// Whether a payload key names transcript contents (`transcript`, `agent_transcript`,
/// `transcript_jsonl`), as opposed to a reference such as `transcript_path`.
fn is_transcript_key(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let Some(at) = lower.find("transcript") else { return false };
    let rest = lower[at + "transcript".len()..].trim_start_matches(['_', '-']);
    matches!(rest, "" | "s" | "content" | "contents" | "jsonl" | "text" | "messages" | "entries")
}

/// Whether a string value under a transcript key is a reference (a path) rather than contents.
fn is_reference_string(s: &str) -> bool {
    s.len() <= 4096 && !s.contains('\n')
}

/// Replaces transcript contents in the payload with a note of their size; references stay.
fn drop_transcripts(value: &mut Value, counts: &mut RedactionCounts) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                let is_contents = match &*item {
                    Value::Null | Value::Bool(_) | Value::Number(_) => false,
                    Value::String(s) => !is_reference_string(s),
                    Value::Array(_) | Value::Object(_) => true,
                };
                if is_transcript_key(key) && is_contents {
                    let bytes = match &*item {
                        Value::String(s) => s.len(),
                        other => other.to_string().len(),
                    };
                    *item =
                        Value::String(format!("[agent-memory: transcript contents omitted, {bytes} bytes]"));
                    counts.add(TRANSCRIPT_KIND, 1);
                } else {
                    drop_transcripts(item, counts);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| drop_transcripts(item, counts)),
        _ => {}
    }
}
