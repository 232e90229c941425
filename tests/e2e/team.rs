//! Project memory shared through the repository: two homes with clones of one repository, the
//! real binary's hooks and dream, real `git` (clone, commit, push, pull, merge with the folder's
//! `merge=union`).

#![allow(clippy::print_stderr, reason = "the cost of a session start is printed as a figure")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::Utc;
use memory_core::{MemoryStore as _, Note, NoteKind, NoteMeta, NotePath, Scope};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use serde_json::{Value, json};

use crate::support::{Machine, claude, files_under, git};

const FOLDER: &str = ".agent-memory/notes";

/// A bare repository with one commit on `main`, standing for the team's remote.
fn origin(dir: &Path) -> PathBuf {
    let seed = dir.join("seed");
    std::fs::create_dir_all(&seed).unwrap();
    git(&seed, &["init", "-q"]);
    std::fs::write(seed.join("README.md"), "# app\n").unwrap();
    git(&seed, &["add", "."]);
    git(&seed, &["commit", "-q", "-m", "start"]);
    let bare = dir.join("app.git");
    git(dir, &["clone", "-q", "--bare", seed.to_str().unwrap(), bare.to_str().unwrap()]);
    bare
}

/// A clone of `origin` in `m`'s source folder, named `app`.
fn clone(m: &Machine, origin: &Path) -> PathBuf {
    let dir = m.dir.path().join("src");
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["clone", "-q", origin.to_str().unwrap(), "app"]);
    dir.join("app")
}

/// Two homes, each with a clone of one remote, and a session started in the first; `id` is the
/// project's id there.
struct Pair {
    _remote: tempfile::TempDir,
    a: Machine,
    b: Machine,
    app_a: PathBuf,
    app_b: PathBuf,
    id: String,
}

fn pair() -> Pair {
    let tmp = tempfile::tempdir().unwrap();
    let remote = origin(tmp.path());
    let (a, b) = (Machine::new(), Machine::new());
    let app_a = clone(&a, &remote);
    let app_b = clone(&b, &remote);
    start(&a, &app_a, "a0");
    let id = project_id(&a, "app");
    Pair { _remote: tmp, a, b, app_a, app_b, id }
}

/// Commits everything in the clone `from`, pushes it and pulls it into the clone `to`.
fn hand_over(from: &Path, to: &Path) {
    git(from, &["add", "."]);
    git(from, &["commit", "-q", "-m", "notes"]);
    git(from, &["push", "-q", "origin", "main"]);
    git(to, &["pull", "-q"]);
}

/// `agent-memory ARGS` run in `cwd`; its stdout.
fn run_in(m: &Machine, cwd: &Path, args: &[&str]) -> String {
    let out = m.command(args).current_dir(cwd).output().unwrap();
    assert!(out.status.success(), "agent-memory {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn prompt(m: &Machine, dir: &Path, session: &str, text: &str) {
    m.hook("claude", dir, &claude(session, dir, "UserPromptSubmit", json!({ "prompt": text })));
}

/// What a fresh Claude Code session in `dir` is given at its start.
fn start(m: &Machine, dir: &Path, session: &str) -> String {
    m.hook("claude", dir, &claude(session, dir, "SessionStart", json!({ "source": "startup" })))
        .context("claude")
        .unwrap_or_default()
}

/// A Claude Code session through the hooks: a start, prompts, an end.
fn session(m: &Machine, dir: &Path, id: &str, prompts: &[&str]) {
    start(m, dir, id);
    for text in prompts {
        prompt(m, dir, id, text);
    }
    m.hook("claude", dir, &claude(id, dir, "SessionEnd", json!({ "reason": "exit" })));
}

/// Every shared note file's text, by its path in the folder.
fn shared_files(repo: &Path) -> Vec<(String, String)> {
    let folder = repo.join(FOLDER);
    files_under(&folder)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|x| x == "md"))
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f.strip_prefix(&folder).unwrap().display().to_string(), text)
        })
        .collect()
}

fn project_id(m: &Machine, name: &str) -> String {
    let projects = m.run_json(&["projects"]);
    projects
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == json!(name))
        .unwrap_or_else(|| panic!("{name} is known: {projects}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

/// A note of project `id` at `project/app/<file>`, straight into `m`'s store.
fn plant(m: &Machine, id: &str, file: &str, title: &str, body: &str) {
    block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        let note = Note {
            path: NotePath::new(format!("project/app/{file}")).unwrap(),
            meta: NoteMeta {
                title: title.to_owned(),
                description: None,
                tags: Vec::new(),
                scope: Scope::Project(id.to_owned()),
                kind: NoteKind::Procedure,
                sources: Vec::new(),
                updated: Utc::now(),
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: body.to_owned(),
        };
        store.put_note(&note).await.unwrap();
    });
}

fn stored(m: &Machine, id: &str, file: &str) -> Option<Note> {
    block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        let path = NotePath::new(format!("project/app/{file}")).unwrap();
        store.get_note(&Scope::Project(id.to_owned()), &path).await.unwrap()
    })
}

#[test]
fn a_clone_in_another_home_is_given_the_notes_another_clone_committed_and_nothing_private() {
    let tmp = tempfile::tempdir().unwrap();
    let remote = origin(tmp.path());
    let (a, b) = (Machine::new(), Machine::new());
    let app_a = clone(&a, &remote);
    let app_b = clone(&b, &remote);

    // Home A: a Claude Code session, the deterministic dream, sharing turned on.
    session(
        &a,
        &app_a,
        "s1",
        &[
            "no, please always use pnpm here, not npm.",
            "I like small commits with conventional commit messages.",
            "<private>the staging box is codename BLUEBIRD</private> deploys here go through make ship.",
        ],
    );
    a.run(&["dream", "--provider", "deterministic"]);
    let on = run_in(&a, &app_a, &["share", "on"]);
    assert!(on.contains(FOLDER), "{on}");
    let id = project_id(&a, "app");
    // Text no folder may hold: a redaction marker, a `<private>` region, a credential.
    plant(&a, &id, "staging.md", "Staging", "- the staging box is [private]\n");
    plant(&a, &id, "token.md", "Token", "- the CI token is [REDACTED:github-token]\n");
    run_in(&a, &app_a, &["share", "write"]);

    let files = shared_files(&app_a);
    let all: String = files.iter().map(|(_, text)| text.as_str()).collect();
    assert!(all.contains("always use pnpm here"), "the project's rule is shared: {files:?}");
    assert!(!all.contains("small commits"), "a user-scope preference never is: {all}");
    for private in ["BLUEBIRD", "[private]", "[REDACTED:", "Staging", "Token"] {
        assert!(!all.contains(private), "{private} is in the folder: {all}");
    }
    assert!(files.iter().all(|(_, text)| text.contains("scope: project:app\n")), "{files:?}");
    let attributes = std::fs::read_to_string(app_a.join(FOLDER).join(".gitattributes")).unwrap();
    assert!(attributes.contains("*.md merge=union"), "{attributes}");
    // `doctor` exits 1 on this machine (no harness is installed); its report is what counts.
    let doctor =
        String::from_utf8(a.command(&["doctor"]).current_dir(&app_a).output().unwrap().stdout).unwrap();
    assert!(doctor.contains("project app shares its notes through its repository in"), "{doctor}");

    // Nothing was committed for the user; they commit and push.
    assert!(git(&app_a, &["status", "--porcelain"]).contains(".agent-memory"));
    git(&app_a, &["add", ".agent-memory.toml", FOLDER]);
    git(&app_a, &["commit", "-q", "-m", "share project notes"]);
    git(&app_a, &["push", "-q", "origin", "main"]);

    // Home B: another project first, then the pull, then a session in the clone.
    let other = b.project("other");
    start(&b, &other, "o0");
    git(&app_b, &["pull", "-q"]);
    let given = start(&b, &app_b, "b1");
    assert!(given.contains("always use pnpm here"), "B's session start carries A's note: {given}");
    let log = b.log("hook.log");
    assert!(log.iter().any(|l| l.contains("shared notes:")), "{log:?}");
    let elsewhere = start(&b, &other, "o1");
    assert!(!elsewhere.contains("pnpm"), "another project of B's is given none of it: {elsewhere}");
    // A prompt of a session that was not given it at its start finds it too.
    let prompt_run = b.hook(
        "claude",
        &app_b,
        &claude("b2", &app_b, "UserPromptSubmit", json!({ "prompt": "which package manager, pnpm or npm?" })),
    );
    assert!(prompt_run.context("claude").unwrap_or_default().contains("pnpm"), "{}", prompt_run.stdout);
    assert!(
        !git(&app_b, &["status", "--porcelain"]).contains(".agent-memory"),
        "a hook never writes the folder"
    );
}

#[test]
fn a_merge_of_two_branches_keeps_both_sides_items_and_hooks_read_it() {
    let Pair { _remote, a, b, app_a, app_b, id } = pair();
    plant(&a, &id, "deploy.md", "Deploy", "- build with `make release`\n- upload with `make ship`\n");
    run_in(&a, &app_a, &["share", "on"]);
    hand_over(&app_a, &app_b);
    assert!(start(&b, &app_b, "b0").contains("make ship"));

    // Each home's note gains an item, committed on each side.
    std::thread::sleep(Duration::from_millis(20));
    plant(
        &a,
        &id,
        "deploy.md",
        "Deploy",
        "- build with `make release`\n- upload with `make ship`\n- tag the release first\n",
    );
    run_in(&a, &app_a, &["share", "write"]);
    git(&app_a, &["commit", "-q", "-am", "A's item"]);
    git(&app_a, &["push", "-q", "origin", "main"]);
    plant(
        &b,
        &id,
        "deploy.md",
        "Deploy",
        "- build with `make release`\n- upload with `make ship`\n- announce it in #releases\n",
    );
    run_in(&b, &app_b, &["share", "write"]);
    git(&app_b, &["commit", "-q", "-am", "B's item"]);
    // A real merge of the two branches: no conflict, both sides' lines.
    git(&app_b, &["pull", "-q", "--no-edit"]);
    let merged = std::fs::read_to_string(app_b.join(FOLDER).join("deploy.md")).unwrap();
    assert!(
        merged.contains("tag the release first") && merged.contains("announce it in #releases"),
        "{merged}"
    );
    assert!(!merged.contains("<<<<<<<"), "{merged}");

    let given = start(&b, &app_b, "b1");
    assert!(
        given.contains("tag the release first") && given.contains("announce it in #releases"),
        "the hook reads the merged note: {given}"
    );
    let note = stored(&b, &id, "deploy.md").unwrap();
    assert_eq!(note.meta.generator, "human", "a merge is a person's: the dream keeps its lines");
    assert_eq!(note.body.matches("make ship").count(), 1, "{}", note.body);
}

#[test]
fn a_hand_edit_in_the_folder_wins_over_the_next_dream() {
    let tmp = tempfile::tempdir().unwrap();
    let remote = origin(tmp.path());
    let a = Machine::new();
    let app = clone(&a, &remote);
    session(&a, &app, "s1", &["no, please always use pnpm here, not npm."]);
    a.run(&["dream", "--provider", "deterministic"]);
    run_in(&a, &app, &["share", "on"]);
    let (file, text) = shared_files(&app)
        .into_iter()
        .find(|(_, text)| text.contains("always use pnpm here"))
        .expect("the rule's note is shared");
    let path = app.join(FOLDER).join(&file);
    let edited = format!("{text}- never commit the pnpm store\n");
    std::fs::write(&path, &edited).unwrap();

    // More work, and the dream runs again (it starts by reading the folder in).
    session(&a, &app, "s2", &["we deploy with make ship here, never by hand."]);
    let report: Value =
        serde_json::from_str(&run_in(&a, &app, &["--json", "dream", "--provider", "deterministic"])).unwrap();
    assert!(report.is_object(), "{report}");
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("- never commit the pnpm store"), "the person's line stays: {after}");
    assert!(after.contains("make ship here"), "the dream merged into the person's note: {after}");
    assert!(after.contains("generator: human\n"), "{after}");
    assert!(!git(&app, &["status", "--porcelain"]).is_empty(), "the dream wrote, and committed nothing");
    assert_eq!(git(&app, &["log", "--oneline"]).lines().count(), 1, "no commit of the dream's");
    let id = project_id(&a, "app");
    let note = stored(&a, &id, &file).unwrap();
    assert_eq!(note.meta.generator, "human");
    assert!(note.body.contains("never commit the pnpm store"), "{}", note.body);
    assert!(start(&a, &app, "s3").contains("never commit the pnpm store"));
}

/// The cost of a session start with ~50 shared notes, as a figure: the first start after a pull
/// (every file read in), the next ones (a `stat` per file), and the same notes with sharing off.
#[test]
fn session_start_cost_with_fifty_shared_notes() {
    let Pair { _remote, a, b, app_a, app_b, id } = pair();
    for i in 0..50 {
        let body = format!("- step {i}: run `make task-{i}` before `make check`\n- it takes a minute\n");
        plant(&a, &id, &format!("procedures/task-{i}.md"), &format!("Task {i}"), &body);
    }
    run_in(&a, &app_a, &["share", "on"]);
    assert_eq!(shared_files(&app_a).len(), 50);
    hand_over(&app_a, &app_b);
    let first =
        b.hook("claude", &app_b, &claude("b1", &app_b, "SessionStart", json!({ "source": "startup" })));
    assert!(first.context("claude").unwrap_or_default().contains("make task-"));
    let starts = |from: usize| {
        (from..from + 7)
            .map(|i| {
                let session = format!("b{i}");
                let run = b.hook(
                    "claude",
                    &app_b,
                    &claude(&session, &app_b, "SessionStart", json!({ "source": "startup" })),
                );
                assert!(run.context("claude").unwrap_or_default().contains("make task-"));
                hook_micros(&b, &session)
            })
            .collect::<Vec<u64>>()
    };
    let unchanged = starts(2);
    // The same 50 notes in the store, sharing off: no folder to look at.
    run_in(&b, &app_b, &["share", "off"]);
    let unshared = starts(20);
    eprintln!(
        "session start with 50 project notes, the hook's own time (median of 7): folder read in after a pull {} us \
         (once); folder unchanged {} us; sharing off {} us",
        hook_micros(&b, "b1"),
        median(unchanged),
        median(unshared)
    );
}

/// The hook's own time for `session`'s last run, from its line in the hook log (`…1234us`).
fn hook_micros(m: &Machine, session: &str) -> u64 {
    let needle = format!("claude:{session} ");
    let log = m.log("hook.log");
    let line = log.iter().rev().find(|l| l.contains(&needle)).expect("the hook logged its run");
    line.rsplit(' ').next().and_then(|t| t.strip_suffix("us")).and_then(|t| t.parse().ok()).unwrap()
}

fn median(mut values: Vec<u64>) -> u64 {
    values.sort_unstable();
    values[values.len() / 2]
}

#[test]
fn a_note_deleted_in_one_home_leaves_the_folder_and_the_other_homes_store() {
    let Pair { _remote, a, b, app_a, app_b, id } = pair();
    plant(&a, &id, "deploy.md", "Deploy", "- upload with `make ship`\n");
    plant(&a, &id, "lint.md", "Lint", "- run `make lint` before a commit\n");
    run_in(&a, &app_a, &["share", "on"]);
    hand_over(&app_a, &app_b);
    assert!(start(&b, &app_b, "b0").contains("make ship"));

    run_in(&a, &app_a, &["notes", "delete", "project", "deploy.md", "--yes"]);
    let written = run_in(&a, &app_a, &["share", "write"]);
    assert!(written.contains("1 removed"), "{written}");
    assert!(!app_a.join(FOLDER).join("deploy.md").exists());
    git(&app_a, &["commit", "-q", "-am", "drop the deploy note"]);
    git(&app_a, &["push", "-q", "origin", "main"]);

    git(&app_b, &["pull", "-q"]);
    let given = start(&b, &app_b, "b1");
    assert!(!given.contains("make ship"), "{given}");
    assert!(given.contains("make lint"), "{given}");
    assert!(stored(&b, &id, "deploy.md").is_none(), "the other home deleted it too");
}
