//! `agent-memory export` and `import`: the Markdown tree round trip through the real binary and
//! a real SQLite store.

use std::path::Path;

use memory_core::{MemoryStore, Note, NoteFilter, NotePath, Scope};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::support::Machine;

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

fn store(machine: &Machine) -> SqliteStore {
    SqliteStore::open(&SqliteConfig::new(machine.db())).unwrap()
}

/// Writes notes straight into the machine's store and returns what the store holds.
fn seed(machine: &Machine, notes: &[Note]) -> Vec<Note> {
    block_on(async {
        let store = store(machine);
        for note in notes {
            store.put_note(note).await.unwrap();
        }
        store.list_notes(&NoteFilter::all()).await.unwrap()
    })
}

fn all_notes(machine: &Machine) -> Vec<Note> {
    block_on(async { store(machine).list_notes(&NoteFilter::all()).await.unwrap() })
}

fn get(machine: &Machine, scope: &Scope, path: &str) -> Option<Note> {
    block_on(async { store(machine).get_note(scope, &NotePath::new(path).unwrap()).await.unwrap() })
}

/// Runs `agent-memory --json import DIR`, returning its exit code and report.
fn import(machine: &Machine, dir: &Path) -> (i32, Value) {
    let out = machine.command(&["--json", "import", dir.to_str().unwrap()]).output().unwrap();
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("import printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), report)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn export_wipe_import_is_lossless(notes in prop::collection::vec(memory_testkit::strategies::arb_note(), 1..6)) {
        let machine = Machine::new();
        seed(&machine, &notes);
        let tree = machine.dir.path().join("tree");
        let exported = machine.run_json(&["export", tree.to_str().unwrap()]);
        // Opening the store filed each project's notes in its folder: the tree holds them so.
        let before = all_notes(&machine);
        prop_assert_eq!(exported["files"].as_array().unwrap().len(), before.len());

        std::fs::remove_dir_all(machine.home()).unwrap();
        let (code, report) = import(&machine, &tree);
        prop_assert_eq!(code, 0, "{}", report);
        prop_assert_eq!(&report["counts"]["created"], &json!(before.len()));
        prop_assert_eq!(all_notes(&machine), before);
    }
}

#[test]
fn a_hand_edit_survives_import_as_human_and_a_broken_file_is_skipped() {
    let machine = Machine::new();
    let scope = Scope::Project("acme-1a2b".to_owned());
    let seeded = seed(
        &machine,
        &[
            memory_testkit::fixtures::note(&scope, "conventions.md", "Conventions", &["style"], "Tabs.\n"),
            memory_testkit::fixtures::note(
                &Scope::User,
                "profile/role.md",
                "Role",
                &[],
                "Backend engineer.\n",
            ),
        ],
    );
    let tree = machine.dir.path().join("tree");
    machine.run(&["export", tree.to_str().unwrap()]);
    let file = tree.join("project/acme-1a2b/conventions.md");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("Tabs.", "Spaces, four of them.")).unwrap();
    let broken = tree.join("user/profile/broken.md");
    std::fs::write(&broken, "---\ntitle: [unclosed\n---\nbody\n").unwrap();

    let (code, report) = import(&machine, &tree);
    assert_eq!(code, 1, "an invalid file makes the import exit 1: {report}");
    assert_eq!(report["updated"], json!(["project/acme-1a2b/conventions.md"]));
    assert_eq!(report["unchanged"], json!(["user/profile/role.md"]));
    assert_eq!(report["invalid"][0]["file"], json!("user/profile/broken.md"));
    assert!(report["invalid"][0]["reason"].as_str().unwrap().contains("frontmatter"), "{report}");
    assert_eq!(
        report["counts"],
        json!({"created": 0, "updated": 1, "unchanged": 1, "invalid": 1, "deleted": 0, "kept": 0})
    );

    let edited = get(&machine, &scope, "project/acme-1a2b/conventions.md").unwrap();
    assert_eq!(edited.body, "Spaces, four of them.\n");
    assert!(edited.is_human_edited());
    assert_eq!(
        get(&machine, &Scope::User, "profile/role.md").as_ref(),
        seeded.iter().find(|n| n.meta.scope == Scope::User)
    );
    assert_eq!(all_notes(&machine).len(), 2, "the broken file created nothing");

    let text_out = machine.command(&["import", tree.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8(text_out.stdout).unwrap();
    assert!(text.contains("0 created, 0 updated, 2 unchanged, 1 invalid"), "{text}");
    assert!(text.contains("invalid  user/profile/broken.md:"), "{text}");
}

#[test]
fn removed_files_stay_in_the_store_unless_delete_missing() {
    let machine = Machine::new();
    seed(&machine, &[memory_testkit::fixtures::note(&Scope::User, "tools/jj.md", "jj", &[], "Use jj.\n")]);
    let tree = machine.dir.path().join("tree");
    machine.run(&["export", tree.to_str().unwrap()]);
    std::fs::remove_file(tree.join("user/tools/jj.md")).unwrap();

    let (_, kept) = import(&machine, &tree);
    assert_eq!(kept["kept"], json!(["user/tools/jj.md"]));
    assert!(get(&machine, &Scope::User, "tools/jj.md").is_some());

    let deleted = machine.run_json(&["import", tree.to_str().unwrap(), "--delete-missing"]);
    assert_eq!(deleted["deleted"], json!(["user/tools/jj.md"]));
    assert!(get(&machine, &Scope::User, "tools/jj.md").is_none());
}

#[test]
fn a_hand_edit_survives_a_dream_run() {
    let machine = Machine::new();
    let project = machine.project("acme-api");
    let say = |session: &str, text: &str| {
        let payload =
            crate::support::claude(session, &project, "UserPromptSubmit", json!({ "prompt": text }));
        machine.hook("claude", &project, &payload);
    };
    say("dream-1", "I prefer tabs over spaces in every file.");
    machine.run_json(&["dream"]);
    let tree = machine.dir.path().join("tree");
    machine.run(&["export", tree.to_str().unwrap()]);
    let file = tree.join("user/profile/preferences.md");
    let text = std::fs::read_to_string(&file).expect("the dream wrote the preferences note");
    let mine = "My own words: keep lines under 100 columns.";
    std::fs::write(&file, format!("{}\n{mine}\n", text.trim_end())).unwrap();
    let (code, report) = import(&machine, &tree);
    assert_eq!((code, &report["updated"]), (0, &json!(["user/profile/preferences.md"])), "{report}");

    say("dream-2", "From now on, use jj instead of git.");
    let dreamed = machine.run_json(&["dream"]);
    let note = get(&machine, &Scope::User, "profile/preferences.md").unwrap();
    assert!(note.body.contains(mine), "the dream kept the hand edit: {}\n{dreamed}", note.body);
    assert!(note.body.contains("tabs"), "{}", note.body);
    assert!(note.body.contains("jj"), "the dream merged the new preference in: {}", note.body);
    assert!(note.is_human_edited());
}
