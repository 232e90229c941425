//! OpenCode: payloads shaped like the ones our plugin sent from a real OpenCode 1.18.33 (the
//! plugin's envelope around what OpenCode handed each hook).

use std::path::Path;

use memory_core::HarnessAdapter;
use memory_hook::OpenStore;
use memory_testkit::hook_runtime::HookFixtures;
use serde_json::{Value, json};

use crate::SqliteStores;

struct OpenCode;

fn payload(session: &str, cwd: &Path, event: &str, input: Value, output: Option<Value>) -> Value {
    let mut payload = json!({
        "hook_event_name": event,
        "session_id": session,
        "directory": cwd,
        "worktree": cwd,
        "input": input,
    });
    if let Some(output) = output {
        payload["output"] = output;
    }
    payload
}

fn created(session: &str, cwd: &Path) -> Value {
    let info = json!({ "id": session, "slug": "clever-cactus", "version": "1.18.33", "projectID": "global",
        "directory": cwd, "title": "New session - 2026-12-04T23:43:32.368Z",
        "time": { "created": 1796427812368u64, "updated": 1796427812368u64 } });
    let event = json!({ "id": "evt_243710e110016BWiZl4ERJu9wn", "type": "session.created",
        "properties": { "sessionID": session, "info": info } });
    payload(session, cwd, "session.created", event, None)
}

impl HookFixtures for OpenCode {
    fn adapter(&self) -> &'static dyn HarnessAdapter {
        &adapter_opencode::OpenCodeAdapter
    }

    fn stores(&self) -> &dyn OpenStore {
        &SqliteStores
    }

    fn session_start(&self, session: &str, cwd: &Path) -> Value {
        created(session, cwd)
    }

    /// The plugin forwards `session.created` once per process; a repeat keeps what was given.
    fn resumed_start(&self, session: &str, cwd: &Path) -> Value {
        created(session, cwd)
    }

    /// A session met again in a new OpenCode process: the plugin's notes were never saved in it.
    fn compacted_start(&self, session: &str, cwd: &Path) -> Option<Value> {
        Some(payload(session, cwd, "session.continued", json!({ "sessionID": session }), None))
    }

    fn prompt(&self, session: &str, cwd: &Path, prompt: &str) -> Value {
        let message = json!({ "id": "msg_243710ed5001TTiHBswPNXFY6w", "role": "user", "sessionID": session,
            "time": { "created": 1796427812565u64 }, "agent": "build",
            "model": { "providerID": "local", "modelID": "scripted" } });
        let parts = json!([{ "type": "text", "text": prompt, "messageID": "msg_243710ed5001TTiHBswPNXFY6w",
            "sessionID": session, "id": "prt_243710ee40017xAcaN9cP5hx95" }]);
        let output = json!({ "message": message, "parts": parts });
        payload(session, cwd, "chat.message", json!({ "sessionID": session }), Some(output))
    }

    fn tool_call(&self, session: &str, cwd: &Path, command: &str) -> Value {
        let args = json!({ "command": command, "description": "run it" });
        let input = json!({ "tool": "bash", "sessionID": session, "callID": "call_0", "args": args });
        let output = json!({ "title": command, "output": "done\n",
            "metadata": { "output": "done\n", "exit": 0, "truncated": false } });
        payload(session, cwd, "tool.execute.after", input, Some(output))
    }

    fn session_end(&self, session: &str, cwd: &Path) -> Value {
        let event = json!({ "id": "evt_2", "type": "session.deleted", "properties": { "sessionID": session,
            "info": { "id": session } } });
        payload(session, cwd, "session.deleted", event, None)
    }

    fn wrongly_typed(&self, session: &str, cwd: &Path, secret: &str) -> Value {
        let mut call = self.tool_call(session, cwd, "true");
        call["directory"] = json!([secret]);
        call
    }
}

memory_testkit::hook_runtime_suite!(OpenCode);
