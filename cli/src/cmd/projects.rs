//! `agent-memory projects`: list, rename and merge the known projects; and [`Scopes`], how every
//! command turns a scope the user typed (`project:webshop`, `project`) into a store scope and a
//! store scope into what the user reads.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use memory_core::{MemoryStore, Scope};
use memory_hook::Project;
use memory_hook::config::Config;
use memory_hook::project::{self, Catalog, Known, Registry};

use crate::output::{Align, Table, Tone, json as print_json, print};

/// `agent-memory projects …`
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ProjectsCommand {
    /// List the known projects: name, id, folders, remotes, last seen (the default).
    List,
    /// Give a project another readable name; its id and notes stay, filed under the new name.
    Rename {
        /// The project: its name or id.
        project: String,
        /// The new name: lowercase letters, digits and dashes.
        new_name: String,
    },
    /// Merge project FROM into INTO: FROM's notes (with their history) move to INTO, and FROM's
    /// folders, remotes and id resolve to INTO from now on.
    Merge {
        /// The project merged away: its name or id.
        from: String,
        /// The project that remains: its name or id.
        into: String,
    },
}

/// The known projects and the current folder's, for turning scopes users type into store scopes
/// and back.
#[derive(Debug)]
pub(crate) struct Scopes {
    catalog: Catalog,
    here: Option<Project>,
}

impl Scopes {
    /// The projects the configured registry and `store` know, and the project of `cwd`.
    pub(crate) async fn load(
        config: &Config,
        store: &dyn MemoryStore,
        cwd: Option<&Path>,
    ) -> anyhow::Result<Self> {
        let registry = Registry::new(&config.data_dir());
        let catalog = Catalog::load_settled(&registry, store).await?;
        let here = match cwd {
            Some(cwd) => registry.lookup(cwd)?,
            None => None,
        };
        Ok(Self { catalog, here })
    }

    /// The store scope `text` names; a project nobody knows is an error listing the known ones.
    pub(crate) fn scope(&self, text: &str) -> memory_hook::Result<Scope> {
        self.catalog.scope(text, self.here.as_ref())
    }

    /// A scope as users read it (`project:<name>`).
    pub(crate) fn label(&self, scope: &Scope) -> String {
        self.catalog.label(scope)
    }

    /// Project ids to names and back, for notes shown and read back.
    pub(crate) fn naming(&self) -> memory_core::ProjectNames {
        self.catalog.naming()
    }

    /// The path of a note of `scope` a user typed (`conventions.md` for a project's
    /// `project/<name>/conventions.md`).
    pub(crate) fn note_path(&self, scope: &Scope, typed: &memory_core::NotePath) -> memory_core::NotePath {
        self.catalog.note_path(scope, typed)
    }

    /// A note key as the hook records it (`<scope> <path>`), its scope read as [`Self::label`].
    pub(crate) fn key_label(&self, key: &str) -> String {
        match key.split_once(' ') {
            Some((scope, path)) => match scope.parse::<Scope>() {
                Ok(scope) => format!("{} {path}", self.label(&scope)),
                Err(_) => key.to_owned(),
            },
            None => key.to_owned(),
        }
    }

    /// The id of the current folder's project, when it is a known one.
    pub(crate) fn here_id(&self) -> Option<&str> {
        self.here.as_ref().map(|p| p.id.as_str())
    }

    /// The readable name of a project id, or the id when nobody knows it.
    pub(crate) fn project_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.catalog.projects().iter().find(|k| k.id == id).map_or(id, |k| k.name.as_str())
    }
}

pub(crate) async fn run(json: bool, command: Option<ProjectsCommand>) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let store = crate::store::open(&config).await?;
    let registry = Registry::new(&config.data_dir());
    match command.unwrap_or(ProjectsCommand::List) {
        ProjectsCommand::List => {
            let catalog = Catalog::load(&registry, store.as_ref()).await?;
            if json {
                print_json(&catalog.projects())?;
            } else {
                print(&list_text(catalog.projects()));
            }
        }
        ProjectsCommand::Rename { project, new_name } => {
            let before = Catalog::load(&registry, store.as_ref()).await?.project(&project)?.name.clone();
            let entry = project::rename(&registry, store.as_ref(), &project, &new_name).await?;
            // Hooks in forward mode read the notes' new paths from their local copy at once.
            crate::store::refresh_replica(&config, store.as_ref()).await?;
            if json {
                print_json(&entry)?;
            } else {
                print(&format!(
                    "renamed {before} to {} (id {}); `project:{}` names it from now on",
                    entry.name, entry.id, entry.name
                ));
            }
        }
        ProjectsCommand::Merge { from, into } => {
            let report = project::merge(&registry, store.as_ref(), &from, &into).await?;
            crate::store::refresh_replica(&config, store.as_ref()).await?;
            if json {
                print_json(&report)?;
            } else {
                let (from_id, from_name) = &report.from;
                let (into_id, into_name) = &report.into;
                let mut text = format!(
                    "merged {from_name} ({from_id}) into {into_name} ({into_id}): {} notes moved",
                    report.moved.len()
                );
                if !report.collided.is_empty() {
                    let _ = write!(
                        text,
                        "; {} were in both, the newer version is current and the other is in its history ({})",
                        report.collided.len(),
                        report.collided.join(", ")
                    );
                }
                let _ = write!(text, "\nits folders and its id now resolve to {into_name}");
                print(&text);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn list_text(projects: &[Known]) -> String {
    if projects.is_empty() {
        return "no projects known yet; a hook records one when a session starts in its folder".to_owned();
    }
    let clock = crate::output::clock();
    let mut table = Table::new(&[
        ("NAME", Align::Left),
        ("ID", Align::Left),
        ("LAST SEEN", Align::Left),
        ("SESSIONS", Align::Right),
        ("NOTES", Align::Right),
    ]);
    for known in projects {
        let mut details = Vec::new();
        match &known.entry {
            None => details.push("only in the store (no folder seen on this machine)".to_owned()),
            Some(entry) => {
                for root in &entry.roots {
                    let gone = if root.path.exists() { "" } else { " (not there now)" };
                    details.push(format!("folder  {}{gone}", root.path.display()));
                }
                details.extend(entry.remotes.iter().map(|remote| format!("remote  {remote}")));
                if !entry.former_ids.is_empty() {
                    details.push(format!("merged  {}", entry.former_ids.join(", ")));
                }
            }
        }
        table.row_with(
            vec![
                known.name.clone(),
                known.id.clone(),
                known.last_seen.map_or_else(|| "-".to_owned(), |t| clock.minute(t)),
                known.sessions.to_string(),
                known.notes.to_string(),
            ],
            Tone::Plain,
            details,
        );
    }
    table.render()
}
