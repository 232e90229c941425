//! Progress callbacks, so a caller can draw a progress bar (the library never prints).

use memory_core::Scope;

/// Receives progress of a dream run. Every method has an empty default.
pub trait Progress: Send + Sync {
    /// Events were read from the store; `position` is the store position reached so far.
    fn scanned(&self, events_read: u64, position: u64) {
        let _ = (events_read, position);
    }

    /// A chunk of `events` events of `group` goes to the provider.
    fn chunk_started(&self, group: &Scope, events: usize) {
        let _ = (group, events);
    }

    /// A chunk finished: its changes were committed (or planned, in a dry run) or it failed.
    fn chunk_finished(&self, group: &Scope, outcome: &ChunkOutcome) {
        let _ = (group, outcome);
    }
}

/// How one chunk ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkOutcome {
    /// The chunk's changes and watermark were committed (or planned).
    Applied {
        /// Notes created.
        created: usize,
        /// Notes updated.
        updated: usize,
        /// Notes deleted.
        deleted: usize,
    },
    /// The chunk was given up; nothing of it was written.
    Failed {
        /// Why.
        message: String,
    },
}

/// A [`Progress`] that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
