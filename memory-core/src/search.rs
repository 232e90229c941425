//! How user text becomes search terms. Every store uses these functions, so a query means the same
//! thing whichever store answers it.

/// Most terms taken from one query; long prompts are cut to their first distinct terms.
pub const MAX_TERMS: usize = 32;

/// Words too common to say anything about relevance.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into",
    "is", "it", "its", "just", "me", "my", "no", "not", "now", "of", "on", "or", "our", "please", "should",
    "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
    "us", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "would",
    "you", "your",
];

/// Splits text into lowercase search terms.
///
/// A term is a run of Unicode letters and digits; everything else (quotes, colons, `*`,
/// parentheses, slashes) separates terms and is never query syntax. Terms are lowercased,
/// de-duplicated in order of first appearance, stop words and one-letter ASCII terms are dropped,
/// and at most [`MAX_TERMS`] are kept. `NEAR`, `AND` and `OR` are plain words.
pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.split(|c: char| !c.is_alphanumeric()) {
        if raw.is_empty() || (raw.len() == 1 && raw.is_ascii()) {
            continue;
        }
        let term = raw.to_lowercase();
        if STOP_WORDS.contains(&term.as_str()) || out.contains(&term) {
            continue;
        }
        out.push(term);
        if out.len() == MAX_TERMS {
            break;
        }
    }
    out
}

/// The text of a note that search looks at: path words, title, description, tags and body.
pub fn note_text(note: &crate::Note) -> String {
    let meta = &note.meta;
    let mut text = String::with_capacity(note.body.len() + 128);
    for part in [note.path.as_str(), meta.title.as_str(), meta.description.as_deref().unwrap_or("")] {
        text.push_str(part);
        text.push('\n');
    }
    text.push_str(&meta.tags.join(" "));
    text.push('\n');
    text.push_str(&note.body);
    text
}
