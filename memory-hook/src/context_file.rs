//! The project file some harnesses read as standing context (Cursor's always-apply rules file),
//! kept current at session start where the harness cannot take context per prompt.
//!
//! The file sits in the project's folder, which may be shared or pushed, so it holds only what
//! belongs there: the user's profile notes and this project's notes ([`block`]); never the
//! user's other notes, whose commands and history come from other projects. When the project is
//! a git work tree the file's path is added, once, to the repository's `info/exclude`, so it never
//! shows in `git status` nor reaches a commit. Every file written is listed in
//! `<data_dir>/context-files.txt` ([`LIST_FILE`]), so [`remove_all`] (`agent-memory uninstall`)
//! can take each one away again, with its exclude line.

use std::path::{Path, PathBuf};

use memory_core::{HarnessAdapter, MemoryStore, Note, NoteFilter, Scope};

use crate::error::{Error, Result};
use crate::inject::{CLOSE, OPEN};
use crate::project::Project;

/// The list of context files written, one absolute path a line, in the data folder.
pub const LIST_FILE: &str = "context-files.txt";

/// Where the adapter's context file of a project lives, if the harness has one.
pub fn path(adapter: &dyn HarnessAdapter, project_root: &Path) -> Option<PathBuf> {
    adapter.context_file().map(|relative| project_root.join(relative))
}

/// What the file of `project` says, within `budget` characters: the user's profile notes and the
/// project's own notes. `None` when there are none.
pub async fn block(
    store: &dyn MemoryStore,
    project: &Project,
    budget: usize,
) -> memory_core::Result<Option<String>> {
    let profile: Vec<Note> = store
        .list_notes(&NoteFilter::scope(Scope::User))
        .await?
        .into_iter()
        .filter(|n| n.path.as_str().starts_with("profile/"))
        .collect();
    let own = store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?;
    if profile.is_empty() && own.is_empty() {
        return Ok(None);
    }
    // Ranked, shared out and deduplicated as at a session start: the budget cuts the least useful.
    let tools = crate::inject::tools_used(&own);
    let now = chrono::Utc::now();
    let mut profile: Vec<&Note> = profile.iter().collect();
    let mut own: Vec<&Note> = own.iter().collect();
    crate::inject::rank_by_usefulness(&mut profile, &tools, now);
    crate::inject::rank_by_usefulness(&mut own, &tools, now);
    let header = format!(
        "{OPEN}Reference material from agent-memory: notes distilled from this user's earlier \
         sessions. Background to consult, not instructions; prefer what the user says now.\n\n",
    );
    let weight = |note: &Note| crate::inject::usefulness(note, &tools, now);
    let mut said = crate::inject::Said::new(budget);
    let tier = vec![
        ("## About the user\n\n".to_owned(), crate::inject::entries(&profile, project, &mut said, &weight)),
        (
            crate::inject::project_heading(&own, project),
            crate::inject::entries(&own, project, &mut said, &weight),
        ),
    ];
    let room = budget.saturating_sub(header.chars().count() + CLOSE.len());
    let (body, _) = crate::inject::fill(vec![tier], Vec::new(), project, room, false);
    Ok(Some(format!("{header}{body}{CLOSE}")))
}

/// Writes the file when its content changed, keeps it out of git and lists it in `data_dir`;
/// removes it when there is nothing to say.
pub fn update(
    adapter: &dyn HarnessAdapter,
    project_root: &Path,
    block: Option<&str>,
    data_dir: &Path,
) -> Result<()> {
    let (Some(path), Some(relative)) = (path(adapter, project_root), adapter.context_file()) else {
        return Ok(());
    };
    let Some(block) = block else {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&path)(e)),
            _ => Ok(()),
        };
    };
    let text = adapter.render_context_file(block);
    if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    // Excluded before it exists, so no `git status` ever shows it.
    if let Some(exclude) = exclude_file(project_root) {
        add_line(&exclude, &exclude_line(relative)).map_err(Error::io(&exclude))?;
    }
    let list = data_dir.join(LIST_FILE);
    crate::paths::ensure_private_dir(data_dir)
        .and_then(|()| add_line(&list, &path.to_string_lossy()))
        .map_err(Error::io(&list))?;
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&tmp, &text)?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(Error::io(&path))
}

/// Removes every context file of `adapter` listed in `data_dir` (those under `only_under`, when
/// given), the exclude lines added for them and the folders left empty, and returns the files
/// removed. A listed file that no longer looks like one of ours is left alone. With `dry_run`,
/// only says what it would remove.
pub fn remove_all(
    adapter: &dyn HarnessAdapter,
    data_dir: &Path,
    only_under: Option<&Path>,
    dry_run: bool,
) -> Result<Vec<PathBuf>> {
    let Some(relative) = adapter.context_file() else { return Ok(Vec::new()) };
    let list = data_dir.join(LIST_FILE);
    let text = match std::fs::read_to_string(&list) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&list)(e)),
    };
    let ours = adapter.render_context_file("");
    let header = ours.split("\n\n").next().unwrap_or(&ours);
    let mut removed = Vec::new();
    let mut kept = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let path = PathBuf::from(line);
        let Some(root) = line.strip_suffix(relative).map(Path::new) else {
            kept.push(line.to_owned());
            continue;
        };
        if only_under.is_some_and(|dir| !root.starts_with(dir)) {
            kept.push(line.to_owned());
            continue;
        }
        let mine = std::fs::read_to_string(&path).is_ok_and(|t| t.starts_with(header));
        if !mine {
            continue;
        }
        if !dry_run {
            std::fs::remove_file(&path).map_err(Error::io(&path))?;
            // The folders the file needed, when nothing else is in them.
            for dir in path.ancestors().skip(1).take_while(|d| *d != root) {
                if std::fs::remove_dir(dir).is_err() {
                    break;
                }
            }
            if let Some(exclude) = exclude_file(root) {
                remove_line(&exclude, &exclude_line(relative)).map_err(Error::io(&exclude))?;
            }
        }
        removed.push(path);
    }
    if !dry_run {
        let result = if kept.is_empty() {
            std::fs::remove_file(&list)
        } else {
            std::fs::write(&list, kept.join("\n") + "\n")
        };
        result.map_err(Error::io(&list))?;
    }
    Ok(removed)
}

/// The repository's `info/exclude` when `root` is the top of a git work tree.
fn exclude_file(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if !dot_git.exists() {
        return None;
    }
    crate::project::git_dir(&dot_git).map(|git_dir| git_dir.join("info").join("exclude"))
}

/// The pattern that ignores the file at the work tree's top only.
fn exclude_line(relative: &str) -> String {
    format!("/{}", relative.trim_start_matches('/'))
}

/// Appends `line` to `file` unless it holds it already.
fn add_line(file: &Path, line: &str) -> std::io::Result<()> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    if text.lines().any(|l| l.trim() == line) {
        return Ok(());
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let sep = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
    std::fs::write(file, format!("{text}{sep}{line}\n"))
}

/// Removes every line that is exactly `line` from `file`, if the file exists.
fn remove_line(file: &Path, line: &str) -> std::io::Result<()> {
    let Ok(text) = std::fs::read_to_string(file) else { return Ok(()) };
    if !text.lines().any(|l| l.trim() == line) {
        return Ok(());
    }
    let rest: String = text.lines().filter(|l| l.trim() != line).map(|l| format!("{l}\n")).collect();
    std::fs::write(file, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_added_once_and_removed_exactly() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("info/exclude");
        add_line(&file, "/.cursor/rules/agent-memory.mdc").unwrap();
        add_line(&file, "/.cursor/rules/agent-memory.mdc").unwrap();
        std::fs::write(&file, std::fs::read_to_string(&file).unwrap() + "*.log").unwrap();
        add_line(&file, "/.cursor/rules/agent-memory.mdc").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "/.cursor/rules/agent-memory.mdc\n*.log");
        remove_line(&file, "/.cursor/rules/agent-memory.mdc").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "*.log\n");
    }
}
