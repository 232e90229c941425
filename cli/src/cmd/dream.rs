//! `agent-memory dream`: distill recorded events into notes.

use std::path::Path;
use std::sync::Mutex;

use ::dream::{
    AnthropicConfig, AnthropicProvider, ChunkOutcome, DeterministicProvider, DreamOptions, DreamReport,
    HarnessCliConfig, HarnessCliProvider, HarnessKind, OPENAI_BASE_URL_VAR, OpenAiConfig, OpenAiProvider,
    Progress, Provider, ScopeFilter,
};
use anyhow::Context as _;
use memory_core::Scope;

use crate::output::{json as print_json, print};
use memory_hook::config::Config;

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
    /// Only these event groups: `user` or `project:<id>`; repeatable. Default: all.
    #[arg(long)]
    scope: Vec<Scope>,
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

/// A progress bar on stderr (hidden when stderr is not a terminal).
struct Bar {
    bar: indicatif::ProgressBar,
    chunks: Mutex<u64>,
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
    let config = Config::load()?;
    let report = dream_with(&config, &args, !json).await?;
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

async fn dream_with(config: &Config, args: &DreamArgs, show_progress: bool) -> anyhow::Result<DreamReport> {
    let store = crate::store::open(config).await?;
    let provider = provider(args, config)?;
    let mut options = DreamOptions::new(chrono::Utc::now());
    options.dry_run = args.dry_run;
    options.chunk_size = args.chunk_size;
    options.max_tokens = args.max_tokens.or(config.dream.max_tokens);
    options.max_cost_usd = args.max_cost.or(config.dream.max_cost_usd);
    if let Some(n) = args.max_operations.map(usize::from).or(config.dream.max_operations) {
        options.limits.max_operations = n.max(1);
    }
    if let Some(n) = args.max_body_bytes.map(usize::from).or(config.dream.max_body_bytes) {
        options.limits.max_body_bytes = n.clamp(64, memory_core::MAX_BODY_LEN);
    }
    if !args.scope.is_empty() {
        options.scopes = ScopeFilter::Only(args.scope.clone());
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        None,
        if show_progress {
            indicatif::ProgressDrawTarget::stderr()
        } else {
            indicatif::ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} chunks  {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    let progress = Bar { bar, chunks: Mutex::new(0) };
    let report = ::dream::run(&*store, &*provider, &options, &progress).await.context("dream run failed")?;
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

/// The deterministic dream over the demo's store; returns the one-line summary.
pub(crate) async fn for_demo(home: &Path, config_file: &Path) -> anyhow::Result<String> {
    let config = super::demo::demo_config(home, config_file)?;
    let args = DreamArgs {
        scope: Vec::new(),
        provider: Some(ProviderArg::Deterministic),
        model: None,
        base_url: None,
        dry_run: false,
        max_tokens: None,
        max_cost: None,
        chunk_size: 200,
        max_operations: None,
        max_body_bytes: None,
    };
    let report = dream_with(&config, &args, false).await?;
    Ok(summary(&report, false).trim_end().to_owned())
}
