//! `team join|add|remove|sync|status|leave`: project notes shared with a team through a server
//! ([`memory_hook::team`]), and what was done in words.

use std::io::Read as _;
use std::process::ExitCode;

use memory_hook::project::{Catalog, Registry};
use memory_hook::team::{self, Setup, Synced};
use memory_hook::{Config, Env};
use serde_json::json;

use crate::output;

/// `team`'s subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub(crate) enum TeamCommand {
    /// Share this folder's project's notes through a team server (a Neo4j server), and sync now.
    /// Only the notes of the projects you add go there; your profile, your sessions and every
    /// event stay on this machine.
    Join {
        /// The server, for example `bolt://memory.internal:7687`.
        uri: String,
        /// User name on the server (default `neo4j`).
        #[arg(long)]
        username: Option<String>,
        /// Read the password from stdin and keep it in the config file (readable by you alone);
        /// else set AGENT_MEMORY_TEAM_PASSWORD where the dream runs.
        #[arg(long)]
        password_stdin: bool,
        /// Who you are, as the team reads your notes and every event records it (`[user] owner`;
        /// default: the one set, else git's user.email here).
        #[arg(long)]
        owner: Option<String>,
    },
    /// Share this folder's project (or `--project`) too.
    Add {
        /// A project by name or id.
        #[arg(long)]
        project: Option<String>,
    },
    /// Stop sharing this folder's project (or `--project`); what you published stays until
    /// `leave`.
    Remove {
        /// A project by name or id.
        #[arg(long)]
        project: Option<String>,
    },
    /// Publish your notes of the shared projects and bring the others' in, now (every dream does
    /// it too).
    Sync,
    /// What is shared with whom, and the last sync.
    Status,
    /// Take your notes off the team server, remove the others' from this memory, and forget the
    /// server's settings.
    Leave,
}

/// `agent-memory team`.
pub(crate) async fn run(command: TeamCommand, json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::process();
    let path = memory_hook::paths::config_file(&env);
    let config = Config::load()?;
    let cwd = std::env::current_dir()?;
    let registry = Registry::new(&config.data_dir());
    match command {
        TeamCommand::Join { uri, username, password_stdin, owner } => {
            let here = registry.identify(&cwd);
            let login = username.as_deref().unwrap_or("neo4j");
            memory_store_neo4j::Neo4jConfig::new(uri.as_str(), login, "")
                .validate()
                .map_err(|e| anyhow::anyhow!("not a team server address: {e}"))?;
            let password = password_stdin.then(read_password).transpose()?;
            // Written as `[user] owner`, which every event records too.
            let owner = owner
                .or_else(|| config.user.owner.clone())
                .or_else(|| memory_hook::owner::git_email(Some(&here.root)));
            let setup = Setup {
                uri: Some(&uri),
                username: username.as_deref(),
                password: password.as_deref(),
                owner: owner.as_deref(),
                add: Some(&here.id),
                ..Setup::default()
            };
            team::write_setup(&path, &setup)?;
            match sync(&Config::load()?).await {
                Ok(synced) => say(json, &synced, &format!("project {} is shared with {uri}", here.name))?,
                Err(e) => {
                    // The settings stay: every dream tries again.
                    output::error(&format!(
                        "agent-memory: project {} is set up to be shared with {uri}, but the first sync failed: {e:#}; \
                         every dream tries again, `agent-memory team sync` now",
                        here.name
                    ));
                    return Ok(ExitCode::from(1));
                }
            }
        }
        // Sharing needs a server; taking a project off the list (left from an earlier setup)
        // does not.
        TeamCommand::Add { .. } if config.team.uri.is_none() => {
            anyhow::bail!("no team server is set up: `agent-memory team join <bolt-uri>` sets one");
        }
        TeamCommand::Remove { project } if config.team.uri.is_none() && project.is_none() => {
            anyhow::bail!("no team server is set up: `agent-memory team join <bolt-uri>` sets one");
        }
        TeamCommand::Add { project } => {
            let id = project_id(&config, &registry, project.as_deref(), &cwd).await?;
            team::write_setup(&path, &Setup { add: Some(&id), ..Setup::default() })?;
            let synced = sync(&Config::load()?).await?;
            say(json, &synced, "project added")?;
        }
        TeamCommand::Remove { project } => {
            let id = project_id(&config, &registry, project.as_deref(), &cwd).await?;
            let mut changed = team::write_setup(&path, &Setup { remove: Some(&id), ..Setup::default() })?;
            if let Some(given) = project.as_deref() {
                changed |= team::write_setup(&path, &Setup { remove: Some(given), ..Setup::default() })?;
            }
            if json {
                output::json(&json!({ "project": id, "removed": changed }))?;
            } else if changed {
                output::print(
                    "no longer shared; what you published stays on the server until `agent-memory team leave`",
                );
            } else {
                output::print("that project was not shared");
            }
        }
        TeamCommand::Sync => {
            anyhow::ensure!(
                config.team.is_on(),
                "no project is shared with a team server: `agent-memory team join <bolt-uri>` in a project's folder"
            );
            let synced = sync(&config).await?;
            say(json, &synced, "synced")?;
        }
        TeamCommand::Status => {
            let status = team::status(&config);
            if json {
                output::json(&json!({ "team": status }))?;
            } else {
                output::print(&match status {
                    Some(status) => describe(&status),
                    None => "no team server: your notes stay on this machine (`agent-memory team join <bolt-uri>` shares a project's)".to_owned(),
                });
            }
        }
        TeamCommand::Leave => {
            anyhow::ensure!(config.team.uri.is_some(), "no team server is set up");
            let store = crate::store::open(&config).await?;
            let catalog = Catalog::load(&registry, &*store).await?;
            let names = memory_core::ProjectNames::new(catalog.names());
            let server = crate::store::open_team(&config).await?;
            let (withdrawn, removed) = team::withdraw(&config, &*store, &*server, &names).await?;
            team::write_setup(&path, &Setup { leave: true, ..Setup::default() })?;
            crate::store::refresh_replica(&config, &*store).await?;
            if json {
                output::json(&json!({ "withdrawn": withdrawn, "removed": removed }))?;
            } else {
                output::print(&format!(
                    "left the team server: {withdrawn} of your notes taken off it, {removed} of the team's removed here"
                ));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn read_password() -> anyhow::Result<String> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let password = text.trim_end_matches(['\n', '\r']).to_owned();
    anyhow::ensure!(!password.is_empty(), "no password on stdin");
    Ok(password)
}

/// The id of `given` (a name or id) or of the project of `cwd`.
async fn project_id(
    config: &Config,
    registry: &Registry,
    given: Option<&str>,
    cwd: &std::path::Path,
) -> anyhow::Result<String> {
    let Some(given) = given else { return Ok(registry.identify(cwd).id) };
    let store = crate::store::open(config).await?;
    let catalog = Catalog::load(registry, &*store).await?;
    let names = memory_core::ProjectNames::new(catalog.names());
    names
        .id_of(given)
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("no project `{given}`; `agent-memory projects` lists the known ones"))
}

/// Syncs now over the configured store, bringing the local copy level after.
pub(crate) async fn sync(config: &Config) -> anyhow::Result<Synced> {
    let store = crate::store::open(config).await?;
    let catalog = Catalog::load(&Registry::new(&config.data_dir()), &*store).await?;
    let names = memory_core::ProjectNames::new(catalog.names());
    let synced = team::sync_configured(config, &crate::store::HookStores, &*store, &names)
        .await
        .ok_or_else(|| anyhow::anyhow!("no project is shared with a team server"))??;
    crate::store::refresh_replica(config, &*store).await?;
    Ok(synced)
}

fn say(json: bool, synced: &Synced, what: &str) -> anyhow::Result<()> {
    if json {
        return output::json(synced);
    }
    let mut text = format!("{what}: your notes are published as {}", synced.owner);
    for p in &synced.projects {
        text.push_str(&format!(
            "\n  {}: {} published, {} taken off, {} brought in, {} removed here{}",
            p.project,
            p.published,
            p.withdrawn,
            p.brought_in,
            p.removed,
            if p.people.is_empty() { String::new() } else { format!("; notes of {}", p.people.join(", ")) }
        ));
        if p.withheld > 0 {
            text.push_str(&format!(" ({} notes kept back: they carry a secret)", p.withheld));
        }
    }
    text.push_str("\nyour profile, your sessions and every event stay on this machine");
    output::print(&text);
    Ok(())
}

/// What is shared with whom, in sentences (`team status`, `doctor`).
pub(crate) fn describe(status: &team::TeamStatus) -> String {
    let projects =
        if status.projects.is_empty() { "no project yet".to_owned() } else { status.projects.join(", ") };
    let mut text = format!(
        "team server {}: project notes of {projects} shared as {}; your profile, sessions and events stay here",
        status.uri, status.owner
    );
    let clock = output::clock();
    if let Some(last) = &status.last {
        let when = clock.ago(last.at, chrono::Utc::now());
        match &last.error {
            Some(error) => text.push_str(&format!("\nlast sync {when} FAILED: {error}")),
            None => {
                let people: Vec<&str> = last.people().into_iter().collect();
                let from = if people.is_empty() {
                    "nobody else's notes yet".to_owned()
                } else {
                    format!("notes of {} here", people.join(", "))
                };
                text.push_str(&format!("\nlast sync {when}: {from}"));
            }
        }
    }
    text
}
