//! Whether a session is recorded: `agent-memory pause` and `resume` (all capture or one project,
//! for a while or until resumed), `capture = false` in a project's `.agent-memory.toml`, and the
//! configuration's `[capture] exclude` list of path globs and project names.
//!
//! A session that is not recorded leaves nothing in the store or the journal and is not counted
//! for the dream; its hook still answers the harness (with notes only when
//! [`crate::config::CaptureConfig::inject_when_paused`] is set). The hook's log gets one line
//! saying why, without the session's id.
//!
//! The pause state is one small file, `<data_dir>/capture.json` ([`PauseFile`]), present only
//! while something is paused: a hook reads it (or finds it absent) once per event. A timed pause
//! simply stops applying when its time is up.

use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use crate::config::CaptureConfig;
use crate::error::{Error, Result};
use crate::project::Project;

/// The pause state's file name in the data folder.
pub const STATE_FILE: &str = "capture.json";

/// One pause: since when, and until when (`None`: until resumed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pause {
    /// When it was paused.
    pub since: DateTime<Utc>,
    /// When capture resumes by itself; `None` until `agent-memory resume`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<DateTime<Utc>>,
}

impl Pause {
    /// A pause from `now`, for `length` when given.
    pub fn from(now: DateTime<Utc>, length: Option<TimeDelta>) -> Self {
        Self { since: now, until: length.map(|d| now + d) }
    }

    /// Whether it still applies at `now`.
    pub fn active(&self, now: DateTime<Utc>) -> bool {
        self.until.is_none_or(|until| now < until)
    }
}

/// One paused project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectPause {
    /// The project's id.
    pub id: String,
    /// Its readable name when it was paused, for messages.
    pub name: String,
    /// The pause.
    #[serde(flatten)]
    pub pause: Pause,
}

/// What is paused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PauseState {
    /// Every session, whatever its project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all: Option<Pause>,
    /// Sessions of these projects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub projects: Vec<ProjectPause>,
}

impl PauseState {
    /// Drops pauses whose time is up.
    pub fn expire(&mut self, now: DateTime<Utc>) {
        if self.all.as_ref().is_some_and(|p| !p.active(now)) {
            self.all = None;
        }
        self.projects.retain(|p| p.pause.active(now));
    }

    /// Whether nothing is paused.
    pub fn is_empty(&self) -> bool {
        self.all.is_none() && self.projects.is_empty()
    }

    /// The pause that applies to `project` at `now`: all capture first, then the project's.
    pub fn applying(&self, project_id: &str, now: DateTime<Utc>) -> Option<&Pause> {
        self.all.as_ref().filter(|p| p.active(now)).or_else(|| {
            self.projects.iter().find(|p| p.id == project_id && p.pause.active(now)).map(|p| &p.pause)
        })
    }

    /// Pauses one project (replacing an earlier pause of it).
    pub fn pause_project(&mut self, id: &str, name: &str, pause: Pause) {
        self.projects.retain(|p| p.id != id);
        self.projects.push(ProjectPause { id: id.to_owned(), name: name.to_owned(), pause });
    }

    /// Resumes one project; whether it was paused.
    pub fn resume_project(&mut self, id: &str) -> bool {
        let before = self.projects.len();
        self.projects.retain(|p| p.id != id);
        before != self.projects.len()
    }
}

/// `<data_dir>/capture.json`.
#[derive(Debug, Clone)]
pub struct PauseFile {
    path: PathBuf,
}

impl PauseFile {
    /// The pause file of the data folder `data_dir`.
    pub fn new(data_dir: &Path) -> Self {
        Self { path: data_dir.join(STATE_FILE) }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What is paused; nothing when the file does not exist.
    pub fn load(&self) -> Result<PauseState> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(PauseState::default()),
            Err(cause) => return Err(Error::Io { path: self.path.clone(), cause }),
        };
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::CaptureState { path: self.path.clone(), message: e.to_string() })
    }

    /// Writes the state (atomically), without the pauses whose time is up; removes the file when
    /// nothing is paused any more.
    pub fn save(&self, state: &PauseState, now: DateTime<Utc>) -> Result<()> {
        let mut state = state.clone();
        state.expire(now);
        if state.is_empty() {
            return match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path)(e)),
                _ => Ok(()),
            };
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        crate::paths::ensure_private_dir(dir).map_err(Error::io(dir))?;
        let text = serde_json::to_string_pretty(&state).unwrap_or_default();
        let tmp = self.path.with_extension(format!("json.{}.tmp", std::process::id()));
        std::fs::write(&tmp, text + "\n")
            .and_then(|()| std::fs::rename(&tmp, &self.path))
            .map_err(Error::io(&self.path))
    }
}

/// Why a session is not recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Off {
    /// `agent-memory pause` (all capture, or this project).
    Paused {
        /// Whether every project is paused, not only this one.
        all: bool,
        /// When it ends by itself.
        until: Option<DateTime<Utc>>,
    },
    /// An entry of `[capture] exclude`.
    Excluded(String),
    /// `capture = false` in this project file.
    ProjectFile(PathBuf),
}

impl std::fmt::Display for Off {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Paused { all, until } => {
                let what = if *all { "capture is paused" } else { "capture is paused for this project" };
                match until {
                    Some(until) => write!(f, "{what} until {}", until.to_rfc3339()),
                    None => write!(f, "{what} (until `agent-memory resume`)"),
                }
            }
            Self::Excluded(entry) => write!(f, "excluded by `[capture] exclude` entry `{entry}`"),
            Self::ProjectFile(path) => write!(f, "`capture = false` in {}", path.display()),
        }
    }
}

/// Whether a session in `cwd`, filed under `project`, is recorded: `None` when it is, else why
/// not. `home` expands `~/` in path globs. Cheap enough for every hook: the pause state is read
/// by the caller; this reads at most one small file per folder from `cwd` up to the project root.
pub fn check(
    config: &CaptureConfig,
    state: &PauseState,
    cwd: &Path,
    project: &Project,
    home: Option<&Path>,
    now: DateTime<Utc>,
) -> Option<Off> {
    if let Some(pause) = state.applying(&project.id, now) {
        return Some(Off::Paused { all: state.all.as_ref() == Some(pause), until: pause.until });
    }
    if let Some(entry) = excluded(config, cwd, project, home) {
        return Some(Off::Excluded(entry.to_owned()));
    }
    crate::project::capture_switched_off(cwd, &project.root).map(Off::ProjectFile)
}

/// The first `[capture] exclude` entry that names `project` or matches a folder at or above `cwd`
/// or the project's root.
pub fn excluded<'c>(
    config: &'c CaptureConfig,
    cwd: &Path,
    project: &Project,
    home: Option<&Path>,
) -> Option<&'c str> {
    if config.exclude.is_empty() {
        return None;
    }
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    config.exclude.iter().map(String::as_str).find(|entry| match glob_of(entry, home) {
        None => entry.eq_ignore_ascii_case(&project.name) || *entry == project.id,
        Some(glob) => [cwd.as_path(), project.root.as_path()]
            .iter()
            .any(|dir| dir.ancestors().any(|d| glob_matches(&glob, &d.to_string_lossy()))),
    })
}

/// An entry's path glob, absolute; `None` when the entry is a project name (no `/` in it).
fn glob_of(entry: &str, home: Option<&Path>) -> Option<String> {
    let entry = entry.trim_end_matches('/');
    if let Some(rest) = entry.strip_prefix("~/") {
        return Some(format!("{}/{rest}", home?.to_string_lossy().trim_end_matches('/')));
    }
    if entry == "~" {
        return home.map(|h| h.to_string_lossy().into_owned());
    }
    if !entry.contains('/') {
        return None;
    }
    if entry.starts_with('/') { Some(entry.to_owned()) } else { Some(format!("/**/{entry}")) }
}

/// Whether `path` (absolute, `/`-separated) matches `glob`: `**` is any number of folders, `*`
/// any text within one, `?` one character.
pub fn glob_matches(glob: &str, path: &str) -> bool {
    let pattern: Vec<&str> = glob.split('/').filter(|s| !s.is_empty()).collect();
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    segments_match(&pattern, &parts)
}

fn segments_match(pattern: &[&str], parts: &[&str]) -> bool {
    match pattern.split_first() {
        None => parts.is_empty(),
        Some((&"**", rest)) => (0..=parts.len()).any(|skip| segments_match(rest, &parts[skip..])),
        Some((first, rest)) => parts
            .split_first()
            .is_some_and(|(part, others)| segment_matches(first, part) && segments_match(rest, others)),
    }
}

fn segment_matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // Backtracking over the last star: linear in practice for the short names of folders.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// Reads a length such as `30m`, `2h`, `1d`, `45s` or `1h30m`.
pub fn parse_length(text: &str) -> Result<TimeDelta> {
    let bad = || Error::Length { text: text.to_owned() };
    let mut total = TimeDelta::zero();
    let mut digits = String::new();
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let n: i64 = digits.parse().map_err(|_| bad())?;
        digits.clear();
        let part = match c {
            's' => TimeDelta::try_seconds(n),
            'm' => TimeDelta::try_minutes(n),
            'h' => TimeDelta::try_hours(n),
            'd' => TimeDelta::try_days(n),
            'w' => TimeDelta::try_weeks(n),
            _ => None,
        };
        total = part.and_then(|p| total.checked_add(&p)).ok_or_else(bad)?;
    }
    if !digits.is_empty() || total <= TimeDelta::zero() {
        return Err(bad());
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(root: &Path) -> Project {
        Project { id: "acme-1234abcd".into(), name: "acme".into(), root: root.to_path_buf() }
    }

    #[test]
    fn globs_match_folders_and_names_match_projects() {
        assert!(glob_matches("/home/u/clients/*", "/home/u/clients/acme"));
        assert!(!glob_matches("/home/u/clients/*", "/home/u/clients"));
        assert!(glob_matches("/**/secret-*", "/a/b/secret-plans"));
        assert!(glob_matches("/home/u/**/x?z", "/home/u/1/2/xyz"));
        assert!(!glob_matches("/home/u/**/x?z", "/home/u/1/2/xyyz"));
        assert!(glob_matches("/a/*b*c", "/a/xxbyyc"));

        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap().join("clients/acme");
        std::fs::create_dir_all(root.join("src")).unwrap();
        let home = std::fs::canonicalize(tmp.path()).unwrap();
        let by = |exclude: &[&str]| {
            let config = CaptureConfig {
                exclude: exclude.iter().map(|s| (*s).to_owned()).collect(),
                ..CaptureConfig::default()
            };
            excluded(&config, &root.join("src"), &project(&root), Some(&home)).map(str::to_owned)
        };
        assert_eq!(by(&["~/clients/*"]).as_deref(), Some("~/clients/*"));
        assert_eq!(by(&["other", "ACME"]).as_deref(), Some("ACME"));
        assert_eq!(by(&["acme-1234abcd"]).as_deref(), Some("acme-1234abcd"));
        assert_eq!(by(&["clients/acme"]).as_deref(), Some("clients/acme"));
        assert_eq!(by(&["~/work/**", "acm", "/elsewhere/*"]), None);
    }

    #[test]
    fn pauses_apply_until_their_time_and_the_file_goes_when_nothing_is_paused() {
        let tmp = tempfile::tempdir().unwrap();
        let file = PauseFile::new(tmp.path());
        assert_eq!(file.load().unwrap(), PauseState::default());
        let now = Utc::now();
        let acme = project(tmp.path());
        let mut state = PauseState::default();
        state.pause_project(&acme.id, &acme.name, Pause::from(now, Some(TimeDelta::hours(2))));
        file.save(&state, now).unwrap();
        let loaded = file.load().unwrap();
        assert!(loaded.applying(&acme.id, now + TimeDelta::minutes(119)).is_some());
        assert!(loaded.applying(&acme.id, now + TimeDelta::minutes(121)).is_none());
        assert!(loaded.applying("other", now).is_none());

        let off = check(&CaptureConfig::default(), &loaded, tmp.path(), &acme, None, now).unwrap();
        assert!(matches!(off, Off::Paused { all: false, until: Some(_) }), "{off:?}");
        state.all = Some(Pause::from(now, None));
        assert!(state.applying("other", now + TimeDelta::days(400)).is_some());

        assert!(state.resume_project(&acme.id));
        state.all = None;
        file.save(&state, now).unwrap();
        assert!(!file.path().exists());
    }

    #[test]
    fn lengths_read_as_people_write_them() {
        assert_eq!(parse_length("30m").unwrap(), TimeDelta::minutes(30));
        assert_eq!(parse_length("2h").unwrap(), TimeDelta::hours(2));
        assert_eq!(parse_length("1d").unwrap(), TimeDelta::days(1));
        assert_eq!(parse_length("1h30m").unwrap(), TimeDelta::minutes(90));
        for bad in ["", "2", "h", "0m", "2x", "-1h"] {
            assert!(parse_length(bad).is_err(), "{bad}");
        }
    }
}
