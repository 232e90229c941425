//! The logs: one line per hook run in `<data_dir>/logs/hook.log`, one per dream run in
//! `dream.log` beside it. Never stdout (that belongs to the harness protocol) and never event
//! contents (only ids, kinds, counts and outcomes).

use std::io::Write as _;
use std::path::Path;

use crate::paths::ensure_private_dir;

/// Appends one line to `<dir>/hook.log`. Callers ignore failures: a hook never fails because of
/// its log.
pub fn line(dir: &Path, text: &str) -> std::io::Result<()> {
    line_in(dir, "hook.log", text)
}

/// Appends one time-stamped line to `<dir>/<file>`.
pub fn line_in(dir: &Path, file: &str, text: &str) -> std::io::Result<()> {
    ensure_private_dir(dir)?;
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(dir.join(file))?;
    let stamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    file.write_all(format!("{stamp} {text}\n").as_bytes())
}
