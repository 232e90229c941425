//! Claude Code: payloads shaped like the captured ones (`session_id`, `source` on a start,
//! `tool_response` as an object).

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Claude;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/user/.claude/projects/suite/{session}.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Claude {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_claude::ClaudeAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "startup", "model": "claude-sonnet-4-5" }))
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "resume" }))
    }

    fn compacted_start(&self, session: &str, cwd: &Path) -> Option<Value> {
        Some(payload(session, cwd, "SessionStart", json!({ "source": "compact" })))
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(session, cwd, "UserPromptSubmit", json!({ "prompt": prompt }))
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        payload(
            session,
            cwd,
            "PostToolUse",
            json!({
                "tool_name": "Bash",
                "tool_input": { "command": command, "description": "Run a command" },
                "tool_response": { "stdout": "done\n", "stderr": "", "interrupted": false },
                "tool_use_id": "toolu_01suite",
                "duration_ms": 12.5,
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionEnd", json!({ "reason": "prompt_input_exit" }))
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["duration_ms"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Claude);
