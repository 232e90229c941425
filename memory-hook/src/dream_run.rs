//! Running the dream as the `agent-memory` binary runs it: the provider the config names, the
//! journal delivered first, options from the config, the notes embedded, retention and the local
//! copy of the notes brought up to date afterwards; single flight under the dream lock, within the
//! automatic dream's limits when a hook started it, and a record of every run.
//!
//! - [`dream()`] runs the distiller once over an open store, holding no lock (a dry run, or a caller
//!   that holds the lock itself).
//! - [`by_hand`] is a run someone asked for: it waits for a running dream, takes the lock, runs to
//!   the end and records itself.
//! - [`background`] is the run a hook starts ([`crate::Process::start_dream`]): it adopts the lock
//!   the hook handed over (or takes a free one, or does nothing), stays within
//!   `dream.auto_max_events` and `dream.auto_max_seconds`, and ends its process should the run
//!   outlive its time limit by [`HARD_STOP_GRACE`].
//!
//! The caller opens the store: these functions take a future that opens it, awaited once the
//! lock is held so a store that cannot be opened is recorded as a failed run, and the caller's
//! [`OpenStore`] for the local copy of the notes hooks read in forward mode. A custom
//! integration's dream process runs the same dream as the binary's with
//!
//! ```no_run
//! # async fn dream(stores: &dyn memory_hook::OpenStore, lock: Option<memory_hook::DreamLock>) {
//! let config = memory_hook::Config::load().unwrap_or_else(|_| memory_hook::Config::fallback(&memory_hook::Env::process()));
//! memory_hook::dream_run::background(&config, lock, "session-end", 200, stores.open(&config), stores).await;
//! # }
//! ```
//!
//! Each run starts a new count of waiting events ([`Tally`]), and records itself in
//! `<data_dir>/logs/dream.log` and `<data_dir>/dream/last.json` ([`DreamRun`]); a background run
//! that does not run logs why.

use std::future::Future;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use dream::{
    AnthropicConfig, AnthropicProvider, ChunkOutcome, DeterministicProvider, DreamOptions, DreamReport,
    HarnessCliConfig, HarnessCliProvider, HarnessKind, OPENAI_BASE_URL_VAR, OpenAiConfig, OpenAiProvider,
    Progress, Provider, ScopeFilter,
};
use memory_core::{EventKind, MemoryStore, Scope};
use memory_redact::Redactor;

use crate::autodream::{DreamLock, DreamRun, Holder, RunOutcome, Tally};
use crate::config::Config;
use crate::dream_lease;
use crate::error::{Error, Result};
use crate::journal::{DrainMode, Journal};
use crate::project::{Catalog, Registry};
use crate::{Env, OpenStore};

/// How long a background run may outlive its time limit (a provider call that ignores being
/// cancelled, a store that does not answer) before its process ends itself.
pub const HARD_STOP_GRACE: Duration = Duration::from_secs(15);

/// The dream's providers, as the config (`dream.provider`) and the command line name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderName {
    /// No LLM: frequent commands, hot files, error→fix pairs, stated preferences (the default).
    Deterministic,
    /// Anthropic Messages API (`ANTHROPIC_API_KEY`).
    Anthropic,
    /// Any OpenAI-compatible chat completions server.
    Openai,
    /// The Claude Code CLI in print mode (`claude -p`).
    ClaudeCli,
    /// The Codex CLI (`codex exec`).
    CodexCli,
}

impl ProviderName {
    /// Every provider, in the order messages list them.
    pub const ALL: [Self; 5] =
        [Self::Deterministic, Self::Anthropic, Self::Openai, Self::ClaudeCli, Self::CodexCli];

    /// Its name in the config and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Deterministic => "deterministic",
            Self::Anthropic => "anthropic",
            Self::Openai => "openai",
            Self::ClaudeCli => "claude-cli",
            Self::CodexCli => "codex-cli",
        }
    }
}

impl FromStr for ProviderName {
    type Err = Error;

    /// A provider by its name, in any case; an unknown name is the config's mistake.
    fn from_str(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(name))
            .ok_or_else(|| Error::DreamProvider { name: name.to_owned() })
    }
}

/// What a run reads and how: each field left unset takes the config's `[dream]` value.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Only these event groups: `user`, `project:<name>` or `project` (the project of
    /// [`Self::cwd`]); empty for all.
    pub scopes: Vec<String>,
    /// The distiller (default: the config's `dream.provider`, else deterministic).
    pub provider: Option<ProviderName>,
    /// Model for LLM providers (overrides the config and the provider's env variable).
    pub model: Option<String>,
    /// Base URL for HTTP providers.
    pub base_url: Option<String>,
    /// Plan the changes, write nothing.
    pub dry_run: bool,
    /// Most tokens (input + output) the run may use.
    pub max_tokens: Option<u64>,
    /// Most US dollars the run may spend.
    pub max_cost_usd: Option<f64>,
    /// Events per provider call.
    pub chunk_size: usize,
    /// Most note changes accepted from one provider call.
    pub max_operations: Option<u16>,
    /// Longest note body a provider may write, in bytes (clamped to 64..=16384).
    pub max_body_bytes: Option<u16>,
    /// Most events read past the watermarks; the rest waits for the next run.
    pub max_events: Option<u64>,
    /// The folder whose project `project` names.
    pub cwd: Option<PathBuf>,
}

impl Default for RunOptions {
    /// Everything from the config, in chunks of 200 events, from the process's current folder.
    fn default() -> Self {
        Self {
            scopes: Vec::new(),
            provider: None,
            model: None,
            base_url: None,
            dry_run: false,
            max_tokens: None,
            max_cost_usd: None,
            chunk_size: 200,
            max_operations: None,
            max_body_bytes: None,
            max_events: None,
            cwd: std::env::current_dir().ok(),
        }
    }
}

impl RunOptions {
    /// A run with the configured provider and caps, in chunks of `chunk_size`, reading at most
    /// `max_events` (at least one).
    pub fn configured(chunk_size: usize, max_events: u64) -> Self {
        Self { chunk_size, max_events: Some(max_events.max(1)), ..Self::default() }
    }
}

/// The provider `options` name, else the config's, with the model and base URL given there.
pub fn provider(config: &Config, options: &RunOptions) -> Result<Box<dyn Provider>> {
    let named = match (options.provider, config.dream.provider.as_deref()) {
        (Some(p), _) => p,
        (None, None) => ProviderName::Deterministic,
        (None, Some(name)) => name.parse()?,
    };
    let model = options.model.clone().or_else(|| config.dream.model.clone());
    let base_url = options.base_url.clone().or_else(|| config.dream.base_url.clone());
    Ok(match named {
        // With the embedding model installed, a correction is read by meaning too.
        ProviderName::Deterministic => match config.semantic_model() {
            Some(dir) => Box::new(DeterministicProvider::with_meaning(Arc::new(ByMeaning {
                dir,
                model: std::sync::OnceLock::new(),
            }))),
            None => Box::new(DeterministicProvider::new()),
        },
        ProviderName::Anthropic => {
            let mut c = AnthropicConfig::from_env()?;
            if let Some(m) = model {
                c.model = m;
            }
            if let Some(u) = base_url {
                c.base_url = u;
            }
            Box::new(AnthropicProvider::new(c)?)
        }
        ProviderName::Openai => {
            // The base URL given here counts as `OPENAI_BASE_URL`, so a local server needs no key.
            let mut c = OpenAiConfig::from_env_with(&|name| match (name, &base_url) {
                (OPENAI_BASE_URL_VAR, Some(url)) => Some(url.clone()),
                _ => std::env::var(name).ok(),
            })?;
            if let Some(m) = model {
                c.model = m;
            }
            Box::new(OpenAiProvider::new(c)?)
        }
        ProviderName::ClaudeCli | ProviderName::CodexCli => {
            let kind =
                if named == ProviderName::ClaudeCli { HarnessKind::Claude } else { HarnessKind::Codex };
            let mut c = HarnessCliConfig::from_env(kind)?;
            if let Some(m) = model {
                c.model = Some(m);
            }
            Box::new(HarnessCliProvider::new(c))
        }
    })
}

/// Runs the dream once over `store`, holding no lock: in forward mode the journal is delivered
/// first (the dream reads the server); after a run that wrote, the notes are embedded, retention
/// prunes ([`crate::retention`]) and the local copy of the notes is refreshed through `stores`.
pub async fn dream(
    config: &Config,
    store: &dyn MemoryStore,
    stores: &dyn OpenStore,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<DreamReport> {
    if config.forwards() && !options.dry_run {
        // In forward mode events wait in the journal until the forwarder delivers them: the dream
        // reads the server, so it delivers them first (waiting for a delivery under way).
        crate::forward::deliver(&crate::forward::journals(config, &Env::process()), store).await?;
    }
    let provider = provider(config, options)?;
    let registry = Registry::new(&config.data_dir());
    // Every project's notes in its folder first, so the run maintains them where people read them.
    let catalog = if options.dry_run {
        Catalog::load(&registry, store).await?
    } else {
        Catalog::load_settled(&registry, store).await?
    };
    let here = match &options.cwd {
        Some(cwd) => registry.lookup(cwd)?,
        None => None,
    };
    let mut run = DreamOptions::new(Utc::now());
    run.project_names = catalog.names();
    run.redaction_rules = config.redact.rules().unwrap_or_default();
    run.owner = crate::owner::of(config).map(str::to_owned);
    run.dry_run = options.dry_run;
    run.chunk_size = options.chunk_size;
    run.max_tokens = options.max_tokens.or(config.dream.max_tokens);
    run.max_cost_usd = options.max_cost_usd.or(config.dream.max_cost_usd);
    run.max_events = options.max_events;
    if let Some(n) = options.max_operations.map(usize::from).or(config.dream.max_operations) {
        run.limits.max_operations = n.max(1);
    }
    if let Some(n) = options.max_body_bytes.map(usize::from).or(config.dream.max_body_bytes) {
        run.limits.max_body_bytes = n.clamp(64, memory_core::MAX_BODY_LEN);
    }
    if !options.scopes.is_empty() {
        let only =
            options.scopes.iter().map(|s| catalog.scope(s, here.as_ref())).collect::<Result<Vec<Scope>>>()?;
        run.scopes = ScopeFilter::Only(only);
    }
    let names = memory_core::ProjectNames::new(catalog.names());
    if !run.dry_run {
        // What people changed in a shared folder is in the store before the run merges into it;
        // a folder that cannot be read costs the run nothing.
        let _ = crate::share::before_dream(config, store, &names).await;
    }
    let report = dream::run(store, &*provider, &run, progress).await.map_err(Error::DreamRun)?;
    if !run.dry_run {
        embed(config, store, EVENTS_PER_DREAM).await?;
        // Shared folders follow the notes (never committed); one that cannot be written is
        // written at the next run.
        let _ = crate::share::after_dream(config, store, &names).await;
        // Shared projects' notes go to the team server and the others' come in; a server out of
        // reach costs the run nothing (the next run tries again, and `doctor` says so).
        let _ = crate::team::sync_configured(config, stores, store, &names).await;
        // What this run distilled may now be old enough to go; a failure costs the run nothing.
        let _ = crate::retention::prune_configured(config, &Env::process(), store).await;
        // Hooks in forward mode read the notes from their local copy.
        if config.forwards() {
            crate::forward::refresh_replica(config, stores, store).await?;
        }
    }
    Ok(report)
}

/// Most events a dream embeds for history search by meaning; the rest wait for the next run
/// (about forty seconds of a core at this many).
pub const EVENTS_PER_DREAM: usize = 5_000;

/// What [`embed`] embedded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Embedded {
    /// Notes and their passages.
    pub notes: memory_embed::Refreshed,
    /// Events read past the events' watermark (each embedded, or passed over as bookkeeping).
    pub events: usize,
}

/// Embeds the notes of `store` that have none, then at most `events` of its events not yet
/// embedded, when the model is installed and retrieval by meaning is on; `None` otherwise.
pub async fn embed(config: &Config, store: &dyn MemoryStore, events: usize) -> Result<Option<Embedded>> {
    let Some(embedder) = config.embedder() else { return Ok(None) };
    let notes = memory_embed::refresh(store, &embedder, usize::MAX).await.map_err(Error::Embed)?;
    let events = memory_embed::refresh_events(store, &embedder, events).await.map_err(Error::Embed)?;
    Ok(Some(Embedded { notes, events }))
}

/// The embedding model, as the dream reads meaning: the cosine of two texts' embeddings. The
/// model is read from `dir` the first time a correction needs it, not for every dream.
struct ByMeaning {
    dir: PathBuf,
    model: std::sync::OnceLock<Option<memory_embed::Embedder>>,
}

impl dream::Meaning for ByMeaning {
    fn similarities(&self, text: &str, others: &[&str]) -> Option<Vec<f32>> {
        let model = self.model.get_or_init(|| memory_embed::Embedder::open(&self.dir).ok()).as_ref()?;
        let pointer = model.embed(text, memory_embed::PROMPT_TOKENS).ok()?;
        let lines = model.embed_all(others, memory_embed::PROMPT_TOKENS).ok()?;
        Some(lines.iter().map(|line| line.iter().zip(&pointer).map(|(a, b)| a * b).sum()).collect())
    }
}

/// What a run typed by hand waits for.
#[derive(Debug, Clone)]
pub enum Busy {
    /// Another dream of this machine, holding the dream lock (who, when it says).
    Here(Option<Holder>),
    /// A dream elsewhere (another machine on the same server), holding the store's lease.
    Elsewhere(memory_core::Lease),
}

/// A run someone asked for: when another dream holds the lock, or another machine's dream the
/// store's lease ([`crate::dream_lease`]), `busy` is told who and the run waits for it; then it
/// runs [`dream()`] over the store `open` opens, to the end, and records itself.
pub async fn by_hand<E>(
    config: &Config,
    open: impl Future<Output = std::result::Result<Arc<dyn MemoryStore>, E>>,
    stores: &dyn OpenStore,
    options: &RunOptions,
    progress: &dyn Progress,
    mut busy: impl FnMut(Busy),
) -> Result<DreamReport>
where
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let dir = config.dream_dir();
    let lock = match DreamLock::try_acquire(&dir)? {
        Some(lock) => lock,
        None => {
            busy(Busy::Here(DreamLock::holder(&dir)));
            let wait = dir.clone();
            tokio::task::spawn_blocking(move || DreamLock::acquire(&wait)).await??
        }
    };
    let started = Started::now("manual");
    let _ = lock.record(&started.holder());
    Tally::new(&dir).take();
    let counted = Counted::new(Some(progress));
    let result = match open.await {
        Ok(store) => match leased(&store, &dream_lease::holder(&config.data_dir()), &mut busy).await {
            Ok(held) => holding(held, config, &*store, stores, options, &counted).await,
            Err(e) => Err(e),
        },
        Err(e) => Err(Error::OpenStore(e.into())),
    };
    let outcome = started.run(config, counted.counts(), &result);
    drop(lock);
    let _ = outcome.record(config);
    result
}

/// [`dream()`] under the store's lease `held`, given back after; a run that wrote notes notes
/// this machine in the store's list of the machines that write to it.
async fn holding(
    held: dream_lease::Held,
    config: &Config,
    store: &dyn MemoryStore,
    stores: &dyn OpenStore,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<DreamReport> {
    let result = dream(config, store, stores, options, progress).await;
    if result.as_ref().is_ok_and(|r| r.notes_created + r.notes_updated + r.notes_deleted > 0) {
        let _ = store.note_machine(&dream_lease::machine_name(), chrono::Utc::now()).await;
    }
    held.release().await;
    result
}

/// The store's dream lease, waited for while another holds it (`busy` told once).
async fn leased(
    store: &Arc<dyn MemoryStore>,
    holder: &str,
    busy: &mut impl FnMut(Busy),
) -> Result<dream_lease::Held> {
    let mut told = false;
    loop {
        match dream_lease::take(store, holder).await? {
            Ok(held) => return Ok(held),
            Err(lease) => {
                if !told {
                    busy(Busy::Elsewhere(lease));
                    told = true;
                }
                tokio::time::sleep(dream_lease::WAIT_STEP).await;
            }
        }
    }
}

/// The run a hook starts, started by `trigger`: holds `lock`, the lock the hook handed over (or
/// takes a free one, or logs that another dream runs and returns), stays within the automatic
/// dream's limits (`chunk_size` events per provider call), and records how it ended. The store
/// `open` opens takes the journal's events first. Should the run outlive its time limit by
/// [`HARD_STOP_GRACE`], its process records that and exits with code 1.
pub async fn background<E>(
    config: &Config,
    lock: Option<DreamLock>,
    trigger: &str,
    chunk_size: usize,
    open: impl Future<Output = std::result::Result<Arc<dyn MemoryStore>, E>>,
    stores: &dyn OpenStore,
) where
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let dir = config.dream_dir();
    let started = Started::now(trigger);
    let lock = match lock.map_or_else(|| DreamLock::try_acquire(&dir), |lock| Ok(Some(lock))) {
        Ok(Some(lock)) => lock,
        Ok(None) => return started.skip(config, "another dream is running"),
        Err(e) => return started.skip(config, &format!("cannot take the dream lock: {e}")),
    };
    let _ = lock.record(&started.holder());
    Tally::new(&dir).take();
    if !config.dream.auto_allowed() {
        return started.skip(
            config,
            &format!(
                "provider {} has no spending cap (set dream.max_tokens or dream.max_cost_usd)",
                config.dream.provider_name()
            ),
        );
    }
    let limit = config.dream.auto_max_duration();
    let counted = Arc::new(Counted::new(None));
    {
        // The time limit below cancels the run; this ends the process should the run not end.
        let (config, started, counted) = (config.clone(), started.clone(), Arc::clone(&counted));
        let _ = std::thread::Builder::new().name("hard-stop".to_owned()).spawn(move || {
            std::thread::sleep(limit + HARD_STOP_GRACE);
            let detail = format!("ended by its process {}s past the time limit", HARD_STOP_GRACE.as_secs());
            let _ =
                started.with(&config, RunOutcome::TimedOut, Some(detail), counted.counts()).record(&config);
            std::process::exit(1);
        });
    }
    let options = RunOptions::configured(chunk_size, config.dream.auto_max_events);
    let ran = tokio::time::timeout(limit, async {
        let store = open.await.map_err(|e| Error::OpenStore(e.into()))?;
        // Events a busy store sent to the journal count too.
        let _ = Journal::new(config.journal_dir()).drain(&*store, DrainMode::Hook).await;
        // Another machine distilling this store now: its run takes these events too.
        let held = match dream_lease::take(&store, &dream_lease::holder(&config.data_dir())).await? {
            Ok(held) => held,
            Err(lease) => return Ok(Err(lease)),
        };
        holding(held, config, &*store, stores, &options, &*counted).await.map(Ok)
    })
    .await;
    let result = match ran {
        Ok(Ok(Err(lease))) => {
            drop(lock);
            return started.skip(config, &format!("{} over this store", dream_lease::describe(&lease)));
        }
        Ok(Ok(Ok(report))) => started.run(config, counted.counts(), &Ok(report)),
        Ok(Err(e)) => started.run(config, counted.counts(), &Err(e)),
        Err(_) => started.with(
            config,
            RunOutcome::TimedOut,
            Some(format!("stopped at its time limit of {}s; what it distilled is kept", limit.as_secs())),
            counted.counts(),
        ),
    };
    // The lock goes first: whoever reads the record of this run finds the dream lock free.
    drop(lock);
    let _ = result.record(config);
}

/// Events waiting for the dream: those past their group's watermark, Injection events aside.
/// Counts up to `cap`; the flag says whether more wait.
pub async fn waiting(store: &dyn MemoryStore, cap: u64) -> memory_core::Result<(u64, bool)> {
    let marks: std::collections::BTreeMap<String, u64> =
        store.watermarks().await?.into_iter().filter(|(name, _)| name.starts_with("dream:")).collect();
    let scanned = marks.get(dream::SCANNED_WATERMARK).copied().unwrap_or(0);
    let mut position = marks.values().copied().chain([scanned]).min().unwrap_or(0);
    let mut count = 0;
    loop {
        let page = store.events_after(position, 1_000).await?;
        let Some(last) = page.last() else { return Ok((count, false)) };
        position = last.position;
        for stored in &page {
            let group = dream::event_group(&stored.event);
            let mark = marks.get(&dream::watermark_name(&group)).copied().unwrap_or(0);
            if stored.position > mark && stored.event.kind != EventKind::Injection {
                count += 1;
                if count >= cap {
                    return Ok((count, true));
                }
            }
        }
    }
}

/// What a run did so far, for the record of a run cut short.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    events_read: u64,
    created: u64,
    updated: u64,
    deleted: u64,
}

/// The caller's progress, and the counts a run that is cut short records.
struct Counted<'a> {
    inner: Option<&'a dyn Progress>,
    counts: Mutex<Counts>,
}

impl<'a> Counted<'a> {
    fn new(inner: Option<&'a dyn Progress>) -> Self {
        Self { inner, counts: Mutex::new(Counts::default()) }
    }

    fn counts(&self) -> Counts {
        *self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Progress for Counted<'_> {
    fn scanned(&self, events_read: u64, position: u64) {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).events_read = events_read;
        if let Some(inner) = self.inner {
            inner.scanned(events_read, position);
        }
    }

    fn chunk_started(&self, group: &Scope, events: usize) {
        if let Some(inner) = self.inner {
            inner.chunk_started(group, events);
        }
    }

    fn chunk_finished(&self, group: &Scope, outcome: &ChunkOutcome) {
        if let ChunkOutcome::Applied { created, updated, deleted } = outcome {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            counts.created += *created as u64;
            counts.updated += *updated as u64;
            counts.deleted += *deleted as u64;
        }
        if let Some(inner) = self.inner {
            inner.chunk_finished(group, outcome);
        }
    }
}

/// When and why a run started, for its record.
#[derive(Debug, Clone)]
struct Started {
    at: DateTime<Utc>,
    clock: Instant,
    trigger: String,
}

impl Started {
    fn now(trigger: &str) -> Self {
        Self { at: Utc::now(), clock: Instant::now(), trigger: trigger.to_owned() }
    }

    fn holder(&self) -> Holder {
        Holder { pid: Some(std::process::id()), since: Some(self.at), trigger: Some(self.trigger.clone()) }
    }

    /// The record of a run with these counts.
    fn with(&self, config: &Config, outcome: RunOutcome, detail: Option<String>, counts: Counts) -> DreamRun {
        DreamRun {
            started_at: self.at,
            trigger: self.trigger.clone(),
            provider: config.dream.provider_name().to_owned(),
            outcome,
            detail: detail.map(|d| Redactor::new().redact_message(&d)),
            events_read: counts.events_read,
            notes_created: counts.created,
            notes_updated: counts.updated,
            notes_deleted: counts.deleted,
            tokens: 0,
            cost_usd: 0.0,
            duration_ms: u64::try_from(self.clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// The record of a run that finished (or failed) on its own.
    fn run(&self, config: &Config, counts: Counts, result: &Result<DreamReport>) -> DreamRun {
        let report = match result {
            Ok(report) => report,
            Err(e) => return self.with(config, RunOutcome::Failed, Some(chain(e)), counts),
        };
        let (outcome, detail) = if let Some(first) = report.failures.first() {
            let detail = format!(
                "{} chunks failed and are retried next run; first: {}",
                report.failures.len(),
                first.errors.join("; ")
            );
            (RunOutcome::Failed, Some(detail))
        } else if let Some(stop) = &report.stopped {
            (RunOutcome::Stopped, Some(stop_reason(stop)))
        } else {
            (RunOutcome::Ok, None)
        };
        let counts = Counts {
            events_read: report.events_read,
            created: report.notes_created,
            updated: report.notes_updated,
            deleted: report.notes_deleted,
        };
        let mut run = self.with(config, outcome, detail, counts);
        run.tokens = report.tokens_in + report.tokens_out;
        run.cost_usd = report.cost_usd;
        run
    }

    /// Logs a run that did not happen (the last run's record stays as it was).
    fn skip(&self, config: &Config, why: &str) {
        let run = self.with(config, RunOutcome::Skipped, Some(why.to_owned()), Counts::default());
        let _ = crate::log::line_in(&config.log_dir(), crate::autodream::LOG_FILE, &run.log_line());
    }
}

/// An error and its causes, `outer: cause: cause`.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(&format!(": {e}"));
        cause = e.source();
    }
    text
}

fn stop_reason(stop: &dream::StopReason) -> String {
    match stop {
        dream::StopReason::TokenBudget { limit, used } => {
            format!("token cap of {limit} reached ({used} used); the rest waits for the next run")
        }
        dream::StopReason::CostBudget { limit, spent } => {
            format!(
                "spending cap of ${limit:.2} reached (${spent:.4} spent); the rest waits for the next run"
            )
        }
        dream::StopReason::EventLimit { limit } => {
            format!("read its limit of {limit} events; the rest waits for the next run")
        }
        dream::StopReason::ProviderFailed { message } => format!("provider failed: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_names_read_in_any_case_and_an_unknown_one_lists_the_known() {
        assert_eq!("Claude-CLI".parse::<ProviderName>().unwrap(), ProviderName::ClaudeCli);
        for name in ProviderName::ALL {
            assert_eq!(name.as_str().parse::<ProviderName>().unwrap(), name);
        }
        let e = "gpt".parse::<ProviderName>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "config `dream.provider = \"gpt\"` is not one of deterministic, anthropic, openai, claude-cli, codex-cli"
        );
    }

    #[test]
    fn an_error_reads_with_its_causes() {
        let e =
            Error::DreamRun(dream::Error::Config { provider: "anthropic".into(), message: "no key".into() });
        assert_eq!(chain(&e), "dream run failed: anthropic configuration: no key");
    }
}
