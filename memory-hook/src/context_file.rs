//! The project file some harnesses read as standing context (Cursor's always-apply rules file),
//! kept current with the session-start block where the harness cannot take context per prompt.

use std::path::{Path, PathBuf};

use memory_core::HarnessAdapter;

use crate::error::{Error, Result};

/// Where the adapter's context file of a project lives, if the harness has one.
pub fn path(adapter: &dyn HarnessAdapter, project_root: &Path) -> Option<PathBuf> {
    adapter.context_file().map(|relative| project_root.join(relative))
}

/// Writes the file when its content changed; removes it when there is nothing to say.
pub fn update(adapter: &dyn HarnessAdapter, project_root: &Path, block: Option<&str>) -> Result<()> {
    let Some(path) = path(adapter, project_root) else { return Ok(()) };
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
