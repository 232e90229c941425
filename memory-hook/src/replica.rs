//! The local copy of a server store's notes, which hooks read in forward mode so that a session
//! start or a prompt never waits on the network.
//!
//! The copy is a store of its own (the binary keeps it in `<data_dir>/replica.db`, an embedded
//! SQLite file): every current note of the server with its embeddings, no events, no history that
//! matters. [`refresh`] brings it level with the server: notes that differ are written, notes the
//! server no longer has are deleted, and embeddings the server has and the copy lacks are copied
//! (a changed note loses its embeddings in the copy as on the server, so they are copied again).
//! The forwarder refreshes it once per run, `agent-memory sync` on every call, the dream after
//! every run. The server stays the system of record: nothing is ever written back from the copy.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::{MemoryStore, Note, NoteChange, NoteFilter, NotePath, Scope};

/// Notes written to the copy per commit.
const COMMIT_BATCH: usize = 500;

/// Notes whose embeddings are read from the server per call.
const EMBEDDINGS_BATCH: usize = 200;

/// What a refresh changed in the copy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// Current notes of the server.
    pub notes: usize,
    /// Notes written (new or changed).
    pub written: usize,
    /// Notes deleted (gone from the server).
    pub deleted: usize,
    /// Notes whose embeddings were copied.
    pub embedded: usize,
}

/// Brings `copy` level with `source`'s current notes and their embeddings by `model`.
pub async fn refresh(
    source: &dyn MemoryStore,
    copy: &dyn MemoryStore,
    model: &str,
) -> memory_core::Result<Refreshed> {
    let key = |n: &Note| (n.meta.scope.clone(), n.path.clone());
    let theirs = source.list_notes(&NoteFilter::all()).await?;
    let ours: BTreeMap<(Scope, NotePath), Note> =
        copy.list_notes(&NoteFilter::all()).await?.into_iter().map(|n| (key(&n), n)).collect();
    let wanted: BTreeSet<(Scope, NotePath)> = theirs.iter().map(key).collect();
    let mut changes: Vec<NoteChange> =
        theirs.iter().filter(|n| ours.get(&key(n)) != Some(*n)).cloned().map(NoteChange::Put).collect();
    let written = changes.len();
    changes.extend(
        ours.keys()
            .filter(|k| !wanted.contains(*k))
            .map(|(scope, path)| NoteChange::Delete { scope: scope.clone(), path: path.clone() }),
    );
    let deleted = changes.len() - written;
    for batch in changes.chunks(COMMIT_BATCH) {
        copy.commit(batch, None).await?;
    }
    let mut refreshed = Refreshed { notes: theirs.len(), written, deleted, embedded: 0 };
    if !copy.capabilities().vector_search {
        return Ok(refreshed);
    }
    // Embeddings to copy: of the notes the copy lacks them for, those the server has them for.
    let lacking = copy.notes_without_embeddings(model, usize::MAX).await?;
    if lacking.is_empty() {
        return Ok(refreshed);
    }
    let unembedded: BTreeSet<(Scope, NotePath)> =
        source.notes_without_embeddings(model, usize::MAX).await?.iter().map(key).collect();
    let candidates: Vec<Note> = lacking.into_iter().filter(|n| !unembedded.contains(&key(n))).collect();
    for batch in candidates.chunks(EMBEDDINGS_BATCH) {
        let vectors = source.note_embeddings(model, batch).await?;
        for (note, vectors) in batch.iter().zip(vectors) {
            if !vectors.is_empty() && copy.put_embeddings(note, model, &vectors).await? {
                refreshed.embedded += 1;
            }
        }
    }
    Ok(refreshed)
}

#[cfg(test)]
mod tests {
    use memory_core::{InMemoryStore, NoteKind, NoteMeta};

    use super::*;

    fn note(path: &str, body: &str) -> Note {
        Note {
            path: NotePath::new(path).unwrap(),
            meta: NoteMeta {
                title: path.to_owned(),
                description: None,
                tags: vec![],
                scope: Scope::User,
                kind: NoteKind::Tool,
                sources: vec![],
                updated: chrono::DateTime::UNIX_EPOCH,
                generator: "test".to_owned(),
                owner: None,
            },
            body: body.to_owned(),
        }
    }

    #[tokio::test]
    async fn the_copy_follows_the_server_notes_and_embeddings() {
        let (server, copy) = (InMemoryStore::new(), InMemoryStore::new());
        let (a, b) = (note("tools/a.md", "- one\n"), note("tools/b.md", "- two\n"));
        server.commit(&[NoteChange::Put(a.clone()), NoteChange::Put(b.clone())], None).await.unwrap();
        assert!(server.put_embeddings(&a, "m", &[vec![1.0, 0.0]]).await.unwrap());
        let first = refresh(&server, &copy, "m").await.unwrap();
        assert_eq!(first, Refreshed { notes: 2, written: 2, deleted: 0, embedded: 1 });
        assert_eq!(copy.list_notes(&NoteFilter::all()).await.unwrap(), vec![a.clone(), b.clone()]);
        assert_eq!(
            copy.note_embeddings("m", std::slice::from_ref(&a)).await.unwrap(),
            vec![vec![vec![1.0, 0.0]]]
        );
        assert_eq!(
            refresh(&server, &copy, "m").await.unwrap().written,
            0,
            "nothing changed, nothing written"
        );

        let a2 = note("tools/a.md", "- one, changed\n");
        server.commit(&[NoteChange::Put(a2.clone())], None).await.unwrap();
        server.delete_note(&Scope::User, &b.path).await.unwrap();
        let second = refresh(&server, &copy, "m").await.unwrap();
        assert_eq!(second, Refreshed { notes: 1, written: 1, deleted: 1, embedded: 0 });
        assert_eq!(copy.list_notes(&NoteFilter::all()).await.unwrap(), vec![a2.clone()]);
        assert_eq!(
            copy.note_embeddings("m", std::slice::from_ref(&a2)).await.unwrap(),
            vec![Vec::<Vec<f32>>::new()]
        );
        assert!(server.put_embeddings(&a2, "m", &[vec![0.0, 1.0]]).await.unwrap());
        assert_eq!(
            refresh(&server, &copy, "m").await.unwrap().embedded,
            1,
            "embeddings added later arrive too"
        );
    }
}
