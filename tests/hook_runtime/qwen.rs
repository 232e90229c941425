//! Qwen Code: payloads shaped like the captured ones (`timestamp` and `permission_mode` on every
//! event, Claude Code's event names, Gemini CLI's tool names and `tool_response`
//! `{llmContent, returnDisplay}`).

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Qwen;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/user/.qwen/projects/-home-user-project/chats/{session}.jsonl"),
        "cwd": cwd,
        "hook_event_name": event,
        "timestamp": "2026-12-04T22:17:19.469Z",
        "permission_mode": "yolo",
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Qwen {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_qwen::QwenAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "startup", "model": "scripted" }))
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "resume", "model": "scripted" }))
    }

    fn compacted_start(&self, session: &str, cwd: &Path) -> Option<Value> {
        Some(payload(session, cwd, "SessionStart", json!({ "source": "clear", "model": "scripted" })))
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(
            session,
            cwd,
            "UserPromptSubmit",
            json!({ "prompt_id": format!("{session}########0"), "prompt": prompt }),
        )
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        payload(
            session,
            cwd,
            "PostToolUse",
            json!({
                "prompt_id": format!("{session}########0"),
                "tool_name": "run_shell_command",
                "tool_input": { "command": command, "description": "run it" },
                "tool_response": { "llmContent": format!("Command: {command}\nOutput: done\nExit Code: 0"), "returnDisplay": "done" },
                "tool_use_id": "toolu_1796422640615_uh150hjtx",
                "tool_call_id": "call_1",
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionEnd", json!({ "reason": "prompt_input_exit" }))
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["stop_hook_active"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Qwen);
