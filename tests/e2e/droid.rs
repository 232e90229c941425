//! The real Factory droid, pinned and installed from the npm registry by `scripts/harness-clis`,
//! with hooks wired by `agent-memory install` (user scope) beside Claude Code's, offline: the model
//! is a custom model of droid's settings (`customModels`, Anthropic format) whose `baseUrl` is the
//! scripted server of [`crate::model_server`]. No Factory login, no network beyond loopback.
//!
//! Droid runs one prompt per session through its session protocol (`droid exec --input-format
//! stream-jsonrpc`): that is how its TUI and SDK send prompts, and the only headless way that fires
//! UserPromptSubmit (`droid exec "<prompt>"` skips it). As in [`crate::real_clis`], every configured
//! event also runs a recorder handler, to compare what droid fired with what reached the store.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::model_server::Request;
use crate::real_clis::{
    CARGO_NOTE, CONVENTION, Desk, Fired, clis, count, dreamed_by_itself, import_cargo_note,
};

/// The events droid fires in one such session, in order, with one tool call that succeeds.
const DROID_EVENTS: &[&str] =
    &["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];

/// The custom model's name in droid's settings, and the id droid gives it.
const MODEL: &str = "Scripted";
const MODEL_ID: &str = "custom:Scripted-0";

/// Writes what a droid user with a model of their own has in `~/.factory/settings.json`: the custom
/// model on the scripted server, chosen by default. `install` merges its hooks into this file.
pub(crate) fn write_settings(desk: &Desk) {
    let settings = json!({
        "customModels": [{
            "model": "scripted",
            "displayName": MODEL,
            "baseUrl": desk.server.root(),
            "apiKey": "test-not-a-real-key",
            "provider": "anthropic",
            "maxOutputTokens": 4096,
        }],
        "sessionDefaultSettings": { "model": MODEL_ID },
    });
    let path = desk.m.dir.path().join(".factory/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
}

/// What one droid session did: the protocol lines it printed.
struct DroidRun {
    lines: Vec<Value>,
    code: Option<i32>,
}

impl DroidRun {
    #[track_caller]
    fn assert_completed(&self, what: &str) {
        assert_eq!(self.code, Some(0), "{what}: droid exited {:?}: {:#?}", self.code, self.lines);
        assert!(
            self.notifications("agent_turn_completed").iter().any(|n| n["reason"] == "completed"),
            "{what}: the turn completed: {:#?}",
            self.lines
        );
    }

    /// The session notifications of one type.
    fn notifications(&self, kind: &str) -> Vec<&Value> {
        self.lines
            .iter()
            .filter_map(|l| l.pointer("/params/notification"))
            .filter(|n| n["type"] == kind)
            .collect()
    }
}

/// One JSON-RPC request of droid's session protocol.
fn request(id: u64, method: &str, params: Value) -> String {
    let line = json!({
        "jsonrpc": "2.0", "type": "request", "factoryApiVersion": "1.0.0",
        "factoryProtocolVersion": "1.220.0", "id": id.to_string(), "method": method, "params": params,
    });
    format!("{line}\n")
}

/// Reads protocol lines until one matches `done`, keeping them all; `false` on a timeout or the end
/// of output.
fn read_until(
    lines: &Receiver<Value>,
    kept: &mut Vec<Value>,
    until: Instant,
    done: impl Fn(&Value) -> bool,
) -> bool {
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let found = done(&line);
                kept.push(line);
                if found {
                    return true;
                }
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return false,
        }
    }
}

impl Desk {
    /// One droid session in `cwd`: start it, send `prompt`, wait for the turn to complete, close
    /// the input (droid then ends the session) and wait for the exit.
    fn droid(&self, cwd: &Path, prompt: &str) -> DroidRun {
        let mut cmd = self.base(&clis().droid, cwd);
        cmd.args(["exec", "--input-format", "stream-jsonrpc", "-o", "stream-jsonrpc"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child: Child = cmd.spawn().expect("droid starts");
        let mut stdin: ChildStdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(value) = serde_json::from_str::<Value>(&line)
                    && send.send(value).is_err()
                {
                    break;
                }
            }
        });
        let until = Instant::now() + Duration::from_secs(180);
        let mut kept = Vec::new();
        let start = json!({
            "machineId": "e2e", "cwd": cwd.display().to_string(), "modelId": MODEL_ID, "autonomyLevel": "high",
        });
        stdin.write_all(request(1, "droid.initialize_session", start).as_bytes()).unwrap();
        let started = read_until(&lines, &mut kept, until, |l| l["type"] == "response" && l["id"] == "1");
        if started {
            stdin
                .write_all(request(2, "droid.add_user_message", json!({ "text": prompt })).as_bytes())
                .unwrap();
            read_until(&lines, &mut kept, until, |l| {
                l.pointer("/params/notification/type").is_some_and(|t| t == "agent_turn_completed")
            });
        }
        drop(stdin);
        let code = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status.code();
            }
            if Instant::now() > until {
                child.kill().unwrap();
                child.wait().unwrap();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        kept.extend(lines.try_iter());
        DroidRun { lines: kept, code }
    }

    /// The hooks fired since `seen` of them were, and the one session they belong to.
    fn droid_fired_since(&self, seen: usize) -> (String, Vec<Fired>) {
        let fired: Vec<Fired> = self.fired().into_iter().skip(seen).collect();
        let sessions: BTreeSet<&str> = fired.iter().map(|f| f.session.as_str()).collect();
        assert_eq!(sessions.len(), 1, "one run, one session: {fired:#?}");
        (fired[0].session.clone(), fired)
    }
}

/// The events of a run by name, in order.
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

/// The stored events of a session whose raw payload names `event`.
fn stored<'a>(events: &'a [Value], event: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["raw"]["hook_event_name"] == event).collect()
}

fn model_calls(requests: Vec<Request>) -> Vec<Request> {
    requests.into_iter().filter(Request::is_model_call).collect()
}

#[test]
fn memory_made_in_claude_code_reaches_droid_in_the_same_project_only() {
    let desk = Desk::with(&["claude", "droid"]);
    let a = desk.m.project("acme-api");
    let b = desk.m.project("billing-web");
    import_cargo_note(&desk.m);

    desk.server.script_claude(vec![("Bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.claude(
        &a,
        "I prefer small focused commits. In this project we use thiserror for library errors, never anyhow. \
         Run the cargo tests and write down what you find.",
        &["Bash(ls:*)"],
    )
    .assert_completed("claude");
    let (claude_session, fired) = desk.droid_fired_since(0);
    desk.assert_stored("claude", &fired);
    let mut seen = fired.len();
    let dreamed = dreamed_by_itself(&desk.m);
    assert!(dreamed["notes_created"].as_u64().unwrap() > 0, "{dreamed}");
    desk.server.take();

    // Droid, project A: one shell command.
    let ls = json!({ "summary": "List the project files", "command": "ls", "riskLevel": "low",
                     "riskLevelReason": "Lists files" });
    desk.server.script_claude(vec![("Execute", ls.clone())]);
    let run = desk.droid(&a, "Which errors crate do we use for library errors? Run the cargo tests first.");
    run.assert_completed("droid in project A");
    let calls = model_calls(desk.server.take());
    let last = calls.last().expect("droid called the model");
    let texts = last.texts();
    let prompt_at =
        texts.iter().position(|(role, t)| role == "user" && t.contains("Which errors crate")).unwrap();
    let convention_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CONVENTION));
    assert!(
        convention_at.is_some_and(|i| i < prompt_at),
        "the convention from Claude Code reaches droid's model before the prompt: {texts:#?}"
    );
    let note_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CARGO_NOTE));
    assert!(note_at.is_some_and(|i| i < prompt_at), "the prompt's note reaches the model: {texts:#?}");
    assert_eq!(count(last, CONVENTION, |_, _| true), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");
    let mcp = run.notifications("mcp_status_changed");
    let connected = mcp.iter().flat_map(|n| n["servers"].as_array().into_iter().flatten()).any(|server| {
        server["name"] == "agent-memory" && server["source"] == "user" && server["status"] == "connected"
    });
    assert!(connected, "install registered our MCP server in droid and droid connected to it: {mcp:#?}");

    let (droid_a, fired) = desk.droid_fired_since(seen);
    seen += fired.len();
    assert_eq!(names(&fired), DROID_EVENTS, "droid fired every installed event of the session, in order");
    desk.assert_stored("droid", &fired);
    let events = desk.timeline(&format!("droid:{droid_a}"));
    let prompt = &stored(&events, "UserPromptSubmit")[0];
    assert!(prompt["prompt"].as_str().unwrap().starts_with("Which errors crate"), "{prompt}");
    let ok = stored(&events, "PostToolUse");
    assert_eq!(ok[0]["tool"]["shell"], json!({ "command": "ls", "exit_code": 0 }), "{events:#?}");
    assert_eq!(ok[0]["tool"]["failed"], json!(false));
    assert_eq!(stored(&events, "Stop")[0]["kind"], "Stop");

    // Project B: nothing of project A.
    desk.server.script_claude(vec![("Execute", ls)]);
    desk.droid(&b, "Run the cargo tests.").assert_completed("droid in project B");
    let (droid_b, fired) = desk.droid_fired_since(seen);
    desk.assert_stored("droid", &fired);
    let calls = model_calls(desk.server.take());
    assert!(!calls.is_empty());
    for request in calls {
        assert_eq!(count(&request, CONVENTION, |_, _| true), 0, "project B never sees project A's notes");
        assert_eq!(count(&request, "thiserror", |_, _| true), 0, "project B never sees project A's notes");
    }

    // Droid sets CLAUDE_PROJECT_DIR for its hooks, yet every session is filed under the harness
    // that ran it.
    let ran: BTreeSet<String> =
        [format!("claude:{claude_session}"), format!("droid:{droid_a}"), format!("droid:{droid_b}")].into();
    let sessions = desk.m.run_json(&["sessions"]);
    let keys: BTreeSet<String> =
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(keys, ran, "no session comes from anything but the CLIs' hooks");
    let project_a = project_of(&desk, &format!("claude:{claude_session}"));
    assert_eq!(project_of(&desk, &format!("droid:{droid_a}")), project_a);
    assert!(project_of(&desk, &format!("droid:{droid_b}")).starts_with("billing-web"));
}

#[test]
fn droid_finishes_its_turn_with_the_store_unreachable_and_sync_delivers() {
    let mut desk = Desk::with(&["droid"]);
    let a = desk.m.project("acme-api");
    let blocker = desk.m.dir.path().join("unmounted");
    std::fs::write(&blocker, "not a folder").unwrap();
    desk.env.push(("AGENT_MEMORY_DB".to_owned(), blocker.join("memory.db")));

    desk.server.script_claude(vec![(
        "Execute",
        json!({ "summary": "List the project files", "command": "ls", "riskLevel": "low", "riskLevelReason": "Lists files" }),
    )]);
    desk.droid(&a, "List the files.").assert_completed("droid without a store");
    let (_, fired) = desk.droid_fired_since(0);
    assert_eq!(names(&fired), DROID_EVENTS);
    desk.assert_journaled_then_synced();
    desk.assert_stored("droid", &fired);
    assert_eq!(desk.m.run_json(&["sessions"]).as_array().unwrap().len(), 1);
}

/// `install --scope project` writes the project's `.factory/settings.json` and droid runs it with no
/// trust step; the block the adapter renders for a tool call stops the call, and the reason
/// reaches the model.
#[test]
fn droid_runs_project_hooks_and_honours_a_rendered_block() {
    use memory_core::{EventKind, HarnessAdapter, HookResponse};

    const REASON: &str = "agent-memory: this command is not allowed here";
    let desk = Desk::with(&[]);
    write_settings(&desk);
    let a = desk.m.project("acme-api");
    let project = a.to_str().unwrap();
    desk.m.run(&["install", "--harness", "droid", "--scope", "project", "--project", project, "--no-mcp"]);
    let path = a.join(".factory/settings.json");
    let rendered = adapter_droid::DroidAdapter.render(&EventKind::PreToolUse, &HookResponse::block(REASON));
    assert_eq!(rendered.exit_code, 0);
    let answer = desk.m.dir.path().join("droid-block.json");
    std::fs::write(&answer, &rendered.stdout).unwrap();
    let mut settings: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let blocker = json!({ "matcher": "*", "hooks": [{ "type": "command", "command": format!("cat '{}'", answer.display()) }] });
    settings["hooks"]["PreToolUse"].as_array_mut().unwrap().push(blocker);
    std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();

    let touch = json!({ "summary": "Create the marker file", "command": "touch droid-ran.txt", "riskLevel": "low",
                        "riskLevelReason": "Creates a file" });
    desk.server.script_claude(vec![("Execute", touch)]);
    desk.droid(&a, "Create the file.").assert_completed("droid with project hooks and a blocked call");
    assert!(!a.join("droid-ran.txt").exists(), "droid did not run the blocked command");
    let calls = model_calls(desk.server.take());
    assert!(
        calls.iter().any(|r| r.body.to_string().contains(REASON)),
        "the reason reached droid's model: {:#?}",
        calls.last().unwrap().body
    );

    let sessions = desk.m.run_json(&["sessions"]);
    let keys: Vec<&str> = sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap()).collect();
    assert!(keys.len() == 1 && keys[0].starts_with("droid:"), "{keys:?}");
    let kinds: Vec<String> =
        desk.timeline(keys[0]).iter().map(|e| e["kind"].as_str().unwrap().to_owned()).collect();
    assert_eq!(
        kinds,
        ["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd"],
        "a blocked call fires no PostToolUse"
    );
}
