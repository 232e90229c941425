//! The catalog's token formats as a matcher: one pass of an Aho-Corasick automaton over a text
//! finds which formats have a keyword in it, and only their patterns run, each compiled the first
//! time it is needed.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use regex::Regex;

use super::catalog::{Catalog, Format, engine_pattern};
use super::counts::RedactionCounts;
use super::{MARKER_PREFIX, is_marker};

/// The formats of a catalog, ready to run.
pub(super) struct Providers {
    formats: &'static [Format],
    /// Every keyword of every format, matched without regard to ASCII case.
    keywords: AhoCorasick,
    /// For each keyword of `keywords`: its format, and the exact text when case matters.
    owners: Vec<(usize, Option<&'static str>)>,
    compiled: Vec<OnceLock<Regex>>,
}

impl fmt::Debug for Providers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Providers")
            .field("formats", &self.formats.len())
            .field("keywords", &self.owners.len())
            .field("compiled", &self.compiled())
            .finish()
    }
}

impl Providers {
    pub(super) fn new(catalog: &'static Catalog) -> Self {
        let formats = catalog.formats();
        let mut literals = Vec::new();
        let mut owners = Vec::new();
        for (index, format) in formats.iter().enumerate() {
            for keyword in &format.keywords {
                let exact = keyword.bytes().any(|b| b.is_ascii_uppercase());
                literals.push(keyword.as_str());
                owners.push((index, exact.then_some(keyword.as_str())));
            }
        }
        let keywords = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(&literals)
            .expect("catalog keywords build an automaton");
        Self { formats, keywords, owners, compiled: formats.iter().map(|_| OnceLock::new()).collect() }
    }

    /// How many patterns have been compiled so far.
    pub(super) fn compiled(&self) -> usize {
        self.compiled.iter().filter(|cell| cell.get().is_some()).count()
    }

    /// The formats (by index, in order) with a keyword in `text`.
    pub(super) fn triggered(&self, text: &str) -> Vec<usize> {
        let mut found = vec![false; self.formats.len()];
        for m in self.keywords.find_overlapping_iter(text) {
            let (format, exact) = self.owners[m.pattern().as_usize()];
            if exact.is_none_or(|literal| &text[m.range()] == literal) {
                found[format] = true;
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
                Regex::new(&engine_pattern(&format.pattern)).expect("catalog pattern is valid")
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
        out.push_str(&format.kind);
        out.push(']');
        last = range.end;
        counts.add(&format.kind, 1);
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
