//! How a dream run is configured.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use memory_core::Scope;

use crate::Limits;

/// Which event groups a run processes.
///
/// Events are grouped by their project: a project's events (`Scope::Project(id)`, watermark
/// `dream:project:<id>`) may write that project's notes and user notes; events without a project
/// (`Scope::User`, watermark `dream:user`) may write user notes only.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ScopeFilter {
    /// Every group.
    #[default]
    All,
    /// Only these groups.
    Only(Vec<Scope>),
}

impl ScopeFilter {
    /// Whether the group is processed.
    pub fn contains(&self, group: &Scope) -> bool {
        match self {
            Self::All => true,
            Self::Only(scopes) => scopes.contains(group),
        }
    }
}

/// Options of one dream run. Build with [`DreamOptions::new`] and change fields as needed.
#[derive(Debug, Clone)]
pub struct DreamOptions {
    /// Plan only: call the provider and validate, but write nothing (no notes, no watermark). The
    /// report's `changes` hold the planned diffs.
    pub dry_run: bool,
    /// Most events (Injection events not counted) per provider call.
    pub chunk_size: usize,
    /// Stop before a call that could take the run's tokens (input + output) over this number.
    pub max_tokens: Option<u64>,
    /// Stop before a call that could take the run's cost over this many US dollars.
    pub max_cost_usd: Option<f64>,
    /// Read at most this many events past the watermarks: the run distills what it read, commits
    /// each group's watermark there, and the rest waits for the next run.
    pub max_events: Option<u64>,
    /// Which event groups to process.
    pub scopes: ScopeFilter,
    /// The run's time: written as `updated` into every note; the only clock the run reads.
    pub now: DateTime<Utc>,
    /// Bounds on each provider call and its operations.
    pub limits: Limits,
    /// Readable project names by project id, for note titles; a project without one is titled by
    /// its id.
    pub project_names: BTreeMap<String, String>,
    /// The user's own redaction rules, applied with the built-in ones to every note written.
    pub redaction_rules: Vec<memory_redact::CustomRule>,
    /// Whose memory the run writes: recorded as the owner of every note it writes
    /// ([`memory_core::NoteMeta::owner`]). `None` keeps each note's owner as it was.
    pub owner: Option<String>,
}

impl DreamOptions {
    /// Default options for a run at `now`: not dry, 200 events per chunk, no caps or limits, every
    /// scope.
    pub fn new(now: DateTime<Utc>) -> Self {
        Self {
            dry_run: false,
            chunk_size: 200,
            max_tokens: None,
            max_cost_usd: None,
            max_events: None,
            scopes: ScopeFilter::All,
            now,
            limits: Limits::default(),
            project_names: BTreeMap::new(),
            redaction_rules: Vec::new(),
            owner: None,
        }
    }
}

/// The watermark name of an event group: `dream:<scope>` (`dream:user`, `dream:project:acme`).
pub fn watermark_name(group: &Scope) -> String {
    format!("dream:{group}")
}

/// The watermark recording how far a complete, unfiltered run scanned the event log. Scans start
/// at the lowest of it and every group watermark.
pub const SCANNED_WATERMARK: &str = "dream:scanned";
