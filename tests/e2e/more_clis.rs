//! The real Gemini CLI, GitHub Copilot CLI and Qwen Code, pinned and installed from the npm registry
//! by `scripts/harness-clis`, with hooks wired by `agent-memory install` (user scope) beside Claude
//! Code's, and the model replaced by the scripted server of [`crate::model_server`]: Gemini's REST
//! format on `GOOGLE_GEMINI_BASE_URL` (API-key auth, a dummy key), for Copilot its offline mode
//! (`COPILOT_OFFLINE=true`) with an OpenAI-compatible provider on `COPILOT_PROVIDER_BASE_URL`, and
//! for Qwen Code Chat Completions on `OPENAI_BASE_URL` (a dummy `OPENAI_API_KEY`). No login, no
//! network beyond loopback.
//!
//! As in [`crate::real_clis`], every configured event also runs a recorder handler that appends the
//! raw payload to a file: what each CLI really fired, to compare with what reached the store.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::model_server::Request;
use crate::real_clis::{
    CARGO_NOTE, CONVENTION, CliRun, Desk, Fired, clis, count, dreamed_by_itself, import_cargo_note, run_cli,
};

/// The events `install` registers for each CLI, as it names them.
const GEMINI_EVENTS: &[&str] =
    &["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"];
const COPILOT_EVENTS: &[&str] =
    &["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];
/// Qwen Code fires no SessionEnd in `-p` mode.
const QWEN_EVENTS: &[&str] = &["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];

impl Desk {
    /// `gemini -p PROMPT --yolo -o json` in `cwd`, against the scripted server.
    fn gemini(&self, cwd: &Path, prompt: &str) -> CliRun {
        let mut cmd = self.base(&clis().gemini, cwd);
        cmd.args(["-p", prompt, "--yolo", "-o", "json"])
            .env("GEMINI_API_KEY", "test-not-a-real-key")
            .env("GOOGLE_GEMINI_BASE_URL", self.server.root());
        run_cli(cmd, Duration::from_secs(180))
    }

    /// `copilot -p PROMPT --allow-all-tools` in `cwd`, offline, against the scripted server.
    fn copilot(&self, cwd: &Path, prompt: &str) -> CliRun {
        let mut cmd = self.base(&clis().copilot, cwd);
        cmd.args(["-p", prompt, "--allow-all-tools", "--no-auto-update"])
            .env("COPILOT_OFFLINE", "true")
            .env("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", self.server.root()))
            .env("COPILOT_PROVIDER_TYPE", "openai")
            .env("COPILOT_PROVIDER_API_KEY", "test-not-a-real-key")
            .env("COPILOT_MODEL", "scripted")
            .env("COPILOT_AUTO_UPDATE", "false");
        run_cli(cmd, Duration::from_secs(180))
    }

    /// `qwen -p PROMPT --yolo -o json` in `cwd`, against the scripted server's Chat Completions.
    fn qwen(&self, cwd: &Path, prompt: &str) -> CliRun {
        let mut cmd = self.base(&clis().qwen, cwd);
        cmd.args(["-p", prompt, "--yolo", "-o", "json"])
            .env("OPENAI_BASE_URL", format!("{}/v1", self.server.root()))
            .env("OPENAI_API_KEY", "test-not-a-real-key")
            .env("OPENAI_MODEL", "scripted")
            .env("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1");
        run_cli(cmd, Duration::from_secs(180))
    }

    /// The hooks fired since `seen` of them were, and the one session they belong to.
    fn fired_since(&self, seen: usize) -> (String, Vec<Fired>) {
        let fired: Vec<Fired> = self.fired().into_iter().skip(seen).collect();
        let sessions: BTreeSet<&str> = fired.iter().map(|f| f.session.as_str()).collect();
        assert_eq!(sessions.len(), 1, "one run, one session: {fired:#?}");
        (fired[0].session.clone(), fired)
    }

    /// [`Desk::assert_stored`], once the hooks still running after the CLI exited are done
    /// (Gemini CLI does not wait for its SessionEnd hooks).
    fn assert_stored_soon(&self, harness: &str, fired: &[Fired]) {
        let key = format!("{harness}:{}", fired[0].session);
        let until = Instant::now() + Duration::from_secs(15);
        while self.timeline(&key).len() < fired.len() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(200));
        }
        self.assert_stored(harness, fired);
    }
}

/// The requests a CLI made to the model proper (not Gemini's routing classifier).
fn model_calls(requests: Vec<Request>) -> Vec<Request> {
    requests.into_iter().filter(Request::is_model_call).collect()
}

/// Whether the CLI offered the model the tools of our MCP server (`agent-memory mcp`), which it
/// started from the configuration `install` wrote.
pub(crate) fn offers_our_mcp_tools(requests: &[Request]) -> bool {
    requests.iter().any(|r| {
        r.body.get("tools").is_some_and(|tools| {
            let tools = tools.to_string();
            tools.contains("search_notes") && tools.contains("explain_note")
        })
    })
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

#[test]
fn memory_made_in_claude_code_reaches_gemini_and_copilot_in_the_same_project_only() {
    let desk = Desk::with(&["claude", "gemini", "copilot"]);
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
    let (claude_session, fired) = desk.fired_since(0);
    desk.assert_stored("claude", &fired);
    let mut seen = fired.len();
    let dreamed = dreamed_by_itself(&desk.m);
    assert!(dreamed["notes_created"].as_u64().unwrap() > 0, "{dreamed}");
    assert!(offers_our_mcp_tools(&desk.model_requests()), "install registered our MCP server in Claude Code");

    // Gemini CLI, project A: a command that succeeds and one that fails.
    desk.server.script_gemini(vec![
        ("run_shell_command", json!({ "command": "ls", "description": "List files" })),
        ("run_shell_command", json!({ "command": "ls missing-dir", "description": "List a missing folder" })),
    ]);
    desk.gemini(&a, "Which errors crate do we use for library errors? Run the cargo tests first.")
        .assert_completed("gemini in project A");
    let calls = model_calls(desk.server.take());
    let last = calls.last().expect("Gemini called the model");
    let texts = last.texts();
    // The prompt itself, the last message with its words (a start block before it may quote an
    // earlier session's prompt where that session left off).
    let prompt_at =
        texts.iter().rposition(|(role, t)| role == "user" && t.contains("Which errors crate")).unwrap();
    assert!(
        texts[prompt_at].1.starts_with("<hook_context>") && texts[prompt_at].1.contains(CONVENTION),
        "the convention from Claude Code opens the first user turn, from our SessionStart answer: {texts:#?}"
    );
    let note_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CARGO_NOTE));
    assert!(note_at.is_some_and(|i| i > prompt_at), "the prompt's note follows the prompt: {texts:#?}");
    assert_eq!(count(last, CONVENTION, |_, _| true), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");
    assert!(offers_our_mcp_tools(&calls), "install registered our MCP server in Gemini CLI");

    let (gemini_a, fired) = desk.fired_since(seen);
    seen += fired.len();
    let order = names(&fired);
    for event in GEMINI_EVENTS {
        assert!(order.contains(event), "Gemini fired {event}: {order:?}");
    }
    assert_eq!(order.iter().filter(|e| **e == "AfterTool").count(), 2, "{order:?}");
    desk.assert_stored_soon("gemini", &fired);
    let events = desk.timeline(&format!("gemini:{gemini_a}"));
    let prompt = &stored(&events, "BeforeAgent")[0];
    assert_eq!(prompt["kind"], "UserPromptSubmit");
    assert!(
        prompt["prompt"].as_str().unwrap().starts_with("Which errors crate"),
        "the user's own words: {prompt}"
    );
    assert!(prompt["raw"]["prompt"].as_str().unwrap().contains(CONVENTION), "raw keeps what Gemini sent");
    let tools = stored(&events, "AfterTool");
    assert_eq!(tools[0]["kind"], "PostToolUse", "{}", tools[0]);
    assert_eq!(tools[1]["kind"], "PostToolUseFailure", "{}", tools[1]);
    assert_eq!(tools[1]["tool"]["shell"]["command"], "ls missing-dir");
    assert_eq!(tools[1]["tool"]["failed"], true);
    let answer = stored(&events, "AfterAgent");
    assert_eq!(answer[0]["kind"], "Stop");

    // Copilot CLI, project A: the same.
    desk.server.script_chat(vec![
        ("bash", json!({ "command": "ls", "description": "List files" })),
        ("bash", json!({ "command": "ls missing-dir", "description": "List a missing folder" })),
    ]);
    desk.copilot(&a, "Which errors crate do we use for library errors? Run the cargo tests first.")
        .assert_completed("copilot in project A");
    let calls = model_calls(desk.server.take());
    let last = calls.last().expect("Copilot called the model");
    let texts = last.texts();
    // The prompt itself, the last message with its words (a start block before it may quote an
    // earlier session's prompt where that session left off).
    let prompt_at =
        texts.iter().rposition(|(role, t)| role == "user" && t.contains("Which errors crate")).unwrap();
    let start_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CONVENTION));
    assert!(
        start_at.is_some_and(|i| i < prompt_at),
        "the convention from Claude Code is a user message before the prompt: {texts:#?}"
    );
    assert!(
        texts[prompt_at].1.contains("<system_reminder>") && texts[prompt_at].1.contains(CARGO_NOTE),
        "the prompt's note is appended to the prompt: {texts:#?}"
    );
    assert_eq!(count(last, CONVENTION, |_, _| true), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");
    assert!(offers_our_mcp_tools(&calls), "install registered our MCP server in Copilot CLI");

    let (copilot_a, fired) = desk.fired_since(seen);
    seen += fired.len();
    let order = names(&fired);
    for event in COPILOT_EVENTS {
        assert!(order.contains(event), "Copilot fired {event}: {order:?}");
    }
    desk.assert_stored_soon("copilot", &fired);
    let events = desk.timeline(&format!("copilot:{copilot_a}"));
    let tools: Vec<&Value> = events
        .iter()
        .filter(|e| {
            ["PostToolUse", "PostToolUseFailure"].contains(&e["raw"]["hook_event_name"].as_str().unwrap())
        })
        .collect();
    assert_eq!(tools.len(), 2, "{events:#?}");
    assert_eq!(tools[0]["kind"], "PostToolUse", "{}", tools[0]);
    assert_eq!(tools[1]["kind"], "PostToolUseFailure", "{}", tools[1]);
    assert_eq!(tools[1]["tool"]["shell"]["command"], "ls missing-dir");

    // Project B: nothing of project A, in either CLI.
    desk.server.script_gemini(vec![("run_shell_command", json!({ "command": "ls" }))]);
    desk.gemini(&b, "Run the cargo tests.").assert_completed("gemini in project B");
    let (gemini_b, fired) = desk.fired_since(seen);
    seen += fired.len();
    desk.assert_stored_soon("gemini", &fired);
    desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.copilot(&b, "Run the cargo tests.").assert_completed("copilot in project B");
    let (copilot_b, fired) = desk.fired_since(seen);
    desk.assert_stored_soon("copilot", &fired);
    for request in model_calls(desk.server.take()) {
        assert_eq!(count(&request, CONVENTION, |_, _| true), 0, "project B never sees project A's notes");
        assert_eq!(count(&request, "thiserror", |_, _| true), 0, "project B never sees project A's notes");
    }

    // Every session in the store is one a CLI ran, under its own harness and project: Gemini and
    // Copilot set CLAUDE_PROJECT_DIR for their hooks, yet nothing is recorded as Claude Code's.
    let ran: BTreeSet<String> = [
        format!("claude:{claude_session}"),
        format!("gemini:{gemini_a}"),
        format!("copilot:{copilot_a}"),
        format!("gemini:{gemini_b}"),
        format!("copilot:{copilot_b}"),
    ]
    .into();
    let sessions = desk.m.run_json(&["sessions"]);
    let keys: BTreeSet<String> =
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(keys, ran, "no session comes from anything but the CLIs' hooks");
    let project_a = project_of(&desk, &format!("claude:{claude_session}"));
    assert!(project_a.starts_with("acme-api"), "{project_a}");
    assert_eq!(project_of(&desk, &format!("gemini:{gemini_a}")), project_a);
    assert_eq!(project_of(&desk, &format!("copilot:{copilot_a}")), project_a);
    assert!(project_of(&desk, &format!("gemini:{gemini_b}")).starts_with("billing-web"));
    assert!(project_of(&desk, &format!("copilot:{copilot_b}")).starts_with("billing-web"));
}

#[test]
fn gemini_and_copilot_finish_their_turns_with_the_store_unreachable_and_sync_delivers() {
    let mut desk = Desk::with(&["gemini", "copilot"]);
    let a = desk.m.project("acme-api");
    // The database path's parent is a plain file: the store cannot be opened at all.
    let blocker = desk.m.dir.path().join("unmounted");
    std::fs::write(&blocker, "not a folder").unwrap();
    desk.env.push(("AGENT_MEMORY_DB".to_owned(), blocker.join("memory.db")));

    desk.server.script_gemini(vec![("run_shell_command", json!({ "command": "ls" }))]);
    desk.gemini(&a, "List the files.").assert_completed("gemini without a store");
    let (_, gemini) = desk.fired_since(0);
    desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.copilot(&a, "List the files.").assert_completed("copilot without a store");
    let (_, copilot) = desk.fired_since(gemini.len());
    for (fired, events) in [(&gemini, GEMINI_EVENTS), (&copilot, COPILOT_EVENTS)] {
        let order = names(fired);
        for event in events {
            assert!(order.contains(event), "{event} fired: {order:?}");
        }
    }
    // Hooks still running after Gemini exited journal their events too.
    std::thread::sleep(Duration::from_secs(2));
    desk.assert_journaled_then_synced();
    desk.assert_stored("gemini", &gemini);
    desk.assert_stored("copilot", &copilot);
    assert_eq!(desk.m.run_json(&["sessions"]).as_array().unwrap().len(), 2);
}

/// What the adapters render for a blocked tool call is what each CLI honours: a hook that answers
/// PreToolUse (Gemini's `BeforeTool`) with it stops the call, and the reason reaches the model.
#[test]
fn a_block_rendered_by_the_adapters_stops_the_tool_call_in_gemini_and_copilot() {
    use memory_core::{EventKind, HarnessAdapter, HookResponse};

    const REASON: &str = "agent-memory: this command is not allowed here";
    let desk = Desk::with(&["gemini", "copilot"]);
    let a = desk.m.project("acme-api");
    let block = HookResponse::block(REASON);
    let answers = [
        ("gemini", adapter_gemini::GeminiAdapter.render(&EventKind::PreToolUse, &block)),
        ("copilot", adapter_copilot::CopilotAdapter.render(&EventKind::PreToolUse, &block)),
    ];
    for (harness, rendered) in &answers {
        assert_eq!(rendered.exit_code, 0);
        let answer = desk.m.dir.path().join(format!("{harness}-block.json"));
        std::fs::write(&answer, &rendered.stdout).unwrap();
        let command = format!("cat '{}'", answer.display());
        let (config, event, entry) = match *harness {
            "gemini" => (
                ".gemini/settings.json",
                "BeforeTool",
                json!({ "matcher": "*", "hooks": [{ "type": "command", "command": command }] }),
            ),
            _ => (".copilot/settings.json", "PreToolUse", json!({ "type": "command", "bash": command })),
        };
        let path = desk.m.dir.path().join(config);
        let mut settings: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        settings["hooks"][event].as_array_mut().unwrap().push(entry);
        std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
    }

    desk.server.script_gemini(vec![("run_shell_command", json!({ "command": "touch gemini-ran.txt" }))]);
    desk.gemini(&a, "Create the file.").assert_completed("gemini with a blocked call");
    assert!(!a.join("gemini-ran.txt").exists(), "Gemini did not run the blocked command");
    let calls = model_calls(desk.server.take());
    let gemini_saw = calls.iter().any(|r| r.body.to_string().contains(REASON));
    assert!(gemini_saw, "the reason reached Gemini's model: {:#?}", calls.last().unwrap().body);

    desk.server
        .script_chat(vec![("bash", json!({ "command": "touch copilot-ran.txt", "description": "Create" }))]);
    desk.copilot(&a, "Create the file.").assert_completed("copilot with a blocked call");
    assert!(!a.join("copilot-ran.txt").exists(), "Copilot did not run the blocked command");
    let calls = model_calls(desk.server.take());
    let copilot_saw = calls.iter().any(|r| r.body.to_string().contains(REASON));
    assert!(copilot_saw, "the reason reached Copilot's model: {:#?}", calls.last().unwrap().body);

    // Both runs are recorded like any other, the blocked call included.
    let fired = desk.fired();
    let pre: Vec<&str> =
        fired.iter().map(|f| f.event.as_str()).filter(|e| ["BeforeTool", "PreToolUse"].contains(e)).collect();
    assert_eq!(pre, ["BeforeTool", "PreToolUse"], "{fired:#?}");
}

/// `install --scope project` writes the project's own files (`.gemini/settings.json`,
/// `.github/hooks/agent-memory.json`), and the CLIs run them: Gemini CLI as soon as the folder is
/// trusted (here folder trust is off), Copilot CLI only with `--trust-folder`.
#[test]
fn project_scope_hooks_run_in_trusted_folders() {
    let desk = Desk::with(&[]);
    let a = desk.m.project("acme-api");
    let settings = json!({ "security": { "auth": { "selectedType": "gemini-api-key" }, "folderTrust": { "enabled": false } } });
    let user = desk.m.dir.path().join(".gemini/settings.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, settings.to_string()).unwrap();
    let project = a.to_str().unwrap();
    desk.m.run(&[
        "install",
        "--harness",
        "gemini,copilot",
        "--scope",
        "project",
        "--project",
        project,
        "--no-mcp",
    ]);
    assert!(a.join(".gemini/settings.json").exists() && a.join(".github/hooks/agent-memory.json").exists());

    let harnesses = |desk: &Desk| -> Vec<String> {
        let sessions = desk.m.run_json(&["sessions"]);
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect()
    };
    desk.server.script_chat(vec![("bash", json!({ "command": "ls", "description": "List files" }))]);
    desk.copilot(&a, "List the files.").assert_completed("copilot in an untrusted folder");
    assert_eq!(
        harnesses(&desk),
        Vec::<String>::new(),
        "Copilot skips repository hooks in a folder it does not trust"
    );

    let mut cmd = desk.base(&clis().copilot, &a);
    cmd.args(["-p", "List the files.", "--allow-all-tools", "--no-auto-update", "--trust-folder"])
        .env("COPILOT_OFFLINE", "true")
        .env("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", desk.server.root()))
        .env("COPILOT_PROVIDER_TYPE", "openai")
        .env("COPILOT_PROVIDER_API_KEY", "test-not-a-real-key")
        .env("COPILOT_MODEL", "scripted");
    run_cli(cmd, Duration::from_secs(180)).assert_completed("copilot in a trusted folder");
    desk.server.script_gemini(vec![("run_shell_command", json!({ "command": "ls" }))]);
    desk.gemini(&a, "List the files.").assert_completed("gemini with project hooks");

    let keys = harnesses(&desk);
    assert_eq!(keys.len(), 2, "{keys:?}");
    for prefix in ["copilot:", "gemini:"] {
        let key = keys.iter().find(|k| k.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix} {keys:?}"));
        let events = desk.timeline(key);
        let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
        for kind in ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] {
            assert!(kinds.contains(&kind), "{key}: {kind} in {kinds:?}");
        }
    }
    desk.m.run(&["uninstall", "--harness", "gemini,copilot", "--scope", "project", "--project", project]);
    assert!(!a.join(".gemini/settings.json").exists(), "the settings file install created is gone");
}

#[test]
fn memory_made_in_claude_code_reaches_qwen_code_in_the_same_project_only() {
    let desk = Desk::with(&["claude", "qwen"]);
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
    let (claude_session, fired) = desk.fired_since(0);
    desk.assert_stored("claude", &fired);
    let mut seen = fired.len();
    let dreamed = dreamed_by_itself(&desk.m);
    assert!(dreamed["notes_created"].as_u64().unwrap() > 0, "{dreamed}");
    desk.server.take();

    // Qwen Code, project A: a command that succeeds and one that fails.
    desk.server.script_chat(vec![
        ("run_shell_command", json!({ "command": "ls", "description": "List files" })),
        ("run_shell_command", json!({ "command": "ls missing-dir", "description": "List a missing folder" })),
    ]);
    let run = desk.qwen(&a, "Which errors crate do we use for library errors? Run the cargo tests first.");
    run.assert_completed("qwen in project A");
    let calls = model_calls(desk.server.take());
    let last = calls.last().expect("Qwen Code called the model");
    let texts = last.texts();
    assert!(
        texts.iter().any(|(role, t)| role == "system" && t.contains(CONVENTION)),
        "the convention from Claude Code is in the system prompt, from our SessionStart answer: {texts:#?}"
    );
    // The prompt itself, the last message with its words (a start block before it may quote an
    // earlier session's prompt where that session left off).
    let prompt_at =
        texts.iter().rposition(|(role, t)| role == "user" && t.contains("Which errors crate")).unwrap();
    let note_at = texts.iter().position(|(role, t)| role == "user" && t.contains(CARGO_NOTE));
    assert!(note_at.is_some_and(|i| i > prompt_at), "the prompt's note follows the prompt: {texts:#?}");
    assert_eq!(count(last, CONVENTION, |_, _| true), 1, "never the same note twice");
    assert_eq!(count(last, CARGO_NOTE, |_, _| true), 1, "never the same note twice");
    // Qwen Code defers MCP tools behind its `tool_search` tool, so the request does not list them;
    // its session report does: our server connected and its tools registered.
    assert!(
        run.stdout.contains(r#"{"name":"agent-memory","status":"connected"}"#)
            && run.stdout.contains("mcp__agent-memory__search_notes"),
        "install registered our MCP server in Qwen Code: {}",
        run.stdout
    );

    let (qwen_a, fired) = desk.fired_since(seen);
    seen += fired.len();
    let order = names(&fired);
    for event in QWEN_EVENTS.iter().chain(&["PostToolUseFailure"]) {
        assert!(order.contains(event), "Qwen Code fired {event}: {order:?}");
    }
    desk.assert_stored_soon("qwen", &fired);
    let events = desk.timeline(&format!("qwen:{qwen_a}"));
    let prompt = &stored(&events, "UserPromptSubmit")[0];
    assert!(prompt["prompt"].as_str().unwrap().starts_with("Which errors crate"), "{prompt}");
    let ok = stored(&events, "PostToolUse");
    assert_eq!((ok.len(), &ok[0]["tool"]["failed"]), (1, &json!(false)), "{events:#?}");
    let failed = stored(&events, "PostToolUseFailure");
    assert_eq!(failed[0]["kind"], "PostToolUseFailure");
    assert_eq!(failed[0]["tool"]["shell"]["command"], "ls missing-dir");
    assert_eq!(failed[0]["tool"]["shell"]["exit_code"], 2);
    assert_eq!(stored(&events, "Stop")[0]["kind"], "Stop");

    // Project B: nothing of project A.
    desk.server.script_chat(vec![("run_shell_command", json!({ "command": "ls" }))]);
    desk.qwen(&b, "Run the cargo tests.").assert_completed("qwen in project B");
    let (qwen_b, fired) = desk.fired_since(seen);
    desk.assert_stored_soon("qwen", &fired);
    let calls = model_calls(desk.server.take());
    assert!(!calls.is_empty());
    for request in calls {
        assert_eq!(count(&request, CONVENTION, |_, _| true), 0, "project B never sees project A's notes");
        assert_eq!(count(&request, "thiserror", |_, _| true), 0, "project B never sees project A's notes");
    }

    // Qwen Code sets CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR for its hooks, yet every session is
    // filed under the harness that ran it.
    let ran: BTreeSet<String> =
        [format!("claude:{claude_session}"), format!("qwen:{qwen_a}"), format!("qwen:{qwen_b}")].into();
    let sessions = desk.m.run_json(&["sessions"]);
    let keys: BTreeSet<String> =
        sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(keys, ran, "no session comes from anything but the CLIs' hooks");
    let project_a = project_of(&desk, &format!("claude:{claude_session}"));
    assert_eq!(project_of(&desk, &format!("qwen:{qwen_a}")), project_a);
    assert!(project_of(&desk, &format!("qwen:{qwen_b}")).starts_with("billing-web"));
}

#[test]
fn qwen_code_finishes_its_turn_with_the_store_unreachable_and_sync_delivers() {
    let mut desk = Desk::with(&["qwen"]);
    let a = desk.m.project("acme-api");
    let blocker = desk.m.dir.path().join("unmounted");
    std::fs::write(&blocker, "not a folder").unwrap();
    desk.env.push(("AGENT_MEMORY_DB".to_owned(), blocker.join("memory.db")));

    desk.server.script_chat(vec![("run_shell_command", json!({ "command": "ls" }))]);
    desk.qwen(&a, "List the files.").assert_completed("qwen without a store");
    let (_, fired) = desk.fired_since(0);
    let order = names(&fired);
    for event in QWEN_EVENTS {
        assert!(order.contains(event), "{event} fired: {order:?}");
    }
    desk.assert_journaled_then_synced();
    desk.assert_stored("qwen", &fired);
    assert_eq!(desk.m.run_json(&["sessions"]).as_array().unwrap().len(), 1);
}

/// `install --scope project` writes the project's `.qwen/settings.json` and Qwen Code runs it (its
/// folder trust is off by default); the block the adapter renders for a tool call stops the call,
/// and the reason reaches the model.
#[test]
fn qwen_code_runs_project_hooks_and_honours_a_rendered_block() {
    use memory_core::{EventKind, HarnessAdapter, HookResponse};

    const REASON: &str = "agent-memory: this command is not allowed here";
    let desk = Desk::with(&[]);
    let a = desk.m.project("acme-api");
    let user = desk.m.dir.path().join(".qwen/settings.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, json!({ "security": { "auth": { "selectedType": "openai" } } }).to_string())
        .unwrap();
    let project = a.to_str().unwrap();
    desk.m.run(&["install", "--harness", "qwen", "--scope", "project", "--project", project, "--no-mcp"]);
    let path = a.join(".qwen/settings.json");
    let rendered = adapter_qwen::QwenAdapter.render(&EventKind::PreToolUse, &HookResponse::block(REASON));
    assert_eq!(rendered.exit_code, 0);
    let answer = desk.m.dir.path().join("qwen-block.json");
    std::fs::write(&answer, &rendered.stdout).unwrap();
    let mut settings: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let blocker = json!({ "matcher": "*", "hooks": [{ "type": "command", "command": format!("cat '{}'", answer.display()) }] });
    settings["hooks"]["PreToolUse"].as_array_mut().unwrap().push(blocker);
    std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();

    desk.server.script_chat(vec![("run_shell_command", json!({ "command": "touch qwen-ran.txt" }))]);
    desk.qwen(&a, "Create the file.").assert_completed("qwen with project hooks and a blocked call");
    assert!(!a.join("qwen-ran.txt").exists(), "Qwen Code did not run the blocked command");
    let calls = model_calls(desk.server.take());
    assert!(
        calls.iter().any(|r| r.body.to_string().contains(REASON)),
        "the reason reached Qwen Code's model: {:#?}",
        calls.last().unwrap().body
    );

    let sessions = desk.m.run_json(&["sessions"]);
    let keys: Vec<&str> = sessions.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap()).collect();
    assert!(keys.len() == 1 && keys[0].starts_with("qwen:"), "{keys:?}");
    let kinds: Vec<String> =
        desk.timeline(keys[0]).iter().map(|e| e["kind"].as_str().unwrap().to_owned()).collect();
    for kind in ["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
}
