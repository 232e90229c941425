//! What an OpenCode tool call does, in harness-neutral terms.
//!
//! OpenCode's built-in tools take camelCase input: `bash {command, description}`, `read
//! {filePath}`, `edit {filePath, oldString, newString}`, `write {filePath, content}`.

use memory_core::{FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// Fills `shell` and `files` from the call's name and input.
pub(crate) fn describe(tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    let text =
        |key: &str| input.and_then(|i| i.get(key)).and_then(Value::as_str).filter(|s| !s.trim().is_empty());
    match tool.name.as_str() {
        "bash" => tool.shell = text("command").map(ShellCall::new),
        "read" => {
            tool.files =
                text("filePath").map(|p| vec![FileTouch::new(p, FileAction::Read)]).unwrap_or_default()
        }
        "edit" | "write" | "multiedit" => {
            tool.files =
                text("filePath").map(|p| vec![FileTouch::new(p, FileAction::Edited)]).unwrap_or_default();
        }
        _ => {}
    }
}

/// A finished call: a shell command's exit code from the result's `metadata.exit`, and whether
/// it failed (a nonzero exit; OpenCode reports other tools' errors apart, as `tool.failed`).
pub(crate) fn result(tool: &mut ToolCall, metadata: &Value) {
    let exit_code = metadata.get("exit").and_then(Value::as_i64).filter(|_| tool.shell.is_some());
    if let (Some(shell), Some(code)) = (tool.shell.as_mut(), exit_code) {
        shell.exit_code = Some(code);
    }
    let failed = exit_code.is_some_and(|code| code != 0);
    if failed {
        tool.error = tool.output.as_ref().and_then(Value::as_str).map(str::to_owned);
    }
    tool.failed = Some(failed);
}
