//! The one place the binary writes to the terminal. Hooks never come here: their stdout is the
//! harness protocol.

mod style;
mod table;
mod time;

use std::io::Write as _;
use std::sync::OnceLock;

pub(crate) use style::{Tone, paint};
pub(crate) use table::{Align, Table, clip};
pub(crate) use time::Clock;

static CLOCK: OnceLock<Clock> = OnceLock::new();

/// Shows times in UTC instead of the local zone (`--utc`); call before anything is printed.
pub(crate) fn use_utc() {
    let _ = CLOCK.set(Clock::utc());
}

/// The zone text output shows times in.
pub(crate) fn clock() -> &'static Clock {
    CLOCK.get_or_init(Clock::local)
}

/// Writes text to stdout, adding a final newline when missing. Colour sequences in it reach only
/// a colour terminal (never with `NO_COLOR`).
pub(crate) fn print(text: &str) {
    let mut out = anstream::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = out.write_all(b"\n");
    }
}

/// Writes a value as pretty JSON to stdout.
pub(crate) fn json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    print(&serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Writes one line to stderr.
pub(crate) fn error(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// A person's answer to a yes/no question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    Yes,
    No,
    /// Nobody can be asked: stdin is not a terminal.
    NoTerminal,
}

/// Asks `question` on stderr and reads `y`/`yes` (anything else is no) from stdin, when stdin is
/// a terminal.
pub(crate) fn ask(question: &str) -> anyhow::Result<Answer> {
    use std::io::{BufRead as _, IsTerminal as _};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Ok(Answer::NoTerminal);
    }
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{question} [y/N] ");
    let _ = err.flush();
    let mut answer = String::new();
    stdin.lock().read_line(&mut answer)?;
    Ok(if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        Answer::Yes
    } else {
        Answer::No
    })
}

/// Prints `shown` (when a person can be asked), then asks `question` (see [`ask`]).
pub(crate) fn ask_after(shown: &str, question: &str) -> anyhow::Result<Answer> {
    use std::io::IsTerminal as _;
    if std::io::stdin().is_terminal() {
        print(shown);
    }
    ask(question)
}
