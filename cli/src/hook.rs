//! `agent-memory hook <harness>`: capture one lifecycle event, inject memory, never stall or break
//! the agent.
//!
//! Order of work: read stdin (bounded) → parse with the harness adapter → redact → file under the
//! project → (within the deadline) deliver journaled events, append, build the injection → render
//! the harness's answer. The store work runs on the main thread; a watchdog thread sleeps until
//! the deadline and, if the work has not answered by then, journals the event, answers with the
//! harness's no-op and ends the process, so a slow or unreachable store never holds the agent up.
//! Bad input gets one line on stderr and a non-blocking exit code; a panic is caught and answered
//! with the harness's no-op.

use std::collections::BTreeSet;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use chrono::Utc;
use memory_core::{
    Delivery, EventId, EventKind, HarnessAdapter, HookEvent, HookResponse, MemoryStore, Rendered,
};
use sha2::{Digest, Sha256};

use crate::config::{Backend, Config, ensure_private_dir};
use crate::inject::{self, Injection};
use crate::journal::Journal;
use crate::project::{self, Project};
use crate::redact::Redactor;
use crate::{log, store};

/// Set in the environment of harness processes agent-memory starts itself (the dream), so their
/// hooks record nothing.
pub(crate) const GUARD_VAR: &str = "AGENT_MEMORY_DREAM";

/// Exit code for input the hook could not use: every supported harness treats it as a
/// non-blocking error.
const EXIT_BAD_INPUT: i32 = 1;

/// Runs one hook and returns what the process must write and how it exits.
pub(crate) fn run(adapter: &'static dyn HarnessAdapter, stdin: &mut dyn std::io::Read) -> Rendered {
    let started = Instant::now();
    let config = Config::load();
    let log_dir = config.as_ref().map(Config::log_dir).unwrap_or_else(|_| Config::default().log_dir());
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let config = config.map_err(|e| format!("{e:#}"))?;
        capture(adapter, &config, stdin, started)
    }));
    if ANSWERED.swap(true, Ordering::SeqCst) {
        // The deadline passed: the watchdog is answering for this hook and ends the process.
        loop {
            std::thread::park();
        }
    }
    let (rendered, summary) = match outcome {
        Ok(Ok((rendered, summary))) => (rendered, summary),
        Ok(Err(message)) => {
            let mut rendered = adapter.render_noop();
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
            let mut rendered = adapter.render_noop();
            rendered.stderr = format!("agent-memory: internal error ({what}); the session continues\n");
            rendered.exit_code = EXIT_BAD_INPUT;
            (rendered, format!("panic: {what}"))
        }
    };
    log_run(&log_dir, adapter, &summary, started);
    rendered
}

fn log_run(log_dir: &Path, adapter: &dyn HarnessAdapter, summary: &str, started: Instant) {
    log::line(log_dir, &format!("hook {} {summary} {}us", adapter.harness(), started.elapsed().as_micros()));
}

fn read_bounded(stdin: &mut dyn std::io::Read, max: usize) -> Result<Vec<u8>, String> {
    let mut input = Vec::new();
    stdin
        .take(max as u64 + 1)
        .read_to_end(&mut input)
        .map_err(|e| format!("cannot read the hook payload from stdin: {e}"))?;
    if input.len() > max {
        return Err(format!(
            "hook payload is larger than {max} bytes; raise `hook.max_input_bytes` in the config to accept it"
        ));
    }
    Ok(input)
}

/// Everything after the configuration loaded. `Err` is a one-line message for stderr.
fn capture(
    adapter: &'static dyn HarnessAdapter,
    config: &Config,
    stdin: &mut dyn std::io::Read,
    started: Instant,
) -> Result<(Rendered, String), String> {
    let input = read_bounded(stdin, config.hook.max_input_bytes)?;
    let env: Vec<(String, String)> = std::env::vars().collect();
    let delivery = Delivery { payload: &input, received_at: Utc::now(), env: &env };
    if let Some(other) = adapter.invoked_by_other(&delivery) {
        return Ok((adapter.render_noop(), format!("skipped: run by {other}, recorded by its own hook")));
    }
    let mut event = adapter.parse(&delivery).map_err(|e| e.to_string())?;
    if delivery.var(GUARD_VAR).is_some_and(|v| !v.is_empty() && v != "0") {
        return Ok((adapter.render_noop(), format!("skipped: {GUARD_VAR} is set")));
    }
    let cwd = event.cwd.clone().map(PathBuf::from).or_else(|| std::env::current_dir().ok());
    let project = project::identify(cwd.as_deref().unwrap_or(Path::new(".")));
    event.project = Some(project.id.clone());
    let redacted = Redactor::new().redact_event(&mut event, config.hook.max_tool_output_bytes);

    let kind = event.kind.clone();
    let summary = format!(
        "{} {} {} redacted:{}",
        kind,
        event.session,
        event.id,
        redacted.to_string().replace(' ', ",")
    );
    let journal = Journal::new(config.journal_dir());
    let work = Work {
        config: config.clone(),
        event: event.clone(),
        project,
        journal: journal.clone(),
        context: adapter.support(&kind).context || wants_rules_file(adapter, &kind, config),
        harness: adapter.harness(),
        cap: adapter.context_cap(),
        keeps_context: adapter.start_keeps_context(&event),
    };
    let late = Arc::new(Late { adapter, event, journal, summary, log_dir: config.log_dir(), started });
    watchdog(config.hook.deadline(), Arc::clone(&late));
    let (response, outcome) = match work.run() {
        Ok((response, outcome)) => (response, outcome),
        Err(e) => (HookResponse::pass(), late.journal(&format!("store error: {e:#}"))),
    };
    let response = if adapter.support(&kind).context { response } else { HookResponse::pass() };
    Ok((adapter.render(&kind, &response), format!("{} {outcome}", late.summary)))
}

/// Set by whichever answers the harness first: the hook's own work or the watchdog.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// The hook's event as it would be journaled, and what is needed to answer without the store.
struct Late {
    adapter: &'static dyn HarnessAdapter,
    event: HookEvent,
    journal: Journal,
    summary: String,
    log_dir: PathBuf,
    started: Instant,
}

impl Late {
    /// Journals the event; the outcome for the log line.
    fn journal(&self, why: &str) -> String {
        match self.journal.write(&self.event) {
            Ok(_) => format!("journaled ({why})"),
            Err(e) => format!("LOST ({why}; journal write failed: {e})"),
        }
    }
}

/// Starts a thread that sleeps until the deadline; if the hook has not answered by then, it
/// journals the event, writes the harness's no-op answer, logs, and ends the process.
fn watchdog(deadline: Duration, late: Arc<Late>) {
    // Without a watchdog (the thread could not start) the hook still answers, only without the
    // guarantee of a deadline.
    let _ = std::thread::Builder::new().name("deadline".to_owned()).stack_size(256 * 1024).spawn(move || {
        std::thread::sleep(deadline.saturating_sub(late.started.elapsed()));
        if ANSWERED.swap(true, Ordering::SeqCst) {
            return;
        }
        let outcome = late.journal("deadline passed");
        let rendered = late.adapter.render(&late.event.kind, &HookResponse::pass());
        emit(&rendered);
        log_run(&late.log_dir, late.adapter, &format!("{} {outcome}", late.summary), late.started);
        std::process::exit(rendered.exit_code);
    });
}

fn wants_rules_file(adapter: &dyn HarnessAdapter, kind: &EventKind, config: &Config) -> bool {
    adapter.harness() == "cursor" && *kind == EventKind::SessionStart && config.hook.cursor_rules_file
}

/// The store side of a hook, run on a worker thread under the deadline.
struct Work {
    config: Config,
    event: HookEvent,
    project: Project,
    journal: Journal,
    context: bool,
    harness: &'static str,
    cap: usize,
    /// For a repeated session start: whether earlier injections are still in the conversation.
    keeps_context: bool,
}

impl Work {
    fn run(self) -> anyhow::Result<(HookResponse, String)> {
        let inline = self.config.store.backend == Backend::Sqlite;
        let mut work = std::pin::pin!(self.run_async());
        // SQLite runs inline (see `store::open_for_hook`): the work finishes in its first poll
        // and needs no runtime. Work that waits (a network store) gets one.
        if inline && let Poll::Ready(done) = work.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            return done;
        }
        tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(work)
    }

    async fn run_async(self) -> anyhow::Result<(HookResponse, String)> {
        let store: Arc<dyn MemoryStore> = store::open_for_hook(&self.config).await?;
        let drained = self.journal.drain(&*store, false).await?;
        let outcome = if drained.empty {
            store.append(std::slice::from_ref(&self.event)).await?;
            if drained.delivered > 0 {
                format!("stored (after delivering {} journaled)", drained.delivered)
            } else {
                "stored".to_owned()
            }
        } else {
            self.journal.write(&self.event)?;
            "journaled (journal busy)".to_owned()
        };
        if !self.context {
            return Ok((HookResponse::pass(), outcome));
        }
        let injection = match &self.event.kind {
            EventKind::SessionStart => {
                let budget = self.config.hook.session_start_budget.min(self.cap);
                // A resumed session replays its earlier context, so what was injected is still
                // there; after a compaction or a clear it is gone and everything is due again.
                let already = if self.keeps_context { self.injected_before() } else { BTreeSet::new() };
                let injection = inject::session_start(&*store, &self.project, budget, &already).await?;
                if self.harness == "cursor" && self.config.hook.cursor_rules_file && already.is_empty() {
                    crate::cursor_rules::update(&self.project, injection.as_ref().map(|i| i.text.as_str()))?;
                }
                injection
            }
            EventKind::UserPromptSubmit => {
                let Some(prompt) = self.event.prompt.as_deref() else {
                    return Ok((HookResponse::pass(), outcome));
                };
                let already = self.injected_before();
                let budget = self.config.hook.prompt_budget.min(self.cap);
                inject::for_prompt(&*store, &self.project, prompt, &already, &self.config.hook, budget)
                    .await?
            }
            _ => None,
        };
        let Some(injection) = injection else { return Ok((HookResponse::pass(), outcome)) };
        self.remember(&injection);
        store.append(&[self.injection_event(&injection)]).await?;
        let outcome =
            format!("{outcome}; injected {} notes, {} chars", injection.notes.len(), injection.text.len());
        Ok((HookResponse::with_context(injection.text), outcome))
    }

    fn session_file(&self) -> PathBuf {
        let digest = Sha256::digest(self.event.session.as_str().as_bytes());
        let name: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        self.config.data_dir().join("sessions").join(format!("{name}.injected"))
    }

    /// Notes already injected in this session.
    fn injected_before(&self) -> BTreeSet<String> {
        std::fs::read_to_string(self.session_file())
            .map(|t| t.lines().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    fn remember(&self, injection: &Injection) {
        let path = self.session_file();
        let _ = (|| -> std::io::Result<()> {
            ensure_private_dir(path.parent().unwrap_or(Path::new(".")))?;
            let mut file = std::fs::OpenOptions::new().append(true).create(true).open(&path)?;
            file.write_all(injection.notes.iter().map(|n| format!("{n}\n")).collect::<String>().as_bytes())
        })();
    }

    fn injection_event(&self, injection: &Injection) -> HookEvent {
        let raw = serde_json::json!({
            "trigger": self.event.kind.as_str(),
            "trigger_event": self.event.id,
            "notes": injection.notes,
            "chars": injection.text.chars().count(),
        });
        let id = EventId::derive(
            self.harness,
            self.event.session.as_str(),
            self.event.occurred_at,
            format!("injection:{}", self.event.id).as_bytes(),
        );
        let mut event = HookEvent::new(
            id,
            self.event.harness.clone(),
            self.event.session.clone(),
            EventKind::Injection,
            Utc::now(),
            raw,
        );
        event.project = self.event.project.clone();
        event.cwd = self.event.cwd.clone();
        event
    }
}

/// Writes a rendered answer to the real stdout/stderr.
pub(crate) fn emit(rendered: &Rendered) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(rendered.stdout.as_bytes());
    let _ = out.flush();
    if !rendered.stderr.is_empty() {
        let _ = std::io::stderr().write_all(rendered.stderr.as_bytes());
    }
}
