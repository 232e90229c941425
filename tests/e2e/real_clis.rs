//! The real Claude Code and Codex CLIs (Gemini CLI, Copilot CLI and Qwen Code in [`crate::more_clis`]), pinned and installed from the npm registry by
//! `scripts/harness-clis`, with hooks wired by `agent-memory install` (user scope, as a user would)
//! and the model replaced by the scripted server of [`crate::model_server`].
//!
//! Codex runs untrusted hooks only after a review in its TUI; like a user's CI, these runs pass
//! `--dangerously-bypass-hook-trust` instead. Cursor has no CLI to run here: its coverage stays at
//! the fixture level.
//!
//! Besides our hook, every configured event also runs a recorder handler that appends the raw payload
//! to a file: that file is what each CLI really fired, to compare with what reached the store.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use memory_core::{Note, NoteKind, NoteMeta, NotePath, Scope};
use serde_json::{Value, json};

use crate::model_server::{FINAL_TEXT, ModelServer, Request};
use crate::support::Machine;

/// Paths of the pinned CLIs (`scripts/harness-clis` installs them into a cache once).
pub(crate) struct Clis {
    claude: PathBuf,
    codex: PathBuf,
    pub(crate) gemini: PathBuf,
    pub(crate) copilot: PathBuf,
    pub(crate) qwen: PathBuf,
    pub(crate) droid: PathBuf,
    pub(crate) opencode: PathBuf,
    pub(crate) cline: PathBuf,
}

pub(crate) fn clis() -> &'static Clis {
    static CLIS: OnceLock<Clis> = OnceLock::new();
    CLIS.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/harness-clis");
        let out = Command::new("bash").arg(&script).arg("paths").output().expect("bash runs");
        assert!(
            out.status.success(),
            "installing the harness CLIs failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let paths = String::from_utf8(out.stdout).unwrap();
        let find = |name: &str| {
            paths
                .lines()
                .find_map(|l| l.strip_prefix(name).map(|p| PathBuf::from(p.trim())))
                .unwrap_or_else(|| panic!("no {name} path in {paths:?}"))
        };
        Clis {
            claude: find("claude "),
            codex: find("codex "),
            gemini: find("gemini "),
            copilot: find("copilot "),
            qwen: find("qwen "),
            droid: find("droid "),
            opencode: find("opencode "),
            cline: find("cline "),
        }
    })
}

/// What one CLI run did.
pub(crate) struct CliRun {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl CliRun {
    /// Asserts the turn completed normally with the scripted final answer.
    pub(crate) fn assert_completed(&self, what: &str) {
        assert_eq!(self.code, Some(0), "{what} exited abnormally:\n{}\n{}", self.stdout, self.stderr);
        assert!(
            self.stdout.contains(FINAL_TEXT),
            "{what} did not finish its turn:\n{}\n{}",
            self.stdout,
            self.stderr
        );
    }
}

pub(crate) fn run_cli(mut cmd: Command, limit: Duration) -> CliRun {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the CLI starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    CliRun {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The dream a session's end started, once it ran to its end (its record in the data folder).
pub(crate) fn dreamed_by_itself(m: &Machine) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let last = std::fs::read(m.dream_dir().join("last.json"))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok());
        if let Some(last) = last.filter(|l| l["trigger"] == "session-end") {
            assert_eq!(last["outcome"], "ok", "{last}");
            return last;
        }
        assert!(Instant::now() < until, "no dream ran by itself: {:#?}", m.log("hook.log"));
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// One fired hook, as the recorder saw it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Fired {
    pub(crate) session: String,
    pub(crate) event: String,
    pub(crate) tool_use_id: Option<String>,
}

impl Fired {
    pub(crate) fn of(payload: &Value) -> Self {
        let text = |key: &str| payload.get(key).and_then(Value::as_str).map(str::to_owned);
        Self {
            session: text("session_id").unwrap_or_default(),
            event: text("hook_event_name").unwrap_or_default(),
            tool_use_id: text("tool_use_id"),
        }
    }
}

/// A user's machine with CLIs installed and wired against the scripted model server.
pub(crate) struct Desk {
    pub(crate) m: Machine,
    pub(crate) server: ModelServer,
    pub(crate) fired: PathBuf,
    pub(crate) env: Vec<(String, PathBuf)>,
    /// What `install` wrote into Codex's `config.toml` (our MCP server), kept when a run rewrites
    /// the file with its model settings.
    codex_config: String,
}

impl Desk {
    fn new() -> Self {
        Self::with(&["claude", "codex"])
    }

    /// A machine where `agent-memory install --harness <harnesses>` wired these CLIs at user
    /// scope (none when the list is empty), with a recorder handler beside each of ours. Gemini
    /// CLI's settings already hold what an API-key user's do (install merges with them).
    pub(crate) fn with(harnesses: &[&str]) -> Self {
        let m = Machine::new();
        let server = ModelServer::start();
        let fired = m.dir.path().join("fired.jsonl");
        let mut desk = Self { m, server, fired, env: Vec::new(), codex_config: String::new() };
        if harnesses.contains(&"gemini") {
            let settings = json!({
                "security": { "auth": { "selectedType": "gemini-api-key" }, "folderTrust": { "enabled": false } },
                "privacy": { "usageStatisticsEnabled": false },
            });
            let path = desk.m.dir.path().join(".gemini/settings.json");
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
        }
        if harnesses.contains(&"qwen") {
            let settings = json!({
                "security": { "auth": { "selectedType": "openai" } },
                "privacy": { "usageStatisticsEnabled": false },
                "telemetry": { "enabled": false },
            });
            let path = desk.m.dir.path().join(".qwen/settings.json");
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
        }
        if harnesses.contains(&"droid") {
            crate::droid::write_settings(&desk);
        }
        if !harnesses.is_empty() {
            desk.m.run(&["install", "--harness", &harnesses.join(",")]);
        }
        desk.codex_config =
            std::fs::read_to_string(desk.m.dir.path().join(".codex/config.toml")).unwrap_or_default();
        for harness in harnesses {
            if *harness == "opencode" {
                crate::opencode::add_recorder(&desk.m, &desk.fired);
                continue;
            }
            let (config, flat) = match *harness {
                "claude" => (".claude/settings.json", false),
                "codex" => (".codex/hooks.json", false),
                "gemini" => (".gemini/settings.json", false),
                "copilot" => (".copilot/settings.json", true),
                "qwen" => (".qwen/settings.json", false),
                "droid" => (".factory/settings.json", false),
                other => panic!("no recorder for {other}"),
            };
            desk.add_recorder(&desk.m.dir.path().join(config), flat);
        }
        desk
    }

    /// Adds the recorder handler next to ours on every event the installer configured: in a
    /// matcher group of its own, or as a flat Copilot handler (command under `bash`).
    fn add_recorder(&self, config: &Path, flat: bool) {
        let mut settings: Value = serde_json::from_slice(&std::fs::read(config).unwrap()).unwrap();
        // One payload and its newline at a time: a CLI may run two hooks at once.
        let command = format!("{{ flock 9; cat >&9; echo >&9; }} 9>> '{}'", self.fired.display());
        for groups in settings["hooks"].as_object_mut().unwrap().values_mut() {
            let entry = if flat {
                json!({ "type": "command", "bash": command })
            } else {
                json!({ "hooks": [{ "type": "command", "command": command }] })
            };
            groups.as_array_mut().unwrap().push(entry);
        }
        std::fs::write(config, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
    }

    /// Every hook fired so far, in order.
    pub(crate) fn fired(&self) -> Vec<Fired> {
        let text = std::fs::read_to_string(&self.fired).unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Fired::of(&serde_json::from_str(l).unwrap()))
            .collect()
    }

    pub(crate) fn base(&self, program: &Path, cwd: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(cwd)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.m.dir.path())
            .env("AGENT_MEMORY_HOME", self.m.home())
            .env("AGENT_MEMORY_CONFIG", self.m.dir.path().join("config.toml"));
        for (key, value) in &self.env {
            cmd.env(key, value);
        }
        cmd
    }

    /// `claude -p PROMPT` in `cwd`, allowing `allowed` tools.
    pub(crate) fn claude(&self, cwd: &Path, prompt: &str, allowed: &[&str]) -> CliRun {
        let mut cmd = self.base(&clis().claude, cwd);
        cmd.args(["-p", prompt, "--model", "claude-sonnet-4-5", "--allowedTools"])
            .args(allowed)
            .env("ANTHROPIC_BASE_URL", self.server.root())
            .env("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_ERROR_REPORTING", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        run_cli(cmd, Duration::from_secs(180))
    }

    /// `codex exec PROMPT` in `cwd`, against the scripted server, hooks trusted by the bypass flag.
    fn codex(&self, cwd: &Path, prompt: &str) -> CliRun {
        self.codex_args(cwd, &[prompt])
    }

    /// `codex exec resume SESSION PROMPT` in `cwd`.
    fn codex_resume(&self, cwd: &Path, session: &str, prompt: &str) -> CliRun {
        self.codex_args(cwd, &["resume", session, prompt])
    }

    fn codex_args(&self, cwd: &Path, args: &[&str]) -> CliRun {
        let config = self.m.dir.path().join(".codex/config.toml");
        let text = format!(
            "model = \"scripted\"\nmodel_provider = \"local\"\napproval_policy = \"never\"\n\
             sandbox_mode = \"danger-full-access\"\n\n[model_providers.local]\nname = \"local\"\n\
             base_url = \"{}/v1\"\nwire_api = \"responses\"\n\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            self.server.root(),
            cwd.display()
        );
        std::fs::write(&config, format!("{text}\n{}", self.codex_config)).unwrap();
        let mut cmd = self.base(&clis().codex, cwd);
        cmd.args(["exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check"])
            .args(args)
            .env("OPENAI_API_KEY", "sk-test-not-a-real-key");
        run_cli(cmd, Duration::from_secs(180))
    }

    /// The stored timeline of one session, our own injection records left out.
    pub(crate) fn timeline(&self, key: &str) -> Vec<Value> {
        let timeline = self.m.run_json(&["timeline", key]);
        timeline
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["event"].clone())
            .filter(|e| e["kind"] != "Injection")
            .collect()
    }

    /// After a turn with the store unreachable: nothing is in the store and the events wait in the
    /// journal; then, with the store back, `sync` delivers them.
    pub(crate) fn assert_journaled_then_synced(&mut self) {
        assert_eq!(self.m.run_json(&["sessions"]), json!([]), "nothing reached the store yet");
        let journal = self.m.home().join("journal");
        assert!(std::fs::read_dir(&journal).is_ok_and(|mut d| d.next().is_some()), "events are journaled");
        self.env.clear();
        self.m.run(&["sync"]);
    }

    /// Asserts the store holds exactly the hooks `fired` for `harness`, in order, per session.
    pub(crate) fn assert_stored(&self, harness: &str, fired: &[Fired]) {
        let sessions: BTreeSet<&str> = fired.iter().map(|f| f.session.as_str()).collect();
        for session in sessions {
            let key = format!("{harness}:{session}");
            let stored: Vec<Fired> = self.timeline(&key).iter().map(|e| Fired::of(&e["raw"])).collect();
            let expected: Vec<Fired> = fired.iter().filter(|f| f.session == session).cloned().collect();
            assert_eq!(
                in_firing_order(harness, stored),
                in_firing_order(harness, expected),
                "{key}: the store must hold every fired hook, in order"
            );
        }
    }

    /// The model requests since the last call.
    pub(crate) fn model_requests(&self) -> Vec<Request> {
        self.server.take().into_iter().filter(Request::is_model_call).collect()
    }
}

/// `hooks` with the ones a harness starts together in one order: Copilot CLI starts its
/// `SessionStart` and first `UserPromptSubmit` handlers without waiting for each other, so which of
/// the two is recorded, and which is stored, first is a race; every later hook waits for the one
/// before it.
fn in_firing_order(harness: &str, mut hooks: Vec<Fired>) -> Vec<Fired> {
    if harness == "copilot" {
        let together = hooks
            .iter()
            .take_while(|f| ["SessionStart", "UserPromptSubmit"].contains(&f.event.as_str()))
            .count();
        hooks[..together].sort();
    }
    hooks
}

/// How often `needle` occurs across the texts of a request that `keep` selects.
pub(crate) fn count(request: &Request, needle: &str, keep: impl Fn(&str, &str) -> bool) -> usize {
    request
        .texts()
        .iter()
        .filter(|(role, text)| keep(role, text))
        .map(|(_, t)| t.matches(needle).count())
        .sum()
}

/// The last (fullest) request of a turn: the one with the final tool results.
fn last_with_tools(requests: &[Request]) -> &Request {
    requests
        .iter()
        .rev()
        .find(|r| r.body.get("tools").and_then(Value::as_array).is_some_and(|t| !t.is_empty()))
        .expect("a model request offering tools")
}

/// A note the user wrote by hand earlier, imported from a Markdown tree.
fn seed_cargo_note(desk: &Desk) {
    import_cargo_note(&desk.m);
}

/// Imports the cargo note of [`seed_cargo_note`] into a machine's store.
pub(crate) fn import_cargo_note(m: &Machine) {
    let note = Note {
        path: NotePath::new("tools/cargo/test-flags.md").unwrap(),
        meta: NoteMeta {
            title: "Cargo test flags".to_owned(),
            description: Some("How the user runs cargo tests".to_owned()),
            tags: vec!["cargo".to_owned()],
            scope: Scope::User,
            kind: NoteKind::Tool,
            sources: Vec::new(),
            updated: "2026-11-01T09:00:00Z".parse().unwrap(),
            generator: "human".to_owned(),
            owner: None,
        },
        body: "Pass `--test-threads=1` to cargo test when tests share one database.\n".to_owned(),
    };
    let tree = m.dir.path().join("tree");
    let file = tree.join("user/tools/cargo/test-flags.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, note.to_markdown()).unwrap();
    m.run(&["import", tree.to_str().unwrap()]);
}

pub(crate) const CARGO_NOTE: &str = "--test-threads=1";
pub(crate) const CONVENTION: &str = "never anyhow";

#[test]
fn memory_made_in_claude_code_reaches_codex_in_the_same_project_only() {
    let desk = Desk::new();
    let a = desk.m.project("acme-api");
    let b = desk.m.project("billing-web");
    seed_cargo_note(&desk);

    // Claude Code, project A: a preference, a convention, and tools that succeed, fail and are denied.
    desk.server.script_claude(vec![
        ("Bash", json!({ "command": "ls", "description": "List files" })),
        ("Bash", json!({ "command": "ls missing-dir", "description": "List a missing folder" })),
        ("Write", json!({ "file_path": a.join("NOTES.md"), "content": "checked\n" })),
        ("Bash", json!({ "command": "touch denied.txt", "description": "Create a file" })),
    ]);
    let run = desk.claude(
        &a,
        "I prefer small focused commits. In this project we use thiserror for library errors, never anyhow. \
         Run the cargo tests and write down what you find.",
        &["Bash(ls:*)", "Write"],
    );
    run.assert_completed("claude");
    assert_eq!(std::fs::read_to_string(a.join("NOTES.md")).unwrap(), "checked\n", "the write ran");
    assert!(!a.join("denied.txt").exists(), "the denied call did not run");

    let requests = desk.model_requests();
    let last = last_with_tools(&requests);
    let prompt_context =
        |role: &str, text: &str| role == "user" && text.contains("UserPromptSubmit hook additional context:");
    assert_eq!(count(last, CARGO_NOTE, prompt_context), 1, "the cargo note is injected on the prompt");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "and only once");

    let fired = desk.fired();
    let claude_session = fired[0].session.clone();
    desk.assert_stored("claude", &fired);
    let events = desk.timeline(&format!("claude:{claude_session}"));
    let kinds = |name: &str| events.iter().filter(|e| e["raw"]["hook_event_name"] == name).count();
    assert_eq!(kinds("PreToolUse"), 4, "every tool call, the denied one included");
    assert_eq!(kinds("PostToolUse"), 2, "ls and the write");
    assert_eq!(kinds("PostToolUseFailure"), 1, "the failing ls");
    let failure = events.iter().find(|e| e["raw"]["hook_event_name"] == "PostToolUseFailure").unwrap();
    assert!(failure["tool"]["error"].as_str().is_some_and(|e| !e.is_empty()), "{failure}");
    // The denied call fires no PostToolUse of any kind: its outcome is in the PostToolBatch.
    let denied = events
        .iter()
        .filter(|e| e["raw"]["hook_event_name"] == "PostToolBatch")
        .flat_map(|e| e["raw"]["tool_calls"].as_array().cloned().unwrap_or_default())
        .find(|call| call["tool_input"]["command"] == "touch denied.txt")
        .expect("the denied call's batch is stored");
    assert!(denied["tool_response"].to_string().len() > 2, "its outcome is kept: {denied}");
    assert!(kinds("MessageDisplay") >= 1, "the answer's text is recorded");

    // Claude Code's session end started the dream by itself, nobody typed `dream`; Codex in project
    // A is given the convention at session start.
    assert!(fired.iter().any(|f| f.session == claude_session && f.event == "SessionEnd"), "{fired:?}");
    let dreamed = dreamed_by_itself(&desk.m);
    assert!(dreamed["notes_created"].as_u64().unwrap() > 0, "{dreamed}");

    desk.server.script_codex(vec![
        ("exec_command", json!({ "cmd": "ls" })),
        ("exec_command", json!({ "cmd": "ls missing-dir" })),
        ("exec_command", json!({ "cmd": "printf 'checked\\n' > CODEX.md" })),
    ]);
    let run = desk.codex(&a, "Which errors crate do we use for library errors? Run the cargo tests first.");
    run.assert_completed("codex in project A");
    assert_eq!(std::fs::read_to_string(a.join("CODEX.md")).unwrap(), "checked\n");
    let requests = desk.model_requests();
    let last = last_with_tools(&requests);
    let texts = last.texts();
    let prompt_at =
        texts.iter().position(|(role, t)| role == "user" && t.contains("Which errors crate")).unwrap();
    let start_at = texts.iter().position(|(role, t)| role == "developer" && t.contains(CONVENTION));
    assert!(
        start_at.is_some_and(|i| i < prompt_at),
        "the convention from Claude Code is in a developer message before the prompt: {texts:#?}"
    );
    let note_at = texts.iter().position(|(role, t)| role == "developer" && t.contains(CARGO_NOTE));
    assert!(note_at.is_some_and(|i| i > prompt_at), "the prompt's note follows the prompt: {texts:#?}");
    assert_eq!(count(last, CONVENTION, |role, _| role == "developer"), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");
    assert!(
        crate::more_clis::offers_our_mcp_tools(&requests),
        "install registered our MCP server in Codex: {:#?}",
        last.body["tools"]
    );

    let fired = desk.fired();
    let codex_fired: Vec<Fired> = fired.iter().filter(|f| f.session != claude_session).cloned().collect();
    let codex_a = codex_fired[0].session.clone();
    desk.assert_stored("codex", &codex_fired);
    let events = desk.timeline(&format!("codex:{codex_a}"));
    let posts: Vec<&Value> = events.iter().filter(|e| e["raw"]["hook_event_name"] == "PostToolUse").collect();
    assert_eq!(posts.len(), 3, "{events:#?}");
    assert!(
        posts[1]["tool"]["output"].to_string().contains("No such file"),
        "the failure is kept: {}",
        posts[1]
    );

    // The next prompt of the same session (resumed): Codex replays the history and fires
    // SessionStart again, yet no note is injected a second time.
    let run = desk.codex_resume(&a, &codex_a, "Which errors crate again, and how do I run the cargo tests?");
    run.assert_completed("codex resumed in project A");
    let requests = desk.model_requests();
    let last = last_with_tools(&requests);
    assert!(last.texts().iter().any(|(_, t)| t.contains("Which errors crate again")), "the resumed turn");
    assert_eq!(count(last, CONVENTION, |role, _| role == "developer"), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");

    // Codex in project B: nothing of project A.
    desk.server.script_codex(vec![("exec_command", json!({ "cmd": "ls" }))]);
    desk.codex(&b, "Run the cargo tests.").assert_completed("codex in project B");
    for request in desk.model_requests() {
        assert_eq!(count(&request, CONVENTION, |_, _| true), 0, "project B never sees project A's notes");
        assert_eq!(count(&request, "thiserror", |_, _| true), 0, "project B never sees project A's notes");
    }

    // Every session in the store is one a CLI ran, each under its own project.
    let fired = desk.fired();
    desk.assert_stored(
        "codex",
        &fired.iter().filter(|f| f.session != claude_session).cloned().collect::<Vec<_>>(),
    );
    let ran: BTreeSet<String> = fired
        .iter()
        .map(|f| format!("{}:{}", if f.session == claude_session { "claude" } else { "codex" }, f.session))
        .collect();
    let sessions = desk.m.run_json(&["sessions"]);
    let stored: BTreeSet<String> =
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(stored, ran, "no session comes from anything but the CLIs' hooks");
    let project_of = |key: &str| {
        let projects: BTreeSet<String> =
            desk.timeline(key).iter().map(|e| e["project"].as_str().unwrap_or_default().to_owned()).collect();
        assert_eq!(projects.len(), 1, "{key}: one project per session: {projects:?}");
        projects.into_iter().next().unwrap()
    };
    let codex_b = ran.iter().find(|k| k.starts_with("codex:") && **k != format!("codex:{codex_a}")).unwrap();
    let project_a = project_of(&format!("claude:{claude_session}"));
    assert!(project_a.starts_with("acme-api"), "{project_a}");
    assert_eq!(project_of(&format!("codex:{codex_a}")), project_a);
    assert!(project_of(codex_b).starts_with("billing-web"));
}

#[test]
fn both_clis_finish_their_turns_with_the_store_unreachable_and_sync_delivers() {
    let mut desk = Desk::new();
    let a = desk.m.project("acme-api");
    // The database path's parent is a plain file: the store cannot be opened at all.
    let blocker = desk.m.dir.path().join("unmounted");
    std::fs::write(&blocker, "not a folder").unwrap();
    desk.env.push(("AGENT_MEMORY_DB".to_owned(), blocker.join("memory.db")));

    desk.server.script_claude(vec![("Bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.claude(&a, "List the files.", &["Bash"]).assert_completed("claude without a store");
    desk.server.script_codex(vec![("exec_command", json!({ "cmd": "ls" }))]);
    desk.codex(&a, "List the files.").assert_completed("codex without a store");

    let fired = desk.fired();
    let events: BTreeSet<&str> = fired.iter().map(|f| f.event.as_str()).collect();
    assert!(events.contains("PostToolUse") && events.contains("Stop"), "{fired:?}");
    desk.assert_journaled_then_synced();
    let claude_session = fired[0].session.clone();
    let (claude, codex): (Vec<Fired>, Vec<Fired>) =
        fired.into_iter().partition(|f| f.session == claude_session);
    desk.assert_stored("claude", &claude);
    desk.assert_stored("codex", &codex);
    assert_eq!(desk.m.run_json(&["sessions"]).as_array().unwrap().len(), 2);
}
