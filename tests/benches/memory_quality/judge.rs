//! Reading injected text: which note each part came from, and whether a fact's strings are in it.

use std::collections::BTreeSet;

/// A note as the store lists it.
#[derive(Debug, Clone)]
pub(crate) struct StoredNote {
    pub(crate) scope: String,
    pub(crate) path: String,
    pub(crate) title: String,
    pub(crate) body: String,
    pub(crate) generator: String,
}

impl StoredNote {
    /// The note as a block of injected text, in the product's section format.
    pub(crate) fn section(&self, cap: usize) -> String {
        let body: String = self.body.trim().chars().take(cap).collect();
        format!("### {} (`{}`, {})\n{}\n\n", self.title, self.path, self.scope, body.trim_end())
    }
}

/// A part of an injection and the note it came from (`None` for the block's own header text).
#[derive(Debug, Clone)]
pub(crate) struct Part {
    pub(crate) note: Option<(String, String)>,
    pub(crate) text: String,
}

/// Splits an injection into the notes it carries: a `### title (`path`, scope)` heading opens a
/// note's section; an index line `- `path` (scope): …` is a part of its own.
pub(crate) fn parts(text: &str) -> Vec<Part> {
    let mut out = vec![Part { note: None, text: String::new() }];
    for line in text.lines() {
        if let Some(note) = heading(line) {
            out.push(Part { note: Some(note), text: format!("{line}\n") });
        } else if let Some(note) = index_line(line) {
            out.push(Part { note: Some(note), text: format!("{line}\n") });
            out.push(Part { note: None, text: String::new() });
        } else if line.starts_with("## ") || line.starts_with("</") {
            out.push(Part { note: None, text: format!("{line}\n") });
        } else {
            let last = out.last_mut().expect("never empty");
            last.text.push_str(line);
            last.text.push('\n');
        }
    }
    out.retain(|p| !p.text.trim().is_empty());
    out
}

/// `### Title (`path`, scope)` → (scope, path).
fn heading(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("### ")?.strip_suffix(')')?;
    let open = rest.rfind(" (`")?;
    let (path, scope) = rest[open + 3..].split_once("`, ")?;
    Some((scope.trim().to_owned(), path.to_owned()))
}

/// `- `path` (scope): title — description` → (scope, path).
fn index_line(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("- `")?;
    let (path, rest) = rest.split_once("` (")?;
    let (scope, _) = rest.split_once("):")?;
    path.ends_with(".md").then(|| (scope.to_owned(), path.to_owned()))
}

/// Whether a part is the start block's account of where the last session left off: history, where
/// what was asked is quoted as it was asked, not shown as a rule.
pub(crate) fn is_left_off(part: &Part) -> bool {
    part.note.is_none() && part.text.starts_with("## Where the last session")
}

/// The parts of an injection that are not imported distractor notes.
pub(crate) fn judged<'a>(parts: &'a [Part], distractors: &BTreeSet<(String, String)>) -> Vec<&'a Part> {
    parts.iter().filter(|p| p.note.as_ref().is_none_or(|n| !distractors.contains(n))).collect()
}

/// Whether one of `parts` contains every key.
pub(crate) fn shows(parts: &[&Part], keys: &[&str]) -> bool {
    !keys.is_empty() && parts.iter().any(|p| has_all(&p.text, keys))
}

/// The first part that contains every key, by its note.
pub(crate) fn shown_by<'a>(parts: &[&'a Part], keys: &[&str]) -> Option<&'a Part> {
    if keys.is_empty() {
        return None;
    }
    parts.iter().copied().find(|p| has_all(&p.text, keys))
}

/// Whether `text` contains every key (case-insensitive; `a|b` accepts either; a key's ends that
/// are letters or digits must not continue a word).
pub(crate) fn has_all(text: &str, keys: &[&str]) -> bool {
    let hay = text.to_lowercase();
    keys.iter().all(|key| key.split('|').any(|alt| bounded(&hay, &alt.to_lowercase())))
}

fn bounded(hay: &str, needle: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let starts_word = needle.chars().next().is_some_and(word);
    let ends_word = needle.chars().next_back().is_some_and(word);
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        (!starts_word || !before.is_some_and(word)) && (!ends_word || !after.is_some_and(word))
    })
}

/// The naive baseline's words of a text: lowercase runs of letters and digits, without English
/// function words and single characters.
pub(crate) fn words(text: &str) -> BTreeSet<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() > 1 && !STOPWORDS.contains(w))
        .map(str::to_owned)
        .collect()
}

const STOPWORDS: &[&str] = &[
    "a", "about", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but",
    "by", "can", "could", "did", "do", "does", "don", "for", "from", "get", "got", "had", "has", "have",
    "he", "her", "here", "him", "his", "how", "if", "in", "into", "is", "it", "its", "just", "ll", "me",
    "my", "no", "not", "now", "of", "ok", "on", "or", "our", "re", "she", "should", "so", "some", "than",
    "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "too", "us",
    "ve", "very", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with",
    "would", "yes", "you", "your",
];

/// Checks the judge on known cases before it judges anything.
pub(crate) fn self_check() {
    assert!(has_all("Use `pnpm install`", &["pnpm"]));
    assert!(!has_all("the pipeline", &["pip"]));
    assert!(has_all("localhost:3000/cart", &["3000"]));
    assert!(!has_all("30000 rows", &["3000"]));
    assert!(has_all("imports via @/lib", &["@/"]));
    assert!(has_all("Moved to PostgreSQL 16", &["postgres 16|postgresql 16"]));
    let text = "<agent-memory>\nintro\n\n## About the user\n\n### Prefs (`profile/p.md`, user)\n- a\n\n## Other notes (read)\n- `tools/x.md` (user): X — y\n</agent-memory>\n";
    let notes: Vec<_> = parts(text).into_iter().filter_map(|p| p.note).collect();
    let expected = [("user", "profile/p.md"), ("user", "tools/x.md")];
    assert_eq!(notes.len(), 2);
    for ((scope, path), (s, p)) in notes.iter().zip(expected) {
        assert_eq!((scope.as_str(), path.as_str()), (s, p));
    }
}
