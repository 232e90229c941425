//! Which harnesses this machine has, for an `install` that names none, and what a program name
//! runs when a shell looks it up on `PATH`.
//!
//! A harness is found when its configuration folder exists (in the home folder, or for the
//! project scope in the project) or its command-line program is on `PATH`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::plan::{Context, Harness, Scope};

/// What showed a harness to be here, or what was looked for in vain.
#[derive(Debug, Clone)]
pub(crate) struct Detection {
    pub(crate) harness: Harness,
    /// The folder or program found; `None` when nothing was.
    pub(crate) found: Option<PathBuf>,
    /// What was looked for, for the message when nothing was found.
    pub(crate) looked_for: String,
}

/// Looks for every harness, in a fixed order.
pub(crate) fn detect(ctx: &Context, scope: Scope) -> Vec<Detection> {
    Harness::ALL.iter().map(|&harness| detect_one(ctx, scope, harness)).collect()
}

fn detect_one(ctx: &Context, scope: Scope, harness: Harness) -> Detection {
    let (dir, project_dir, programs): (PathBuf, &str, &[&str]) = match harness {
        Harness::Claude => (ctx.home.join(".claude"), ".claude", &["claude"]),
        Harness::Codex => (ctx.codex_home.clone(), ".codex", &["codex"]),
        Harness::Cursor => (ctx.home.join(".cursor"), ".cursor", &["cursor", "cursor-agent"]),
        Harness::Gemini => (ctx.home.join(".gemini"), ".gemini", &["gemini"]),
        Harness::Copilot => (ctx.copilot_home.clone(), ".copilot", &["copilot"]),
        Harness::Qwen => (ctx.home.join(".qwen"), ".qwen", &["qwen"]),
        Harness::Droid => (ctx.home.join(".factory"), ".factory", &["droid"]),
        Harness::Opencode => (ctx.opencode_home.clone(), ".opencode", &["opencode"]),
        Harness::Cline => (ctx.home.join(".cline"), ".clinerules", &["cline"]),
    };
    let mut dirs = vec![dir];
    if scope == Scope::Project
        && harness != Harness::Copilot
        && let Some(project) = &ctx.project
    {
        dirs.push(project.join(project_dir));
    }
    let found = dirs
        .iter()
        .find(|d| d.is_dir())
        .cloned()
        .or_else(|| programs.iter().find_map(|p| on_path(OsStr::new(p))));
    let looked_for = format!(
        "{} or `{}` on PATH",
        dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "),
        programs.join("` or `")
    );
    Detection { harness, found, looked_for }
}

/// The executable file a shell runs for a bare program name, looking through `PATH`.
pub(crate) fn on_path(name: &OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| super::doctor::binary_state(candidate) == super::doctor::BinaryState::Ok)
}

/// The file a program of a hook command runs: itself when it is a path, else what `PATH` gives.
pub(crate) fn resolve(program: &Path) -> Option<PathBuf> {
    if program.components().count() == 1 && !program.is_absolute() {
        on_path(program.as_os_str())
    } else {
        Some(program.to_path_buf())
    }
}

/// Whether `agent-memory`, looked up on `PATH`, runs `binary`.
pub(crate) fn name_runs(binary: &Path) -> bool {
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    on_path(OsStr::new(BINARY_NAME)).is_some_and(|found| same(&found, binary))
}

/// The name our binary is installed under.
pub(crate) const BINARY_NAME: &str = "agent-memory";
