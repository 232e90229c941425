//! The logs: one line per hook run in `<data_dir>/logs/hook.log`, one per dream run in
//! `dream.log` beside it. Never stdout (that belongs to the harness protocol) and never event
//! contents (only ids, kinds, counts and outcomes).
//!
//! Each log rotates by size: a line that finds its file at [`MAX_BYTES`] or more first moves it to
//! `<file>.1` (and `<file>.1` to `<file>.2`; [`KEPT`] old files are kept, the oldest dropped). The
//! check is one `fstat` of the file already open for the line.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::paths::ensure_private_dir;

/// The size at which a log is rotated.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// How many rotated files of each log are kept.
pub const KEPT: usize = 2;

/// Appends one line to `<dir>/hook.log`. Callers ignore failures: a hook never fails because of
/// its log.
pub fn line(dir: &Path, text: &str) -> std::io::Result<()> {
    line_in(dir, "hook.log", text)
}

/// Appends one time-stamped line to `<dir>/<file>`, rotating the file first when it is full.
pub fn line_in(dir: &Path, file: &str, text: &str) -> std::io::Result<()> {
    ensure_private_dir(dir)?;
    let path = dir.join(file);
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut out = options.open(&path)?;
    if out.metadata().is_ok_and(|m| m.len() >= MAX_BYTES) {
        drop(out);
        rotate(&path);
        out = options.open(&path)?;
    }
    let stamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    out.write_all(format!("{stamp} {text}\n").as_bytes())
}

/// `<file>.<n>`.
pub fn rotated(path: &Path, n: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{n}"));
    PathBuf::from(name)
}

/// Shifts the old files up by one and moves the full log to `.1`. Two processes rotating at once
/// each move what they find; a line is never written into a rotated file's place half-way.
fn rotate(path: &Path) {
    for n in (1..KEPT).rev() {
        let _ = std::fs::rename(rotated(path, n), rotated(path, n + 1));
    }
    let _ = std::fs::rename(path, rotated(path, 1));
}

/// Records a run of a background job (the dream, the forwarder): `line` in `<log_dir>/<log_file>`
/// (failures ignored, as for every log line) and `run` as `<dir>/<last_file>`, written whole
/// (a temporary file renamed over it, readable by the owner only).
pub(crate) fn record_run(
    (log_dir, log_file): (&Path, &str),
    line: &str,
    (dir, last_file): (&Path, &str),
    run: &impl serde::Serialize,
) -> crate::Result<()> {
    use crate::Error;
    let _ = line_in(log_dir, log_file, line);
    ensure_private_dir(dir).map_err(Error::io(dir))?;
    let path = dir.join(last_file);
    let tmp = dir.join(format!(".{last_file}.{}.tmp", std::process::id()));
    let text = serde_json::to_vec_pretty(run).map_err(|e| Error::io(&path)(std::io::Error::other(e)))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(&tmp).and_then(|mut file| file.write_all(&text)).map_err(Error::io(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(Error::io(&path))
}

/// The last run [`record_run`] wrote as `<dir>/<last_file>`, if any.
pub(crate) fn last_run<T: serde::de::DeserializeOwned>(dir: &Path, last_file: &str) -> Option<T> {
    let text = std::fs::read(dir.join(last_file)).ok()?;
    serde_json::from_slice(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_log_rotates_and_two_old_files_are_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let log = tmp.path().join("hook.log");
        for round in 1..=3u8 {
            std::fs::write(&log, vec![b'0' + round; MAX_BYTES as usize]).unwrap();
            line(tmp.path(), "after").unwrap();
            assert!(std::fs::read_to_string(&log).unwrap().ends_with(" after\n"));
            assert_eq!(std::fs::read(rotated(&log, 1)).unwrap()[0], b'0' + round);
        }
        assert_eq!(std::fs::read(rotated(&log, 2)).unwrap()[0], b'2', "the oldest kept is the second");
        assert!(!rotated(&log, 3).exists());
        line(tmp.path(), "again").unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2, "a small log is not rotated");
    }
}
