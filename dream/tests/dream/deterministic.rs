//! The deterministic distiller on a realistic story.

use dream::{DeterministicProvider, NoProgress, run};
use memory_core::{
    EventId, GENERATOR_HUMAN, HookEvent, MemoryStore, Note, NoteKind, NoteMeta, NotePath, Scope,
};

use crate::support::{Story, dump, options, store_with};

/// A Claude Code session in project `acme-api` and a short Codex session without a project.
fn story() -> Vec<HookEvent> {
    let mut story = Story::new();
    story
        .session(
            "claude",
            "9f1c2d3e-aaaa-bbbb-cccc-000000000001",
            Some("acme-api"),
            "/home/alice/src/acme-api",
        )
        .prompt("I prefer small commits with clear messages. Can you fix the flaky retry test?")
        .read("src/retry.rs")
        .bash_ok("cargo test --workspace -- --nocapture")
        .bash_fail(
            "cargo test --workspace -- --nocapture",
            "Exit code 101\nerror[E0425]: cannot find value `backoff` in this scope\n --> src/retry.rs:42:9",
        )
        .edit("src/retry.rs")
        .bash_ok("cargo test --workspace -- --nocapture")
        .injection()
        .prompt("In this project we use thiserror for library errors and anyhow only in binaries.")
        .edit("src/error.rs")
        .edit("src/retry.rs")
        .bash_ok("cargo clippy --all-targets -- -D warnings")
        .prompt("Never use unwrap in library code. Always run cargo fmt before committing.")
        .bash_ok("cargo fmt")
        .bash_ok("cargo test --workspace -- --nocapture")
        .bash_ok("git status")
        .stop();
    story
        .session("codex", "01a22a76-ff7a-7530-b4e3-227fb6241c15", None, "/home/alice")
        .prompt("From now on, use rg instead of grep when searching.")
        .bash_ok("rg -n --hidden TODO")
        .bash_ok("ls -la")
        .stop();
    story.events()
}

async fn distil(events: &[HookEvent], chunk_size: usize) -> (memory_core::InMemoryStore, dream::DreamReport) {
    let store = store_with(events).await;
    let mut options = options();
    options.chunk_size = chunk_size;
    let report = run(&store, &DeterministicProvider::new(), &options, &NoProgress).await.unwrap();
    (store, report)
}

#[tokio::test]
async fn story_snapshot_is_byte_identical_across_runs() {
    let events = story();
    let (first, report) = distil(&events, 8).await;
    let (second, _) = distil(&events, 8).await;
    let notes = dump(&first).await;
    assert_eq!(notes, dump(&second).await, "two runs over the same events must agree byte for byte");
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.tokens_in, 0);
    assert!(report.chunks >= 3, "chunk size 8 splits the story: {}", report.chunks);
    for expected in [
        "profile/preferences.md",
        "project/acme-api/conventions.md",
        "project/acme-api/commands.md",
        "project/acme-api/hot-files.md",
        "project/acme-api/errors.md",
        "project/acme-api/tools/cargo/test-flags.md",
        "I prefer small commits with clear messages.",
        "`cargo test --workspace -- --nocapture` (3×",
        "error[E0425]",
    ] {
        assert!(notes.contains(expected), "missing {expected:?} in\n{notes}");
    }
    assert!(!notes.contains("Can you fix"), "questions are not preferences");
    assert!(!notes.contains("`ls -la`"), "trivial commands are left out");
    assert!(!notes.contains("rg -n"), "a search teaches nothing about the user or the project");
    assert!(!notes.contains("`git status`"), "looking at the work tree is not a project command");
    insta::assert_snapshot!("deterministic_story", notes);
}

#[tokio::test]
async fn rerun_without_new_events_changes_nothing() {
    let events = story();
    let (store, _) = distil(&events, 50).await;
    let before = dump(&store).await;
    let marks = store.watermarks().await.unwrap();
    let again = run(&store, &DeterministicProvider::new(), &options(), &NoProgress).await.unwrap();
    assert_eq!((again.events_read, again.chunks, again.provider_calls), (0, 0, 0));
    assert!(again.changes.is_empty());
    assert_eq!(dump(&store).await, before);
    assert_eq!(store.watermarks().await.unwrap(), marks);
}

#[tokio::test]
async fn later_events_accumulate_and_contradictions_replace() {
    let events = story();
    let (store, _) = distil(&events, 50).await;
    let mut more = Story::new();
    more.session("claude", "second", Some("acme-api"), "/home/alice/src/acme-api")
        .prompt("Always use unwrap in library code.")
        .bash_ok("cargo test --workspace -- --nocapture");
    store.append(&more.events()).await.unwrap();
    let report = run(&store, &DeterministicProvider::new(), &options(), &NoProgress).await.unwrap();
    assert!(report.notes_updated >= 2, "{report:?}");
    let preferences = store
        .get_note(&Scope::User, &NotePath::new("profile/preferences.md").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert!(preferences.body.contains("Always use unwrap in library code."));
    assert!(
        !preferences.body.contains("Never use unwrap"),
        "the contradicted item is gone:\n{}",
        preferences.body
    );
    assert!(preferences.body.contains("I prefer small commits"), "other items stay");
    let commands = store
        .get_note(&Scope::Project("acme-api".into()), &NotePath::new("project/acme-api/commands.md").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert!(commands.body.contains("`cargo test --workspace -- --nocapture` (4×"), "{}", commands.body);
    assert_eq!(commands.meta.generator, "deterministic");
}

#[tokio::test]
async fn human_edited_notes_are_merged_not_overwritten() {
    let events = story();
    let store = store_with(&events).await;
    let human_body = "My own words about how I work.\n\n- I like tabs.\n";
    let note = Note {
        path: NotePath::new("profile/preferences.md").unwrap(),
        meta: NoteMeta {
            title: "My preferences".into(),
            description: None,
            tags: vec!["mine".into()],
            scope: Scope::User,
            kind: NoteKind::Preference,
            sources: vec![EventId("0".repeat(32))],
            updated: crate::support::now() - chrono::Duration::days(3),
            generator: GENERATOR_HUMAN.into(),
            owner: None,
        },
        body: human_body.into(),
    };
    store.put_note(&note).await.unwrap();
    let report = run(&store, &DeterministicProvider::new(), &options(), &NoProgress).await.unwrap();
    let merged = store.get_note(&Scope::User, &note.path).await.unwrap().unwrap();
    assert!(merged.body.starts_with(human_body.trim_end()), "the person's text stays first and intact");
    assert!(merged.body.contains("Never use unwrap in library code."));
    assert_eq!(merged.meta.generator, GENERATOR_HUMAN);
    assert_eq!(merged.meta.title, "My preferences");
    assert_eq!(merged.meta.sources[0], EventId("0".repeat(32)), "sources are merged, old ones first");
    let changes: Vec<_> = report.changes.iter().filter(|c| c.path == note.path).collect();
    assert_eq!(changes.len(), 2, "one merge per event group");
    assert!(changes.iter().all(|c| c.merged_into_human_edit));
    assert!(changes.iter().any(|c| c.diff.contains("+- Never use unwrap")), "{changes:#?}");
    assert!(merged.body.ends_with("(1×, last 2026-11-30)\n"), "{}", merged.body);
}

#[tokio::test]
async fn the_operation_limit_keeps_the_most_observed_notes() {
    let store = store_with(&story()).await;
    let mut options = options();
    options.limits.max_operations = 2;
    let report = run(&store, &DeterministicProvider::new(), &options, &NoProgress).await.unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let paths: Vec<String> =
        crate::support::all_notes(&store).await.iter().map(|n| n.path.to_string()).collect();
    assert!(paths.contains(&"project/acme-api/commands.md".to_owned()), "{paths:?}");
    assert!(paths.contains(&"profile/preferences.md".to_owned()), "{paths:?}");
    assert!(paths.len() <= 4, "two per group: {paths:?}");
}
