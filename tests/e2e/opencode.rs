//! The real OpenCode, pinned and installed from the npm registry by `scripts/harness-clis`, with our
//! plugin written by `agent-memory install --harness opencode`, and the model replaced by the
//! scripted server of [`crate::model_server`]: an `@ai-sdk/openai-compatible` provider in
//! `opencode.json` whose `baseURL` is the server's Chat Completions. No login, no network beyond
//! loopback.
//!
//! Beside our plugin, a recorder plugin notes each OpenCode hook and bus event ours forwards, under
//! the same name, in the file the other CLIs' recorders write: what OpenCode really fired, to
//! compare with what reached the store.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::model_server::Request;
use crate::real_clis::{
    CARGO_NOTE, CONVENTION, CliRun, Desk, Fired, clis, count, dreamed_by_itself, import_cargo_note, run_cli,
};
use crate::support::Machine;

/// The events of one `opencode run` turn with tool calls, as the plugin names them.
const EVENTS: &[&str] =
    &["session.created", "chat.message", "tool.execute.before", "tool.execute.after", "session.idle"];

/// Writes the recorder plugin into the user's OpenCode plugin folder.
pub(crate) fn add_recorder(m: &Machine, fired: &Path) {
    let source = r#"import { appendFileSync } from "node:fs"
const FIRED = @FIRED@
const note = (name, sessionID) =>
  appendFileSync(FIRED, JSON.stringify({ hook_event_name: name, session_id: sessionID }) + "\n")
const BUS = ["session.idle", "session.error", "session.compacted", "session.deleted"]
export const Recorder = async () => ({
  event: async ({ event }) => {
    const p = event?.properties ?? {}
    if (event.type === "session.created" || BUS.includes(event.type)) note(event.type, p.sessionID ?? p.info?.id)
    else if (event.type === "message.part.updated" && p.part?.type === "tool" && p.part.state?.status === "error")
      note("tool.failed", p.part.sessionID)
  },
  "chat.message": async (input) => note("chat.message", input.sessionID),
  "tool.execute.before": async (input) => note("tool.execute.before", input.sessionID),
  "tool.execute.after": async (input) => note("tool.execute.after", input.sessionID),
})
"#
    .replace("@FIRED@", &Value::String(fired.display().to_string()).to_string());
    let path = m.dir.path().join(".config/opencode/plugins/recorder.js");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, source).unwrap();
}

impl Desk {
    /// `opencode run --auto PROMPT` in `cwd`, its model the scripted server's Chat Completions (set
    /// in the user's `opencode.json`, beside what `install` wrote there).
    fn opencode(&self, cwd: &Path, prompt: &str) -> CliRun {
        let path = self.m.dir.path().join(".config/opencode/opencode.json");
        let mut config: Value = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_else(|| json!({}));
        config["provider"] = json!({ "local": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Local",
            "options": { "baseURL": format!("{}/v1", self.server.root()), "apiKey": "test-not-a-real-key" },
            "models": { "scripted": { "name": "scripted", "tool_call": true } },
        } });
        config["model"] = json!("local/scripted");
        config["autoupdate"] = json!(false);
        config["share"] = json!("disabled");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_vec_pretty(&config).unwrap()).unwrap();
        let mut cmd = self.base(&clis().opencode, cwd);
        // One word an argument: `opencode run` quotes an argument holding spaces.
        cmd.args(["run", "--auto"])
            .args(prompt.split_whitespace())
            .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
            .env("OPENCODE_DISABLE_MODELS_FETCH", "1");
        run_cli(cmd, Duration::from_secs(180))
    }

    /// The hooks fired since `seen` of them were, and the one session they belong to.
    fn opencode_fired_since(&self, seen: usize) -> (String, Vec<Fired>) {
        let fired: Vec<Fired> = self.fired().into_iter().skip(seen).collect();
        let sessions: BTreeSet<&str> = fired.iter().map(|f| f.session.as_str()).collect();
        assert_eq!(sessions.len(), 1, "one run, one session: {fired:#?}");
        (fired[0].session.clone(), fired)
    }

    /// [`Desk::assert_stored`], once the hooks the plugin left running are done (the end of the
    /// turn is recorded while `opencode run` exits).
    fn assert_opencode_stored(&self, fired: &[Fired]) {
        let key = format!("opencode:{}", fired[0].session);
        let until = std::time::Instant::now() + Duration::from_secs(15);
        while self.timeline(&key).len() < fired.len() && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(200));
        }
        self.assert_stored("opencode", fired);
    }
}

fn model_calls(requests: Vec<Request>) -> Vec<Request> {
    requests.into_iter().filter(Request::is_model_call).collect()
}

/// The events of a run by name, in order.
fn names(fired: &[Fired]) -> Vec<&str> {
    fired.iter().map(|f| f.event.as_str()).collect()
}

/// The one project every event of a stored session is filed under.
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

#[test]
fn memory_made_in_claude_code_reaches_opencode_in_the_same_project_only() {
    let desk = Desk::with(&["claude", "opencode"]);
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
    let claude_fired: Vec<Fired> = desk.fired();
    let claude_session = claude_fired[0].session.clone();
    desk.assert_stored("claude", &claude_fired);
    let mut seen = claude_fired.len();
    let dreamed = dreamed_by_itself(&desk.m);
    assert!(dreamed["notes_created"].as_u64().unwrap() > 0, "{dreamed}");
    desk.server.take();

    // OpenCode, project A: a command that succeeds and one that fails.
    desk.server.script_chat(vec![
        ("bash", json!({ "command": "ls", "description": "List files" })),
        ("bash", json!({ "command": "ls missing-dir", "description": "List a missing folder" })),
    ]);
    desk.opencode(&a, "Which errors crate do we use for library errors? Run the cargo tests first.")
        .assert_completed("opencode in project A");
    let calls = model_calls(desk.server.take());
    let last = calls
        .iter()
        .rev()
        .find(|r| r.body.get("tools").is_some())
        .expect("OpenCode called the model with its tools");
    let texts = last.texts();
    let prompt_at =
        texts.iter().position(|(role, t)| role == "user" && t.starts_with("Which errors crate")).unwrap();
    let start_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CONVENTION));
    assert!(
        start_at.is_some_and(|i| i < prompt_at),
        "the convention from Claude Code opens the first prompt, from our session start: {texts:#?}"
    );
    let note_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CARGO_NOTE));
    assert!(note_at.is_some_and(|i| i > prompt_at), "the prompt's note follows the prompt: {texts:#?}");
    assert_eq!(count(last, CONVENTION, |_, _| true), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");
    assert!(
        crate::more_clis::offers_our_mcp_tools(&calls),
        "install registered our MCP server in OpenCode's opencode.json"
    );

    let (opencode_a, fired) = desk.opencode_fired_since(seen);
    seen += fired.len();
    let order = names(&fired);
    assert_eq!(&order[..2], &EVENTS[..2], "{order:?}");
    assert_eq!(order.last(), Some(&"session.idle"), "{order:?}");
    assert_eq!(order.iter().filter(|e| **e == "tool.execute.after").count(), 2, "{order:?}");
    desk.assert_opencode_stored(&fired);
    let key = format!("opencode:{opencode_a}");
    let events = desk.timeline(&key);
    let prompt = &stored(&events, "chat.message")[0];
    assert_eq!(prompt["kind"], "UserPromptSubmit");
    assert!(prompt["prompt"].as_str().unwrap().starts_with("Which errors crate"), "{prompt}");
    assert_eq!(prompt["model"], "local/scripted");
    let tools = stored(&events, "tool.execute.after");
    assert_eq!((&tools[0]["kind"], &tools[0]["tool"]["failed"]), (&json!("PostToolUse"), &json!(false)));
    assert_eq!(tools[1]["kind"], "PostToolUseFailure", "{}", tools[1]);
    assert_eq!(tools[1]["tool"]["shell"]["command"], "ls missing-dir");
    assert_eq!(tools[1]["tool"]["shell"]["exit_code"], 2);
    assert_eq!(stored(&events, "session.idle")[0]["kind"], "Stop");
    assert_eq!(stored(&events, "session.created")[0]["cwd"], a.to_str().unwrap());

    // Project B: nothing of project A.
    desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.opencode(&b, "Run the cargo tests.").assert_completed("opencode in project B");
    let (opencode_b, fired) = desk.opencode_fired_since(seen);
    desk.assert_opencode_stored(&fired);
    let calls = model_calls(desk.server.take());
    assert!(!calls.is_empty());
    for request in calls {
        assert_eq!(count(&request, CONVENTION, |_, _| true), 0, "project B never sees project A's notes");
        assert_eq!(count(&request, "thiserror", |_, _| true), 0, "project B never sees project A's notes");
    }

    let ran: BTreeSet<String> =
        [format!("claude:{claude_session}"), key.clone(), format!("opencode:{opencode_b}")].into();
    let sessions = desk.m.run_json(&["sessions"]);
    let keys: BTreeSet<String> =
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(keys, ran, "no session comes from anything but the CLIs' hooks");
    let project_a = project_of(&desk, &format!("claude:{claude_session}"));
    assert_eq!(project_of(&desk, &key), project_a);
    assert!(project_of(&desk, &format!("opencode:{opencode_b}")).starts_with("billing-web"));
}

#[test]
fn opencode_finishes_its_turn_with_the_store_unreachable_and_sync_delivers() {
    let mut desk = Desk::with(&["opencode"]);
    let a = desk.m.project("acme-api");
    let blocker = desk.m.dir.path().join("unmounted");
    std::fs::write(&blocker, "not a folder").unwrap();
    desk.env.push(("AGENT_MEMORY_DB".to_owned(), blocker.join("memory.db")));

    desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.opencode(&a, "List the files.").assert_completed("opencode without a store");
    let (_, fired) = desk.opencode_fired_since(0);
    assert_eq!(names(&fired), EVENTS, "every event fired");
    // The end of the turn is recorded by a hook left running as OpenCode exits.
    std::thread::sleep(Duration::from_secs(2));
    desk.assert_journaled_then_synced();
    desk.assert_stored("opencode", &fired);
    assert_eq!(desk.m.run_json(&["sessions"]).as_array().unwrap().len(), 1);
}

/// `install --scope project` writes the project's `.opencode/plugins/agent-memory.js` and OpenCode
/// loads it; with a hook that answers every event with the block the adapter renders, the call does
/// not run and the reason reaches the model; `uninstall` takes the plugin out.
#[test]
fn opencode_runs_the_project_plugin_and_honours_a_rendered_block() {
    use memory_core::{EventKind, HarnessAdapter, HookResponse};

    const REASON: &str = "agent-memory: this command is not allowed here";
    let desk = Desk::with(&[]);
    let a = desk.m.project("acme-api");
    let project = a.to_str().unwrap();
    desk.m.run(&["install", "--harness", "opencode", "--scope", "project", "--project", project, "--no-mcp"]);
    let plugin = a.join(".opencode/plugins/agent-memory.js");
    assert!(plugin.exists());

    desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.opencode(&a, "List the files.").assert_completed("opencode with the project plugin");
    let sessions = desk.m.run_json(&["sessions"]);
    let keys: Vec<&str> = sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap()).collect();
    assert!(keys.len() == 1 && keys[0].starts_with("opencode:"), "{keys:?}");
    let kinds: Vec<String> =
        desk.timeline(keys[0]).iter().map(|e| e["kind"].as_str().unwrap().to_owned()).collect();
    for kind in ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }

    let rendered =
        adapter_opencode::OpenCodeAdapter.render(&EventKind::PreToolUse, &HookResponse::block(REASON));
    let answer = desk.m.dir.path().join("opencode-block.json");
    std::fs::write(&answer, &rendered.stdout).unwrap();
    let blocker = desk.m.dir.path().join("blocker.sh");
    std::fs::write(&blocker, format!("#!/bin/sh\ncat >/dev/null\ncat '{}'\n", answer.display())).unwrap();
    let mut perms = std::fs::metadata(&blocker).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&blocker, perms).unwrap();
    let binary = blocker.to_str().unwrap();
    desk.m.run(&[
        "install",
        "--harness",
        "opencode",
        "--scope",
        "project",
        "--project",
        project,
        "--no-mcp",
        "--binary",
        binary,
    ]);
    desk.server.take();
    desk.server
        .script_chat(vec![("bash", json!({ "command": "touch opencode-ran.txt", "description": "Create" }))]);
    desk.opencode(&a, "Create the file.").assert_completed("opencode with a blocked call");
    assert!(!a.join("opencode-ran.txt").exists(), "OpenCode did not run the blocked command");
    let calls = model_calls(desk.server.take());
    assert!(
        calls.iter().any(|r| r.body.to_string().contains(REASON)),
        "the reason reached OpenCode's model: {:#?}",
        calls.last().unwrap().body
    );

    desk.m.run(&["uninstall", "--harness", "opencode", "--scope", "project", "--project", project]);
    assert!(!plugin.exists(), "uninstall removes the plugin");
}

/// The plugin fails open: a hook that prints what is not JSON, one that answers a prompt too late
/// (the plugin gives up after 10 seconds) and a binary that is gone all leave the turn to finish
/// as it would without agent-memory.
#[test]
fn opencode_finishes_its_turn_whatever_the_hook_does() {
    let desk = Desk::with(&[]);
    let a = desk.m.project("acme-api");
    let mode = desk.m.dir.path().join("mode");
    let hook = desk.m.dir.path().join("bad-hook.sh");
    let script = format!(
        "#!/bin/sh\npayload=$(cat)\ncase \"$(cat '{mode}')\" in\n  garbage) echo 'not json {{' ;;\n  \
         slow) case \"$payload\" in *'\"chat.message\"'*) sleep 30 ;; esac ;;\nesac\n",
        mode = mode.display()
    );
    std::fs::write(&hook, script).unwrap();
    let mut perms = std::fs::metadata(&hook).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&hook, perms).unwrap();
    let project = a.to_str().unwrap();
    let binary = hook.to_str().unwrap();
    desk.m.run(&[
        "install",
        "--harness",
        "opencode",
        "--scope",
        "project",
        "--project",
        project,
        "--no-mcp",
        "--binary",
        binary,
    ]);

    for case in ["garbage", "slow", "missing"] {
        std::fs::write(&mode, case).unwrap();
        if case == "missing" {
            std::fs::remove_file(&hook).unwrap();
        }
        desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
        let started = std::time::Instant::now();
        desk.opencode(&a, "List the files.").assert_completed(&format!("opencode with a {case} hook"));
        if case == "slow" {
            let took = started.elapsed();
            assert!(took < Duration::from_secs(30), "the plugin gave up on the hook: {took:?}");
        }
        let calls = model_calls(desk.server.take());
        assert!(calls.iter().any(|r| r.body.to_string().contains("tool_call")), "the tool call ran: {case}");
    }
}
