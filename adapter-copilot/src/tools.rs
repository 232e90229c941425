//! What a Copilot CLI tool call does, in harness-neutral terms: its shell command, the files it
//! touches and whether it failed.

use claude_protocol::shell_command;
use memory_core::{EventKind, FileAction, FileTouch, ShellCall, ToolCall};
use serde_json::Value;

/// What ends a shell command's output for the model: `<shellId: 0 completed with exit code 2>`.
const EXIT_MARK: &str = "completed with exit code ";

/// Fills the normalised fields of a call from Copilot's tool names (Claude Code's in PascalCase
/// events, Copilot's own in camelCase ones) and input shapes.
pub(crate) fn describe(kind: &EventKind, tool: &mut ToolCall) {
    let input = tool.input.as_ref();
    let file = |action| {
        ["path", "file_path"]
            .iter()
            .find_map(|key| input.and_then(|i| i.get(*key)).and_then(Value::as_str))
            .filter(|p| !p.trim().is_empty())
            .map(|path| vec![FileTouch::new(path, action)])
            .unwrap_or_default()
    };
    match tool.name.as_str() {
        "Bash" | "bash" => tool.shell = input.and_then(shell_command).map(ShellCall::new),
        "Read" | "view" => tool.files = file(FileAction::Read),
        "Edit" | "Write" | "edit" | "create" => tool.files = file(FileAction::Edited),
        _ => {}
    }
    match kind {
        EventKind::PostToolUseFailure => tool.failed = Some(true),
        EventKind::PostToolUse => {
            let result = tool.output.as_ref();
            let field = |snake: &str, camel: &str| {
                result.and_then(|r| r.get(snake).or_else(|| r.get(camel))).and_then(Value::as_str)
            };
            let text = field("text_result_for_llm", "textResultForLlm");
            let exit_code = text.filter(|_| tool.shell.is_some()).and_then(exit_code);
            if let (Some(shell), Some(code)) = (tool.shell.as_mut(), exit_code) {
                shell.exit_code = Some(code);
            }
            let not_success = field("result_type", "resultType").is_some_and(|t| t != "success");
            let failed = not_success || exit_code.is_some_and(|code| code != 0);
            tool.failed = Some(failed);
            if failed {
                tool.error = text.map(str::to_owned);
            }
        }
        _ => {}
    }
}

/// The exit code in the last `… completed with exit code N>` of a shell command's output.
fn exit_code(text: &str) -> Option<i64> {
    let at = text.rfind(EXIT_MARK)?;
    let rest = &text[at + EXIT_MARK.len()..];
    rest.split(|c: char| !c.is_ascii_digit() && c != '-').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_end_the_output() {
        assert_eq!(exit_code("a\n<shellId: 0 completed with exit code 0>"), Some(0));
        assert_eq!(exit_code("x\n<shellId: 3 completed with exit code 127>"), Some(127));
        assert_eq!(exit_code("no banner"), None);
    }
}
