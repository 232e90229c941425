//! Single-flight locks between processes: an exclusive OS lock on a file, which the OS releases
//! when the last process holding the file open ends, whatever ends it, so a killed holder never
//! blocks the next one. The file that stays behind is only a name; it holds who took the lock, for
//! `doctor`. A hook takes a lock and hands its open file to the process it starts (as that
//! process's stdin), which adopts it: the lock is held from the child's first instruction.
//!
//! The dream's lock ([`crate::DreamLock`]) and the forwarder's ([`crate::forward`]) are such locks.

use std::fs::{File, OpenOptions};
use std::io::{Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::paths::ensure_private_dir;

/// A held lock on one file.
#[derive(Debug)]
pub struct ProcessLock {
    file: File,
    path: PathBuf,
}

impl ProcessLock {
    fn open(path: &Path) -> Result<File> {
        if let Some(dir) = path.parent() {
            ensure_private_dir(dir).map_err(Error::io(dir))?;
        }
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(path).map_err(Error::io(path))
    }

    /// Takes the lock on `path` unless another process holds it (`None`).
    pub fn try_acquire(path: &Path) -> Result<Option<Self>> {
        let file = Self::open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Self { file, path: path.to_path_buf() })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(path)(e)),
        }
    }

    /// Takes the lock on `path`, waiting for its holder to release it.
    pub fn acquire(path: &Path) -> Result<Self> {
        let file = Self::open(path)?;
        file.lock().map_err(Error::io(path))?;
        Ok(Self { file, path: path.to_path_buf() })
    }

    /// The lock another process handed to this one as `file`, when `file` is the lock file at
    /// `path` and holds the lock.
    pub fn adopt(file: File, path: &Path) -> Option<Self> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let given = file.metadata().ok()?;
            let ours = std::fs::metadata(path).ok()?;
            if !given.is_file() || (given.dev(), given.ino()) != (ours.dev(), ours.ino()) {
                return None;
            }
        }
        // Locking again through the open file that holds the lock succeeds; any other fails.
        file.try_lock().ok()?;
        Some(Self { file, path: path.to_path_buf() })
    }

    /// Writes who holds the lock into its file.
    pub fn record(&self, holder: &impl Serialize) -> Result<()> {
        let io = |e| Error::io(&self.path)(e);
        let text = serde_json::to_vec(holder).map_err(|e| io(std::io::Error::other(e)))?;
        let mut file = &self.file;
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&text).map_err(io)
    }

    /// Who holds the lock on `path`, as it recorded, when a process does.
    pub fn holder<T: DeserializeOwned + Default>(path: &Path) -> Option<T> {
        let file = File::open(path).ok()?;
        match file.try_lock_shared() {
            // Nobody holds it; the shared lock just taken ends with `file`.
            Ok(()) => None,
            Err(_) => {
                let text = std::fs::read(path).unwrap_or_default();
                Some(serde_json::from_slice(&text).unwrap_or_default())
            }
        }
    }

    /// The open file that holds the lock, to hand to another process: the lock lasts as long as
    /// any process keeps it open.
    pub fn into_file(self) -> File {
        self.file
    }
}
