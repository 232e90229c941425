//! The deterministic provider: distils notes from events with fixed rules, no LLM.
//!
//! It writes, from the events of one chunk:
//! - `project/<slug>/commands.md`: shell commands run in the project, with counts;
//! - `tools/<tool>/<subcommand>-flags.md` (user scope): flags the user passes to each tool;
//! - `project/<slug>/hot-files.md`: files edited and read most;
//! - `project/<slug>/errors.md`: a failing command followed in the same session by a succeeding one
//!   of the same family (`cargo test`), with the files edited in between;
//! - `profile/preferences.md` (user scope) and `project/<slug>/conventions.md`: sentences of prompts
//!   stating preferences or corrections ("I prefer", "always", "never", "don't", "use X instead of
//!   Y", "from now on") or conventions ("in this project we …").
//!
//! Every note is rewritten as a whole from accumulated evidence: the items of the current note are
//! read back (`- text (N×, last YYYY-MM-DD)`), counts add up, statements contradicted by newer ones
//! are dropped. Notes a person edited are never rewritten: new items are appended below their text.
//! Output depends only on the request (everything is sorted; no clock is read), so identical input
//! gives byte-identical notes.

mod detect;
mod items;
mod statements;

use memory_core::{Note, Scope};

use crate::{
    Action, DreamRequest, NoteOperation, Operations, Pricing, Provider, ProviderReply, Result, Usage,
};

/// The rule-based provider (no LLM, no network, free).
#[derive(Debug, Clone, Copy, Default)]
pub struct DeterministicProvider;

impl DeterministicProvider {
    /// The provider.
    pub fn new() -> Self {
        Self
    }

    /// The operations for a request (what [`Provider::propose`] returns).
    pub fn operations(&self, request: &DreamRequest) -> Operations {
        let mut weighted = Vec::new();
        for ((scope, path), target) in detect::detect(request) {
            if target.items.is_empty() {
                continue;
            }
            let weight: u64 = target.items.values().map(|i| i.count).sum();
            let current = request.notes.iter().find(|n| n.meta.scope == scope && n.path.as_str() == path);
            if let Some(operation) = operation_for(&scope, &path, target, current) {
                weighted.push((weighted.len(), weight, operation));
            }
        }
        // Over the limit, the notes with the most observations win; the order stays scope, path.
        if weighted.len() > request.limits.max_operations {
            weighted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            weighted.truncate(request.limits.max_operations);
            weighted.sort_by_key(|entry| entry.0);
        }
        Operations { operations: weighted.into_iter().map(|(_, _, operation)| operation).collect() }
    }
}

fn operation_for(
    scope: &Scope,
    path: &str,
    target: detect::Target,
    current: Option<&Note>,
) -> Option<NoteOperation> {
    let sources: Vec<String> = target.sources.values().cloned().collect();
    let observations = target.items.values().map(|i| i.count).sum::<u64>();
    let base = NoteOperation {
        action: Action::Create,
        scope: scope.to_string(),
        path: path.to_owned(),
        title: Some(target.title.clone()),
        description: Some(target.description.clone()),
        kind: Some(target.kind),
        tags: target.tags.clone(),
        body: None,
        reason: format!("{observations} new observation(s) in {} event(s)", sources.len()),
        sources,
    };
    let Some(current) = current else {
        let body = items::render(&target.intro, &target.items);
        return Some(NoteOperation { body: Some(body), ..base });
    };
    if current.is_human_edited() {
        // Keep the person's text as it is; append only items it does not mention yet.
        let lower = current.body.to_lowercase();
        let mut added: Vec<&items::Item> =
            target.items.values().filter(|item| !lower.contains(&item.text.to_lowercase())).collect();
        if added.is_empty() {
            return None;
        }
        added.sort_by(|a, b| a.text.cmp(&b.text));
        let mut body = current.body.trim_end().to_owned();
        let ends_with_list = body.lines().last().is_some_and(|line| line.starts_with("- "));
        body.push_str(if ends_with_list { "\n" } else { "\n\n" });
        for item in added {
            body.push_str(&items::line(item));
            body.push('\n');
        }
        return Some(NoteOperation {
            action: Action::Update,
            title: Some(current.meta.title.clone()),
            description: current.meta.description.clone(),
            kind: Some(current.meta.kind),
            tags: current.meta.tags.clone(),
            body: Some(body),
            ..base
        });
    }
    let mut merged = items::parse(&current.body);
    if target.statements {
        statements::drop_contradicted(&mut merged, &target.items);
    }
    items::merge(&mut merged, target.items);
    let body = items::render(&target.intro, &merged);
    if body == current.body {
        return None;
    }
    Some(NoteOperation { action: Action::Update, body: Some(body), ..base })
}

#[async_trait::async_trait]
impl Provider for DeterministicProvider {
    fn name(&self) -> String {
        "deterministic".to_owned()
    }

    fn pricing(&self) -> Option<Pricing> {
        Some(Pricing::FREE)
    }

    fn estimate_usage(&self, _request: &DreamRequest) -> Usage {
        Usage::default()
    }

    async fn propose(&self, request: &DreamRequest) -> Result<ProviderReply> {
        Ok(ProviderReply { operations: self.operations(request), usage: Usage::default() })
    }
}
