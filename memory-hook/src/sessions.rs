//! Sessions as a person names them: a title (the dream's summary of the session once it ran,
//! else its first real prompt, redacted and cut to a readable length), and a session key given
//! in full, by a unique prefix (`claude:d57191af`, or the id alone), or as `last`.

use memory_core::{
    EventKind, HookEvent, MemoryStore, NoteFilter, Scope, SessionInfo, SessionKey, StoredEvent,
};
use memory_redact::Redactor;

use crate::{Error, Result};

/// The longest title, in characters (an ellipsis marks a cut).
pub const TITLE_CHARS: usize = 64;

/// How many of a session's first events are read for its first real prompt.
const FIRST_EVENTS: usize = 40;

/// What a session key names when it is `last`: the most recent session.
pub const LAST: &str = "last";

/// The title of `key`'s session: the title of the dream's note on it when there is one, else its
/// first real prompt, else `None` (a session of tool calls only, or one retention pruned).
pub async fn title(store: &dyn MemoryStore, key: &SessionKey) -> Result<Option<String>> {
    if let Some(title) = noted_title(store, key).await? {
        return Ok(Some(title));
    }
    let events = store.timeline(key, 0, FIRST_EVENTS).await?;
    Ok(events
        .iter()
        .filter(|e| e.event.kind == EventKind::UserPromptSubmit)
        .filter_map(|e| e.event.prompt.as_deref())
        .find_map(prompt_title))
}

/// The title of the dream's note on `key`'s session, if it has one.
pub async fn noted_title(store: &dyn MemoryStore, key: &SessionKey) -> memory_core::Result<Option<String>> {
    let filter = NoteFilter { scope: Some(Scope::Session(key.0.clone())), prefix: None };
    let notes = store.list_notes(&filter).await?;
    let summary = notes.iter().find(|n| n.path.as_str().starts_with("summary")).or(notes.first());
    Ok(summary.filter(|n| !n.meta.title.trim().is_empty()).map(|note| readable(&note.meta.title)))
}

/// The titles of `sessions`, in their order.
pub async fn titles(store: &dyn MemoryStore, sessions: &[SessionInfo]) -> Result<Vec<Option<String>>> {
    let mut out = Vec::with_capacity(sessions.len());
    for s in sessions {
        out.push(title(store, &s.key).await?);
    }
    Ok(out)
}

/// The title a prompt gives its session, or `None` when it is no real prompt: empty, a slash
/// command (`/clear`), or text a harness sends in tags (`<command-name>…`).
pub fn prompt_title(prompt: &str) -> Option<String> {
    prompt_title_by(&Redactor::new(), prompt)
}

/// [`prompt_title`] with a redactor of the caller's: one for many prompts compiles its patterns
/// once.
pub fn prompt_title_by(redactor: &Redactor, prompt: &str) -> Option<String> {
    let text = prompt.trim_start();
    if text.is_empty() || text.starts_with('/') || text.starts_with('<') {
        return None;
    }
    Some(readable_by(redactor, text))
}

/// `text` redacted, on one line, cut at a word to [`TITLE_CHARS`].
fn readable(text: &str) -> String {
    readable_by(&Redactor::new(), text)
}

fn readable_by(redactor: &Redactor, text: &str) -> String {
    let redacted = redactor.redact_text(text).into_owned();
    let line = redacted.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= TITLE_CHARS {
        return line;
    }
    let cut: String = line.chars().take(TITLE_CHARS - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(at) if at > TITLE_CHARS / 2 => &cut[..at],
        _ => &cut,
    };
    format!("{}…", cut.trim_end_matches([',', '.', ';', ':', ' ']))
}

/// The session `given` names among `sessions` (most recent first, as [`MemoryStore::sessions`]
/// lists them): its full key, `last` (the most recent, of `project` when one is given), or a
/// prefix of one key alone (with or without its harness: `claude:d571` or `d571`).
pub fn resolve<'s>(
    sessions: &'s [SessionInfo],
    given: &str,
    project: Option<&str>,
) -> Result<&'s SessionInfo> {
    let given = given.trim();
    if let Some(exact) = sessions.iter().find(|s| s.key.as_str() == given) {
        return Ok(exact);
    }
    if given == LAST {
        return sessions.iter().find(|s| project.is_none_or(|p| s.project.as_deref() == Some(p))).ok_or_else(
            || Error::Session {
                message: if project.is_some() {
                    "no session recorded in this project yet".to_owned()
                } else {
                    "no session recorded yet".to_owned()
                },
            },
        );
    }
    let matches: Vec<&SessionInfo> = sessions
        .iter()
        .filter(|s| {
            let key = s.key.as_str();
            key.starts_with(given) || key.split_once(':').is_some_and(|(_, id)| id.starts_with(given))
        })
        .collect();
    match matches.as_slice() {
        [one] if !given.is_empty() => Ok(one),
        [] | [_] => Err(Error::Session {
            message: format!("no session `{given}`; `agent-memory sessions` lists the keys"),
        }),
        many => {
            let shown: Vec<&str> = many.iter().take(8).map(|s| s.key.as_str()).collect();
            let more = if many.len() > shown.len() {
                format!(" and {} more", many.len() - shown.len())
            } else {
                String::new()
            };
            Err(Error::Session {
                message: format!(
                    "`{given}` is the start of {} session keys: {}{more}; type more of the key",
                    many.len(),
                    shown.join(", ")
                ),
            })
        }
    }
}

/// How far apart, in events, Cursor's two reports of one shell call may be.
pub const TWIN_REACH: usize = 4;

/// `events` as a person reads them: Cursor reports one shell call twice (`postToolUse` of its
/// `Shell` tool, and `afterShellExecution`), and only the first stays, with the other's output
/// when it has none. The store keeps both reports; this is for listing them.
pub fn merge_twins(events: Vec<StoredEvent>) -> Vec<StoredEvent> {
    let mut out: Vec<StoredEvent> = Vec::with_capacity(events.len());
    for stored in events {
        let reach = out.len().saturating_sub(TWIN_REACH);
        if let Some(first) = out[reach..].iter_mut().rev().find(|kept| twins(&kept.event, &stored.event)) {
            // The `postToolUse` report's call stays (it alone carries the exit code), with the
            // other's output when it has none.
            let later_is_post = report(&stored.event) == Some("postToolUse");
            let (mut call, mut other) = (first.event.tool.take(), stored.event.tool);
            if later_is_post {
                (call, other) = (other, call);
            }
            if let (Some(call), Some(other)) = (call.as_mut(), other)
                && call.output.is_none()
            {
                call.output = other.output;
            }
            first.event.tool = call;
            continue;
        }
        out.push(stored);
    }
    out
}

/// The harness's name for the hook that reported `event`.
fn report(event: &HookEvent) -> Option<&str> {
    event.raw.get("hook_event_name").and_then(serde_json::Value::as_str)
}

/// Whether `a` and `b` are Cursor's two reports of one shell call.
fn twins(a: &HookEvent, b: &HookEvent) -> bool {
    let (Some(first), Some(second)) = (report(a), report(b)) else { return false };
    let pair = matches!(
        (first, second),
        ("postToolUse", "afterShellExecution") | ("afterShellExecution", "postToolUse")
    );
    let command = |e: &HookEvent| {
        let tool = e.tool.as_ref().filter(|t| t.name == "Shell")?;
        tool.input.as_ref()?.get("command")?.as_str().map(str::trim).map(str::to_owned)
    };
    pair && a.harness.name == "cursor"
        && b.harness.name == "cursor"
        && a.session == b.session
        && command(a).is_some()
        && command(a) == command(b)
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;

    fn info(key: &str, project: &str) -> SessionInfo {
        SessionInfo {
            key: SessionKey(key.to_owned()),
            harness: key.split(':').next().unwrap().to_owned(),
            project: Some(project.to_owned()),
            owner: None,
            started_at: Utc::now(),
            last_at: Utc::now(),
            events: 1,
        }
    }

    #[test]
    fn a_unique_prefix_names_its_session_and_an_ambiguous_one_lists_the_candidates() {
        let all = [info("claude:d57191af-1", "a"), info("codex:d57100aa", "b"), info("claude:9a0b", "a")];
        assert_eq!(resolve(&all, "claude:d571", None).unwrap().key.as_str(), "claude:d57191af-1");
        assert_eq!(resolve(&all, "9a", None).unwrap().key.as_str(), "claude:9a0b");
        let err = resolve(&all, "d571", None).unwrap_err().to_string();
        assert!(err.contains("claude:d57191af-1") && err.contains("codex:d57100aa"), "{err}");
        assert!(resolve(&all, "zz", None).unwrap_err().to_string().contains("no session `zz`"));
        assert!(resolve(&all, "", None).is_err());
    }

    #[test]
    fn last_is_the_most_recent_session_of_the_project_when_one_is_given() {
        let all = [info("codex:x", "b"), info("claude:y", "a")];
        assert_eq!(resolve(&all, "last", None).unwrap().key.as_str(), "codex:x");
        assert_eq!(resolve(&all, "last", Some("a")).unwrap().key.as_str(), "claude:y");
        assert!(resolve(&all, "last", Some("c")).is_err());
    }

    #[test]
    fn a_title_is_one_redacted_line_cut_at_a_word() {
        assert_eq!(prompt_title("  fix the\n  flaky test ").as_deref(), Some("fix the flaky test"));
        assert_eq!(prompt_title("/clear"), None);
        assert_eq!(prompt_title("<command-name>/model</command-name>"), None);
        let long = "please refactor the checkout flow so that the cart total is computed once and cached";
        let title = prompt_title(long).unwrap();
        assert!(title.ends_with('…') && title.chars().count() <= TITLE_CHARS, "{title}");
        assert!(long.starts_with(title.trim_end_matches('…')), "{title}");
        let secret = prompt_title("use key AKIAIOSFODNN7EXAMPLE for s3").unwrap();
        assert!(!secret.contains("AKIAIOSFODNN7EXAMPLE"), "{secret}");
    }

    fn cursor_event(seq: u64, hook: &str, command: &str, output: Option<&str>) -> StoredEvent {
        let mut e = HookEvent::new(
            memory_core::EventId(format!("e{seq}")),
            memory_core::Harness::named("cursor"),
            SessionKey("cursor:c".into()),
            EventKind::PostToolUse,
            Utc::now(),
            serde_json::json!({ "hook_event_name": hook }),
        );
        e.tool = Some(memory_core::ToolCall {
            name: "Shell".into(),
            input: Some(serde_json::json!({ "command": command })),
            output: output.map(|o| serde_json::json!(o)),
            ..memory_core::ToolCall::default()
        });
        StoredEvent { seq, position: seq, event: e }
    }

    #[test]
    fn cursors_two_reports_of_one_shell_call_are_one_row() {
        let events = vec![
            cursor_event(1, "postToolUse", "cargo test", None),
            cursor_event(2, "afterShellExecution", "cargo test", Some("3 passed")),
            cursor_event(3, "afterShellExecution", "cargo build", Some("ok")),
            cursor_event(4, "postToolUse", "cargo build", Some("{}")),
            cursor_event(5, "postToolUse", "cargo test", None),
        ];
        let rows = merge_twins(events);
        let seqs: Vec<u64> = rows.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, [1, 3, 5], "each call once, the second run of a command kept");
        let output = rows[0].event.tool.as_ref().unwrap().output.clone();
        assert_eq!(output, Some(serde_json::json!("3 passed")), "the twin's output is kept");
        let output = rows[1].event.tool.as_ref().unwrap().output.clone();
        assert_eq!(output, Some(serde_json::json!("{}")), "the postToolUse report's call stays");
    }
}
