//! Copilot CLI: the PascalCase events' payloads as captured (snake_case fields, ISO `timestamp`,
//! Claude Code's tool names, `tool_result`). Copilot reports no start after a compaction.

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Copilot;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "hook_event_name": event,
        "session_id": session,
        "timestamp": "2026-12-01T08:56:42.383Z",
        "cwd": cwd,
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Copilot {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_copilot::CopilotAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "new", "initial_prompt": "hello" }))
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionStart", json!({ "source": "resume" }))
    }

    fn compacted_start(&self, _session: &str, _cwd: &Path) -> Option<Value> {
        None
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
                "tool_input": { "command": command, "description": "run it" },
                "tool_result": {
                    "result_type": "success",
                    "text_result_for_llm": "done\n<shellId: 0 completed with exit code 0>",
                },
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "SessionEnd", json!({ "reason": "complete" }))
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["stop_hook_active"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Copilot);
