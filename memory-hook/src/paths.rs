//! Where agent-memory keeps its files: the one resolver the binary and custom integrations share.
//!
//! - Configuration: `$AGENT_MEMORY_CONFIG`, else `$XDG_CONFIG_HOME/agent-memory/config.toml`, else
//!   `~/.config/agent-memory/config.toml`.
//! - Data (database, journal, logs, session ledgers): `data_dir` from the configuration,
//!   `$AGENT_MEMORY_HOME`, else `$XDG_DATA_HOME/agent-memory`, else `~/.local/share/agent-memory`.
//! - Fallback: when the data folder cannot be written, hooks journal into
//!   [`fallback_data_dir`] instead (a private folder of this user's under the system's temporary
//!   folder), say so on stderr, and `doctor` and `sync` pick the events up from there.

use std::path::{Path, PathBuf};

use crate::env::Env;

/// The configuration file `env` points to (it may not exist).
pub fn config_file(env: &Env) -> PathBuf {
    if let Some(explicit) = env.get("AGENT_MEMORY_CONFIG") {
        return PathBuf::from(explicit);
    }
    base(env, "XDG_CONFIG_HOME", ".config").join("agent-memory").join("config.toml")
}

/// The data folder when neither the configuration nor `AGENT_MEMORY_HOME` names one.
pub fn default_data_dir(env: &Env) -> PathBuf {
    base(env, "XDG_DATA_HOME", ".local/share").join("agent-memory")
}

/// Where hooks journal when the data folder cannot be written: `agent-memory-<user>` in the
/// system's temporary folder.
pub fn fallback_data_dir(env: &Env) -> PathBuf {
    let tmp = env.get("TMPDIR").map_or_else(std::env::temp_dir, PathBuf::from);
    let user = env.get("USER").or_else(|| env.get("LOGNAME")).unwrap_or("user");
    let user: String = user.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')).collect();
    tmp.join(format!("agent-memory-{user}"))
}

fn base(env: &Env, xdg: &str, under_home: &str) -> PathBuf {
    if let Some(dir) = env.get(xdg) {
        return PathBuf::from(dir);
    }
    home(env).map_or_else(|| PathBuf::from(under_home), |h| h.join(under_home))
}

/// The user's home folder.
pub fn home(env: &Env) -> Option<PathBuf> {
    env.get("HOME").map(PathBuf::from).or_else(dirs::home_dir)
}

/// Creates a private folder (mode 0700) and its parents.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the fallback folder, or checks that the one there is a real folder of this user's that
/// nobody else can enter (a shared temporary folder can hold anything under that name).
pub fn ensure_fallback_dir(dir: &Path) -> std::io::Result<()> {
    ensure_private_dir(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Err(std::io::Error::other(format!("{} is not a folder", dir.display())));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if meta.uid() != rustix::process::getuid().as_raw() || meta.mode() & 0o077 != 0 {
            return Err(std::io::Error::other(format!(
                "{} belongs to another user or is open to others",
                dir.display()
            )));
        }
    }
    Ok(())
}
