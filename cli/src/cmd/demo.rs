//! `agent-memory demo`: a realistic multi-harness story replayed through the real hook binary into
//! a fresh embedded store. A Claude Code session teaches a preference and a project convention;
//! its end starts the deterministic dream by itself, which distills notes; then Codex and Cursor
//! sessions on the same project are shown what they are given at session start and on a prompt.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::Context as _;
use serde_json::{Value, json};

use crate::output::print;

struct Demo {
    exe: PathBuf,
    home: PathBuf,
    config: PathBuf,
    project: PathBuf,
}

impl Demo {
    /// Runs the real hook binary as the harness would: payload on stdin, project as cwd.
    fn hook(&self, harness: &str, payload: &Value) -> anyhow::Result<String> {
        let mut child = Command::new(&self.exe)
            .args(["hook", harness])
            .current_dir(&self.project)
            .env("AGENT_MEMORY_HOME", &self.home)
            .env("AGENT_MEMORY_CONFIG", &self.config)
            .env_remove("AGENT_MEMORY_STORE")
            .env_remove("AGENT_MEMORY_DB")
            .env_remove(memory_hook::GUARD_VAR)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("cannot start the hook binary")?;
        child.stdin.take().context("hook stdin")?.write_all(payload.to_string().as_bytes())?;
        let out = child.wait_with_output()?;
        anyhow::ensure!(
            out.status.success(),
            "hook {harness} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
        Ok(String::from_utf8(out.stdout)?)
    }
}

/// The context a harness was handed, pulled out of its hook answer.
fn given(harness: &str, stdout: &str) -> String {
    let Ok(value) = serde_json::from_str::<Value>(stdout) else {
        return if stdout.trim().is_empty() { "(nothing)".to_owned() } else { stdout.to_owned() };
    };
    let text = match harness {
        "cursor" => value.get("additional_context").and_then(Value::as_str),
        _ => value.pointer("/hookSpecificOutput/additionalContext").and_then(Value::as_str),
    };
    text.map_or_else(|| format!("(no context; answer was {stdout})"), str::to_owned)
}

/// What the demo tells: printed as it goes, or gathered into one JSON document with `--json`.
struct Story {
    json: bool,
    steps: Vec<Value>,
}

impl Story {
    /// Starts a step.
    fn step(&mut self, title: &str) {
        if self.json {
            self.steps.push(json!({ "step": title, "given": [] }));
        } else {
            print(title);
        }
    }

    /// What `harness` was handed on `event`, in the current step.
    fn given(&mut self, harness: &str, event: &str, label: &str, text: &str) {
        let text = if text.starts_with('(') { why_nothing(event) } else { text };
        if let Some(given) = self.steps.last_mut().and_then(|s| s["given"].as_array_mut()) {
            given.push(json!({ "harness": harness, "event": event, "context": text }));
        } else if !self.json {
            print(&format!("   {label}:\n{}", indent(text)));
        }
    }

    /// A prompt of the session, and the notes it taught.
    fn taught(&mut self, prompt: &str, notes: &[String]) {
        if let Some(step) = self.steps.last_mut().and_then(|s| s.as_object_mut()) {
            let taught = step.entry("taught").or_insert_with(|| json!([]));
            if let Some(list) = taught.as_array_mut() {
                list.push(json!({ "prompt": prompt, "notes": notes }));
            }
        } else if !self.json {
            let mut text = format!("   \"{}\"\n", crate::output::clip(prompt, 90));
            if notes.is_empty() {
                text.push_str("      taught no note by itself: a correction, or a request of the moment\n");
            }
            for note in notes {
                text.push_str(&format!("      taught {note}\n"));
            }
            print(text.trim_end());
        }
    }

    /// A remark on the current step.
    fn note(&mut self, text: &str) {
        match self.steps.last_mut() {
            Some(step) => step["note"] = json!(text),
            None if !self.json => print(&format!("   {text}")),
            None => {}
        }
    }
}

pub(crate) async fn run(dir: Option<PathBuf>, json_output: bool) -> anyhow::Result<std::process::ExitCode> {
    let tmp = tempfile::tempdir()?;
    let base = dir.unwrap_or_else(|| tmp.path().to_path_buf());
    let demo = Demo {
        exe: std::env::current_exe()?,
        home: base.join("data"),
        config: base.join("config.toml"),
        project: base.join("acme-api"),
    };
    std::fs::create_dir_all(&demo.project)?;
    std::fs::create_dir_all(&demo.home)?;
    // Generous deadline: the demo's first hook creates the database.
    std::fs::write(&demo.config, "[hook]\ndeadline_ms = 5000\n")?;
    let cwd = demo.project.to_string_lossy().into_owned();

    let mut story = Story { json: json_output, steps: Vec::new() };
    if !json_output {
        print(&format!("agent-memory demo: project {cwd}, data in {}\n", demo.home.display()));
    }
    story.step("1. Claude Code session: the user states a preference and a project convention; tools run.");
    for payload in claude_story(&cwd) {
        demo.hook("claude", &payload)?;
    }

    story.step(
        "2. The session ended, so its hook started the dream (deterministic distiller) in the background.",
    );
    let report = super::dream_for_demo(&demo.home, &demo.config).await?;
    story.note(&report.to_string());
    if !json_output {
        print("   Each prompt of the session, and what it taught:");
    }
    for (prompt, taught) in taught(&demo).await? {
        story.taught(&prompt, &taught);
    }

    story.step("3. Codex session on the same project.");
    let codex_session = "019a5c2e-codex-demo-0001";
    let start = demo.hook(
        "codex",
        &json!({
            "session_id": codex_session, "transcript_path": null, "cwd": cwd,
            "hook_event_name": "SessionStart", "model": "gpt-5-codex", "source": "startup"
        }),
    )?;
    story.given("codex", "SessionStart", "Codex was given at session start", &given("codex", &start));
    let prompt = demo.hook(
        "codex",
        &json!({
            "session_id": codex_session, "turn_id": "turn-1", "transcript_path": null, "cwd": cwd,
            "hook_event_name": "UserPromptSubmit", "model": "gpt-5-codex",
            "prompt": "Which flags do I usually pass to cargo test?"
        }),
    )?;
    story.given("codex", "UserPromptSubmit", "Codex was given on the prompt", &given("codex", &prompt));

    story.step("4. Cursor session on the same project.");
    let conversation = "8c1f4e2a-cursor-demo-0001";
    let start = demo.hook(
        "cursor",
        &json!({
            "conversation_id": conversation, "generation_id": "g-1", "session_id": conversation,
            "hook_event_name": "sessionStart", "cursor_version": "3.18.25", "workspace_roots": [cwd],
            "model": "claude-4.5-sonnet", "is_background_agent": false, "composer_mode": "agent"
        }),
    )?;
    story.given("cursor", "sessionStart", "Cursor was given at session start", &given("cursor", &start));
    let prompt = demo.hook("cursor", &json!({
        "conversation_id": conversation, "generation_id": "g-2", "hook_event_name": "beforeSubmitPrompt",
        "cursor_version": "3.18.25", "workspace_roots": [cwd], "prompt": "run the tests", "attachments": []
    }))?;
    story.note(&format!(
        "Cursor's prompt hook can only allow or block (answer {}); the always-apply rules file {} carries the notes instead.",
        prompt.trim(),
        demo.project.join(adapter_cursor::RULES_FILE).display()
    ));

    story.step("5. Another project gets none of acme-api's notes:");
    let other = base.join("other-project");
    std::fs::create_dir_all(&other)?;
    let start = demo.hook(
        "codex",
        &json!({
            "session_id": "019a5c2e-codex-demo-0002", "transcript_path": null, "cwd": other.to_string_lossy(),
            "hook_event_name": "SessionStart", "model": "gpt-5-codex", "source": "startup"
        }),
    )?;
    story.given("codex", "SessionStart", "Codex in other-project was given", &given("codex", &start));
    if json_output {
        crate::output::json(&json!({
            "project": cwd,
            "data_dir": demo.home,
            "kept": base != tmp.path(),
            "steps": story.steps,
        }))?;
    } else {
        if base == tmp.path() {
            print(
                "\n(demo data was temporary; pass --dir DIR to keep it and explore with AGENT_MEMORY_HOME=DIR/data)",
            );
        }
        print(NEXT);
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// How the demo ends: the next step.
const NEXT: &str = "\nNext: `agent-memory install` adds these hooks to the harnesses on this machine \
                    (`agent-memory doctor` checks them); your own sessions then teach your own notes.";

/// Why a harness was given nothing on `event`, in one line.
fn why_nothing(event: &str) -> &'static str {
    if event.eq_ignore_ascii_case("sessionstart") {
        "nothing: no note concerns this project or you yet"
    } else {
        "nothing: no note answers this prompt closely enough, and a miss costs the agent no context"
    }
}

/// Each prompt of the demo's Claude Code session, with the notes (`scope path: title`) whose
/// sources include it.
async fn taught(demo: &Demo) -> anyhow::Result<Vec<(String, Vec<String>)>> {
    let config = demo_config(&demo.home, &demo.config)?;
    let store = crate::store::open(&config).await?;
    let key = memory_core::SessionKey(format!("claude:{CLAUDE_SESSION}"));
    let events = store.timeline(&key, 0, 200).await?;
    let notes = store.list_notes(&memory_core::NoteFilter::default()).await?;
    let catalog = memory_hook::project::Catalog::load(
        &memory_hook::project::Registry::new(&config.data_dir()),
        store.as_ref(),
    )
    .await?;
    Ok(events
        .iter()
        .filter_map(|e| Some((e, e.event.prompt.as_deref()?)))
        .map(|(e, prompt)| {
            let taught = notes
                .iter()
                .filter(|n| n.meta.sources.contains(&e.event.id))
                .map(|n| format!("{} {}: {}", catalog.label(&n.meta.scope), n.path, n.meta.title))
                .collect();
            (prompt.to_owned(), taught)
        })
        .collect())
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}\n")).collect()
}

/// The demo's Claude Code session.
const CLAUDE_SESSION: &str = "3f2b8c1e-claude-demo-0001";

/// The Claude Code part of the story, as the harness would deliver it.
fn claude_story(cwd: &str) -> Vec<Value> {
    let session = CLAUDE_SESSION;
    let transcript = format!("/home/user/.claude/projects/demo/{session}.jsonl");
    let base = |event: &str| {
        json!({ "session_id": session, "transcript_path": transcript, "cwd": cwd,
                "permission_mode": "default", "hook_event_name": event })
    };
    let with = |event: &str, extra: Value| {
        let mut v = base(event);
        if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
            obj.extend(more);
        }
        v
    };
    let bash = |id: &str, command: &str, stdout: &str, failed: bool| {
        let mut events = vec![with(
            "PreToolUse",
            json!({
                "tool_name": "Bash", "tool_use_id": id, "tool_input": { "command": command }
            }),
        )];
        events.push(if failed {
            with("PostToolUseFailure", json!({
                "tool_name": "Bash", "tool_use_id": id, "tool_input": { "command": command },
                "error": stdout, "is_interrupt": false
            }))
        } else {
            with("PostToolUse", json!({
                "tool_name": "Bash", "tool_use_id": id, "tool_input": { "command": command },
                "tool_response": { "stdout": stdout, "stderr": "", "interrupted": false, "isImage": false }
            }))
        });
        events
    };
    let mut story = vec![with("SessionStart", json!({ "source": "startup", "model": "claude-sonnet-4-5" }))];
    story.push(with("UserPromptSubmit", json!({ "prompt":
        "I prefer small focused commits, and always run the tests with `cargo test --workspace` before you commit. \
         In this project we use thiserror for library errors, never anyhow outside the binaries." })));
    story.extend(bash(
        "toolu_01",
        "cargo test --workspace",
        "error[E0432]: unresolved import `anyhow`",
        true,
    ));
    story.push(with(
        "UserPromptSubmit",
        json!({ "prompt":
        "No, don't add anyhow to http-client; use thiserror instead, as we agreed." }),
    ));
    story.extend(bash("toolu_02", "cargo test --workspace", "test result: ok. 42 passed; 0 failed", false));
    story.extend(bash(
        "toolu_03",
        "cargo clippy --workspace --all-targets -- -D warnings",
        "Finished",
        false,
    ));
    story.extend(bash("toolu_04", "cargo test --workspace", "test result: ok. 43 passed; 0 failed", false));
    story.push(with("Stop", json!({ "stop_hook_active": false })));
    story.push(with("SessionEnd", json!({ "reason": "prompt_input_exit" })));
    story
}

/// Where the demo keeps its data, for the dream step.
pub(crate) fn demo_config(home: &Path, config: &Path) -> anyhow::Result<memory_hook::config::Config> {
    let mut cfg = memory_hook::config::Config::parse(&std::fs::read_to_string(config)?)?;
    cfg.data_dir = Some(home.to_path_buf());
    Ok(cfg)
}
