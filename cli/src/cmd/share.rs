//! `share on|off|status|write`: this folder's project's notes shared through its repository
//! ([`memory_hook::share`]), and what was done in words.

use std::process::ExitCode;

use memory_hook::Config;
use memory_hook::project::Registry;
use memory_hook::share;
use serde_json::json;

use crate::output;

/// `share`'s subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub(crate) enum ShareCommand {
    /// Turn it on: `[share] notes` in this project's `.agent-memory.toml`, and the notes written
    /// to the folder now. Commit both to share them.
    On {
        /// The folder, relative to the project's root.
        #[arg(long, default_value = share::DEFAULT_FOLDER)]
        folder: String,
    },
    /// Turn it off (the folder and its files stay in the repository).
    Off,
    /// Whether this folder's project shares its notes, and where.
    Status,
    /// Write the project's notes to the folder now (reading people's edits in first); nothing is
    /// committed.
    Write,
}

/// `agent-memory share`.
pub(crate) async fn run(command: ShareCommand, json: bool) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let cwd = std::env::current_dir()?;
    let project = Registry::new(&config.data_dir()).identify(&cwd);
    match command {
        ShareCommand::On { folder } => {
            let at = share::turn_on(&project.root, Some(&folder))?;
            let written = write(&config, &project).await?;
            let files = written.as_ref().map_or(0, |w| w.files);
            if json {
                output::json(
                    &json!({ "project": project.name, "folder": at, "on": true, "written": written }),
                )?;
            } else {
                output::print(&format!(
                    "project {} shares its notes in {} ({files} notes written): commit {} and the folder",
                    project.name,
                    at.display(),
                    memory_hook::project::PROJECT_FILE
                ));
            }
        }
        ShareCommand::Off => {
            let was = share::turn_off(&project.root)?;
            if json {
                output::json(&json!({ "project": project.name, "on": false, "was_on": was }))?;
            } else if was {
                output::print(&format!(
                    "project {} no longer shares its notes; the folder stays until you remove it",
                    project.name
                ));
            } else {
                output::print(&format!("project {} did not share its notes", project.name));
            }
        }
        ShareCommand::Status => {
            let sharing = share::sharing_of(&config, &project);
            if json {
                output::json(&json!({ "project": project.name, "sharing": sharing }))?;
            } else {
                output::print(&match sharing {
                    Some(s) => format!(
                        "project {} shares its notes in {} ({})",
                        s.name,
                        s.folder.display(),
                        s.files
                            .map_or_else(|| "not written or read yet".to_owned(), |n| format!("{n} notes"))
                    ),
                    None => format!(
                        "project {} keeps its notes to this machine: `agent-memory share on` shares them through its repository",
                        project.name
                    ),
                });
            }
        }
        ShareCommand::Write => {
            let Some(written) = write(&config, &project).await? else {
                anyhow::bail!(
                    "project {} does not share its notes: `agent-memory share on` turns it on",
                    project.name
                );
            };
            if json {
                output::json(&written)?;
            } else {
                let mut text = format!(
                    "{} written, {} removed, {} in the folder",
                    written.written.len(),
                    written.removed.len(),
                    written.files
                );
                let read = &written.brought_in;
                if read.looked {
                    text.push_str(&format!(
                        "; read first: {} new, {} changed, {} deleted",
                        read.created.len(),
                        read.updated.len(),
                        read.deleted.len()
                    ));
                }
                for rel in &written.left {
                    text.push_str(&format!(
                        "\nleft as it is (changed since agent-memory last saw it): {rel}"
                    ));
                }
                for bad in &read.invalid {
                    text.push_str(&format!("\ninvalid  {}: {}", bad.file, bad.reason));
                }
                if written.withheld > 0 {
                    text.push_str(&format!("\n{} private notes kept out of the folder", written.withheld));
                }
                output::print(&text);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the project's notes to its folder, when it shares them.
async fn write(
    config: &Config,
    project: &memory_hook::Project,
) -> anyhow::Result<Option<memory_tree::share::Written>> {
    if share::setting(&project.root).is_none() {
        return Ok(None);
    }
    let store = crate::store::open(config).await?;
    let written = share::write_out(config, &*store, project).await?;
    crate::store::refresh_replica(config, &*store).await?;
    Ok(written)
}
