//! One hook run: capture one lifecycle event, inject memory, never stall or break the agent.
//!
//! Order of work: start the watchdog → load the configuration (a broken file falls back to the
//! defaults, with a warning) → read stdin (bounded) → parse with the harness adapter → skip runs
//! the guard or another harness owns → file under the project → redact → (within the deadline)
//! deliver journaled events, append, build the injection → count the event for the dream, and
//! start one when a trigger fires ([`crate::autodream`]) → render the harness's answer.
//!
//! The store work runs on the caller's thread; the watchdog ([`crate::watchdog`]) answers for it
//! when the deadline passes. Bad input gets one line on stderr and a non-blocking exit code; a
//! panic is caught and answered with the harness's no-op. Nothing here ends or starts a process:
//! what needs the process (writing a late answer and exiting, handing a payload off, starting the
//! dream) is the [`Process`] the caller supplies, so the whole runtime also runs in-process, in
//! tests.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use chrono::{DateTime, Utc};
use memory_core::{
    Delivery, EventId, EventKind, HarnessAdapter, HookEvent, HookResponse, MemoryStore, Rendered,
};
use memory_redact::Redactor;
use sha2::Digest as _;

use crate::autodream::{self, DreamClaim, Tally};
use crate::capture::{self, Off, PauseFile};
use crate::config::Config;
use crate::env::Env;
use crate::forward::ForwardClaim;
use crate::health::StoreHealth;
use crate::inject::{self, Injection};
use crate::journal::{DrainMode, Journal};
use crate::ledger::Ledger;
use crate::left_off;
use crate::project::{self, Project};
use crate::tool_time;
use crate::watchdog::{Shared, Stage};
use crate::{context_file, log, paths};

/// Set in the environment of harness processes agent-memory starts itself (the dream), so their
/// hooks record nothing.
pub const GUARD_VAR: &str = "AGENT_MEMORY_DREAM";

/// Set by [`Process::hand_off`] implementations in the environment of the process that finishes a
/// payload: the delivery time, in nanoseconds since the Unix epoch. Such a run has no deadline,
/// journals its event and answers nothing.
pub const HANDOFF_VAR: &str = "AGENT_MEMORY_HOOK_HANDOFF";

/// How long a warning stays quiet on stderr once given (it stays in every log line).
const WARN_AGAIN_AFTER: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Exit code for input the hook could not use: every supported harness treats it as a
/// non-blocking error.
pub const EXIT_BAD_INPUT: i32 = 1;

/// Opens the store a hook writes to. The binary opens the configured backend; a custom
/// integration opens its own.
#[memory_core::async_trait]
pub trait OpenStore: Send + Sync {
    /// Opens the store for one hook.
    async fn open(&self, config: &Config) -> memory_core::Result<Arc<dyn MemoryStore>>;

    /// Whether the store is a local file whose calls finish without waiting (the embedded SQLite
    /// store in its inline mode): the hook then runs without an async runtime, and a missed
    /// deadline is contention rather than an unreachable server, so the store is never paused.
    fn local(&self, config: &Config) -> bool;

    /// Opens the local copy of a server store's notes that hooks read in forward mode
    /// ([`crate::replica`]; the binary's is the SQLite file [`Config::replica_path`]). `None` when
    /// there is none: with `create`, when this integration keeps none; without, also when it was
    /// never made (the hook then injects nothing, and the forwarder makes it).
    async fn open_replica(
        &self,
        config: &Config,
        create: bool,
    ) -> memory_core::Result<Option<Arc<dyn MemoryStore>>> {
        let _ = (config, create);
        Ok(None)
    }

    /// Opens the team server of `[team]` ([`crate::team`]), which holds only the shared projects'
    /// notes. `None` when this integration reaches none (the default).
    async fn open_team(&self, config: &Config) -> memory_core::Result<Option<Arc<dyn MemoryStore>>> {
        let _ = config;
        Ok(None)
    }

    /// Tidies the local copy after a refresh changed its notes, for the hooks that read it next
    /// (the binary merges its full-text index into one segment). Nothing by default.
    async fn tidy_replica(&self, config: &Config) -> memory_core::Result<()> {
        let _ = config;
        Ok(())
    }
}

/// The process-level parts of a hook, supplied by the caller.
pub trait Process: Send + Sync {
    /// The deadline passed: write `rendered` (stdout, stderr) and end the process with its exit
    /// code. In-process callers record it and return.
    fn answer_late(&self, rendered: &Rendered);

    /// The deadline caught a payload read but not yet redacted: start something that finishes it
    /// without a deadline (the binary starts itself with [`HANDOFF_VAR`] set and the payload on
    /// stdin). Returns `false` when it could not, and the payload is lost.
    fn hand_off(&self, payload: &[u8], received_at: DateTime<Utc>) -> bool;

    /// A session ended, or enough events wait, and no dream runs: start one, off the hook's path
    /// (the hook does not wait for it), holding `claim`, the dream's lock, until it ends. The
    /// binary starts `agent-memory dream --background` detached, in a process group of its own,
    /// with [`GUARD_VAR`] set, the claim's lock file as its stdin
    /// ([`DreamClaim::into_stdio`]) and no other stdio. Returns `false` when it could not; the
    /// lock is released with the claim and a later trigger tries again.
    fn start_dream(&self, claim: DreamClaim) -> bool;

    /// In forward mode, events wait in the journal and no forwarder runs: start one, off the
    /// hook's path, holding `claim` until it ends ([`crate::forward`]). The binary starts
    /// `agent-memory sync --background` detached, as it starts the dream, with the claim's lock file
    /// as its stdin ([`ForwardClaim::into_stdio`]). Returns `false` when it could not (the
    /// default: events then wait for `agent-memory sync`).
    fn start_forwarder(&self, claim: ForwardClaim) -> bool {
        drop(claim);
        false
    }
}

/// Who answered the harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// The run itself: the caller writes [`Outcome::rendered`].
    ByRun,
    /// The watchdog, through [`Process::answer_late`]: the caller writes nothing more.
    ByWatchdog,
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The answer for the harness (already written when the watchdog answered).
    pub rendered: Rendered,
    /// Who answered.
    pub answered: Answered,
    /// The line written to the hook log, without its time stamp.
    pub log: String,
}

/// One hook: an adapter, a store opener, the process parts, and the environment it runs in.
pub struct Hook<'a> {
    adapter: &'a dyn HarnessAdapter,
    stores: &'a dyn OpenStore,
    process: &'a dyn Process,
    env: Env,
    started: Instant,
    /// One per hook: its patterns compile on first use and are kept for every message and event.
    redactor: Redactor,
}

impl std::fmt::Debug for Hook<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hook").field("harness", &self.adapter.harness()).finish_non_exhaustive()
    }
}

/// A run's own failure: a one-line message for stderr, and the log's summary.
struct Failed(String);

/// The configuration a run uses, and the warning to give when it is not the user's.
struct Loaded {
    config: Config,
    warning: Option<String>,
}

impl<'a> Hook<'a> {
    /// A hook for `adapter`, in the process environment, timed from now.
    pub fn new(adapter: &'a dyn HarnessAdapter, stores: &'a dyn OpenStore, process: &'a dyn Process) -> Self {
        Self {
            adapter,
            stores,
            process,
            env: Env::process(),
            started: Instant::now(),
            redactor: Redactor::new(),
        }
    }

    /// Runs in `env` instead of the process environment.
    #[must_use]
    pub fn env(mut self, env: Env) -> Self {
        self.env = env;
        self
    }

    /// Times the deadline from `started` (the process's start) instead of from [`Hook::new`].
    #[must_use]
    pub fn started(mut self, started: Instant) -> Self {
        self.started = started;
        self
    }

    /// Runs the hook on `stdin`.
    pub fn run(&self, stdin: &mut (dyn std::io::Read + Send)) -> Outcome {
        if let Some(received_at) = self.env.get(HANDOFF_VAR).and_then(parse_nanos) {
            return self.finish_handed_off(stdin, received_at);
        }
        let loaded = self.load_config();
        let shared = Shared::new(self.started + loaded.config.hook.deadline());
        std::thread::scope(|scope| {
            // Without a watchdog (the thread could not start) the hook still answers, only without
            // the guarantee of a deadline.
            let _ = std::thread::Builder::new()
                .name("deadline".to_owned())
                .stack_size(256 * 1024)
                .spawn_scoped(scope, || self.watch(&shared, &loaded));
            // Whether the store answered in time (`Some(true)`) or failed transiently; counted only
            // when this run answers, so a run the watchdog already answered for counts once.
            let mut verdict = None;
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.capture(&loaded, &shared, stdin, &mut verdict)
            }));
            let (mut rendered, summary) = match outcome {
                Ok(Ok(done)) => done,
                Ok(Err(Failed(message))) => {
                    let mut rendered = self.adapter.render_noop();
                    rendered.stderr = format!("agent-memory: {message}\n");
                    rendered.exit_code = EXIT_BAD_INPUT;
                    (rendered, format!("error: {message}"))
                }
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".to_owned());
                    let what = self.redactor.redact_message(&what);
                    let mut rendered = self.adapter.render_noop();
                    rendered.stderr =
                        format!("agent-memory: internal error ({what}); the session continues\n");
                    rendered.exit_code = EXIT_BAD_INPUT;
                    (rendered, format!("panic: {what}"))
                }
            };
            if !shared.claim() {
                // The watchdog answered; it logged and counted the miss too.
                return Outcome { rendered, answered: Answered::ByWatchdog, log: summary };
            }
            let health = StoreHealth::new(&loaded.config.data_dir());
            match verdict {
                Some(true) => health.success(),
                Some(false) => health.miss(Utc::now()),
                None => {}
            }
            let summary = self.warn(&loaded.config, &mut rendered, loaded.warning.as_deref(), summary);
            let log = self.log(&loaded.config, &summary);
            Outcome { rendered, answered: Answered::ByRun, log }
        })
    }

    fn load_config(&self) -> Loaded {
        match Config::load_from(&self.env) {
            Ok(config) => {
                // The redactor was built before the configuration was read; it gets its rules now,
                // before any event is redacted.
                self.redactor.set_rules(config.redact.rules().unwrap_or_default());
                Loaded { config, warning: None }
            }
            Err(e) => Loaded {
                config: Config::fallback(&self.env),
                warning: Some(format!(
                    "{}; this hook ran with the default settings",
                    self.redactor.redact_message(&e.to_string())
                )),
            },
        }
    }

    /// The watchdog thread's body.
    fn watch(&self, shared: &Shared, loaded: &Loaded) {
        let Some(stage) = shared.wait() else { return };
        let (mut rendered, summary) = match stage {
            Stage::Reading => (
                self.adapter.render_noop(),
                "stdin was not closed by the deadline; nothing to record".to_owned(),
            ),
            Stage::Read(payload, received_at) => {
                let outcome = if self.process.hand_off(&payload, received_at) {
                    "handed off (deadline passed before the event was ready)"
                } else {
                    "LOST (deadline passed before the event was ready; the hand-off failed)"
                };
                (self.adapter.render_noop(), outcome.to_owned())
            }
            Stage::Unrecorded(kind) => (
                self.adapter.render(&kind, &HookResponse::pass()),
                format!("{kind} not recorded (capture is off here); the deadline passed"),
            ),
            Stage::Ready(event) => {
                let outcome = self.journal(&loaded.config, &event, "deadline passed");
                if !self.stores.local(&loaded.config) && !loaded.config.forwards() {
                    StoreHealth::new(&loaded.config.data_dir()).miss(Utc::now());
                }
                let mut rendered = self.adapter.render(&event.kind, &HookResponse::pass());
                let summary = format!("{} {}", summary_of(&event), outcome.log);
                let summary = self.warn(&loaded.config, &mut rendered, outcome.warning.as_deref(), summary);
                (rendered, summary)
            }
        };
        let summary = self.warn(&loaded.config, &mut rendered, loaded.warning.as_deref(), summary);
        self.log(&loaded.config, &summary);
        self.process.answer_late(&rendered);
    }

    /// Everything after the configuration loaded.
    fn capture(
        &self,
        loaded: &Loaded,
        shared: &Shared,
        stdin: &mut (dyn std::io::Read + Send),
        verdict: &mut Option<bool>,
    ) -> Result<(Rendered, String), Failed> {
        let config = &loaded.config;
        let input = Arc::new(read_bounded(stdin, config.hook.max_input_bytes)?);
        // One delivery time for the run and a hand-off alike: the event's id derives from it.
        let received_at = Utc::now();
        shared.set_stage(Stage::Read(Arc::clone(&input), received_at));
        let Prepared { event, project, renamed, redacted, off } =
            match self.prepare(config, &input, received_at)? {
                Ok(prepared) => prepared,
                Err(Skipped(why)) => return Ok((self.adapter.render_noop(), why)),
            };
        // Shared with the watchdog, which journals it if the deadline passes first.
        let event = Arc::new(event);
        let kind = event.kind.clone();
        let context_file = kind == EventKind::SessionStart
            && config.hook.cursor_rules_file
            && self.adapter.context_file().is_some();
        let injects = match kind {
            EventKind::SessionStart | EventKind::UserPromptSubmit => {
                self.adapter.support(&kind).context || context_file
            }
            // Tool-time recall: only a command that does more than look around, or an edit, can
            // have a known fix; any other tool call never opens the store for it.
            EventKind::PreToolUse => {
                config.hook.tool_recall
                    && self.adapter.support(&kind).context
                    && tool_time::may_recall(&event)
            }
            _ => false,
        };
        if injects {
            shared.set_deadline(self.started + config.hook.inject_deadline());
        }
        let record = off.is_none();
        shared.set_stage(if record {
            Stage::Ready(Arc::clone(&event))
        } else {
            Stage::Unrecorded(kind.clone())
        });
        let summary = match &off {
            None => format!("{} redacted:{redacted}", summary_of(&event)),
            // Nothing identifies the session in the log of a session that is not recorded.
            Some(off) => format!("{kind} not recorded: {off}"),
        };

        // In forward mode a hook touches local files only: the journal and the copy of the notes.
        let forward = config.forwards();
        let local = forward || self.stores.local(config);
        let health = StoreHealth::new(&config.data_dir());
        if !local
            && record
            && let Some(until) = health.paused(Utc::now())
        {
            let outcome = self.journal(
                config,
                &event,
                &format!("store paused after missed deadlines until {}", until.to_rfc3339()),
            );
            let (rendered, summary) = self.answer_pass(config, &kind, outcome, &summary);
            return Ok((rendered, self.auto_dream(config, &kind, summary)));
        }
        let work = Work {
            config,
            adapter: self.adapter,
            stores: self.stores,
            event: &event,
            project: &project,
            renamed,
            injects,
            context_file,
            record,
            forward,
        };
        // A prompt is embedded on its own thread while the store is opened and searched by words.
        let meaning = match (&kind, event.prompt.as_deref()) {
            (EventKind::UserPromptSubmit, Some(prompt)) if injects => config
                .semantic_model()
                .map(|dir| inject::Meaning::of(dir, prompt, config.retrieval.min_similarity)),
            _ => None,
        };
        let (rendered, summary) = match work.run(local, meaning) {
            Ok((response, outcome)) => {
                if !local {
                    *verdict = Some(true);
                }
                let response =
                    if self.adapter.support(&kind).context { response } else { HookResponse::pass() };
                (self.adapter.render(&kind, &response), format!("{summary} {outcome}").trim_end().to_owned())
            }
            Err(e) => {
                // A store that fails fast (a refused connection) costs the hook nothing; only one
                // that keeps the hook waiting counts towards a pause.
                if !local && e.is_transient() && self.started.elapsed() >= config.hook.deadline() / 2 {
                    *verdict = Some(false);
                }
                let why = format!("store error: {}", self.redactor.redact_message(&e.to_string()));
                if !record {
                    return Ok((
                        self.adapter.render(&kind, &HookResponse::pass()),
                        format!("{summary}; {why}"),
                    ));
                }
                let outcome = self.journal(config, &event, &why);
                self.answer_pass(config, &kind, outcome, &summary)
            }
        };
        if !record {
            return Ok((rendered, summary));
        }
        let summary = if forward { self.start_forwarder(config, summary) } else { summary };
        Ok((rendered, self.auto_dream(config, &kind, summary)))
    }

    /// Starts the forwarder unless one runs (one try of its lock); returns the log summary with
    /// what happened, when anything did.
    fn start_forwarder(&self, config: &Config, summary: String) -> String {
        match ForwardClaim::take(config) {
            Ok(Some(claim)) => {
                let what =
                    if self.process.start_forwarder(claim) { "started" } else { "could not be started" };
                format!("{summary}; forwarder {what}")
            }
            Ok(None) => summary,
            Err(e) => format!("{summary}; forwarder not started: {e}"),
        }
    }

    /// Counts the event for the dream and starts one when a trigger fires and none runs. The count
    /// is one appended byte; the lock is tried only when a trigger fires. Returns the log summary
    /// with what happened, when anything did.
    fn auto_dream(&self, config: &Config, kind: &EventKind, summary: String) -> String {
        if !config.dream.auto {
            return summary;
        }
        let dir = config.dream_dir();
        let Ok(waiting) = Tally::new(&dir).add() else { return summary };
        let Some(trigger) = autodream::decide(&config.dream, kind, waiting) else { return summary };
        let what = match DreamClaim::take(&dir, trigger) {
            Ok(Some(claim)) => {
                if self.process.start_dream(claim) {
                    "started"
                } else {
                    "could not be started"
                }
            }
            Ok(None) => "already running",
            Err(e) => return format!("{summary}; dream not started: {e}"),
        };
        format!("{summary}; dream {what} ({trigger}, {waiting} events waiting)")
    }

    fn answer_pass(
        &self,
        config: &Config,
        kind: &EventKind,
        outcome: Journaled,
        summary: &str,
    ) -> (Rendered, String) {
        let mut rendered = self.adapter.render(kind, &HookResponse::pass());
        let summary = format!("{summary} {}", outcome.log);
        let summary = self.warn(config, &mut rendered, outcome.warning.as_deref(), summary);
        (rendered, summary)
    }

    /// Parses, guards, files and redacts; `None` when the run records nothing.
    fn prepare(
        &self,
        config: &Config,
        input: &[u8],
        received_at: DateTime<Utc>,
    ) -> Result<Result<Prepared, Skipped>, Failed> {
        let delivery = Delivery { payload: input, received_at, env: self.env.pairs() };
        if let Some(other) = self.adapter.invoked_by_other(&delivery) {
            return Ok(Err(Skipped(format!("skipped: run by {other}, recorded by its own hook"))));
        }
        if self.guarded() {
            return Ok(Err(Skipped(format!("skipped: {GUARD_VAR} is set"))));
        }
        let mut event = self
            .adapter
            .parse(&delivery)
            .map_err(|e| Failed(self.redactor.redact_message(&e.to_string())))?;
        let cwd = event.cwd.clone().map(PathBuf::from).or_else(|| std::env::current_dir().ok());
        let (project, renamed) = project::Registry::new(&config.data_dir())
            .identify_noting_rename(cwd.as_deref().unwrap_or(Path::new(".")));
        let off = self.capture_off(config, cwd.as_deref(), &project);
        if let Some(off) = &off {
            let may_inject = matches!(event.kind, EventKind::SessionStart | EventKind::UserPromptSubmit);
            if !(config.capture.inject_when_paused && may_inject) || self.env.get(HANDOFF_VAR).is_some() {
                return Ok(Err(Skipped(format!("{} not recorded: {off}", event.kind))));
            }
        }
        event.project = Some(project.id.clone());
        event.owner = crate::owner::of(config).map(str::to_owned);
        if let Some(tool) = event.tool.as_mut() {
            for file in &mut tool.files {
                file.path = project.relative(&file.path, cwd.as_deref());
            }
        }
        let redacted = self.redactor.redact_event_with(&mut event, &config.hook.limits());
        Ok(Ok(Prepared { event, project, renamed, redacted: redacted.to_string().replace(' ', ","), off }))
    }

    /// Why a session in `cwd` of `project` is not recorded, if it is not: one read of the pause
    /// file, the `[capture] exclude` entries, the project files up to the root.
    fn capture_off(&self, config: &Config, cwd: Option<&Path>, project: &Project) -> Option<Off> {
        // A pause file that cannot be read pauses nothing; `doctor` reports it.
        let state = PauseFile::new(&config.data_dir()).load().unwrap_or_default();
        let home = paths::home(&self.env);
        capture::check(
            &config.capture,
            &state,
            cwd.unwrap_or(&project.root),
            project,
            home.as_deref(),
            Utc::now(),
        )
    }

    fn guarded(&self) -> bool {
        self.env.get(GUARD_VAR).is_some_and(|v| v != "0")
    }

    /// A payload the deadline caught in another process: parse, redact, journal, answer nothing.
    fn finish_handed_off(
        &self,
        stdin: &mut (dyn std::io::Read + Send),
        received_at: DateTime<Utc>,
    ) -> Outcome {
        let loaded = self.load_config();
        let config = &loaded.config;
        let summary = match read_bounded(stdin, config.hook.max_input_bytes)
            .and_then(|input| self.prepare(config, &input, received_at))
        {
            Ok(Ok(Prepared { event, .. })) => format!(
                "{} {}",
                summary_of(&event),
                self.journal(config, &event, "handed off at the deadline").log
            ),
            Ok(Err(Skipped(why))) => why,
            Err(Failed(message)) => format!("error: {message}"),
        };
        let log = self.log(config, &summary);
        Outcome { rendered: Rendered::ok(""), answered: Answered::ByRun, log }
    }

    /// Journals the event, in the fallback folder when the data folder cannot be written.
    fn journal(&self, config: &Config, event: &HookEvent, why: &str) -> Journaled {
        let primary = Journal::new(config.journal_dir());
        let first = match primary.write(event) {
            Ok(_) => return Journaled { log: format!("journaled ({why})"), warning: None },
            Err(e) => e,
        };
        let fallback_dir = paths::fallback_data_dir(&self.env);
        let fallback = Journal::new(fallback_dir.join("journal"));
        match paths::ensure_fallback_dir(&fallback_dir)
            .map_err(|e| e.to_string())
            .and_then(|()| fallback.write(event).map_err(|e| e.to_string()))
        {
            Ok(_) => Journaled {
                log: format!("journaled in {} ({why}; {first})", fallback.dir().display()),
                warning: Some(format!(
                    "cannot write to {} ({first}); the event was journaled in {} instead. Run `agent-memory doctor`.",
                    config.data_dir().display(),
                    fallback.dir().display()
                )),
            },
            Err(second) => Journaled {
                log: format!("LOST ({why}; journal write failed: {first}; fallback failed: {second})"),
                warning: Some(format!("cannot journal the event ({first}; fallback: {second})")),
            },
        }
    }

    /// Adds a warning to the log summary, and to stderr unless the same warning was given in the
    /// last day (a broken config file would otherwise repeat it on every event).
    fn warn(
        &self,
        config: &Config,
        rendered: &mut Rendered,
        warning: Option<&str>,
        summary: String,
    ) -> String {
        let Some(warning) = warning else { return summary };
        let digest = sha2::Sha256::digest(warning.as_bytes());
        let name: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        let dirs = [config.log_dir(), paths::fallback_data_dir(&self.env).join("logs")];
        let marker = |dir: &PathBuf| dir.join(format!(".warned-{name}"));
        let recent = dirs.iter().any(|dir| {
            std::fs::metadata(marker(dir))
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age < WARN_AGAIN_AFTER)
        });
        if !recent {
            rendered.stderr.insert_str(0, &format!("agent-memory: {warning}\n"));
            let _ = dirs.iter().find(|dir| {
                paths::ensure_private_dir(dir).and_then(|()| std::fs::write(marker(dir), warning)).is_ok()
            });
        }
        format!("{summary}; warning: {warning}")
    }

    /// Writes the log line and returns it. Its parts carry no payload text: ids, kinds, counts,
    /// and messages redacted where they were made.
    fn log(&self, config: &Config, summary: &str) -> String {
        let line =
            format!("hook {} {summary} {}us", self.adapter.harness(), self.started.elapsed().as_micros());
        if log::line(&config.log_dir(), &line).is_err() {
            let _ = log::line(&paths::fallback_data_dir(&self.env).join("logs"), &line);
        }
        line
    }
}

/// Why a run records nothing: the log's words.
struct Skipped(String);

/// An event ready to store.
struct Prepared {
    event: HookEvent,
    project: Project,
    /// Whether this event's project file gave its project a new name.
    renamed: bool,
    /// What redaction replaced, by kind, for the log.
    redacted: String,
    /// Why the session is not recorded (it is only given notes), if it is not.
    off: Option<Off>,
}

/// A journal write's outcome: the log's words, and what to tell the user.
struct Journaled {
    log: String,
    warning: Option<String>,
}

fn summary_of(event: &HookEvent) -> String {
    format!("{} {} {}", event.kind, event.session, event.id)
}

fn parse_nanos(text: &str) -> Option<DateTime<Utc>> {
    text.parse::<i64>().ok().map(DateTime::from_timestamp_nanos)
}

fn read_bounded(stdin: &mut (dyn std::io::Read + Send), max: usize) -> Result<Vec<u8>, Failed> {
    let mut input = Vec::new();
    stdin
        .take(max as u64 + 1)
        .read_to_end(&mut input)
        .map_err(|e| Failed(format!("cannot read the hook payload from stdin: {e}")))?;
    if input.len() > max {
        return Err(Failed(format!(
            "hook payload is larger than {max} bytes; raise `hook.max_input_bytes` in the config to accept it"
        )));
    }
    Ok(input)
}

/// The store side of a hook, run on the hook's thread under the deadline.
struct Work<'w> {
    config: &'w Config,
    adapter: &'w dyn HarnessAdapter,
    stores: &'w dyn OpenStore,
    event: &'w HookEvent,
    project: &'w Project,
    /// Whether this event's project file gave its project a new name.
    renamed: bool,
    injects: bool,
    context_file: bool,
    /// Whether the event is stored: `false` for a session that is only given notes.
    record: bool,
    /// Forward mode: events go to the journal, notes come from the local copy.
    forward: bool,
}

impl Work<'_> {
    fn run(
        &self,
        local: bool,
        meaning: Option<inject::Meaning>,
    ) -> memory_core::Result<(HookResponse, String)> {
        let mut work = std::pin::pin!(self.run_async(meaning));
        // A local store finishes in the first poll and needs no runtime. Work that waits (a
        // network store) gets one.
        if local && let Poll::Ready(done) = work.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            return done;
        }
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| memory_core::Error::backend("hook runtime", e, false))?
            .block_on(work)
    }

    /// Delivers what the journal holds, then appends the event (or journals it behind them).
    async fn store_event(&self, store: &dyn MemoryStore) -> memory_core::Result<String> {
        let journal = Journal::new(self.config.journal_dir());
        let drained = journal.drain(store, DrainMode::Hook).await.map_err(into_store_error)?;
        if !drained.empty {
            journal.write(self.event).map_err(into_store_error)?;
            return Ok("journaled (journal busy)".to_owned());
        }
        store.append(std::slice::from_ref(self.event)).await?;
        Ok(if drained.delivered > 0 {
            format!("stored (after delivering {} journaled)", drained.delivered)
        } else {
            "stored".to_owned()
        })
    }

    /// Forward mode, the project just renamed in its project file: its notes in the local copy
    /// move to the folder of the new name at once, as the server's do at the copy's next refresh
    /// (which files them there first). A copy that cannot be changed now is changed then.
    async fn refile_in_copy(&self) {
        if let Ok(Some(copy)) = self.stores.open_replica(self.config, false).await {
            let scope = memory_core::Scope::Project(self.project.id.clone());
            let _ = dream::relocate(&*copy, &scope, &memory_core::project_folder(&self.project.name)).await;
        }
    }

    /// Forward mode: journals an event for the forwarder.
    fn forward_event(&self, event: &HookEvent) -> memory_core::Result<String> {
        journaled(Journal::new(self.config.journal_dir()).write(event))
    }

    async fn run_async(
        &self,
        meaning: Option<inject::Meaning>,
    ) -> memory_core::Result<(HookResponse, String)> {
        // One hook of a session at a time chooses and records what it gives.
        let _turn = if self.injects {
            Ledger::new(&self.config.sessions_dir(), &self.event.session).turn()
        } else {
            None
        };
        if self.forward {
            if self.renamed {
                self.refile_in_copy().await;
            }
            if !self.injects {
                let outcome = if self.record { self.forward_event(self.event)? } else { String::new() };
                return Ok((HookResponse::pass(), outcome));
            }
            // The event's write (an fsync: waiting on the disk) overlaps the search of the local
            // copy (work for the CPU).
            let journaling = self.record.then(|| {
                let (journal, event) = (Journal::new(self.config.journal_dir()), self.event.clone());
                std::thread::Builder::new().spawn(move || journal.write(&event))
            });
            let found = match self.stores.open_replica(self.config, false).await {
                Ok(Some(copy)) => self.injection(&*copy, meaning).await.map(|found| Some((copy, found))),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            };
            // Durable before the hook goes on, and before anything after it is journaled.
            let outcome = match journaling {
                // No thread to be had: written here, after the search.
                Some(Err(_)) => self.forward_event(self.event)?,
                Some(Ok(writing)) => match writing.join() {
                    Ok(written) => journaled(written)?,
                    Err(_) => {
                        return Err(memory_core::Error::backend("journal", "the write panicked", false));
                    }
                },
                None => String::new(),
            };
            let Some((copy, injection)) = found? else {
                let outcome = if outcome.is_empty() { "no local copy of the notes yet" } else { &outcome };
                return Ok((HookResponse::pass(), outcome.to_owned()));
            };
            return self.give(&*copy, injection, outcome).await;
        }
        let store = self.stores.open(self.config).await?;
        let mut outcome = if self.record { self.store_event(&*store).await? } else { String::new() };
        if !self.injects {
            return Ok((HookResponse::pass(), outcome));
        }
        if matches!(self.event.kind, EventKind::SessionStart | EventKind::UserPromptSubmit) {
            // The notes the repository shares, read in when a file changed since the last look (a
            // stat per file otherwise); a folder that cannot be read costs the injection nothing.
            if let Ok(Some(read)) = crate::share::bring_in(self.config, &*store, self.project).await
                && read.looked
            {
                let mut said = format!(
                    "shared notes: {} new, {} changed, {} deleted",
                    read.created.len(),
                    read.updated.len(),
                    read.deleted.len()
                );
                if read.pending > 0 {
                    said.push_str(&format!(", {} left for the next hook", read.pending));
                }
                let read = said;
                outcome = if outcome.is_empty() { read } else { format!("{outcome}; {read}") };
            }
        }
        self.inject(&*store, outcome, meaning).await
    }

    /// Builds the injection from `store`'s notes, and records the `Injection` event.
    async fn inject(
        &self,
        store: &dyn MemoryStore,
        outcome: String,
        meaning: Option<inject::Meaning>,
    ) -> memory_core::Result<(HookResponse, String)> {
        let injection = self.injection(store, meaning).await?;
        self.give(store, injection, outcome).await
    }

    /// What `store`'s notes give this event, if anything.
    async fn injection(
        &self,
        store: &dyn MemoryStore,
        meaning: Option<inject::Meaning>,
    ) -> memory_core::Result<Option<Injection>> {
        let ledger = Ledger::new(&self.config.sessions_dir(), &self.event.session);
        let hook = &self.config.hook;
        let cap = self.adapter.context_cap();
        let injection = match &self.event.kind {
            EventKind::SessionStart => {
                // A resumed session replays its earlier context, so what was injected is still
                // there: once it had a start block, it is given none again. After a compaction or
                // a clear it is gone and everything is due again.
                let already = if self.adapter.start_keeps_context(self.event) {
                    if ledger.started() {
                        return Ok(None);
                    }
                    ledger.given()
                } else if ledger.started() {
                    let _ = ledger.reset();
                    Default::default()
                } else {
                    // The session's first start: what a prompt of it already got (a harness may
                    // run that hook first) is not given again.
                    ledger.given()
                };
                let budget = hook.session_start_budget.min(cap);
                // Where the last session here left off: a fresh start's alone, and never worth the
                // notes (a failure to read it costs them nothing).
                let left_off = if already.is_empty() {
                    left_off::section(store, self.project, &self.event.session, budget).await.ok().flatten()
                } else {
                    None
                };
                let injection =
                    inject::session_start(store, self.project, budget, &already, left_off.as_deref()).await?;

                if self.context_file && already.is_empty() {
                    // The file in the project's folder holds only the profile and this project's
                    // notes; a failure costs the session nothing.
                    if let Ok(block) =
                        context_file::block(store, self.project, hook.session_start_budget.min(cap)).await
                    {
                        let _ = context_file::update(
                            self.adapter,
                            &self.project.root,
                            block.as_deref(),
                            &self.config.data_dir(),
                        );
                    }
                }
                injection
            }
            EventKind::UserPromptSubmit => match self.event.prompt.as_deref() {
                Some(prompt) => {
                    inject::for_prompt(
                        store,
                        self.project,
                        prompt,
                        &ledger.given(),
                        hook,
                        hook.prompt_budget.min(cap),
                        meaning,
                    )
                    .await?
                }
                None => None,
            },
            EventKind::PreToolUse => {
                tool_time::before_tool(
                    store,
                    self.project,
                    self.event,
                    &ledger.given(),
                    hook.prompt_budget.min(cap),
                )
                .await?
            }
            _ => None,
        };
        Ok(injection)
    }

    /// Answers with `injection`, remembers it for the session and records the `Injection` event
    /// (in `store`, or in forward mode in the journal).
    async fn give(
        &self,
        store: &dyn MemoryStore,
        injection: Option<Injection>,
        outcome: String,
    ) -> memory_core::Result<(HookResponse, String)> {
        let Some(injection) = injection else { return Ok((HookResponse::pass(), outcome)) };
        if !self.adapter.support(&self.event.kind).context {
            // Delivered through the context file only.
            return Ok((HookResponse::pass(), outcome));
        }
        let mut given = injection.notes.clone();
        if self.event.kind == EventKind::SessionStart {
            given.push(crate::ledger::START.to_owned());
        }
        let _ = Ledger::new(&self.config.sessions_dir(), &self.event.session).record(&given);
        if self.record {
            let injected = injection_event(self.adapter, self.event, &injection);
            if self.forward {
                self.forward_event(&injected)?;
            } else {
                store.append(&[injected]).await?;
            }
        }
        let injected = format!("injected {} notes, {} chars", injection.notes.len(), injection.text.len());
        let outcome = if outcome.is_empty() { injected } else { format!("{outcome}; {injected}") };
        Ok((HookResponse::with_context(injection.text), outcome))
    }
}

/// The outcome of journaling an event for the forwarder.
fn journaled<T>(written: crate::Result<T>) -> memory_core::Result<String> {
    written.map_err(into_store_error)?;
    Ok("journaled for the forwarder".to_owned())
}

fn into_store_error(e: crate::Error) -> memory_core::Error {
    match e {
        crate::Error::Store(e) => e,
        other => memory_core::Error::backend("journal", other, false),
    }
}

/// The `Injection` event recorded after notes were given, for measurement and the viewer.
fn injection_event(adapter: &dyn HarnessAdapter, event: &HookEvent, injection: &Injection) -> HookEvent {
    let raw = serde_json::json!({
        "trigger": event.kind.as_str(),
        "trigger_event": event.id,
        "notes": injection.notes,
        "chars": injection.text.chars().count(),
    });
    let id = EventId::derive(
        adapter.harness(),
        event.session.as_str(),
        event.occurred_at,
        format!("injection:{}", event.id).as_bytes(),
    );
    let mut injected = HookEvent::new(
        id,
        event.harness.clone(),
        event.session.clone(),
        EventKind::Injection,
        Utc::now(),
        raw,
    );
    injected.project = event.project.clone();
    injected.owner = event.owner.clone();
    injected.cwd = event.cwd.clone();
    injected
}
