//! Size caps for tool outputs.
//!
//! A capped value keeps its shape: its strings, in document order, keep at most `max` bytes in
//! total (marker included), the first string that overflows ends with
//! `[agent-memory: output truncated, N bytes omitted]` and later strings are emptied. Cuts fall on
//! a char boundary and back off to the start of the line or token they would split, so no partial
//! secret survives the cut. A capped value is left alone by a second cap.

use serde_json::Value;

const MARKER_HEAD: &str = "[agent-memory: output truncated, ";
const MARKER_TAIL: &str = " bytes omitted]";

/// How far a cut may move back to avoid splitting a line or a token.
const MAX_BACKOFF: usize = 1024;

/// The marker that ends a truncated string.
pub(super) fn marker(omitted: usize) -> String {
    format!("{MARKER_HEAD}{omitted}{MARKER_TAIL}")
}

/// Length of the truncation marker `text` ends with (0 when none).
pub(super) fn trailing_marker_len(text: &str) -> usize {
    let Some(body) = text.strip_suffix(MARKER_TAIL) else { return 0 };
    let Some(start) = body.rfind(MARKER_HEAD) else { return 0 };
    let digits = &body[start + MARKER_HEAD.len()..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    text.len() - start
}

/// Caps the strings of `value` at `max` bytes in total; returns the bytes omitted (0 when the
/// value already fit).
pub(super) fn cap_value(value: &mut Value, max: usize) -> usize {
    let mut strings = Vec::new();
    collect_strings(value, &mut strings);
    let total: usize = strings.iter().map(|s| content_len(s)).sum();
    if total <= max {
        return 0;
    }
    let mut budget = max.saturating_sub(marker(total).len());
    let mut omitted = 0;
    let mut truncated: Option<usize> = None;
    for (index, s) in strings.iter_mut().enumerate() {
        let len = content_len(s);
        if truncated.is_some() {
            omitted += len;
            s.clear();
            continue;
        }
        if len <= budget {
            budget -= len;
            continue;
        }
        let cut = safe_cut(s, budget);
        omitted += len - cut;
        s.truncate(cut);
        truncated = Some(index);
    }
    if let Some(index) = truncated {
        strings[index].push_str(&marker(omitted));
    }
    omitted
}

/// Caps one string at `max` bytes (marker included); returns the bytes omitted.
pub(super) fn cap_string(s: &mut String, max: usize) -> usize {
    let mut value = Value::String(std::mem::take(s));
    let omitted = cap_value(&mut value, max);
    if let Value::String(capped) = value {
        *s = capped;
    }
    omitted
}

/// Bytes of `s` not counting a truncation marker it already ends with.
fn content_len(s: &str) -> usize {
    s.len() - trailing_marker_len(s)
}

fn collect_strings<'v>(value: &'v mut Value, out: &mut Vec<&'v mut String>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter_mut().for_each(|item| collect_strings(item, out)),
        Value::Object(map) => map.values_mut().for_each(|item| collect_strings(item, out)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// A cut at or before `budget` on a char boundary that does not split a line (when the line
/// start is near) or a token.
fn safe_cut(s: &str, budget: usize) -> usize {
    let mut cut = budget.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    if cut == s.len() || s.as_bytes().get(cut) == Some(&b'\n') {
        return cut;
    }
    if let Some(newline) = s[..cut].rfind('\n')
        && cut - (newline + 1) <= MAX_BACKOFF
    {
        return newline + 1;
    }
    let bytes = s.as_bytes();
    let floor = cut.saturating_sub(MAX_BACKOFF);
    let mut back = cut;
    while back > floor && is_token_byte(bytes[back - 1]) {
        back -= 1;
    }
    // A token longer than the back-off is a blob, not a credential: cut it where it is.
    if back == floor && floor > 0 { cut } else { back }
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_-+/=.:@".contains(&b)
}
