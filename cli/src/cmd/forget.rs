//! `forget`: delete a session, an event, the events holding a text, a time range, a project, a
//! note or (`--all`) everything for good (`memory_hook::forget` does the work; this is
//! arguments, the question and the printing).

use std::process::ExitCode;

use memory_core::{EventId, NotePath, SessionKey};
use memory_hook::forget::{self, Plan, Report, Target};
use memory_hook::{Config, Env};
use serde_json::json;

use super::history::{HistoryArgs, project_id};
use super::projects::Scopes;
use crate::output;

/// Arguments of `forget`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ForgetArgs {
    #[command(subcommand)]
    what: Option<What>,
    /// Everything of this memory (the config and hooks stay); lists it unless --yes
    #[arg(long)]
    all: bool,
    /// Delete without asking first (needed when stdin is not a terminal).
    #[arg(long, short = 'y', global = true)]
    yes: bool,
    /// Show what would be deleted, and delete nothing.
    #[arg(long, global = true)]
    dry_run: bool,
}

/// What to forget.
#[derive(Debug, Clone, clap::Subcommand)]
enum What {
    /// A session: its events, its session notes, its journal entries, log lines and ledger.
    Session {
        /// The session key, as `agent-memory sessions` lists it (`claude:<id>`).
        key: String,
    },
    /// One event, by id (`agent-memory timeline SESSION --json` shows ids).
    Event {
        /// The event id (32 hexadecimal characters).
        id: String,
    },
    /// Every event holding this text word for word (in a prompt, a command, a file written, an
    /// output), and every note holding it in any version: for a secret typed by mistake.
    Text {
        /// The text, matched by its words in order, whatever their case.
        text: String,
        #[command(flatten)]
        filter: HistoryArgs,
    },
    /// Every event of a time range (`--since`, `--until`), optionally of one project, harness or
    /// session.
    Range {
        #[command(flatten)]
        filter: HistoryArgs,
    },
    /// A project: its sessions with their events and session notes, its events, its notes.
    Project {
        /// The project's name or id (`.` for this folder's).
        name: String,
    },
    /// A note with its history and embeddings.
    Note {
        /// The note's scope: `user`, `project` (this folder's), `project:<name or id>`,
        /// `session:<key>`.
        scope: String,
        /// The note's path.
        path: NotePath,
    },
}

/// `agent-memory forget …`.
pub(crate) async fn run(args: &ForgetArgs, json: bool) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let env = Env::process();
    let store = crate::store::open(&config).await?;
    let cwd = std::env::current_dir().ok();
    let scopes = Scopes::load(&config, store.as_ref(), cwd.as_deref()).await?;
    let what = match (&args.what, args.all) {
        (None, true) => return all(args, json, &config, &env, store.as_ref(), &scopes).await,
        (Some(_), true) => anyhow::bail!("--all forgets everything: name nothing else to forget"),
        (None, false) => anyhow::bail!(
            "what to forget? a session, an event, a text, a range, a project or a note \
             (`agent-memory forget --help`), or everything with --all"
        ),
        (Some(what), false) => what,
    };
    let target = match what {
        What::Session { key } => Target::Session(SessionKey(key.trim().to_owned())),
        What::Event { id } => {
            let id = id.trim();
            if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
                anyhow::bail!(
                    "`{id}` is not an event id: ids are 32 hexadecimal characters (`timeline --json` shows them)"
                );
            }
            Target::Event(EventId(id.to_ascii_lowercase()))
        }
        What::Text { text, filter } => Target::Text { text: text.clone(), filter: filter.filter(&scopes)? },
        What::Range { filter } => {
            if filter.since.is_none() && filter.until.is_none() {
                anyhow::bail!("a range needs --since or --until (for example `forget range --since 2h`)");
            }
            Target::Events(filter.filter(&scopes)?)
        }
        What::Project { name } => Target::Project(project_id(&scopes, name)?),
        What::Note { scope, path } => {
            let scope = scopes.scope(scope)?;
            Target::Note { path: scopes.note_path(&scope, path), scope }
        }
    };
    let plan = forget::plan(store.as_ref(), &config, &env, &target).await?;
    if plan.is_empty() {
        // Nothing matches, yet the store finishes what an earlier forget may have left.
        let report = if args.dry_run { None } else { Some(forget::apply(store.as_ref(), &plan).await?) };
        if json {
            output::json(&json!({ "dry_run": args.dry_run, "plan": plan, "forgotten": report }))?;
        } else {
            output::print("nothing to forget: nothing recorded matches");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.dry_run {
        if json {
            output::json(&json!({ "dry_run": true, "plan": plan, "forgotten": null }))?;
        } else {
            output::print(&format!(
                "would forget:\n{}(dry run: nothing was deleted)",
                describe(&plan, &scopes)
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !args.yes {
        match output::ask_after(
            &format!("this deletes for good:\n{}", describe(&plan, &scopes)),
            "Forget all of this?",
        )? {
            output::Answer::Yes => {}
            output::Answer::No => {
                output::print("nothing deleted");
                return Ok(ExitCode::from(1));
            }
            output::Answer::NoTerminal => {
                output::error(
                    "agent-memory: forget deletes for good and asks first, but stdin is not a terminal; \
                     pass --yes to delete without asking, or --dry-run to see what would go",
                );
                return Ok(ExitCode::from(1));
            }
        }
    }
    let report = forget::apply(store.as_ref(), &plan).await?;
    // Hooks in forward mode read the notes from a local copy: purged as the store was.
    memory_hook::forward::purge_replica(&config, &crate::store::HookStores, store.as_ref(), &plan).await?;
    let team = team_sync(&config).await;
    if json {
        output::json(&json!({ "dry_run": false, "plan": plan, "forgotten": report, "team": team }))?;
    } else {
        output::print(&summary(&report));
    }
    Ok(ExitCode::SUCCESS)
}

/// What left the shared projects' notes leaves the team server too; what the sync did, when it
/// did (a failure is said on stderr).
async fn team_sync(config: &Config) -> Option<memory_hook::team::Synced> {
    if !config.team.is_on() {
        return None;
    }
    match crate::cmd::team::sync(config).await {
        Ok(synced) => Some(synced),
        Err(e) => {
            output::error(&format!(
                "agent-memory: the team server still has your notes as they were: {e:#}; `agent-memory team sync` retries"
            ));
            None
        }
    }
}

/// `forget --all`: what would go unless `--yes` (never a question: all of it goes, or nothing).
async fn all(
    args: &ForgetArgs,
    json: bool,
    config: &Config,
    env: &Env,
    store: &dyn memory_core::MemoryStore,
    scopes: &Scopes,
) -> anyhow::Result<ExitCode> {
    if args.yes && !args.dry_run {
        forget::deliver_first(config, env, store).await?;
    }
    let plan = forget::plan(store, config, env, &Target::Everything).await?;
    let kept = kept(config, env);
    if args.dry_run || !args.yes {
        if json {
            output::json(&json!({ "dry_run": true, "plan": plan, "forgotten": null, "kept": kept }))?;
        } else {
            output::print(&format!(
                "would forget everything this memory holds:
{}{}
(dry run: nothing was deleted; \
                 `agent-memory forget --all --yes` deletes all of it)",
                describe_all(&plan, config, scopes),
                kept_text(&kept)
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = forget::apply(store, &plan).await?;
    memory_hook::forward::purge_replica(config, &crate::store::HookStores, store, &plan).await?;
    let team = team_sync(config).await;
    if json {
        output::json(
            &json!({ "dry_run": false, "plan": plan, "forgotten": report, "kept": kept, "team": team }),
        )?;
    } else {
        output::print(&format!(
            "{}; {} other file{} deleted
{}",
            summary(&report),
            report.files,
            plural(report.files),
            kept_text(&kept)
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `forget --all` leaves: the config file, the hooks, the embedding model.
fn kept(config: &Config, env: &Env) -> serde_json::Value {
    json!({
        "config": memory_hook::paths::config_file(env),
        "hooks": "the harnesses' hook and MCP entries `agent-memory install` wrote (`agent-memory uninstall` removes them)",
        "model": config.model_dir(),
    })
}

fn kept_text(kept: &serde_json::Value) -> String {
    format!(
        "left as they are: the config file {}, the hooks installed in the harnesses \
         (`agent-memory uninstall` removes them) and the embedding model in {}",
        kept["config"].as_str().unwrap_or_default(),
        kept["model"].as_str().unwrap_or_default()
    )
}

/// Everything a plan of `forget --all` covers, counted.
fn describe_all(plan: &Plan, config: &Config, scopes: &Scopes) -> String {
    let count = |n: usize, what: &str| format!("{n} {what}{}", plural(n));
    let store = match config.store.backend {
        memory_hook::config::Backend::Sqlite => {
            format!("the SQLite store {}", config.sqlite_path().display())
        }
        memory_hook::config::Backend::Neo4j => format!(
            "the Neo4j server {}{}",
            config.store.neo4j.uri.as_deref().unwrap_or("(no uri set)"),
            if config.forwards() {
                format!(", and the local copy of its notes {}", config.replica_path().display())
            } else {
                String::new()
            }
        ),
    };
    let mut text = format!(
        "  {}, {} and {} (with their history, embeddings and indexes) from {store}\n",
        count(plan.events.len(), "event"),
        count(plan.sessions.len(), "session"),
        count(plan.notes.len(), "note"),
    );
    let projects: std::collections::BTreeSet<String> = plan
        .notes
        .iter()
        .filter(|n| matches!(n.scope, memory_core::Scope::Project(_)))
        .map(|n| scopes.label(&n.scope))
        .collect();
    if !projects.is_empty() {
        text.push_str(&format!("    notes of {}\n", projects.into_iter().collect::<Vec<_>>().join(", ")));
    }
    text.push_str(&format!(
        "  {}, {} and {} (logs, the dream's and the forwarder's records, the project registry, \
         the context files written in projects) of {}\n",
        count(plan.journal.len(), "journal file"),
        count(plan.ledgers.len(), "ledger"),
        count(plan.files.len(), "other file"),
        config.data_dir().display()
    ));
    text
}

/// Most events listed one by one.
const LISTED: usize = 20;

/// What a plan covers, for a person.
fn describe(plan: &Plan, scopes: &Scopes) -> String {
    let mut text = String::new();
    if !plan.events.is_empty() {
        text.push_str(&format!("  {} event{}\n", plan.events.len(), plural(plan.events.len())));
        for e in plan.events.iter().take(LISTED) {
            text.push_str(&format!(
                "    {}  {} #{}  {}  {}\n",
                output::clock().second(e.occurred_at),
                e.session,
                e.seq,
                e.kind,
                e.id
            ));
        }
        if plan.events.len() > LISTED {
            text.push_str(&format!("    … and {} more\n", plan.events.len() - LISTED));
        }
    }
    for key in &plan.sessions {
        text.push_str(&format!("  session {key}\n"));
    }
    for n in &plan.notes {
        text.push_str(&format!(
            "  note {} {} ({}), with its history\n",
            scopes.label(&n.scope),
            n.path,
            n.title
        ));
    }
    for n in &plan.edited {
        text.push_str(&format!(
            "  from note {} {} ({}), and from its history{}:\n",
            scopes.label(&n.scope),
            n.path,
            n.title,
            if n.history > 0 {
                format!(" ({} older version{})", n.history, plural(n.history))
            } else {
                String::new()
            }
        ));
        for line in &n.lines {
            text.push_str(&format!("    {line}\n"));
        }
        if n.lines.is_empty() {
            text.push_str("    (lines of older versions only)\n");
        }
    }
    for n in &plan.rederived {
        text.push_str(&format!(
            "  note {} {} keeps its other sources and loses the forgotten ones\n",
            scopes.label(&n.scope),
            n.path
        ));
    }
    if !plan.journal.is_empty() {
        text.push_str(&format!("  {} journal file{}\n", plan.journal.len(), plural(plan.journal.len())));
    }
    for file in &plan.lines {
        text.push_str(&format!("  {} line{} of {}\n", file.lines, plural(file.lines), file.path.display()));
    }
    for ledger in &plan.ledgers {
        text.push_str(&format!("  ledger {}\n", ledger.display()));
    }
    if let Some(id) = &plan.registry_entry {
        text.push_str(&format!(
            "  the project {} ({id}) in the project registry: its name, folders and remotes\n",
            scopes.project_name(id)
        ));
    }
    text
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn summary(report: &Report) -> String {
    let s = &report.store;
    format!(
        "forgot {} event{}, {} session{}, {} note{} (with their history); {} note{} rewritten without \
         what went, {} note{} re-derived; {} journal file{}, {} log line{}, {} ledger{} removed",
        s.events,
        plural(s.events as usize),
        s.sessions,
        plural(s.sessions as usize),
        s.notes,
        plural(s.notes as usize),
        report.edited,
        plural(report.edited),
        report.rederived,
        plural(report.rederived),
        report.journal_files,
        plural(report.journal_files),
        report.lines,
        plural(report.lines),
        report.ledgers,
        plural(report.ledgers),
    )
}
