//! Error→fix pairs: a shell command that failed, and what happened before the next success of
//! the same command family in the same session.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::StoredEvent;

use crate::evidence::{self, Outcome};
use memory_core::shell;

/// Most commands or files named as a fix.
const MAX_FIX_PARTS: usize = 3;
/// Most words of a changed invocation described as what was added or dropped.
const MAX_CHANGED_WORDS: usize = 4;

/// A failure waiting for its success.
#[derive(Debug)]
struct Failure {
    position: u64,
    id: String,
    command: String,
    words: Vec<String>,
    signature: String,
    /// The tests it reported as failed.
    tests: Vec<String>,
    /// Commands that succeeded in between, other than the failing family.
    ran: Vec<String>,
    /// Files edited in between.
    edited: BTreeSet<String>,
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
    /// A file edited in a session.
    pub(crate) fn edited(&mut self, session: &str, path: &str) {
        for ((s, _), failure) in self.open.iter_mut() {
            if s == session {
                failure.edited.insert(path.to_owned());
            }
        }
    }

    /// A shell command finished; returns the error→fix pair it completes, if any.
    pub(crate) fn command(&mut self, stored: &StoredEvent, command: &str, outcome: Outcome) -> Option<Fix> {
        let invocation = shell::primary(command)?;
        let session = stored.event.session.0.clone();
        let family = invocation.family();
        if outcome == Outcome::Succeeded && !invocation.is_inspection() {
            for ((s, f), failure) in self.open.iter_mut() {
                if *s == session
                    && *f != family
                    && failure.ran.len() < MAX_FIX_PARTS
                    && !failure.ran.iter().any(|c| c == command)
                {
                    failure.ran.push(command.to_owned());
                }
            }
        }
        let key = (session, family);
        match outcome {
            Outcome::Failed => {
                let error = evidence::error_text(&stored.event);
                let signature = evidence::error_signature(&error);
                let tests = evidence::failed_tests(&error);
                let failure = Failure {
                    position: stored.position,
                    id: stored.event.id.0.clone(),
                    command: command.to_owned(),
                    words: invocation.words,
                    signature,
                    tests,
                    ran: Vec::new(),
                    edited: BTreeSet::new(),
                };
                self.open.insert(key, failure);
                None
            }
            Outcome::Succeeded => {
                let failure = self.open.remove(&key)?;
                let fix = describe(&failure, command, &invocation.words);
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
    }
}

/// What made the command pass: how its invocation changed, the commands run in between, else the
/// files edited in between.
fn describe(failure: &Failure, command: &str, words: &[String]) -> String {
    let mut parts = Vec::new();
    let added = missing_from(words, &failure.words);
    let dropped = missing_from(&failure.words, words);
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
        _ => parts.push(format!("as `{command}`")),
    }
    if !failure.ran.is_empty() {
        let ran: Vec<String> = failure.ran.iter().map(|c| format!("`{c}`")).collect();
        parts.push(format!("after running {}", ran.join(", then ")));
    }
    if parts.is_empty() && !failure.edited.is_empty() {
        let files: Vec<String> =
            failure.edited.iter().take(MAX_FIX_PARTS).map(|f| format!("`{f}`")).collect();
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
