//! `pause` and `resume`: stop recording sessions (all of them, or one project's), for a while or
//! until resumed, and start again. The state is `<data_dir>/capture.json`, which every hook reads.

use std::process::ExitCode;

use chrono::Utc;
use memory_hook::capture::{self, Pause, PauseFile, PauseState};
use memory_hook::project::Registry;

use crate::output;

/// Which sessions `pause` or `resume` is about.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Target {
    /// Only this project (a name or id, as `agent-memory projects` lists them).
    #[arg(long, value_name = "NAME", conflicts_with = "here")]
    project: Option<String>,
    /// Only the project of the current folder.
    #[arg(long)]
    here: bool,
}

/// Arguments of `pause`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct PauseArgs {
    #[command(flatten)]
    target: Target,
    /// For this long (`30m`, `2h`, `1d`, `1h30m`); until `agent-memory resume` without it.
    #[arg(long = "for", value_name = "DURATION")]
    length: Option<String>,
}

/// `agent-memory pause`.
pub(crate) fn pause(args: &PauseArgs, json: bool) -> anyhow::Result<ExitCode> {
    let config = memory_hook::Config::load()?;
    let length = args.length.as_deref().map(capture::parse_length).transpose()?;
    let file = PauseFile::new(&config.data_dir());
    let mut state = load(&file)?;
    let now = Utc::now();
    let pause = Pause::from(now, length);
    let until = pause.until.map_or_else(
        || "until `agent-memory resume`".to_owned(),
        |until| format!("until {}", crate::output::clock().minute(until)),
    );
    let message = match project(&config, &args.target)? {
        Some((id, name)) => {
            state.pause_project(&id, &name, pause);
            format!("capture paused for project {name} ({id}) {until}: its sessions record nothing")
        }
        None => {
            state.all = Some(pause);
            format!("capture paused {until}: no session records anything")
        }
    };
    file.save(&state, now)?;
    report(json, &message, &file)
}

/// `agent-memory resume`.
pub(crate) fn resume(target: &Target, json: bool) -> anyhow::Result<ExitCode> {
    let config = memory_hook::Config::load()?;
    let file = PauseFile::new(&config.data_dir());
    // A state file that does not parse is replaced by resuming everything.
    let mut state =
        if target.project.is_none() && !target.here { PauseState::default() } else { load(&file)? };
    let now = Utc::now();
    let message = match project(&config, target)? {
        Some((id, name)) => {
            let paused = state.resume_project(&id);
            match (paused, &state.all) {
                (_, Some(_)) => format!(
                    "project {name} resumed, but all capture is still paused: `agent-memory resume` resumes everything"
                ),
                (true, None) => format!("capture resumed for project {name} ({id})"),
                (false, None) => format!("project {name} ({id}) was not paused"),
            }
        }
        None => "capture resumed for every project".to_owned(),
    };
    file.save(&state, now)?;
    let mut message = message;
    if !config.capture.exclude.is_empty() {
        message.push_str("\n(`[capture] exclude` in the config still applies; `agent-memory doctor` lists what it excludes)");
    }
    report(json, &message, &file)
}

fn load(file: &PauseFile) -> anyhow::Result<PauseState> {
    let mut state = file.load()?;
    state.expire(Utc::now());
    Ok(state)
}

fn report(json: bool, message: &str, file: &PauseFile) -> anyhow::Result<ExitCode> {
    if json {
        output::json(&serde_json::json!({ "message": message, "state": load(file)? }))?;
    } else {
        output::print(message);
    }
    Ok(ExitCode::SUCCESS)
}

/// The project a target names, as its id and name; `None` for every project.
fn project(config: &memory_hook::Config, target: &Target) -> anyhow::Result<Option<(String, String)>> {
    let registry = Registry::new(&config.data_dir());
    if target.here {
        let cwd = std::env::current_dir()?;
        // Recorded now, so hooks in this folder file their sessions under the same id.
        let project = registry.identify(&cwd);
        return Ok(Some((project.id, project.name)));
    }
    let Some(name) = &target.project else { return Ok(None) };
    let projects = registry.load()?;
    match projects.find(name) {
        Some(entry) => Ok(Some((entry.id.clone(), entry.name.clone()))),
        None => Err(memory_hook::Error::UnknownProject {
            name: name.clone(),
            known: projects.projects.iter().map(|e| format!("{} ({})", e.name, e.id)).collect(),
        }
        .into()),
    }
}
