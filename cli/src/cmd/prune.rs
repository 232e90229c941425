//! `prune`: retention. Events older than the configured age go once the dream has distilled them
//! (their position is at or below `dream:scanned`, the watermark a complete, unfiltered dream run
//! leaves: every event up to it has been read); each session loses a prefix of its events, and
//! notes keep their ids and sources. The dream runs it after each run when `[retention]
//! events_days` is set.

use std::process::ExitCode;

use chrono::{TimeDelta, Utc};
use memory_core::MemoryStore;
use memory_hook::Config;
use serde::Serialize;

use crate::output;

/// Arguments of `prune`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct PruneArgs {
    /// Delete distilled events older than this (`30d`, `12h`) instead of `[retention] events_days`.
    #[arg(long, value_name = "DURATION")]
    older_than: Option<String>,
    /// Count the events that would go, and delete nothing.
    #[arg(long)]
    dry_run: bool,
}

/// What a prune did.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Pruned {
    /// Events deleted.
    pub(crate) events: u64,
    /// The position limit (`dream:scanned`); `None` when no complete dream ran yet.
    pub(crate) up_to: Option<u64>,
    /// The cut-off time.
    pub(crate) before: chrono::DateTime<Utc>,
    /// Whether nothing was deleted: `events` is what would go.
    pub(crate) dry_run: bool,
}

/// `agent-memory prune`.
pub(crate) async fn run(args: &PruneArgs, json: bool) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let age = match &args.older_than {
        Some(text) => memory_hook::capture::parse_length(text)?,
        None => match configured_age(&config) {
            Some(age) => age,
            None => anyhow::bail!(
                "no retention is configured: set `[retention] events_days` in the config, or pass --older-than 30d"
            ),
        },
    };
    let store = crate::store::open(&config).await?;
    let pruned = if args.dry_run { would_prune(&*store, age).await? } else { prune(&*store, age).await? };
    if json {
        output::json(&pruned)?;
    } else {
        match pruned.up_to {
            Some(_) => output::print(&format!(
                "{} {} events from before {} that the dream had distilled",
                if pruned.dry_run { "would prune" } else { "pruned" },
                pruned.events,
                output::clock().minute(pruned.before)
            )),
            None => output::print("nothing pruned: the dream has not distilled any events yet"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prunes with the configured age, when one is configured.
pub(crate) async fn configured(config: &Config, store: &dyn MemoryStore) -> anyhow::Result<Option<Pruned>> {
    match configured_age(config) {
        Some(age) => Ok(Some(prune(store, age).await?)),
        None => Ok(None),
    }
}

fn configured_age(config: &Config) -> Option<TimeDelta> {
    config.retention.events_days.map(|days| TimeDelta::days(i64::from(days)))
}

/// Deletes the distilled events older than `age`.
pub(crate) async fn prune(store: &dyn MemoryStore, age: TimeDelta) -> anyhow::Result<Pruned> {
    let before = Utc::now() - age;
    // A complete, unfiltered run has distilled every event up to `dream:scanned`, whatever group
    // it belongs to. A group's own watermark only says where its last chunk ended: one for a
    // project that has been quiet for months stays low, yet nothing of it waits.
    let up_to = store.watermark(::dream::SCANNED_WATERMARK).await?;
    let events = match up_to {
        Some(up_to) => store.prune_events(before, up_to).await?,
        None => 0,
    };
    Ok(Pruned { events, up_to, before, dry_run: false })
}

/// Counts the events [`prune`] would delete, deleting nothing: the same rule
/// ([`memory_core::retention::prefix_cuts`]) over the events up to `dream:scanned`.
pub(crate) async fn would_prune(store: &dyn MemoryStore, age: TimeDelta) -> anyhow::Result<Pruned> {
    const PAGE: usize = 1_000;
    let before = Utc::now() - age;
    let up_to = store.watermark(::dream::SCANNED_WATERMARK).await?;
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
