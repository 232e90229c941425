//! Cursor cannot take context on each prompt, so agent-memory keeps an always-apply rules file
//! (`adapter_cursor::RULES_FILE`) current with the session-start block as a fallback.

use std::path::PathBuf;

use crate::project::Project;

pub(crate) fn path(project: &Project) -> PathBuf {
    project.root.join(adapter_cursor::RULES_FILE)
}

/// Writes the rules file when its content changed; removes it when there is nothing to say.
pub(crate) fn update(project: &Project, block: Option<&str>) -> std::io::Result<()> {
    let path = path(project);
    let Some(block) = block else {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    };
    let text = adapter_cursor::CursorAdapter.rules_file(block);
    if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("mdc.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, &path)
}
