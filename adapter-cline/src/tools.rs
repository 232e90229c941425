//! What a Cline tool call does, in harness-neutral terms: its shell command, the files it touches
//! and whether it failed.
//!
//! `run_commands` takes a list of commands and returns one `{query, result, error?, success}` per
//! command; a command that exits nonzero has `success: false` and `error: "Command exited with
//! code N"`, while the call as a whole still reports success. `read_files` takes
//! `files: [{path}]`, `editor` a `path`. The editor extension's tools (`execute_command`,
//! `read_file`, `write_to_file`, `replace_in_file`) take `command` or `path`.

use memory_core::{FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// Fills the call's shell command and files from its input.
pub(crate) fn describe(tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    let text =
        |key: &str| input.and_then(|i| i.get(key)).and_then(Value::as_str).filter(|s| !s.trim().is_empty());
    match tool.name.as_str() {
        "run_commands" | "execute_command" => {
            let commands: Vec<&str> = match input.and_then(|i| i.get("commands").or_else(|| i.get("command")))
            {
                Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
                Some(Value::String(one)) => vec![one.as_str()],
                _ => Vec::new(),
            };
            let commands: Vec<&str> = commands.into_iter().filter(|c| !c.trim().is_empty()).collect();
            tool.shell = (!commands.is_empty()).then(|| ShellCall::new(commands.join("\n")));
        }
        "read_files" => {
            tool.files = input
                .and_then(|i| i.get("files"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|f| f.get("path").and_then(Value::as_str).or_else(|| f.as_str()))
                .filter(|p| !p.trim().is_empty())
                .map(|p| FileTouch::new(p, FileAction::Read))
                .collect();
        }
        "read_file" => {
            tool.files = text("path").map(|p| vec![FileTouch::new(p, FileAction::Read)]).unwrap_or_default()
        }
        "editor" | "write_to_file" | "replace_in_file" => {
            tool.files =
                text("path").map(|p| vec![FileTouch::new(p, FileAction::Edited)]).unwrap_or_default();
        }
        _ => {}
    }
}

/// Fills whether a finished call failed, why, and a failed command's exit code. `error` is what
/// the harness says went wrong with the call as a whole.
pub(crate) fn settle(tool: &mut ToolCall, error: Option<&str>) {
    let items: Vec<&Value> = match tool.output.as_ref() {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(item @ Value::Object(_)) => vec![item],
        _ => Vec::new(),
    };
    let failed: Vec<&Value> = items
        .into_iter()
        .filter(|item| item.get("success").and_then(Value::as_bool) == Some(false))
        .collect();
    let error = error.map(str::trim).filter(|e| !e.is_empty());
    if failed.is_empty() && error.is_none() {
        tool.failed = Some(false);
        return;
    }
    tool.failed = Some(true);
    let said: Vec<&str> = failed
        .iter()
        .filter_map(|item| {
            let text = |key: &str| item.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty());
            text("result").or_else(|| text("error"))
        })
        .collect();
    tool.error = if said.is_empty() { error.map(str::to_owned) } else { Some(said.join("\n")) };
    let code = failed.iter().filter_map(|item| item.get("error").and_then(Value::as_str)).find_map(exit_code);
    if let (Some(shell), Some(code)) = (tool.shell.as_mut(), code) {
        shell.exit_code = Some(code);
    }
}

/// The code in `Command exited with code N`.
fn exit_code(error: &str) -> Option<i64> {
    let (_, rest) = error.split_once("exited with code ")?;
    rest.split(|c: char| !(c.is_ascii_digit() || c == '-')).next()?.parse().ok()
}
