//! Reading and replacing configuration files without ever leaving one half-written.
//!
//! - A symlinked file is followed to its final target; the target is what gets read, backed up
//!   and replaced, and the link stays as it is.
//! - A replacement is written to a temporary file in the target's folder, flushed to disk, given
//!   the old file's permission bits (0644 for a new file) and renamed over the target; the folder
//!   is then synced. A failure at any step leaves the old file untouched.
//! - Before a file that exists is replaced, its bytes are saved to `<target>.agent-memory.bak`
//!   (replacing an older backup) the same way.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Permission bits of a file we create.
const NEW_FILE_MODE: u32 = 0o644;

/// The suffix of backups.
pub(crate) const BACKUP_SUFFIX: &str = ".agent-memory.bak";

/// A configuration file as found on disk.
#[derive(Debug, Clone)]
pub(crate) struct Current {
    /// The file the path leads to once symlinks are followed.
    pub(crate) target: PathBuf,
    /// Its text; `None` when it does not exist.
    pub(crate) text: Option<String>,
    /// Its permission bits, when it exists.
    pub(crate) mode: Option<u32>,
}

/// Follows `path` through symlinks (at most 40) to the file they lead to, which may not exist.
pub(crate) fn resolve(path: &Path) -> anyhow::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)
                    .with_context(|| format!("cannot read the symlink {}", current.display()))?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    anyhow::bail!("{} is a chain of more than 40 symlinks", path.display())
}

/// Reads the file `path` leads to.
pub(crate) fn read(path: &Path) -> anyhow::Result<Current> {
    let target = resolve(path)?;
    match std::fs::read(&target) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes).map_err(|_| {
                anyhow::format_err!("{} is not UTF-8 text; nothing was changed", target.display())
            })?;
            let mode = std::fs::metadata(&target).ok().map(|m| mode_of(&m));
            Ok(Current { target, text: Some(text), mode })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Current { target, text: None, mode: None }),
        Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", target.display()))),
    }
}

/// Whether no one may write the file according to its permission bits. (Checked by mode, not by
/// access rights, so that the answer is the same for root.)
pub(crate) fn is_read_only(mode: u32) -> bool {
    mode & 0o222 == 0
}

/// The backup of `target`.
pub(crate) fn backup_path(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_owned();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// Replaces the file `current` describes with `text`: backs up the old content (if any), then
/// writes atomically. Returns the backup's path.
pub(crate) fn replace(current: &Current, text: &str) -> anyhow::Result<Option<PathBuf>> {
    let target = &current.target;
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mode = current.mode.unwrap_or(NEW_FILE_MODE);
    let backup = match &current.text {
        Some(old) => {
            let backup = backup_path(target);
            write_atomic(&backup, dir, old, mode).with_context(|| {
                format!("cannot back up {} to {}; nothing was changed", target.display(), backup.display())
            })?;
            Some(backup)
        }
        None => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the folder {}", dir.display()))?;
            None
        }
    };
    write_atomic(target, dir, text, mode)
        .with_context(|| format!("cannot write {}; the file was left as it was", target.display()))?;
    Ok(backup)
}

/// Deletes the file `current` describes (a file of ours: no backup is kept); a file already gone
/// is no error.
pub(crate) fn remove(current: &Current) -> anyhow::Result<()> {
    match std::fs::remove_file(&current.target) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("cannot remove {}", current.target.display())))
        }
        _ => Ok(()),
    }
}

fn write_atomic(path: &Path, dir: &Path, text: &str, mode: u32) -> anyhow::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    temp.write_all(text.as_bytes())?;
    set_mode(temp.as_file(), mode)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| anyhow::Error::new(e.error))?;
    // Make the rename itself durable; not every filesystem supports syncing a folder.
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

#[cfg(unix)]
fn mode_of(meta: &std::fs::Metadata) -> u32 {
    std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777
}

#[cfg(not(unix))]
fn mode_of(meta: &std::fs::Metadata) -> u32 {
    if meta.permissions().readonly() { 0o444 } else { NEW_FILE_MODE }
}

#[cfg(unix)]
fn set_mode(file: &std::fs::File, mode: u32) -> std::io::Result<()> {
    file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(file: &std::fs::File, mode: u32) -> std::io::Result<()> {
    let mut permissions = file.metadata()?.permissions();
    permissions.set_readonly(is_read_only(mode));
    file.set_permissions(permissions)
}
