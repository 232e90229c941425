//! The local durable journal: events that could not reach the store in time wait here, one file
//! each, and are delivered in order by later hooks and by `agent-memory sync`.
//!
//! Layout of the journal folder:
//! - `<nanos>-<event id>.json`: one event, written to a temporary file, fsynced and renamed, so a
//!   name that exists holds a whole event. Names sort in delivery order.
//! - `large/`: events over [`LARGE_EVENT_BYTES`]. Hooks leave them to `sync`, so one huge event
//!   never holds up the small ones behind it.
//! - `.<name>.<pid>.<n>.tmp`: a write in progress. One left by a killed process is recovered (when
//!   whole) or removed by the next drain (under `large/`, by the next drain that runs at all; `sync`
//!   always does).
//! - `*.corrupt`: a file that did not parse, moved aside for inspection.
//! - `.lock`: held while delivering, so two processes never deliver at once.
//! - `.spare/`: delivered files, emptied, kept for the next writes (up to [`SPARE_FILES`]), as a
//!   database recycles its log segments: a write takes one by renaming it to its temporary name,
//!   so it allocates no new file. On some filesystems that is most of a write's cost (ext4 without
//!   a journal, where creating a file soon after many were deleted was measured at 1.2 ms against
//!   0.25 ms for a recycled one, fsync included).

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use memory_core::{HookEvent, MemoryStore};

use crate::error::{Error, Result};
use crate::paths::ensure_private_dir;

/// Events appended to the store per batch while a hook drains: large enough that a Neo4j server
/// spends its time writing rather than on round trips (docs/benchmarks.md).
const BATCH: usize = 1_000;

/// Bytes of events read per batch, so a journal of big events is delivered in bounded memory.
const BATCH_BYTES: u64 = 4 * 1024 * 1024;

/// The same for `sync` and the forwarder, off any hook's path: larger batches cost a distant
/// server fewer round trips per event.
const BULK_BATCH: usize = 5_000;
const BULK_BATCH_BYTES: u64 = 16 * 1024 * 1024;

/// Events larger than this are journaled under `large/` and delivered by `sync` only.
pub const LARGE_EVENT_BYTES: usize = 1024 * 1024;

/// A temporary file older than this belongs to a process that is gone.
const STALE_TMP: Duration = Duration::from_secs(60);

/// The folder of events set aside for `sync`.
const LARGE_DIR: &str = "large";

/// The folder of emptied files kept for the next writes, in each journal folder.
const SPARE_DIR: &str = ".spare";

/// At most this many spare files in a folder: enough for the hooks of a busy moment.
const SPARE_FILES: usize = 128;

/// Distinguishes the temporary files of concurrent writes within one process.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// A journal folder.
#[derive(Debug, Clone)]
pub struct Journal {
    dir: PathBuf,
}

/// How a drain runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrainMode {
    /// From a hook: return at once when another process is delivering, and leave `large/` to
    /// `sync`.
    Hook,
    /// From `sync`: wait for another delivery to finish, and deliver everything, `large/` too.
    All,
}

/// What a drain did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Drained {
    /// Events delivered to the store (redeliveries included).
    pub delivered: usize,
    /// Whether nothing waits any more that a hook must deliver first (`large/` aside).
    pub empty: bool,
    /// Files that did not parse, moved aside as `*.corrupt`.
    pub corrupt: usize,
    /// Whole events recovered from temporary files of killed processes.
    pub recovered: usize,
}

impl Journal {
    /// The journal in `dir` (created on the first write).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes an event durably (temporary file, fsync, rename). Safe to call from several threads
    /// and processes for the same event: a second write of one event finds it there and succeeds.
    pub fn write(&self, event: &HookEvent) -> Result<PathBuf> {
        let bytes =
            serde_json::to_vec(event).map_err(|e| Error::journal(&self.dir)(std::io::Error::other(e)))?;
        let dir = if bytes.len() > LARGE_EVENT_BYTES { self.dir.join(LARGE_DIR) } else { self.dir.clone() };
        write_durably(&dir, &file_name(event), &bytes).map_err(Error::journal(&dir))
    }

    /// Journal files waiting for delivery, oldest first; `large/` last.
    pub fn pending(&self) -> Result<Vec<PathBuf>> {
        let mut files = self.events_in(&self.dir)?;
        files.extend(self.events_in(&self.dir.join(LARGE_DIR))?);
        Ok(files)
    }

    /// Events under `large/`, waiting for `sync`.
    pub fn set_aside(&self) -> Result<Vec<PathBuf>> {
        self.events_in(&self.dir.join(LARGE_DIR))
    }

    /// Whether anything waits that a hook must deliver before its own event, cheaply.
    pub fn is_empty(&self) -> bool {
        self.events_in(&self.dir).map(|p| p.is_empty()).unwrap_or(true)
    }

    fn events_in(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json")
                        && p.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.'))
                })
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(Error::journal(dir)(e)),
        };
        files.sort();
        Ok(files)
    }

    /// Delivers waiting events in order (see [`DrainMode`]).
    pub async fn drain(&self, store: &dyn MemoryStore, mode: DrainMode) -> Result<Drained> {
        // One look at the folder on a hook's path; `sync` looks under `large/` too.
        let waiting = self.needs_drain(&self.dir)?
            || (mode == DrainMode::All && self.needs_drain(&self.dir.join(LARGE_DIR))?);
        if !waiting {
            return Ok(Drained { empty: true, ..Drained::default() });
        }
        ensure_private_dir(&self.dir).map_err(Error::journal(&self.dir))?;
        let lock_path = self.dir.join(".lock");
        let lock = open_lock(&lock_path).map_err(Error::journal(&lock_path))?;
        match mode {
            DrainMode::All => lock.lock().map_err(Error::journal(&lock_path))?,
            DrainMode::Hook => {
                if lock.try_lock().is_err() {
                    return Ok(Drained::default());
                }
            }
        }
        let mut drained = Drained { recovered: self.recover_tmp(), ..Drained::default() };
        let mut files = self.events_in(&self.dir)?;
        if mode == DrainMode::Hook {
            // Large events written before they were set aside at write time: set aside now, unread.
            files.retain(|path| !self.set_aside_if_large(path));
        }
        if mode == DrainMode::All {
            files.extend(self.set_aside()?);
        }
        let (batch, batch_bytes) =
            if mode == DrainMode::All { (BULK_BATCH, BULK_BATCH_BYTES) } else { (BATCH, BATCH_BYTES) };
        let delivery = deliver_in_batches(&self.dir, files, store, batch, batch_bytes).await?;
        drained.delivered += delivery.delivered;
        drained.corrupt += delivery.corrupt;
        drained.empty = self.is_empty();
        Ok(drained)
    }

    /// Moves a journal file over [`LARGE_EVENT_BYTES`] under `large/`; whether it did.
    fn set_aside_if_large(&self, path: &Path) -> bool {
        let large = std::fs::metadata(path).is_ok_and(|m| m.len() > LARGE_EVENT_BYTES as u64);
        let dir = self.dir.join(LARGE_DIR);
        large
            && ensure_private_dir(&dir).is_ok()
            && path.file_name().is_some_and(|name| std::fs::rename(path, dir.join(name)).is_ok())
    }

    fn tmp_files(&self) -> impl Iterator<Item = PathBuf> {
        [self.dir.clone(), self.dir.join(LARGE_DIR)]
            .into_iter()
            .filter_map(|dir| std::fs::read_dir(dir).ok())
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "tmp"))
    }

    /// Whether `dir` holds an event or a stale temporary file, from one listing of it.
    fn needs_drain(&self, dir: &Path) -> Result<bool> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(Error::journal(dir)(e)),
        };
        Ok(entries.filter_map(|e| e.ok().map(|e| e.path())).any(|p| {
            let visible = p.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.'));
            match p.extension() {
                Some(x) if x == "json" => visible,
                Some(x) if x == "tmp" => is_stale(&p),
                _ => false,
            }
        }))
    }

    /// Renames whole events left in stale temporary files into place and removes the rest;
    /// returns how many were recovered. Runs under the delivery lock.
    fn recover_tmp(&self) -> usize {
        let mut recovered = 0;
        for tmp in self.tmp_files().filter(|p| is_stale(p)) {
            let whole = std::fs::read(&tmp).ok().and_then(|b| serde_json::from_slice::<HookEvent>(&b).ok());
            match whole {
                Some(event) => {
                    let target = tmp.with_file_name(file_name(&event));
                    if std::fs::rename(&tmp, &target).is_ok() {
                        recovered += 1;
                    }
                }
                None => {
                    let _ = std::fs::remove_file(&tmp);
                }
            }
        }
        recovered
    }
}

/// Events read from the journal for one store call, with their files, in order.
#[derive(Debug, Default)]
struct Batch {
    events: Vec<HookEvent>,
    files: Vec<PathBuf>,
    corrupt: usize,
}

/// Reads the next batch from `next`: up to `batch` events or `batch_bytes` bytes of them. Files
/// that do not parse are moved aside as `*.corrupt`; files gone meanwhile are skipped.
fn read_batch(
    next: &mut std::iter::Peekable<std::vec::IntoIter<PathBuf>>,
    batch: usize,
    batch_bytes: u64,
) -> Result<Batch> {
    let (mut read, mut bytes) = (Batch::default(), 0);
    while let Some(path) = next.next_if(|_| read.events.len() < batch && bytes < batch_bytes) {
        match std::fs::read(&path) {
            Ok(data) => match serde_json::from_slice::<HookEvent>(&data) {
                Ok(event) => {
                    bytes += data.len() as u64;
                    read.events.push(event);
                    read.files.push(path);
                }
                Err(_) => {
                    std::fs::rename(&path, path.with_extension("corrupt")).map_err(Error::journal(&path))?;
                    read.corrupt += 1;
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::journal(&path)(e)),
        }
    }
    Ok(read)
}

/// Removes delivered files: each emptied and kept as a spare ([`SPARE_DIR`]) while its folder
/// has fewer than [`SPARE_FILES`], removed otherwise.
fn remove_delivered(files: &[PathBuf]) -> Result<()> {
    let mut spares: Option<(PathBuf, usize)> = None;
    for path in files {
        let Some(dir) = path.parent() else { continue };
        if spares.as_ref().is_none_or(|(spare_dir, _)| spare_dir.parent() != Some(dir)) {
            // Made once per folder; a folder that cannot have one keeps no spares.
            let spare_dir = dir.join(SPARE_DIR);
            let count = match ensure_private_dir(&spare_dir) {
                Ok(()) => std::fs::read_dir(&spare_dir).map_or(0, Iterator::count),
                Err(_) => SPARE_FILES,
            };
            spares = Some((spare_dir, count));
        }
        if let Some((spare_dir, count)) = spares.as_mut()
            && *count < SPARE_FILES
            && keep_as_spare(path, spare_dir).is_ok()
        {
            *count += 1;
            continue;
        }
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::journal(path)(e)),
            _ => {}
        }
    }
    Ok(())
}

/// Empties a delivered file and moves it into `spare_dir` (which exists), under a name of its
/// own (not the event's: nothing of a delivered event stays, for `forget` to find). Emptied
/// first: a file in the spare folder may be taken by a write at any moment, and is never touched
/// here after the move.
fn keep_as_spare(path: &Path, spare_dir: &Path) -> std::io::Result<()> {
    std::fs::OpenOptions::new().write(true).open(path)?.set_len(0)?;
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
    let name = format!("{nanos}-{}-{}", std::process::id(), WRITES.fetch_add(1, Ordering::Relaxed));
    std::fs::rename(path, spare_dir.join(name))
}

/// A spare file of `dir` renamed to `tmp` and opened empty, when there is one; several writers
/// may race for one, and the rename gives it to exactly one of them.
fn take_spare(dir: &Path, tmp: &Path) -> Option<File> {
    for entry in std::fs::read_dir(dir.join(SPARE_DIR)).ok()?.flatten() {
        match std::fs::rename(entry.path(), tmp) {
            Ok(()) => {
                let file = std::fs::OpenOptions::new().write(true).truncate(true).open(tmp);
                if file.is_err() {
                    let _ = std::fs::remove_file(tmp);
                }
                return file.ok();
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => return None,
        }
    }
    None
}

/// What [`deliver_in_batches`] did.
#[derive(Debug, Default)]
struct Delivery {
    delivered: usize,
    corrupt: usize,
}

/// Delivers `files` in order, a batch per store call. With more than one batch, the next batch is
/// read and parsed on a thread of its own while the store writes the current one, and the files
/// of a written batch are removed on another, so the store waits on neither. A file is removed
/// only once the store has its batch: a delivery killed at any point leaves every undelivered
/// event in the journal (and perhaps some delivered ones, which the store skips when they come
/// again).
async fn deliver_in_batches(
    dir: &Path,
    files: Vec<PathBuf>,
    store: &dyn MemoryStore,
    batch: usize,
    batch_bytes: u64,
) -> Result<Delivery> {
    let mut done = Delivery::default();
    if files.len() <= batch {
        // One batch by count (a few, when the events are big): nothing to overlap.
        let mut next = files.into_iter().peekable();
        while next.peek().is_some() {
            let read = read_batch(&mut next, batch, batch_bytes)?;
            if !read.events.is_empty() {
                store.append(&read.events).await?;
            }
            remove_delivered(&read.files)?;
            done.delivered += read.events.len();
            done.corrupt += read.corrupt;
        }
        return Ok(done);
    }
    // One batch waits read while another is written: at most three in memory.
    let (batches, read) = std::sync::mpsc::sync_channel::<Result<Batch>>(1);
    let reader = std::thread::spawn(move || {
        let mut next = files.into_iter().peekable();
        while next.peek().is_some() {
            let read = read_batch(&mut next, batch, batch_bytes);
            let failed = read.is_err();
            if batches.send(read).is_err() || failed {
                break;
            }
        }
    });
    let (delivered, to_remove) = std::sync::mpsc::channel::<Vec<PathBuf>>();
    let remover = std::thread::spawn(move || -> Result<()> {
        for files in to_remove {
            remove_delivered(&files)?;
        }
        Ok(())
    });
    let written: Result<()> = async {
        // A blocking receive: the store is idle here, and the reader has this batch ready or
        // nearly (it started on it while the store wrote the last one).
        while let Ok(next) = read.recv() {
            let next = next?;
            done.corrupt += next.corrupt;
            if !next.events.is_empty() {
                store.append(&next.events).await?;
            }
            done.delivered += next.events.len();
            let _ = delivered.send(next.files);
        }
        Ok(())
    }
    .await;
    // Stops the reader at its next batch when the store failed, and lets the remover finish.
    drop(read);
    drop(delivered);
    let panicked = |_| Error::journal(dir)(std::io::Error::other("a journal thread panicked"));
    let read_all = reader.join();
    let removed = remover.join();
    written?;
    read_all.map_err(panicked)?;
    removed.map_err(panicked)??;
    Ok(done)
}

/// The file name an event is journaled under: its time first, so names sort in delivery order.
fn file_name(event: &HookEvent) -> String {
    let nanos = event.occurred_at.timestamp_nanos_opt().unwrap_or_default().max(0);
    format!("{nanos:020}-{}.json", event.id)
}

fn is_stale(path: &Path) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > STALE_TMP)
}

/// Writes `bytes` to `dir/name` through a temporary file of this write's own, fsynced, then
/// renamed into place (which replaces an earlier copy of the same event atomically).
fn write_durably(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    ensure_private_dir(dir)?;
    let path = dir.join(name);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let written = (|| {
        let mut file = match take_spare(dir, &tmp) {
            Some(file) => file,
            None => private_file(&tmp)?,
        };
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|()| path)
}

fn private_file(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

fn open_lock(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::{DateTime, Utc};
    use memory_core::{EventId, EventKind, Harness, InMemoryStore, SessionKey};

    use super::*;

    /// A tool event of `session`, `i` microseconds after `base`.
    pub(crate) fn event(session: &str, i: usize, base: DateTime<Utc>) -> HookEvent {
        let at = base + chrono::Duration::microseconds(i as i64);
        HookEvent::new(
            EventId::derive("claude", session, at, format!("e{i}").as_bytes()),
            Harness::named("claude"),
            SessionKey::new("claude", session),
            EventKind::PostToolUse,
            at,
            serde_json::json!({ "n": i }),
        )
    }

    #[tokio::test]
    async fn events_of_many_batches_arrive_in_order_and_leave_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::new(dir.path().join("journal"));
        let base = Utc::now();
        let events: Vec<HookEvent> =
            (0..23).map(|i| event(if i % 3 == 0 { "a" } else { "b" }, i, base)).collect();
        for e in &events {
            journal.write(e).unwrap();
        }
        // A file that does not parse, among them: moved aside, the rest delivered around it.
        std::fs::write(journal.dir().join(format!("{:020}-bad.json", 1)), b"{ not an event").unwrap();
        let store = InMemoryStore::new();
        let files = journal.pending().unwrap();
        assert_eq!(files.len(), 24);
        let done = deliver_in_batches(journal.dir(), files, &store, 4, u64::MAX).await.unwrap();
        assert_eq!((done.delivered, done.corrupt), (23, 1));
        assert!(journal.pending().unwrap().is_empty(), "every delivered file removed");
        assert!(journal.dir().join(format!("{:020}-bad.corrupt", 1)).exists());
        let stored = store.events_after(0, 100).await.unwrap();
        let ids: Vec<&EventId> = stored.iter().map(|s| &s.event.id).collect();
        assert_eq!(ids, events.iter().map(|e| &e.id).collect::<Vec<_>>(), "in journal order");
        for session in ["a", "b"] {
            let seqs: Vec<u64> = stored
                .iter()
                .filter(|s| s.event.session.as_str().ends_with(session))
                .map(|s| s.seq)
                .collect();
            assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>(), "gap-free in {session}");
        }

        // Delivered again (a forwarder killed before it removed the files): nothing twice.
        for e in &events[..9] {
            journal.write(e).unwrap();
        }
        let again =
            deliver_in_batches(journal.dir(), journal.pending().unwrap(), &store, 4, 1).await.unwrap();
        assert_eq!(again.delivered, 9);
        assert_eq!(store.events_after(0, 100).await.unwrap().len(), 23);
        assert!(journal.pending().unwrap().is_empty());

        // Fewer events than a batch holds, but more bytes: delivered in several, all of them.
        for e in &events[..3] {
            journal.write(e).unwrap();
        }
        let files = journal.pending().unwrap();
        let again = deliver_in_batches(journal.dir(), files, &store, 100, 1).await.unwrap();
        assert_eq!(again.delivered, 3);
        assert!(journal.pending().unwrap().is_empty());
    }

    fn spares(journal: &Journal) -> Vec<PathBuf> {
        std::fs::read_dir(journal.dir().join(SPARE_DIR))
            .map(|entries| entries.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default()
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn delivered_files_are_emptied_kept_and_taken_by_later_writes() {
        use std::os::unix::fs::MetadataExt as _;

        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::new(dir.path().join("journal"));
        let base = Utc::now();
        let total = SPARE_FILES + 5;
        for i in 0..total {
            journal.write(&event("a", i, base)).unwrap();
        }
        let store = InMemoryStore::new();
        let done = deliver_in_batches(journal.dir(), journal.pending().unwrap(), &store, 50, u64::MAX)
            .await
            .unwrap();
        assert_eq!(done.delivered, total);
        let kept = spares(&journal);
        assert_eq!(kept.len(), SPARE_FILES, "spares up to the limit, the rest removed");
        assert!(kept.iter().all(|p| std::fs::metadata(p).unwrap().len() == 0), "every spare emptied");
        let ids: Vec<String> = (0..total).map(|i| event("a", i, base).id.to_string()).collect();
        assert!(
            kept.iter().all(|p| ids.iter().all(|id| !p.to_string_lossy().contains(id.as_str()))),
            "no spare named after its event"
        );
        assert!(journal.pending().unwrap().is_empty() && journal.is_empty(), "a spare is no event");
        let visible = std::fs::read_dir(journal.dir())
            .unwrap()
            .filter(|e| !e.as_ref().unwrap().file_name().to_string_lossy().starts_with('.'));
        assert_eq!(visible.count(), 0, "nothing else left in the folder");

        // A write takes a spare: the same file, holding exactly the new event.
        let inodes: Vec<u64> = kept.iter().map(|p| std::fs::metadata(p).unwrap().ino()).collect();
        let later = event("b", 0, base);
        let path = journal.write(&later).unwrap();
        assert_eq!(spares(&journal).len(), SPARE_FILES - 1);
        assert!(inodes.contains(&std::fs::metadata(&path).unwrap().ino()), "a spare, not a new file");
        let read: HookEvent = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(read, later);

        // A spare that somehow holds bytes is written over, not appended to.
        for spare in spares(&journal) {
            std::fs::write(spare, vec![b'x'; 64 * 1024]).unwrap();
        }
        let path = journal.write(&event("b", 1, base)).unwrap();
        let read: HookEvent = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(read, event("b", 1, base));
    }

    #[test]
    fn writers_racing_for_spares_each_get_a_file_of_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::new(dir.path().join("journal"));
        let spare_dir = journal.dir().join(SPARE_DIR);
        ensure_private_dir(&spare_dir).unwrap();
        for i in 0..40 {
            std::fs::File::create(spare_dir.join(format!("spare-{i}"))).unwrap();
        }
        let base = Utc::now();
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let journal = journal.clone();
                std::thread::spawn(move || {
                    (0..10).map(|i| journal.write(&event(&format!("s{t}"), i, base)).unwrap()).count()
                })
            })
            .collect();
        let written: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(written, 80);
        let pending = journal.pending().unwrap();
        assert_eq!(pending.len(), 80, "every write its own file");
        for path in &pending {
            serde_json::from_slice::<HookEvent>(&std::fs::read(path).unwrap()).expect("a whole event");
        }
        assert!(spares(&journal).is_empty(), "the 40 spares taken, 40 files created");
    }
}
