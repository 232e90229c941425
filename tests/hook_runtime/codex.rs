//! Codex: payloads shaped like the captured ones (`turn_id` and `model` on every turn event,
//! `tool_response` as text).

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Codex;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/user/.codex/sessions/2026/11/30/rollout-{session}.jsonl"),
        "cwd": cwd,
        "hook_event_name": event,
        "model": "gpt-5-codex",
        "permission_mode": "default",
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Codex {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_codex::CodexAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "startup" }))
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "resume" }))
    }

    fn compacted_start(&self, session: &str, cwd: &Path) -> Option<Value> {
        Some(payload(session, cwd, "SessionStart", json!({ "source": "compact" })))
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(session, cwd, "UserPromptSubmit", json!({ "turn_id": "turn-suite", "prompt": prompt }))
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        payload(
            session,
            cwd,
            "PostToolUse",
            json!({
                "turn_id": "turn-suite",
                "tool_name": "Bash",
                "tool_input": { "command": command },
                "tool_response": "done\n",
                "tool_use_id": "call_suite",
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionEnd", json!({ "reason": "other" }))
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["stop_hook_active"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Codex);
