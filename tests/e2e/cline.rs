//! The real Cline CLI, pinned and installed from the npm registry by `scripts/harness-clis`, with
//! its hook files written by `agent-memory install` and its model replaced by the scripted server
//! of [`crate::model_server`]: Chat Completions through Cline's `openai-compatible` provider
//! (`cline auth -p openai-compatible -b <server>/v1`, a dummy key). No login, no network beyond
//! loopback.
//!
//! Beside each hook file of ours, a recorder file for the same event (`<Event>.sh`, which Cline
//! runs too) appends the raw payload to a file: what the CLI really fired, to compare with what
//! reached the store.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use adapter_cline::{ClineAdapter, RULES_FILE};
use serde_json::{Value, json};

use crate::model_server::Request;
use crate::more_clis::offers_our_mcp_tools;
use crate::real_clis::{CONVENTION, CliRun, Desk, clis, dreamed_by_itself, import_cargo_note, run_cli};

/// What one `cline --json PROMPT` run with two scripted commands fires, by hook file name: the
/// task's start, each tool call before and after, the task's end. (No UserPromptSubmit: the CLI
/// fires it for messages added to a running task only.)
const ONE_TASK: &[&str] =
    &["TaskStart", "PreToolUse", "PostToolUse", "PreToolUse", "PostToolUse", "TaskComplete"];

/// A hook Cline fired, as the recorder saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fired {
    session: String,
    /// The hook file's name.
    event: String,
}

impl Fired {
    fn of(payload: &Value) -> Self {
        let name = payload["hookName"].as_str().unwrap_or_default();
        Self {
            session: payload["sessionContext"]["rootSessionId"].as_str().unwrap_or_default().to_owned(),
            event: ClineAdapter::file_name(name).to_owned(),
        }
    }
}

/// Cline on a [`Desk`]: its provider pointed at the scripted server, its hooks recorded.
struct Cline {
    fired: PathBuf,
}

impl Cline {
    /// Points Cline's provider at the scripted server and runs `agent-memory install --harness cline`
    /// with `install` added to its arguments.
    fn on(desk: &Desk, install: &[&str]) -> Self {
        let cline = Self { fired: desk.m.dir.path().join("fired-cline.jsonl") };
        let base = format!("{}/v1", desk.server.root());
        let mut auth = desk.base(&clis().cline, desk.m.dir.path());
        auth.args([
            "auth",
            "-p",
            "openai-compatible",
            "-k",
            "test-not-a-real-key",
            "-b",
            &base,
            "-m",
            "scripted",
        ]);
        let out = auth.output().expect("cline runs");
        assert!(out.status.success(), "cline auth: {}", String::from_utf8_lossy(&out.stderr));
        let mut args = vec!["install", "--harness", "cline"];
        args.extend_from_slice(install);
        desk.m.run(&args);
        cline
    }

    /// Adds a recorder beside every hook file of ours in `dir`.
    fn record(&self, dir: &Path) {
        use memory_core::HarnessAdapter as _;
        for event in ClineAdapter.hook_events() {
            assert!(dir.join(event.name).is_file(), "install wrote {}", event.name);
            let script = format!("#!/bin/sh\n{{ cat; echo; }} >> '{}'\n", self.fired.display());
            std::fs::write(dir.join(format!("{}.sh", event.name)), script).unwrap();
        }
    }

    /// `cline --json PROMPT` in `cwd`, against the scripted server.
    fn run(&self, desk: &Desk, cwd: &Path, prompt: &str) -> CliRun {
        let mut cmd = desk.base(&clis().cline, cwd);
        cmd.args(["--json", prompt]);
        run_cli(cmd, Duration::from_secs(180))
    }

    /// Every hook fired so far, in order.
    fn fired(&self) -> Vec<Fired> {
        let text = std::fs::read_to_string(&self.fired).unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Fired::of(&serde_json::from_str(l).unwrap()))
            .collect()
    }

    /// The hooks of one task fired since `seen` were, once its detached end hook ran, and the one
    /// session they belong to.
    fn task_since(&self, seen: usize) -> (String, Vec<Fired>) {
        let until = Instant::now() + Duration::from_secs(20);
        let fired = loop {
            let fired: Vec<Fired> = self.fired().into_iter().skip(seen).collect();
            if fired.iter().any(|f| f.event == "TaskComplete") || Instant::now() > until {
                break fired;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let sessions: BTreeSet<&str> = fired.iter().map(|f| f.session.as_str()).collect();
        assert_eq!(sessions.len(), 1, "one task, one session: {fired:#?}");
        (fired[0].session.clone(), fired)
    }

    /// The hook file names stored for a session, in order, once the detached hooks stored theirs.
    fn stored_soon(&self, desk: &Desk, session: &str, count: usize) -> Vec<Value> {
        let key = format!("cline:{session}");
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let events = desk.timeline(&key);
            if events.len() >= count || Instant::now() > until {
                return events;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Asserts the store holds exactly the hooks `fired`, in order, under harness `cline`.
    fn assert_stored(&self, desk: &Desk, session: &str, fired: &[Fired]) -> Vec<Value> {
        let events = self.stored_soon(desk, session, fired.len());
        let stored: Vec<Fired> = events.iter().map(|e| Fired::of(&e["raw"])).collect();
        assert_eq!(stored, fired, "cline:{session}: the store must hold every fired hook, in order");
        assert!(events.iter().all(|e| e["harness"]["name"] == "cline"), "{events:#?}");
        events
    }
}

/// The requests Cline made to the model.
fn model_calls(requests: Vec<Request>) -> Vec<Request> {
    requests.into_iter().filter(Request::is_model_call).collect()
}

/// The system prompt of a request.
fn system(request: &Request) -> String {
    request.texts().into_iter().filter(|(role, _)| role == "system").map(|(_, t)| t).collect()
}

/// The event names of a run.
fn names(fired: &[Fired]) -> Vec<&str> {
    fired.iter().map(|f| f.event.as_str()).collect()
}

/// The project every event of a stored session is filed under.
fn project_of(desk: &Desk, key: &str) -> String {
    let projects: BTreeSet<String> =
        desk.timeline(key).iter().map(|e| e["project"].as_str().unwrap_or_default().to_owned()).collect();
    assert_eq!(projects.len(), 1, "{key}: one project per session: {projects:?}");
    projects.into_iter().next().unwrap()
}

/// A command that succeeds, then one that fails.
fn two_commands() -> Vec<(&'static str, Value)> {
    vec![
        ("run_commands", json!({ "commands": ["ls"] })),
        ("run_commands", json!({ "commands": ["ls missing-dir"] })),
    ]
}

#[test]
fn memory_made_in_claude_code_reaches_cline_through_its_rules_file_in_the_same_project_only() {
    let desk = Desk::with(&["claude"]);
    let cline = Cline::on(&desk, &[]);
    cline.record(&desk.m.dir.path().join(".cline/hooks"));
    let a = desk.m.project("acme-api");
    let b = desk.m.project("billing-web");
    import_cargo_note(&desk.m);

    // Claude Code, project A: a preference and a convention; its session end starts the dream.
    desk.server.script_claude(vec![("Bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.claude(
        &a,
        "I prefer small focused commits. In this project we use thiserror for library errors, never anyhow. \
         Run the cargo tests and write down what you find.",
        &["Bash(ls:*)"],
    )
    .assert_completed("claude");
    let dreamed = dreamed_by_itself(&desk.m);
    assert!(dreamed["notes_created"].as_u64().unwrap() > 0, "{dreamed}");
    let claude_key = format!("claude:{}", desk.fired()[0].session);
    desk.server.take();

    // Cline, project A, first task: every hook stored in order; the task's start writes the rules
    // file, which Cline read before the hook ran.
    desk.server.script_chat(two_commands());
    cline
        .run(&desk, &a, "Which errors crate do we use for library errors? List the files first.")
        .assert_completed("cline 1 in A");
    let calls = model_calls(desk.server.take());
    assert!(offers_our_mcp_tools(&calls), "install registered our MCP server in Cline");
    let (first, fired) = cline.task_since(0);
    let mut seen = fired.len();
    assert_eq!(names(&fired), ONE_TASK);
    let events = cline.assert_stored(&desk, &first, &fired);
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["SessionStart", "PreToolUse", "PostToolUse", "PreToolUse", "PostToolUseFailure", "Stop"]
    );
    assert_eq!(events[1]["tool"]["shell"]["command"], "ls");
    assert_eq!(events[4]["tool"]["shell"]["command"], "ls missing-dir");
    assert_eq!(events[4]["tool"]["shell"]["exit_code"], 2);
    assert_eq!(events[4]["tool"]["failed"], true);
    assert_eq!(project_of(&desk, &format!("cline:{first}")), project_of(&desk, &claude_key));
    let rules = std::fs::read_to_string(a.join(RULES_FILE)).expect("the task's start wrote the rules file");
    assert!(rules.contains(CONVENTION), "{rules}");

    // The second task in project A: the convention from Claude Code is in every request's system
    // prompt, once.
    desk.server.script_chat(two_commands());
    cline
        .run(&desk, &a, "Which errors crate do we use for library errors? List the files first.")
        .assert_completed("cline 2 in A");
    let calls = model_calls(desk.server.take());
    assert!(!calls.is_empty());
    for request in &calls {
        assert_eq!(system(request).matches(CONVENTION).count(), 1, "{:#?}", request.texts());
    }
    let (second, fired) = cline.task_since(seen);
    seen += fired.len();
    assert_ne!(second, first, "a task of its own");
    cline.assert_stored(&desk, &second, &fired);

    // Project B, two tasks: nothing of project A.
    let mut b_sessions = Vec::new();
    for n in 1..=2 {
        desk.server.script_chat(vec![("run_commands", json!({ "commands": ["ls"] }))]);
        cline.run(&desk, &b, "Run the cargo tests now.").assert_completed(&format!("cline {n} in B"));
        let (session, fired) = cline.task_since(seen);
        seen += fired.len();
        cline.assert_stored(&desk, &session, &fired);
        assert!(project_of(&desk, &format!("cline:{session}")).starts_with("billing-web"));
        b_sessions.push(session);
    }
    let calls = model_calls(desk.server.take());
    assert!(!calls.is_empty());
    for request in calls {
        let body = request.body.to_string();
        assert!(
            !body.contains(CONVENTION) && !body.contains("thiserror"),
            "project B never sees project A's notes"
        );
    }
    let b_rules = std::fs::read_to_string(b.join(RULES_FILE)).unwrap_or_default();
    assert!(!b_rules.contains(CONVENTION), "{b_rules}");

    let ran: BTreeSet<String> = [claude_key, format!("cline:{first}"), format!("cline:{second}")]
        .into_iter()
        .chain(b_sessions.iter().map(|s| format!("cline:{s}")))
        .collect();
    let sessions = desk.m.run_json(&["sessions"]);
    let keys: BTreeSet<String> =
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(keys, ran, "no session comes from anything but the CLIs' hooks");

    // Uninstall takes the hook files of ours, the MCP server and the rules file away.
    desk.m.run(&["uninstall", "--harness", "cline"]);
    assert!(!desk.m.dir.path().join(".cline/hooks/TaskStart").exists());
    assert!(desk.m.dir.path().join(".cline/hooks/TaskStart.sh").exists(), "the recorder is not ours");
    assert!(!a.join(RULES_FILE).exists(), "the rules file went with the hooks");
}

#[test]
fn cline_finishes_its_task_with_the_store_unreachable_and_sync_delivers() {
    let mut desk = Desk::with(&[]);
    let cline = Cline::on(&desk, &["--no-mcp"]);
    cline.record(&desk.m.dir.path().join(".cline/hooks"));
    let a = desk.m.project("acme-api");
    let blocker = desk.m.dir.path().join("unmounted");
    std::fs::write(&blocker, "not a folder").unwrap();
    desk.env.push(("AGENT_MEMORY_DB".to_owned(), blocker.join("memory.db")));

    desk.server.script_chat(two_commands());
    cline.run(&desk, &a, "List the files now.").assert_completed("cline without a store");
    let (session, fired) = cline.task_since(0);
    assert_eq!(names(&fired), ONE_TASK);
    // The detached end hook may still be writing its journal entry.
    let journal = desk.m.home().join("journal");
    let until = Instant::now() + Duration::from_secs(20);
    let journaled = || {
        std::fs::read_dir(&journal)
            .map(|d| {
                d.flatten()
                    .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                    .collect::<String>()
                    .matches("agent_end")
                    .count()
            })
            .unwrap_or(0)
    };
    while journaled() == 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(desk.m.run_json(&["sessions"]), json!([]), "nothing reached the store yet");
    assert!(journaled() > 0, "every event is journaled, the end of the task too");

    desk.env.clear();
    desk.m.run(&["sync"]);
    cline.assert_stored(&desk, &session, &fired);
    assert_eq!(desk.m.run_json(&["sessions"]).as_array().unwrap().len(), 1);
}

/// `install --scope project` writes the project's `.clinerules/hooks/` and Cline runs them; what
/// the adapter renders for a tool call reaches the model (context) or stops the run (a block).
#[test]
fn cline_runs_project_hooks_and_honours_rendered_answers() {
    use memory_core::{EventKind, HarnessAdapter, HookResponse};

    const CONTEXT: &str = "agent-memory: run the tests with --test-threads=1 here";
    const REASON: &str = "agent-memory: this command is not allowed here";
    let desk = Desk::with(&[]);
    let a = desk.m.project("acme-api");
    let project = a.to_str().unwrap().to_owned();
    let cline = Cline::on(&desk, &["--scope", "project", "--project", &project, "--no-mcp"]);
    let hooks = a.join(".clinerules/hooks");
    cline.record(&hooks);
    let answer = |response: &HookResponse| {
        let rendered = ClineAdapter.render(&EventKind::PreToolUse, response);
        assert_eq!(rendered.exit_code, 0);
        let file = desk.m.dir.path().join("cline-answer.json");
        std::fs::write(&file, &rendered.stdout).unwrap();
        let script = format!("#!/bin/sh\ncat >/dev/null\ncat '{}'\n", file.display());
        std::fs::write(hooks.join("PreToolUse.bash"), script).unwrap();
    };

    answer(&HookResponse::with_context(CONTEXT));
    desk.server.script_chat(vec![("run_commands", json!({ "commands": ["touch cline-ran.txt"] }))]);
    cline.run(&desk, &a, "Create the file now.").assert_completed("cline with a context answer");
    assert!(a.join("cline-ran.txt").exists(), "the call ran");
    let calls = model_calls(desk.server.take());
    let last = calls.last().expect("Cline called the model");
    assert!(
        last.texts().iter().any(|(role, t)| role == "user"
            && t.contains("<hook_context source=\"PreToolUse\"")
            && t.contains(CONTEXT)),
        "the context reached Cline's model after the tool result: {:#?}",
        last.texts()
    );
    let (session, fired) = cline.task_since(0);
    let seen = fired.len();
    cline.assert_stored(&desk, &session, &fired);

    answer(&HookResponse::block(REASON));
    desk.server.script_chat(vec![("run_commands", json!({ "commands": ["touch cline-blocked.txt"] }))]);
    let run = cline.run(&desk, &a, "Create the other file now.");
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("\"finishReason\":\"aborted\""), "a cancel ends the run: {}", run.stdout);
    assert!(!a.join("cline-blocked.txt").exists(), "Cline did not run the blocked command");
    let fired: Vec<Fired> = cline.fired().into_iter().skip(seen).collect();
    assert_eq!(names(&fired)[..2], ["TaskStart", "PreToolUse"], "{fired:#?}");
    let kinds: Vec<String> = cline
        .stored_soon(&desk, &fired[0].session, 2)
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds[..2], ["SessionStart", "PreToolUse"], "{kinds:?}");
}
