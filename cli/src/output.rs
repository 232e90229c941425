//! The one place the binary writes to the terminal. Hooks never come here: their stdout is the
//! harness protocol.

use std::io::Write as _;

/// Writes text to stdout, adding a final newline when missing.
pub(crate) fn print(text: &str) {
    let mut out = std::io::stdout().lock();
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
