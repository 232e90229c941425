//! What a provider is asked ([`DreamRequest`]) and what it answers ([`ProviderReply`]).

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use memory_core::{Note, Scope, StoredEvent};
use serde::Serialize;
use serde_json::Value;

use crate::Operations;

/// Bounds on one provider call and on what it may write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Most operations accepted from one reply.
    pub max_operations: usize,
    /// Largest accepted note body, in bytes (at most [`memory_core::MAX_BODY_LEN`]).
    pub max_body_bytes: usize,
    /// Most output tokens a provider may generate per call (`max_tokens` on the wire).
    pub max_output_tokens: u64,
    /// Most characters of current notes put into one prompt; notes beyond it are listed by path only.
    pub max_notes_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_operations: 20,
            max_body_bytes: 8 * 1024,
            max_output_tokens: 8192,
            max_notes_chars: 60_000,
        }
    }
}

/// One chunk of events and everything a provider needs to turn it into note operations.
#[derive(Debug, Clone)]
pub struct DreamRequest {
    /// The event group this chunk belongs to: `Scope::Project(id)` for a project's events,
    /// `Scope::User` for events without a project.
    pub group: Scope,
    /// Scopes the operations may write: the group's scope and `Scope::User`.
    pub allowed_scopes: Vec<Scope>,
    /// The events, in store order, without `Injection` events. Stored events are redacted already.
    pub events: Vec<StoredEvent>,
    /// The events as compact text, one line each, for prompts.
    pub events_text: String,
    /// The current notes of the allowed scopes, as last written in this run, ordered by scope and path.
    pub notes: Vec<Note>,
    /// Tools (slugs of `<tool>` in `project/<folder>/tools/<tool>/…`) that notes of other projects
    /// describe. A tool used across projects gets its notes in user scope (`tools/<tool>/…`);
    /// one used in this project only keeps them in the project.
    pub tools_elsewhere: BTreeSet<String>,
    /// The notes of the user's other projects that record what the agent did there (commands,
    /// errors and fixes, hot files, tool flags), as last written in this run. A statement that
    /// holds everywhere takes what it rules out from them too; nothing else is written there,
    /// and they are not shown to a model.
    pub elsewhere: Vec<Note>,
    /// The JSON schema the reply must follow ([`crate::operations_schema`]).
    pub schema: Value,
    /// Validation errors of the previous attempt for this chunk; empty on the first attempt.
    pub previous_errors: Vec<String>,
    /// Bounds on the reply.
    pub limits: Limits,
    /// The run's time; the only clock a provider may read.
    pub now: DateTime<Utc>,
    /// The readable name of the group's project (`webshop` for `project:webshop-09503e0d`), for
    /// titles; `None` for the user group or a project without one.
    pub project_name: Option<String>,
}

impl DreamRequest {
    /// The folder project notes of this chunk live in (`project/<slug of the name>/`), if the group
    /// is a project.
    pub fn project_folder(&self) -> Option<String> {
        match &self.group {
            Scope::Project(id) => Some(crate::validate::project_folder(id, self.project_name.as_deref())),
            _ => None,
        }
    }

    /// Rough input size of the prompt an LLM provider builds from this request, in tokens
    /// (characters / 4).
    pub fn estimated_input_tokens(&self) -> u64 {
        let chars = crate::prompt::system_prompt().len() + crate::prompt::user_prompt(self).len();
        (chars as u64).div_ceil(4)
    }
}

/// Tokens and money one provider call consumed.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Usage {
    /// Input (prompt) tokens, cached ones included.
    pub input_tokens: u64,
    /// Output (completion) tokens.
    pub output_tokens: u64,
    /// What the call cost, when the provider reports it; otherwise computed from [`Pricing`].
    pub cost_usd: Option<f64>,
}

/// Prices per million tokens, in US dollars.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pricing {
    /// Dollars per million input tokens.
    pub input_per_mtok: f64,
    /// Dollars per million output tokens.
    pub output_per_mtok: f64,
}

impl Pricing {
    /// Free (local models).
    pub const FREE: Self = Self { input_per_mtok: 0.0, output_per_mtok: 0.0 };

    /// Builds a price.
    pub fn new(input_per_mtok: f64, output_per_mtok: f64) -> Self {
        Self { input_per_mtok, output_per_mtok }
    }

    /// What the given tokens cost.
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (input_tokens as f64 * self.input_per_mtok + output_tokens as f64 * self.output_per_mtok) / 1e6
    }

    /// List prices of well-known hosted models, matched by model-name prefix. Unknown models
    /// return `None`: configure a price explicitly for them.
    pub fn for_model(model: &str) -> Option<Self> {
        const TABLE: &[(&str, f64, f64)] = &[
            ("claude-opus-4-5", 5.0, 25.0),
            ("claude-opus-4-6", 5.0, 25.0),
            ("claude-opus-4", 15.0, 75.0),
            ("claude-sonnet-4", 3.0, 15.0),
            ("claude-3-7-sonnet", 3.0, 15.0),
            ("claude-haiku-4", 1.0, 5.0),
            ("claude-3-5-haiku", 0.8, 4.0),
            ("gpt-4.1-nano", 0.1, 0.4),
            ("gpt-4.1-mini", 0.4, 1.6),
            ("gpt-4.1", 2.0, 8.0),
            ("gpt-4o-mini", 0.15, 0.6),
            ("gpt-4o", 2.5, 10.0),
            ("gpt-5-nano", 0.05, 0.4),
            ("gpt-5-mini", 0.25, 2.0),
            ("gpt-5", 1.25, 10.0),
        ];
        TABLE
            .iter()
            .find(|(prefix, _, _)| model.starts_with(prefix))
            .map(|&(_, input, output)| Self::new(input, output))
    }
}

/// A provider's answer to one [`DreamRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderReply {
    /// The proposed operations, parsed but not yet validated.
    pub operations: Operations,
    /// What the call consumed.
    pub usage: Usage,
}
