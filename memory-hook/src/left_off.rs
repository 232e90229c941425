//! Where the last session in a project left off, for the next session start there, in any
//! harness: what was asked (the session's title and its last real prompt), the files it edited,
//! the commands that failed and whether a later run of the same operation of the same tool passed,
//! and when it was last active, in local time and relative to now. Read from the stored events
//! alone (no model), a bounded number of them, and given a small share of the start budget.

use chrono::{DateTime, TimeZone, Utc};
use memory_core::{EventKind, FileAction, MemoryStore, SessionInfo, SessionKey, StoredEvent};
use memory_redact::Redactor;

use crate::project::Project;
use crate::sessions;

/// The most characters a start block gives where the last session left off.
pub const MAX_CHARS: usize = 600;
/// The least: below this the notes keep the whole budget.
const MIN_CHARS: usize = 160;
/// The share of the start budget it may take: one part in this many.
const BUDGET_PARTS: usize = 10;
/// How many of a session's first events are read for its prompts.
const HEAD_EVENTS: usize = 40;
/// How many of a session's last events are read for its edits, failures and last prompt.
const TAIL_EVENTS: usize = 200;
/// How many of the project's most recent sessions are looked at for one that did something (sessions
/// opened and closed without a prompt are passed over; they hold a few events each).
const CANDIDATES: usize = 24;
/// Most files named; the rest are counted.
const MAX_FILES: usize = 5;
/// Most failures named.
const MAX_FAILURES: usize = 3;
/// Longest command quoted, in characters.
const MAX_COMMAND: usize = 80;

/// A command that failed in a session, and whether a later run of the same operation of the same
/// tool passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The command line of its last failing run.
    pub command: String,
    /// How many runs of it failed.
    pub runs: usize,
    pub fixed: bool,
}

/// What a session's events say it did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Activity {
    /// The first and the last of its real prompts (slash commands, harness tags and prompts that
    /// carried a secret left out), each without the asides around the work
    /// ([`dream::worth_quoting`]); one when the last is the first.
    pub prompts: Vec<String>,
    /// The files it edited, in the order of their first edit.
    pub edited: Vec<String>,
    /// Its failed commands, in the order of their first failure.
    pub failures: Vec<Failure>,
}

impl Activity {
    /// Whether there is anything to tell.
    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty() && self.edited.is_empty() && self.failures.is_empty()
    }
}

/// Reads what `events` (one session's, in order) did: the first and last prompts, edits, and
/// failed shell commands, each marked fixed once a later command runs the same operation of the
/// same tool and passes ([`dream::passes`]). Cursor's two reports of one shell call count once.
pub fn activity(events: Vec<StoredEvent>) -> Activity {
    let mut out = Activity::default();
    let mut prompts: Vec<&str> = Vec::new();
    let events = sessions::merge_twins(events);
    for stored in &events {
        let event = &stored.event;
        if event.kind == EventKind::UserPromptSubmit {
            prompts.extend(event.prompt.as_deref());
            continue;
        }
        if !matches!(
            event.kind,
            EventKind::PostToolUse | EventKind::PostToolUseFailure | EventKind::FileEdited
        ) {
            continue;
        }
        let Some(tool) = event.tool.as_ref() else { continue };
        for file in tool.files.iter().filter(|f| f.action == FileAction::Edited) {
            if event.kind != EventKind::PostToolUseFailure && !out.edited.contains(&file.path) {
                out.edited.push(file.path.clone());
            }
        }
        let Some(run) = dream::shell_run(event) else { continue };
        if run.failed {
            match out.failures.iter_mut().find(|f| dream::passes(&f.command, &run.command)) {
                // Failing again: still open, whatever passed before.
                Some(known) => {
                    known.command = run.command;
                    known.runs += 1;
                    known.fixed = false;
                }
                None => out.failures.push(Failure { command: run.command, runs: 1, fixed: false }),
            }
        } else {
            for failure in out.failures.iter_mut().filter(|f| dream::passes(&f.command, &run.command)) {
                failure.fixed = true;
            }
        }
    }
    out.prompts = first_and_last(&prompts);
    out
}

/// The first and the last of `prompts` worth quoting ([`quoted`]), the last being the latest
/// other than the first: a start shows only these two, so the prompts between them are read only
/// while the latest ones are the first again.
fn first_and_last(prompts: &[&str]) -> Vec<String> {
    let redactor = Redactor::new();
    let quote = |prompt: &&str| quoted(&redactor, prompt);
    let Some((at, first)) = prompts.iter().enumerate().find_map(|(i, p)| quote(p).map(|q| (i, q))) else {
        return Vec::new();
    };
    let last = prompts[at + 1..].iter().rev().filter_map(quote).find(|last| *last != first);
    std::iter::once(first).chain(last).collect()
}

/// A prompt as a start quotes it: without the asides around the work, redacted, on one line and
/// cut to a title's length; `None` for a prompt that carried a secret (a credential in words, or
/// text already redacted), one that asked for nothing (a joke, "looks good, thanks"), and one
/// that is no real prompt (a slash command, a harness's tags).
fn quoted(redactor: &Redactor, prompt: &str) -> Option<String> {
    if dream::carries_secret(prompt) {
        return None;
    }
    dream::worth_quoting(prompt).and_then(|p| sessions::prompt_title_by(redactor, &p))
}

/// Where a session left off: which session, when, and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOff {
    pub session: SessionKey,
    pub harness: String,
    pub last_at: DateTime<Utc>,
    /// The session's title ([`sessions::title`]).
    pub title: Option<String>,
    pub activity: Activity,
}

/// The last session of `project` other than `current` that did something, read from at most
/// [`HEAD_EVENTS`] + [`TAIL_EVENTS`] of its events. `None` when there is none, and when `current`
/// is itself under way (it has events before this start: a resume, a compaction): a session that
/// goes on is not told where another left off.
pub async fn last(
    store: &dyn MemoryStore,
    project: &Project,
    current: &SessionKey,
) -> memory_core::Result<Option<LeftOff>> {
    let recent = store.project_sessions(&project.id, CANDIDATES + 1).await?;
    if recent.iter().any(|s| s.key == *current && s.events > 1) {
        return Ok(None);
    }
    for info in recent.iter().filter(|s| s.key != *current).take(CANDIDATES) {
        let events = session_events(store, info).await?;
        let activity = activity(events);
        if activity.is_empty() {
            continue;
        }
        // The session's title, as `sessions::title` gives it, from the events already read.
        let title = match sessions::noted_title(store, &info.key).await? {
            Some(title) => Some(title),
            None => activity.prompts.first().cloned(),
        };
        return Ok(Some(LeftOff {
            session: info.key.clone(),
            harness: info.harness.clone(),
            last_at: info.last_at,
            title,
            activity,
        }));
    }
    Ok(None)
}

/// A session's first [`HEAD_EVENTS`] and last [`TAIL_EVENTS`] events, in order.
async fn session_events(
    store: &dyn MemoryStore,
    info: &SessionInfo,
) -> memory_core::Result<Vec<StoredEvent>> {
    let mut events = store.timeline(&info.key, 0, HEAD_EVENTS).await?;
    let Some(last_read) = events.last().map(|e| e.seq) else { return Ok(events) };
    if events.len() as u64 >= info.events {
        return Ok(events);
    }
    // Sequence numbers are gap-free, but retention may have cut the session's first events: the
    // last one is at most this many past the first one read.
    let first = events[0].seq;
    let end = first.saturating_sub(1) + info.events;
    let from = end.saturating_sub(TAIL_EVENTS as u64).max(last_read);
    events.extend(store.timeline(&info.key, from, TAIL_EVENTS).await?);
    Ok(events)
}

/// The characters a start block of `budget` gives where the last session left off: a bounded
/// share, none when the budget is too small to spare it.
pub fn share(budget: usize) -> usize {
    let share = (budget / BUDGET_PARTS).min(MAX_CHARS);
    if share < MIN_CHARS { 0 } else { share }
}

/// The section a start block of `budget` characters in `project` gives where its last session
/// other than `current` left off ([`last`]), in this machine's local time, within its [`share`]
/// of the budget.
pub async fn section(
    store: &dyn MemoryStore,
    project: &Project,
    current: &SessionKey,
    budget: usize,
) -> memory_core::Result<Option<String>> {
    let cap = share(budget);
    if cap == 0 {
        return Ok(None);
    }
    let Some(left_off) = last(store, project, current).await? else { return Ok(None) };
    Ok(left_off.render(Utc::now(), &chrono::Local, cap))
}

/// A harness's name as people know it.
fn harness_name(harness: &str) -> &str {
    match harness {
        "claude" => "Claude Code",
        "codex" => "Codex",
        "cursor" => "Cursor",
        "gemini" => "Gemini CLI",
        "copilot" => "Copilot CLI",
        "qwen" => "Qwen Code",
        other => other,
    }
}

/// How long ago `then` was, in words.
pub fn ago(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let minutes = (now - then).num_minutes().max(0);
    let plural =
        |n: i64, unit: &str| if n == 1 { format!("1 {unit} ago") } else { format!("{n} {unit}s ago") };
    match minutes {
        0 => "just now".to_owned(),
        m if m < 60 => plural(m, "minute"),
        m if m < 48 * 60 => plural(m / 60, "hour"),
        m if m < 14 * 24 * 60 => plural(m / (24 * 60), "day"),
        m if m < 60 * 24 * 60 => plural(m / (7 * 24 * 60), "week"),
        m => plural(m / (30 * 24 * 60), "month"),
    }
}

/// `text` on one line, at most `max` characters, an ellipsis marking a cut.
fn clip(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max {
        return line;
    }
    let cut: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

impl LeftOff {
    /// The section a start block gives it, within `cap` characters, redacted: its heading, when
    /// (in `zone`'s local time and relative to `now`), then what was asked, edited and failed,
    /// each line only while it fits. `None` when not even the heading and the time fit.
    pub fn render<Tz: TimeZone>(&self, now: DateTime<Utc>, zone: &Tz, cap: usize) -> Option<String>
    where
        Tz::Offset: std::fmt::Display,
    {
        let local = self.last_at.with_timezone(zone);
        let when = if local.date_naive() == now.with_timezone(zone).date_naive() {
            local.format("today %H:%M").to_string()
        } else {
            local.format("%a %-d %b %H:%M").to_string()
        };
        let mut text = format!(
            "## Where the last session here left off\n\n{} session `{}`, last active {when} local time ({}).\n",
            harness_name(&self.harness),
            self.session,
            ago(self.last_at, now),
        );
        let mut lines = Vec::new();
        let activity = &self.activity;
        let asked = self.title.clone().or_else(|| activity.prompts.first().cloned());
        if let Some(asked) = asked {
            let mut line = format!("- asked: \"{asked}\"");
            if let Some(last) = activity.prompts.last().filter(|p| **p != asked && activity.prompts.len() > 1)
            {
                line.push_str(&format!("; last: \"{last}\""));
            }
            lines.push(line);
        }
        if !activity.edited.is_empty() {
            let shown: Vec<String> = activity
                .edited
                .iter()
                .take(MAX_FILES)
                .map(|f| format!("`{}`", clip(f, MAX_COMMAND)))
                .collect();
            let more = activity.edited.len().saturating_sub(MAX_FILES);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            lines.push(format!("- edited {}{more}", shown.join(", ")));
        }
        // What still fails first: it is where the work stopped.
        let mut failures: Vec<&Failure> = activity.failures.iter().filter(|f| !f.fixed).collect();
        failures.extend(activity.failures.iter().filter(|f| f.fixed));
        for failure in failures.into_iter().take(MAX_FAILURES) {
            let runs = if failure.runs > 1 { format!(" ({} runs)", failure.runs) } else { String::new() };
            let command = clip(&failure.command, MAX_COMMAND);
            lines.push(if failure.fixed {
                format!("- `{command}` failed{runs}, then passed")
            } else {
                format!("- `{command}` failed{runs} and had not passed since")
            });
        }
        let redactor = Redactor::new();
        let mut text_len = redactor.redact_text(&text).chars().count() + 1;
        if text_len > cap {
            return None;
        }
        for line in lines {
            let line = format!("{}\n", redactor.redact_text(&line));
            let len = line.chars().count();
            if text_len + len > cap {
                break;
            }
            text.push_str(&line);
            text_len += len;
        }
        text.push('\n');
        Some(redactor.redact_text(&text).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, FixedOffset};
    use memory_core::{EventId, FileTouch, Harness, HookEvent, ShellCall, ToolCall};
    use serde_json::json;

    use super::*;

    /// Builds one session's events in order.
    struct Session {
        harness: &'static str,
        events: Vec<StoredEvent>,
    }

    impl Session {
        fn new(harness: &'static str) -> Self {
            Self { harness, events: Vec::new() }
        }

        fn push(
            &mut self,
            kind: EventKind,
            raw: serde_json::Value,
            fill: impl FnOnce(&mut HookEvent),
        ) -> &mut Self {
            let seq = self.events.len() as u64 + 1;
            let mut event = HookEvent::new(
                EventId(format!("e{seq}")),
                Harness::named(self.harness),
                SessionKey(format!("{}:s", self.harness)),
                kind,
                Utc::now(),
                raw,
            );
            fill(&mut event);
            self.events.push(StoredEvent { seq, position: seq, event });
            self
        }

        fn prompt(&mut self, text: &str) -> &mut Self {
            let text = text.to_owned();
            self.push(EventKind::UserPromptSubmit, json!({}), |e| e.prompt = Some(text))
        }

        /// A shell command's result, by exit code (`None`: the harness does not say).
        fn shell(&mut self, command: &str, exit: Option<i64>, output: &str) -> &mut Self {
            let call = ToolCall {
                name: "Bash".into(),
                output: Some(json!(output)),
                shell: Some(ShellCall { command: command.to_owned(), exit_code: exit }),
                failed: exit.map(|c| c != 0),
                ..ToolCall::default()
            };
            self.push(EventKind::PostToolUse, json!({}), |e| e.tool = Some(call))
        }

        fn edit(&mut self, path: &str) -> &mut Self {
            let call = ToolCall {
                name: "Edit".into(),
                files: vec![FileTouch::new(path, FileAction::Edited)],
                ..ToolCall::default()
            };
            self.push(EventKind::PostToolUse, json!({}), |e| e.tool = Some(call))
        }

        fn read(&mut self, path: &str) -> &mut Self {
            let call = ToolCall {
                name: "Read".into(),
                files: vec![FileTouch::new(path, FileAction::Read)],
                ..ToolCall::default()
            };
            self.push(EventKind::PostToolUse, json!({}), |e| e.tool = Some(call))
        }

        fn activity(&self) -> Activity {
            activity(self.events.clone())
        }
    }

    fn fixed(activity: &Activity) -> Vec<(&str, bool)> {
        activity.failures.iter().map(|f| (f.command.as_str(), f.fixed)).collect()
    }

    /// Pairs of a failing command line and a later passing one, worded many ways.
    fn pair(failed: &str, passed: &str) -> Vec<(String, bool)> {
        let mut s = Session::new("claude");
        s.shell(failed, Some(1), "1 failed").edit("src/lib.rs").shell(passed, Some(0), "ok");
        s.activity().failures.into_iter().map(|f| (f.command, f.fixed)).collect()
    }

    #[test]
    fn a_failing_command_is_fixed_by_a_later_pass_of_the_same_operation_however_worded() {
        for (failed, passed) in [
            ("cargo test -p cart", "cargo test -p cart"),
            ("cargo test -p cart total", "RUST_BACKTRACE=1 cargo test --workspace"),
            ("npm run lint", "cd web && npm run lint -- --fix"),
            ("./gradlew test", "gradle test --info"),
            ("pytest tests/test_cart.py -x", "uv run pytest -q"),
        ] {
            assert_eq!(pair(failed, passed), [(failed.to_owned(), true)], "{failed} then {passed}");
        }
    }

    #[test]
    fn a_prompt_that_carried_a_secret_is_not_quoted() {
        for secret in [
            "my github token is [REDACTED:github-token], use it for the release",
            "log in with [REDACTED:password] on staging",
            "the office wifi is CorrectHorse99, we use pnpm here",
        ] {
            let mut s = Session::new("claude");
            s.prompt("bump the cart service to 2.4").prompt(secret);
            assert_eq!(s.activity().prompts, ["bump the cart service to 2.4"], "{secret}");
        }
    }

    #[test]
    fn a_closing_remark_is_not_what_was_asked_last() {
        for remark in [
            "let's just rewrite the checkout in haskell lol. anyway, it renders, good",
            "perfect, thanks!",
            "at my last job we always deployed on fridays, what a mess that was.",
        ] {
            let mut s = Session::new("claude");
            s.prompt("bump the cart service to 2.4")
                .prompt("then add a test for the empty cart")
                .prompt(remark);
            assert_eq!(
                s.activity().prompts,
                ["bump the cart service to 2.4", "then add a test for the empty cart"],
                "{remark}"
            );
        }
        let mut s = Session::new("claude");
        s.prompt("thanks, that works! now add a test for the empty cart");
        assert_eq!(
            s.activity().prompts,
            ["now add a test for the empty cart"],
            "the aside goes, the work stays"
        );
    }

    #[test]
    fn a_pass_of_another_tool_or_operation_leaves_the_failure_open() {
        for (failed, passed) in [
            ("cargo test", "cargo build"),
            ("pytest -q", "npm test"),
            ("npm run lint", "npm run build"),
            ("make check", "ls -la"),
        ] {
            assert_eq!(pair(failed, passed), [(failed.to_owned(), false)], "{failed} then {passed}");
        }
    }

    #[test]
    fn a_failure_after_the_pass_reopens_it_and_counts_its_runs() {
        let mut s = Session::new("claude");
        s.shell("make check", Some(2), "error: boom").shell("make check", Some(0), "").shell(
            "make check V=1",
            Some(2),
            "error: boom again",
        );
        let activity = s.activity();
        assert_eq!(fixed(&activity), [("make check V=1", false)], "broken again at the end");
        assert_eq!(activity.failures[0].runs, 2);
    }

    #[test]
    fn output_reads_a_failure_the_harness_reports_without_an_exit_code() {
        let mut s = Session::new("codex");
        s.shell("pytest -q", None, "F..\n1 failed, 2 passed in 0.12s\n").shell(
            "pytest -q",
            None,
            "...\n3 passed in 0.10s\n",
        );
        assert_eq!(fixed(&s.activity()), [("pytest -q", true)]);
        let mut s = Session::new("codex");
        s.shell("ls src", None, "error: not a file, just a name");
        assert!(s.activity().failures.is_empty(), "looking around fails nothing");
    }

    #[test]
    fn cursors_two_reports_of_one_failed_call_are_one_run() {
        let mut s = Session::new("cursor");
        let call = |output: Option<&str>| ToolCall {
            name: "Shell".into(),
            input: Some(json!({ "command": "pnpm test" })),
            output: output.map(|o| json!(o)),
            shell: Some(ShellCall { command: "pnpm test".into(), exit_code: Some(1) }),
            failed: Some(true),
            ..ToolCall::default()
        };
        s.push(EventKind::PostToolUse, json!({ "hook_event_name": "postToolUse" }), |e| {
            e.tool = Some(call(None))
        });
        s.push(EventKind::PostToolUse, json!({ "hook_event_name": "afterShellExecution" }), |e| {
            e.tool = Some(call(Some("1 failed")))
        });
        let activity = s.activity();
        assert_eq!(activity.failures.len(), 1);
        assert_eq!(activity.failures[0].runs, 1, "one call, reported twice");
    }

    #[test]
    fn edits_are_listed_once_in_order_and_reads_are_not_edits() {
        let mut s = Session::new("claude");
        s.read("README.md").edit("src/b.rs").edit("src/a.rs").edit("src/b.rs");
        assert_eq!(s.activity().edited, ["src/b.rs", "src/a.rs"]);
    }

    #[test]
    fn only_real_prompts_say_what_was_asked() {
        let mut s = Session::new("claude");
        for prompt in [
            "/clear",
            "<command-name>/model</command-name>",
            "   ",
            "fix the cart total",
            "fix  the cart\ntotal",
        ] {
            s.prompt(prompt);
        }
        assert_eq!(s.activity().prompts, ["fix the cart total"], "slash commands, tags and repeats left out");
        assert!(Session::new("claude").activity().is_empty());
    }

    #[test]
    fn the_first_and_the_last_prompt_are_what_was_asked() {
        let mut s = Session::new("codex");
        s.prompt("add a retry to the upload client")
            .prompt("now cover the timeout with a test")
            .prompt("also log each attempt at debug level")
            .prompt("then open a draft PR for it")
            .prompt("great, thanks!");
        assert_eq!(
            s.activity().prompts,
            ["add a retry to the upload client", "then open a draft PR for it"],
            "the middle prompts are not quoted, nor the thank-you"
        );
        let mut s = Session::new("cursor");
        s.prompt("fix the cart total")
            .prompt("now add a test for the empty cart")
            .prompt("fix the cart total");
        assert_eq!(
            s.activity().prompts,
            ["fix the cart total", "now add a test for the empty cart"],
            "asked again last: the last other prompt"
        );
    }

    fn left_off(activity: Activity, ago: Duration) -> LeftOff {
        LeftOff {
            session: SessionKey("claude:d57191af".into()),
            harness: "claude".into(),
            last_at: now() - ago,
            title: Some("fix the flaky cart test".into()),
            activity,
        }
    }

    fn now() -> DateTime<Utc> {
        "2026-12-04T18:00:00Z".parse().unwrap()
    }

    #[test]
    fn the_section_says_who_when_what_and_what_still_fails() {
        let mut s = Session::new("claude");
        s.prompt("fix the flaky cart test")
            .prompt("now make the linter happy")
            .edit("src/cart.rs")
            .shell("cargo test -p cart", Some(101), "1 failed")
            .shell("cargo test -p cart", Some(0), "")
            .shell("cargo clippy -- -D warnings", Some(101), "error: unused");
        let text = left_off(s.activity(), Duration::hours(3))
            .render(now(), &FixedOffset::east_opt(3600).unwrap(), MAX_CHARS)
            .unwrap();
        assert!(text.starts_with("## Where the last session here left off\n"), "{text}");
        assert!(text.contains("Claude Code session `claude:d57191af`"), "{text}");
        assert!(text.contains("today 16:00 local time (3 hours ago)"), "in the zone given: {text}");
        assert!(
            text.contains("asked: \"fix the flaky cart test\"; last: \"now make the linter happy\""),
            "{text}"
        );
        assert!(text.contains("- edited `src/cart.rs`"), "{text}");
        let open = text.find("`cargo clippy -- -D warnings` failed and had not passed since").expect(&text);
        let fixed = text.find("`cargo test -p cart` failed, then passed").expect(&text);
        assert!(open < fixed, "what still fails comes first: {text}");
        assert!(text.chars().count() <= MAX_CHARS);
    }

    #[test]
    fn the_section_keeps_within_its_cap_and_drops_lines_not_the_heading() {
        let mut s = Session::new("codex");
        for i in 0..20 {
            s.edit(&format!("src/module_{i}/with/a/rather/long/path/file_{i}.rs"));
        }
        s.shell("cargo test", Some(101), "1 failed");
        let left = left_off(s.activity(), Duration::days(2));
        let text = left.render(now(), &Utc, 220).unwrap();
        assert!(text.chars().count() <= 220, "{}: {text}", text.chars().count());
        assert!(text.contains("(2 days ago)") && text.contains("Wed 2 Dec"), "{text}");
        assert!(!text.contains("file_6.rs"), "five files named: {text}");
        assert!(left.render(now(), &Utc, 60).is_none(), "no room for the heading: nothing");
        let full = left.render(now(), &Utc, MAX_CHARS).unwrap();
        assert!(full.contains("and 15 more"), "{full}");
    }

    #[test]
    fn a_secret_in_a_command_never_reaches_the_section() {
        let mut s = Session::new("claude");
        s.shell("curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH' https://x", Some(22), "401");
        let text = left_off(s.activity(), Duration::minutes(5)).render(now(), &Utc, MAX_CHARS).unwrap();
        assert!(!text.contains("abcdefghijklmnopqrstuvwxyz0123456789"), "{text}");
        assert!(text.contains("5 minutes ago"), "{text}");
    }

    /// `session`'s events in `project`, `minutes` ago.
    fn in_project(mut session: Session, key: &str, project: &str, minutes: i64) -> Vec<HookEvent> {
        session
            .events
            .iter_mut()
            .map(|stored| {
                let mut event = stored.event.clone();
                event.id = EventId(format!("{key}-{}", stored.seq));
                event.session = SessionKey(key.to_owned());
                event.project = Some(project.to_owned());
                event.occurred_at =
                    Utc::now() - Duration::minutes(minutes) + Duration::seconds(stored.seq as i64);
                event
            })
            .collect()
    }

    #[tokio::test]
    async fn the_last_session_is_the_projects_latest_other_one_that_did_something() {
        let store = memory_core::InMemoryStore::new();
        let project = |id: &str| Project { id: id.into(), name: id.into(), root: "/src".into() };
        let mut worked = Session::new("claude");
        worked.prompt("fix the cart total").edit("src/cart.rs");
        let mut idle = Session::new("codex");
        idle.push(EventKind::SessionStart, json!({}), |_| {});
        let mut elsewhere = Session::new("claude");
        elsewhere.prompt("tidy the docs");
        let mut events = in_project(worked, "claude:worked", "a", 60);
        events.extend(in_project(idle, "codex:idle", "a", 30));
        events.extend(in_project(elsewhere, "claude:b", "b", 10));
        store.append(&events).await.unwrap();

        let current = SessionKey("codex:new".into());
        let found =
            last(&store, &project("a"), &current).await.unwrap().expect("a session did something in a");
        assert_eq!(found.session.as_str(), "claude:worked", "the idle one says nothing; b's is not a's");
        assert_eq!(found.title.as_deref(), Some("fix the cart total"));
        assert_eq!(found.activity.edited, ["src/cart.rs"]);
        assert!(last(&store, &project("c"), &current).await.unwrap().is_none(), "a project with no sessions");
        let itself = SessionKey("claude:b".into());
        assert!(last(&store, &project("b"), &itself).await.unwrap().is_none(), "never the session itself");

        // The session that starts is already under way (a resume, a compaction): nothing.
        let mut going_on = Session::new("codex");
        going_on.prompt("keep going").push(EventKind::SessionStart, json!({}), |_| {});
        store.append(&in_project(going_on, "codex:going", "a", 0)).await.unwrap();
        let going = SessionKey("codex:going".into());
        assert!(last(&store, &project("a"), &going).await.unwrap().is_none());
    }

    #[test]
    fn ago_reads_as_people_say_it() {
        let n = now();
        assert_eq!(ago(n, n), "just now");
        assert_eq!(ago(n - Duration::minutes(1), n), "1 minute ago");
        assert_eq!(ago(n - Duration::hours(30), n), "30 hours ago");
        assert_eq!(ago(n - Duration::days(3), n), "3 days ago");
        assert_eq!(ago(n - Duration::days(21), n), "3 weeks ago");
        assert_eq!(ago(n - Duration::days(90), n), "3 months ago");
        assert_eq!(ago(n + Duration::minutes(5), n), "just now", "a clock a little ahead");
    }

    #[test]
    fn the_share_is_small_and_bounded() {
        assert_eq!(share(9_000), MAX_CHARS);
        assert_eq!(share(3_000), 300);
        assert_eq!(share(1_500), 0, "a tight budget is the notes'");
    }
}
