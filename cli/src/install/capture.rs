//! `doctor`'s capture lines: whether everything is paused, which projects are paused or excluded
//! (by `[capture] exclude` or `capture = false` in their project file), and whether such sessions
//! are still given notes; and how long events are kept.

use std::path::PathBuf;

use chrono::Utc;
use memory_hook::Project;
use memory_hook::capture::{self, Pause, PauseFile, ProjectPause};
use memory_hook::project::Registry;
use serde::Serialize;

/// A known project whose sessions are not recorded.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NotRecorded {
    pub(crate) name: String,
    pub(crate) id: String,
    pub(crate) root: PathBuf,
    pub(crate) why: String,
}

/// What is not recorded.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CaptureCheck {
    /// All capture is paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) paused: Option<Pause>,
    /// Projects paused one by one.
    pub(crate) paused_projects: Vec<ProjectPause>,
    /// `[capture] exclude`.
    pub(crate) exclude: Vec<String>,
    /// `[capture] inject_when_paused`.
    pub(crate) inject_when_paused: bool,
    /// Known projects that are not recorded, and why.
    pub(crate) not_recorded: Vec<NotRecorded>,
    /// `[retention] events_days`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) retention_days: Option<u32>,
}

/// Reads the pause file and the registry; a pause file that does not parse is a problem.
pub(crate) fn check(config: &memory_hook::Config, problems: &mut Vec<String>) -> CaptureCheck {
    let now = Utc::now();
    let file = PauseFile::new(&config.data_dir());
    let mut state = file.load().unwrap_or_else(|e| {
        problems.push(format!("{e}; hooks record as if nothing were paused"));
        Default::default()
    });
    state.expire(now);
    let home = dirs::home_dir();
    let mut not_recorded = Vec::new();
    for entry in Registry::new(&config.data_dir()).load().map(|p| p.projects).unwrap_or_default() {
        for root in &entry.roots {
            let project = Project { id: entry.id.clone(), name: entry.name.clone(), root: root.path.clone() };
            let off = capture::check(&config.capture, &state, &root.path, &project, home.as_deref(), now);
            // Everything paused is said once, not per project.
            if let Some(off) = off.filter(|o| !matches!(o, capture::Off::Paused { all: true, .. })) {
                not_recorded.push(NotRecorded {
                    name: entry.name.clone(),
                    id: entry.id.clone(),
                    root: root.path.clone(),
                    why: off.to_string(),
                });
            }
        }
    }
    CaptureCheck {
        paused: state.all.clone(),
        paused_projects: state.projects.clone(),
        exclude: config.capture.exclude.clone(),
        inject_when_paused: config.capture.inject_when_paused,
        not_recorded,
        retention_days: config.retention.events_days,
    }
}

/// The lines of the report.
pub(crate) fn render(check: &CaptureCheck) -> String {
    let mut out = match &check.paused {
        Some(pause) => format!("\ncapture: PAUSED for every project {}\n", until(pause)),
        None => "\ncapture: on\n".to_owned(),
    };
    for project in &check.not_recorded {
        out.push_str(&format!(
            "not recorded: {} ({}) in {}: {}\n",
            project.name,
            project.id,
            project.root.display(),
            project.why
        ));
    }
    if !check.exclude.is_empty() {
        out.push_str(&format!("excluded by the config: {}\n", check.exclude.join(", ")));
    }
    if check.paused.is_some() || !check.not_recorded.is_empty() {
        out.push_str(if check.inject_when_paused {
            "sessions that are not recorded are still given notes (`capture.inject_when_paused = true`)\n"
        } else {
            "sessions that are not recorded are given no notes either (`capture.inject_when_paused = false`)\n"
        });
    }
    out.push_str(&match check.retention_days {
        Some(days) => {
            format!("retention: events older than {days} days are pruned once the dream has read them\n")
        }
        None => "retention: every event is kept (`[retention] events_days` is not set)\n".to_owned(),
    });
    out
}

fn until(pause: &Pause) -> String {
    pause.until.map_or_else(
        || "until `agent-memory resume`".to_owned(),
        |u| format!("until {}", crate::output::clock().minute(u)),
    )
}
