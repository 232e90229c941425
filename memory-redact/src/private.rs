//! Removal of `<private>…</private>` regions (case-insensitive, nested, multi-line).
//!
//! An unclosed `<private>` removes everything to the end of the text.

use std::borrow::Cow;

use super::counts::RedactionCounts;
use super::{PRIVATE_KIND, PRIVATE_MARKER};

/// Replaces every private region of `text` with `[private]`.
pub(super) fn strip<'t>(text: &'t str, counts: &mut RedactionCounts) -> Cow<'t, str> {
    if next_tag(text, 0).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut depth = 0usize;
    let mut region_start = 0;
    let mut pos = 0;
    while let Some((start, end, closing)) = next_tag(text, pos) {
        pos = end;
        if closing {
            if depth == 0 {
                continue;
            }
            depth -= 1;
            if depth == 0 {
                out.push_str(&text[last..region_start]);
                out.push_str(PRIVATE_MARKER);
                counts.add(PRIVATE_KIND, 1);
                last = end;
            }
        } else {
            if depth == 0 {
                region_start = start;
            }
            depth += 1;
        }
    }
    if depth > 0 {
        out.push_str(&text[last..region_start]);
        out.push_str(PRIVATE_MARKER);
        counts.add(PRIVATE_KIND, 1);
        return Cow::Owned(out);
    }
    if last == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[last..]);
    Cow::Owned(out)
}

/// The next `<private>` or `</private>` tag at or after `from`: `(start, end, closing)`.
/// Whitespace is allowed before the `>`.
fn next_tag(text: &str, from: usize) -> Option<(usize, usize, bool)> {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == b'<') {
        let start = i + offset;
        let mut j = start + 1;
        let closing = bytes.get(j) == Some(&b'/');
        if closing {
            j += 1;
        }
        if bytes.len() >= j + 7 && bytes[j..j + 7].eq_ignore_ascii_case(b"private") {
            let mut k = j + 7;
            while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                k += 1;
            }
            if bytes.get(k) == Some(&b'>') {
                return Some((start, k + 1, closing));
            }
        }
        i = start + 1;
    }
    None
}
