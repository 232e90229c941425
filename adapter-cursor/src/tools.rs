//! What a Cursor tool call does, in harness-neutral terms: its shell command, the files it
//! touches and whether it failed.
//!
//! Cursor reports each shell command twice: as its `Shell` tool in the generic `preToolUse` and
//! `postToolUse` (or `postToolUseFailure`), and again in `beforeShellExecution` and
//! `afterShellExecution`. Only the generic events are described here, so a command is counted
//! once: they carry the call id, the exit code and a failure event of their own, which the
//! shell-specific events lack.

use memory_core::{FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// Input keys that name the file of a read or write.
const PATH_KEYS: &[&str] = &["file_path", "path", "target_file"];

/// Fills the normalised fields of a call from one of Cursor's generic tool events.
pub(crate) fn describe(event: &str, tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    match tool.name.as_str() {
        "Shell" | "run_terminal_cmd" => {
            tool.shell = input
                .and_then(|i| i.get("command"))
                .and_then(Value::as_str)
                .filter(|c| !c.trim().is_empty())
                .map(ShellCall::new);
        }
        "Read" | "read_file" => tool.files = file(input, FileAction::Read),
        "Write" | "edit_file" => tool.files = file(input, FileAction::Edited),
        _ => {}
    }
    match event {
        "postToolUse" => {
            let output = tool.output.as_ref();
            let exit_code = output
                .and_then(|o| o.get("exitCode").or_else(|| o.get("exit_code")))
                .and_then(Value::as_i64)
                .filter(|_| tool.shell.is_some());
            if let (Some(shell), Some(code)) = (tool.shell.as_mut(), exit_code) {
                shell.exit_code = Some(code);
            }
            let failed = exit_code.is_some_and(|code| code != 0);
            if failed {
                tool.error = output.and_then(error_output);
            }
            tool.failed = Some(failed);
        }
        "postToolUseFailure" => tool.failed = Some(true),
        _ => {}
    }
}

/// The file a call's input names, as one touch.
pub(crate) fn file(input: Option<&Value>, action: FileAction) -> Vec<FileTouch> {
    input
        .and_then(|i| PATH_KEYS.iter().find_map(|key| i.get(*key).and_then(Value::as_str)))
        .filter(|path| !path.is_empty())
        .map(|path| vec![FileTouch::new(path, action)])
        .unwrap_or_default()
}

/// What a failed shell command printed: its stderr, else its stdout.
fn error_output(output: &Value) -> Option<String> {
    ["stderr", "stdout"]
        .iter()
        .filter_map(|key| output.get(*key).and_then(Value::as_str))
        .find(|text| !text.trim().is_empty())
        .map(str::to_owned)
}
