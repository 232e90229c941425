//! Full-text search text: what is indexed for a note, and the Lucene query built from the forms
//! of search terms.
//!
//! The index holds a note's words as `memory_core::search` sees them (runs of letters and
//! digits, lowercased, separated by single spaces), so Lucene's tokenizer and the core term
//! splitter agree on what a word is. Queries are built only from the forms of
//! [`memory_core::search::expand`]: each form is escaped, quoted (a phrase stays a phrase), and
//! the forms are OR-ed.

use memory_core::Note;

/// The text stored in the full-text index for a note: its words and its topics'.
pub(crate) fn indexed_text(note: &Note) -> String {
    memory_core::search::words(&memory_core::search::indexed_text(note)).join(" ")
}

/// Characters with a meaning in Lucene's query syntax.
const LUCENE_SPECIAL: &[char] =
    &['+', '-', '&', '|', '!', '(', ')', '{', '}', '[', ']', '^', '"', '~', '*', '?', ':', '\\', '/'];

/// A Lucene query matching any of `terms`, each as a quoted, escaped phrase. `None` without terms.
pub(crate) fn lucene_query(terms: &[String]) -> Option<String> {
    if terms.is_empty() {
        return None;
    }
    let clauses: Vec<String> = terms
        .iter()
        .map(|term| {
            let mut quoted = String::with_capacity(term.len() + 2);
            quoted.push('"');
            for c in term.chars() {
                if LUCENE_SPECIAL.contains(&c) {
                    quoted.push('\\');
                }
                quoted.push(c);
            }
            quoted.push('"');
            quoted
        })
        .collect();
    Some(clauses.join(" OR "))
}

#[cfg(test)]
mod tests {
    use memory_core::search::terms;

    use super::*;

    #[test]
    fn quotes_and_ors_terms() {
        let query = lucene_query(&terms("Cargo test: flags*")).expect("terms");
        assert_eq!(query, r#""cargo" OR "test" OR "flags""#);
        assert_eq!(lucene_query(&terms("the ( ) * AND OR")), None);
    }

    #[test]
    fn escapes_syntax_even_inside_terms() {
        let raw = vec!["a\"b".to_owned(), "c\\d".to_owned(), "x:y*".to_owned()];
        assert_eq!(lucene_query(&raw).expect("terms"), r#""a\"b" OR "c\\d" OR "x\:y\*""#);
    }

    #[test]
    fn operators_are_plain_words() {
        let query = lucene_query(&terms("NEAR cargo NOT")).expect("terms");
        assert_eq!(query, r#""near" OR "cargo""#);
    }
}
