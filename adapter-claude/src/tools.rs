//! What a Claude Code tool call does, in harness-neutral terms: its shell command, the files it
//! touches and whether it failed.

use claude_protocol::{leading_exit_code, shell_command};
use memory_core::{EventKind, FileAction, FileTouch, ShellCall, ToolCall};

/// Fills the normalised fields of a call from Claude Code's tool names and input shapes.
///
/// A failed call fires `PostToolUseFailure` (a Bash command that exits nonzero too, with an
/// `error` that opens with `Exit code N`), so `PostToolUse` is a success.
pub(crate) fn describe(kind: &EventKind, tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    let file = |key: &str, action| {
        input
            .and_then(|i| i.get(key))
            .and_then(|p| p.as_str())
            .filter(|p| !p.is_empty())
            .map(|path| vec![FileTouch::new(path, action)])
    };
    match tool.name.as_str() {
        "Bash" => tool.shell = input.and_then(shell_command).map(ShellCall::new),
        "Edit" | "MultiEdit" | "Write" => {
            tool.files = file("file_path", FileAction::Edited).unwrap_or_default()
        }
        "NotebookEdit" => tool.files = file("notebook_path", FileAction::Edited).unwrap_or_default(),
        "Read" => tool.files = file("file_path", FileAction::Read).unwrap_or_default(),
        _ => {}
    }
    tool.failed = match kind {
        EventKind::PostToolUse => Some(false),
        EventKind::PostToolUseFailure => Some(true),
        _ => None,
    };
    if *kind == EventKind::PostToolUseFailure
        && let Some(shell) = tool.shell.as_mut()
    {
        shell.exit_code = tool.error.as_deref().and_then(leading_exit_code);
    }
}
