//! Keeping an export inside its folder: manifest paths are checked like note paths, nothing is
//! written, removed or read through a symbolic link below the tree's folder, and files are
//! replaced by renaming a fresh file over them, so a planted link (symbolic or hard) is replaced
//! rather than written through.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::layout;

/// Why a manifest entry cannot name a file of the tree, or `None` when it can: a relative,
/// `/`-separated path below `user/`, `project/<name>/` or `session/<name>/` that is a valid note
/// path there.
pub(crate) fn entry_problem(rel: &str) -> Option<String> {
    if rel.starts_with('/') || rel.contains('\\') {
        return Some("is not a relative path inside the tree".to_owned());
    }
    if rel.chars().any(char::is_control) {
        return Some("contains control characters".to_owned());
    }
    if rel.split('/').any(|segment| segment.is_empty() || segment == "." || segment == "..") {
        return Some("leaves the tree or has empty, `.` or `..` segments".to_owned());
    }
    layout::place(rel).err()
}

/// Refuses `rel` below `dir` when any existing part of it (the file included) is a symbolic
/// link; the tree's own folder may be one.
pub(crate) fn no_links(dir: &Path, rel: &str) -> Result<()> {
    let mut at = dir.to_path_buf();
    for segment in rel.split('/') {
        at.push(segment);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(Error::Symlink { path: at }),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => return Err(Error::Read { path: at, source }),
        }
    }
    Ok(())
}

/// Refuses `rel`'s folders below `dir` when one is a symbolic link; the file itself may be one
/// (it is replaced, not followed).
fn no_linked_folders(dir: &Path, rel: &str) -> Result<()> {
    match rel.rsplit_once('/') {
        Some((folders, _)) => no_links(dir, folders),
        None => Ok(()),
    }
}

/// Writes `bytes` to `rel` below `dir`: folders created as needed (never through a link), the
/// bytes written to a new file beside it, then renamed over it.
pub(crate) fn write(dir: &Path, rel: &str, bytes: &[u8]) -> Result<PathBuf> {
    no_linked_folders(dir, rel)?;
    let path = dir.join(rel);
    let parent = path.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(Error::create_dir(parent))?;
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let temp = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut file| file.write_all(bytes))
        .and_then(|()| std::fs::rename(&temp, &path));
    if let Err(source) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(Error::Write { path, source });
    }
    Ok(path)
}

/// Removes `rel` below `dir` (a link there is removed itself, never its target); whether it was
/// there.
pub(crate) fn remove(dir: &Path, rel: &str) -> Result<bool> {
    no_linked_folders(dir, rel)?;
    match std::fs::remove_file(dir.join(rel)) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(Error::RemoveStale { file: rel.to_owned(), source }),
    }
}

#[cfg(test)]
mod tests {
    use super::entry_problem;

    #[test]
    fn manifest_entries_are_note_paths_inside_the_tree() {
        assert_eq!(entry_problem("user/profile/role.md"), None);
        assert_eq!(entry_problem("project/acme/conventions.md"), None);
        for bad in [
            "../victim.txt",
            "/tmp/victim.md",
            "user/../../victim.md",
            "user//x.md",
            "user\\x.md",
            "project/x.md",
            "notes.md",
            "user/./x.md",
            "C:/Users/x.md",
        ] {
            assert!(entry_problem(bad).is_some(), "{bad}");
        }
    }
}
