//! The dream that runs by itself: when a hook starts it, and the files hooks and the dream share.
//!
//! After a session ends, or once [`DreamConfig::auto_after_events`] new events wait, a hook starts
//! the dream in the background through [`crate::Process::start_dream`], at most one at a time. The
//! hook's side costs one appended byte per event and, only when a trigger fires, one file lock;
//! it never queries the store.
//!
//! Layout of `<data_dir>/dream/` ([`crate::Config::dream_dir`]):
//! - `waiting`: one byte per event hooks accepted since the last dream started ([`Tally`]). The
//!   dream removes it when it starts, so events that arrive during a run count for the next one.
//! - `lock`: held by the running dream ([`DreamLock`], an OS file lock, so a dream killed in any
//!   way releases it with its process); it names the holder for `doctor` and for a dream typed by
//!   hand, which waits for it.
//! - `last.json`: the last run ([`DreamRun`]); every run also writes one line to
//!   `<data_dir>/logs/dream.log`.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use memory_core::EventKind;
use serde::{Deserialize, Serialize};

use crate::config::{Config, DreamConfig};
use crate::error::{Error, Result};
use crate::lock::ProcessLock;
use crate::paths::ensure_private_dir;

/// The count of events waiting, in the dream folder.
const WAITING_FILE: &str = "waiting";
/// The single-flight lock, in the dream folder.
const LOCK_FILE: &str = "lock";
/// The last run, in the dream folder.
const LAST_FILE: &str = "last.json";
/// The dream's log, in the log folder.
pub const LOG_FILE: &str = "dream.log";

/// Why a hook starts the dream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// A session ended (the harness's `SessionEnd`) with events waiting.
    SessionEnd,
    /// [`DreamConfig::auto_after_events`] events wait.
    Backlog,
}

impl Trigger {
    /// Its name in logs and on the dream's command line: `session-end`, `backlog`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SessionEnd => "session-end",
            Self::Backlog => "backlog",
        }
    }

    /// Parses [`Trigger::as_str`].
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::SessionEnd, Self::Backlog].into_iter().find(|t| t.as_str() == name)
    }
}

impl std::fmt::Display for Trigger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a hook that just accepted an event of `kind`, with `waiting` events now waiting for
/// the dream (that one included), starts it: at a session's end when anything waits, or once the
/// backlog reaches [`DreamConfig::auto_after_events`]. Never when automatic dreams are off, or
/// when the provider is an LLM without a spending cap.
///
/// Every harness agent-memory serves sends a session end (`SessionEnd`, Cursor's `sessionEnd`);
/// `Stop` ends a turn, not a session, so it counts only towards the backlog.
pub fn decide(config: &DreamConfig, kind: &EventKind, waiting: u64) -> Option<Trigger> {
    if !config.auto || !config.auto_allowed() || waiting == 0 {
        return None;
    }
    if *kind == EventKind::SessionEnd {
        return Some(Trigger::SessionEnd);
    }
    (waiting >= config.auto_after_events.max(1)).then_some(Trigger::Backlog)
}

/// How many events hooks accepted since the last dream started: the length of a file that every
/// hook appends one byte to (an append of one byte is atomic, so concurrent hooks lose no count).
#[derive(Debug, Clone)]
pub struct Tally {
    path: PathBuf,
}

impl Tally {
    /// The tally in a dream folder ([`Config::dream_dir`]).
    pub fn new(dream_dir: &Path) -> Self {
        Self { path: dream_dir.join(WAITING_FILE) }
    }

    /// Counts one more event; returns the count, that event included.
    pub fn add(&self) -> Result<u64> {
        let open = || {
            let mut options = OpenOptions::new();
            options.append(true).create(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options.open(&self.path)
        };
        let mut file = match open() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(dir) = self.path.parent() {
                    ensure_private_dir(dir).map_err(Error::io(dir))?;
                }
                open()
            }
            opened => opened,
        }
        .map_err(Error::io(&self.path))?;
        file.write_all(b".").map_err(Error::io(&self.path))?;
        Ok(file.metadata().map_err(Error::io(&self.path))?.len())
    }

    /// The count now (0 when nothing was counted).
    pub fn count(&self) -> u64 {
        std::fs::metadata(&self.path).map_or(0, |m| m.len())
    }

    /// Starts a new count, as a dream does when it starts; returns the count it ends.
    pub fn take(&self) -> u64 {
        let count = self.count();
        let _ = std::fs::remove_file(&self.path);
        count
    }
}

/// Who holds the dream lock, as it wrote in the lock file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Holder {
    /// Its process id.
    pub pid: Option<u32>,
    /// When it took the lock.
    pub since: Option<DateTime<Utc>>,
    /// What started it: a [`Trigger`]'s name, or `manual`.
    pub trigger: Option<String>,
}

/// The dream's single-flight lock: a [`ProcessLock`] on `<data_dir>/dream/lock`, so a killed
/// dream never blocks the next one.
#[derive(Debug)]
pub struct DreamLock {
    lock: ProcessLock,
}

impl DreamLock {
    fn path(dream_dir: &Path) -> PathBuf {
        dream_dir.join(LOCK_FILE)
    }

    /// Takes the lock unless another process holds it (`None`).
    pub fn try_acquire(dream_dir: &Path) -> Result<Option<Self>> {
        Ok(ProcessLock::try_acquire(&Self::path(dream_dir))?.map(|lock| Self { lock }))
    }

    /// Takes the lock, waiting for its holder to release it.
    pub fn acquire(dream_dir: &Path) -> Result<Self> {
        Ok(Self { lock: ProcessLock::acquire(&Self::path(dream_dir))? })
    }

    /// The lock a hook handed to this process as `file` (the binary passes it as the dream's
    /// stdin), when `file` is this folder's lock file and holds the lock.
    pub fn adopt(file: File, dream_dir: &Path) -> Option<Self> {
        ProcessLock::adopt(file, &Self::path(dream_dir)).map(|lock| Self { lock })
    }

    /// Writes who holds the lock into its file.
    pub fn record(&self, holder: &Holder) -> Result<()> {
        self.lock.record(holder)
    }

    /// Who holds the lock, when a process does.
    pub fn holder(dream_dir: &Path) -> Option<Holder> {
        ProcessLock::holder(&Self::path(dream_dir))
    }

    /// The open file that holds the lock, to hand to another process: the lock lasts as long as
    /// any process keeps it open.
    pub fn into_file(self) -> File {
        self.lock.into_file()
    }
}

/// The dream lock a hook took for the dream it starts ([`crate::Process::start_dream`]).
#[derive(Debug)]
pub struct DreamClaim {
    lock: DreamLock,
    trigger: Trigger,
}

impl DreamClaim {
    /// Takes the lock of `dream_dir` for a dream started by `trigger`, unless a dream runs.
    pub(crate) fn take(dream_dir: &Path, trigger: Trigger) -> Result<Option<Self>> {
        let Some(lock) = DreamLock::try_acquire(dream_dir)? else { return Ok(None) };
        let holder = Holder {
            pid: Some(std::process::id()),
            since: Some(Utc::now()),
            trigger: Some(trigger.as_str().to_owned()),
        };
        lock.record(&holder)?;
        Ok(Some(Self { lock, trigger }))
    }

    /// Why the dream starts.
    pub fn trigger(&self) -> Trigger {
        self.trigger
    }

    /// The held lock.
    pub fn into_lock(self) -> DreamLock {
        self.lock
    }

    /// The held lock as a child's stdin: the child holds it from its first instruction, and
    /// [`DreamLock::adopt`]s it.
    pub fn into_stdio(self) -> std::process::Stdio {
        std::process::Stdio::from(self.lock.into_file())
    }
}

/// How a dream run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Every event waiting was distilled.
    Ok,
    /// It stopped early (a spending cap, the event limit, a provider failure); what it distilled
    /// is kept and the rest waits.
    Stopped,
    /// Some chunks were given up, or the run failed; they are retried next run.
    Failed,
    /// It reached its time limit; what it distilled by then is kept.
    TimedOut,
    /// It did not run (another dream was running, or the provider may not dream by itself).
    Skipped,
}

impl RunOutcome {
    /// Its name in the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Stopped => "stopped",
            Self::Failed => "failed",
            Self::TimedOut => "timed-out",
            Self::Skipped => "skipped",
        }
    }
}

/// One dream run, as `doctor` reports the last one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DreamRun {
    /// When it started.
    pub started_at: DateTime<Utc>,
    /// What started it: a [`Trigger`]'s name, or `manual`.
    pub trigger: String,
    /// The provider.
    pub provider: String,
    /// How it ended.
    pub outcome: RunOutcome,
    /// Why it stopped, failed or was skipped (redacted, one line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Events read past the watermarks.
    pub events_read: u64,
    /// Notes created.
    pub notes_created: u64,
    /// Notes updated.
    pub notes_updated: u64,
    /// Notes deleted.
    pub notes_deleted: u64,
    /// Provider tokens, input and output.
    pub tokens: u64,
    /// Money spent, in US dollars.
    pub cost_usd: f64,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
}

impl DreamRun {
    /// The log line's words, without the time stamp.
    pub fn log_line(&self) -> String {
        let mut line = format!(
            "dream {} {} events:{} notes:+{}~{}-{} tokens:{} cost:${:.4} provider:{} {}ms",
            self.trigger,
            self.outcome.as_str(),
            self.events_read,
            self.notes_created,
            self.notes_updated,
            self.notes_deleted,
            self.tokens,
            self.cost_usd,
            self.provider,
            self.duration_ms,
        );
        if let Some(detail) = &self.detail {
            line.push_str(&format!("; {detail}"));
        }
        line
    }

    /// Records the run: one line in `<data_dir>/logs/dream.log`, and `last.json`.
    pub fn record(&self, config: &Config) -> Result<()> {
        let line = self.log_line();
        crate::log::record_run((&config.log_dir(), LOG_FILE), &line, (&config.dream_dir(), LAST_FILE), self)
    }

    /// The last recorded run, if any.
    pub fn last(config: &Config) -> Option<Self> {
        crate::log::last_run(&config.dream_dir(), LAST_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(toml: &str) -> DreamConfig {
        Config::parse(toml).unwrap().dream
    }

    #[test]
    fn a_session_end_starts_the_dream_when_anything_waits() {
        let dream = config("");
        assert_eq!(decide(&dream, &EventKind::SessionEnd, 1), Some(Trigger::SessionEnd));
        assert_eq!(decide(&dream, &EventKind::SessionEnd, 0), None, "nothing counted, nothing to do");
        assert_eq!(decide(&dream, &EventKind::Stop, 1), None, "a turn's end is not a session's");
        assert_eq!(decide(&dream, &EventKind::SessionStart, 199), None);
    }

    #[test]
    fn a_backlog_starts_the_dream_at_the_configured_count() {
        let dream = config("[dream]\nauto_after_events = 3\n");
        assert_eq!(decide(&dream, &EventKind::PostToolUse, 2), None);
        assert_eq!(decide(&dream, &EventKind::PostToolUse, 3), Some(Trigger::Backlog));
        assert_eq!(decide(&dream, &EventKind::Stop, 40), Some(Trigger::Backlog));
        assert_eq!(decide(&dream, &EventKind::SessionEnd, 40), Some(Trigger::SessionEnd));
        let zero = config("[dream]\nauto_after_events = 0\n");
        assert_eq!(decide(&zero, &EventKind::PostToolUse, 1), Some(Trigger::Backlog), "0 means every event");
    }

    #[test]
    fn no_trigger_when_off_or_when_an_llm_has_no_cap() {
        let off = config("[dream]\nauto = false\n");
        assert_eq!(decide(&off, &EventKind::SessionEnd, 1_000), None);
        let uncapped = config("[dream]\nprovider = \"claude-cli\"\n");
        assert_eq!(decide(&uncapped, &EventKind::SessionEnd, 1_000), None);
        let capped = config("[dream]\nprovider = \"claude-cli\"\nmax_tokens = 50000\n");
        assert_eq!(decide(&capped, &EventKind::SessionEnd, 1), Some(Trigger::SessionEnd));
    }

    #[test]
    fn trigger_names_round_trip() {
        for trigger in [Trigger::SessionEnd, Trigger::Backlog] {
            assert_eq!(Trigger::from_name(trigger.as_str()), Some(trigger));
        }
        assert_eq!(Trigger::from_name("manual"), None);
    }

    #[test]
    fn the_tally_counts_every_add_across_threads_and_restarts_when_taken() {
        let dir = tempfile::tempdir().unwrap();
        let tally = Tally::new(&dir.path().join("dream"));
        assert_eq!(tally.count(), 0);
        assert_eq!(tally.add().unwrap(), 1, "the folder is created on the first add");
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..25 {
                        tally.add().unwrap();
                    }
                });
            }
        });
        assert_eq!(tally.count(), 201);
        assert_eq!(tally.take(), 201);
        assert_eq!(tally.count(), 0);
        assert_eq!(tally.add().unwrap(), 1);
    }

    #[test]
    fn the_lock_is_single_flight_and_passes_with_its_open_file() {
        let dir = tempfile::tempdir().unwrap();
        let dream = dir.path().join("dream");
        assert_eq!(DreamLock::holder(&dream), None, "no lock file yet");
        let claim = DreamClaim::take(&dream, Trigger::SessionEnd).unwrap().expect("the lock is free");
        let holder = DreamLock::holder(&dream).expect("held");
        assert_eq!((holder.pid, holder.trigger.as_deref()), (Some(std::process::id()), Some("session-end")));
        assert!(DreamClaim::take(&dream, Trigger::Backlog).unwrap().is_none(), "one at a time");
        assert!(DreamLock::try_acquire(&dream).unwrap().is_none());

        // The open file carries the lock to whoever adopts it; any other file is refused.
        let adopted = DreamLock::adopt(claim.into_lock().into_file(), &dream).expect("adopted");
        assert!(DreamLock::try_acquire(&dream).unwrap().is_none(), "still held once adopted");
        let stranger = tempfile::tempfile().unwrap();
        assert!(DreamLock::adopt(stranger, &dream).is_none(), "a file other than the lock file");
        let other_open = File::open(DreamLock::path(&dream)).unwrap();
        assert!(DreamLock::adopt(other_open, &dream).is_none(), "the lock file opened anew holds nothing");
        drop(adopted);
        assert_eq!(DreamLock::holder(&dream), None, "released with its last open file");
        assert!(DreamLock::try_acquire(&dream).unwrap().is_some());
    }

    #[test]
    fn a_run_is_logged_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config { data_dir: Some(dir.path().to_path_buf()), ..Config::default() };
        assert_eq!(DreamRun::last(&config), None);
        let run = DreamRun {
            started_at: Utc::now(),
            trigger: Trigger::SessionEnd.as_str().to_owned(),
            provider: "deterministic".to_owned(),
            outcome: RunOutcome::Ok,
            detail: None,
            events_read: 12,
            notes_created: 2,
            notes_updated: 1,
            notes_deleted: 0,
            tokens: 0,
            cost_usd: 0.0,
            duration_ms: 85,
        };
        run.record(&config).unwrap();
        assert_eq!(DreamRun::last(&config), Some(run));
        let log = std::fs::read_to_string(config.log_dir().join(LOG_FILE)).unwrap();
        assert!(log.trim_end().ends_with("dream session-end ok events:12 notes:+2~1-0 tokens:0 cost:$0.0000 provider:deterministic 85ms"), "{log}");
    }
}
