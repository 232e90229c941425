//! What a droid tool call does, in harness-neutral terms: its shell command and exit code, the
//! files it touches and whether it failed.

use claude_protocol::shell_command;
use memory_core::{EventKind, FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// Fills the normalised fields of a call from droid's tool names and input shapes.
///
/// Droid fires `PostToolUse` only for a call that succeeded (a failed one leaves its `PreToolUse`
/// alone), so a `PostToolUse` is a success unless its output reports a nonzero exit.
pub(crate) fn describe(kind: &EventKind, tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    let file = |action| {
        input
            .and_then(|i| i.get("file_path"))
            .and_then(Value::as_str)
            .filter(|p| !p.trim().is_empty())
            .map(|path| vec![FileTouch::new(path, action)])
            .unwrap_or_default()
    };
    match tool.name.as_str() {
        "Execute" => tool.shell = input.and_then(shell_command).map(ShellCall::new),
        "Create" | "Edit" | "MultiEdit" => tool.files = file(FileAction::Edited),
        "Read" => tool.files = file(FileAction::Read),
        _ => {}
    }
    if *kind != EventKind::PostToolUse {
        return;
    }
    let exit_code = tool.output.as_ref().and_then(Value::as_str).and_then(exit_code);
    if let (Some(shell), Some(code)) = (tool.shell.as_mut(), exit_code) {
        shell.exit_code = Some(code);
    }
    tool.failed = Some(tool.shell.as_ref().and_then(|s| s.exit_code).is_some_and(|code| code != 0));
}

/// The exit code of the `[Process exited with code N]` line that closes `Execute`'s output.
fn exit_code(text: &str) -> Option<i64> {
    let last = text.lines().map(str::trim).rfind(|line| !line.is_empty())?;
    last.strip_prefix("[Process exited with code ")?.strip_suffix(']')?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::exit_code;

    #[test]
    fn the_closing_line_gives_the_exit_code() {
        assert_eq!(exit_code("README.md\n\n\n[Process exited with code 0]"), Some(0));
        assert_eq!(exit_code("Error: Command failed\n[Process exited with code 2]\n"), Some(2));
        assert_eq!(exit_code("[Process exited with code 2]\nmore"), None);
        assert_eq!(exit_code("[Process exited with code x]"), None);
        assert_eq!(exit_code(""), None);
    }
}
