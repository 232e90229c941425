//! Reading tool calls out of events: shell commands, their outcome, files touched.
//!
//! Harnesses name tools differently (Claude Code `Bash`/`Edit`, Codex `shell`/`apply_patch`, Cursor
//! `run_terminal_cmd`); these helpers accept the common spellings.

use memory_core::{EventKind, HookEvent};
use serde_json::Value;

/// Longest shell command kept, in characters.
const MAX_COMMAND_CHARS: usize = 300;

/// Whether a tool call finished well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Succeeded,
    Failed,
}

/// How a file was touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum FileAction {
    Edited,
    Read,
}

fn is_shell_tool(name: &str) -> bool {
    matches!(
        name,
        "Bash"
            | "bash"
            | "shell"
            | "Shell"
            | "exec_command"
            | "local_shell"
            | "run_terminal_cmd"
            | "terminal"
    )
}

/// The shell command line of a shell tool event, whitespace collapsed.
pub(crate) fn shell_command(event: &HookEvent) -> Option<String> {
    let tool = event.tool.as_ref()?;
    if !is_shell_tool(&tool.name) {
        return None;
    }
    let input = tool.input.as_ref()?;
    let command = match input.get("command").or_else(|| input.get("cmd")).unwrap_or(input) {
        Value::String(s) => s.clone(),
        Value::Array(parts) => {
            let parts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                    (*script).to_owned()
                }
                _ => parts.join(" "),
            }
        }
        _ => return None,
    };
    let collapsed = command.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_empty() {
        return None;
    }
    Some(collapsed.chars().take(MAX_COMMAND_CHARS).collect())
}

/// The outcome of a finished tool call (`None` for events that are not a tool's result).
pub(crate) fn outcome(event: &HookEvent) -> Option<Outcome> {
    match event.kind {
        EventKind::PostToolUseFailure => Some(Outcome::Failed),
        EventKind::PostToolUse => {
            let tool = event.tool.as_ref()?;
            let exit_code = tool
                .output
                .as_ref()
                .and_then(|o| o.get("exit_code").or_else(|| o.get("exitCode")).and_then(Value::as_i64));
            if tool.error.is_some() || exit_code.is_some_and(|code| code != 0) {
                Some(Outcome::Failed)
            } else {
                Some(Outcome::Succeeded)
            }
        }
        _ => None,
    }
}

/// The error text of a failed tool call.
pub(crate) fn error_text(event: &HookEvent) -> String {
    let Some(tool) = event.tool.as_ref() else { return String::new() };
    if let Some(error) = &tool.error {
        return error.clone();
    }
    match tool.output.as_ref() {
        Some(Value::String(s)) => s.clone(),
        Some(output) => ["stderr", "stdout", "output"]
            .iter()
            .filter_map(|key| output.get(*key).and_then(Value::as_str))
            .find(|s| !s.trim().is_empty())
            .unwrap_or_default()
            .to_owned(),
        None => String::new(),
    }
}

/// The most telling line of an error: the first mentioning "error", else the first non-empty line
/// that is not an `Exit code N` banner. Backticks become quotes; at most 160 characters.
pub(crate) fn error_signature(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.to_ascii_lowercase().starts_with("exit code"))
        .collect();
    let line = lines
        .iter()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| lines.first())
        .copied()
        .unwrap_or("failed");
    line.replace('`', "'").chars().take(160).collect()
}

/// Files a tool result touched, relative to the session's working directory when inside it.
pub(crate) fn touched_files(event: &HookEvent) -> Vec<(FileAction, String)> {
    let relative = |path: &str| -> String {
        match event.cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd.trim_end_matches('/'))) {
            Some(rest) if rest.starts_with('/') => rest.trim_start_matches('/').to_owned(),
            _ => path.to_owned(),
        }
    };
    let path_of = |input: &Value| -> Option<String> {
        ["file_path", "path", "notebook_path", "target_file"]
            .iter()
            .find_map(|key| input.get(*key).and_then(Value::as_str))
            .filter(|p| !p.is_empty())
            .map(relative)
    };
    if event.kind == EventKind::FileEdited {
        let from_tool = event.tool.as_ref().and_then(|t| t.input.as_ref()).and_then(path_of);
        return from_tool
            .or_else(|| path_of(&event.raw))
            .map(|p| vec![(FileAction::Edited, p)])
            .unwrap_or_default();
    }
    if event.kind != EventKind::PostToolUse {
        return Vec::new();
    }
    let Some(tool) = event.tool.as_ref() else { return Vec::new() };
    let Some(input) = tool.input.as_ref() else { return Vec::new() };
    match tool.name.as_str() {
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "edit_file" | "write_file" | "write" | "edit" => {
            path_of(input).map(|p| vec![(FileAction::Edited, p)]).unwrap_or_default()
        }
        "Read" | "read_file" | "read" | "view" => {
            path_of(input).map(|p| vec![(FileAction::Read, p)]).unwrap_or_default()
        }
        "apply_patch" => {
            let patch = match input {
                Value::String(s) => s.as_str(),
                other => ["input", "patch", "command"]
                    .iter()
                    .find_map(|key| other.get(*key).and_then(Value::as_str))
                    .unwrap_or_default(),
            };
            patch
                .lines()
                .filter_map(|line| {
                    ["*** Add File: ", "*** Update File: "].iter().find_map(|p| line.strip_prefix(p))
                })
                .map(|p| (FileAction::Edited, relative(p.trim())))
                .collect()
        }
        _ => Vec::new(),
    }
}
