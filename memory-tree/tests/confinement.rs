//! An exported tree stays in its folder: planted manifests and links (a shared or synced vault can
//! carry either) are checked with real files, and nothing outside the tree may change.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

use chrono::{TimeZone as _, Utc};
use memory_core::{EventId, InMemoryStore, MemoryStore as _, Note, NoteKind, NoteMeta, NotePath, Scope};
use memory_tree::{Error, MANIFEST, export_tree, import_tree};

fn note(scope: Scope, path: &str, body: &str) -> Note {
    Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: "Role".to_owned(),
            description: None,
            tags: Vec::new(),
            scope,
            kind: NoteKind::Profile,
            sources: vec![EventId("0".repeat(32))],
            updated: Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap(),
            generator: "deterministic".to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    }
}

async fn store_with_a_note() -> InMemoryStore {
    let store = InMemoryStore::new();
    store.put_note(&note(Scope::User, "profile/role.md", "Backend engineer.\n")).await.unwrap();
    store
}

/// A temporary folder holding `tree/` (the export) and `outside/` with one file, `victim.txt`.
struct Planted {
    _root: tempfile::TempDir,
    tree: std::path::PathBuf,
    outside: std::path::PathBuf,
}

const VICTIM: &str = "not agent-memory's to touch\n";

impl Planted {
    async fn exported(store: &InMemoryStore) -> Self {
        let root = tempfile::tempdir().unwrap();
        let tree = root.path().join("tree");
        let outside = root.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("victim.txt"), VICTIM).unwrap();
        std::fs::write(outside.join("role.md"), VICTIM).unwrap();
        export_tree(store, &tree).await.unwrap();
        Self { _root: root, tree, outside }
    }

    fn victim(&self) -> std::path::PathBuf {
        self.outside.join("victim.txt")
    }

    /// Adds `entry` to the manifest as a file an earlier export wrote.
    fn list_in_manifest(&self, entry: &str) {
        let path = self.tree.join(MANIFEST);
        let mut manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        manifest["files"][entry] =
            serde_json::json!({"scope": "user", "path": "gone.md", "sha256": "0".repeat(64)});
        std::fs::write(&path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    }

    /// Every file under `outside/` with its bytes, to compare before and after.
    fn outside_files(&self) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&self.outside)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    }
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[tokio::test]
async fn a_manifest_entry_that_climbs_out_is_refused_and_the_file_stays() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    planted.list_in_manifest("../outside/victim.txt");
    let err = export_tree(&store, &planted.tree).await.unwrap_err();
    assert!(matches!(err, Error::ManifestEntry { .. }), "{err}");
    let message = err.to_string();
    assert!(message.contains("../outside/victim.txt") && message.contains("delete it"), "{message}");
    assert_eq!(std::fs::read_to_string(planted.victim()).unwrap(), VICTIM);
    // An import does not trust it either.
    assert!(matches!(import_tree(&store, &planted.tree, true).await, Err(Error::ManifestEntry { .. })));
    assert_eq!(std::fs::read_to_string(planted.victim()).unwrap(), VICTIM);
}

#[tokio::test]
async fn an_absolute_manifest_entry_is_refused_and_the_file_stays() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    planted.list_in_manifest(&planted.victim().display().to_string());
    let err = export_tree(&store, &planted.tree).await.unwrap_err();
    assert!(matches!(err, Error::ManifestEntry { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(planted.victim()).unwrap(), VICTIM);
}

#[tokio::test]
async fn a_planted_folder_link_is_not_written_through() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    let before = planted.outside_files();
    let profile = planted.tree.join("user/profile");
    std::fs::remove_dir_all(&profile).unwrap();
    symlink(&planted.outside, &profile).unwrap();
    let err = export_tree(&store, &planted.tree).await.unwrap_err();
    assert!(matches!(&err, Error::Symlink { path } if path == &profile), "{err}");
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert_eq!(planted.outside_files(), before, "the link's target is untouched");
}

#[tokio::test]
async fn a_stale_file_behind_a_folder_link_is_not_removed() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    let before = planted.outside_files();
    // A valid-looking entry of an earlier export, in a folder that is now a link outside.
    symlink(&planted.outside, planted.tree.join("user/old")).unwrap();
    planted.list_in_manifest("user/old/role.md");
    let err = export_tree(&store, &planted.tree).await.unwrap_err();
    assert!(matches!(err, Error::Symlink { .. }), "{err}");
    assert_eq!(planted.outside_files(), before);
}

#[tokio::test]
async fn a_linked_index_is_replaced_not_written_through() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    let index = planted.tree.join("index.md");
    std::fs::remove_file(&index).unwrap();
    symlink(planted.victim(), &index).unwrap();
    export_tree(&store, &planted.tree).await.unwrap();
    assert!(!is_link(&index), "the link itself was replaced by the index");
    assert!(std::fs::read_to_string(&index).unwrap().contains("Role"));
    assert_eq!(std::fs::read_to_string(planted.victim()).unwrap(), VICTIM);
}

#[tokio::test]
async fn a_hard_linked_index_is_replaced_not_written_through() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    let index = planted.tree.join("index.md");
    std::fs::remove_file(&index).unwrap();
    std::fs::hard_link(planted.victim(), &index).unwrap();
    export_tree(&store, &planted.tree).await.unwrap();
    assert!(std::fs::read_to_string(&index).unwrap().contains("Role"));
    assert_eq!(std::fs::read_to_string(planted.victim()).unwrap(), VICTIM);
}

#[tokio::test]
async fn a_linked_manifest_is_refused() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    let manifest = planted.tree.join(MANIFEST);
    std::fs::rename(&manifest, planted.outside.join("manifest.json")).unwrap();
    symlink(planted.outside.join("manifest.json"), &manifest).unwrap();
    let before = planted.outside_files();
    assert!(matches!(export_tree(&store, &planted.tree).await, Err(Error::Symlink { .. })));
    assert!(matches!(import_tree(&store, &planted.tree, false).await, Err(Error::Symlink { .. })));
    assert_eq!(planted.outside_files(), before);
}

#[tokio::test]
async fn import_reads_nothing_through_links() {
    let store = store_with_a_note().await;
    let planted = Planted::exported(&store).await;
    // Valid notes outside the tree, reachable from inside it by a file link and a folder link.
    let outside_note = note(Scope::User, "planted.md", "From outside the tree.\n");
    std::fs::write(planted.outside.join("planted.md"), outside_note.to_markdown()).unwrap();
    symlink(planted.outside.join("planted.md"), planted.tree.join("user/planted.md")).unwrap();
    symlink(&planted.outside, planted.tree.join("user/linked")).unwrap();
    let fresh = InMemoryStore::new();
    let report = import_tree(&fresh, &planted.tree, false).await.unwrap();
    assert_eq!(report.created, ["user/profile/role.md"], "{report:?}");
    for path in ["planted.md", "linked/planted.md"] {
        assert!(
            fresh.get_note(&Scope::User, &NotePath::new(path).unwrap()).await.unwrap().is_none(),
            "{path}"
        );
    }
}

#[tokio::test]
async fn import_rejects_scope_ids_with_path_syntax_or_hidden_characters() {
    let store = InMemoryStore::new();
    let root = tempfile::tempdir().unwrap();
    let tree = root.path().join("tree");
    let text = note(Scope::User, "x.md", "Body.\n").to_markdown();
    for (folder, scope) in [("etc", "project:../../etc"), ("acme", "project:acme\u{202e}dm.exe")] {
        let dir = tree.join("project").join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("x.md"), text.replace("scope: user", &format!("scope: {scope}"))).unwrap();
    }
    let report = import_tree(&store, &tree, false).await.unwrap();
    assert!(report.created.is_empty(), "{report:?}");
    assert_eq!(report.invalid.len(), 2, "{report:?}");
    for invalid in &report.invalid {
        assert!(invalid.reason.contains("scope"), "{}: {}", invalid.file, invalid.reason);
        assert!(!invalid.reason.contains('\u{202e}'), "{}", invalid.reason);
    }
}
