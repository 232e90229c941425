//! A complete hook for a harness agent-memory does not know: "Quill", an imaginary coding agent
//! that runs `custom_harness` on each lifecycle event with JSON on stdin, and reads
//! `{"quill":{"inject":"…"}}` back on stdout.
//!
//! The example writes only what is Quill's own: its adapter (parse the payload into a
//! [`HookEvent`], render an answer in Quill's shape), the store it writes to (the embedded SQLite
//! file the `agent-memory` binary uses, so Quill shares the user's memory with Claude Code, Codex
//! and Cursor), and the process-level parts. [`Hook::run`] does the rest: the deadline, redaction,
//! project identity, the journal, notes injected once per session, and deciding when the dream
//! runs. The dream runs as a copy of this program (`custom_harness dream <trigger>`), through
//! [`memory_hook::dream_run::background`]: the same dream the `agent-memory` binary runs, with the
//! lock the hook took, the configured provider and limits, and a record of the run.
//!
//! Try it with
//! `echo '{"session":"s1","event":"start","dir":"."}' | cargo run -p examples --example custom_harness`.

use std::io::Write as _;
use std::process::{ExitCode, Stdio};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use memory_core::{
    Delivery, EventId, EventKind, Harness, HarnessAdapter, HookEvent, HookResponse, MemoryStore, Rendered,
    SessionKey, Support, truncate_markdown,
};
use memory_hook::{
    Answered, Config, DreamClaim, DreamLock, Env, GUARD_VAR, HANDOFF_VAR, Hook, OpenStore, Process,
};
use memory_store_sqlite::{SqliteConfig, SqliteStore};

/// What Quill writes on stdin.
#[derive(Debug, serde::Deserialize)]
struct QuillInput {
    session: String,
    /// `start`, `prompt`, `tool`, `end`, or a newer event this adapter keeps by name.
    event: String,
    dir: Option<String>,
    text: Option<String>,
}

#[derive(Debug)]
struct QuillAdapter;

impl HarnessAdapter for QuillAdapter {
    fn harness(&self) -> &'static str {
        "quill"
    }

    fn context_cap(&self) -> usize {
        6_000
    }

    fn support(&self, kind: &EventKind) -> Support {
        let context = matches!(kind, EventKind::SessionStart | EventKind::UserPromptSubmit);
        Support { context, ..Support::default() }
    }

    fn parse(&self, delivery: &Delivery<'_>) -> memory_core::Result<HookEvent> {
        let (raw, input) = memory_core::parse_payload::<QuillInput>("quill", delivery.payload)?;
        let kind = match input.event.as_str() {
            "start" => EventKind::SessionStart,
            "prompt" => EventKind::UserPromptSubmit,
            "tool" => EventKind::PostToolUse,
            "end" => EventKind::SessionEnd,
            other => EventKind::Other(other.to_owned()),
        };
        let session = SessionKey::new("quill", &input.session);
        let id = EventId::derive("quill", session.as_str(), delivery.received_at, delivery.payload);
        let mut event = HookEvent::new(id, Harness::named("quill"), session, kind, delivery.received_at, raw);
        event.cwd = input.dir;
        event.prompt = input.text;
        Ok(event)
    }

    fn render(&self, kind: &EventKind, response: &HookResponse) -> Rendered {
        match response.context.as_deref() {
            Some(context) if self.support(kind).context => {
                let inject = truncate_markdown(context, self.context_cap());
                Rendered::ok(serde_json::json!({ "quill": { "inject": inject } }).to_string())
            }
            _ => self.render_noop(),
        }
    }

    fn render_noop(&self) -> Rendered {
        Rendered::ok("{}")
    }
}

/// The SQLite file `agent-memory` uses, its queries run on the hook's own thread.
struct SqliteStores;

#[memory_core::async_trait]
impl OpenStore for SqliteStores {
    async fn open(&self, config: &Config) -> memory_core::Result<Arc<dyn MemoryStore>> {
        let store = SqliteStore::open(&SqliteConfig::new(config.sqlite_path()).with_inline(true))?;
        Ok(Arc::new(store))
    }

    fn local(&self, _config: &Config) -> bool {
        true
    }
}

/// The hook process: a late answer is written and ends it; a payload the deadline caught half
/// read is finished by a copy of this program, which journals it; a dream is started as another
/// copy, `custom_harness dream <trigger>`, detached, holding the lock the hook took.
struct QuillProcess;

impl Process for QuillProcess {
    fn answer_late(&self, rendered: &Rendered) {
        emit(rendered);
        std::process::exit(rendered.exit_code);
    }

    fn hand_off(&self, payload: &[u8], received_at: DateTime<Utc>) -> bool {
        let (Ok(exe), Some(nanos)) = (std::env::current_exe(), received_at.timestamp_nanos_opt()) else {
            return false;
        };
        let mut child = std::process::Command::new(exe);
        child.env(HANDOFF_VAR, nanos.to_string()).stdin(Stdio::piped()).stdout(Stdio::null());
        let Ok(mut child) = child.spawn() else { return false };
        child.stdin.take().is_some_and(|mut stdin| stdin.write_all(payload).is_ok())
    }

    fn start_dream(&self, claim: DreamClaim) -> bool {
        let Ok(exe) = std::env::current_exe() else { return false };
        let mut dream = std::process::Command::new(exe);
        dream
            .args(["dream", claim.trigger().as_str()])
            .env(GUARD_VAR, "1")
            .stdin(claim.into_stdio())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut dream, 0);
        dream.spawn().is_ok()
    }
}

fn emit(rendered: &Rendered) {
    let _ = std::io::stdout().write_all(rendered.stdout.as_bytes());
    let _ = std::io::stderr().write_all(rendered.stderr.as_bytes());
}

/// The dream a hook started: the lock it handed over is this process's stdin.
fn dream(trigger: &str) -> ExitCode {
    let config = Config::load().unwrap_or_else(|_| Config::fallback(&Env::process()));
    #[cfg(unix)]
    let lock = {
        use std::os::fd::AsFd as _;
        let stdin = std::io::stdin().as_fd().try_clone_to_owned().ok();
        stdin.and_then(|fd| DreamLock::adopt(std::fs::File::from(fd), &config.dream_dir()))
    };
    #[cfg(not(unix))]
    let lock = None;
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
        return ExitCode::FAILURE;
    };
    let stores = SqliteStores;
    runtime.block_on(memory_hook::dream_run::background(
        &config,
        lock,
        trigger,
        200,
        stores.open(&config),
        &stores,
    ));
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let [_, command, trigger] = args.as_slice()
        && command == "dream"
    {
        return dream(trigger);
    }
    let outcome = Hook::new(&QuillAdapter, &SqliteStores, &QuillProcess).run(&mut std::io::stdin());
    if outcome.answered == Answered::ByWatchdog {
        // The watchdog answered and is ending the process.
        loop {
            std::thread::park();
        }
    }
    emit(&outcome.rendered);
    ExitCode::from(u8::try_from(outcome.rendered.exit_code).unwrap_or(1))
}
