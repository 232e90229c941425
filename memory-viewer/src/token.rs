//! The viewer's token, kept for this user: one file in the data folder that only its owner can
//! read, so an address bookmarked at one launch opens the viewer at the next; [`rotate`] replaces
//! it, and every address handed out before stops working.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// The file in the data folder that holds the token.
pub const FILE: &str = "viewer-token";

/// The token kept in `data_dir`, made and kept there first when there is none.
pub fn kept(data_dir: &Path) -> Result<String> {
    let path = data_dir.join(FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) if valid(text.trim()) => Ok(text.trim().to_owned()),
        Ok(_) => rotate(data_dir),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => rotate(data_dir),
        Err(cause) => Err(Error::Token { path, cause }),
    }
}

/// A new token, kept in `data_dir` in place of the old one.
pub fn rotate(data_dir: &Path) -> Result<String> {
    let token = crate::secret()?;
    let path = data_dir.join(FILE);
    write(&path, &token).map_err(|cause| Error::Token { path, cause })?;
    Ok(token)
}

/// Whether `text` is a token this crate made: 64 hexadecimal characters.
fn valid(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Writes `token` to `path` through a file only its owner can read, renamed into place.
fn write(path: &Path, token: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = PathBuf::from(format!("{}.new", path.display()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(&temporary)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(token.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_kept_for_its_owner_alone_until_rotated() {
        let dir = tempfile::tempdir().unwrap();
        let first = kept(dir.path()).unwrap();
        assert_eq!(kept(dir.path()).unwrap(), first, "the next launch reads the same token");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let second = rotate(dir.path()).unwrap();
        assert_ne!(second, first);
        assert_eq!(kept(dir.path()).unwrap(), second);
        std::fs::write(dir.path().join(FILE), "short").unwrap();
        assert_ne!(kept(dir.path()).unwrap(), "short", "a damaged file gets a new token");
    }
}
