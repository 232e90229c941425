//! The `custom_harness` example as a harness runs it: a real process, a payload on stdin, a data
//! folder of its own.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use memory_core::{EventKind, MemoryStore, Note, NoteKind, NoteMeta, NotePath, Scope};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use serde_json::{Value, json};

/// An AWS access key id the redactor knows the shape of.
const SECRET: &str = "AKIAQX7Z4M2KD9WBT3RL";

/// Builds the example and returns its executable.
fn example() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let target = exe.parent().and_then(Path::parent).expect("target folder");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "-p", "examples", "--example", "custom_harness"])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the example failed");
    target.join("examples").join("custom_harness")
}

/// Runs one hook: stdout, stderr and the exit code.
fn hook(exe: &Path, home: &Path, payload: &Value) -> (String, String, i32) {
    let mut child = Command::new(exe)
        .env_clear()
        .env("HOME", home.join("home"))
        .env("TMPDIR", home.join("tmp"))
        .env("AGENT_MEMORY_HOME", home.join("data"))
        .env("AGENT_MEMORY_CONFIG", home.join("config.toml"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(payload.to_string().as_bytes()).expect("write the payload");
    drop(stdin);
    let out = child.wait_with_output().expect("the example ends");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    (text(out.stdout), text(out.stderr), out.status.code().expect("an exit code, not a signal"))
}

fn note(scope: Scope, path: &str, title: &str, body: &str) -> Note {
    Note {
        path: NotePath::new(path).expect("note path"),
        meta: NoteMeta {
            title: title.to_owned(),
            description: None,
            tags: Vec::new(),
            scope,
            kind: NoteKind::Fact,
            sources: Vec::new(),
            updated: chrono::Utc::now(),
            generator: memory_core::GENERATOR_HUMAN.to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    }
}

/// A throwaway machine: its folders, the project's folder and a config with generous deadlines.
fn machine() -> (tempfile::TempDir, std::path::PathBuf) {
    let home = tempfile::tempdir().expect("temporary folder");
    let project_dir = home.path().join("quill-project");
    for dir in ["home", "tmp", "quill-project"] {
        std::fs::create_dir_all(home.path().join(dir)).expect("create a folder");
    }
    std::fs::write(
        home.path().join("config.toml"),
        "[hook]\ndeadline_ms = 5000\ninject_deadline_ms = 5000\n",
    )
    .expect("write the config");
    (home, project_dir)
}

#[test]
fn a_custom_harness_stores_redacted_events_under_the_project_and_gets_notes_in_its_format() {
    let exe = example();
    let (home, project_dir) = machine();
    let project = memory_hook::project::identify(&project_dir);
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
    let db = home.path().join("data").join("memory.db");
    let store = SqliteStore::open(&SqliteConfig::new(&db).with_inline(true)).expect("open the store");
    runtime.block_on(async {
        let profile = note(Scope::User, "profile/role.md", "Role", "The user runs the zanzibar test runner.");
        let conventions =
            note(Scope::Project(project.id.clone()), "conventions.md", "Style", "Tabs, never spaces.");
        store.put_note(&profile).await.expect("plant a user note");
        store.put_note(&conventions).await.expect("plant a project note");
    });
    drop(store);

    let dir = project_dir.to_str().expect("UTF-8 path");
    let (stdout, stderr, code) =
        hook(&exe, home.path(), &json!({ "session": "s1", "event": "start", "dir": dir }));
    assert_eq!(code, 0, "stderr: {stderr}");
    let answer: Value = serde_json::from_str(&stdout).expect("the answer is JSON");
    let inject =
        answer["quill"]["inject"].as_str().unwrap_or_else(|| panic!("Quill's own answer shape: {stdout}"));
    assert!(
        inject.contains("zanzibar") && inject.contains("Tabs, never spaces."),
        "both notes are given: {inject}"
    );

    let prompt = format!("deploy with the key {SECRET} please");
    let (stdout, stderr, code) =
        hook(&exe, home.path(), &json!({ "session": "s1", "event": "prompt", "dir": dir, "text": prompt }));
    assert_eq!((code, stdout.as_str()), (0, "{}"), "nothing more for this prompt; stderr: {stderr}");

    let store = SqliteStore::open(&SqliteConfig::new(&db).with_inline(true)).expect("open the store");
    let events = runtime.block_on(store.events_after(0, 100)).expect("read the events");
    let prompts: Vec<_> = events.iter().filter(|e| e.event.kind == EventKind::UserPromptSubmit).collect();
    let [stored] = prompts.as_slice() else { panic!("one prompt is stored, found {}", prompts.len()) };
    assert_eq!(stored.event.session.as_str(), "quill:s1");
    assert_eq!(stored.event.project.as_deref(), Some(project.id.as_str()), "filed under the project");
    let text = stored.event.prompt.as_deref().expect("the prompt is kept");
    assert!(text.starts_with("deploy with the key ") && !text.contains(SECRET), "redacted: {text}");
    drop(store);
    let mut folders = vec![home.path().join("data")];
    while let Some(folder) = folders.pop() {
        for path in std::fs::read_dir(&folder).expect("a data folder").flatten().map(|e| e.path()) {
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("read a data file");
                let leaked = bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes());
                assert!(!leaked, "the secret is in {}", path.display());
            }
        }
    }
}

#[test]
fn a_session_that_ends_is_distilled_by_the_dream_the_binary_runs() {
    let exe = example();
    let (home, project_dir) = machine();
    let dir = project_dir.to_str().expect("UTF-8 path");
    for payload in [
        json!({ "session": "s1", "event": "start", "dir": dir }),
        json!({ "session": "s1", "event": "prompt", "dir": dir, "text": "always run the linter before committing" }),
        json!({ "session": "s1", "event": "end", "dir": dir }),
    ] {
        let (_, stderr, code) = hook(&exe, home.path(), &payload);
        assert_eq!(code, 0, "stderr: {stderr}");
    }

    let last = home.path().join("data").join("dream").join("last.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !last.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let run: Value = serde_json::from_slice(&std::fs::read(&last).expect("the dream recorded its run"))
        .expect("the record is JSON");
    assert_eq!(run["outcome"], "ok", "{run}");
    assert_eq!(run["trigger"], "session-end", "{run}");
    assert_eq!(run["provider"], "deterministic", "{run}");
    assert!(run["events_read"].as_u64().is_some_and(|n| n >= 3), "it read the session: {run}");
    let log =
        std::fs::read_to_string(home.path().join("data").join("logs").join("dream.log")).expect("dream.log");
    assert!(log.contains("dream session-end ok"), "one line per run: {log}");
}
