//! Cline: payloads shaped like the captured ones (`hookName` in the CLI's own names,
//! `sessionContext.rootSessionId`, `workspaceInfo`, the CLI's `tool_result` beside the documented
//! `postToolUse`). Cline reads no answer at a task's start nor at a prompt, so its notes go through
//! the rules file there, and it reports no compaction on a start.

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct Cline;

fn payload(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut payload = json!({
        "clineVersion": "",
        "timestamp": "2026-12-04T23:46:29.842Z",
        "taskId": "conv_1796427988898_3lpi890",
        "sessionContext": { "rootSessionId": session },
        "workspaceRoots": [cwd],
        "workspaceInfo": { "rootPath": cwd, "hint": "project" },
        "userId": "unknown",
        "agent_id": "agent_1796427988753_7rmabe",
        "parent_agent_id": null,
        "hookName": event,
    });
    if let (Some(object), Value::Object(extra)) = (payload.as_object_mut(), extra) {
        object.extend(extra);
    }
    payload
}

impl HookFixtures for Cline {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_cline::ClineAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "agent_start", json!({ "taskStart": { "taskMetadata": {} } }))
    }

    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        payload(
            session,
            cwd,
            "agent_resume",
            json!({ "taskResume": { "taskMetadata": {}, "previousState": {} } }),
        )
    }

    fn compacted_start(&self, _session: &str, _cwd: &Path) -> Option<Value> {
        None
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        payload(
            session,
            cwd,
            "prompt_submit",
            json!({ "userPromptSubmit": { "prompt": prompt, "attachments": [] } }),
        )
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        let output = json!([{ "query": command, "result": "done\n", "success": true }]);
        payload(
            session,
            cwd,
            "tool_result",
            json!({
                "iteration": 1,
                "tool_result": {
                    "id": "call_0",
                    "name": "run_commands",
                    "input": { "commands": [command] },
                    "output": output,
                    "durationMs": 412,
                    "startedAt": "2026-12-04T23:46:29.400Z",
                    "endedAt": "2026-12-04T23:46:29.812Z",
                },
                "postToolUse": {
                    "toolName": "run_commands",
                    "parameters": { "commands": json!([command]).to_string() },
                    "result": output.to_string(),
                    "success": true,
                    "executionTimeMs": 412,
                },
            }),
        )
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        payload(session, cwd, "session_shutdown", json!({}))
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["tool_result"]["durationMs"] = Value::from(secret);
        call
    }
}

memory_testkit::hook_runtime_suite!(Cline);
