//! `agent-memory dream`: distill recorded events into notes, by hand or, with `--background`, as
//! a hook starts it (single flight, within the automatic dream's time and event limits, logged).
//!
//! Every run that writes holds the dream lock ([`DreamLock`]): a run by hand waits for a running
//! one; a background run the hook handed the lock to holds it from its start, and one that finds
//! the lock taken does nothing. Each run starts a new count of waiting events, and records itself
//! in `<data_dir>/logs/dream.log` and `<data_dir>/dream/last.json` ([`DreamRun`]).

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ::dream::{
    AnthropicConfig, AnthropicProvider, ChunkOutcome, DeterministicProvider, DreamOptions, DreamReport,
    HarnessCliConfig, HarnessCliProvider, HarnessKind, OPENAI_BASE_URL_VAR, OpenAiConfig, OpenAiProvider,
    Progress, Provider, ScopeFilter,
};
use anyhow::Context as _;
use chrono::{DateTime, Utc};
use memory_core::{EventKind, MemoryStore, Scope};
use memory_hook::autodream::{DreamRun, Holder, RunOutcome, Tally};
use memory_hook::config::Config;
use memory_hook::journal::{DrainMode, Journal};
use memory_hook::{DreamLock, Env};
use memory_redact::Redactor;

use crate::output::{json as print_json, print};

/// How long a background run may outlive its time limit (a provider call that ignores being
/// cancelled, a store that does not answer) before its process ends itself.
const HARD_STOP_GRACE: Duration = Duration::from_secs(15);

/// The dream's providers, as named on the command line and in the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ProviderArg {
    /// No LLM: frequent commands, hot files, error→fix pairs, stated preferences (the default).
    Deterministic,
    /// Anthropic Messages API (`ANTHROPIC_API_KEY`).
    Anthropic,
    /// Any OpenAI-compatible chat completions server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio).
    Openai,
    /// The Claude Code CLI in print mode (`claude -p`).
    ClaudeCli,
    /// The Codex CLI (`codex exec`).
    CodexCli,
}

/// `agent-memory dream` options.
#[derive(Debug, clap::Args)]
pub(crate) struct DreamArgs {
    /// Only these event groups: `user`, `project:<name>` or `project` (this folder's); repeatable.
    /// Default: all.
    #[arg(long)]
    scope: Vec<String>,
    /// Which distiller to use (default: the config's `dream.provider`, else deterministic).
    #[arg(long, value_enum)]
    provider: Option<ProviderArg>,
    /// Model for LLM providers (overrides the config and the provider's env variable).
    #[arg(long)]
    model: Option<String>,
    /// Base URL for HTTP providers (for example `http://127.0.0.1:8080/v1` for llama.cpp).
    #[arg(long)]
    base_url: Option<String>,
    /// Show the changes it would make, write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Stop before the run's tokens (input + output) could exceed N.
    #[arg(long, value_name = "N")]
    max_tokens: Option<u64>,
    /// Stop before the run's cost could exceed this many US dollars.
    #[arg(long, value_name = "USD")]
    max_cost: Option<f64>,
    /// Events per provider call.
    #[arg(long, default_value_t = 200)]
    chunk_size: usize,
    /// Most note changes accepted from one provider call (default 20; small local models do best
    /// with 1 or 2).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    max_operations: Option<u16>,
    /// Longest note body a provider may write, in bytes (default 8192; at most 16384).
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u16).range(64..=16384))]
    max_body_bytes: Option<u16>,
    /// Read at most N events past the watermarks; the rest waits for the next run.
    #[arg(long, value_name = "N")]
    max_events: Option<u64>,
    /// Run as hooks start the dream: only when no other dream runs (a hook hands over the lock it
    /// took as stdin), within `dream.auto_max_seconds` and `dream.auto_max_events`, with the
    /// configured provider and caps, printing nothing; the run is logged in
    /// `<data_dir>/logs/dream.log`.
    #[arg(long, conflicts_with = "dry_run")]
    background: bool,
    /// What started a background run (`session-end`, `backlog`), for the log.
    #[arg(long, value_name = "WHY", requires = "background")]
    trigger: Option<String>,
}

fn provider(args: &DreamArgs, config: &Config) -> anyhow::Result<Box<dyn Provider>> {
    let named = match (&args.provider, config.dream.provider.as_deref()) {
        (Some(p), _) => *p,
        (None, None) => ProviderArg::Deterministic,
        (None, Some(name)) => <ProviderArg as clap::ValueEnum>::from_str(name, true).map_err(|_| {
            anyhow::format_err!(
                "config `dream.provider = \"{name}\"` is not one of deterministic, anthropic, openai, claude-cli, codex-cli"
            )
        })?,
    };
    let model = args.model.clone().or_else(|| config.dream.model.clone());
    let base_url = args.base_url.clone().or_else(|| config.dream.base_url.clone());
    Ok(match named {
        ProviderArg::Deterministic => Box::new(DeterministicProvider::new()),
        ProviderArg::Anthropic => {
            let mut c = AnthropicConfig::from_env()?;
            if let Some(m) = model {
                c.model = m;
            }
            if let Some(u) = base_url {
                c.base_url = u;
            }
            Box::new(AnthropicProvider::new(c)?)
        }
        ProviderArg::Openai => {
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
        ProviderArg::ClaudeCli | ProviderArg::CodexCli => {
            let kind = if named == ProviderArg::ClaudeCli { HarnessKind::Claude } else { HarnessKind::Codex };
            let mut c = HarnessCliConfig::from_env(kind)?;
            if let Some(m) = model {
                c.model = Some(m);
            }
            Box::new(HarnessCliProvider::new(c))
        }
    })
}

/// A progress bar on stderr (hidden when stderr is not a terminal or the run is in the
/// background), and the counts a run that is cut short reports.
struct Bar {
    bar: indicatif::ProgressBar,
    chunks: Mutex<u64>,
    counts: Mutex<Counts>,
}

/// What a run did so far.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    events_read: u64,
    created: u64,
    updated: u64,
    deleted: u64,
}

impl Bar {
    fn new(visible: bool) -> Self {
        let target = if visible {
            indicatif::ProgressDrawTarget::stderr()
        } else {
            indicatif::ProgressDrawTarget::hidden()
        };
        let bar = indicatif::ProgressBar::with_draw_target(None, target);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {pos} chunks  {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        Self { bar, chunks: Mutex::new(0), counts: Mutex::new(Counts::default()) }
    }

    fn counts(&self) -> Counts {
        *self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Progress for Bar {
    fn scanned(&self, events_read: u64, position: u64) {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).events_read = events_read;
        self.bar.set_message(format!("read {events_read} events (position {position})"));
        self.bar.tick();
    }

    fn chunk_started(&self, group: &Scope, events: usize) {
        self.bar.set_message(format!("distilling {events} events of {group}"));
    }

    fn chunk_finished(&self, group: &Scope, outcome: &ChunkOutcome) {
        let mut chunks = self.chunks.lock().unwrap_or_else(|e| e.into_inner());
        *chunks += 1;
        self.bar.set_position(*chunks);
        match outcome {
            ChunkOutcome::Failed { message } => {
                self.bar.println(format!("chunk of {group} failed: {message}"))
            }
            ChunkOutcome::Applied { created, updated, deleted } => {
                let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
                counts.created += *created as u64;
                counts.updated += *updated as u64;
                counts.deleted += *deleted as u64;
            }
        }
    }
}

pub(crate) async fn run(args: DreamArgs, json: bool) -> anyhow::Result<std::process::ExitCode> {
    if args.background {
        background(&args).await;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let config = Config::load()?;
    let report = if args.dry_run {
        let bar = Bar::new(!json);
        dream_with(&config, &args, &bar).await?
    } else {
        by_hand(&config, &args, json).await?
    };
    if json {
        print_json(&report)?;
    } else {
        print(&summary(&report, args.dry_run));
    }
    Ok(if report.failures.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    })
}

/// A run typed by hand: waits for a running dream, then runs to the end and records itself.
async fn by_hand(config: &Config, args: &DreamArgs, json: bool) -> anyhow::Result<DreamReport> {
    let dir = config.dream_dir();
    let lock = match DreamLock::try_acquire(&dir)? {
        Some(lock) => lock,
        None => {
            crate::output::error(&format!(
                "agent-memory: another dream is running ({}); waiting for it to finish",
                describe_holder(DreamLock::holder(&dir).as_ref())
            ));
            let wait = dir.clone();
            tokio::task::spawn_blocking(move || DreamLock::acquire(&wait)).await??
        }
    };
    let started = Started::now("manual");
    let _ = lock.record(&started.holder());
    Tally::new(&dir).take();
    let bar = Bar::new(!json);
    let result = dream_with(config, args, &bar).await;
    let outcome = started.run(config, &bar, &result);
    drop(lock);
    let _ = outcome.record(config);
    result
}

/// A run started by a hook: holds the lock it was handed (or takes a free one), stays within the
/// automatic dream's limits, and prints nothing. Every outcome is logged.
async fn background(args: &DreamArgs) {
    let config = Config::load().unwrap_or_else(|_| Config::fallback(&Env::process()));
    let dir = config.dream_dir();
    let started = Started::now(args.trigger.as_deref().unwrap_or("background"));
    let lock = match inherited_lock(&dir).map_or_else(|| DreamLock::try_acquire(&dir), |lock| Ok(Some(lock)))
    {
        Ok(Some(lock)) => lock,
        Ok(None) => return started.skip(&config, "another dream is running"),
        Err(e) => return started.skip(&config, &format!("cannot take the dream lock: {e}")),
    };
    let _ = lock.record(&started.holder());
    Tally::new(&dir).take();
    if !config.dream.auto_allowed() {
        return started.skip(
            &config,
            &format!(
                "provider {} has no spending cap (set dream.max_tokens or dream.max_cost_usd)",
                config.dream.provider_name()
            ),
        );
    }
    let limit = config.dream.auto_max_duration();
    let bar = std::sync::Arc::new(Bar::new(false));
    {
        // The time limit below cancels the run; this ends the process should the run not end.
        let (config, started, bar) = (config.clone(), started.clone(), std::sync::Arc::clone(&bar));
        let _ = std::thread::Builder::new().name("hard-stop".to_owned()).spawn(move || {
            std::thread::sleep(limit + HARD_STOP_GRACE);
            let detail = format!("ended by its process {}s past the time limit", HARD_STOP_GRACE.as_secs());
            let _ = started.with(&config, RunOutcome::TimedOut, Some(detail), bar.counts()).record(&config);
            std::process::exit(1);
        });
    }
    let run_args = DreamArgs::configured(args.chunk_size, config.dream.auto_max_events);
    let result = match tokio::time::timeout(limit, async {
        if let Ok(store) = crate::store::open(&config).await {
            // Events a busy store sent to the journal count too.
            let _ = Journal::new(config.journal_dir()).drain(&*store, DrainMode::Hook).await;
        }
        dream_with(&config, &run_args, &bar).await
    })
    .await
    {
        Ok(result) => started.run(&config, &bar, &result),
        Err(_) => started.with(
            &config,
            RunOutcome::TimedOut,
            Some(format!("stopped at its time limit of {}s; what it distilled is kept", limit.as_secs())),
            bar.counts(),
        ),
    };
    // The lock goes first: whoever reads the record of this run finds the dream lock free.
    drop(lock);
    let _ = result.record(&config);
}

/// The lock a hook handed over as this process's stdin, when it did.
fn inherited_lock(dir: &Path) -> Option<DreamLock> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        let stdin = std::io::stdin();
        let file = std::fs::File::from(stdin.as_fd().try_clone_to_owned().ok()?);
        DreamLock::adopt(file, dir)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

impl DreamArgs {
    /// A run with the configured provider and caps, in chunks of `chunk_size`, reading at most
    /// `max_events`.
    fn configured(chunk_size: usize, max_events: u64) -> Self {
        Self {
            scope: Vec::new(),
            provider: None,
            model: None,
            base_url: None,
            dry_run: false,
            max_tokens: None,
            max_cost: None,
            chunk_size,
            max_operations: None,
            max_body_bytes: None,
            max_events: Some(max_events.max(1)),
            background: false,
            trigger: None,
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
    fn run(&self, config: &Config, bar: &Bar, result: &anyhow::Result<DreamReport>) -> DreamRun {
        let report = match result {
            Ok(report) => report,
            Err(e) => return self.with(config, RunOutcome::Failed, Some(format!("{e:#}")), bar.counts()),
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
        let _ =
            memory_hook::log::line_in(&config.log_dir(), memory_hook::autodream::LOG_FILE, &run.log_line());
    }
}

fn stop_reason(stop: &::dream::StopReason) -> String {
    match stop {
        ::dream::StopReason::TokenBudget { limit, used } => {
            format!("token cap of {limit} reached ({used} used); the rest waits for the next run")
        }
        ::dream::StopReason::CostBudget { limit, spent } => {
            format!(
                "spending cap of ${limit:.2} reached (${spent:.4} spent); the rest waits for the next run"
            )
        }
        ::dream::StopReason::EventLimit { limit } => {
            format!("read its limit of {limit} events; the rest waits for the next run")
        }
        ::dream::StopReason::ProviderFailed { message } => format!("provider failed: {message}"),
    }
}

/// Who holds the dream lock, for messages.
pub(crate) fn describe_holder(holder: Option<&Holder>) -> String {
    let Some(holder) = holder else { return "holder unknown".to_owned() };
    let mut parts = Vec::new();
    if let Some(trigger) = &holder.trigger {
        parts.push(match trigger.as_str() {
            "manual" => "started by hand".to_owned(),
            other => format!("started by a hook: {other}"),
        });
    }
    if let Some(since) = holder.since {
        parts.push(format!("since {}", crate::output::clock().minute(since)));
    }
    if let Some(pid) = holder.pid {
        parts.push(format!("pid {pid}"));
    }
    if parts.is_empty() { "holder unknown".to_owned() } else { parts.join(", ") }
}

/// Events waiting for the dream: those past their group's watermark, Injection events aside.
/// Counts up to `cap`; the flag says whether more wait.
pub(crate) async fn waiting(store: &dyn MemoryStore, cap: u64) -> memory_core::Result<(u64, bool)> {
    let marks: std::collections::BTreeMap<String, u64> =
        store.watermarks().await?.into_iter().filter(|(name, _)| name.starts_with("dream:")).collect();
    let scanned = marks.get(::dream::SCANNED_WATERMARK).copied().unwrap_or(0);
    let mut position = marks.values().copied().chain([scanned]).min().unwrap_or(0);
    let mut count = 0;
    loop {
        let page = store.events_after(position, 1_000).await?;
        let Some(last) = page.last() else { return Ok((count, false)) };
        position = last.position;
        for stored in &page {
            let group = ::dream::event_group(&stored.event);
            let mark = marks.get(&::dream::watermark_name(&group)).copied().unwrap_or(0);
            if stored.position > mark && stored.event.kind != EventKind::Injection {
                count += 1;
                if count >= cap {
                    return Ok((count, true));
                }
            }
        }
    }
}

async fn dream_with(config: &Config, args: &DreamArgs, progress: &Bar) -> anyhow::Result<DreamReport> {
    let store = crate::store::open(config).await?;
    if config.forwards() && !args.dry_run {
        // In forward mode events wait in the journal until the forwarder delivers them: the dream
        // reads the server, so it delivers them first (waiting for a delivery under way).
        memory_hook::forward::deliver(&crate::cmd::sync::journals(config), &*store).await?;
    }
    let provider = provider(args, config)?;
    let cwd = std::env::current_dir().ok();
    let scopes = crate::cmd::projects::Scopes::load(config, &*store, cwd.as_deref()).await?;
    let mut options = DreamOptions::new(chrono::Utc::now());
    options.project_names = scopes.names();
    options.redaction_rules = config.redact.rules().unwrap_or_default();
    options.dry_run = args.dry_run;
    options.chunk_size = args.chunk_size;
    options.max_tokens = args.max_tokens.or(config.dream.max_tokens);
    options.max_cost_usd = args.max_cost.or(config.dream.max_cost_usd);
    options.max_events = args.max_events;
    if let Some(n) = args.max_operations.map(usize::from).or(config.dream.max_operations) {
        options.limits.max_operations = n.max(1);
    }
    if let Some(n) = args.max_body_bytes.map(usize::from).or(config.dream.max_body_bytes) {
        options.limits.max_body_bytes = n.clamp(64, memory_core::MAX_BODY_LEN);
    }
    if !args.scope.is_empty() {
        let only = args.scope.iter().map(|s| scopes.scope(s)).collect::<Result<Vec<Scope>, _>>()?;
        options.scopes = ScopeFilter::Only(only);
    }
    let report = ::dream::run(&*store, &*provider, &options, progress).await.context("dream run failed")?;
    if !options.dry_run {
        crate::cmd::model::refresh(config, &*store).await?;
        // What this run distilled may now be old enough to go; a failure costs the run nothing.
        let _ = crate::cmd::prune::configured(config, &*store).await;
        // Hooks in forward mode read the notes from their local copy.
        crate::store::refresh_replica(config, &*store).await?;
    }
    progress.bar.finish_and_clear();
    Ok(report)
}

fn summary(report: &DreamReport, dry_run: bool) -> String {
    let mut text = String::new();
    if dry_run {
        for change in &report.changes {
            text.push_str(&format!(
                "--- {} {} ({:?}: {})\n{}\n",
                change.scope, change.path, change.action, change.reason, change.diff
            ));
        }
    }
    text.push_str(&format!(
        "{}{} events read, {} chunks, {} provider calls; notes: {} created, {} updated, {} deleted; tokens: {} in, {} out; cost: ${:.4}\n",
        if dry_run { "dry run (nothing written): " } else { "" },
        report.events_read,
        report.chunks,
        report.provider_calls,
        report.notes_created,
        report.notes_updated,
        report.notes_deleted,
        report.tokens_in,
        report.tokens_out,
        report.cost_usd,
    ));
    if let Some(stop) = &report.stopped {
        text.push_str(&format!("stopped early: {}\n", serde_json::to_string(stop).unwrap_or_default()));
    }
    for failure in &report.failures {
        text.push_str(&format!(
            "failed chunk {} (positions {}..={}): {}; it will be retried next run\n",
            failure.group,
            failure.first_position,
            failure.last_position,
            failure.errors.join("; ")
        ));
    }
    text
}

/// A run's record in words: `ok, 12 events read, notes +2 ~1 -0, 85 ms (session-end, deterministic)`.
pub(crate) fn describe_run(run: &DreamRun) -> String {
    let mut text = format!(
        "{}, {} events read, notes +{} ~{} -{}, {} ms ({}, {})",
        run.outcome.as_str(),
        run.events_read,
        run.notes_created,
        run.notes_updated,
        run.notes_deleted,
        run.duration_ms,
        run.trigger,
        run.provider
    );
    if let Some(detail) = &run.detail {
        text.push_str(&format!(": {detail}"));
    }
    text
}

/// The demo's dream: the one the end of its Claude Code session started, waited for; run here
/// when none started.
pub(crate) async fn for_demo(home: &Path, config_file: &Path) -> anyhow::Result<String> {
    let config = super::demo::demo_config(home, config_file)?;
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        if let Some(run) = DreamRun::last(&config)
            && DreamLock::holder(&config.dream_dir()).is_none()
        {
            return Ok(format!("the dream the session's end started: {}", describe_run(&run)));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut args = DreamArgs::configured(200, u64::MAX);
    args.provider = Some(ProviderArg::Deterministic);
    let report = by_hand(&config, &args, true).await?;
    Ok(format!("no dream started by itself; ran one: {}", summary(&report, false).trim_end()))
}
