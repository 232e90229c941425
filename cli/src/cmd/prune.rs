//! `prune`: retention ([`memory_hook::retention`]) by hand, the configured age or one given, and
//! what it did in words.

use std::process::ExitCode;

use memory_hook::retention::{configured_age, prune, would_prune};
use memory_hook::{Config, Env};

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
    let env = Env::process();
    let pruned = if args.dry_run {
        would_prune(&config, &env, &*store, age).await?
    } else {
        prune(&config, &env, &*store, age).await?
    };
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
