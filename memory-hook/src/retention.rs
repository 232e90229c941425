//! Retention: events older than an age go once the dream has distilled them (their position is
//! at or below `dream:scanned`, the watermark a complete, unfiltered dream run leaves: every event
//! up to it has been read); each session loses a prefix of its events, and notes keep their ids,
//! items and sources. The events go through the same purge as a forget ([`crate::forget`],
//! [`Target::Distilled`]): rows, indexes, free pages and write-ahead log, log lines and ledgers.
//! The dream prunes after each run when `[retention] events_days` is set.

use chrono::{DateTime, TimeDelta, Utc};
use memory_core::MemoryStore;
use serde::Serialize;

use crate::config::Config;
use crate::env::Env;
use crate::error::Result;
use crate::forget::{self, Target};

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
pub async fn prune_configured(config: &Config, env: &Env, store: &dyn MemoryStore) -> Result<Option<Pruned>> {
    match configured_age(config) {
        Some(age) => Ok(Some(prune(config, env, store, age).await?)),
        None => Ok(None),
    }
}

/// Deletes the distilled events older than `age`, with every copy of them (see the module doc).
pub async fn prune(config: &Config, env: &Env, store: &dyn MemoryStore, age: TimeDelta) -> Result<Pruned> {
    let before = Utc::now() - age;
    let up_to = store.watermark(dream::SCANNED_WATERMARK).await?;
    let plan = forget::plan(store, config, env, &Target::Distilled { before }).await?;
    let events = if plan.events.is_empty() { 0 } else { forget::apply(store, &plan).await?.store.events };
    Ok(Pruned { events, up_to, before, dry_run: false })
}

/// Counts the events [`prune`] would delete, deleting nothing.
pub async fn would_prune(
    config: &Config,
    env: &Env,
    store: &dyn MemoryStore,
    age: TimeDelta,
) -> Result<Pruned> {
    let before = Utc::now() - age;
    let up_to = store.watermark(dream::SCANNED_WATERMARK).await?;
    let plan = forget::plan(store, config, env, &Target::Distilled { before }).await?;
    Ok(Pruned { events: plan.events.len() as u64, up_to, before, dry_run: true })
}
