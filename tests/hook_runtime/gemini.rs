//! Gemini CLI: payloads shaped like the captured ones (`timestamp` on every event, Gemini's own
//! event and tool names, `tool_response` as `{llmContent, returnDisplay}`).

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Gemini;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/user/.gemini/tmp/project/chats/session-{session}.jsonl"),
        "cwd": cwd,
        "hook_event_name": event,
        "timestamp": "2026-12-01T08:56:00.211Z",
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Gemini {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_gemini::GeminiAdapter
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
        Some(payload(session, cwd, "SessionStart", json!({ "source": "clear" })))
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(session, cwd, "BeforeAgent", json!({ "prompt": prompt }))
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        payload(
            session,
            cwd,
            "AfterTool",
            json!({
                "tool_name": "run_shell_command",
                "tool_input": { "command": command, "description": "run it" },
                "tool_response": { "llmContent": "Output: done\nProcess Group PGID: 4242", "returnDisplay": "done" },
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionEnd", json!({ "reason": "exit" }))
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["stop_hook_active"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Gemini);
