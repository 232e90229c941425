//! Size caps for tool outputs.
//!
//! A capped value keeps its shape: its strings, in document order, keep at most `max` bytes in
//! total (marker included), the first string that overflows ends with
//! `[agent-memory: output truncated, N bytes omitted]` and later strings are emptied. Cuts fall on
//! a char boundary, never inside a redaction marker, and back off to the start of the line or
//! token they would split, so no partial secret survives the cut. A capped value is left alone by
//! a second cap.

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

/// Caps the strings of `value` at `max` bytes in total, markers included; returns the bytes newly
/// omitted (0 when the value already fit). A value capped before is re-capped from its content,
/// and its marker keeps counting what the earlier cap omitted.
pub(super) fn cap_value(value: &mut Value, max: usize) -> usize {
    let mut strings = Vec::new();
    collect_strings(value, &mut strings);
    if strings.iter().map(|s| s.len()).sum::<usize>() <= max {
        return 0;
    }
    let mut previously = 0;
    let mut first_marked = None;
    for (index, s) in strings.iter_mut().enumerate() {
        if let Some((content, omitted)) = parse_marker(s) {
            previously += omitted;
            first_marked.get_or_insert(index);
            s.truncate(content);
        }
    }
    let total: usize = strings.iter().map(|s| s.len()).sum();
    let mut budget = max.saturating_sub(marker(total + previously).len());
    let mut omitted = 0;
    let mut truncated = None;
    for (index, s) in strings.iter_mut().enumerate() {
        if truncated.is_some() {
            omitted += s.len();
            s.clear();
        } else if s.len() <= budget {
            budget -= s.len();
        } else {
            let cut = safe_cut(s, budget);
            omitted += s.len() - cut;
            s.truncate(cut);
            truncated = Some(index);
        }
    }
    if let Some(index) = truncated.or(first_marked) {
        strings[index].push_str(&marker(omitted + previously));
    }
    omitted
}

/// `(content length, bytes omitted)` of a string that ends with a truncation marker.
fn parse_marker(s: &str) -> Option<(usize, usize)> {
    let len = trailing_marker_len(s);
    if len == 0 {
        return None;
    }
    let digits = &s[s.len() - len + MARKER_HEAD.len()..s.len() - MARKER_TAIL.len()];
    Some((s.len() - len, digits.parse().unwrap_or(0)))
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
    // Never split a redaction marker.
    if let Some(open) = s[..cut].rfind('[')
        && (s[open..].starts_with(super::MARKER_PREFIX) || s[open..].starts_with(super::PRIVATE_MARKER))
        && !s[open..cut].contains(']')
    {
        cut = open;
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
