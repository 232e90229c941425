//! `agent-memory migrate --from <store> --to <store>`: copy everything between SQLite and Neo4j,
//! either way. Resumable: events are appended by id (a rerun skips what arrived), notes are copied
//! version by version only past what the target already holds, and progress is kept in the target.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use memory_core::{EventId, MemoryStore, NoteChange, NoteFilter, WatermarkAdvance};

use crate::output::{json as print_json, print};
use memory_hook::config::{Backend, Config};

/// Events read and appended per batch.
const BATCH: usize = 1_000;
/// Watermarks the migration keeps for itself in the target.
const OWN_PREFIX: &str = "migrate:";

/// A store named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StoreSpec {
    /// `sqlite` (the configured file) or `sqlite:PATH`.
    Sqlite(Option<PathBuf>),
    /// `neo4j` (the configured server) or `neo4j:URI`.
    Neo4j(Option<String>),
}

impl std::str::FromStr for StoreSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, rest) = s.split_once(':').map_or((s, None), |(k, r)| (k, Some(r.to_owned())));
        match kind {
            "sqlite" => Ok(Self::Sqlite(rest.map(PathBuf::from))),
            "neo4j" => Ok(Self::Neo4j(rest)),
            _ => Err(format!("`{s}` is not `sqlite[:PATH]` or `neo4j[:URI]`")),
        }
    }
}

impl std::fmt::Display for StoreSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Sqlite(None) => f.write_str("sqlite"),
            Self::Sqlite(Some(p)) => write!(f, "sqlite:{}", p.display()),
            Self::Neo4j(None) => f.write_str("neo4j"),
            Self::Neo4j(Some(uri)) => write!(f, "neo4j:{uri}"),
        }
    }
}

/// `agent-memory migrate` options.
#[derive(Debug, clap::Args)]
pub(crate) struct MigrateArgs {
    /// Source store: `sqlite`, `sqlite:PATH`, `neo4j` or `neo4j:URI` (credentials from the config
    /// or NEO4J_USERNAME / NEO4J_PASSWORD).
    #[arg(long)]
    from: StoreSpec,
    /// Target store, in the same form.
    #[arg(long)]
    to: StoreSpec,
}

async fn open(spec: &StoreSpec, config: &Config) -> anyhow::Result<Arc<dyn MemoryStore>> {
    let mut config = config.clone();
    match spec {
        StoreSpec::Sqlite(path) => {
            config.store.backend = Backend::Sqlite;
            if let Some(path) = path {
                config.store.sqlite.path = Some(path.clone());
            }
        }
        StoreSpec::Neo4j(uri) => {
            config.store.backend = Backend::Neo4j;
            if let Some(uri) = uri {
                config.store.neo4j.uri = Some(uri.clone());
            }
        }
    }
    crate::store::open(&config).await.with_context(|| format!("cannot open {spec}"))
}

/// What a migration copied.
#[derive(Debug, Default, serde::Serialize)]
pub(crate) struct Copied {
    pub(crate) events: u64,
    pub(crate) events_already_there: u64,
    pub(crate) note_versions: u64,
    pub(crate) notes: u64,
    pub(crate) watermarks: u64,
}

pub(crate) async fn run(args: MigrateArgs, json: bool) -> anyhow::Result<std::process::ExitCode> {
    anyhow::ensure!(args.from != args.to, "--from and --to name the same store");
    let config = Config::load()?;
    let from = open(&args.from, &config).await?;
    let to = open(&args.to, &config).await?;
    let bar = if json { indicatif::ProgressBar::hidden() } else { indicatif::ProgressBar::new_spinner() };
    let copied = migrate(&*from, &*to, &args.from.to_string(), &bar).await?;
    bar.finish_and_clear();
    if json {
        print_json(&copied)?;
    } else {
        print(&format!(
            "migrated {} → {}: {} events ({} already there), {} notes ({} versions), {} watermarks",
            args.from,
            args.to,
            copied.events,
            copied.events_already_there,
            copied.notes,
            copied.note_versions,
            copied.watermarks
        ));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Copies everything from `from` to `to`. `source` names the source in the target's progress
/// watermark, so an interrupted run resumes.
pub(crate) async fn migrate(
    from: &dyn MemoryStore,
    to: &dyn MemoryStore,
    source: &str,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<Copied> {
    let mut copied = Copied::default();
    let progress_mark = format!("{OWN_PREFIX}{source}");
    let mut watermarks: Vec<(String, u64)> =
        // Events' embeddings stay behind, so the target embeds its events again.
        from.watermarks()
            .await?
            .into_iter()
            .filter(|(name, _)| !name.starts_with(OWN_PREFIX) && name != memory_embed::EVENTS_WATERMARK)
            .collect();
    watermarks.sort_by_key(|(_, position)| *position);
    // For each source watermark, the id of the last source event at or before it.
    let mut last_event_at: Vec<Option<EventId>> = vec![None; watermarks.len()];

    // Events, in source order. The scan always starts at 0 so watermarks can be translated; the
    // appends before the saved progress are skipped.
    let resume = to.watermark(&progress_mark).await?.unwrap_or(0);
    let mut after = 0;
    loop {
        let batch = from.events_after(after, BATCH).await?;
        let Some(last) = batch.last() else { break };
        after = last.position;
        for stored in &batch {
            for (i, (_, mark)) in watermarks.iter().enumerate() {
                if stored.position <= *mark {
                    last_event_at[i] = Some(stored.event.id.clone());
                }
            }
        }
        let fresh: Vec<_> = batch.iter().filter(|s| s.position > resume).map(|s| s.event.clone()).collect();
        if !fresh.is_empty() {
            for appended in to.append(&fresh).await? {
                if appended.inserted {
                    copied.events += 1;
                } else {
                    copied.events_already_there += 1;
                }
            }
            to.set_watermark(&progress_mark, after).await?;
        }
        bar.set_message(format!("events: {} copied (source position {after})", copied.events));
        bar.tick();
    }

    // Notes with their history, oldest version first, past what the target already holds.
    for note in from.list_notes(&NoteFilter::all()).await? {
        let (scope, path) = (note.meta.scope.clone(), note.path.clone());
        let mut versions = from.note_history(&scope, &path).await?;
        versions.push(note);
        let start = match to.get_note(&scope, &path).await? {
            Some(current) => versions.iter().rposition(|v| *v == current).map_or(0, |i| i + 1),
            None => 0,
        };
        if start < versions.len() {
            if start == 0 {
                to.delete_note(&scope, &path).await?;
            }
            for version in &versions[start..] {
                to.commit(&[NoteChange::Put(version.clone())], None).await?;
                copied.note_versions += 1;
            }
        }
        copied.notes += 1;
        bar.set_message(format!("notes: {} copied", copied.notes));
        bar.tick();
    }

    // Watermarks, translated to the target's positions.
    for ((name, _), last) in watermarks.iter().zip(&last_event_at) {
        let position = match last {
            Some(id) => to.events_by_id(std::slice::from_ref(id)).await?.first().map_or(0, |s| s.position),
            None => 0,
        };
        to.commit(&[], Some(&WatermarkAdvance { name: name.clone(), position })).await?;
        copied.watermarks += 1;
    }
    Ok(copied)
}
