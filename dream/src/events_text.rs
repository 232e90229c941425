//! The compact text form of events that prompts carry: one line per event, led by its id.

use std::fmt::Write as _;

use memory_core::{EventKind, StoredEvent};
use serde_json::Value;

use crate::evidence::{self, Outcome};

/// Longest prompt kept per line, in characters.
const MAX_PROMPT_CHARS: usize = 1500;
/// Longest other detail kept per line, in characters.
const MAX_DETAIL_CHARS: usize = 400;

/// Renders events as lines like
/// `[<id>] 2026-11-30T10:00:00Z claude:1a2b3c4d PostToolUse Bash $ cargo test -> ok`.
///
/// `PreToolUse` events are left out (their result follows as a `PostToolUse`).
pub fn render_events(events: &[StoredEvent]) -> String {
    let mut out = String::new();
    for stored in events {
        let event = &stored.event;
        if event.kind == EventKind::PreToolUse {
            continue;
        }
        let session = event.session.as_str();
        let short_session: String = session.chars().take(event.harness.name.len() + 9).collect();
        let _ = write!(
            out,
            "[{}] {} {} {}",
            event.id,
            event.occurred_at.format("%Y-%m-%dT%H:%M:%SZ"),
            short_session,
            event.kind
        );
        let detail = detail(stored);
        if !detail.is_empty() {
            out.push(' ');
            out.push_str(&one_line(&detail));
        }
        out.push('\n');
    }
    out
}

fn detail(stored: &StoredEvent) -> String {
    let event = &stored.event;
    if let Some(prompt) = &event.prompt {
        return format!("prompt: {}", truncate(prompt, MAX_PROMPT_CHARS));
    }
    let Some(tool) = &event.tool else {
        let message = event.raw.get("last_assistant_message").and_then(Value::as_str).unwrap_or_default();
        return truncate(message, MAX_DETAIL_CHARS);
    };
    if let Some(command) = evidence::shell_command(event) {
        let result = match evidence::outcome(event) {
            Some(Outcome::Succeeded) => " -> ok".to_owned(),
            Some(Outcome::Failed) => {
                format!(" -> failed: {}", evidence::error_signature(&evidence::error_text(event)))
            }
            None => String::new(),
        };
        return format!("{} $ {command}{result}", tool.name);
    }
    let files = evidence::touched_files(event);
    if !files.is_empty() {
        let paths: Vec<&str> = files.iter().map(|(_, p)| p.as_str()).collect();
        return format!("{} {}", tool.name, paths.join(", "));
    }
    let input = tool.input.as_ref().map(Value::to_string).unwrap_or_default();
    let failed = match evidence::outcome(event) {
        Some(Outcome::Failed) => {
            format!(" -> failed: {}", evidence::error_signature(&evidence::error_text(event)))
        }
        _ => String::new(),
    };
    format!("{} {}{failed}", tool.name, truncate(&input, MAX_DETAIL_CHARS))
}

fn truncate(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max_chars).collect();
    out.push('…');
    out
}

fn one_line(text: &str) -> String {
    text.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ⏎ ")
}
