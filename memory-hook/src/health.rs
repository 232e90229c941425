//! Store health: a server store that keeps missing the deadline is skipped for a while instead of
//! waited on by every hook.
//!
//! Each miss (a deadline passed, or a transient store error after the hook waited half its
//! deadline or more; a store that fails fast costs nothing to try) is counted in
//! `<data_dir>/store-health.json`; from the third miss in a row hooks journal without trying the
//! store, for 30 s, doubling with each further miss up to 10 minutes. The first hook after the
//! pause tries again; a success clears the count. Events journaled meanwhile are delivered in order
//! by the next hook that reaches the store, or by `agent-memory sync`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::paths::ensure_private_dir;

/// Misses in a row before hooks stop trying.
const MISSES_BEFORE_PAUSE: u32 = 3;
/// The first pause.
const FIRST_PAUSE: Duration = Duration::from_secs(30);
/// The longest pause.
const LONGEST_PAUSE: Duration = Duration::from_secs(600);

/// The health file of one data folder.
#[derive(Debug, Clone)]
pub struct StoreHealth {
    path: PathBuf,
}

/// What the health file holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthState {
    /// Misses in a row.
    pub misses: u32,
    /// Until when hooks skip the store.
    pub paused_until: Option<DateTime<Utc>>,
}

impl StoreHealth {
    /// The health file in `data_dir`.
    pub fn new(data_dir: &Path) -> Self {
        Self { path: data_dir.join("store-health.json") }
    }

    /// The recorded state (none recorded: healthy).
    pub fn state(&self) -> HealthState {
        std::fs::read(&self.path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
    }

    /// Until when hooks should not wait on the store, when that is later than `now`.
    pub fn paused(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.state().paused_until.filter(|until| *until > now)
    }

    /// Counts a miss; from the third in a row, pauses the store.
    pub fn miss(&self, now: DateTime<Utc>) {
        let mut state = self.state();
        state.misses = state.misses.saturating_add(1);
        if state.misses >= MISSES_BEFORE_PAUSE {
            let doublings = (state.misses - MISSES_BEFORE_PAUSE).min(16);
            let pause = FIRST_PAUSE.saturating_mul(1 << doublings).min(LONGEST_PAUSE);
            state.paused_until = chrono::Duration::from_std(pause).ok().map(|p| now + p);
        }
        self.write(&state);
    }

    /// Clears the count after the store answered in time (cheap when there was nothing to clear).
    pub fn success(&self) {
        if self.path.exists() {
            let _ = std::fs::remove_file(&self.path);
        }
    }

    fn write(&self, state: &HealthState) {
        let _ = (|| -> std::io::Result<()> {
            ensure_private_dir(self.path.parent().unwrap_or(Path::new(".")))?;
            let tmp = self.path.with_extension(format!("{}.tmp", std::process::id()));
            std::fs::write(&tmp, serde_json::to_vec(state).map_err(std::io::Error::other)?)?;
            std::fs::rename(&tmp, &self.path)
        })();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_misses_pause_the_store_and_a_success_clears_it() {
        let dir = tempfile::tempdir().unwrap();
        let health = StoreHealth::new(dir.path());
        let now = Utc::now();
        health.miss(now);
        health.miss(now);
        assert_eq!(health.paused(now), None);
        health.miss(now);
        let until = health.paused(now).expect("paused after three misses");
        assert_eq!(until - now, chrono::Duration::seconds(30));
        assert_eq!(health.paused(until), None, "the pause ends");
        health.miss(until);
        assert_eq!(health.paused(until).map(|u| u - until), Some(chrono::Duration::seconds(60)));
        health.success();
        assert_eq!(health.state(), HealthState::default());
    }
}
