//! `agent-memory sync`: deliver journaled events to the store.

use crate::config::Config;
use crate::journal::Journal;
use crate::output::{json as print_json, print};

pub(crate) async fn run(json: bool) -> anyhow::Result<std::process::ExitCode> {
    let config = Config::load()?;
    let journal = Journal::new(config.journal_dir());
    let waiting = journal.pending()?.len();
    if waiting == 0 {
        if json {
            print_json(&serde_json::json!({ "delivered": 0, "remaining": 0 }))?;
        } else {
            print("journal is empty; nothing to deliver");
        }
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let store = crate::store::open(&config).await?;
    let drained = journal.drain(&*store, true).await?;
    let remaining = journal.pending()?.len();
    if json {
        print_json(&serde_json::json!({ "delivered": drained.delivered, "remaining": remaining }))?;
    } else {
        print(&format!(
            "delivered {} journaled events from {}; {remaining} remaining",
            drained.delivered,
            journal.dir().display()
        ));
    }
    Ok(std::process::ExitCode::SUCCESS)
}
