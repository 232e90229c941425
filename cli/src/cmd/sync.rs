//! `agent-memory sync`: deliver journaled events to the store, in order: the data folder's
//! journal (events set aside for being large included) and the fallback journal hooks use when
//! the data folder cannot be written.

use memory_hook::config::Config;
use memory_hook::journal::{DrainMode, Journal};
use memory_hook::{Env, paths};

use crate::output::{json as print_json, print};

/// The journals `sync` and `doctor` look at: the data folder's, then the fallback one.
pub(crate) fn journals(config: &Config) -> Vec<Journal> {
    let fallback = Journal::new(paths::fallback_data_dir(&Env::process()).join("journal"));
    let mut journals = vec![Journal::new(config.journal_dir())];
    if fallback.dir() != journals[0].dir() {
        journals.push(fallback);
    }
    journals
}

pub(crate) async fn run(json: bool) -> anyhow::Result<std::process::ExitCode> {
    let config = Config::load()?;
    let journals = journals(&config);
    let mut waiting = 0;
    for journal in &journals {
        waiting += journal.pending()?.len();
    }
    if waiting == 0 {
        if json {
            print_json(&serde_json::json!({ "delivered": 0, "remaining": 0 }))?;
        } else {
            print("journal is empty; nothing to deliver");
        }
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let store = crate::store::open(&config).await?;
    let (mut delivered, mut remaining, mut corrupt) = (0, 0, 0);
    let mut lines = Vec::new();
    for journal in &journals {
        let drained = journal.drain(&*store, DrainMode::All).await?;
        let left = journal.pending()?.len();
        delivered += drained.delivered;
        remaining += left;
        corrupt += drained.corrupt;
        if drained.delivered > 0 || left > 0 {
            lines.push(format!(
                "delivered {} journaled events from {}; {left} remaining",
                drained.delivered,
                journal.dir().display()
            ));
        }
        if drained.corrupt > 0 {
            lines.push(format!(
                "{} unreadable journal files were moved aside as *.corrupt in {}",
                drained.corrupt,
                journal.dir().display()
            ));
        }
    }
    // The store answered: hooks need not wait out a pause from earlier misses.
    memory_hook::health::StoreHealth::new(&config.data_dir()).success();
    if json {
        print_json(
            &serde_json::json!({ "delivered": delivered, "remaining": remaining, "corrupt": corrupt }),
        )?;
    } else {
        print(&lines.join("\n"));
    }
    Ok(std::process::ExitCode::SUCCESS)
}
