//! The hook log read back: the last run of each harness, with what happened to its event, for
//! `doctor` and any integration that reports on its hooks. Each line of `<log_dir>/hook.log` is
//! `<time> hook <harness> <summary> <micros>us`, the summary as [`crate::Hook`] writes it:
//! `<event> <session> <id> redacted:<kinds> stored; injected 1 notes, 704 chars`, or a line that
//! names no event (`skipped: …`, `error: …`, `panic: …`).

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::Serialize;

/// What became of a hook run's event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Written to the store.
    Stored,
    /// Written to the journal, for a later hook or `sync` to deliver.
    Journaled,
    /// Handed to a process of its own when the deadline passed.
    HandedOff,
    /// Not recorded: capture is off for the session, or the hook was not this harness's to run.
    NotRecorded,
    /// The run failed: bad input, an internal error, an event lost.
    Failed,
}

/// One hook run, as its log line tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookRun {
    /// The harness's name in the hook command (`claude`).
    pub harness: String,
    pub at: DateTime<Utc>,
    /// The event (`UserPromptSubmit`), when the line names one.
    pub event: Option<String>,
    pub outcome: RunOutcome,
    /// Notes injected into the session, and their length in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injected: Option<Injected>,
    /// How long the run took, in microseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub micros: Option<u64>,
    /// The line after its time and harness, as logged.
    pub summary: String,
}

/// Notes a hook run injected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Injected {
    pub notes: usize,
    pub chars: usize,
}

impl HookRun {
    /// Reads one line of the hook log; `None` for a line that is not a hook run.
    pub fn parse(line: &str) -> Option<Self> {
        let mut words = line.splitn(4, ' ');
        let (Some(at), Some("hook"), Some(harness), Some(rest)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return None;
        };
        let at = DateTime::parse_from_rfc3339(at).ok()?.with_timezone(&Utc);
        let (summary, micros) = match rest.rsplit_once(' ') {
            Some((head, tail)) => match tail.strip_suffix("us").and_then(|n| n.parse::<u64>().ok()) {
                Some(micros) => (head, Some(micros)),
                None => (rest, None),
            },
            None => (rest, None),
        };
        let tokens: Vec<&str> = summary.split(' ').collect();
        let named = |word: &str| !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric());
        let event = match tokens.as_slice() {
            [kind, key, ..] if named(kind) && key.contains(':') => Some((*kind).to_owned()),
            [kind, "not", "recorded", ..] | [kind, "not", "recorded:", ..] if named(kind) => {
                Some((*kind).to_owned())
            }
            _ => None,
        };
        // What happened comes after the event's kind, session, id and redactions.
        let told = match tokens.iter().position(|t| t.starts_with("redacted:")) {
            Some(i) => tokens[i + 1..].join(" "),
            None if event.is_some() => tokens.iter().skip(3).copied().collect::<Vec<_>>().join(" "),
            None => summary.to_owned(),
        };
        let outcome = if ["error:", "panic:", "cannot "].iter().any(|p| summary.starts_with(p))
            || summary.contains("LOST")
        {
            RunOutcome::Failed
        } else if summary.contains(" not recorded") || summary.starts_with("skipped") {
            RunOutcome::NotRecorded
        } else if told.starts_with("handed off") || summary.starts_with("handed off") {
            RunOutcome::HandedOff
        } else if told.starts_with("journaled") {
            RunOutcome::Journaled
        } else if event.is_some() {
            // `stored`, or a line of an older release that said nothing more.
            RunOutcome::Stored
        } else {
            RunOutcome::NotRecorded
        };
        let injected = told.split("; ").find_map(|part| {
            let rest = part.strip_prefix("injected ")?;
            let (notes, rest) = rest.split_once(" notes, ")?;
            let chars = rest.strip_suffix(" chars")?;
            Some(Injected { notes: notes.parse().ok()?, chars: chars.parse().ok()? })
        });
        Some(Self {
            harness: harness.to_owned(),
            at,
            event,
            outcome,
            injected,
            micros,
            summary: summary.to_owned(),
        })
    }
}

/// The last run of each harness in the hook log at `path` (only its last 256 KiB are read), by
/// harness name.
pub fn last_runs(path: &Path) -> Vec<HookRun> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    const TAIL: u64 = 256 * 1024;
    let Ok(mut file) = std::fs::File::open(path) else { return Vec::new() };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = file.seek(SeekFrom::Start(len.saturating_sub(TAIL)));
    let mut bytes = Vec::new();
    if file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let mut last: BTreeMap<String, HookRun> = BTreeMap::new();
    for run in String::from_utf8_lossy(&bytes).lines().filter_map(HookRun::parse) {
        last.insert(run.harness.clone(), run);
    }
    last.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_stored_with_notes_injected() {
        let run = HookRun::parse(
            "2026-12-04T14:02:03.120Z hook claude UserPromptSubmit claude:s2 950093b7f5b0e9aac58fd56aa591faa1 \
             redacted:none stored; injected 1 notes, 704 chars 21516us",
        )
        .unwrap();
        assert_eq!(run.harness, "claude");
        assert_eq!(run.event.as_deref(), Some("UserPromptSubmit"));
        assert_eq!(run.outcome, RunOutcome::Stored);
        assert_eq!(run.injected, Some(Injected { notes: 1, chars: 704 }));
        assert_eq!(run.micros, Some(21_516));
        assert_eq!(run.at.to_rfc3339(), "2026-12-04T14:02:03.120+00:00");
    }

    #[test]
    fn every_outcome_is_told_apart() {
        let outcome = |summary: &str| {
            HookRun::parse(&format!("2026-12-04T14:02:03Z hook codex {summary} 9us")).unwrap()
        };
        let journaled = outcome("Stop codex:t e1 redacted:none journaled (store error: locked)");
        assert_eq!((journaled.outcome, journaled.event.as_deref()), (RunOutcome::Journaled, Some("Stop")));
        assert_eq!(outcome("error: payload is not JSON").outcome, RunOutcome::Failed);
        assert_eq!(outcome("panic: boom").outcome, RunOutcome::Failed);
        let off = outcome("SessionStart not recorded: paused");
        assert_eq!((off.outcome, off.event.as_deref()), (RunOutcome::NotRecorded, Some("SessionStart")));
        assert_eq!(
            outcome("skipped: run by cursor, recorded by its own hook").outcome,
            RunOutcome::NotRecorded
        );
        assert_eq!(
            outcome("handed off (deadline passed before the event was ready)").outcome,
            RunOutcome::HandedOff
        );
        assert_eq!(outcome("Stop claude:s1 e2 stored").outcome, RunOutcome::Stored);
        assert!(HookRun::parse("2026-12-04T14:02:03Z dream ok").is_none());
    }
}
