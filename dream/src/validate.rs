//! Checks a provider's operations and turns them into notes with frontmatter rendered by us.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use memory_core::{
    EventId, EventKind, GENERATOR_HUMAN, Note, NoteKind, NoteMeta, NotePath, Scope, StoredEvent, slug,
};

use crate::deterministic::text_of;
use crate::statements::{self, Claim, NotLasting, Reach};
use crate::{Action, Limits, NoteOperation, evidence};

/// Top-level folders a user-scoped note may live in.
pub const USER_FOLDERS: &[&str] = &["profile", "tools", "errors", "topics"];

/// Most source event ids kept in a note's frontmatter (the most recent ones).
pub const MAX_SOURCES: usize = 50;

/// The folder of a project's notes: `project/<slug of its readable name>`, or of its id when it
/// has no name. The scope says which project a note is about; the folder is for people.
pub fn project_folder(project_id: &str, name: Option<&str>) -> String {
    memory_core::project_folder(name.unwrap_or(project_id))
}

/// One validated change, ready to commit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValidChange {
    pub(crate) action: Action,
    pub(crate) scope: Scope,
    pub(crate) path: NotePath,
    pub(crate) before: Option<Note>,
    pub(crate) after: Option<Note>,
    pub(crate) reason: String,
}

/// What validation needs to know besides the operations.
#[derive(Debug)]
pub(crate) struct Context<'a> {
    /// The event group of the chunk.
    pub(crate) group: &'a Scope,
    /// The folder the group's project notes go in ([`project_folder`]); `None` for the user group.
    pub(crate) folder: Option<&'a str>,
    /// The chunk's events.
    pub(crate) events: &'a [StoredEvent],
    pub(crate) allowed_scopes: &'a [Scope],
    pub(crate) notes: &'a BTreeMap<(Scope, NotePath), Note>,
    /// Notes of other projects an operation may only take items out of, or delete
    /// ([`crate::DreamRequest::elsewhere`]).
    pub(crate) elsewhere: &'a BTreeMap<(Scope, NotePath), Note>,
    pub(crate) known_sources: &'a BTreeSet<String>,
    pub(crate) generator: &'a str,
    /// Whose memory the run writes ([`crate::DreamOptions::owner`]).
    pub(crate) owner: Option<&'a str>,
    pub(crate) now: DateTime<Utc>,
    pub(crate) limits: &'a Limits,
}

/// Validates every operation; returns the changes, or every problem found (nothing is applied then).
///
/// Updates that change no content (title, description, kind, tags, body) are dropped silently.
pub(crate) fn validate(
    operations: &[NoteOperation],
    context: &Context<'_>,
) -> Result<Vec<ValidChange>, Vec<String>> {
    let mut errors = Vec::new();
    let mut changes = Vec::new();
    if operations.len() > context.limits.max_operations {
        errors.push(format!(
            "{} operations, more than the limit of {}; merge related changes",
            operations.len(),
            context.limits.max_operations
        ));
    }
    let mut seen = BTreeSet::new();
    let said = Said::read(context.events);
    for (index, operation) in operations.iter().enumerate() {
        let label = format!("operation {} ({} {})", index + 1, operation.action.as_str(), operation.path);
        match validate_one(operation, context) {
            Ok(change) => {
                let problems = said.problems(&change, operation, context);
                if !problems.is_empty() {
                    errors.extend(problems.into_iter().map(|p| format!("{label}: {p}")));
                    continue;
                }
                if !seen.insert((change.scope.clone(), change.path.clone())) {
                    errors.push(format!("{label}: another operation already changes this note; use one"));
                    continue;
                }
                if change.action != Action::Update || content_changed(&change) {
                    changes.push(change);
                }
            }
            Err(problems) => errors.extend(problems.into_iter().map(|p| format!("{label}: {p}"))),
        }
    }
    if errors.is_empty() { Ok(changes) } else { Err(errors) }
}

fn content_changed(change: &ValidChange) -> bool {
    match (&change.before, &change.after) {
        (Some(before), Some(after)) => {
            before.body != after.body
                || before.meta.title != after.meta.title
                || before.meta.description != after.meta.description
                || before.meta.kind != after.meta.kind
                || before.meta.tags != after.meta.tags
        }
        _ => true,
    }
}

/// An operation on a note of another project, if it is on one: valid when it deletes the note,
/// or rewrites it with some of its lines and nothing else.
fn taken_from_elsewhere(
    operation: &NoteOperation,
    scope: &Scope,
    context: &Context<'_>,
) -> Option<Result<ValidChange, Vec<String>>> {
    let path = NotePath::new(operation.path.trim()).ok()?;
    let before = context.elsewhere.get(&(scope.clone(), path.clone()))?;
    if let Some(unknown) = operation.sources.iter().find(|id| !context.known_sources.contains(*id)) {
        return Some(Err(vec![format!("unknown source event id: {unknown}")]));
    }
    let after = match operation.action {
        Action::Delete => None,
        Action::Update => {
            let body = operation.body.as_deref().unwrap_or_default();
            let lines: BTreeSet<&str> = before.body.lines().map(str::trim_end).collect();
            if !body.lines().map(str::trim_end).all(|line| lines.contains(line)) {
                return Some(Err(vec![format!(
                    "notes of scope `{scope}` may only lose lines in this chunk; it adds to them"
                )]));
            }
            let mut note = before.clone();
            note.body = format!("{}\n", body.trim_end());
            note.meta.updated = context.now;
            note.meta.sources = merge_sources(&before.meta.sources, &operation.sources);
            Some(note)
        }
        Action::Create => {
            return Some(Err(vec![format!("scope `{scope}` is not allowed here; nothing is created there")]));
        }
    };
    Some(Ok(ValidChange {
        action: operation.action,
        scope: scope.clone(),
        path,
        before: Some(before.clone()),
        after,
        reason: operation.reason.clone(),
    }))
}

fn validate_one(operation: &NoteOperation, context: &Context<'_>) -> Result<ValidChange, Vec<String>> {
    let mut problems = Vec::new();
    let scope: Scope = match operation.scope.parse() {
        Ok(scope) => scope,
        Err(e) => return Err(vec![e.to_string()]),
    };
    if !context.allowed_scopes.contains(&scope) {
        if let Some(change) = taken_from_elsewhere(operation, &scope, context) {
            return change;
        }
        let allowed: Vec<String> = context.allowed_scopes.iter().map(ToString::to_string).collect();
        return Err(vec![format!("scope `{scope}` is not allowed here; use one of {}", allowed.join(", "))]);
    }
    let path = match NotePath::new(operation.path.trim()) {
        Ok(path) => path,
        Err(e) => return Err(vec![e.to_string()]),
    };
    match &scope {
        Scope::Project(id) => {
            let folder = context.folder.map_or_else(|| project_folder(id, None), str::to_owned);
            if !path.as_str().starts_with(&format!("{folder}/")) {
                problems.push(format!("notes of scope `{scope}` must be under `{folder}/`"));
            }
        }
        _ => {
            let top = path.as_str().split('/').next().unwrap_or_default();
            if !USER_FOLDERS.contains(&top) || !path.as_str().contains('/') {
                problems.push(format!(
                    "user notes must be under one of {}",
                    USER_FOLDERS.iter().map(|f| format!("`{f}/`")).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    let before = context.notes.get(&(scope.clone(), path.clone())).cloned();
    match (operation.action, &before) {
        (Action::Create, Some(_)) => problems.push("the note exists already; use update".to_owned()),
        (Action::Update | Action::Delete, None) => {
            problems.push("the note does not exist; use create (or leave it)".to_owned())
        }
        _ => (),
    }
    let unknown: Vec<&str> = operation
        .sources
        .iter()
        .map(String::as_str)
        .filter(|id| !context.known_sources.contains(*id))
        .collect();
    if !unknown.is_empty() {
        problems.push(format!("unknown source event ids: {}", unknown.join(", ")));
    }
    let human_edited = before.as_ref().is_some_and(Note::is_human_edited);
    if operation.action == Action::Delete {
        if human_edited {
            problems.push("the note was written by the user and must not be deleted".to_owned());
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        return Ok(ValidChange {
            action: Action::Delete,
            scope,
            path,
            before,
            after: None,
            reason: operation.reason.clone(),
        });
    }
    if operation.sources.is_empty() {
        problems.push("needs at least one source event id".to_owned());
    }
    let title = operation.title.as_deref().map(str::trim).unwrap_or_default();
    if title.is_empty() {
        problems.push("needs a title".to_owned());
    }
    let Some(kind) = operation.kind else {
        problems.push("needs a kind".to_owned());
        return Err(problems);
    };
    let Some(body) = operation.body.as_deref() else {
        problems.push("needs a body".to_owned());
        return Err(problems);
    };
    let mut body = body.trim_end().to_owned();
    body.push('\n');
    if body.trim().is_empty() {
        problems.push("the body is empty".to_owned());
    }
    // The limit is on what the provider wrote; the final newline is ours.
    let written = body.len() - 1;
    if written > context.limits.max_body_bytes {
        problems.push(format!(
            "the body is {written} bytes, over the limit of {}; make it shorter",
            context.limits.max_body_bytes
        ));
    }
    if let Some(before) = before.as_ref().filter(|b| b.is_human_edited()) {
        let kept: BTreeSet<&str> = body.lines().map(str::trim_end).collect();
        for line in before.body.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()) {
            if !kept.contains(line) {
                problems.push(format!(
                    "the note was written by the user; keep each of its lines unchanged (missing: {line:?})"
                ));
                break;
            }
        }
    }
    let mut tags: Vec<String> = operation.tags.iter().map(|t| slug(t)).filter(|t| t != "untitled").collect();
    tags.sort();
    tags.dedup();
    let sources = merge_sources(
        before.as_ref().map(|b| b.meta.sources.as_slice()).unwrap_or_default(),
        &operation.sources,
    );
    let generator = if human_edited { GENERATOR_HUMAN } else { context.generator };
    let description = operation
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| d.replace('\n', " "));
    let note = Note {
        path: path.clone(),
        meta: NoteMeta {
            title: title.to_owned(),
            description,
            tags,
            scope: scope.clone(),
            kind,
            sources,
            updated: context.now,
            generator: generator.to_owned(),
            owner: context
                .owner
                .map(str::to_owned)
                .or_else(|| before.as_ref().and_then(|b| b.meta.owner.clone())),
        },
        body,
    };
    if !title.is_empty()
        && let Err(e) = note.validate()
    {
        problems.push(e.to_string());
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(ValidChange {
        action: operation.action,
        scope,
        path,
        before,
        after: Some(note),
        reason: operation.reason.clone(),
    })
}

/// Existing sources followed by new ones not yet listed, keeping the last [`MAX_SOURCES`].
fn merge_sources(existing: &[EventId], new: &[String]) -> Vec<EventId> {
    let mut out: Vec<EventId> = existing.to_vec();
    for id in new {
        if !out.iter().any(|e| e.as_str() == id) {
            out.push(EventId(id.clone()));
        }
    }
    let excess = out.len().saturating_sub(MAX_SOURCES);
    out.drain(..excess);
    out
}

/// Why a line a model adds is not to be filed, read by the rules the deterministic distiller reads
/// statements by: in no note a credential or a redaction marker; in the notes of what was stated
/// (preferences, conventions, profile, facts) no question, hypothetical, somebody else's words,
/// story of the past, joke or one-off either. Code spans are not read for mood (`--since=today`).
fn not_lasting(line: &str, kind: NoteKind) -> Option<String> {
    let text = text_of(line);
    let stated =
        matches!(kind, NoteKind::Preference | NoteKind::Convention | NoteKind::Profile | NoteKind::Fact);
    let why = if statements::carries_secret(text) {
        Some(NotLasting::Secret)
    } else if stated && !line.trim_start().starts_with('#') {
        statements::line_not_lasting(text)
    } else {
        None
    };
    why.map(|why| {
        format!(
            "the line {line:?} is {}; leave it out: notes keep only what is meant to last, never a secret",
            why.what()
        )
    })
}

/// What the user stated in the chunk, to hold operations to the scope rules and the correction
/// semantics.
#[derive(Debug)]
struct Said {
    /// Per prompt event: its id and the reach of each statement in it.
    prompts: BTreeMap<String, Vec<Reach>>,
    /// Statements that name something as replaced, with their event's position and id.
    corrections: Vec<Correction>,
    /// Every prompt and shell command of the chunk, by position, to tell a value stated again
    /// after its correction.
    texts: Vec<(u64, String)>,
}

#[derive(Debug)]
struct Correction {
    position: u64,
    id: String,
    reach: Reach,
    claim: Claim,
}

impl Said {
    fn read(events: &[StoredEvent]) -> Self {
        let mut said = Self { prompts: BTreeMap::new(), corrections: Vec::new(), texts: Vec::new() };
        for stored in events {
            let event = &stored.event;
            if let Some(command) = evidence::shell_command(event) {
                said.texts.push((stored.position, command));
            }
            let Some(prompt) = event.prompt.as_deref().filter(|_| event.kind == EventKind::UserPromptSubmit)
            else {
                continue;
            };
            let found = statements::statements(prompt);
            for statement in &found {
                said.texts.push((stored.position, statement.text.clone()));
                let claim = statements::claim(&statement.text);
                if !claim.replaced().is_empty() {
                    said.corrections.push(Correction {
                        position: stored.position,
                        id: event.id.0.clone(),
                        reach: statement.reach,
                        claim,
                    });
                }
            }
            // A correction that points back lands where what it points at lives (a preference in
            // the profile) unless its words name the project.
            let reaches = found
                .into_iter()
                .map(|s| {
                    if s.reference.is_some() && !statements::project_worded(&s.text) {
                        Reach::General
                    } else {
                        s.reach
                    }
                })
                .collect();
            said.prompts.insert(event.id.0.clone(), reaches);
        }
        said
    }

    /// What a valid change breaks of the scope rules and correction semantics.
    fn problems(
        &self,
        change: &ValidChange,
        operation: &NoteOperation,
        context: &Context<'_>,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        let Some(after) = &change.after else { return problems };
        let before = change.before.as_ref();
        let human = before.is_some_and(Note::is_human_edited);
        let before_lines: BTreeSet<&str> =
            before.map(|b| b.body.lines().map(str::trim_end).collect()).unwrap_or_default();
        let added: Vec<&str> = after
            .body
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty() && !before_lines.contains(l))
            .collect();
        if let Scope::Project(id) = context.group
            && change.scope == Scope::User
            && change.path.as_str().starts_with("profile/")
        {
            let folder = context.folder.map_or_else(|| project_folder(id, None), str::to_owned);
            let home = format!("in scope `project:{id}` under `{folder}/conventions.md`");
            if let Some(line) = added
                .iter()
                .find(|l| statements::project_worded(text_of(l)) && !statements::said_everywhere(text_of(l)))
            {
                problems.push(format!(
                    "the line {line:?} is worded for this project; put it {home}, not in the user's profile"
                ));
            }
            // Cited prompts whose statements all reach the project, and no other cited prompt: a
            // prompt with no statement found, or with a general one, may be what the note says.
            let cited: Vec<&Vec<Reach>> =
                operation.sources.iter().filter_map(|id| self.prompts.get(id)).collect();
            let only_project = !cited.is_empty()
                && cited
                    .iter()
                    .all(|reaches| !reaches.is_empty() && reaches.iter().all(|r| *r == Reach::Project));
            if only_project {
                problems.push(format!(
                    "its sources state rules for this project only (\"here\", \"in this repo\", \"we …\"); put them {home}, not in the user's profile"
                ));
            }
        }
        if !human {
            problems.extend(added.iter().filter_map(|line| not_lasting(line, after.meta.kind)));
        }
        // Statements live in preference, convention and profile notes; fact and tool notes hold
        // what the agent saw (files, commands), which a statement does not retire.
        let stated =
            matches!(after.meta.kind, NoteKind::Preference | NoteKind::Convention | NoteKind::Profile);
        if stated && !human {
            let reach = if change.scope == Scope::User { Reach::General } else { Reach::Project };
            for correction in self.corrections.iter().filter(|c| c.reach == reach) {
                let kept = after.body.lines().map(str::trim_end).find(|line| {
                    before_lines.contains(line)
                        && correction.claim.rules_out_line(text_of(line))
                        && !self.stated_again(correction)
                });
                if let Some(line) = kept {
                    problems.push(format!(
                        "the line {line:?} keeps what event {} superseded ({}); remove it and keep only the new value, without the old one as history",
                        correction.id,
                        correction.claim.replaced().join(", ")
                    ));
                }
            }
        }
        problems
    }

    /// Whether what a correction replaced comes up again after it in the chunk (the user went back
    /// to it, or the agent used it again).
    fn stated_again(&self, correction: &Correction) -> bool {
        self.texts
            .iter()
            .filter(|(position, _)| *position > correction.position)
            .any(|(_, text)| correction.claim.rules_out_line(text))
    }
}
