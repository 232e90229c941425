//! Cursor: payloads shaped like the documented ones (`conversation_id`, `workspace_roots`, shell
//! events with `command` and `output`). Cursor takes context only at a session start and reports no
//! compaction on one, so the suite checks what it gets instead.

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Cursor;

fn payload(conversation: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "conversation_id": conversation,
        "generation_id": "gen-suite",
        "model": "claude-4.5-sonnet",
        "hook_event_name": event,
        "cursor_version": "3.18.25",
        "workspace_roots": [cwd],
        "user_email": "user@example.com",
        "transcript_path": null,
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Cursor {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_cursor::CursorAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        payload(
            session,
            cwd,
            "sessionStart",
            json!({ "session_id": session, "is_background_agent": false, "composer_mode": "agent" }),
        )
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        let mut start = self.session_start(session, cwd);
        start["generation_id"] = Value::from("gen-suite-resumed");
        start
    }

    fn compacted_start(&self, _session: &str, _cwd: &Path) -> Option<Value> {
        None
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(session, cwd, "beforeSubmitPrompt", json!({ "prompt": prompt, "attachments": [] }))
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        payload(
            session,
            cwd,
            "afterShellExecution",
            json!({ "command": command, "output": "done\n", "duration": 412, "sandbox": false }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(
            session,
            cwd,
            "sessionEnd",
            json!({
                "session_id": session,
                "reason": "user_close",
                "duration_ms": 93512.0,
                "final_status": "completed",
                "is_background_agent": false,
            }),
        )
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["duration"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Cursor);
