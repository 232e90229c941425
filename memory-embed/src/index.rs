//! Keeping a store's notes embedded: what passages of a note are embedded, and filling in the
//! embeddings of notes that have none (new or changed ones) after notes are written.

use memory_core::{MemoryStore, Note};

use crate::error::{Error, Result};
use crate::model::{Embedder, MODEL_NAME, NOTE_TOKENS};

/// Most passages embedded per note; a longer list is represented by its first items.
pub const MAX_PASSAGES: usize = 64;
/// Notes embedded per batch.
const BATCH_NOTES: usize = 32;

/// The passages of a note that are embedded, each standing for it in a search by meaning: its
/// title with its description, then each list item and paragraph of its body under its title.
/// Counts a note's lines carry (`(3×, last 2026-12-01)`) are left out.
pub fn passages(note: &Note) -> Vec<String> {
    let title = note.meta.title.trim();
    let mut out = vec![match note.meta.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        Some(description) => format!("{title}. {description}"),
        None => title.to_owned(),
    }];
    let mut paragraph = String::new();
    let flush = |paragraph: &mut String, out: &mut Vec<String>| {
        let text = paragraph.trim();
        if !text.is_empty() && out.len() < MAX_PASSAGES {
            out.push(format!("{title}: {}", memory_core::without_counts(text)));
        }
        paragraph.clear();
    };
    for line in note.body.lines() {
        let trimmed = line.trim();
        let item = trimmed.strip_prefix("- ").or_else(|| trimmed.strip_prefix("* "));
        if trimmed.is_empty() || trimmed.starts_with('#') {
            flush(&mut paragraph, &mut out);
            continue;
        }
        if let Some(item) = item {
            flush(&mut paragraph, &mut out);
            paragraph.push_str(item);
            flush(&mut paragraph, &mut out);
        } else {
            paragraph.push(' ');
            paragraph.push_str(trimmed);
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

/// What is embedded for a passage: its text and the topics it names but does not say
/// ([`memory_core::search::concepts`]), so a question asked by the topic ("which package
/// manager?") is close to a passage naming only the tool (`use pnpm here`). A topic a word of
/// which the passage already has ("for searching, use ripgrep") would only weigh it again.
pub fn embedded_text(passage: &str) -> String {
    let lower = passage.to_lowercase();
    let topics: Vec<&str> = memory_core::search::concepts(passage)
        .into_iter()
        .filter(|topic| !memory_core::search::terms(topic).iter().any(|word| lower.contains(word.as_str())))
        .collect();
    if topics.is_empty() { passage.to_owned() } else { format!("{passage} ({})", topics.join("; ")) }
}

/// What [`refresh`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refreshed {
    /// Notes whose embeddings were written.
    pub notes: usize,
    /// Passages embedded.
    pub passages: usize,
}

/// Embeds every note of `store` that has no embeddings by this model (new notes, changed ones),
/// at most `limit` notes. A store without vector search is left alone.
pub async fn refresh(store: &dyn MemoryStore, embedder: &Embedder, limit: usize) -> Result<Refreshed> {
    let mut done = Refreshed::default();
    if !store.capabilities().vector_search {
        return Ok(done);
    }
    let store_error = |e: memory_core::Error| Error::Store(e.to_string());
    let mut tried: std::collections::BTreeSet<(String, String)> = std::collections::BTreeSet::new();
    while done.notes < limit {
        let want = BATCH_NOTES.min(limit - done.notes);
        let missing =
            store.notes_without_embeddings(MODEL_NAME, want + tried.len()).await.map_err(store_error)?;
        let notes: Vec<Note> = missing
            .into_iter()
            .filter(|n| !tried.contains(&(n.meta.scope.to_string(), n.path.as_str().to_owned())))
            .take(want)
            .collect();
        if notes.is_empty() {
            break;
        }
        let texts: Vec<Vec<String>> =
            notes.iter().map(|n| passages(n).iter().map(|p| embedded_text(p)).collect()).collect();
        let flat: Vec<&str> = texts.iter().flatten().map(String::as_str).collect();
        let mut vectors = embedder.embed_all(&flat, NOTE_TOKENS)?.into_iter();
        for (note, texts) in notes.iter().zip(&texts) {
            let mine: Vec<Vec<f32>> = vectors.by_ref().take(texts.len()).collect();
            tried.insert((note.meta.scope.to_string(), note.path.as_str().to_owned()));
            if store.put_embeddings(note, MODEL_NAME, &mine).await.map_err(store_error)? {
                done.notes += 1;
                done.passages += mine.len();
            }
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::passages;

    #[test]
    fn a_note_is_embedded_by_its_title_and_each_item() {
        let note = memory_core::Note {
            path: memory_core::NotePath::new("profile/preferences.md").unwrap(),
            meta: memory_core::NoteMeta {
                title: "Preferences".to_owned(),
                description: Some("How the user wants things done".to_owned()),
                tags: Vec::new(),
                scope: memory_core::Scope::User,
                kind: memory_core::NoteKind::Preference,
                sources: Vec::new(),
                updated: chrono::DateTime::UNIX_EPOCH,
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: "Preferences the user stated.\n\n- never force-push to main (1×, last 2026-12-01)\n- tabs, not spaces\n"
                .to_owned(),
        };
        assert_eq!(
            passages(&note),
            [
                "Preferences. How the user wants things done",
                "Preferences: Preferences the user stated.",
                "Preferences: never force-push to main",
                "Preferences: tabs, not spaces",
            ]
        );
    }

    #[test]
    fn a_passage_is_embedded_with_the_topics_it_names() {
        assert_eq!(
            super::embedded_text("Preferences: never force-push to main"),
            "Preferences: never force-push to main (git history, branches)"
        );
        assert_eq!(super::embedded_text("Preferences: short answers"), "Preferences: short answers");
        let said = "Preferences: for searching, use ripgrep";
        assert_eq!(super::embedded_text(said), said, "the topic is already said");
    }
}
