//! Reading the tool inputs and outputs Claude-shaped harnesses share.

use serde_json::Value;

/// The command line of a shell tool's input: its `command` (or `cmd`), given as a string or as an
/// argv. An argv that wraps a script in a shell (`["bash", "-lc", "cargo test"]`) gives the
/// script; another argv is joined with spaces. `None` when there is no non-blank command.
pub fn shell_command(input: &Value) -> Option<String> {
    let command = match input.get("command").or_else(|| input.get("cmd"))? {
        Value::String(command) => command.clone(),
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
    (!command.trim().is_empty()).then_some(command)
}

/// The exit code a tool's output text opens with: `Exit code 2` (Claude Code's text for a failed
/// command) or `Exit code: 1` (the banner of Codex's shell and patch output), on the first line.
pub fn leading_exit_code(text: &str) -> Option<i64> {
    let first = text.lines().map(str::trim).find(|line| !line.is_empty())?;
    let rest = first.strip_prefix("Exit code")?;
    rest.strip_prefix(':').unwrap_or(rest).trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn commands_come_as_strings_or_argvs() {
        assert_eq!(shell_command(&json!({"command": "cargo test"})).as_deref(), Some("cargo test"));
        assert_eq!(shell_command(&json!({"cmd": "ls -la"})).as_deref(), Some("ls -la"));
        assert_eq!(
            shell_command(&json!({"command": ["bash", "-lc", "cargo test && ls"]})).as_deref(),
            Some("cargo test && ls")
        );
        assert_eq!(shell_command(&json!({"command": ["git", "status"]})).as_deref(), Some("git status"));
        assert_eq!(shell_command(&json!({"command": " "})), None);
        assert_eq!(shell_command(&json!({"command": 5})), None);
        assert_eq!(shell_command(&json!("ls")), None);
    }

    #[test]
    fn exit_codes_open_the_output() {
        assert_eq!(leading_exit_code("Exit code 2\nls: cannot access"), Some(2));
        assert_eq!(leading_exit_code("Exit code: 1\nWall time: 0.2 seconds\nOutput:\n"), Some(1));
        assert_eq!(leading_exit_code("\nExit code: 0\n"), Some(0));
        assert_eq!(leading_exit_code("ls: cannot access '/x'\nExit code 2"), None);
        assert_eq!(leading_exit_code("Exit code unknown"), None);
    }
}
