//! Tool-time recall: before a shell command runs that failed before in this project, the agent
//! is handed what made it pass, from the project's notes of errors and fixes; before an edit of a
//! file with a known pitfall, that pitfall. Each known fix at most once per session.
//!
//! A note line is about a command when its first code span is a command line (`` `cargo build`
//! failed … ``, `` `npm test` hangs when … ``). The command about to run matches it when both run
//! the same program and subcommand (past runners: `uv run pytest` is `pytest`) and their other
//! arguments do not name different targets; a command that already carries the fix (its flag,
//! its variable) gets nothing. A line is about a file when its first code span is the file's
//! path, relative to the project root.

use std::collections::BTreeSet;

use memory_core::shell::{self, Invocation};
use memory_core::{FileAction, HookEvent, MemoryStore, Note, NoteFilter, NoteKind, Scope, ToolCall};
use sha2::{Digest as _, Sha256};

use crate::inject::{CLOSE, Injection, OPEN, note_key};
use crate::project::Project;

/// Most known fixes handed over before one tool call.
const MAX_FIXES: usize = 2;
/// Longest line handed over, in characters.
const MAX_LINE: usize = 600;

/// What a tool call could have a known fix for: the command it runs (unless it only looks
/// around) and the files it edits. `None` when there is nothing to look up, so a hook can skip the
/// store for it.
fn subjects(tool: &ToolCall) -> Option<(Option<Invocation>, Vec<&str>)> {
    let command = tool.shell.as_ref().and_then(|s| shell::primary(&s.command)).filter(|i| !i.is_inspection());
    let edited: Vec<&str> =
        tool.files.iter().filter(|f| f.action == FileAction::Edited).map(|f| f.path.as_str()).collect();
    (command.is_some() || !edited.is_empty()).then_some((command, edited))
}

/// Whether a tool call about to run could come with a known fix ([`before_tool`] would look).
pub fn may_recall(event: &HookEvent) -> bool {
    event.tool.as_ref().is_some_and(|tool| subjects(tool).is_some())
}

/// What agent-memory knows about the tool call `event` is about to make, or `None`. `already`
/// holds what this session was given (see [`fix_key`]).
pub async fn before_tool(
    store: &dyn MemoryStore,
    project: &Project,
    event: &HookEvent,
    already: &BTreeSet<String>,
    budget: usize,
) -> memory_core::Result<Option<Injection>> {
    let Some((command, edited)) = event.tool.as_ref().and_then(subjects) else { return Ok(None) };
    let notes = store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?;
    let mut found: Vec<(String, String)> = Vec::new();
    for note in notes.iter().filter(|n| about_errors(n)) {
        for line in note.body.lines().filter_map(memory_core::item_text) {
            let Some(subject) = memory_core::code_spans(line).next() else { continue };
            let relevant = match &command {
                Some(now) => {
                    shell::primary(subject).is_some_and(|before| same_command(&before, now))
                        && !carries_fix(line, now)
                }
                None => false,
            } || edited.iter().any(|path| same_path(subject, path));
            let key = fix_key(note, line);
            if relevant && !already.contains(&key) && !found.iter().any(|(k, _)| *k == key) {
                found.push((key, line.to_owned()));
            }
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    let header = if command.is_some() {
        "This command, or one like it, failed before in this project. What agent-memory's notes say \
         made it pass (from earlier sessions; check it still applies):\n"
    } else {
        "agent-memory's notes name a known problem with this file (from earlier sessions; check it \
         still applies):\n"
    };
    let mut text = format!("{OPEN}{header}");
    let mut keys = Vec::new();
    for (key, line) in found.into_iter().take(MAX_FIXES) {
        let line = format!("- {}\n", truncate(&line, MAX_LINE));
        if text.chars().count() + line.chars().count() + CLOSE.len() > budget {
            break;
        }
        text.push_str(&line);
        keys.push(key);
    }
    if keys.is_empty() {
        return Ok(None);
    }
    text.push_str(CLOSE);
    Ok(Some(Injection { text, notes: keys }))
}

/// The key a known fix is remembered by in a session's ledger: its note's key and a digest of
/// the line, so the note itself can still be given on a prompt.
pub fn fix_key(note: &Note, line: &str) -> String {
    let digest = Sha256::digest(line.as_bytes());
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("{}#fix-{short}", note_key(note))
}

/// Notes of errors and fixes, or of pitfalls: what a dream files as procedures under `errors.md`
/// and what people write there by hand.
fn about_errors(note: &Note) -> bool {
    let file = note.path.as_str().rsplit('/').next().unwrap_or_default();
    matches!(file, "errors.md" | "pitfalls.md" | "gotchas.md" | "known-issues.md")
        || (note.meta.kind == NoteKind::Procedure && file.contains("error"))
}

/// Whether two commands run the same program and subcommand on targets that can overlap.
fn same_command(before: &Invocation, now: &Invocation) -> bool {
    if before.program != now.program || before.sub != now.sub {
        return false;
    }
    let targets = |i: &Invocation| -> BTreeSet<String> {
        i.args
            .iter()
            .filter(|a| !a.starts_with('-') && Some(a.as_str()) != i.sub.as_deref())
            .cloned()
            .collect()
    };
    let (was, is) = (targets(before), targets(now));
    // A run of everything covers the target that failed; two different targets do not meet.
    was.is_empty() || is.is_empty() || !was.is_disjoint(&is)
}

/// Whether the command about to run already does what the line says made it pass: a flag or a
/// variable the line names in a code span after the command.
fn carries_fix(line: &str, now: &Invocation) -> bool {
    memory_core::code_spans(line).skip(1).any(|span| {
        let words: Vec<&str> = span.split_whitespace().collect();
        let flag_or_variable = words.first().is_some_and(|w| w.starts_with('-') || w.contains('='));
        flag_or_variable
            && words
                .iter()
                .all(|w| now.words.iter().any(|n| shell::unquote(n) == *w) || now.env.iter().any(|e| e == w))
    })
}

/// Whether a code span names the file at `path` (relative to the project root).
fn same_path(span: &str, path: &str) -> bool {
    let clean = |p: &str| p.trim().trim_start_matches("./").to_owned();
    !span.contains(' ') && span.contains('.') && clean(span) == clean(path)
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::{carries_fix, same_command, same_path};
    use memory_core::shell::primary;

    fn matches(before: &str, now: &str) -> bool {
        same_command(&primary(before).unwrap(), &primary(now).unwrap())
    }

    #[test]
    fn a_command_matches_the_same_program_and_subcommand() {
        assert!(matches("cargo build", "cargo build --release"));
        assert!(matches("uv run pytest -q", "pytest tests/test_invoices.py"));
        assert!(matches("cargo nextest run export", "cargo nextest run"));
        assert!(matches("TZ=UTC pnpm test src/a.test.ts", "cd web && pnpm test src/a.test.ts"));
        assert!(!matches("cargo build", "cargo test"));
        assert!(!matches("pnpm build", "npm run build"));
        assert!(!matches("uv run pytest tests/test_invoices.py", "uv run pytest tests/test_users.py"));
    }

    #[test]
    fn a_command_carrying_the_fix_is_left_alone() {
        let line = "`cargo build` failed with \"openssl-sys\"; it passed with `--features vendored` added";
        assert!(carries_fix(line, &primary("cargo build --features vendored").unwrap()));
        assert!(!carries_fix(line, &primary("cargo build --release").unwrap()));
        let tz = "`uv run pytest tests/test_invoices.py` failed; it passed with `TZ=UTC` set";
        assert!(carries_fix(tz, &primary("TZ=UTC uv run pytest tests/test_invoices.py").unwrap()));
        let other = "`uv run pytest -q` failed; it passed after running `uv add --dev httpx`";
        assert!(!carries_fix(other, &primary("uv run pytest -q").unwrap()), "a separate command is no flag");
    }

    #[test]
    fn lines_are_read_without_counts_and_spans_in_order() {
        let body =
            "Commands that failed.\n\n- `a b` failed; it passed with `-x` added (2×, last 2026-12-01)\n";
        let lines: Vec<&str> = body.lines().filter_map(memory_core::item_text).collect();
        assert_eq!(lines, ["`a b` failed; it passed with `-x` added"]);
        assert_eq!(memory_core::code_spans(lines[0]).collect::<Vec<_>>(), ["a b", "-x"]);
        assert!(same_path("./src/money.rs", "src/money.rs"));
        assert!(!same_path("cargo test", "cargo"));
    }
}
