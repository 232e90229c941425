//! Redaction rules of the user's own: a name, shown in the marker (`[REDACTED:<name>]`), and a
//! regular expression or a literal value. They run before the built-in rules.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use regex::Regex;

use super::counts::RedactionCounts;
use super::error::Error;
use super::{MARKER_PREFIX, is_marker};

/// Shortest literal value a rule accepts, in bytes (shorter ones would redact ordinary words).
pub const MIN_LITERAL_LEN: usize = 4;

/// Longest rule name, in bytes.
const MAX_NAME_LEN: usize = 40;

/// A redaction rule of the user's own.
#[derive(Clone)]
pub struct CustomRule {
    name: &'static str,
    matcher: Matcher,
}

#[derive(Clone)]
enum Matcher {
    Pattern(Regex),
    Literal(String),
}

impl fmt::Debug for CustomRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.matcher {
            Matcher::Pattern(_) => "pattern",
            Matcher::Literal(_) => "literal",
        };
        // What a rule matches may itself be a secret.
        f.debug_struct("CustomRule").field("name", &self.name).field("kind", &kind).finish()
    }
}

impl CustomRule {
    /// A rule replacing every match of `pattern` (its first capture group, when it has one, so
    /// `deploy-key: (\S+)` keeps the name) with `[REDACTED:<name>]`.
    pub fn pattern(name: &str, pattern: &str) -> Result<Self, Error> {
        let name = checked_name(name)?;
        let regex = Regex::new(pattern)
            .map_err(|e| Error::Pattern { name: name.to_owned(), message: last_line(&e.to_string()) })?;
        if regex.is_match("") {
            return Err(Error::Pattern { name: name.to_owned(), message: "matches empty text".to_owned() });
        }
        Ok(Self { name, matcher: Matcher::Pattern(regex) })
    }

    /// A rule replacing every occurrence of `value` with `[REDACTED:<name>]`.
    pub fn literal(name: &str, value: &str) -> Result<Self, Error> {
        let name = checked_name(name)?;
        if value.trim().len() < MIN_LITERAL_LEN {
            return Err(Error::ShortValue { name: name.to_owned(), min: MIN_LITERAL_LEN });
        }
        Ok(Self { name, matcher: Matcher::Literal(value.to_owned()) })
    }

    /// The rule's name, as the marker shows it.
    pub fn name(&self) -> &str {
        self.name
    }

    /// Replaces what the rule matches in `text`; `None` when nothing matched.
    pub(super) fn apply(&self, text: &str, counts: &mut RedactionCounts) -> Option<String> {
        let ranges: Vec<std::ops::Range<usize>> = match &self.matcher {
            Matcher::Literal(value) => {
                text.match_indices(value.as_str()).map(|(at, _)| at..at + value.len()).collect()
            }
            Matcher::Pattern(regex) => regex
                .captures_iter(text)
                .filter_map(|caps| caps.get(1).or_else(|| caps.get(0)))
                .filter(|m| !m.is_empty() && !is_marker(m.as_str()))
                .map(|m| m.range())
                .collect(),
        };
        let mut out = String::new();
        let mut last = 0;
        for range in ranges.into_iter().filter(|r| !r.is_empty()) {
            if range.start < last {
                continue;
            }
            out.push_str(&text[last..range.start]);
            out.push_str(MARKER_PREFIX);
            out.push_str(self.name);
            out.push(']');
            last = range.end;
            counts.add(self.name, 1);
        }
        if last == 0 {
            return None;
        }
        out.push_str(&text[last..]);
        Some(out)
    }
}

fn last_line(message: &str) -> String {
    message.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("invalid").to_owned()
}

/// A rule name: a lowercase slug (`acme-token`), kept for the life of the process (counts carry
/// names, not copies); each distinct name is kept once.
fn checked_name(name: &str) -> Result<&'static str, Error> {
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid {
        return Err(Error::Name { name: name.escape_debug().to_string() });
    }
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = names.get(name) {
        return Ok(known);
    }
    let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(kept);
    Ok(kept)
}
