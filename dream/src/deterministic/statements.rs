//! Finding preferences, corrections and conventions in what the user typed.

use std::sync::LazyLock;

use regex::Regex;

use crate::deterministic::items::{Item, Items};

/// Longest statement kept, in characters.
const MAX_STATEMENT_CHARS: usize = 200;

/// What a sentence states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Statement {
    /// A preference or correction about how the user wants things done (user-wide).
    Preference,
    /// A rule of the current project ("in this project we …").
    Convention,
}

static CONVENTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(in|for) this (project|repo|repository|codebase|crate|workspace),? we\b")
        .expect("compiles")
});
static PREFERENCE_ANYWHERE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(i (really |generally |usually )?prefer|from now on|use \S+ instead of|remember (that|:))",
    )
    .expect("compiles")
});
static PREFERENCE_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(please )?(always|never|don't|do not|dont|stop|prefer|avoid)\b").expect("compiles")
});
static INSTEAD_OF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\buse (\S+) instead of (\S+)").expect("compiles"));
static NEGATIVE_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^(please )?(never|don't|do not|dont|stop|avoid)\b").expect("compiles"));
static LEAD_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^((please|always|never|don't|do not|dont|stop|avoid|prefer|i|really|from now on),?\s+)+")
        .expect("compiles")
});

/// The sentences of a prompt that state a preference or a convention, in order.
pub(crate) fn statements(prompt: &str) -> Vec<(Statement, String)> {
    sentences(prompt)
        .into_iter()
        .filter(|s| !s.ends_with('?') && s.split_whitespace().count() >= 3)
        .filter_map(|sentence| {
            let kind = if CONVENTION.is_match(&sentence) {
                Statement::Convention
            } else if PREFERENCE_ANYWHERE.is_match(&sentence) || PREFERENCE_START.is_match(&sentence) {
                Statement::Preference
            } else {
                return None;
            };
            Some((kind, sentence.chars().take(MAX_STATEMENT_CHARS).collect()))
        })
        .collect()
}

/// Splits text into trimmed sentences at line breaks and at `.`, `!`, `?` followed by a space.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace()) {
                push_sentence(&mut out, &current);
                current.clear();
            }
        }
        push_sentence(&mut out, &current);
    }
    out
}

fn push_sentence(out: &mut Vec<String>, raw: &str) {
    let sentence = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = sentence.trim_start_matches(['-', '*', '>', ' ']).trim();
    if !sentence.is_empty() {
        out.push(sentence.to_owned());
    }
}

/// Whether a statement says not to do something, and what it is about (its words after the leading
/// "always"/"never"/"please").
fn polarity_and_subject(text: &str) -> (bool, String) {
    let negative = NEGATIVE_START.is_match(text);
    let subject = LEAD_WORDS.replace(text, "");
    let subject: String = subject
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { ' ' })
        .collect();
    (negative, subject.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Removes existing items that a new statement contradicts: the same subject with the opposite
/// polarity ("always use tabs" after "never use tabs"), or a positive statement about `Y` after
/// "use X instead of Y".
pub(crate) fn drop_contradicted(existing: &mut Items, new: &Items) {
    for item in new.values() {
        let (negative, subject) = polarity_and_subject(&item.text);
        let replaced: Option<String> = INSTEAD_OF.captures(&item.text).map(|c| c[2].to_lowercase());
        existing.retain(|key, old: &mut Item| {
            if new.contains_key(key) {
                return true;
            }
            let (old_negative, old_subject) = polarity_and_subject(&old.text);
            let opposite = old_negative != negative && old_subject == subject && !subject.is_empty();
            let superseded = replaced.as_deref().is_some_and(|y| {
                let y = y.trim_matches(|c: char| !c.is_alphanumeric());
                !old_negative
                    && old_subject.split_whitespace().any(|w| w == y)
                    && !old_subject.contains("instead of")
            });
            !(opposite || superseded)
        });
    }
}
