//! Why a note holds what it holds, item by item: the sentence of its sources each item was
//! distilled from (the prompt it was said in, with its session, harness and time) and where such a
//! statement is filed and why ([`dream::filed`]): your profile when it says it holds everywhere or
//! speaks of you or of how the agent is to work with you, the project when it names it, speaks for
//! the team or says how its code is. An item no sentence of its sources says was learned from what
//! the sessions did (a failed command and the run that fixed it, a file edited again and again).

use memory_core::search::words;
use memory_core::{MemoryStore, Note, StoredEvent, item_text};

/// One item of a note, explained.
#[derive(Debug, Clone)]
pub struct Item {
    /// The item as the note says it, without its count.
    pub text: String,
    /// The sentence of a source prompt it was distilled from, when one says it.
    pub said: Option<Said>,
}

/// A sentence an item was distilled from.
#[derive(Debug, Clone)]
pub struct Said {
    /// The sentence, as typed.
    pub sentence: String,
    /// The prompt event it is part of.
    pub event: StoredEvent,
    /// Where such a statement is filed and why; `None` when it states nothing to keep by itself
    /// (an item a correction or an LLM gave it).
    pub filed: Option<(dream::Reach, dream::Why)>,
}

/// The least share of an item's words a sentence must hold to be what it was distilled from.
const SAID_SHARE: f64 = 0.6;

/// Each item of `note` (its list items; a note without any, its body as one), with the sentence
/// of its sources (`note.meta.sources`, read from `store`) it was distilled from.
pub async fn items(store: &dyn MemoryStore, note: &Note) -> memory_core::Result<Vec<Item>> {
    let sources = store.events_by_id(&note.meta.sources).await?;
    let sentences: Vec<(String, Vec<String>, &StoredEvent)> = sources
        .iter()
        .filter_map(|stored| stored.event.prompt.as_deref().map(|prompt| (prompt, stored)))
        .flat_map(|(prompt, stored)| {
            dream::sentences(prompt).into_iter().map(move |s| {
                let own = words(&s);
                (s, own, stored)
            })
        })
        .collect();
    let mut texts: Vec<String> = note.body.lines().filter_map(item_text).map(str::to_owned).collect();
    if texts.is_empty() && !note.body.trim().is_empty() {
        texts.push(note.body.trim().to_owned());
    }
    Ok(texts
        .into_iter()
        .map(|text| {
            let asked = words(&text);
            let share = |own: &[String]| {
                let held = asked.iter().filter(|w| own.contains(w)).count();
                held as f64 / asked.len().max(1) as f64
            };
            let said = sentences
                .iter()
                .map(|(sentence, own, stored)| (share(own), sentence, stored))
                .filter(|(share, _, _)| *share >= SAID_SHARE)
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.2.position.cmp(&a.2.position)))
                .map(|(_, sentence, stored)| Said {
                    sentence: sentence.clone(),
                    event: (*stored).clone(),
                    filed: dream::filed(sentence),
                });
            Item { text, said }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use memory_core::{
        EventId, EventKind, Harness, HookEvent, InMemoryStore, MemoryStore as _, Note, NoteKind, NoteMeta,
        NotePath, Scope, SessionKey,
    };

    use super::items;

    fn prompt(seed: &str, text: &str) -> HookEvent {
        let at = chrono::DateTime::UNIX_EPOCH;
        let mut e = HookEvent::new(
            EventId::derive("claude", "s", at, seed.as_bytes()),
            Harness::named("claude"),
            SessionKey::new("claude", "s"),
            EventKind::UserPromptSubmit,
            at,
            serde_json::json!({}),
        );
        e.prompt = Some(text.to_owned());
        e
    }

    #[tokio::test]
    async fn each_item_is_traced_to_the_sentence_it_came_from_with_why_it_is_filed_there() {
        let store = InMemoryStore::new();
        let said = [
            prompt("a", "I prefer small focused commits. Run the tests please."),
            prompt("b", "In this repo we never commit generated protobuf code. Thanks!"),
            prompt("c", "Keep your answers short, no preamble."),
        ];
        store.append(&said).await.unwrap();
        let note = Note {
            path: NotePath::new("profile/preferences.md").unwrap(),
            meta: NoteMeta {
                title: "Preferences".to_owned(),
                description: None,
                tags: Vec::new(),
                scope: Scope::User,
                kind: NoteKind::Preference,
                sources: said.iter().map(|e| e.id.clone()).collect(),
                updated: chrono::DateTime::UNIX_EPOCH,
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: "- small focused commits (2×, last 2026-12-01)\n- in this repo we never commit generated protobuf code\n- keep your answers short, no preamble\n- the ci runs nightly\n".to_owned(),
        };
        let explained = items(&store, &note).await.unwrap();
        let why: Vec<Option<dream::Why>> =
            explained.iter().map(|i| i.said.as_ref().and_then(|s| s.filed).map(|(_, why)| why)).collect();
        assert_eq!(
            why,
            [
                Some(dream::Why::AboutTheUser),
                Some(dream::Why::NamesTheProject),
                Some(dream::Why::ToTheAgent),
                None
            ]
        );
        assert_eq!(explained[0].text, "small focused commits", "the count is left out");
        assert_eq!(explained[0].said.as_ref().unwrap().sentence, "I prefer small focused commits.");
        assert_eq!(
            explained[1].said.as_ref().unwrap().event.event.id,
            said[1].id,
            "with the prompt it is from"
        );
        assert!(explained[3].said.is_none(), "no sentence says it: learned from what the sessions did");
    }
}
