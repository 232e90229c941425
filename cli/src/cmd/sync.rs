//! `agent-memory sync`: deliver journaled events to the store, in order: the data folder's
//! journal (events set aside for being large included) and the fallback journal hooks use when
//! the data folder cannot be written. `--wait` retries until nothing waits (for scripts and
//! tests); `--background` is the forwarder hooks start in forward mode
//! ([`memory_hook::forward`]). With a server store in forward mode, every `sync` also refreshes
//! the local copy of the notes hooks read.

use std::time::Duration;

use memory_hook::config::Config;
use memory_hook::forward::{self, ForwardClaim, Limits};
use memory_hook::{Env, Journal};

use crate::output::{json as print_json, print};
use crate::store::HookStores;

/// `agent-memory sync`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct SyncArgs {
    /// Keep delivering until nothing waits, retrying while the store cannot be reached.
    #[arg(long)]
    wait: bool,
    /// With --wait: give up after this many seconds (exit code 1).
    #[arg(long, value_name = "SECONDS", default_value_t = 120, requires = "wait")]
    timeout: u64,
    /// Run as the forwarder a hook starts (holding the lock handed over as stdin); prints nothing.
    #[arg(long, hide = true, conflicts_with = "wait")]
    background: bool,
}

/// The journals `sync` and `doctor` look at: the data folder's, then the fallback one.
pub(crate) fn journals(config: &Config) -> Vec<Journal> {
    forward::journals(config, &Env::process())
}

pub(crate) async fn run(args: &SyncArgs, json: bool) -> anyhow::Result<std::process::ExitCode> {
    if args.background {
        background().await;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let config = Config::load()?;
    let env = Env::process();
    let journals = journals(&config);
    let waiting = forward::waiting(&journals);
    let done = if args.wait {
        match forward::wait(&config, &env, &HookStores, Duration::from_secs(args.timeout)).await {
            Ok(done) => done,
            Err(e) => {
                crate::output::error(&format!("agent-memory: {e}"));
                if json {
                    print_json(
                        &serde_json::json!({ "error": e.to_string(), "remaining": forward::waiting(&journals) }),
                    )?;
                }
                return Ok(std::process::ExitCode::from(1));
            }
        }
    } else if waiting == 0 && !config.forwards() {
        forward::Delivered::default()
    } else {
        let store = crate::store::open(&config).await?;
        let done = forward::deliver(&journals, &*store).await?;
        crate::store::refresh_replica(&config, &*store).await?;
        done
    };
    // The store answered: hooks need not wait out a pause from earlier misses.
    if done.delivered > 0 || waiting == 0 {
        memory_hook::health::StoreHealth::new(&config.data_dir()).success();
    }
    if json {
        print_json(&serde_json::json!({
            "delivered": done.delivered, "remaining": done.remaining, "corrupt": done.corrupt
        }))?;
    } else if done.delivered == 0 && done.remaining == 0 && done.corrupt == 0 {
        print("journal is empty; nothing to deliver");
    } else {
        let mut lines =
            vec![format!("delivered {} journaled events; {} remaining", done.delivered, done.remaining)];
        if done.corrupt > 0 {
            lines.push(format!(
                "{} unreadable journal files were moved aside as *.corrupt in {}",
                done.corrupt,
                journals.iter().map(|j| j.dir().display().to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
        print(&lines.join("\n"));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The forwarder: adopts the lock the hook handed over (or takes a free one), delivers until
/// nothing waits, logs the run.
async fn background() {
    let env = Env::process();
    let config = Config::load().unwrap_or_else(|_| Config::fallback(&env));
    let claim = match inherited_claim(&config) {
        Some(claim) => claim,
        None => match ForwardClaim::take(&config) {
            Ok(Some(claim)) => claim,
            // Another forwarder runs, or none can: it, or the next hook, delivers.
            _ => return,
        },
    };
    forward::run(&config, &env, &HookStores, claim, Limits::default()).await;
}

/// The lock a hook handed over as this process's stdin, when it did.
fn inherited_claim(config: &Config) -> Option<ForwardClaim> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        let stdin = std::io::stdin();
        let file = std::fs::File::from(stdin.as_fd().try_clone_to_owned().ok()?);
        ForwardClaim::adopt(file, config)
    }
    #[cfg(not(unix))]
    {
        let _ = config;
        None
    }
}
