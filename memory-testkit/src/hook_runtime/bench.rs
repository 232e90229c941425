//! The bench every behaviour runs on: a private folder per test (data, config, temporary folder,
//! home, project), hooks run in process, a [`Process`] that records late answers, finishes
//! hand-offs on a thread and records the dreams hooks start (holding their locks), real locks on
//! the SQLite file, and readers of what the hooks left.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use memory_core::{
    Delivery, EventKind, HarnessAdapter, HookEvent, HookResponse, MemoryStore, Note, Rendered, SessionKey,
    StoredEvent,
};
use memory_hook::autodream::Tally;
use memory_hook::{
    Answered, Config, DrainMode, Drained, DreamClaim, Env, HANDOFF_VAR, Hook, Journal, OpenStore, Outcome,
    Trigger,
};
use serde_json::Value;

use super::HookFixtures;

/// The project name every bench's working directory declares.
pub(crate) const PROJECT: &str = "hook-suite";

/// Deadlines of the bench's default configuration: long, so behaviours that are not about the
/// deadline see the run's own answer on a loaded machine.
pub(crate) const RELAXED_CONFIG: &str = "[hook]\ndeadline_ms = 5000\ninject_deadline_ms = 5000\n";

/// How long a behaviour waits for an answer before it calls the hook stuck.
pub(crate) const STUCK: Duration = Duration::from_secs(20);

/// One test's private world.
pub(crate) struct Bench<'f> {
    fixtures: &'f dyn HookFixtures,
    root: tempfile::TempDir,
    env: Env,
    project: PathBuf,
    runtime: tokio::runtime::Runtime,
    dreams: Dreams,
}

impl<'f> Bench<'f> {
    /// A fresh bench with relaxed deadlines.
    pub(crate) fn new(fixtures: &'f dyn HookFixtures) -> Self {
        let root = tempfile::Builder::new().prefix("hook-suite-").tempdir().expect("temporary folder");
        let dir = |name: &str| {
            let dir = root.path().join(name);
            std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
            dir
        };
        let (project, tmp, home) = (dir("project"), dir("tmp"), dir("home"));
        std::fs::write(
            project.join(memory_hook::project::PROJECT_FILE),
            format!("project = \"{PROJECT}\"\n"),
        )
        .expect("project file");
        let env = Env::from_pairs([
            ("AGENT_MEMORY_HOME", path_text(&root.path().join("data"))),
            ("AGENT_MEMORY_CONFIG", path_text(&root.path().join("config.toml"))),
            ("TMPDIR", path_text(&tmp)),
            ("HOME", path_text(&home)),
            ("USER", "hook-suite".to_owned()),
        ]);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("tokio runtime");
        let bench = Self { fixtures, root, env, project, runtime, dreams: Dreams::default() };
        bench.configure(RELAXED_CONFIG);
        bench
    }

    /// The adapter under test.
    pub(crate) fn adapter(&self) -> &'static dyn HarnessAdapter {
        self.fixtures.adapter()
    }

    /// The bench's folder.
    pub(crate) fn root(&self) -> &Path {
        self.root.path()
    }

    /// The environment every hook of the bench runs in.
    pub(crate) fn env(&self) -> &Env {
        &self.env
    }

    /// The working directory of every session: a project named [`PROJECT`].
    pub(crate) fn cwd(&self) -> &Path {
        &self.project
    }

    /// The project the hooks file events under.
    pub(crate) fn project(&self) -> memory_hook::Project {
        memory_hook::project::identify(&self.project)
    }

    /// Goes back to the bench's default configuration, whose deadlines a loaded machine meets.
    pub(crate) fn relax(&self) {
        self.configure(RELAXED_CONFIG);
    }

    /// Replaces the configuration file's text.
    pub(crate) fn configure(&self, toml: &str) {
        std::fs::write(self.config_file(), toml).expect("write config.toml");
    }

    /// The configuration file.
    pub(crate) fn config_file(&self) -> PathBuf {
        memory_hook::paths::config_file(&self.env)
    }

    /// The configuration the hooks load (the defaults with the environment when the file is broken).
    pub(crate) fn config(&self) -> Config {
        Config::load_from(&self.env).unwrap_or_else(|_| Config::fallback(&self.env))
    }

    /// A session id no other test uses, and its key.
    pub(crate) fn session(&self, label: &str) -> (String, SessionKey) {
        let id = crate::fixtures::unique(label);
        let key = SessionKey::new(self.adapter().harness(), &id);
        (id, key)
    }

    /// The payload's bytes.
    pub(crate) fn bytes(payload: &Value) -> Vec<u8> {
        serde_json::to_vec(payload).expect("payload serialises")
    }

    /// The event the adapter reads from `payload`, delivered now.
    pub(crate) fn parse(&self, payload: &Value) -> HookEvent {
        let bytes = Self::bytes(payload);
        let delivery = Delivery { payload: &bytes, received_at: Utc::now(), env: self.env.pairs() };
        self.adapter()
            .parse(&delivery)
            .unwrap_or_else(|e| panic!("the adapter rejects a fixture payload: {e}"))
    }

    /// The kind of event `payload` is.
    pub(crate) fn kind(&self, payload: &Value) -> EventKind {
        self.parse(payload).kind
    }

    /// What the harness gets when the hook has nothing to say about an event of this payload's kind.
    pub(crate) fn pass(&self, payload: &Value) -> Rendered {
        self.adapter().render(&self.kind(payload), &HookResponse::pass())
    }

    /// Runs one hook in the bench's environment.
    pub(crate) fn run(&self, payload: &[u8]) -> Ran {
        self.run_with(self.fixtures.stores(), &self.env, payload, &Late::default())
    }

    /// Runs one hook with another store opener, in `env`, reporting its late answer to `late`.
    pub(crate) fn run_with(&self, stores: &dyn OpenStore, env: &Env, payload: &[u8], late: &Late) -> Ran {
        let adapter = self.adapter();
        std::thread::scope(|scope| {
            let dreams = &self.dreams;
            let process = TestProcess { scope, adapter, stores, env: env.clone(), late, dreams };
            let mut stdin = payload;
            let started = Instant::now();
            late.start(started);
            let outcome =
                Hook::new(adapter, stores, &process).env(env.clone()).started(started).run(&mut stdin);
            late.finish(Instant::now(), outcome);
            // The hand-offs finish before the scope ends.
        });
        late.ran()
    }

    /// Starts a hook on a thread of `scope`; [`Running::answer`] waits for whoever answers.
    pub(crate) fn spawn<'s>(
        &'s self,
        scope: &'s Scope<'s, '_>,
        stores: &'s dyn OpenStore,
        env: Env,
        payload: Vec<u8>,
    ) -> Running<'s> {
        let late = Arc::new(Late::default());
        let shared = Arc::clone(&late);
        let handle = scope.spawn(move || self.run_with(stores, &env, &payload, &shared));
        Running { late, handle }
    }

    /// Why each dream the bench's hooks started was started, in order.
    pub(crate) fn dreams(&self) -> Vec<Trigger> {
        self.dreams.lock().iter().map(|d| d.trigger).collect()
    }

    /// Ends the dreams started so far, releasing their locks as their processes would.
    pub(crate) fn finish_dreams(&self) {
        for dream in self.dreams.lock().iter_mut() {
            dream.claim = None;
        }
    }

    /// Runs `future` to its end.
    pub(crate) fn block_on<T>(&self, future: impl std::future::Future<Output = T>) -> T {
        self.runtime.block_on(future)
    }

    /// Opens the store under test the way a hook does (the caller must drop it before taking a
    /// [`StoreLock::everything`]).
    pub(crate) fn store(&self) -> Arc<dyn MemoryStore> {
        let config = self.config();
        self.block_on(self.fixtures.stores().open(&config)).unwrap_or_else(|e| panic!("open the store: {e}"))
    }

    /// Puts notes in the store.
    pub(crate) fn plant(&self, notes: &[Note]) {
        let store = self.store();
        for note in notes {
            self.block_on(store.put_note(note)).unwrap_or_else(|e| panic!("put note {}: {e}", note.path));
        }
    }

    /// Every event in the store, in store order.
    pub(crate) fn events(&self) -> Vec<StoredEvent> {
        let store = self.store();
        let mut all: Vec<StoredEvent> = Vec::new();
        loop {
            let after = all.last().map_or(0, |e| e.position);
            let page = self
                .block_on(store.events_after(after, 1_000))
                .unwrap_or_else(|e| panic!("events_after: {e}"));
            if page.is_empty() {
                return all;
            }
            all.extend(page);
        }
    }

    /// A session's events, injections left out, in timeline order.
    pub(crate) fn timeline(&self, session: &SessionKey) -> Vec<StoredEvent> {
        let store = self.store();
        let events = self
            .block_on(store.timeline(session, 0, 100_000))
            .unwrap_or_else(|e| panic!("timeline of {session}: {e}"));
        events.into_iter().filter(|e| e.event.kind != EventKind::Injection).collect()
    }

    /// The journal of the bench's data folder.
    pub(crate) fn journal(&self) -> Journal {
        Journal::new(self.config().journal_dir())
    }

    /// The events waiting in a journal, in delivery order.
    pub(crate) fn journaled(journal: &Journal) -> Vec<HookEvent> {
        let files = journal.pending().unwrap_or_else(|e| panic!("list the journal: {e}"));
        files
            .iter()
            .map(|file| {
                let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
                serde_json::from_slice(&bytes)
                    .unwrap_or_else(|e| panic!("journal file {} is not an event: {e}", file.display()))
            })
            .collect()
    }

    /// Delivers everything journaled, as `agent-memory sync` does.
    pub(crate) fn drain_all(&self) -> Drained {
        self.drain(&self.journal())
    }

    /// Delivers everything in `journal` to the store under test.
    pub(crate) fn drain(&self, journal: &Journal) -> Drained {
        let store = self.store();
        self.block_on(journal.drain(&*store, DrainMode::All))
            .unwrap_or_else(|e| panic!("drain the journal: {e}"))
    }

    /// The hook log's text (empty when there is none).
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.config().log_dir().join("hook.log")).unwrap_or_default()
    }

    /// Creates the database with its schema, so a lock can be taken on it.
    fn prime(&self) -> PathBuf {
        drop(self.store());
        self.config().sqlite_path()
    }

    /// Holds the write lock of the store's SQLite file: appends wait, reads go on.
    pub(crate) fn lock_writes(&self) -> StoreLock {
        StoreLock::take(&self.prime(), false)
    }

    /// Holds the SQLite file exclusively: nothing reads or writes it, not even opening the store,
    /// like a server that does not answer. No connection to the file may be open.
    pub(crate) fn lock_everything(&self) -> StoreLock {
        StoreLock::take(&self.prime(), true)
    }
}

fn path_text(path: &Path) -> String {
    path.to_str().unwrap_or_else(|| panic!("{} is not UTF-8", path.display())).to_owned()
}

/// What one hook did, as the harness saw it.
#[derive(Debug, Clone)]
pub(crate) struct Ran {
    /// What [`Hook::run`] returned.
    pub(crate) outcome: Outcome,
    /// The answer the harness got: the watchdog's, or the run's.
    pub(crate) answer: Rendered,
    /// From the hook's start to its answer.
    pub(crate) took: Duration,
    /// The log lines of the runs that finished a handed-off payload.
    pub(crate) handed_off: Vec<String>,
}

impl Ran {
    /// Whether the watchdog answered.
    pub(crate) fn late(&self) -> bool {
        self.outcome.answered == Answered::ByWatchdog
    }
}

#[derive(Debug, Default)]
struct LateState {
    started: Option<Instant>,
    late: Vec<(Instant, Rendered)>,
    ran: Option<(Instant, Rendered)>,
    outcome: Option<Outcome>,
    handed_off: Vec<String>,
}

/// Where a hook's answers are recorded: the watchdog's ([`Process::answer_late`]) and the run's.
#[derive(Debug, Default)]
pub(crate) struct Late {
    state: Mutex<LateState>,
    changed: Condvar,
}

impl Late {
    fn lock(&self) -> MutexGuard<'_, LateState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn start(&self, at: Instant) {
        *self.lock() = LateState { started: Some(at), ..LateState::default() };
    }

    fn answer_late(&self, rendered: &Rendered) {
        self.lock().late.push((Instant::now(), rendered.clone()));
        self.changed.notify_all();
    }

    fn finish(&self, at: Instant, outcome: Outcome) {
        let mut state = self.lock();
        state.ran = Some((at, outcome.rendered.clone()));
        state.outcome = Some(outcome);
        drop(state);
        self.changed.notify_all();
    }

    fn handed_off(&self, log: String) {
        self.lock().handed_off.push(log);
        self.changed.notify_all();
    }

    /// The log lines of the hand-offs finished so far, once at least one has; `None` after
    /// `timeout`.
    pub(crate) fn wait_handed_off(&self, timeout: Duration) -> Option<Vec<String>> {
        let until = Instant::now() + timeout;
        let mut state = self.lock();
        loop {
            if !state.handed_off.is_empty() {
                return Some(state.handed_off.clone());
            }
            let left = until.checked_duration_since(Instant::now())?;
            state = self.changed.wait_timeout(state, left).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    /// The first answer, and how long after the start it came; `None` after `timeout`.
    pub(crate) fn wait_answer(&self, timeout: Duration) -> Option<(Duration, Rendered)> {
        let until = Instant::now() + timeout;
        let mut state = self.lock();
        loop {
            let started = state.started;
            let first = state.late.first().or(state.ran.as_ref());
            if let (Some(started), Some((at, rendered))) = (started, first) {
                return Some((at.duration_since(started), rendered.clone()));
            }
            let left = until.checked_duration_since(Instant::now())?;
            state = self.changed.wait_timeout(state, left).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    /// The finished run, checked: exactly one of the watchdog and the run answered.
    fn ran(&self) -> Ran {
        let mut state = self.lock();
        let (Some(started), Some((ended, rendered)), Some(outcome)) =
            (state.started, state.ran.clone(), state.outcome.take())
        else {
            panic!("the hook did not finish")
        };
        let (answer, at) = match (outcome.answered, state.late.as_slice()) {
            (Answered::ByRun, []) => (rendered, ended),
            (Answered::ByWatchdog, [(at, late)]) => (late.clone(), *at),
            (answered, late) => panic!(
                "{answered:?}, with {} late answers: one answer, and only one, reaches the harness",
                late.len()
            ),
        };
        Ran {
            outcome,
            answer,
            took: at.duration_since(started),
            handed_off: std::mem::take(&mut state.handed_off),
        }
    }
}

/// A hook started on a thread.
pub(crate) struct Running<'s> {
    late: Arc<Late>,
    handle: ScopedJoinHandle<'s, Ran>,
}

impl Running<'_> {
    /// Waits for the harness's answer (the watchdog's or the run's) and how long it took.
    pub(crate) fn answer(&self) -> (Duration, Rendered) {
        self.late.wait_answer(STUCK).unwrap_or_else(|| panic!("no answer within {STUCK:?}"))
    }

    /// Waits for a hand-off of the hook's payload to finish, and returns the log lines of those
    /// finished.
    pub(crate) fn handed_off(&self) -> Vec<String> {
        self.late.wait_handed_off(STUCK).unwrap_or_else(|| panic!("no hand-off finished within {STUCK:?}"))
    }

    /// Waits for the run to end.
    pub(crate) fn join(self) -> Ran {
        self.handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

/// A dream a hook started: why, and its lock while it "runs".
#[derive(Debug)]
struct StartedDream {
    trigger: Trigger,
    claim: Option<DreamClaim>,
}

/// The dreams hooks started, in order.
#[derive(Debug, Default)]
struct Dreams {
    started: Mutex<Vec<StartedDream>>,
}

impl Dreams {
    fn lock(&self) -> MutexGuard<'_, Vec<StartedDream>> {
        self.started.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The process side of an in-process hook: late answers are recorded, a hand-off is finished by a
/// second hook, with [`HANDOFF_VAR`] set, on a thread of its own (as the binary starts a process
/// of its own), and a dream start is recorded with its lock held, as the dream the binary starts
/// holds it, and starts a new count of waiting events, as that dream does.
struct TestProcess<'s, 'e> {
    scope: &'s Scope<'s, 'e>,
    adapter: &'static dyn HarnessAdapter,
    stores: &'e dyn OpenStore,
    env: Env,
    late: &'e Late,
    dreams: &'e Dreams,
}

impl memory_hook::Process for TestProcess<'_, '_> {
    fn answer_late(&self, rendered: &Rendered) {
        self.late.answer_late(rendered);
    }

    fn hand_off(&self, payload: &[u8], received_at: DateTime<Utc>) -> bool {
        let Some(nanos) = received_at.timestamp_nanos_opt() else { return false };
        let env = self.env.clone().with(HANDOFF_VAR, nanos.to_string());
        let (scope, adapter, stores, late, dreams, payload) =
            (self.scope, self.adapter, self.stores, self.late, self.dreams, payload.to_vec());
        let spawned =
            std::thread::Builder::new().name("hand-off".to_owned()).spawn_scoped(scope, move || {
                let process = TestProcess { scope, adapter, stores, env: env.clone(), late, dreams };
                let outcome = Hook::new(adapter, stores, &process).env(env).run(&mut payload.as_slice());
                late.handed_off(outcome.log);
            });
        spawned.is_ok()
    }

    fn start_dream(&self, claim: DreamClaim) -> bool {
        let config = Config::load_from(&self.env).unwrap_or_else(|_| Config::fallback(&self.env));
        Tally::new(&config.dream_dir()).take();
        self.dreams.lock().push(StartedDream { trigger: claim.trigger(), claim: Some(claim) });
        true
    }
}

/// A real lock on the store's SQLite file, held by a connection of its own until released.
pub(crate) struct StoreLock {
    conn: rusqlite::Connection,
}

impl StoreLock {
    fn take(path: &Path, everything: bool) -> Self {
        let conn =
            rusqlite::Connection::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
        conn.busy_timeout(Duration::from_secs(10)).expect("busy timeout");
        if everything {
            // In exclusive locking mode the lock taken by the first transaction is kept, and a WAL
            // database is read without the shared index: other connections cannot even read.
            conn.pragma_update(None, "locking_mode", "EXCLUSIVE").expect("exclusive locking mode");
        }
        conn.execute_batch("BEGIN EXCLUSIVE").unwrap_or_else(|e| panic!("lock {}: {e}", path.display()));
        Self { conn }
    }

    /// Releases the lock.
    pub(crate) fn release(self) {
        let _ = self.conn.execute_batch("COMMIT");
        drop(self.conn);
    }
}

/// Every file under `dir` whose bytes contain `needle`.
pub(crate) fn files_containing(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => stack.push(path),
                Ok(kind) if kind.is_file() => {
                    let bytes = std::fs::read(&path).unwrap_or_default();
                    if bytes.windows(needle.len()).any(|w| w == needle) {
                        found.push(path);
                    }
                }
                _ => {}
            }
        }
    }
    found
}
