//! What a file was edited for: the words of the prompt its edit answered, beside it in the hot
//! files (`edited `src/ingest/csv_reader.rs` — bom, header, column, matching`), so "where's the
//! header parsing code?" finds the file its path does not name. The words of a later edit come
//! first; the list stays short.

use memory_core::search;

/// Verbs a change of any kind is asked with, beside those of any task ([`search::action`]).
const CHANGE_VERBS: &[&str] =
    &["delete", "fix", "fixed", "fixing", "implement", "move", "refactor", "rename", "tweak"];

/// Most words kept of what a file was edited for.
const MAX_WORDS: usize = 6;

/// The words of `prompt` that say what an edit of `path` was for: not everyday English, not a verb
/// any task is asked with, not a time, not a number, not a word of the path; words of software
/// work first, in the prompt's order.
pub(crate) fn words(prompt: &str, path: &str) -> Vec<String> {
    let in_path = search::words(path);
    let candidates: Vec<String> = search::terms(prompt)
        .into_iter()
        .filter(|w| {
            w.chars().count() >= 3
                && w.chars().all(char::is_alphabetic)
                && !search::action(w)
                && !CHANGE_VERBS.contains(&w.as_str())
                && !search::when(w)
                && !in_path.contains(w)
                && w != "redacted"
        })
        .collect();
    let mut kept: Vec<&String> = candidates.iter().filter(|w| search::software(w)).collect();
    kept.extend(candidates.iter().filter(|w| !search::software(w)));
    kept.truncate(MAX_WORDS);
    candidates.iter().filter(|w| kept.contains(w)).cloned().collect()
}

/// `item` with the words it was edited for, when there are any.
pub(crate) fn with_words(item: &str, words: &[String]) -> String {
    if words.is_empty() {
        item.to_owned()
    } else {
        format!("{item}{}{}", memory_core::PURPOSE_SEPARATOR, words.join(", "))
    }
}

/// An item's text without the words of what it was for; any other item's text as it is.
pub(crate) fn bare(text: &str) -> &str {
    memory_core::purpose_parts(text).map_or(text, |(item, _)| item)
}

/// The text of an item seen again: the newer sighting's words first, then the older's, each once,
/// at most [`MAX_WORDS`]. Any other item's newer text, as it is.
pub(crate) fn merged(older: &str, newer: &str) -> String {
    if memory_core::purpose_parts(older).is_none() && memory_core::purpose_parts(newer).is_none() {
        return newer.to_owned();
    }
    let said = |text: &str| -> Vec<String> {
        memory_core::purpose_parts(text)
            .map(|(_, words)| words.split(", ").map(str::to_owned).filter(|w| !w.is_empty()).collect())
            .unwrap_or_default()
    };
    let mut words = said(newer);
    for word in said(older) {
        if !words.contains(&word) {
            words.push(word);
        }
    }
    words.truncate(MAX_WORDS);
    with_words(bare(newer), &words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_what_an_edit_was_for_leave_out_the_path_and_the_asking() {
        let said = words(
            "the agrisense dumps have a utf-8 BOM on the first header which breaks column matching, strip it in the csv reader",
            "src/ingest/csv_reader.rs",
        );
        assert!(said.contains(&"header".to_owned()) && said.contains(&"bom".to_owned()), "{said:?}");
        assert!(!said.iter().any(|w| w == "csv" || w == "reader" || w == "the"), "{said:?}");
        let said =
            words("please add a retry with backoff to the photo upload queue tomorrow", "src/sync/queue.ts");
        assert!(said.contains(&"retry".to_owned()) && said.contains(&"upload".to_owned()), "{said:?}");
        assert!(
            !said.iter().any(|w| w == "please" || w == "add" || w == "tomorrow" || w == "queue"),
            "{said:?}"
        );
        let said = words("my token is [REDACTED:token], use it to call the billing api", "src/billing.ts");
        assert!(!said.iter().any(|w| w == "redacted"), "{said:?}");
        assert!(words("ok", "src/a.rs").is_empty());
    }

    #[test]
    fn an_item_seen_again_keeps_the_newer_words_first_and_few_of_them() {
        let older = with_words("edited `src/a.rs`", &["header".to_owned(), "bom".to_owned()]);
        let newer = with_words("edited `src/a.rs`", &["delimiter".to_owned(), "header".to_owned()]);
        assert_eq!(merged(&older, &newer), "edited `src/a.rs` — delimiter, header, bom");
        assert_eq!(merged("edited `src/a.rs`", &newer), newer);
        assert_eq!(merged(&older, "edited `src/a.rs`"), older);
        let many: Vec<String> = (0..10).map(|i| format!("w{i}")).collect();
        let long = with_words("edited `x`", &many);
        assert_eq!(merged(&long, "edited `x`").split(", ").count(), MAX_WORDS);
        // A statement with a dash and commas is no file with its words.
        let said = "correction on tests — a, b, c, d, e, f, g, a";
        assert_eq!(merged(said, said), said);
        assert_eq!(bare(said), said);
        assert_eq!(bare(&older), "edited `src/a.rs`");
    }
}
