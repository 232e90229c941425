//! The catalog's token formats as a matcher: one pass over a text finds which formats have a
//! keyword in it, and only their patterns run, each compiled the first time it is needed.
//!
//! Keywords are found through their first two bytes: a bit set of the byte pairs keywords start
//! with turns most positions away at once, and the keywords starting with that byte are compared
//! at the others. Building it costs next to nothing, which matters in a hook's short process.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::catalog::{Catalog, Format, engine_pattern};
use super::counts::RedactionCounts;
use super::{MARKER_PREFIX, is_marker};

/// One keyword: its bytes, its format, and whether case matters.
#[derive(Clone, Copy)]
struct Keyword {
    bytes: &'static [u8],
    format: usize,
    exact: bool,
}

/// The formats of a catalog, ready to run.
pub(super) struct Providers {
    formats: &'static [Format],
    /// Bit `a << 8 | b` is set when a keyword starts with bytes `a`, `b` (ASCII lowercased).
    pairs: Vec<u64>,
    /// Keywords by their lowercased first byte.
    by_first_byte: Vec<Vec<Keyword>>,
    compiled: Vec<OnceLock<Regex>>,
}

impl fmt::Debug for Providers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keywords: usize = self.by_first_byte.iter().map(Vec::len).sum();
        f.debug_struct("Providers")
            .field("formats", &self.formats.len())
            .field("keywords", &keywords)
            .field("compiled", &self.compiled())
            .finish()
    }
}

fn pair(a: u8, b: u8) -> usize {
    usize::from(a.to_ascii_lowercase()) << 8 | usize::from(b.to_ascii_lowercase())
}

impl Providers {
    pub(super) fn new(catalog: &'static Catalog) -> Self {
        let formats = catalog.formats();
        let mut pairs = vec![0u64; 1 << 10];
        let mut by_first_byte = vec![Vec::new(); 256];
        for (format, entry) in formats.iter().enumerate() {
            for keyword in entry.keywords {
                let bytes = keyword.as_bytes();
                let at = pair(bytes[0], bytes[1]);
                pairs[at >> 6] |= 1 << (at & 63);
                let exact = bytes.iter().any(u8::is_ascii_uppercase);
                by_first_byte[usize::from(bytes[0].to_ascii_lowercase())].push(Keyword {
                    bytes,
                    format,
                    exact,
                });
            }
        }
        Self { formats, pairs, by_first_byte, compiled: formats.iter().map(|_| OnceLock::new()).collect() }
    }

    /// How many patterns have been compiled so far.
    pub(super) fn compiled(&self) -> usize {
        self.compiled.iter().filter(|cell| cell.get().is_some()).count()
    }

    /// The formats (by index, in order) with a keyword in `text`.
    pub(super) fn triggered(&self, text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        let mut found = vec![false; self.formats.len()];
        for (at, window) in bytes.windows(2).enumerate() {
            let key = pair(window[0], window[1]);
            if self.pairs[key >> 6] & (1 << (key & 63)) == 0 {
                continue;
            }
            for keyword in &self.by_first_byte[usize::from(window[0].to_ascii_lowercase())] {
                if found[keyword.format] {
                    continue;
                }
                let Some(here) = bytes.get(at..at + keyword.bytes.len()) else { continue };
                if if keyword.exact {
                    here == keyword.bytes
                } else {
                    here.eq_ignore_ascii_case(keyword.bytes)
                } {
                    found[keyword.format] = true;
                }
            }
        }
        found.iter().enumerate().filter_map(|(index, &hit)| hit.then_some(index)).collect()
    }

    /// Replaces every format's matches in `text`; `None` when nothing matched.
    pub(super) fn apply(&self, text: &str, counts: &mut RedactionCounts) -> Option<String> {
        let mut current: Option<String> = None;
        for index in self.triggered(text) {
            let format = &self.formats[index];
            let regex = self.compiled[index].get_or_init(|| {
                Regex::new(&engine_pattern(format.pattern)).expect("catalog pattern is valid")
            });
            let haystack = current.as_deref().unwrap_or(text);
            if let Some(next) = replace(regex, format, haystack, counts) {
                current = Some(next);
            }
        }
        current
    }
}

/// One format over `text`; `None` when it replaced nothing.
fn replace(
    regex: &Regex,
    format: &'static Format,
    text: &str,
    counts: &mut RedactionCounts,
) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    for caps in regex.captures_iter(text) {
        let Some(m) = caps.name("s").or_else(|| caps.get(0)) else { continue };
        let range = after_escape(text, m.range());
        let value = &text[range.clone()];
        if range.start < last || range.is_empty() || is_marker(value) {
            continue;
        }
        if format.digit && !value.bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        out.push_str(&text[last..range.start]);
        out.push_str(MARKER_PREFIX);
        out.push_str(format.kind);
        out.push(']');
        last = range.end;
        counts.add(format.kind, 1);
    }
    (last > 0).then(|| {
        out.push_str(&text[last..]);
        out
    })
}

/// `range` without the JSON escape (`\n`) a leading boundary lets a match start with.
fn after_escape(text: &str, range: Range<usize>) -> Range<usize> {
    let s = text[range.clone()].as_bytes();
    if s.len() > 2 && s[0] == b'\\' && matches!(s[1], b'n' | b'r' | b't') {
        range.start + 2..range.end
    } else {
        range
    }
}
