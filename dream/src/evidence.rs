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

/// Lines that open an error message: `error: …`, `error[E0425]: …`, `ModuleNotFoundError: …`,
/// Ruby's `ActionView::Template::Error:`, Python's `django.core.exceptions.ImproperlyConfigured:`.
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:error|fatal|panic)\b|\berror\[|\b\w+(?:Error|Exception):|^E\s+\w+|^[x×✗✘]\s+[A-Z]|^(?-i:[A-Z]\w*(?:::[A-Z]\w*)+|(?:[a-z_]\w*\.)+[A-Z]\w*):",
    )
    .expect("the error pattern compiles")
});

/// A test runner's mark on a failed test (`× Cart > shows the total`): it names the test, not
/// what went wrong, so an error message in the output comes first.
static FAILED_MARK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[x×✗✘]\s+[A-Z]").expect("the failed-mark pattern compiles"));

/// A log line's time stamp (`16:02:12`, `[09:14:03.120]`, `2026-11-03T09:14:03Z`): it tells nothing
/// of the error, and differs from one run of the same failure to the next.
static TIME_STAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\d{4}-\d{2}-\d{2}[T ])?\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s+")
        .expect("the time-stamp pattern compiles")
});

/// Lines that only say a run failed, not why: `FAILURE: Build failed with an exception.`, `BUILD
/// FAILED`, `npm ERR! code ELIFECYCLE`, `make: *** [build] Error 2`, `Command failed with exit
/// code 1`, turbo's `ERROR  run failed`, bun's `error: script "build" exited with code 1`, cargo's
/// `error: test failed, to rerun pass '--lib'`.
static GENERIC_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)^(?:failure: )?build failed\b|^error: test failed\b|failed with an exception|^npm err! (?:code|errno|lifecycle|command failed)\b|^make(?:\[\d+\])?: \*\*\*|^(?:error:? )?command failed with exit code|^process (?:completed|finished|exited) with (?:exit )?code|^error: (?:build|command|process) failed\b|^error:? +run failed\b|\belifecycle +command failed\b|^error: script "[^"]+" exited with code"#,
    )
    .expect("the generic-failure pattern compiles")
});

/// Words that say why something failed: a requirement, something missing or refused, an
/// assertion that did not hold.
static CAUSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:requires?|required|not found|cannot|can't|could not|couldn't|unable to|no such|missing|denied|unsupported|incompatible|invalid|undefined|not installed|not present|not defined|mismatch|expected|assertion|panicked)\b",
    )
    .expect("the cause pattern compiles")
});

/// The most telling line of an error: the first that opens an error message (a test runner's
/// mark on a failed test only when no message does), else the first mentioning "error", else the
/// first that says why ([`CAUSE`]), else the first non-empty line that is not part of a harness's
/// banner (`Exit code N`, Codex's `Wall time:` and `Output:`). A line that only says the run failed
/// (a build tool's banner, [`GENERIC_FAILURE`]) gives way to the first line after it that says
/// why ("Android Gradle plugin requires Java 17 to run"), else the closest before it. A line that
/// introduces the message after it (`ActionView::Template::Error:`, "Encountered an error:") is
/// read with it. Without log time stamps; backticks become quotes; at most 160 characters.
pub(crate) fn error_signature(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| {
            let l = l.trim();
            &l[TIME_STAMP.find(l).map_or(0, |stamp| stamp.end())..]
        })
        .filter(|l| {
            let lower = l.to_ascii_lowercase();
            !lower.is_empty()
                && !lower.starts_with("exit code")
                && !lower.starts_with("wall time:")
                && lower != "output:"
        })
        .collect();
    let opens = |l: &&str| ERROR_LINE.is_match(l);
    let at = lines
        .iter()
        .position(|l| opens(l) && (!FAILED_MARK.is_match(l) || l.to_ascii_lowercase().contains("error")))
        .or_else(|| lines.iter().position(opens))
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
    let Some(at) = at else { return "failed".to_owned() };
    let mut line = lines[at].trim_start_matches(['>', '*', ' ']).to_owned();
    // What a line ending in a colon introduces follows it: up to the line that says why, or a
    // long one, within a few lines; stack frames and decoration say nothing.
    if line.ends_with(':') {
        for next in lines[at + 1..].iter().take(INTRODUCED_LINES) {
            let next = next.trim_matches(['=', '-', ' ', '>', '*']);
            if next.is_empty() || STACK_FRAME.is_match(next) {
                break;
            }
            line.push(' ');
            line.push_str(&next.split_whitespace().collect::<Vec<_>>().join(" "));
            if CAUSE.is_match(next) || next.chars().count() > INTRODUCED_SHORT {
                break;
            }
        }
    }
    line.replace('`', "'").chars().take(160).collect()
}

/// Most lines read after a line that introduces an error message.
const INTRODUCED_LINES: usize = 3;
/// A line after an introducing one at most this long names a kind of error ("Compilation Error"),
/// not yet what went wrong.
const INTRODUCED_SHORT: usize = 40;

/// A stack frame or a source location (`# ./app/views/x.erb:9`, `at render (x.js:3:5)`,
/// `--> src/main.rs:3:5`, `❯ src/x.test.ts:7:5`).
static STACK_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:# \.?/|at \S|❯ |--> |\||File \x22)").expect("the stack-frame pattern compiles")
});

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

    /// Each output's error read as its expected line.
    fn read_as(cases: &[(&str, &str)]) {
        for (output, expected) in cases {
            assert_eq!(error_signature(output), *expected, "{output}");
        }
    }

    #[test]
    fn a_build_tools_banner_gives_way_to_the_line_that_says_why() {
        read_as(&[
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
        ]);
        // A banner with no reason after it stays; an error that says why is kept as it was.
        assert_eq!(error_signature("BUILD FAILED in 3s\n12 actionable tasks"), "BUILD FAILED in 3s");
        assert_eq!(
            error_signature("error[E0425]: cannot find value `x`\nerror: could not compile `app`"),
            "error[E0425]: cannot find value 'x'"
        );
    }

    #[test]
    fn a_line_that_introduces_an_error_is_read_with_the_message_after_it() {
        read_as(&[
            (
                "......F\n\nFailures:\n\n  1) Orders GET /orders renders the list\n     Failure/Error: <%= stylesheet_link_tag \"application\" %>\n\n     ActionView::Template::Error:\n       The asset \"application.css\" is not present in the asset pipeline.\n     # ./app/views/layouts/application.html.erb:9\n",
                "ActionView::Template::Error: The asset \"application.css\" is not present in the asset pipeline.",
            ),
            (
                "16:02:11  Running with dbt=1.8.7\n16:02:12  Encountered an error:\nCompilation Error\n  dbt found 2 package(s) specified in packages.yml, but only 0 package(s) installed in dbt_packages.\n",
                "Encountered an error: Compilation Error dbt found 2 package(s) specified in packages.yml, but only 0 package(s) installed in dbt_packages.",
            ),
            (
                "== 20261110093000 AddIndexToInvoices: migrating ======\nbin/rails aborted!\nStrongMigrations::UnsafeMigration: \n=== Adding an index non-concurrently blocks writes ===\n\nAdd indexes concurrently.\n",
                "StrongMigrations::UnsafeMigration: Adding an index non-concurrently blocks writes",
            ),
            (
                "Traceback (most recent call last):\n  File \"manage.py\", line 22, in <module>\ndjango.core.exceptions.ImproperlyConfigured:\n  Requested setting DEBUG, but settings are not configured.\n",
                "django.core.exceptions.ImproperlyConfigured: Requested setting DEBUG, but settings are not configured.",
            ),
        ]);
        // A message on the line itself is not joined with what follows.
        assert_eq!(
            error_signature("error: linker `cc` not found\n  |\n  = note: No such file or directory"),
            "error: linker 'cc' not found"
        );
    }

    #[test]
    fn an_error_message_comes_before_a_runners_mark_on_the_failed_test() {
        read_as(&[
            (
                " RUN  v2.1.5\n \u{276f} src/PriceTag.test.tsx (2 tests | 1 failed)\n   \u{d7} PriceTag > renders the amount\n     \u{2192} document is not defined\n\nReferenceError: document is not defined\n",
                "ReferenceError: document is not defined",
            ),
            (
                "  \u{2718} Checkout > applies the coupon\nTypeError: Cannot read properties of undefined (reading 'total')\n",
                "TypeError: Cannot read properties of undefined (reading 'total')",
            ),
            (
                " \u{2717} Login > redirects home\n    at Object.<anonymous> (login.test.js:12:5)\nAssertionError: expected '/login' to equal '/'\n",
                "AssertionError: expected '/login' to equal '/'",
            ),
        ]);
        // With no message, the mark is what there is.
        assert_eq!(error_signature("  \u{d7} Cart > shows the total\n"), "\u{d7} Cart > shows the total");
    }

    #[test]
    fn an_assertion_that_failed_says_more_than_the_runners_summary() {
        read_as(&[
            (
                "    Starting 18 tests across 2 binaries\n        FAIL [   0.388s] app::cli list_json\nSnapshot: list_json\n-old snapshot\n+new results\nsnapshot assertion for 'list_json' failed in line 21\n     Summary [   0.801s] 18 tests run: 17 passed, 1 failed\n",
                "snapshot assertion for 'list_json' failed in line 21",
            ),
            (
                "running 1 test\ntest tests::total ... FAILED\n\nthread 'tests::total' panicked at src/lib.rs:12:9:\nassertion `left == right` failed\n  left: 4\n right: 5\n\ntest result: FAILED. 0 passed; 1 failed\n\nerror: test failed, to rerun pass `--lib`\n",
                "assertion 'left == right' failed",
            ),
            (
                "=== RUN   TestParse\n    parse_test.go:14: assertion failed: got 3, want 4\n--- FAIL: TestParse (0.00s)\nFAIL\n",
                "parse_test.go:14: assertion failed: got 3, want 4",
            ),
        ]);
    }

    #[test]
    fn a_log_lines_time_stamp_is_no_part_of_the_error() {
        read_as(&[
            (
                "09:14:03  error: relation \"users\" does not exist",
                "error: relation \"users\" does not exist",
            ),
            ("[09:14:03.120] ERROR connection refused", "ERROR connection refused"),
            ("2026-11-03T09:14:03Z error: disk quota exceeded", "error: disk quota exceeded"),
        ]);
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
