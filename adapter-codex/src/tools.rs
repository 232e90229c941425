//! What a Codex tool call does, in harness-neutral terms: its shell command or patch, the files
//! it touches and, where Codex tells, whether it failed.

use claude_protocol::{leading_exit_code, shell_command};
use memory_core::{EventKind, FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// Lines of an `apply_patch` patch that name a file it writes.
const PATCH_FILE_LINES: &[&str] = &["*** Add File: ", "*** Update File: "];

/// Fills the normalised fields of a call from Codex's tool names and input shapes.
///
/// Codex fires `PostToolUse` for failed calls too. A shell command's response is its output text,
/// which says nothing of the exit code unless it opens with the `Exit code: N` banner of Codex's
/// model-facing output; without it, whether the call failed stays unknown. An MCP tool's response
/// is the MCP result, whose `isError` says.
pub(crate) fn describe(kind: &EventKind, tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    match tool.name.as_str() {
        // `exec_command` arrives as `Bash`; older builds named the shell tool `shell` or
        // `local_shell` and passed an argv.
        "Bash" | "shell" | "local_shell" | "exec_command" => {
            tool.shell = input.and_then(shell_command).map(ShellCall::new);
        }
        "apply_patch" => {
            tool.patch = input.and_then(patch_text);
            tool.files = tool.patch.as_deref().map(patch_files).unwrap_or_default();
        }
        _ => {}
    }
    if *kind != EventKind::PostToolUse {
        return;
    }
    match &tool.output {
        Some(Value::String(text)) if tool.shell.is_some() || tool.patch.is_some() => {
            if let Some(code) = leading_exit_code(text) {
                if let Some(shell) = tool.shell.as_mut() {
                    shell.exit_code = Some(code);
                }
                tool.failed = Some(code != 0);
                if code != 0 {
                    tool.error = Some(text.clone());
                }
            }
        }
        Some(output) if tool.name.starts_with("mcp__") => {
            tool.failed = output.get("isError").and_then(Value::as_bool);
        }
        _ => {}
    }
}

/// The patch of an `apply_patch` input: `{command}` (or `{input}`, `{patch}`), or the input itself
/// when it is a string.
fn patch_text(input: &Value) -> Option<String> {
    let text = match input {
        Value::String(text) => Some(text),
        other => ["command", "input", "patch"].iter().find_map(|key| match other.get(*key) {
            Some(Value::String(text)) => Some(text),
            _ => None,
        }),
    };
    text.filter(|t| !t.trim().is_empty()).cloned()
}

/// The files a patch adds or updates, as the patch names them.
fn patch_files(patch: &str) -> Vec<FileTouch> {
    patch
        .lines()
        .filter_map(|line| PATCH_FILE_LINES.iter().find_map(|prefix| line.strip_prefix(prefix)))
        .map(str::trim)
        .filter(|path| !path.is_empty())
        .map(|path| FileTouch::new(path, FileAction::Edited))
        .collect()
}
