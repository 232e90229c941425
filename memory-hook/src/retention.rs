//! Retention: events older than an age go once the dream has distilled them (their position is
//! at or below `dream:scanned`, the watermark a complete, unfiltered dream run leaves: every event
//! up to it has been read); each session loses a prefix of its events, and notes keep their ids
//! and sources. The dream prunes after each run when `[retention] events_days` is set.

use chrono::{DateTime, TimeDelta, Utc};
use memory_core::MemoryStore;
use serde::Serialize;

use crate::config::Config;
use crate::error::Result;

/// What a prune did.
#[derive(Debug, Clone, Serialize)]
pub struct Pruned {
    /// Events deleted.
    pub events: u64,
    /// The position limit (`dream:scanned`); `None` when no complete dream ran yet.
    pub up_to: Option<u64>,
    /// The cut-off time.
    pub before: DateTime<Utc>,
    /// Whether nothing was deleted: `events` is what would go.
    pub dry_run: bool,
}

/// The configured age (`[retention] events_days`), when one is configured.
pub fn configured_age(config: &Config) -> Option<TimeDelta> {
    config.retention.events_days.map(|days| TimeDelta::days(i64::from(days)))
}

/// Prunes with the configured age, when one is configured.
pub async fn prune_configured(config: &Config, store: &dyn MemoryStore) -> Result<Option<Pruned>> {
    match configured_age(config) {
        Some(age) => Ok(Some(prune(store, age).await?)),
        None => Ok(None),
    }
}

/// Deletes the distilled events older than `age`.
pub async fn prune(store: &dyn MemoryStore, age: TimeDelta) -> Result<Pruned> {
    let before = Utc::now() - age;
    // A complete, unfiltered run has distilled every event up to `dream:scanned`, whatever group
    // it belongs to. A group's own watermark only says where its last chunk ended: one for a
    // project that has been quiet for months stays low, yet nothing of it waits.
    let up_to = store.watermark(dream::SCANNED_WATERMARK).await?;
    let events = match up_to {
        Some(up_to) => store.prune_events(before, up_to).await?,
        None => 0,
    };
    Ok(Pruned { events, up_to, before, dry_run: false })
}

/// Counts the events [`prune`] would delete, deleting nothing: the same rule
/// ([`memory_core::retention::prefix_cuts`]) over the events up to `dream:scanned`.
pub async fn would_prune(store: &dyn MemoryStore, age: TimeDelta) -> Result<Pruned> {
    const PAGE: usize = 1_000;
    let before = Utc::now() - age;
    let up_to = store.watermark(dream::SCANNED_WATERMARK).await?;
    let mut events = 0;
    if let Some(limit) = up_to {
        let mut seen = Vec::new();
        let mut after = 0;
        loop {
            let page = store.events_after(after, PAGE).await?;
            let Some(last) = page.last() else { break };
            after = last.position;
            let done = page.len() < PAGE || after >= limit;
            seen.extend(
                page.into_iter()
                    .filter(|e| e.position <= limit)
                    .map(|e| (e.event.session.to_string(), e.seq, e.event.occurred_at)),
            );
            if done {
                break;
            }
        }
        seen.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let cuts = memory_core::retention::prefix_cuts(
            seen.iter().map(|(s, seq, at)| (s.as_str(), *seq, *at)),
            before,
        );
        events =
            seen.iter().filter(|(s, seq, _)| cuts.iter().any(|(cut, last)| cut == s && seq <= last)).count()
                as u64;
    }
    Ok(Pruned { events, up_to, before, dry_run: true })
}
