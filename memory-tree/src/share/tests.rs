//! The shared folder against the in-memory reference store and a real temporary folder.

use chrono::{TimeZone as _, Utc};
use memory_core::{
    EventId, GENERATOR_HUMAN, InMemoryStore, MemoryStore as _, Note, NoteKind, NoteMeta, NotePath, Scope,
};
use memory_redact::Redactor;

use super::*;

const ID: &str = "app-1a2b3c4d";

fn note(path: &str, title: &str, body: &str) -> Note {
    Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: title.to_owned(),
            description: None,
            tags: vec!["cargo".to_owned()],
            scope: Scope::Project(ID.to_owned()),
            kind: NoteKind::Tool,
            sources: vec![EventId("0".repeat(32))],
            updated: Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap(),
            generator: "deterministic".to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    }
}

fn shared(tmp: &Path, home: &str) -> Shared {
    Shared {
        project: ID.to_owned(),
        name: "app".to_owned(),
        root: tmp.join("repo"),
        folder: tmp.join("repo/.agent-memory/notes"),
        ledger: tmp.join(home).join("share/app.json"),
    }
}

fn never(_: &str) -> bool {
    false
}

fn private(text: &str) -> bool {
    text.contains("[private]")
}

#[tokio::test]
async fn written_notes_are_read_by_another_home_and_a_hand_edit_is_a_persons() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (InMemoryStore::new(), InMemoryStore::new());
    let red = Redactor::new();
    a.put_note(&note("project/app/tools/cargo.md", "Cargo", "- run `cargo test`\n")).await.unwrap();
    a.put_note(&note("project/app/secret.md", "Keys", "- the token is [private]\n")).await.unwrap();
    a.put_note(&Note {
        meta: NoteMeta { scope: Scope::User, ..note("x.md", "Me", "").meta },
        ..note("profile/me.md", "Me", "- I am Ann\n")
    })
    .await
    .unwrap();
    let at_a = shared(tmp.path(), "a");
    let written = write_out(&a, &at_a, &red, &private).await.unwrap();
    assert_eq!(written.written, ["tools/cargo.md"]);
    assert_eq!((written.withheld, written.files), (1, 1));
    let folder = &at_a.folder;
    assert_eq!(std::fs::read_to_string(folder.join(GITATTRIBUTES)).unwrap(), GITATTRIBUTES_TEXT);
    let text = std::fs::read_to_string(folder.join("tools/cargo.md")).unwrap();
    assert!(text.contains("scope: project:app\n") && text.contains("# agent-memory sha256:"), "{text}");

    // Nothing changed: a second write writes nothing, and a read reads nothing.
    let again = write_out(&a, &at_a, &red, &private).await.unwrap();
    assert!(again.written.is_empty() && !again.brought_in.looked, "{again:?}");

    // Another home reads it as the project's note, generator kept.
    let at_b = shared(tmp.path(), "b");
    let read = bring_in(&b, &at_b, &red, usize::MAX).await.unwrap();
    assert_eq!(read.created, ["tools/cargo.md"]);
    let got = b
        .get_note(&Scope::Project(ID.into()), &NotePath::new("project/app/tools/cargo.md").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got.meta.generator, "deterministic");
    assert_eq!(got.body, "- run `cargo test`\n");
    assert!(
        !bring_in(&b, &at_b, &red, usize::MAX).await.unwrap().looked,
        "the second look is a stat per file"
    );

    // A hand edit in the folder is a person's in the store, and a write leaves the file as it is.
    std::fs::write(folder.join("tools/cargo.md"), text.replace("cargo test", "cargo nextest run")).unwrap();
    let edited = bring_in(&b, &at_b, &red, usize::MAX).await.unwrap();
    assert_eq!(edited.updated, ["tools/cargo.md"]);
    let got = b.get_note(&got.meta.scope, &got.path).await.unwrap().unwrap();
    assert_eq!(
        (got.meta.generator.as_str(), got.body.as_str()),
        (GENERATOR_HUMAN, "- run `cargo nextest run`\n")
    );
    let before = std::fs::read(folder.join("tools/cargo.md")).unwrap();
    let w = write_out(&b, &at_b, &red, &never).await.unwrap();
    assert!(w.written.is_empty(), "{w:?}");
    assert_eq!(std::fs::read(folder.join("tools/cargo.md")).unwrap(), before);

    // The note deleted in one home: its file goes; the other home deletes the note.
    a.commit(&[NoteChange::Delete { scope: got.meta.scope.clone(), path: got.path.clone() }], None)
        .await
        .unwrap();
    // Home A reads the hand edit in first (it was not A's): the person's note comes back.
    let w = write_out(&a, &at_a, &red, &private).await.unwrap();
    assert_eq!(w.brought_in.created, ["tools/cargo.md"], "{w:?}");
    std::fs::remove_file(folder.join("tools/cargo.md")).unwrap();
    let gone = bring_in(&b, &at_b, &red, usize::MAX).await.unwrap();
    assert_eq!(gone.deleted, ["tools/cargo.md"]);
    assert!(b.get_note(&got.meta.scope, &got.path).await.unwrap().is_none());
}

#[tokio::test]
async fn a_note_the_dream_changed_is_rewritten_and_one_it_deleted_is_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let store = InMemoryStore::new();
    let red = Redactor::new();
    let at = shared(tmp.path(), "a");
    store.put_note(&note("project/app/a.md", "A", "- one\n")).await.unwrap();
    store.put_note(&note("project/app/b.md", "B", "- two\n")).await.unwrap();
    write_out(&store, &at, &red, &never).await.unwrap();
    store.put_note(&note("project/app/a.md", "A", "- one\n- three\n")).await.unwrap();
    let b = note("project/app/b.md", "B", "");
    store
        .commit(&[NoteChange::Delete { scope: b.meta.scope.clone(), path: b.path.clone() }], None)
        .await
        .unwrap();
    let w = write_out(&store, &at, &red, &never).await.unwrap();
    assert_eq!(
        (w.written.as_slice(), w.removed.as_slice()),
        (["a.md".to_owned()].as_slice(), ["b.md".to_owned()].as_slice())
    );
    assert!(std::fs::read_to_string(at.folder.join("a.md")).unwrap().contains("- three\n"));
    assert!(!at.folder.join("b.md").exists());
    // A note becoming private leaves the folder.
    store.put_note(&note("project/app/a.md", "A", "- one [private]\n")).await.unwrap();
    let w = write_out(&store, &at, &red, &private).await.unwrap();
    assert_eq!((w.removed.as_slice(), w.withheld), (["a.md".to_owned()].as_slice(), 1));
    assert!(recorded(at.ledger.parent().unwrap()).iter().any(|r| r.folder == at.folder));
}

#[tokio::test]
async fn a_broken_file_is_reported_once_and_never_written_over() {
    let tmp = tempfile::tempdir().unwrap();
    let store = InMemoryStore::new();
    let red = Redactor::new();
    let at = shared(tmp.path(), "a");
    store.put_note(&note("project/app/a.md", "A", "- one\n")).await.unwrap();
    write_out(&store, &at, &red, &never).await.unwrap();
    std::fs::write(at.folder.join("a.md"), "---\ntitle: [unclosed\n---\n").unwrap();
    let read = bring_in(&store, &at, &red, usize::MAX).await.unwrap();
    assert_eq!(read.invalid.len(), 1);
    assert!(!bring_in(&store, &at, &red, usize::MAX).await.unwrap().looked);
    store.put_note(&note("project/app/a.md", "A", "- one\n- two\n")).await.unwrap();
    let w = write_out(&store, &at, &red, &never).await.unwrap();
    assert_eq!(w.left, ["a.md"]);
    assert_eq!(std::fs::read_to_string(at.folder.join("a.md")).unwrap(), "---\ntitle: [unclosed\n---\n");
}

#[tokio::test]
async fn a_note_changed_in_the_store_and_in_the_folder_keeps_both_sides_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let store = InMemoryStore::new();
    let red = Redactor::new();
    let at = shared(tmp.path(), "a");
    store.put_note(&note("project/app/a.md", "A", "- one\n")).await.unwrap();
    write_out(&store, &at, &red, &never).await.unwrap();
    // Edited in the store (not written out yet), and in the folder (a pull).
    store.put_note(&note("project/app/a.md", "A", "- one\n- from the store\n")).await.unwrap();
    let text = std::fs::read_to_string(at.folder.join("a.md")).unwrap();
    std::fs::write(at.folder.join("a.md"), format!("{text}- from the folder\n")).unwrap();
    let read = bring_in(&store, &at, &red, usize::MAX).await.unwrap();
    assert_eq!(read.updated, ["a.md"]);
    let got = store
        .get_note(&Scope::Project(ID.into()), &NotePath::new("project/app/a.md").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got.body, "- one\n- from the folder\n- from the store\n");
    assert_eq!(got.meta.generator, GENERATOR_HUMAN);
}

#[tokio::test]
async fn an_older_version_as_agent_memory_wrote_it_never_replaces_a_newer_note() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (InMemoryStore::new(), InMemoryStore::new());
    let red = Redactor::new();
    let old = note("project/app/a.md", "A", "- one\n");
    a.put_note(&old).await.unwrap();
    write_out(&a, &shared(tmp.path(), "a"), &red, &never).await.unwrap();
    // Home B (another worktree on a branch behind) has a newer version already.
    let mut newer = note("project/app/a.md", "A", "- one\n- two\n");
    newer.meta.updated = old.meta.updated + chrono::Duration::days(1);
    b.put_note(&newer).await.unwrap();
    let at_b = shared(tmp.path(), "b");
    let read = bring_in(&b, &at_b, &red, usize::MAX).await.unwrap();
    assert!(read.updated.is_empty(), "{read:?}");
    assert_eq!(b.get_note(&newer.meta.scope, &newer.path).await.unwrap().unwrap(), newer);
    // The next write brings the file up to date.
    let w = write_out(&b, &at_b, &red, &never).await.unwrap();
    assert_eq!(w.written, ["a.md"]);
    assert!(std::fs::read_to_string(at_b.folder.join("a.md")).unwrap().contains("- two\n"));
}

#[tokio::test]
async fn a_large_change_is_read_a_batch_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (InMemoryStore::new(), InMemoryStore::new());
    let red = Redactor::new();
    for i in 0..5 {
        a.put_note(&note(&format!("project/app/n{i}.md"), "N", "- x\n")).await.unwrap();
    }
    write_out(&a, &shared(tmp.path(), "a"), &red, &never).await.unwrap();
    let at_b = shared(tmp.path(), "b");
    let first = bring_in(&b, &at_b, &red, 2).await.unwrap();
    assert_eq!((first.created.len(), first.pending), (2, 3));
    let second = bring_in(&b, &at_b, &red, 2).await.unwrap();
    assert_eq!((second.created.len(), second.pending), (2, 1));
    let third = bring_in(&b, &at_b, &red, 2).await.unwrap();
    assert_eq!((third.created.len(), third.pending), (1, 0));
    assert!(!bring_in(&b, &at_b, &red, 2).await.unwrap().looked);
}
