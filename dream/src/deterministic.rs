//! The deterministic provider: distils notes from events with fixed rules, no LLM.
//!
//! It folds the events of a chunk, in order, into these notes:
//! - `profile/preferences.md` (user scope): what the user states in general wording —
//!   preferences, rules, conventions, positive and negative, in their words;
//! - `project/<slug>/conventions.md`: what they state for the project ("here", "in this repo",
//!   "we use …") and facts about it ("the dev server runs on localhost:3000");
//! - `project/<slug>/commands.md`: shell commands the agent ran successfully, with counts
//!   (looking around and file chores left out);
//! - `project/<slug>/tools/<tool>/<subcommand>-flags.md`: the flags of those commands, credited to
//!   the program that takes them (`uv run pytest -q` → pytest); `tools/<tool>/…` in user scope once
//!   the tool is used in other projects too (or outside any project);
//! - `project/<slug>/hot-files.md`: files edited and read most;
//! - `project/<slug>/errors.md`: a failing command and what made it pass before the next success
//!   of its family in the same session — the change to the command, the commands run in between,
//!   else the files edited.
//!
//! Requests for work, questions and one-offs are not statements. A statement supersedes what it
//! corrects in its note ("we moved to Postgres 16, ignore the 14 stuff", "the dev server is on 5173
//! now"), and in the project retires the commands and tool notes it rules out (`npm` after "use
//! pnpm here, not npm", `curl localhost:3000` after the port changed). Deleted files leave the hot
//! files, with the commands that name them; commands, files and flags not seen for 60 days before
//! a note's latest item retire. Notes are rewritten as a whole from their items read back
//! (`- text (N×, last YYYY-MM-DD)`), never appended to, except notes a person edited: their text
//! stays and new items are appended below it. Output depends only on the request (everything is
//! ordered; no clock is read), so identical input gives byte-identical notes.

mod book;
pub(crate) mod fixes;
mod fold;
mod items;
mod purpose;
pub(crate) mod sightings;

pub(crate) use fold::records_activity;
pub(crate) use items::text_of;

use std::sync::Arc;

use crate::{DreamRequest, Meaning, Operations, Pricing, Provider, ProviderReply, Result, Usage};

/// The name the deterministic provider signs its notes with.
pub(crate) const GENERATOR: &str = "deterministic";

/// The rule-based provider (no LLM, no network, free).
#[derive(Clone, Default)]
pub struct DeterministicProvider {
    /// Reads what a correction points at by meaning when its words name no line.
    meaning: Option<Arc<dyn Meaning>>,
}

impl std::fmt::Debug for DeterministicProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeterministicProvider").field("meaning", &self.meaning.is_some()).finish()
    }
}

impl DeterministicProvider {
    /// The provider, by words alone.
    pub fn new() -> Self {
        Self::default()
    }

    /// The provider, reading what a correction points at by `meaning` too when no word of it
    /// names a line ("the monitoring bit is out of date" of "our error tracker is Sentry").
    pub fn with_meaning(meaning: Arc<dyn Meaning>) -> Self {
        Self { meaning: Some(meaning) }
    }

    /// The operations for a request (what [`Provider::propose`] returns).
    pub fn operations(&self, request: &DreamRequest) -> Operations {
        let mut weighted: Vec<(usize, u64, crate::NoteOperation)> =
            fold::fold(request, self.meaning.as_deref())
                .operations()
                .into_iter()
                .enumerate()
                .map(|(index, (weight, operation))| (index, weight, operation))
                .collect();
        // Over the limit, the notes with the most observations win; the order stays scope, path.
        if weighted.len() > request.limits.max_operations {
            weighted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            weighted.truncate(request.limits.max_operations);
            weighted.sort_by_key(|entry| entry.0);
        }
        Operations { operations: weighted.into_iter().map(|(_, _, operation)| operation).collect() }
    }
}

#[async_trait::async_trait]
impl Provider for DeterministicProvider {
    fn name(&self) -> String {
        GENERATOR.to_owned()
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
