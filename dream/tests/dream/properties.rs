//! Laws of the run loop, checked on random event streams and chunk sizes with scripted providers.

use dream::{Action, NoProgress, run};
use memory_core::{MemoryStore, NotePath, Scope};
use proptest::prelude::*;

use crate::support::{
    ScriptedProvider, all_notes, delete_op, ids, options, plain_events, reply, store_with, write_op,
};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Appends the chunk's event ids to `profile/log.md`, reading the note as the request gives it.
fn appending_provider() -> ScriptedProvider {
    ScriptedProvider::new(|request, _| {
        let current = request.notes.iter().find(|n| n.path.as_str() == "profile/log.md");
        let mut body = current.map(|n| n.body.clone()).unwrap_or_default();
        for id in ids(request) {
            body.push_str(&format!("- {id}\n"));
        }
        let action = if current.is_some() { Action::Update } else { Action::Create };
        reply(vec![write_op(action, "profile/log.md", &body, ids(request))])
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_update_is_lost_across_chunks(n_first in 1usize..30, n_second in 0usize..30, chunk_size in 1usize..12) {
        runtime().block_on(async {
            let events = plain_events(n_first + n_second, None);
            let store = store_with(&events[..n_first + 1]).await;
            let mut options = options();
            options.chunk_size = chunk_size;
            let provider = appending_provider();
            run(&store, &provider, &options, &NoProgress).await.unwrap();
            store.append(&events[n_first + 1..]).await.unwrap();
            run(&store, &provider, &options, &NoProgress).await.unwrap();
            let note = store.get_note(&Scope::User, &NotePath::new("profile/log.md").unwrap()).await.unwrap().unwrap();
            let logged: Vec<&str> = note.body.lines().map(|l| l.trim_start_matches("- ")).collect();
            let expected: Vec<&str> = events.iter().map(|e| e.id.as_str()).collect();
            prop_assert_eq!(logged, expected, "every event is logged once, in order");
            prop_assert_eq!(provider.calls(), (n_first + 1).div_ceil(chunk_size) + n_second.div_ceil(chunk_size));
            Ok(())
        })?;
    }

    #[test]
    fn reruns_are_idempotent(n in 1usize..30, chunk_size in 1usize..12, project in proptest::option::of("[a-z]{1,8}")) {
        runtime().block_on(async {
            let store = store_with(&plain_events(n, project.as_deref())).await;
            let mut options = options();
            options.chunk_size = chunk_size;
            let provider = appending_provider();
            run(&store, &provider, &options, &NoProgress).await.unwrap();
            let (notes, marks, calls) = (all_notes(&store).await, store.watermarks().await.unwrap(), provider.calls());
            let again = run(&store, &provider, &options, &NoProgress).await.unwrap();
            prop_assert_eq!(provider.calls(), calls, "no provider call without new events");
            prop_assert_eq!((again.events_read, again.changes.len()), (0, 0));
            prop_assert_eq!(all_notes(&store).await, notes);
            prop_assert_eq!(store.watermarks().await.unwrap(), marks);
            Ok(())
        })?;
    }

    #[test]
    fn deletes_really_delete(n in 2usize..20, chunk_size in 1usize..6) {
        runtime().block_on(async {
            let store = store_with(&plain_events(n, None)).await;
            let mut options = options();
            options.chunk_size = chunk_size;
            // Creates the note on the first chunk, deletes it on the second, recreates it on the third...
            let provider = ScriptedProvider::new(|request, _| {
                let exists = request.notes.iter().any(|n| n.path.as_str() == "topics/flip.md");
                if exists {
                    reply(vec![delete_op("user", "topics/flip.md")])
                } else {
                    reply(vec![write_op(Action::Create, "topics/flip.md", "- here\n", ids(request))])
                }
            });
            let report = run(&store, &provider, &options, &NoProgress).await.unwrap();
            let chunks = (n + 1).div_ceil(chunk_size) as u64;
            prop_assert_eq!(report.notes_created, chunks.div_ceil(2));
            prop_assert_eq!(report.notes_deleted, chunks / 2);
            let path = NotePath::new("topics/flip.md").unwrap();
            let note = store.get_note(&Scope::User, &path).await.unwrap();
            prop_assert_eq!(note.is_some(), chunks % 2 == 1);
            if chunks.is_multiple_of(2) {
                prop_assert!(store.note_history(&Scope::User, &path).await.unwrap().is_empty());
                prop_assert!(all_notes(&store).await.is_empty());
            }
            Ok(())
        })?;
    }
}
