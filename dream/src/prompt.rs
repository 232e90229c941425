//! The prompt LLM providers send: stable instructions first, then the current notes, then the new
//! events (this order lets prompt caches reuse the longest prefix within a run).

use std::fmt::Write as _;

use memory_core::Note;

use crate::DreamRequest;

const INSTRUCTIONS: &str = "\
You maintain a small library of Markdown notes that a coding agent reads at the start of its \
sessions: who the user is and what they prefer, how they use their tools, and each project's \
conventions, commands, hot files and known errors with their fixes.

You receive the current notes and a log of new events (prompts the user typed, commands and tools \
the agent ran, with their outcome). Answer with note operations that fold what the events teach into \
the notes.

How to work:
1. Orient: read the current notes first. Improve them; never create a second note on a topic an \
existing note covers.
2. Consolidate: merge, don't append. An update rewrites the whole note (title, tags, body): keep \
what is still true, add what is new, drop what the events now contradict. Write dates as absolute \
dates (YYYY-MM-DD), never \"yesterday\".
3. Keep only durable knowledge: stated preferences and corrections, conventions, commands that work, \
errors and how they were fixed. Leave out one-off details, guesses and anything secret.
4. Be brief: short bullet points, one fact per line. A note should read in seconds.
5. When nothing is worth recording, return an empty list of operations.

Rules (answers breaking them are rejected):
- scope is `user` for knowledge about the user everywhere (paths under profile/, tools/, errors/ or \
topics/) or the project scope given below for that project's knowledge (paths under the project \
folder given below). No other scope.
- path: lowercase relative path ending in .md, segments of a-z 0-9 - _ . only, like \
`tools/cargo/test-flags.md`.
- create only paths that do not exist; update and delete only notes that exist.
- create and update need title (one line), kind (profile, preference, convention, tool, procedure \
or fact), body and at least one source; delete needs none of them (use null).
- sources: ids of events in the log (the bracketed hex ids) the change is based on.
- Notes marked human_edited=\"true\" were written by the user: never delete them; on update keep \
every line of their body exactly as it is and only add lines.
- tags: lowercase words or slugs like `testing`.";

/// The stable part of the prompt: instructions and rules.
pub fn system_prompt() -> &'static str {
    INSTRUCTIONS
}

/// The current notes, as tagged blocks; notes past the size limit are listed by path only.
pub fn notes_block(request: &DreamRequest) -> String {
    let mut out = String::from("Current notes:\n");
    if request.notes.is_empty() {
        out.push_str("(none yet)\n");
        return out;
    }
    let mut used = 0;
    for note in &request.notes {
        let rendered = render_note(note);
        if used + rendered.len() > request.limits.max_notes_chars {
            let _ = writeln!(
                out,
                "<note scope=\"{}\" path=\"{}\" human_edited=\"{}\" omitted=\"too long for this prompt\"/>",
                note.meta.scope,
                note.path,
                note.is_human_edited()
            );
            continue;
        }
        used += rendered.len();
        out.push_str(&rendered);
    }
    out
}

fn render_note(note: &Note) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<note scope=\"{}\" path=\"{}\" human_edited=\"{}\">",
        note.meta.scope,
        note.path,
        note.is_human_edited()
    );
    let _ = writeln!(out, "title: {}", note.meta.title);
    if let Some(description) = &note.meta.description {
        let _ = writeln!(out, "description: {description}");
    }
    let _ = writeln!(out, "kind: {}", note.meta.kind.as_str());
    let _ = writeln!(out, "tags: {}", note.meta.tags.join(", "));
    out.push_str("---\n");
    out.push_str(&note.body);
    if !note.body.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("</note>\n");
    out
}

/// The new events and where this chunk may write.
pub fn events_block(request: &DreamRequest) -> String {
    let mut out = String::new();
    let scopes: Vec<String> = request.allowed_scopes.iter().map(ToString::to_string).collect();
    let _ = writeln!(out, "Allowed scopes: {}", scopes.join(", "));
    if let Some(folder) = request.project_folder() {
        let _ = writeln!(out, "Project folder for scope {}: {folder}", request.group);
    }
    let _ = writeln!(out, "Today: {}", request.now.format("%Y-%m-%d"));
    let _ = writeln!(out, "At most {} operations.", request.limits.max_operations);
    out.push_str("\nNew events:\n");
    out.push_str(&request.events_text);
    out
}

/// The previous attempt's validation errors, or an empty string on a first attempt.
pub fn errors_block(request: &DreamRequest) -> String {
    if request.previous_errors.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "Your previous answer was rejected, nothing was written. Fix these problems and answer again \
         with the complete list of operations:\n",
    );
    for error in &request.previous_errors {
        let _ = writeln!(out, "- {error}");
    }
    out
}

/// The whole user message: notes, events, then any errors of the previous attempt.
pub fn user_prompt(request: &DreamRequest) -> String {
    let mut out = notes_block(request);
    out.push('\n');
    out.push_str(&events_block(request));
    let errors = errors_block(request);
    if !errors.is_empty() {
        out.push('\n');
        out.push_str(&errors);
    }
    out
}
