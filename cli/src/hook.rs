//! `agent-memory hook <harness>`: the binary's side of [`memory_hook::Hook`]: the command line,
//! the real stdin and stdout, and the process-level parts (exiting from the watchdog, handing a
//! late payload to a process of its own, starting the dream and the forwarder in the background).

use std::ffi::OsString;
use std::io::Write as _;
use std::process::{ExitCode, Stdio};
use std::time::Instant;

use chrono::{DateTime, Utc};
use memory_core::Rendered;
use memory_hook::{
    Answered, DreamClaim, EXIT_BAD_INPUT, ForwardClaim, GUARD_VAR, HANDOFF_VAR, Hook, Process,
};

use crate::cmd;
use crate::store::HookStores;

/// Runs one hook for the arguments after `hook`.
pub(crate) fn main(started: Instant, args: &[OsString]) -> ExitCode {
    let Some(name) = args.first() else {
        return usage(&format!(
            "`hook` needs the harness that runs it, one of: {} (for example `agent-memory hook claude`)",
            cmd::harness_names()
        ));
    };
    let Some(adapter) = name.to_str().and_then(cmd::adapter) else {
        return usage(&format!(
            "`hook {}`: unknown harness; expected one of: {}",
            name.to_string_lossy(),
            cmd::harness_names()
        ));
    };
    let process = BinaryProcess { harness: adapter.harness() };
    let outcome = Hook::new(adapter, &HookStores, &process).started(started).run(&mut std::io::stdin());
    if outcome.answered == Answered::ByWatchdog {
        // The watchdog answered and is ending the process.
        loop {
            std::thread::park();
        }
    }
    let mut rendered = outcome.rendered;
    if args.len() > 1 {
        let extra: Vec<String> = args[1..].iter().map(|a| a.to_string_lossy().into_owned()).collect();
        rendered.stderr.push_str(&format!(
            "agent-memory: ignored unexpected arguments after `hook {}`: {}\n",
            adapter.harness(),
            extra.join(" ")
        ));
    }
    emit(&rendered);
    ExitCode::from(u8::try_from(rendered.exit_code).unwrap_or(1))
}

/// A mistake on the hook's command line: one line on stderr and a non-blocking exit code, never
/// a usage error (exit 2 blocks the prompt or tool call in Claude Code and Codex).
fn usage(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "agent-memory: {message}");
    ExitCode::from(EXIT_BAD_INPUT as u8)
}

/// Writes a rendered answer to the real stdout and stderr.
fn emit(rendered: &Rendered) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(rendered.stdout.as_bytes());
    let _ = out.flush();
    if !rendered.stderr.is_empty() {
        let _ = std::io::stderr().write_all(rendered.stderr.as_bytes());
    }
}

/// The hook process itself.
#[derive(Debug)]
struct BinaryProcess {
    harness: &'static str,
}

impl Process for BinaryProcess {
    fn answer_late(&self, rendered: &Rendered) {
        emit(rendered);
        std::process::exit(rendered.exit_code);
    }

    fn hand_off(&self, payload: &[u8], received_at: DateTime<Utc>) -> bool {
        let Some(mut command) = detached(&["hook", self.harness]) else { return false };
        command
            .env(HANDOFF_VAR, received_at.timestamp_nanos_opt().unwrap_or_default().to_string())
            .stdin(Stdio::piped());
        let Ok(mut child) = command.spawn() else { return false };
        let written = child.stdin.take().is_some_and(|mut stdin| stdin.write_all(payload).is_ok());
        // Not waited for: it journals the event on its own after this process has ended.
        drop(child);
        written
    }

    fn start_dream(&self, claim: DreamClaim) -> bool {
        let Some(mut command) = detached(&["dream", "--background", "--trigger", claim.trigger().as_str()])
        else {
            return false;
        };
        command
            // Harness processes it starts (the claude-cli and codex-cli providers) record nothing
            // and start no dream of their own.
            .env(GUARD_VAR, "1")
            // The lock this hook took, handed over as stdin: the dream holds it from its start.
            .stdin(claim.into_stdio());
        // Not waited for: it runs on after this hook has answered and ended.
        command.spawn().is_ok()
    }

    fn start_forwarder(&self, claim: ForwardClaim) -> bool {
        let Some(mut command) = detached(&["sync", "--background"]) else { return false };
        // Its lock, handed over as stdin, as the dream's is.
        command.env(GUARD_VAR, "1").stdin(claim.into_stdio());
        command.spawn().is_ok()
    }
}

/// This binary with `args`, to run on after the hook has ended: no stdout or stderr (the
/// harness's pipes must not stay open), in its own process group (the harness's signals to this
/// hook do not reach it).
fn detached(args: &[&str]) -> Option<std::process::Command> {
    let exe = std::env::current_exe().ok()?;
    let mut command = std::process::Command::new(exe);
    command.args(args).stdout(Stdio::null()).stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    Some(command)
}
