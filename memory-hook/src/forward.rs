//! Forward mode: with a server store, hooks write each event to the local journal and return; a
//! forwarder delivers the journal to the server, in order and in batches, off the hooks' path.
//!
//! - A hook journals its event (one fsynced file, as when a server misses the deadline), then
//!   tries the forwarder's lock; when nobody holds it, it takes it and hands it to a forwarder it
//!   starts detached ([`crate::Process::start_forwarder`]; the binary runs `agent-memory sync
//!   --background` with the lock as its stdin). A hook never opens a connection to the server.
//! - The forwarder ([`run`]) delivers what the journals hold, oldest first, a batch per store call
//!   (the store writes a batch in one transaction), through the journal's own delivery lock, so it
//!   and `agent-memory sync` never deliver at once. A batch re-sent after the forwarder was killed
//!   between the server's commit and the removal of the files is idempotent: the store skips ids
//!   it holds. Per-session seqs, the chain and the store-wide positions are the store's, as for
//!   any append.
//! - While the server cannot be reached it backs off (from [`Limits::first_backoff`], doubling up
//!   to [`Limits::max_backoff`], opening a new connection each time), for at most
//!   [`Limits::max_failing`]; then it ends, and the next hook starts another (as it does after
//!   [`Limits::max_run`] in any case). With the journal empty
//!   it waits [`Limits::linger`] for more events (a session fires them in bursts) before it ends.
//!   It releases the lock and then looks once more, so an event journaled while it was ending is
//!   never left waiting for the next hook. Once it has caught up it lets new events gather until
//!   the hooks have been quiet for 100 ms (for 1 s at most) before it delivers them: a
//!   burst costs one transaction, delivered once the burst is over, instead of one every few
//!   moments while the hooks still run.
//! - After its first delivery it refreshes the local copy of the notes ([`crate::replica`]) when
//!   that is missing or older than five minutes (the dream, `sync` and the commands that write
//!   notes refresh it themselves).
//!
//! Layout of `<data_dir>/forward/` ([`Config::forward_dir`]): `lock` (held by the running
//! forwarder, an OS lock a killed one releases), `last.json` (its last run); every run also
//! writes one line to `<data_dir>/logs/forward.log`. [`status`] reads all of it, and the journals,
//! for `doctor` and any viewer.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use memory_core::MemoryStore;
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::env::Env;
use crate::error::{Error, Result};
use crate::journal::{DrainMode, Journal};
use crate::lock::ProcessLock;
use crate::paths::{self, ensure_private_dir};
use crate::runtime::OpenStore;

/// The forwarder's log, in the log folder.
pub const LOG_FILE: &str = "forward.log";
/// The single-flight lock, in the forward folder.
const LOCK_FILE: &str = "lock";
/// The last run, in the forward folder.
const LAST_FILE: &str = "last.json";
/// How often a lingering forwarder looks for new events.
const POLL: Duration = Duration::from_millis(25);
/// A forwarder that has caught up delivers new events once no other has arrived for this long:
/// the hooks of a burst (a prompt, the tool calls of a turn) come milliseconds apart, the next
/// burst seconds later.
const QUIET: Duration = Duration::from_millis(100);
/// ... or once it has gathered this long, when hooks never pause. A transaction costs
/// a server far more than the events in it (docs/benchmarks.md: several milliseconds of a young
/// server's CPU for a small one, against tens of microseconds an event), and on one machine that
/// CPU is taken from the hooks; so while hooks run, the forwarder delivers seldom.
const GATHER_MAX: Duration = Duration::from_secs(1);
/// A forwarder leaves the local copy of the notes alone when it was refreshed less than this long
/// ago: a refresh reads every note of the server, and what changes notes (the dream, `sync`,
/// commands that write notes) refreshes it itself.
const REFRESH_AFTER: Duration = Duration::from_secs(300);
/// The file whose time says when the copy was last refreshed, in the forward folder.
const REFRESHED_FILE: &str = "refreshed";
/// With this many events waiting there is nothing to gather.
const FULL: usize = 1_000;

/// How long a forwarder runs and waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest run: a forwarder ends then, and the next hook starts another.
    pub max_run: Duration,
    /// The longest time a forwarder keeps failing in a row before it ends and leaves the rest to
    /// the next one.
    pub max_failing: Duration,
    /// How long it waits for new events once the journal is empty.
    pub linger: Duration,
    /// The first wait after a failed delivery.
    pub first_backoff: Duration,
    /// The longest wait between two attempts.
    pub max_backoff: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_run: Duration::from_secs(3600),
            max_failing: Duration::from_secs(600),
            linger: Duration::from_secs(2),
            first_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(5),
        }
    }
}

/// Who holds the forwarder's lock, as it wrote in the lock file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Holder {
    /// Its process id.
    pub pid: Option<u32>,
    /// When it took the lock.
    pub since: Option<DateTime<Utc>>,
}

/// The forwarder's lock, taken by the hook that starts one ([`crate::Process::start_forwarder`]).
#[derive(Debug)]
pub struct ForwardClaim {
    lock: ProcessLock,
}

impl ForwardClaim {
    fn path(config: &Config) -> PathBuf {
        config.forward_dir().join(LOCK_FILE)
    }

    /// Takes the lock unless a forwarder runs (`None`).
    pub fn take(config: &Config) -> Result<Option<Self>> {
        let Some(lock) = ProcessLock::try_acquire(&Self::path(config))? else { return Ok(None) };
        lock.record(&Holder { pid: Some(std::process::id()), since: Some(Utc::now()) })?;
        Ok(Some(Self { lock }))
    }

    /// The lock a hook handed to this process as `file` (the binary passes it as the forwarder's
    /// stdin), when `file` is the lock file and holds the lock.
    pub fn adopt(file: std::fs::File, config: &Config) -> Option<Self> {
        let lock = ProcessLock::adopt(file, &Self::path(config))?;
        // Whoever runs now is this process.
        let _ = lock.record(&Holder { pid: Some(std::process::id()), since: Some(Utc::now()) });
        Some(Self { lock })
    }

    /// Who runs the forwarder, when one runs.
    pub fn holder(config: &Config) -> Option<Holder> {
        ProcessLock::holder(&Self::path(config))
    }

    /// The held lock as a child's stdin: the child holds it from its first instruction, and
    /// [`ForwardClaim::adopt`]s it.
    pub fn into_stdio(self) -> std::process::Stdio {
        std::process::Stdio::from(self.lock.into_file())
    }
}

/// The journals events wait in: the data folder's, then the fallback folder's (hooks journal
/// there when the data folder cannot be written).
pub fn journals(config: &Config, env: &Env) -> Vec<Journal> {
    let fallback = Journal::new(paths::fallback_data_dir(env).join("journal"));
    let mut journals = vec![Journal::new(config.journal_dir())];
    if fallback.dir() != journals[0].dir() {
        journals.push(fallback);
    }
    journals
}

/// What one delivery pass over the journals did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Delivered {
    /// Events delivered (redeliveries included).
    pub delivered: usize,
    /// Events still waiting after the pass (written meanwhile, or in a journal that failed).
    pub remaining: usize,
    /// Unreadable files moved aside as `*.corrupt`.
    pub corrupt: usize,
}

/// Delivers every journal, oldest event first, waiting for any other delivery to finish.
pub async fn deliver(journals: &[Journal], store: &dyn MemoryStore) -> Result<Delivered> {
    let mut done = Delivered::default();
    for journal in journals {
        let drained = journal.drain(store, DrainMode::All).await?;
        done.delivered += drained.delivered;
        done.corrupt += drained.corrupt;
    }
    done.remaining = waiting(journals);
    if done.delivered > 0 {
        // The server's list of the machines that write to it (`doctor`); a store that keeps none
        // is fine.
        let _ = store.note_machine(&crate::dream_lease::machine_name(), Utc::now()).await;
    }
    Ok(done)
}

/// Events waiting in `journals`, large ones included.
pub fn waiting(journals: &[Journal]) -> usize {
    journals.iter().map(|j| j.pending().map(|p| p.len()).unwrap_or(0)).sum()
}

fn any_waiting(journals: &[Journal]) -> bool {
    journals.iter().any(|j| !j.is_empty() || j.set_aside().is_ok_and(|p| !p.is_empty()))
}

/// How a forwarder run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Everything journaled was delivered.
    Ok,
    /// The server could not be reached (or refused the events) until the run's time limit.
    Failed,
}

/// One forwarder run, as `doctor` reports the last one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForwardRun {
    /// When it started.
    pub started_at: DateTime<Utc>,
    /// When it ended.
    pub ended_at: DateTime<Utc>,
    /// How it ended.
    pub outcome: RunOutcome,
    /// Events delivered.
    pub delivered: u64,
    /// Delivery attempts that failed.
    pub failures: u64,
    /// The last failure (redacted, one line), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Notes written to the local copy, when it was refreshed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes_refreshed: Option<u64>,
}

impl ForwardRun {
    /// The log line's words, without the time stamp.
    pub fn log_line(&self) -> String {
        let outcome = match self.outcome {
            RunOutcome::Ok => "ok",
            RunOutcome::Failed => "failed",
        };
        let ms = (self.ended_at - self.started_at).num_milliseconds();
        let mut line =
            format!("forward {outcome} delivered:{} failures:{} {ms}ms", self.delivered, self.failures);
        if let Some(notes) = self.notes_refreshed {
            line.push_str(&format!(" notes-refreshed:{notes}"));
        }
        if let Some(error) = &self.error {
            line.push_str(&format!("; last error: {error}"));
        }
        line
    }

    /// Records the run: one line in `<data_dir>/logs/forward.log`, and `last.json`.
    pub fn record(&self, config: &Config) -> Result<()> {
        let line = self.log_line();
        crate::log::record_run((&config.log_dir(), LOG_FILE), &line, (&config.forward_dir(), LAST_FILE), self)
    }

    /// The last recorded run, if any.
    pub fn last(config: &Config) -> Option<Self> {
        crate::log::last_run(&config.forward_dir(), LAST_FILE)
    }
}

/// The backlog and the forwarder's state, for `doctor` and viewers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForwardStatus {
    /// Whether hooks forward ([`Config::forwards`]).
    pub forwarding: bool,
    /// Events waiting for delivery, in every journal.
    pub backlog: usize,
    /// When the oldest of them was received.
    pub oldest_at: Option<DateTime<Utc>>,
    /// How long the oldest has waited (the delivery lag), in milliseconds.
    pub lag_ms: Option<u64>,
    /// The running forwarder, if one runs.
    pub running: Option<Holder>,
    /// The last run that ended.
    pub last: Option<ForwardRun>,
}

/// The backlog (every journal), the lag of its oldest event and the forwarder's state.
pub fn status(config: &Config, env: &Env) -> ForwardStatus {
    let journals = journals(config, env);
    let mut backlog = 0;
    let mut oldest_at: Option<DateTime<Utc>> = None;
    for journal in &journals {
        let pending = journal.pending().unwrap_or_default();
        backlog += pending.len();
        for at in pending.iter().filter_map(|p| received_at(p)) {
            oldest_at = Some(oldest_at.map_or(at, |o| o.min(at)));
        }
    }
    let lag_ms = oldest_at.map(|at| u64::try_from((Utc::now() - at).num_milliseconds()).unwrap_or(0));
    ForwardStatus {
        forwarding: config.forwards(),
        backlog,
        oldest_at,
        lag_ms,
        running: ForwardClaim::holder(config),
        last: ForwardRun::last(config),
    }
}

/// When a journaled event was received, from its file name (`<nanos>-<id>.json`).
fn received_at(path: &Path) -> Option<DateTime<Utc>> {
    let name = path.file_name()?.to_str()?;
    let nanos: i64 = name.split('-').next()?.parse().ok()?;
    Some(DateTime::from_timestamp_nanos(nanos))
}

/// Opens the local copy of the notes and brings it level with `store`; the notes written.
///
/// Every project's notes in `store` are filed in the folder of its current name first
/// ([`crate::project::Catalog::load_settled`]), so a rename reaches the copy with the refresh
/// that follows it, and a copy a hook refiled after a rename keeps its paths.
pub async fn refresh_replica(
    config: &Config,
    stores: &dyn OpenStore,
    store: &dyn MemoryStore,
) -> Result<u64> {
    let Some(copy) = stores.open_replica(config, true).await? else { return Ok(0) };
    crate::project::Catalog::load_settled(&crate::project::Registry::new(&config.data_dir()), store).await?;
    let refreshed = crate::replica::refresh(store, &*copy, memory_embed::MODEL_NAME).await?;
    drop(copy);
    if refreshed.written + refreshed.deleted > 0 {
        stores.tidy_replica(config).await?;
    }
    let dir = config.forward_dir();
    if ensure_private_dir(&dir).is_ok() {
        let _ = std::fs::write(dir.join(REFRESHED_FILE), Utc::now().to_rfc3339());
    }
    Ok((refreshed.written + refreshed.deleted + refreshed.embedded) as u64)
}

/// [`refresh_replica`] after a forget (`plan`, applied): every note the forget deleted or changed
/// leaves the copy with its history and embeddings, purged as the store purges (no copy in free
/// pages or the write-ahead log), and the copy is then brought level with `store`, which writes
/// back the notes that stay as they are now.
pub async fn purge_replica(
    config: &Config,
    stores: &dyn OpenStore,
    store: &dyn MemoryStore,
    plan: &crate::forget::Plan,
) -> Result<()> {
    if !config.forwards() {
        return Ok(());
    }
    if let Some(copy) = stores.open_replica(config, false).await? {
        let notes = plan.notes_touched();
        copy.forget(&memory_core::ForgetSet { notes, ..Default::default() }).await?;
    }
    refresh_replica(config, stores, store).await?;
    Ok(())
}

/// Whether the local copy is missing or older than [`REFRESH_AFTER`].
fn copy_is_stale(config: &Config) -> bool {
    !config.replica_path().exists()
        || std::fs::metadata(config.forward_dir().join(REFRESHED_FILE))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_none_or(|age| age >= REFRESH_AFTER)
}

/// Runs the forwarder holding `claim` (see the module doc); records and returns the run.
pub async fn run(
    config: &Config,
    env: &Env,
    stores: &dyn OpenStore,
    claim: ForwardClaim,
    limits: Limits,
) -> ForwardRun {
    let started = Instant::now();
    let started_at = Utc::now();
    let journals = journals(config, env);
    let redactor = config.redactor();
    let mut claim = Some(claim);
    let mut store: Option<Arc<dyn MemoryStore>> = None;
    let (mut delivered, mut failures) = (0u64, 0u64);
    let mut error: Option<String> = None;
    let mut notes_refreshed = None;
    let mut backoff = limits.first_backoff;
    let mut outcome = RunOutcome::Ok;
    let mut failing_since: Option<Instant> = None;
    // Whether the last pass found less than a full batch: the next events are worth gathering.
    let mut caught_up = true;
    loop {
        if !any_waiting(&journals) {
            if notes_refreshed.is_none()
                && let Some(store) = &store
                && copy_is_stale(config)
            {
                match refresh_replica(config, stores, &**store).await {
                    Ok(n) => notes_refreshed = Some(n),
                    Err(e) => error = Some(redactor.redact_message(&format!("refreshing the notes: {e}"))),
                }
            }
            if linger(&journals, limits.linger).await {
                continue;
            }
            // Released before the last look: a hook that journals from here on finds the lock
            // free and starts a forwarder, and an event journaled before is seen below.
            drop(claim.take());
            if any_waiting(&journals)
                && let Ok(Some(again)) = ForwardClaim::take(config)
            {
                claim = Some(again);
                continue;
            }
            break;
        }
        if failing_since.is_some_and(|since| since.elapsed() >= limits.max_failing) {
            outcome = RunOutcome::Failed;
            break;
        }
        if started.elapsed() >= limits.max_run {
            break;
        }
        if caught_up {
            gather(&journals).await;
        }
        let attempt = attempt(config, stores, &mut store, &journals);
        match attempt.await {
            Ok(done) => {
                caught_up = done.delivered < FULL;
                delivered += done.delivered as u64;
                backoff = limits.first_backoff;
                failing_since = None;
            }
            Err(e) => {
                failures += 1;
                error = Some(redactor.redact_message(&e.to_string()));
                failing_since.get_or_insert_with(Instant::now);
                // A new connection next time: the old one may be what failed.
                store = None;
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(limits.max_backoff);
            }
        }
    }
    let run = ForwardRun {
        started_at,
        ended_at: Utc::now(),
        outcome,
        delivered,
        failures,
        error: if outcome == RunOutcome::Ok && failures == 0 { None } else { error },
        notes_refreshed,
    };
    let _ = run.record(config);
    run
}

/// Waits until no new event has arrived in `journals` for [`QUIET`], [`GATHER_MAX`] at most, or
/// until a full batch waits.
async fn gather(journals: &[Journal]) {
    use tokio::time::Instant;
    let started = Instant::now();
    let (mut seen, mut quiet_since) = (waiting(journals), started);
    while started.elapsed() < GATHER_MAX && quiet_since.elapsed() < QUIET && seen < FULL {
        tokio::time::sleep(POLL).await;
        let now = waiting(journals);
        if now != seen {
            (seen, quiet_since) = (now, Instant::now());
        }
    }
}

/// Waits up to `limit` for an event to arrive in `journals`; whether one did.
async fn linger(journals: &[Journal], limit: Duration) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        tokio::time::sleep(POLL).await;
        if any_waiting(journals) {
            return true;
        }
    }
    false
}

/// One delivery: the store opened once (`store` keeps it for the next attempt; a failed open
/// leaves it empty, so the next attempt connects again), then the journals delivered to it.
async fn attempt(
    config: &Config,
    stores: &dyn OpenStore,
    store: &mut Option<Arc<dyn MemoryStore>>,
    journals: &[Journal],
) -> Result<Delivered> {
    let open = match store {
        Some(open) => Arc::clone(open),
        None => stores.open(config).await?,
    };
    *store = Some(Arc::clone(&open));
    deliver(journals, &*open).await
}

/// Delivers every journal until none holds anything (events journaled meanwhile included),
/// retrying while the store fails, for at most `timeout`: `agent-memory sync --wait`. Refreshes
/// the local copy of the notes when hooks forward. An error when `timeout` passed first.
pub async fn wait(
    config: &Config,
    env: &Env,
    stores: &dyn OpenStore,
    timeout: Duration,
) -> Result<Delivered> {
    let started = Instant::now();
    let journals = journals(config, env);
    let limits = Limits::default();
    let mut backoff = limits.first_backoff;
    let mut total = Delivered::default();
    let mut store: Option<Arc<dyn MemoryStore>> = None;
    let mut last_error: Option<Error> = None;
    loop {
        // Done once nothing waits; in forward mode, once the store was reached too, so the copy
        // of the notes is refreshed below.
        if !any_waiting(&journals) && (store.is_some() || !config.forwards()) {
            break;
        }
        if started.elapsed() >= timeout {
            let waiting = waiting(&journals);
            return Err(Error::Timeout {
                waited: timeout,
                waiting,
                cause: last_error.map(|e| e.to_string()).unwrap_or_else(|| "no delivery finished".to_owned()),
            });
        }
        let attempt = attempt(config, stores, &mut store, &journals);
        let left = timeout.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, attempt).await {
            Ok(Ok(done)) => {
                total.delivered += done.delivered;
                total.corrupt += done.corrupt;
                backoff = limits.first_backoff;
            }
            Ok(Err(e)) => {
                last_error = Some(e);
                store = None;
                tokio::time::sleep(backoff.min(timeout.saturating_sub(started.elapsed()))).await;
                backoff = (backoff * 2).min(limits.max_backoff);
            }
            Err(_) => store = None,
        }
    }
    if config.forwards()
        && let Some(store) = &store
    {
        refresh_replica(config, stores, &**store).await?;
    }
    total.remaining = waiting(&journals);
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::tests::event;

    #[test]
    fn a_journal_file_name_gives_when_its_event_was_received() {
        let at = received_at(Path::new("/j/00000001764600000123456789-abc-def.json")).unwrap();
        assert_eq!(at.timestamp_nanos_opt(), Some(1_764_600_000_123_456_789));
        assert_eq!(received_at(Path::new("/j/.tmp")), None);
    }

    #[test]
    fn the_lock_is_single_flight_and_says_who_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config { data_dir: Some(dir.path().to_path_buf()), ..Config::default() };
        assert_eq!(ForwardClaim::holder(&config), None);
        let claim = ForwardClaim::take(&config).unwrap().expect("free");
        assert_eq!(ForwardClaim::holder(&config).and_then(|h| h.pid), Some(std::process::id()));
        assert!(ForwardClaim::take(&config).unwrap().is_none(), "one forwarder at a time");
        drop(claim);
        assert_eq!(ForwardClaim::holder(&config), None, "released with its file");
    }

    /// How long (in the test's clock) [`gather`] waits while `arrivals` events are journaled, one
    /// every `every`, starting with `waiting` events already there.
    async fn gathered_for(waiting: usize, arrivals: usize, every: Duration) -> Duration {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::new(dir.path().join("journal"));
        for i in 0..waiting {
            journal.write(&event("s", i, Utc::now())).unwrap();
        }
        let writer = {
            let journal = journal.clone();
            tokio::spawn(async move {
                for i in 0..arrivals {
                    tokio::time::sleep(every).await;
                    journal.write(&event("s", waiting + i, Utc::now())).unwrap();
                }
            })
        };
        let started = tokio::time::Instant::now();
        gather(std::slice::from_ref(&journal)).await;
        let waited = started.elapsed();
        writer.abort();
        waited
    }

    #[tokio::test(start_paused = true)]
    async fn gathering_ends_once_the_hooks_are_quiet_or_after_its_longest_wait() {
        let waited = gathered_for(1, 0, Duration::ZERO).await;
        assert!((QUIET..QUIET + POLL).contains(&waited), "nothing more arrives: {waited:?}");
        // Hooks 50 ms apart for 300 ms: delivered once they have been quiet for a while (seen at the
        // next look after the last one).
        let last = Duration::from_millis(300);
        let waited = gathered_for(1, 6, Duration::from_millis(50)).await;
        assert!((last + QUIET..=last + POLL + QUIET).contains(&waited), "a burst: {waited:?}");
        // Hooks that never pause: delivered after the longest wait.
        let waited = gathered_for(1, 1_000, Duration::from_millis(30)).await;
        assert!((GATHER_MAX..GATHER_MAX + POLL).contains(&waited), "a steady stream: {waited:?}");
        // A full batch is not held back.
        assert_eq!(gathered_for(FULL, 0, Duration::ZERO).await, Duration::ZERO);
    }
}
