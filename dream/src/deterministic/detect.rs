//! The detectors: what the deterministic provider learns from one chunk of events.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::{EventKind, NoteKind, Scope, StoredEvent, slug};

use crate::DreamRequest;
use crate::deterministic::items::{self, Items};
use crate::deterministic::statements::{self, Statement};
use crate::evidence::{self, FileAction, Outcome};

/// Commands too common to say anything about the user or project.
const TRIVIAL_COMMANDS: &[&str] = &[
    "ls", "cd", "pwd", "cat", "echo", "head", "tail", "wc", "clear", "which", "true", "false", "mkdir",
    "touch", "sleep", "printf", "test", "[", "exit", "export", "source", ".",
];

/// Most files listed between an error and its fix.
const MAX_FIX_FILES: usize = 3;

/// Everything learned for one note.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) kind: NoteKind,
    pub(crate) tags: Vec<String>,
    pub(crate) intro: String,
    /// Items are statements the user made (contradictions replace older items).
    pub(crate) statements: bool,
    pub(crate) items: Items,
    /// Source event ids by store position.
    pub(crate) sources: BTreeMap<u64, String>,
}

impl Target {
    fn observe(&mut self, text: &str, stored: &StoredEvent) {
        items::observe(&mut self.items, text, stored.event.occurred_at.date_naive());
        self.sources.insert(stored.position, stored.event.id.0.clone());
    }
}

type Targets = BTreeMap<(Scope, String), Target>;

/// Runs every detector over the request's events.
pub(crate) fn detect(request: &DreamRequest) -> Targets {
    let mut targets = Targets::new();
    let project = match &request.group {
        Scope::Project(id) => Some(id.clone()),
        _ => None,
    };
    let folder = request.project_folder();
    for stored in &request.events {
        let event = &stored.event;
        if let Some(prompt) = event.prompt.as_deref().filter(|_| event.kind == EventKind::UserPromptSubmit) {
            for (kind, sentence) in statements::statements(prompt) {
                let target = match (kind, &project, &folder) {
                    (Statement::Convention, Some(project), Some(folder)) => {
                        conventions(&mut targets, project, folder)
                    }
                    _ => preferences(&mut targets),
                };
                target.observe(&sentence, stored);
            }
        }
        if let (Some(command), Some(_)) = (evidence::shell_command(event), evidence::outcome(event))
            && !is_trivial(&command)
        {
            if let (Some(project), Some(folder)) = (&project, &folder) {
                commands(&mut targets, project, folder).observe(&format!("`{command}`"), stored);
            }
            if let Some((tool, sub, flags)) = flags_of(&command) {
                let target = flag_note(&mut targets, &tool, sub.as_deref());
                for flag in flags {
                    target.observe(&format!("`{flag}`"), stored);
                }
            }
        }
        if let (Some(project), Some(folder)) = (&project, &folder) {
            for (action, path) in evidence::touched_files(event) {
                let verb = match action {
                    FileAction::Edited => "edited",
                    FileAction::Read => "read",
                };
                hot_files(&mut targets, project, folder).observe(&format!("{verb} `{path}`"), stored);
            }
        }
    }
    if let (Some(project), Some(folder)) = (&project, &folder) {
        error_fixes(&mut targets, project, folder, &request.events);
    }
    targets
}

fn is_trivial(command: &str) -> bool {
    let first = command.split_whitespace().next().unwrap_or_default();
    TRIVIAL_COMMANDS.contains(&first)
}

/// The program, subcommand and flags of a command's first simple command (up to `&&`, `|`, `;`).
fn flags_of(command: &str) -> Option<(String, Option<String>, Vec<String>)> {
    let tokens: Vec<&str> = command
        .split_whitespace()
        .skip_while(|t| t.contains('=') && !t.starts_with('-'))
        .take_while(|t| !matches!(*t, "&&" | "||" | "|" | ";" | ">" | "2>&1"))
        .collect();
    let program = tokens.first()?.rsplit('/').next()?.to_owned();
    if TRIVIAL_COMMANDS.contains(&program.as_str()) || slug(&program) == "untitled" {
        return None;
    }
    let sub = tokens
        .get(1)
        .filter(|t| t.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .filter(|t| t.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
        .map(|t| (*t).to_owned());
    let mut flags: Vec<String> = tokens
        .iter()
        .filter(|t| t.starts_with('-') && **t != "--" && **t != "-")
        .map(|t| t.split('=').next().unwrap_or(t).replace('`', ""))
        .filter(|t| t.len() > 1)
        .collect();
    flags.dedup();
    if flags.is_empty() {
        return None;
    }
    Some((program, sub, flags))
}

fn entry(
    targets: &mut Targets,
    scope: Scope,
    path: String,
    make: impl FnOnce() -> (String, String, NoteKind, Vec<&'static str>, String, bool),
) -> &mut Target {
    targets.entry((scope.clone(), path.clone())).or_insert_with(|| {
        let (title, description, kind, tags, intro, statements) = make();
        Target {
            title,
            description,
            kind,
            tags: tags.into_iter().map(str::to_owned).collect(),
            intro,
            statements,
            items: Items::new(),
            sources: BTreeMap::new(),
        }
    })
}

fn preferences(targets: &mut Targets) -> &mut Target {
    entry(targets, Scope::User, "profile/preferences.md".to_owned(), || {
        (
            "Preferences".to_owned(),
            "How the user wants things done, in their own words; follow these in every project".to_owned(),
            NoteKind::Preference,
            vec!["preferences"],
            "Preferences and corrections the user stated, in their words.".to_owned(),
            true,
        )
    })
}

fn conventions<'a>(targets: &'a mut Targets, project: &str, folder: &str) -> &'a mut Target {
    entry(targets, Scope::Project(project.to_owned()), format!("{folder}/conventions.md"), || {
        (
            format!("Conventions of {project}"),
            "Rules the user stated for this project; follow them when changing it".to_owned(),
            NoteKind::Convention,
            vec!["conventions"],
            "Conventions the user stated for this project, in their words.".to_owned(),
            true,
        )
    })
}

fn commands<'a>(targets: &'a mut Targets, project: &str, folder: &str) -> &'a mut Target {
    entry(targets, Scope::Project(project.to_owned()), format!("{folder}/commands.md"), || {
        (
            format!("Commands used in {project}"),
            "Shell commands run in this project, to build, test and check it".to_owned(),
            NoteKind::Tool,
            vec!["commands"],
            "Shell commands run in this project, most frequent first.".to_owned(),
            false,
        )
    })
}

fn hot_files<'a>(targets: &'a mut Targets, project: &str, folder: &str) -> &'a mut Target {
    entry(targets, Scope::Project(project.to_owned()), format!("{folder}/hot-files.md"), || {
        (
            format!("Hot files in {project}"),
            "Files of this project that are edited and read most often".to_owned(),
            NoteKind::Fact,
            vec!["files"],
            "Files edited and read most often in this project.".to_owned(),
            false,
        )
    })
}

fn errors<'a>(targets: &'a mut Targets, project: &str, folder: &str) -> &'a mut Target {
    entry(targets, Scope::Project(project.to_owned()), format!("{folder}/errors.md"), || {
        (
            format!("Errors and fixes in {project}"),
            "Commands that failed in this project and what made them pass".to_owned(),
            NoteKind::Procedure,
            vec!["errors"],
            "Commands that failed in this project, and what made them succeed afterwards.".to_owned(),
            false,
        )
    })
}

fn flag_note<'a>(targets: &'a mut Targets, tool: &str, sub: Option<&str>) -> &'a mut Target {
    let tool_slug = slug(tool);
    let (path, label) = match sub {
        Some(sub) => (format!("tools/{tool_slug}/{}-flags.md", slug(sub)), format!("{tool} {sub}")),
        None => (format!("tools/{tool_slug}/flags.md"), tool.to_owned()),
    };
    entry(targets, Scope::User, path, || {
        (
            format!("{label} flags"),
            format!("Flags the user usually passes to `{label}`"),
            NoteKind::Tool,
            vec![],
            format!("Flags the user passes to `{label}`, most used first."),
            false,
        )
    })
    .with_tag(&tool_slug)
}

impl Target {
    fn with_tag(&mut self, tag: &str) -> &mut Self {
        if !self.tags.iter().any(|t| t == tag) {
            self.tags.push(tag.to_owned());
            self.tags.sort();
        }
        self
    }
}

/// The program and subcommand of a command (`cargo test`), used to pair a failure with its fix.
fn family(command: &str) -> String {
    command.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A failing shell command followed, in the same session, by a succeeding one of the same family.
fn error_fixes(targets: &mut Targets, project: &str, folder: &str, events: &[StoredEvent]) {
    struct Failure<'a> {
        stored: &'a StoredEvent,
        command: String,
        signature: String,
        edited: BTreeSet<String>,
    }
    let mut open: BTreeMap<(String, String), Failure<'_>> = BTreeMap::new();
    for stored in events {
        let event = &stored.event;
        let session = event.session.0.clone();
        for (action, path) in evidence::touched_files(event) {
            if action == FileAction::Edited {
                for ((s, _), failure) in open.iter_mut() {
                    if *s == session {
                        failure.edited.insert(path.clone());
                    }
                }
            }
        }
        let (Some(command), Some(outcome)) = (evidence::shell_command(event), evidence::outcome(event))
        else {
            continue;
        };
        if is_trivial(&command) {
            continue;
        }
        let key = (session, family(&command));
        match outcome {
            Outcome::Failed => {
                let signature = evidence::error_signature(&evidence::error_text(event));
                open.insert(key, Failure { stored, command, signature, edited: BTreeSet::new() });
            }
            Outcome::Succeeded => {
                let Some(failure) = open.remove(&key) else { continue };
                let files: Vec<String> =
                    failure.edited.iter().take(MAX_FIX_FILES).map(|f| format!("`{f}`")).collect();
                let after = if files.is_empty() {
                    String::new()
                } else {
                    format!(" after editing {}", files.join(", "))
                };
                let text = if failure.command == command {
                    format!("`{command}` failed with \"{}\"; it passed{after}", failure.signature)
                } else {
                    format!(
                        "`{}` failed with \"{}\"; `{command}` worked{after}",
                        failure.command, failure.signature
                    )
                };
                let target = errors(targets, project, folder);
                target.observe(&text, stored);
                target.sources.insert(failure.stored.position, failure.stored.event.id.0.clone());
            }
        }
    }
}
