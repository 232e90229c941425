//! Export and import against the in-memory reference store and a real temporary folder.

use chrono::{TimeZone as _, Utc};
use memory_core::{
    EventId, InMemoryStore, MemoryStore as _, Note, NoteFilter, NoteKind, NoteMeta, NotePath, Scope,
};

use super::*;

fn note(scope: Scope, path: &str, title: &str, body: &str) -> Note {
    Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: title.to_owned(),
            description: Some("when it helps".to_owned()),
            tags: vec!["cargo".to_owned()],
            scope,
            kind: NoteKind::Tool,
            sources: vec![EventId("0".repeat(32))],
            updated: Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap(),
            generator: "deterministic".to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    }
}

async fn seeded() -> InMemoryStore {
    let store = InMemoryStore::new();
    for n in [
        note(Scope::User, "profile/role.md", "Role", "Backend engineer.\n"),
        note(Scope::Project("acme-1a2b".into()), "conventions.md", "Acme | rules", "Tabs.\n"),
        note(Scope::Session("claude:S-1".into()), "scratch/todo.md", "Todo", "- [ ] ship\n"),
    ] {
        store.put_note(&n).await.unwrap();
    }
    store
}

async fn all(store: &InMemoryStore) -> Vec<Note> {
    store.list_notes(&NoteFilter::all()).await.unwrap()
}

#[tokio::test]
async fn export_then_import_into_an_empty_store_is_lossless() {
    let store = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    let report = export_tree(&store, &tree).await.unwrap();
    assert_eq!(
        report.files,
        ["user/profile/role.md", "project/acme-1a2b/conventions.md", "session/claude-s-1/scratch/todo.md"]
    );
    let role = std::fs::read_to_string(tree.join("user/profile/role.md")).unwrap();
    assert_eq!(role, all(&store).await[0].to_markdown());
    let index = std::fs::read_to_string(tree.join("index.md")).unwrap();
    assert!(index.contains("[[user/profile/role|Role]] — when it helps"), "{index}");
    assert!(index.contains("[Acme | rules](project/acme-1a2b/conventions.md)"), "{index}");

    let fresh = InMemoryStore::new();
    let imported = import_tree(&fresh, &tree, false).await.unwrap();
    assert_eq!(imported.created.len(), 3);
    assert!(imported.invalid.is_empty());
    assert_eq!(all(&fresh).await, all(&store).await);

    let again = import_tree(&fresh, &tree, false).await.unwrap();
    assert_eq!((again.created.len(), again.updated.len(), again.unchanged.len()), (0, 0, 3));
}

#[tokio::test]
async fn hand_edits_win_and_are_marked_human_and_bad_files_are_skipped() {
    let store = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    export_tree(&store, dir.path()).await.unwrap();
    let role = dir.path().join("user/profile/role.md");
    let edited =
        std::fs::read_to_string(&role).unwrap().replace("Backend engineer.", "Staff engineer, Rust.");
    std::fs::write(&role, edited).unwrap();
    std::fs::write(dir.path().join("user/broken.md"), "---\ntitle: never closed\n").unwrap();
    let new = note(Scope::User, "tools/jj.md", "jj", "Use jj.\n");
    std::fs::create_dir_all(dir.path().join("user/tools")).unwrap();
    std::fs::write(dir.path().join("user/tools/jj.md"), new.to_markdown()).unwrap();

    let report = import_tree(&store, dir.path(), false).await.unwrap();
    assert_eq!(report.updated, ["user/profile/role.md"]);
    assert_eq!(report.created, ["user/tools/jj.md"]);
    assert_eq!(report.unchanged.len(), 2);
    assert_eq!(report.invalid.len(), 1);
    assert_eq!(report.invalid[0].file, "user/broken.md");
    assert!(report.invalid[0].reason.contains("frontmatter"), "{:?}", report.invalid);

    let path = NotePath::new("profile/role.md").unwrap();
    let now = store.get_note(&Scope::User, &path).await.unwrap().unwrap();
    assert_eq!(now.body, "Staff engineer, Rust.\n");
    assert!(now.is_human_edited());
    assert_eq!(now.meta.sources, vec![EventId("0".repeat(32))]);
    assert_eq!(store.note_history(&Scope::User, &path).await.unwrap().len(), 1);
    let jj = store.get_note(&Scope::User, &NotePath::new("tools/jj.md").unwrap()).await.unwrap().unwrap();
    assert!(jj.is_human_edited());

    let again = import_tree(&store, dir.path(), false).await.unwrap();
    assert_eq!((again.created.len(), again.updated.len(), again.invalid.len()), (0, 0, 1));
}

#[tokio::test]
async fn export_refuses_to_overwrite_unimported_edits_or_foreign_folders() {
    let store = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let foreign = export_tree(&store, dir.path()).await.unwrap_err().to_string();
    assert!(foreign.contains("not empty"), "{foreign}");

    let tree = dir.path().join("tree");
    export_tree(&store, &tree).await.unwrap();
    std::fs::write(tree.join("user/profile/role.md"), "edited").unwrap();
    let dirty = export_tree(&store, &tree).await.unwrap_err().to_string();
    assert!(dirty.contains("user/profile/role.md") && dirty.contains("import"), "{dirty}");
    assert_eq!(std::fs::read_to_string(tree.join("user/profile/role.md")).unwrap(), "edited");
}

#[tokio::test]
async fn removed_files_delete_notes_only_when_asked() {
    let store = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    export_tree(&store, dir.path()).await.unwrap();
    std::fs::remove_file(dir.path().join("user/profile/role.md")).unwrap();

    let kept = import_tree(&store, dir.path(), false).await.unwrap();
    assert_eq!(kept.kept, ["user/profile/role.md"]);
    assert_eq!(all(&store).await.len(), 3);

    let deleted = import_tree(&store, dir.path(), true).await.unwrap();
    assert_eq!(deleted.deleted, ["user/profile/role.md"]);
    assert_eq!(all(&store).await.len(), 2);

    let reexport = export_tree(&store, dir.path()).await.unwrap();
    assert_eq!(reexport.files.len(), 2);
    assert!(!dir.path().join("user").exists());
}

#[tokio::test]
async fn a_file_in_the_wrong_scope_folder_is_reported() {
    let store = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    export_tree(&store, dir.path()).await.unwrap();
    let text = std::fs::read_to_string(dir.path().join("user/profile/role.md")).unwrap();
    std::fs::create_dir_all(dir.path().join("project/other")).unwrap();
    std::fs::write(dir.path().join("project/other/role.md"), text).unwrap();
    let report = import_tree(&store, dir.path(), false).await.unwrap();
    assert_eq!(report.invalid.len(), 1);
    assert!(report.invalid[0].reason.contains("expected folder user/"), "{:?}", report.invalid);
}

#[tokio::test]
async fn deleting_missing_notes_needs_a_manifest_and_a_damaged_one_is_named() {
    let store = seeded().await;
    let dir = tempfile::tempdir().unwrap();
    let missing = import_tree(&store, dir.path(), true).await.unwrap_err();
    assert!(matches!(missing, Error::NoManifest { .. }), "{missing}");
    assert!(missing.to_string().contains(MANIFEST), "{missing}");

    std::fs::write(dir.path().join(MANIFEST), "{").unwrap();
    let damaged = import_tree(&store, dir.path(), false).await.unwrap_err();
    assert!(matches!(damaged, Error::ManifestDamaged { .. }), "{damaged}");
    assert!(damaged.to_string().contains("delete it"), "{damaged}");
    assert_eq!(all(&store).await.len(), 3, "a failed import changes nothing");
}

#[tokio::test]
async fn project_folders_carry_readable_names_and_paths_come_back_whole() {
    let store = InMemoryStore::new();
    let shop = Scope::Project("webshop-09503e0d".into());
    let dreamed = note(shop.clone(), "project/webshop-09503e0d/conventions.md", "Conventions", "Tabs.\n");
    let plain = note(shop.clone(), "deploy.md", "Deploy", "Fridays.\n");
    // Another note of the scope already has the short path: the dream's note keeps its own.
    let twin = note(shop.clone(), "project/webshop-09503e0d/deploy.md", "Deploy (dream)", "x\n");
    for n in [&dreamed, &plain, &twin] {
        store.put_note(n).await.unwrap();
    }
    let naming = Naming::new([("webshop-09503e0d".to_owned(), "webshop".to_owned())].into());
    let dir = tempfile::tempdir().unwrap();
    let report = export_tree_named(&store, dir.path(), &naming).await.unwrap();
    assert_eq!(
        report.files,
        [
            "project/webshop/deploy.md",
            "project/webshop/conventions.md",
            "project/webshop/project/webshop-09503e0d/deploy.md"
        ]
    );
    let index = std::fs::read_to_string(dir.path().join(INDEX)).unwrap();
    assert!(index.contains("## project:webshop"), "{index}");

    let file = dir.path().join("project/webshop/conventions.md");
    let text = std::fs::read_to_string(&file).unwrap().replace("Tabs.", "Spaces.");
    std::fs::write(&file, text).unwrap();
    let imported = import_tree_named(&store, dir.path(), false, &naming).await.unwrap();
    assert_eq!(imported.updated, ["project/webshop/conventions.md"]);
    assert!(imported.invalid.is_empty(), "{:?}", imported.invalid);
    let now = store.get_note(&shop, &dreamed.path).await.unwrap().unwrap();
    assert_eq!(now.body, "Spaces.\n", "the edit reached the note at its own path");
    assert_eq!(all(&store).await.len(), 3);

    let fresh = InMemoryStore::new();
    import_tree_named(&fresh, dir.path(), false, &naming).await.unwrap();
    let paths: Vec<String> = all(&fresh).await.iter().map(|n| n.path.to_string()).collect();
    assert_eq!(
        paths,
        ["deploy.md", "project/webshop-09503e0d/conventions.md", "project/webshop-09503e0d/deploy.md"]
    );
}

#[tokio::test]
async fn a_file_without_a_scope_takes_its_folders_and_projects_are_read_by_name() {
    let store = InMemoryStore::new();
    let naming = Naming::new([("webshop-09503e0d".to_owned(), "webshop".to_owned())].into());
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let file = dir.path().join(rel);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write("project/webshop/procedures/deploy.md", "---\ntitle: Deploy\n---\nFridays.\n");
    write("project/webshop/named.md", "---\ntitle: Named\nscope: project:webshop\n---\nBy name.\n");
    write("user/tools/jj.md", "---\ntitle: jj\n---\nUse jj.\n");
    write("session/claude-x/todo.md", "---\ntitle: Todo\n---\nx\n");
    let report = import_tree_named(&store, dir.path(), false, &naming).await.unwrap();
    assert_eq!(report.created.len(), 3, "{report:?}");
    assert_eq!(report.invalid.len(), 1, "a session folder names no scope: {:?}", report.invalid);
    assert!(report.invalid[0].reason.contains("scope"), "{:?}", report.invalid);

    let shop = Scope::Project("webshop-09503e0d".into());
    let filed: Vec<(Scope, String)> =
        all(&store).await.into_iter().map(|n| (n.meta.scope, n.path.to_string())).collect();
    assert_eq!(
        filed,
        [
            (Scope::User, "tools/jj.md".to_owned()),
            (shop.clone(), "project/webshop/named.md".to_owned()),
            (shop, "project/webshop/procedures/deploy.md".to_owned()),
        ],
        "stored by id, in the project's folder"
    );

    let out = tempfile::tempdir().unwrap();
    export_tree_named(&store, out.path(), &naming).await.unwrap();
    let text = std::fs::read_to_string(out.path().join("project/webshop/procedures/deploy.md")).unwrap();
    assert!(text.contains("scope: project:webshop\n"), "frontmatter names the project: {text}");
    let again = import_tree_named(&store, out.path(), false, &naming).await.unwrap();
    assert_eq!(again.unchanged.len(), 3, "an untouched export is as stored: {again:?}");
}
