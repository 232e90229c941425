//! What a dream run did (or, in a dry run, would do).

use memory_core::{NotePath, Scope};
use serde::Serialize;

use crate::Action;

/// The outcome of one run.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DreamReport {
    /// Events read past the watermarks of the processed groups (Injection events included).
    pub events_read: u64,
    /// Chunks handed to the provider.
    pub chunks: u64,
    /// Provider calls made (a chunk takes two when the first answer was invalid).
    pub provider_calls: u64,
    /// Notes created.
    pub notes_created: u64,
    /// Notes updated.
    pub notes_updated: u64,
    /// Notes deleted.
    pub notes_deleted: u64,
    /// Input tokens consumed.
    pub tokens_in: u64,
    /// Output tokens consumed.
    pub tokens_out: u64,
    /// Money spent, in US dollars (0 when the provider is free or its price is unknown).
    pub cost_usd: f64,
    /// Every change, with the note's Markdown before and after and a line diff.
    pub changes: Vec<PlannedChange>,
    /// Chunks given up; their groups stopped at the chunk and resume there next run.
    pub failures: Vec<ChunkFailure>,
    /// Why the run stopped early, if it did.
    pub stopped: Option<StopReason>,
    /// Whether nothing was written.
    pub dry_run: bool,
}

/// One note change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedChange {
    /// Create, update or delete.
    pub action: Action,
    /// The note's scope.
    pub scope: Scope,
    /// The note's path.
    pub path: NotePath,
    /// The provider's reason.
    pub reason: String,
    /// Whether a person wrote the version this change replaces (the change was merged into it).
    pub merged_into_human_edit: bool,
    /// The note as Markdown before the change (`None` for a create).
    pub before: Option<String>,
    /// The note as Markdown after the change (`None` for a delete).
    pub after: Option<String>,
    /// A unified-style line diff from `before` to `after`.
    pub diff: String,
}

/// A chunk that was given up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChunkFailure {
    /// The chunk's event group.
    pub group: Scope,
    /// Store position of the chunk's first event.
    pub first_position: u64,
    /// Store position of the chunk's last event.
    pub last_position: u64,
    /// What went wrong (the last attempt's validation errors or the provider error).
    pub errors: Vec<String>,
}

/// Why a run stopped before processing everything.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum StopReason {
    /// The next call could have exceeded `max_tokens`.
    TokenBudget {
        /// The cap.
        limit: u64,
        /// Tokens used so far.
        used: u64,
    },
    /// The next call could have exceeded `max_cost_usd`.
    CostBudget {
        /// The cap, in US dollars.
        limit: f64,
        /// Money spent so far.
        spent: f64,
    },
    /// The run read `max_events` events; what it read is distilled, the rest waits for the next run.
    EventLimit {
        /// The limit.
        limit: u64,
    },
    /// The provider failed (unreachable, unauthorised, out of retries); later chunks were not tried.
    ProviderFailed {
        /// The provider's error.
        message: String,
    },
}
