//! Factory droid: payloads shaped like the captured ones (`transcript_path` and `permission_mode` on
//! every event, Claude Code's event names, droid's tool names and its `Execute` output text closed
//! by `[Process exited with code N]`).

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Droid;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "session_id": session,
        "transcript_path": format!("/home/user/.factory/sessions/-home-user-project/{session}.jsonl"),
        "cwd": cwd,
        "permission_mode": "auto-high",
        "hook_event_name": event,
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Droid {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_droid::DroidAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        let env_file = format!("/home/user/.factory/temp/env/droid-env-{session}.sh");
        payload(session, cwd, "SessionStart", json!({ "source": "startup", "CLAUDE_ENV_FILE": env_file }))
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        let env_file = format!("/home/user/.factory/temp/env/droid-env-{session}.sh");
        payload(session, cwd, "SessionStart", json!({ "source": "resume", "CLAUDE_ENV_FILE": env_file }))
    }

    /// Droid restarts a compacted session with `source: "resume"`; it reports no start that drops
    /// the conversation.
    fn compacted_start(&self, _session: &str, _cwd: &Path) -> Option<Value> {
        None
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(
            session,
            cwd,
            "UserPromptSubmit",
            json!({ "message_id": "5284a750-e514-4732-bb25-c88fc0d4e0f0", "prompt": prompt, "has_images": false }),
        )
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        payload(
            session,
            cwd,
            "PostToolUse",
            json!({
                "tool_name": "Execute",
                "tool_input": { "summary": "Run the command", "command": command, "riskLevel": "low",
                                "riskLevelReason": "Runs it" },
                "tool_response": "done\n\n\n[Process exited with code 0]",
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(
            session,
            cwd,
            "SessionEnd",
            json!({ "reason": "other", "session_duration_ms": 14446.98, "message_count": 28 }),
        )
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["stop_hook_active"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Droid);
