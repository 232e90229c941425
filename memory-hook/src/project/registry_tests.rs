//! The registry and the catalog against real repositories in temporary folders: identity that
//! survives a remote, a project file, a move and a second clone; concurrent hooks; the scopes
//! commands accept; renaming and merging.

use std::path::{Path, PathBuf};

use chrono::{TimeZone as _, Utc};
use memory_core::{InMemoryStore, MemoryStore, Note, NoteFilter, NoteKind, NoteMeta, NotePath, Scope};

use super::*;

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.email=a@b", "-c", "user.name=a", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A repository with one commit.
fn repo(path: &Path) -> PathBuf {
    std::fs::create_dir_all(path).unwrap();
    git(path, &["init", "-q"]);
    git(path, &["commit", "-q", "--allow-empty", "-m", "first"]);
    std::fs::canonicalize(path).unwrap()
}

struct Setup {
    tmp: tempfile::TempDir,
    registry: Registry,
}

impl Setup {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let registry = Registry::new(&tmp.path().join("data"));
        Self { tmp, registry }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    fn entry(&self, id: &str) -> Entry {
        self.registry.load().unwrap().projects.into_iter().find(|e| e.id == id).expect("an entry")
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(future)
}

fn note(scope: &Scope, path: &str, title: &str, body: &str, minute: u32) -> Note {
    Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: title.to_owned(),
            description: None,
            tags: Vec::new(),
            scope: scope.clone(),
            kind: NoteKind::Convention,
            sources: Vec::new(),
            updated: Utc.with_ymd_and_hms(2026, 3, 1, 10, minute, 0).unwrap(),
            generator: "deterministic".to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    }
}

#[test]
fn a_known_folder_keeps_its_id_when_a_remote_and_a_project_file_are_added() {
    let s = Setup::new();
    let root = repo(&s.path("Web Shop"));
    let first = s.registry.identify(&root);
    assert_eq!(first, identify(&root), "a new project gets the id it always got");
    assert_eq!(first.name, "web-shop");
    let entry = s.entry(&first.id);
    assert_eq!(entry.roots.len(), 1);
    assert_eq!(entry.root_commits.len(), 1, "the root commit is recorded when the folder is new");

    git(&root, &["remote", "add", "origin", "https://user:secret@example.com/org/shop.git"]);
    assert_ne!(identify(&root).id, first.id, "without the registry the id would change");
    assert_eq!(s.registry.identify(&root.join(".")).id, first.id);
    let entry = s.entry(&first.id);
    assert_eq!(entry.remotes, ["example.com/org/shop"], "recorded without credentials");

    assert!(!s.registry.identify_noting_rename(&root).1, "no new name yet");
    std::fs::write(root.join(PROJECT_FILE), "project = \"Shop\"\n").unwrap();
    let (named, renamed) = s.registry.identify_noting_rename(&root);
    assert!(renamed, "the project file renamed web-shop");
    assert_eq!(named.id, first.id);
    assert_eq!(named.name, "shop", "the name the project file gives is shown");
    assert_eq!(s.entry(&first.id).named, ["shop"]);
    assert!(!s.registry.identify_noting_rename(&root).1, "renamed once");

    let text = std::fs::read_to_string(s.registry.path()).unwrap();
    assert!(!text.contains("secret"), "{text}");
}

#[test]
fn a_moved_folder_is_found_by_its_root_commit_and_a_second_clone_by_its_remote() {
    let s = Setup::new();
    let root = repo(&s.path("old/app"));
    let id = s.registry.identify(&root).id;

    std::fs::create_dir_all(s.path("new")).unwrap();
    std::fs::rename(&root, s.path("new/renamed")).unwrap();
    let moved = std::fs::canonicalize(s.path("new/renamed")).unwrap();
    let found = s.registry.identify(&moved.join("."));
    assert_eq!(found.id, id, "a moved folder keeps its project");
    assert_eq!(found.root, moved);
    assert!(s.entry(&id).roots.iter().any(|r| r.path == moved));
    assert_eq!(s.registry.lookup(&moved).unwrap().map(|p| p.id), Some(id.clone()));

    // Clones whose histories differ but whose origin is one repository, spelt two ways.
    let (a, b) = (s.path("a/svc"), s.path("b/svc-copy"));
    for (dir, url) in [(&a, "https://github.com/Org/svc.git"), (&b, "git@github.com:Org/svc")] {
        std::fs::create_dir_all(dir).unwrap();
        git(dir, &["init", "-q"]);
        git(dir, &["remote", "add", "origin", url]);
    }
    let first = s.registry.identify(&a);
    assert_eq!(s.registry.identify(&b).id, first.id);
    assert_ne!(first.id, id);
}

#[test]
fn repositories_sharing_a_first_commit_but_not_a_remote_are_different_projects() {
    let s = Setup::new();
    // The same empty first commit, to the second: one root commit for all of them.
    let same_commit = |dir: &Path, remote: Option<&str>| {
        std::fs::create_dir_all(dir).unwrap();
        git(dir, &["init", "-q"]);
        let made = std::process::Command::new("git")
            .args([
                "-c",
                "user.email=a@b",
                "-c",
                "user.name=a",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "initial import",
            ])
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_DATE", "2026-03-01T10:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-03-01T10:00:00Z")
            .status()
            .unwrap();
        assert!(made.success());
        if let Some(url) = remote {
            git(dir, &["remote", "add", "origin", url]);
        }
        std::fs::canonicalize(dir).unwrap()
    };
    let blog = same_commit(&s.path("src/blog"), Some("git@github.com:sam/blog.git"));
    let infra = same_commit(&s.path("src/infra"), Some("git@github.com:sam/infra.git"));
    let scratch = same_commit(&s.path("src/scratch"), None);
    let blog_id = s.registry.identify(&blog).id;
    let infra_id = s.registry.identify(&infra).id;
    assert_ne!(blog_id, infra_id, "another remote makes another project");
    assert_eq!(s.entry(&blog_id).root_commits, s.entry(&infra_id).root_commits);
    // Without a remote of its own, a shared first commit still says where a folder belongs.
    assert!([&blog_id, &infra_id].contains(&&s.registry.identify(&scratch).id));
    // A fork that pulls from the original too joins it through that remote.
    let fork = same_commit(&s.path("src/blog-fork"), Some("git@github.com:me/blog.git"));
    git(&fork, &["remote", "add", "upstream", "https://github.com/sam/blog"]);
    assert_eq!(s.registry.identify(&fork).id, blog_id);
}

#[test]
fn a_root_commit_made_after_the_first_session_is_recorded_later() {
    let s = Setup::new();
    let dir = s.path("fresh");
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q"]);
    let id = s.registry.identify(&dir).id;
    assert!(s.entry(&id).root_commits.is_empty());
    git(&dir, &["commit", "-q", "--allow-empty", "-m", "first"]);
    assert_eq!(s.registry.identify(&dir).id, id);
    assert_eq!(s.entry(&id).root_commits.len(), 1);

    std::fs::rename(&dir, s.path("fresh-moved")).unwrap();
    assert_eq!(s.registry.identify(&s.path("fresh-moved")).id, id);
}

#[test]
fn worktrees_and_subfolders_share_the_project_and_a_named_subfolder_is_its_own() {
    let s = Setup::new();
    let root = repo(&s.path("mono"));
    git(&root, &["remote", "add", "origin", "https://example.com/org/mono"]);
    std::fs::create_dir_all(root.join("docs/deep")).unwrap();
    let id = s.registry.identify(&root.join("docs/deep")).id;
    let wt = s.path("mono-wt");
    git(&root, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    assert_eq!(s.registry.identify(&wt).id, id);

    std::fs::write(root.join("docs").join(PROJECT_FILE), "project = \"handbook\"\n").unwrap();
    let docs = s.registry.identify(&root.join("docs/deep"));
    assert_ne!(docs.id, id, "a project file in a sub-folder makes a project of its own");
    assert_eq!(docs.name, "handbook");
    assert!(s.entry(&docs.id).remotes.is_empty(), "the repository's remotes stay with the repository");
}

#[test]
fn a_folder_made_again_at_the_same_path_is_another_project() {
    let s = Setup::new();
    let dir = s.path("scratch");
    std::fs::create_dir_all(&dir).unwrap();
    let first = s.registry.identify(&dir);
    // The old folder lives on elsewhere, so the new one cannot reuse its inode.
    std::fs::rename(&dir, s.path("scratch-old")).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    let second = s.registry.identify(&dir);
    assert_ne!(second.id, first.id);
    assert_eq!(second.name, "scratch-2", "names stay unique");
    assert!(s.entry(&first.id).roots.is_empty(), "the path moved to the new project");
    assert_eq!(s.registry.identify(&dir).id, second.id);
}

/// Hooks of one folder, each retried like the next event of a session until its folder is
/// recorded: one entry per folder, and nothing one writer recorded is lost by another.
#[test]
fn concurrent_hooks_lose_no_project() {
    let s = Setup::new();
    let shared = s.path("shared");
    let mut dirs: Vec<PathBuf> = (0..12).map(|i| s.path(&format!("p{i}"))).collect();
    dirs.extend(std::iter::repeat_n(shared.clone(), 8));
    for dir in &dirs {
        std::fs::create_dir_all(dir).unwrap();
    }
    let ids: Vec<(PathBuf, String)> = std::thread::scope(|scope| {
        let handles: Vec<_> = dirs
            .iter()
            .map(|dir| {
                let registry = Registry::new(&s.path("data"));
                scope.spawn(move || {
                    let root = std::fs::canonicalize(dir).unwrap();
                    loop {
                        let id = registry.identify(dir).id;
                        let projects = registry.load().unwrap();
                        if projects
                            .projects
                            .iter()
                            .any(|e| e.id == id && e.roots.iter().any(|r| r.path == root))
                        {
                            return (root, id);
                        }
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let projects = s.registry.load().unwrap().projects;
    assert_eq!(projects.len(), 13, "{projects:#?}");
    for (root, id) in &ids {
        let entry = projects.iter().find(|e| &e.id == id).unwrap_or_else(|| panic!("{id} was lost"));
        assert!(entry.roots.iter().any(|r| &r.path == root));
    }
    let shared = std::fs::canonicalize(&shared).unwrap();
    let shared_ids: std::collections::BTreeSet<&String> =
        ids.iter().filter(|(root, _)| *root == shared).map(|(_, id)| id).collect();
    assert_eq!(shared_ids.len(), 1, "one folder, one project: {shared_ids:?}");
}

#[test]
fn a_registry_that_does_not_parse_is_left_alone() {
    let s = Setup::new();
    let dir = s.path("app");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(s.path("data")).unwrap();
    std::fs::write(s.registry.path(), "{ not json").unwrap();
    assert_eq!(s.registry.identify(&dir), identify(&dir));
    assert_eq!(std::fs::read_to_string(s.registry.path()).unwrap(), "{ not json");
    assert!(matches!(s.registry.load(), Err(crate::Error::RegistryFormat { .. })));
}

#[test]
fn scopes_accept_names_ids_and_the_current_folder_and_refuse_unknown_projects() {
    let s = Setup::new();
    let dir = s.path("webshop");
    std::fs::create_dir_all(&dir).unwrap();
    let here = s.registry.identify(&dir);
    let store = InMemoryStore::new();
    let legacy = Scope::Project("legacy-0a1b2c3d".to_owned());
    block_on(store.put_note(&note(&legacy, "conventions.md", "Old", "Tabs.\n", 0))).unwrap();
    let catalog = block_on(Catalog::load(&s.registry, &store)).unwrap();

    let scope = Scope::Project(here.id.clone());
    assert_eq!(catalog.scope("project:webshop", None).unwrap(), scope);
    assert_eq!(catalog.scope(&format!("project:{}", here.id), None).unwrap(), scope);
    assert_eq!(catalog.scope("project", Some(&here)).unwrap(), scope);
    assert_eq!(catalog.scope("project:legacy", None).unwrap(), legacy, "ids only the store knows count");
    assert_eq!(catalog.scope("user", None).unwrap(), Scope::User);
    assert_eq!(catalog.scope("session:claude:x", None).unwrap(), Scope::Session("claude:x".to_owned()));
    let unknown = catalog.scope("project:nowhere", None).unwrap_err().to_string();
    assert!(unknown.contains("no project `nowhere`"), "{unknown}");
    assert!(unknown.contains(&format!("webshop ({})", here.id)), "{unknown}");
    assert!(catalog.scope("project", None).is_err(), "no current project outside a known folder");
    assert_eq!(catalog.label(&scope), "project:webshop");
    assert_eq!(catalog.label(&legacy), "project:legacy");
    assert_eq!(catalog.find("legacy").map(|k| k.notes), Some(1));
    assert_eq!(catalog.scope("webshop", None).unwrap(), scope, "a project's name alone");
    assert_eq!(catalog.scope(&here.id, None).unwrap(), scope, "its id alone");
    let typed = NotePath::new("conventions.md").unwrap();
    assert_eq!(catalog.note_path(&scope, &typed).as_str(), "project/webshop/conventions.md");
    assert_eq!(catalog.note_path(&Scope::User, &typed), typed);
}

#[test]
fn a_renamed_project_files_its_notes_under_its_new_name() {
    let s = Setup::new();
    let dir = s.path("webshop");
    std::fs::create_dir_all(&dir).unwrap();
    let here = s.registry.identify(&dir);
    let scope = Scope::Project(here.id.clone());
    let store = InMemoryStore::new();
    block_on(async {
        let dreamed = format!("project/{}/conventions.md", here.id);
        store.put_note(&note(&scope, &dreamed, "Conventions", "v1\n", 1)).await.unwrap();
        store.put_note(&note(&scope, &dreamed, "Conventions", "v2\n", 2)).await.unwrap();
        store.put_note(&note(&scope, "procedures/deploy.md", "Deploy", "Fridays.\n", 1)).await.unwrap();
        store.put_note(&note(&scope, "project/webshop/deploy.md", "Deploy", "Dream's.\n", 1)).await.unwrap();
    });
    let paths = || -> Vec<String> {
        let notes = block_on(store.list_notes(&NoteFilter::scope(scope.clone()))).unwrap();
        notes.into_iter().map(|n| n.path.to_string()).collect()
    };

    // Loading for a command files every note in the project's folder, with its history.
    block_on(Catalog::load_settled(&s.registry, &store)).unwrap();
    assert_eq!(
        paths(),
        [
            "project/webshop/conventions.md",
            "project/webshop/deploy.md",
            "project/webshop/procedures/deploy.md"
        ]
    );
    let path = NotePath::new("project/webshop/conventions.md").unwrap();
    assert_eq!(block_on(store.note_history(&scope, &path)).unwrap().len(), 1, "its history moved too");

    // `projects rename` moves them at once.
    block_on(rename(&s.registry, &store, "webshop", "shop")).unwrap();
    assert_eq!(
        paths(),
        ["project/shop/conventions.md", "project/shop/deploy.md", "project/shop/procedures/deploy.md"]
    );

    // A project file's new name reaches the registry at the next hook, the paths at the next load.
    std::fs::write(dir.join(PROJECT_FILE), "project = \"storefront\"\n").unwrap();
    assert_eq!(s.registry.identify(&dir).name, "storefront");
    let catalog = block_on(Catalog::load_settled(&s.registry, &store)).unwrap();
    assert_eq!(paths()[0], "project/storefront/conventions.md");
    assert_eq!(catalog.label(&scope), "project:storefront");
}

#[test]
fn rename_changes_the_name_and_keeps_the_id() {
    let s = Setup::new();
    let (a, b) = (s.path("alpha"), s.path("beta"));
    for dir in [&a, &b] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let alpha = s.registry.identify(&a);
    s.registry.identify(&b);
    let store = InMemoryStore::new();
    let renamed = block_on(rename(&s.registry, &store, "alpha", "shop")).unwrap();
    assert_eq!((renamed.id.as_str(), renamed.name.as_str()), (alpha.id.as_str(), "shop"));
    assert_eq!(s.registry.identify(&a), Project { name: "shop".to_owned(), ..alpha.clone() });
    let taken = block_on(rename(&s.registry, &store, "beta", "shop")).unwrap_err().to_string();
    assert!(taken.contains("is taken by project shop"), "{taken}");
    let bad = block_on(rename(&s.registry, &store, "beta", "Big Shop")).unwrap_err().to_string();
    assert!(bad.contains("big-shop"), "{bad}");

    // A project file naming the project anywhere joins it.
    let c = s.path("elsewhere");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::write(c.join(PROJECT_FILE), "project = \"shop\"\n").unwrap();
    assert_eq!(s.registry.identify(&c).id, alpha.id);
}

#[test]
fn merge_moves_notes_with_their_history_and_the_folders_follow() {
    let s = Setup::new();
    let (a, b) = (s.path("shop-old"), s.path("shop"));
    for dir in [&a, &b] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let from = s.registry.identify(&a);
    let into = s.registry.identify(&b);
    let (from_scope, into_scope) = (Scope::Project(from.id.clone()), Scope::Project(into.id.clone()));
    // Notes filed under the id, as earlier versions did, land in the target's named folder.
    let from_conventions = format!("project/{}/conventions.md", from.id);
    let into_conventions = format!("{}/conventions.md", memory_core::project_folder(&into.name));
    let store = InMemoryStore::new();
    block_on(async {
        store
            .put_note(&note(
                &from_scope,
                &from_conventions,
                &format!("Conventions of {}", from.id),
                "v1\n",
                1,
            ))
            .await
            .unwrap();
        store.put_note(&note(&from_scope, &from_conventions, "Conventions", "v2\n", 3)).await.unwrap();
        store.put_note(&note(&from_scope, "deploy.md", "Deploy", "Ship on Fridays.\n", 1)).await.unwrap();
        store.put_note(&note(&into_scope, &into_conventions, "Conventions", "old\n", 2)).await.unwrap();
    });

    let report = block_on(merge(&s.registry, &store, "shop-old", "shop")).unwrap();
    assert_eq!(
        report.moved,
        ["project/shop/deploy.md".to_owned(), into_conventions.clone()],
        "in its folder"
    );
    assert_eq!(report.collided, std::slice::from_ref(&into_conventions));
    block_on(async {
        assert!(store.list_notes(&NoteFilter::scope(from_scope.clone())).await.unwrap().is_empty());
        let path = NotePath::new(into_conventions.as_str()).unwrap();
        let merged = store.get_note(&into_scope, &path).await.unwrap().unwrap();
        assert_eq!(merged.body, "v2\n", "the newer version is current");
        let bodies: Vec<String> =
            store.note_history(&into_scope, &path).await.unwrap().into_iter().map(|n| n.body).collect();
        assert!(bodies.contains(&"old\n".to_owned()) && bodies.contains(&"v1\n".to_owned()), "{bodies:?}");
        let titles: Vec<String> =
            store.note_history(&into_scope, &path).await.unwrap().into_iter().map(|n| n.meta.title).collect();
        assert!(!titles.iter().any(|t| t.contains(&from.id)), "{titles:?}");
    });

    assert_eq!(s.registry.identify(&a).id, into.id, "the merged project's folder resolves to the other");
    let catalog = block_on(Catalog::load(&s.registry, &store)).unwrap();
    assert_eq!(catalog.scope(&format!("project:{}", from.id), None).unwrap(), into_scope);
    assert!(catalog.find("shop-old").is_none(), "the merged project is gone from the list");

    // A note filed under the old id afterwards (a dream of earlier events) is swept in.
    block_on(store.put_note(&note(&from_scope, "late.md", "Late", "x\n", 5))).unwrap();
    let swept = block_on(merge(&s.registry, &store, &from.id, "shop")).unwrap();
    assert_eq!(swept.moved, ["project/shop/late.md"]);
    let same = block_on(merge(&s.registry, &store, "shop", &into.id)).unwrap_err();
    assert!(matches!(same, crate::Error::SameProject { .. }), "{same}");
}
