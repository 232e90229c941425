//! What a Gemini CLI tool call does, in harness-neutral terms: its shell command, the files it
//! touches and whether it failed. Qwen Code, a fork of Gemini CLI, kept these tool names and shapes;
//! its adapter describes its calls with [`describe`] too.

use claude_protocol::shell_command;
use memory_core::{EventKind, FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// Fills the normalised fields of a call from Gemini's tool names and input shapes (Qwen Code, a
/// fork, kept them).
///
/// AfterTool fires for failed calls too: `tool_response.error` is set when the tool itself failed,
/// and a shell command's `llmContent` carries an `Exit Code: N` line when it exited nonzero.
pub fn describe(kind: &EventKind, tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    let file = |action| {
        ["file_path", "absolute_path", "path"]
            .iter()
            .find_map(|key| input.and_then(|i| i.get(*key)).and_then(Value::as_str))
            .filter(|p| !p.trim().is_empty())
            .map(|path| vec![FileTouch::new(path, action)])
            .unwrap_or_default()
    };
    match tool.name.as_str() {
        "run_shell_command" => tool.shell = input.and_then(shell_command).map(ShellCall::new),
        "replace" | "write_file" | "edit" => tool.files = file(FileAction::Edited),
        "read_file" => tool.files = file(FileAction::Read),
        _ => {}
    }
    if *kind != EventKind::PostToolUse {
        return;
    }
    let response = tool.output.as_ref();
    let error = response.and_then(|r| r.get("error")).filter(|e| !e.is_null()).map(error_text);
    let exit_code = response
        .and_then(|r| r.get("llmContent"))
        .and_then(Value::as_str)
        .filter(|_| tool.shell.is_some())
        .and_then(exit_code_line);
    if let (Some(shell), Some(code)) = (tool.shell.as_mut(), exit_code) {
        shell.exit_code = Some(code);
    }
    let failed = error.is_some() || exit_code.is_some_and(|code| code != 0);
    tool.failed = Some(failed);
    tool.error = error.or_else(|| {
        failed.then(|| {
            response.and_then(|r| r.get("llmContent")).and_then(Value::as_str).unwrap_or("").to_owned()
        })
    });
}

/// An `error` value as text: a string, or the `message` of an object, or the JSON itself.
fn error_text(error: &Value) -> String {
    match error {
        Value::String(text) => text.clone(),
        other => {
            other.get("message").and_then(Value::as_str).map_or_else(|| other.to_string(), str::to_owned)
        }
    }
}

/// The exit code of an `Exit Code: N` line in a shell command's output for the model.
pub fn exit_code_line(text: &str) -> Option<i64> {
    text.lines().find_map(|line| line.trim().strip_prefix("Exit Code:")?.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn after(name: &str, input: Value, response: Value) -> ToolCall {
        let mut tool = ToolCall {
            name: name.to_owned(),
            input: Some(input),
            output: Some(response),
            ..ToolCall::default()
        };
        describe(&EventKind::PostToolUse, &mut tool);
        tool
    }

    #[test]
    fn shell_exit_codes_and_errors_decide_failure() {
        let ok = after("run_shell_command", json!({"command": "ls"}), json!({"llmContent": "Output: a\n"}));
        assert_eq!((ok.failed, ok.shell.unwrap().command.as_str()), (Some(false), "ls"));
        let failed = after(
            "run_shell_command",
            json!({"command": "ls x"}),
            json!({"llmContent": "Output: ls: x: No such file\nExit Code: 2\n"}),
        );
        assert_eq!((failed.failed, failed.shell.as_ref().unwrap().exit_code), (Some(true), Some(2)));
        assert!(failed.error.unwrap().contains("No such file"));
        let error =
            after("read_file", json!({"file_path": "/p/x"}), json!({"error": {"message": "not found"}}));
        assert_eq!((error.failed, error.error.as_deref()), (Some(true), Some("not found")));
        assert_eq!(error.files[0].path, "/p/x");
    }
}
