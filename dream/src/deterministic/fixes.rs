//! Error→fix pairs: a shell command that failed, and what happened before the next success of
//! the same operation of the same tool in the same session (or of another tool given the very same
//! arguments, which stands in for it: `cross build --target x` for `cargo build --target x`): how
//! the command changed, the commands run before it (in between, or earlier on the line that
//! passed; not one that only looks around or asks for a version), else the files edited in
//! between with the lines the edits added. A harness that reports no exit code still has its
//! failures read from the output (`error: …`, `BUILD FAILED`, `** (Mix) …`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use memory_core::shell::{self, Invocation};
use memory_core::{EventKind, HookEvent, StoredEvent};
use regex::Regex;
use serde_json::Value;

use crate::evidence::{self, Outcome};

/// Most commands or files named as a fix.
const MAX_FIX_PARTS: usize = 3;
/// Most words of a changed invocation described as what was added or dropped.
const MAX_CHANGED_WORDS: usize = 4;
/// Most lines an edit is described by.
const MAX_EDIT_LINES: usize = 2;
/// Longest line of an edit quoted, in characters.
const MAX_EDIT_LINE: usize = 120;

/// Lines of a command's output that say it failed, for harnesses that report no exit code: an
/// error's opening in a tool's words, a diagnostic's cross (`× Could not resolve workspaces`,
/// `✘ [ERROR] …`), a count of failed or failing tests.
static FAILURE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^\s*(?:(?i:error|fatal)(?:\[[\w-]+\])?:|CMake Error\b|\*\* \([A-Z][\w.]*\)|npm ERR!|Traceback \(most recent call last\)|[\w.]*(?:Error|Exception): |(?:--- )?FAIL\b|(?:go|cargo|rustc|npm|pnpm|yarn|node|python3?|pip3?|uv|poetry|bundler?|gem|rake|mix|dotnet|gradle|mvn|terraform|terragrunt|kubectl|helm|docker|podman|git|make|just|task|bash|sh|zsh|sqlc|dbt|dagster|psql|aws|gcloud):(?: [^\n]*)?\b(?:requires?|cannot|can't|could not|not found|no such|unknown|invalid|missing|denied|unable to)\b)|^\s*[x×✗✘✖]\s+\[?[A-Z][A-Za-z]|\bBUILD FAILED\b|\bFAILED\b|\bFAILURE:|\b[1-9]\d* fail(?:ed|ing)\b|(?i:\bcommand failed\b)|\baborted!",
    )
    .expect("the failure pattern compiles")
});

/// A line that brings names into scope from elsewhere: `import …` (and `import type`),
/// `from x import y`, `use a::b;`, `#include <…>`, `require(…)` bound to a name, `using X;`,
/// `@import`, `extern crate`.
static IMPORT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^(?:import\b|from\s+\S+\s+import\b|(?:pub\s+)?use\s+[\w:{}, *]+;|#\s*(?:include|import)\b|(?:const|let|var)\s+[\w{}, ]+=\s*require\(|require(?:_relative)?[\s(]|using\s+[\w.]+;|@import\b|@use\b|extern\s+crate\b)"#,
    )
    .expect("the import pattern compiles")
});

/// Lines that open an error in a tool's own words: Elixir's `** (Mix) …`, `CMake Error at …`,
/// `npm ERR! …`.
static OPENING_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(?:\*\* \([A-Z][\w.]*\)|CMake Error\b|npm ERR!).*$")
        .expect("the opening pattern compiles")
});

/// The most telling line of an error: the generic reading's, unless it found no error in it and a
/// tool's own opening of an error is there.
fn signature(error: &str) -> String {
    let generic = evidence::error_signature(error);
    let lower = generic.to_ascii_lowercase();
    if lower.contains("error") || lower.contains("exception") || lower.contains("fail") {
        return generic;
    }
    match OPENING_LINE.find(error) {
        Some(line) => line.as_str().trim().replace('`', "'").chars().take(160).collect(),
        None => generic,
    }
}

/// A failure waiting for its success.
#[derive(Debug)]
struct Failure {
    position: u64,
    id: String,
    command: String,
    invocation: Invocation,
    signature: String,
    /// The tests it reported as failed.
    tests: Vec<String>,
    /// Commands that succeeded in between, other than the failing family.
    ran: Vec<String>,
    /// Files edited in between, with the lines the edits added.
    edited: BTreeMap<String, Vec<String>>,
}

/// One error and its fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fix {
    pub(crate) text: String,
    pub(crate) failure_position: u64,
    pub(crate) failure_id: String,
}

/// Failures of each session and family, still open.
#[derive(Debug, Default)]
pub(crate) struct Fixes {
    open: BTreeMap<(String, String), Failure>,
}

impl Fixes {
    /// A file `event` edited.
    pub(crate) fn edited(&mut self, event: &HookEvent, path: &str) {
        let session = event.session.0.as_str();
        if !self.open.keys().any(|(s, _)| s == session) {
            return;
        }
        let added = event.tool.as_ref().map(|tool| added_lines(tool, path)).unwrap_or_default();
        for ((s, _), failure) in self.open.iter_mut() {
            if s == session {
                let lines = failure.edited.entry(path.to_owned()).or_default();
                for line in &added {
                    if !lines.contains(line) {
                        lines.push(line.clone());
                    }
                }
            }
        }
    }

    /// A shell command finished; returns the error→fix pair it completes, if any.
    pub(crate) fn command(&mut self, stored: &StoredEvent, command: &str, outcome: Outcome) -> Option<Fix> {
        let invocation = shell::primary(command)?;
        let session = stored.event.session.0.clone();
        let outcome = match outcome {
            Outcome::Succeeded if !invocation.is_inspection() && failed_by_output(&stored.event) => {
                Outcome::Failed
            }
            other => other,
        };
        if outcome == Outcome::Failed {
            let mut error = evidence::error_text(&stored.event);
            if error.trim().is_empty() {
                error = output_text(&stored.event);
            }
            let invocation = shell::failed_step(command).unwrap_or(invocation);
            let failure = Failure {
                position: stored.position,
                id: stored.event.id.0.clone(),
                command: command.to_owned(),
                signature: signature(&error),
                tests: evidence::failed_tests(&error),
                invocation: invocation.clone(),
                ran: Vec::new(),
                edited: BTreeMap::new(),
            };
            self.open.insert((session, family(&invocation)), failure);
            return None;
        }
        let steps: Vec<(String, Option<Invocation>)> = shell::simple_commands(command)
            .into_iter()
            .map(|words| {
                let parsed = shell::invocation(&words);
                (words.join(" "), parsed)
            })
            .collect();
        // The open failure this line passes: its last command of the same operation.
        let closing = self.open.iter().filter(|((s, _), _)| *s == session).find_map(|(key, failure)| {
            steps
                .iter()
                .rposition(|(_, step)| step.as_ref().is_some_and(|i| same_operation(&failure.invocation, i)))
                .map(|at| (key.clone(), at))
        });
        if !invocation.is_inspection() && !invocation.is_informational() {
            for (key, failure) in self.open.iter_mut() {
                if key.0 == session
                    && closing.as_ref().is_none_or(|(k, _)| k != key)
                    && failure.ran.len() < MAX_FIX_PARTS
                    && !failure.ran.iter().any(|c| c == command)
                {
                    failure.ran.push(command.to_owned());
                }
            }
        }
        let (key, at) = closing?;
        let mut failure = self.open.remove(&key)?;
        let (text, step) = &steps[at];
        let earlier: Vec<String> = steps[..at]
            .iter()
            .filter(|(_, step)| step.as_ref().is_some_and(worth_naming))
            .map(|(text, _)| text.clone())
            .collect();
        for (i, command) in earlier.into_iter().enumerate() {
            if !failure.ran.contains(&command) {
                failure.ran.insert(i.min(failure.ran.len()), command);
            }
        }
        failure.ran.truncate(MAX_FIX_PARTS);
        let words = step.as_ref().map(|i| i.words.clone()).unwrap_or_default();
        let fix = describe(&failure, text, &words);
        let tests = match failure.tests.as_slice() {
            [] => String::new(),
            names => {
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                format!(" in {}", names.join(", "))
            }
        };
        Some(Fix {
            text: format!(
                "`{}` failed{tests} with \"{}\"; it passed {fix}",
                failure.command, failure.signature
            ),
            failure_position: failure.position,
            failure_id: failure.id,
        })
    }
}

/// What made a failure pass, of a fix's text (`` `CXX=g++-12` set `` of "`cmake --build build`
/// failed with …; it passed with `CXX=g++-12` set"); the whole text of a line in another form.
pub(crate) fn how_it_passed(text: &str) -> &str {
    text.rsplit_once("; it passed ").map_or(text, |(_, fix)| fix)
}

/// How failures are grouped: the tool and the operation it was run for (`cargo test`,
/// `gradle assemble`, `cmake configure`, `pytest`).
fn family(invocation: &Invocation) -> String {
    let operations = invocation.operations();
    match operations.first() {
        Some(operation) => format!("{} {operation}", invocation.tool()),
        None => invocation.tool(),
    }
}

/// A finished shell command as the dream reads it: its command line (whitespace collapsed) and
/// whether it failed, by the harness's report or, when the harness reports no exit code, by its
/// output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellRun {
    pub command: String,
    pub failed: bool,
}

/// The shell command `event` reports the result of, if it is one.
pub fn shell_run(event: &HookEvent) -> Option<ShellRun> {
    let command = evidence::shell_command(event)?;
    let failed = match evidence::outcome(event)? {
        Outcome::Failed => true,
        Outcome::Succeeded => {
            shell::primary(&command).is_some_and(|i| !i.is_inspection()) && failed_by_output(event)
        }
    };
    Some(ShellRun { command, failed })
}

/// Whether the command line `passed` runs, in one of its simple commands, the same operation of
/// the same tool as the command line `failed` (`cargo test -p cart` passes `cargo test`; `cargo
/// build` does not).
pub fn passes(failed: &str, passed: &str) -> bool {
    let Some(failed) = shell::failed_step(failed) else { return false };
    shell::invocations(passed).iter().any(|step| same_operation(&failed, step))
}

/// Whether a command that passed ran the same operation of the same tool as one that failed, or
/// stood in for it: another tool given the very same arguments (`cross build --target x` for
/// `cargo build --target x`, `podman compose up -d` for `docker compose up -d`). Asking for a
/// version or for help passes nothing.
fn same_operation(failed: &Invocation, passed: &Invocation) -> bool {
    if passed.is_informational() {
        return false;
    }
    if failed.tool() != passed.tool() {
        return !failed.args.is_empty() && failed.args == passed.args && !passed.is_inspection();
    }
    let (was, is) = (failed.operations(), passed.operations());
    (was.is_empty() && is.is_empty()) || was.iter().any(|op| is.contains(op))
}

/// Whether a command run before the one that passed is worth naming as part of the fix: one that
/// does something, sets the environment (`export VCPKG_ROOT=…`) or makes what the run needs
/// (`mkdir -p .dagster_home`), not one that only looks around, asks for a version or moves.
fn worth_naming(invocation: &Invocation) -> bool {
    match invocation.program.as_str() {
        "export" | "source" | "." | "set" => !invocation.args.is_empty(),
        "cd" | "ls" | "pwd" | "echo" | "cat" | "clear" | "true" | "false" | "sleep" | "printf" | "head"
        | "tail" | "wc" | "which" => false,
        _ => !invocation.is_inspection() && !invocation.is_informational(),
    }
}

/// Whether a tool result its harness reported without an exit code or a failure says it failed.
fn failed_by_output(event: &HookEvent) -> bool {
    let Some(tool) = event.tool.as_ref() else { return false };
    event.kind == EventKind::PostToolUse
        && tool.failed.is_none()
        && tool.shell.as_ref().is_some_and(|s| s.exit_code.is_none())
        && FAILURE_LINE.is_match(&output_text(event))
}

/// The text a tool call printed: its output as text, or the text fields of a structured output.
fn output_text(event: &HookEvent) -> String {
    let Some(output) = event.tool.as_ref().and_then(|t| t.output.as_ref()) else { return String::new() };
    match output {
        Value::String(text) => text.clone(),
        Value::Object(fields) => ["stdout", "stderr", "output", "aggregated_output", "formatted_output"]
            .iter()
            .filter_map(|name| fields.get(*name).and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The lines an edit of `path` added, the most telling first few in their order: from the
/// tool's patch (a unified diff or Codex's patch format), else from its replaced and new text.
/// A line that only brings a name into scope (an import, `use`, `#include`) tells least what the
/// edit did and is quoted only when too few others are. A whole file written is not quoted.
fn added_lines(tool: &memory_core::ToolCall, path: &str) -> Vec<String> {
    let (added, removed) = match tool.patch.as_deref() {
        Some(patch) => patch_lines(patch, path),
        None => replaced_lines(tool.input.as_ref()),
    };
    let removed: BTreeSet<&str> = removed.iter().map(|l| l.trim()).collect();
    let candidates: Vec<String> = added
        .iter()
        .map(|l| l.trim())
        .filter(|l| !removed.contains(l) && l.chars().filter(|c| c.is_alphanumeric()).count() >= 4)
        .map(|l| l.replace('`', "'").chars().take(MAX_EDIT_LINE).collect())
        .collect();
    let mut ranked: Vec<usize> = (0..candidates.len()).collect();
    ranked.sort_by_key(|&i| {
        let line = &candidates[i];
        (IMPORT_LINE.is_match(line), std::cmp::Reverse(line.chars().filter(|c| c.is_alphanumeric()).count()))
    });
    ranked.truncate(MAX_EDIT_LINES);
    ranked.sort_unstable();
    ranked.into_iter().map(|i| candidates[i].clone()).collect()
}

/// Added and removed lines of the sections of a patch about `path` (all of them when the patch
/// names no file).
fn patch_lines(patch: &str, path: &str) -> (Vec<String>, Vec<String>) {
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let mut ours = true;
    for line in patch.lines() {
        let file = line
            .strip_prefix("*** Update File: ")
            .or_else(|| line.strip_prefix("*** Add File: "))
            .or_else(|| line.strip_prefix("+++ b/"))
            .or_else(|| line.strip_prefix("+++ "));
        if let Some(file) = file {
            let file = file.trim();
            ours = file.ends_with(path) || path.ends_with(file);
            continue;
        }
        if line.starts_with("---") || line.starts_with("***") || !ours {
            continue;
        }
        if let Some(text) = line.strip_prefix('+') {
            added.push(text.to_owned());
        } else if let Some(text) = line.strip_prefix('-') {
            removed.push(text.to_owned());
        }
    }
    (added, removed)
}

/// Added and removed lines of an edit given as replaced text (`old_string`, `new_string`, one or
/// several under `edits`).
fn replaced_lines(input: Option<&Value>) -> (Vec<String>, Vec<String>) {
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let Some(input) = input else { return (added, removed) };
    let mut edits: Vec<&Value> = vec![input];
    if let Some(list) = input.get("edits").and_then(Value::as_array) {
        edits.extend(list);
    }
    for edit in edits {
        let text = |names: &[&str]| names.iter().find_map(|n| edit.get(*n).and_then(Value::as_str));
        if let Some(new) = text(&["new_string", "new_str", "newText", "replace"]) {
            added.extend(new.lines().map(str::to_owned));
            if let Some(old) = text(&["old_string", "old_str", "oldText", "search"]) {
                removed.extend(old.lines().map(str::to_owned));
            }
        }
    }
    (added, removed)
}

/// What made the command pass: how its invocation changed, the commands run in between, else the
/// files edited in between.
fn describe(failure: &Failure, command: &str, words: &[String]) -> String {
    let mut parts = Vec::new();
    let added = missing_from(words, &failure.invocation.words);
    let dropped = missing_from(&failure.invocation.words, words);
    match (added.is_empty(), dropped.is_empty()) {
        (true, true) => {}
        (false, true) if added.len() <= MAX_CHANGED_WORDS => {
            let what = added.join(" ");
            if added.iter().all(|w| is_assignment(w)) {
                parts.push(format!("with `{what}` set"));
            } else {
                parts.push(format!("with `{what}` added"));
            }
        }
        (true, false) if dropped.len() <= MAX_CHANGED_WORDS => {
            parts.push(format!("without `{}`", dropped.join(" ")));
        }
        // Respelt rather than changed: an edit in between says more than the new spelling.
        _ if !failure.edited.is_empty() => {}
        _ => parts.push(format!("as `{command}`")),
    }
    if !failure.ran.is_empty() {
        let ran: Vec<String> = failure.ran.iter().map(|c| format!("`{c}`")).collect();
        parts.push(format!("after running {}", ran.join(", then ")));
    }
    if parts.is_empty() && !failure.edited.is_empty() {
        let files: Vec<String> = failure
            .edited
            .iter()
            .take(MAX_FIX_PARTS)
            .map(|(file, lines)| {
                let lines: Vec<String> =
                    lines.iter().take(MAX_EDIT_LINES).map(|l| format!("`{l}`")).collect();
                match lines.as_slice() {
                    [] => format!("`{file}`"),
                    _ => format!("`{file}` (adding {})", lines.join(", ")),
                }
            })
            .collect();
        parts.push(format!("after editing {}", files.join(", ")));
    }
    if parts.is_empty() {
        return "when rerun unchanged".to_owned();
    }
    parts.join(", ")
}

/// The words of `words` that `other` lacks, in order (each occurrence counted once).
fn missing_from(words: &[String], other: &[String]) -> Vec<String> {
    let mut left: Vec<&String> = other.iter().collect();
    let mut out = Vec::new();
    for word in words {
        match left.iter().position(|w| *w == word) {
            Some(at) => {
                left.remove(at);
            }
            None => out.push(word.clone()),
        }
    }
    out
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::{FAILURE_LINE, signature};

    #[test]
    fn a_diagnostics_cross_or_a_count_of_failing_tests_says_a_run_failed() {
        for output in [
            "turbo 2.3.3\n\n  x Could not resolve workspaces.\n  `-> Missing `packageManager` field\n",
            "Checked 42 files in 8ms.\n  × Some errors were emitted while running checks.\n",
            "✘ [ERROR] Could not resolve \"react-dom/client\"\n\n    src/main.tsx:2:23:\n",
            "  cart drawer\n    1) opens and proceeds to checkout\n\n  0 passing (5s)\n  1 failing\n",
            "  12 passing (3s)\n  3 failing\n",
        ] {
            assert!(FAILURE_LINE.is_match(output), "{output:?}");
        }
        for output in [
            "x files changed, 3 insertions(+)\n",
            "  14 passing (2s)\n",
            "Tasks: 3 successful, 3 total\nCached: 0 cached, 3 total\n",
            "a x Bigger than b\n",
        ] {
            assert!(!FAILURE_LINE.is_match(output), "{output:?}");
        }
    }

    #[test]
    fn a_tools_own_opening_of_an_error_signs_it() {
        let mix = "Resolving Hex dependencies...\n** (Mix) Could not find an SCM for dependency :telemetry_poller\n";
        assert_eq!(signature(mix), "** (Mix) Could not find an SCM for dependency :telemetry_poller");
        let cmake = "-- The C compiler identification is Clang 18.1.3\nCMake Error at cmake/deps.cmake:12 (message):\n";
        assert_eq!(signature(cmake), "CMake Error at cmake/deps.cmake:12 (message):");
        let plain = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'\n";
        assert_eq!(signature(plain), "ModuleNotFoundError: No module named 'yaml'");
    }
}
