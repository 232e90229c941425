//! Compact JSON views of notes and events, sized for an agent's context window.

use memory_core::{Note, Scope, StoredEvent};
use memory_hook::project::Catalog;
use serde_json::{Value, json};

/// Longest piece of free text (a prompt, a command, an error) quoted in an event summary.
const QUOTE_CHARS: usize = 240;

/// Longest body excerpt in a search hit.
pub(crate) const EXCERPT_CHARS: usize = 400;

/// A note's identity and frontmatter, without its body. A project's scope reads
/// `project:<name>`, which the tools accept back.
pub(crate) fn note_header(note: &Note, catalog: &Catalog) -> Value {
    let meta = &note.meta;
    let mut out = json!({
        "scope": catalog.label(&meta.scope),
        "path": note.path.as_str(),
        "title": meta.title,
        "kind": meta.kind.as_str(),
        "updated": meta.updated,
        "generator": meta.generator,
    });
    if let Some(owner) = &meta.owner {
        out["owner"] = json!(owner);
    }
    if let Some(description) = &meta.description {
        out["description"] = json!(description);
    }
    if !meta.tags.is_empty() {
        out["tags"] = json!(meta.tags);
    }
    out
}

/// The first `max` characters of a text, with `…` when something was cut.
pub(crate) fn clip(text: &str, max: usize) -> String {
    let mut chars = text.char_indices();
    match chars.nth(max) {
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
        None => text.to_owned(),
    }
}

/// One event as a line of what happened plus its place in its session, its project by name.
pub(crate) fn event(stored: &StoredEvent, catalog: &Catalog) -> Value {
    let e = &stored.event;
    let mut out = json!({
        "id": e.id.as_str(),
        "session": e.session.as_str(),
        "seq": stored.seq,
        "kind": e.kind.as_str(),
        "harness": e.harness.name,
        "occurred_at": e.occurred_at,
        "summary": describe(stored),
    });
    if let Some(project) = &e.project {
        let scope = Scope::Project(project.clone());
        let label = catalog.label(&scope);
        out["project"] = json!(label.strip_prefix("project:").unwrap_or(project));
    }
    if let Some(cwd) = &e.cwd {
        out["cwd"] = json!(cwd);
    }
    out
}

/// What an event says, in one short line.
fn describe(stored: &StoredEvent) -> String {
    let e = &stored.event;
    if let Some(prompt) = &e.prompt {
        return format!("prompt: {}", clip(prompt.trim(), QUOTE_CHARS));
    }
    if let Some(tool) = &e.tool {
        let mut line = format!("tool {}", tool.name);
        if let Some(input) = tool.input.as_ref().and_then(tool_input_text) {
            line.push_str(": ");
            line.push_str(&clip(&input, QUOTE_CHARS));
        }
        if let Some(error) = &tool.error {
            line.push_str(" — failed: ");
            line.push_str(&clip(error.trim(), QUOTE_CHARS));
        }
        return line;
    }
    e.kind.as_str().to_owned()
}

/// The telling part of a tool input: a shell command, a file path, or the compact JSON.
fn tool_input_text(input: &Value) -> Option<String> {
    for key in ["command", "cmd", "file_path", "path", "pattern", "query", "url"] {
        match input.get(key) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(Value::Array(parts)) if parts.iter().all(Value::is_string) => {
                let words: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                return Some(words.join(" "));
            }
            _ => {}
        }
    }
    match input {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cuts_on_characters_and_marks_the_cut() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("ééééé", 3), "ééé…");
        assert_eq!(clip("ab cd", 3), "ab…");
    }

    #[test]
    fn tool_input_prefers_the_command() {
        let input = json!({"command": "cargo test -p x", "description": "run"});
        assert_eq!(tool_input_text(&input).as_deref(), Some("cargo test -p x"));
        let argv = json!({"cmd": ["cargo", "build"]});
        assert_eq!(tool_input_text(&argv).as_deref(), Some("cargo build"));
        assert_eq!(tool_input_text(&json!({"n": 1})).as_deref(), Some("{\"n\":1}"));
    }
}
