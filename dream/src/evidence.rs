//! Reading tool calls out of events: shell commands, their outcome, files touched.
//!
//! Adapters describe every call in harness-neutral terms (`ToolCall::shell`, `failed`, `files`),
//! so nothing here knows a harness's tool names or payload fields.

use std::sync::LazyLock;

use memory_core::{EventKind, HookEvent};
use regex::Regex;

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

/// The shell command line of a shell tool event, whitespace collapsed.
pub(crate) fn shell_command(event: &HookEvent) -> Option<String> {
    let shell = event.tool.as_ref()?.shell.as_ref()?;
    let collapsed = shell.command.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_empty() {
        return None;
    }
    Some(collapsed.chars().take(MAX_COMMAND_CHARS).collect())
}

/// The outcome of a finished tool call (`None` for events that are not a tool's result): failed
/// when the adapter says so (`ToolCall::failed`) or the shell command's exit code is not 0. A
/// result whose harness says neither counts as a success.
pub(crate) fn outcome(event: &HookEvent) -> Option<Outcome> {
    match event.kind {
        EventKind::PostToolUseFailure => Some(Outcome::Failed),
        EventKind::PostToolUse => {
            let tool = event.tool.as_ref()?;
            let exit_code = tool.shell.as_ref().and_then(|shell| shell.exit_code);
            match (tool.failed, exit_code) {
                (Some(true), _) => Some(Outcome::Failed),
                (None, Some(code)) if code != 0 => Some(Outcome::Failed),
                _ => Some(Outcome::Succeeded),
            }
        }
        _ => None,
    }
}

/// The error text of a failed tool call.
pub(crate) fn error_text(event: &HookEvent) -> String {
    event.tool.as_ref().and_then(|tool| tool.error.clone()).unwrap_or_default()
}

/// Lines that open an error message: `error: …`, `error[E0425]: …`, `ModuleNotFoundError: …`.
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:error|fatal|panic)\b|\berror\[|\b\w+(?:Error|Exception):|^E\s+\w+|^[x×✗✘]\s+[A-Z]")
        .expect("the error pattern compiles")
});

/// Lines that only say a run failed, not why: `FAILURE: Build failed with an exception.`, `BUILD
/// FAILED`, `npm ERR! code ELIFECYCLE`, `make: *** [build] Error 2`, `Command failed with exit
/// code 1`, turbo's `ERROR  run failed`, bun's `error: script "build" exited with code 1`.
static GENERIC_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)^(?:failure: )?build failed\b|failed with an exception|^npm err! (?:code|errno|lifecycle|command failed)\b|^make(?:\[\d+\])?: \*\*\*|^(?:error:? )?command failed with exit code|^process (?:completed|finished|exited) with (?:exit )?code|^error: (?:build|command|process) failed\b|^error:? +run failed\b|\belifecycle +command failed\b|^error: script "[^"]+" exited with code"#,
    )
    .expect("the generic-failure pattern compiles")
});

/// Words that say why something failed: a requirement, something missing or refused.
static CAUSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:requires?|required|not found|cannot|can't|could not|couldn't|unable to|no such|missing|denied|unsupported|incompatible|invalid|undefined|not installed|mismatch|expected)\b",
    )
    .expect("the cause pattern compiles")
});

/// The most telling line of an error: the first that opens an error message, else the first
/// mentioning "error", else the first non-empty line that is not part of a harness's banner
/// (`Exit code N`, Codex's `Wall time:` and `Output:`). A line that only says the run failed
/// (a build tool's banner, [`GENERIC_FAILURE`]) gives way to the first line after it that says
/// why ([`CAUSE`]: "Android Gradle plugin requires Java 17 to run"), else the closest before it. Backticks become quotes; at
/// most 160 characters.
pub(crate) fn error_signature(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| {
            let lower = l.trim().to_ascii_lowercase();
            !lower.is_empty()
                && !lower.starts_with("exit code")
                && !lower.starts_with("wall time:")
                && lower != "output:"
        })
        .collect();
    let at = lines
        .iter()
        .position(|l| ERROR_LINE.is_match(l.trim_start()))
        .or_else(|| lines.iter().position(|l| l.to_ascii_lowercase().contains("error")))
        // No line says error: the first that says what went wrong ("… could not resolve …"),
        // not a banner (`turbo 2.3.3`).
        .or_else(|| lines.iter().position(|l| CAUSE.is_match(l)))
        .or_else(|| (!lines.is_empty()).then_some(0));
    // A banner gives way to the line after it that says why, else to the closest before it (a
    // task runner's summary closes the output: `ERROR  run failed: command  exited (1)`).
    let at = at.map(|at| {
        if GENERIC_FAILURE.is_match(lines[at].trim()) {
            let says_why = |l: &&str| CAUSE.is_match(l) && !GENERIC_FAILURE.is_match(l.trim());
            lines
                .iter()
                .skip(at + 1)
                .position(says_why)
                .map(|after| at + 1 + after)
                .or_else(|| lines[..at].iter().rposition(says_why))
                .unwrap_or(at)
        } else {
            at
        }
    });
    let line = at.map_or("failed", |at| lines[at]).trim().trim_start_matches(['>', '*', ' ']);
    line.replace('`', "'").chars().take(160).collect()
}

/// Test runners' lines naming a failed test: pytest `FAILED path::test_x - …`, cargo
/// `test tests::x ... FAILED`, go `--- FAIL: TestX`, jest `● Suite › case`.
static FAILED_TEST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^FAILED \S*?::(?P<pytest>[\w\[\]./-]+)|^test (?P<cargo>[\w:]+) \.\.\. FAILED\b|^\s*--- FAIL: (?P<go>\S+)|^\s*● (?P<jest>[^\n›]+›[^\n]+)",
    )
    .expect("the failed-test pattern compiles")
});
/// Most failed tests named for one failure.
const MAX_FAILED_TESTS: usize = 3;

/// The tests a runner's output reports as failed, in order, without repeats.
pub(crate) fn failed_tests(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for captures in FAILED_TEST.captures_iter(text) {
        let Some(name) = ["pytest", "cargo", "go", "jest"].iter().find_map(|g| captures.name(g)) else {
            continue;
        };
        let name = name.as_str().trim().replace('`', "'");
        if !out.contains(&name) && out.len() < MAX_FAILED_TESTS {
            out.push(name);
        }
    }
    out
}

/// Files a tool result or a reported edit touched, relative to the session's working directory
/// when inside it.
pub(crate) fn touched_files(event: &HookEvent) -> Vec<(FileAction, String)> {
    if !matches!(event.kind, EventKind::PostToolUse | EventKind::FileEdited) {
        return Vec::new();
    }
    let Some(tool) = event.tool.as_ref() else { return Vec::new() };
    let relative = |path: &str| -> String {
        match event.cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd.trim_end_matches('/'))) {
            Some(rest) if rest.starts_with('/') => rest.trim_start_matches('/').to_owned(),
            _ => path.to_owned(),
        }
    };
    tool.files
        .iter()
        .filter_map(|file| {
            let action = match file.action {
                memory_core::FileAction::Edited => FileAction::Edited,
                memory_core::FileAction::Read => FileAction::Read,
                _ => return None,
            };
            Some((action, relative(file.path.trim())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{error_signature, failed_tests};

    #[test]
    fn a_build_tools_banner_gives_way_to_the_line_that_says_why() {
        for (output, expected) in [
            (
                "FAILURE: Build failed with an exception.\n\n* What went wrong:\nA problem occurred configuring project ':app'.\n> Android Gradle plugin requires Java 17 to run. You are currently using Java 11.",
                "Android Gradle plugin requires Java 17 to run. You are currently using Java 11.",
            ),
            (
                "npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! Missing script: \"build\"",
                "npm ERR! Missing script: \"build\"",
            ),
            (
                "BUILD FAILED in 3s\nCould not resolve all files for configuration ':app:debugRuntimeClasspath'.",
                "Could not resolve all files for configuration ':app:debugRuntimeClasspath'.",
            ),
            ("Command failed with exit code 1.\nsh: tsc: command not found", "sh: tsc: command not found"),
            // A task runner's summary closes the output: the reason came before it.
            (
                "web:build: Failed to compile.\nweb:build: Type error: Cannot find module '@acme/ui' or its corresponding type declarations.\nweb:build:  ELIFECYCLE  Command failed with exit code 1.\n ERROR  run failed: command  exited (1)",
                "web:build: Type error: Cannot find module '@acme/ui' or its corresponding type declarations.",
            ),
            (
                "$ tsc -p .\nsrc/cart.ts(3,10): Cannot find name 'Money'.\nerror Command failed with exit code 2.",
                "src/cart.ts(3,10): Cannot find name 'Money'.",
            ),
            (
                "$ esbuild src/main.ts --bundle\n✘ [ERROR] Could not resolve \"lodash-es\"\n\nerror: script \"build\" exited with code 1",
                "✘ [ERROR] Could not resolve \"lodash-es\"",
            ),
        ] {
            assert_eq!(error_signature(output), expected, "{output}");
        }
        // A banner with no reason after it stays; an error that says why is kept as it was.
        assert_eq!(error_signature("BUILD FAILED in 3s\n12 actionable tasks"), "BUILD FAILED in 3s");
        assert_eq!(
            error_signature("error[E0425]: cannot find value `x`\nerror: could not compile `app`"),
            "error[E0425]: cannot find value 'x'"
        );
    }

    #[test]
    fn failed_tests_are_named_from_each_runners_output() {
        let pytest = "F....\n______ test_due_date ______\nFAILED tests/test_invoices.py::test_due_date - AssertionError: x\n1 failed";
        assert_eq!(failed_tests(pytest), ["test_due_date"]);
        let cargo = "running 2 tests\ntest parse::tests::cents ... FAILED\ntest parse::tests::zero ... ok\n";
        assert_eq!(failed_tests(cargo), ["parse::tests::cents"]);
        let go = "=== RUN   TestTotal\n--- FAIL: TestTotal (0.00s)\nFAIL";
        assert_eq!(failed_tests(go), ["TestTotal"]);
        let jest = "  ● Cart › shows the total\n\n    expect(received).toBe(expected)";
        assert_eq!(failed_tests(jest), ["Cart › shows the total"]);
        assert!(failed_tests("error: linking with `cc` failed: exit status: 1").is_empty());
    }
}
