//! Stores a note in the in-memory store, finds it with a full-text search and prints the hit.
//!
//! Run with `cargo run -p examples --example in_memory`.

#![allow(clippy::print_stdout, reason = "an example shows its results on stdout")]

use memory_core::{InMemoryStore, MemoryStore, Note, NoteKind, NoteMeta, NotePath, Scope, SearchQuery};

#[tokio::main(flavor = "current_thread")]
async fn main() -> memory_core::Result<()> {
    let store = InMemoryStore::new();

    let note = Note {
        path: NotePath::new("tools/cargo/test-flags.md")?,
        meta: NoteMeta {
            title: "Cargo test flags".to_owned(),
            description: Some("How this user runs the test suite".to_owned()),
            tags: vec!["cargo".to_owned(), "testing".to_owned()],
            scope: Scope::User,
            kind: NoteKind::Tool,
            sources: Vec::new(),
            updated: chrono::Utc::now(),
            generator: memory_core::GENERATOR_HUMAN.to_owned(),
            owner: None,
        },
        body: "Runs `cargo nextest run --workspace`; uses `-- --nocapture` only when debugging.\n".to_owned(),
    };
    note.validate()?;
    store.put_note(&note).await?;

    let query = SearchQuery::new("how do I run the cargo tests?", vec![Scope::User], 5);
    let hits = store.search_notes(&query).await?;
    println!("{} hit(s) for {:?}", hits.len(), query.text);
    for hit in &hits {
        println!(
            "- {} [{}] score {:.3}, {} term(s) matched",
            hit.note.path, hit.note.meta.scope, hit.score, hit.matched_terms
        );
    }
    if let Some(best) = hits.first() {
        println!("\n{}", best.note.to_markdown());
    }
    Ok(())
}
