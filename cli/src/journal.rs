//! The local durable journal: events that could not reach the store in time wait here, one file
//! each, and are delivered in order by later hooks and by `agent-memory sync`.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use memory_core::{HookEvent, MemoryStore};

use crate::config::ensure_private_dir;

/// Events appended to the store per batch while draining: large enough that a Neo4j server spends
/// its time writing rather than on round trips (docs/benchmarks.md).
const BATCH: usize = 1_000;

#[derive(Debug, Clone)]
pub(crate) struct Journal {
    dir: PathBuf,
}

/// What a drain did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Drained {
    /// Events delivered to the store (redeliveries included).
    pub(crate) delivered: usize,
    /// Whether the journal is empty now.
    pub(crate) empty: bool,
}

impl Journal {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes an event durably (temp file, fsync, rename). Files sort in delivery order.
    pub(crate) fn write(&self, event: &HookEvent) -> std::io::Result<PathBuf> {
        ensure_private_dir(&self.dir)?;
        let nanos = event.occurred_at.timestamp_nanos_opt().unwrap_or_default().max(0);
        let name = format!("{nanos:020}-{}.json", event.id);
        let path = self.dir.join(&name);
        let tmp = self.dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let mut file = private_file(&tmp)?;
        file.write_all(&serde_json::to_vec(event).map_err(std::io::Error::other)?)?;
        file.sync_all()?;
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }

    /// Journal files waiting for delivery, oldest first.
    pub(crate) fn pending(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json")
                        && p.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.'))
                })
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e),
        };
        files.sort();
        Ok(files)
    }

    /// Whether anything waits, cheaply.
    pub(crate) fn is_empty(&self) -> bool {
        self.pending().map(|p| p.is_empty()).unwrap_or(true)
    }

    /// Delivers every waiting event in order. With `wait` false, returns at once (not empty) when
    /// another process is delivering.
    pub(crate) async fn drain(&self, store: &dyn MemoryStore, wait: bool) -> anyhow::Result<Drained> {
        if self.is_empty() {
            return Ok(Drained { delivered: 0, empty: true });
        }
        ensure_private_dir(&self.dir)?;
        let lock = private_file_keep(&self.dir.join(".lock"))?;
        if wait {
            lock.lock()?;
        } else if lock.try_lock().is_err() {
            return Ok(Drained { delivered: 0, empty: false });
        }
        let mut delivered = 0;
        let files = self.pending()?;
        for chunk in files.chunks(BATCH) {
            let mut events = Vec::with_capacity(chunk.len());
            let mut readable = Vec::with_capacity(chunk.len());
            for path in chunk {
                match std::fs::read(path).map(|b| serde_json::from_slice::<HookEvent>(&b)) {
                    Ok(Ok(event)) => {
                        events.push(event);
                        readable.push(path);
                    }
                    Ok(Err(e)) => {
                        let bad = path.with_extension("corrupt");
                        std::fs::rename(path, &bad)?;
                        anyhow::bail!("journal file {} is unreadable ({e}); moved aside", path.display());
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e.into()),
                }
            }
            store.append(&events).await?;
            for path in readable {
                match std::fs::remove_file(path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                    _ => {}
                }
            }
            delivered += events.len();
        }
        Ok(Drained { delivered, empty: self.is_empty() })
    }
}

fn private_file(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

fn private_file_keep(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}
