//! `agent-memory dream`: the arguments of a dream run by hand or, with `--background`, as a hook
//! starts it, and what it prints. The run itself, its lock, limits and record, is
//! [`memory_hook::dream_run`]'s.

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ::dream::{ChunkOutcome, DreamReport, Progress};
use memory_core::Scope;
use memory_hook::autodream::{DreamRun, Holder};
use memory_hook::config::Config;
use memory_hook::dream_run::{self, ProviderName, RunOptions};
use memory_hook::{DreamLock, Env};

use crate::output::{json as print_json, print};
use crate::store::HookStores;

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

impl From<ProviderArg> for ProviderName {
    fn from(arg: ProviderArg) -> Self {
        match arg {
            ProviderArg::Deterministic => Self::Deterministic,
            ProviderArg::Anthropic => Self::Anthropic,
            ProviderArg::Openai => Self::Openai,
            ProviderArg::ClaudeCli => Self::ClaudeCli,
            ProviderArg::CodexCli => Self::CodexCli,
        }
    }
}

impl DreamArgs {
    /// The run these arguments ask for, from the current folder.
    fn options(&self) -> RunOptions {
        RunOptions {
            scopes: self.scope.clone(),
            provider: self.provider.map(ProviderName::from),
            model: self.model.clone(),
            base_url: self.base_url.clone(),
            dry_run: self.dry_run,
            max_tokens: self.max_tokens,
            max_cost_usd: self.max_cost,
            chunk_size: self.chunk_size,
            max_operations: self.max_operations,
            max_body_bytes: self.max_body_bytes,
            max_events: self.max_events,
            ..RunOptions::default()
        }
    }
}

/// A progress bar on stderr, hidden when stderr is not a terminal.
struct Bar {
    bar: indicatif::ProgressBar,
    chunks: Mutex<u64>,
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
        Self { bar, chunks: Mutex::new(0) }
    }
}

impl Progress for Bar {
    fn scanned(&self, events_read: u64, position: u64) {
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
        if let ChunkOutcome::Failed { message } = outcome {
            self.bar.println(format!("chunk of {group} failed: {message}"));
        }
    }
}

pub(crate) async fn run(args: DreamArgs, json: bool) -> anyhow::Result<std::process::ExitCode> {
    if args.background {
        let config = Config::load().unwrap_or_else(|_| Config::fallback(&Env::process()));
        let lock = inherited_lock(&config.dream_dir());
        let trigger = args.trigger.as_deref().unwrap_or("background");
        let open = crate::store::open(&config);
        dream_run::background(&config, lock, trigger, args.chunk_size, open, &HookStores).await;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let config = Config::load()?;
    let options = args.options();
    let report = if args.dry_run {
        let bar = Bar::new(!json);
        let store = crate::store::open(&config).await?;
        let report = dream_run::dream(&config, &*store, &HookStores, &options, &bar).await?;
        bar.bar.finish_and_clear();
        report
    } else {
        by_hand(&config, &options, json).await?
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

/// A run typed by hand: says so when it waits for a running dream.
async fn by_hand(config: &Config, options: &RunOptions, json: bool) -> anyhow::Result<DreamReport> {
    let bar = Bar::new(!json);
    let busy = |busy: dream_run::Busy| {
        let who = match busy {
            dream_run::Busy::Here(holder) => {
                format!("another dream is running ({})", describe_holder(holder.as_ref()))
            }
            dream_run::Busy::Elsewhere(lease) => memory_hook::dream_lease::describe(&lease),
        };
        crate::output::error(&format!("agent-memory: {who}; waiting for it to finish"));
    };
    let open = crate::store::open(config);
    let report = dream_run::by_hand(config, open, &HookStores, options, &bar, busy).await?;
    bar.bar.finish_and_clear();
    Ok(report)
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
        "{}{} events read, {} chunks, {} provider calls; notes: {} created, {} updated, {} deleted",
        if dry_run { "dry run (nothing written): " } else { "" },
        report.events_read,
        report.chunks,
        report.provider_calls,
        report.notes_created,
        report.notes_updated,
        report.notes_deleted,
    ));
    // Tokens and cost only where they cost something: not the deterministic distiller, nor a
    // local model.
    if report.cost_usd > 0.0 {
        text.push_str(&format!(
            "; tokens: {} in, {} out; cost: ${:.4}",
            report.tokens_in, report.tokens_out, report.cost_usd
        ));
    }
    text.push('\n');
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
    let mut options = RunOptions::configured(200, u64::MAX);
    options.provider = Some(ProviderName::Deterministic);
    let report = by_hand(&config, &options, true).await?;
    Ok(format!("no dream started by itself; ran one: {}", summary(&report, false).trim_end()))
}
