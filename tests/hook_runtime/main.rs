//! The hook-runtime behaviour suite of `memory-testkit` for every harness adapter: real hooks in
//! process against the embedded SQLite store, one test per behaviour and harness.

mod claude;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod droid;
mod gemini;
mod opencode;
mod qwen;

use std::sync::Arc;

use memory_core::MemoryStore;
use memory_hook::{Config, OpenStore};
use memory_store_sqlite::{SqliteConfig, SqliteStore};

/// Opens the SQLite store as the `agent-memory` binary's hooks do: the file the configuration
/// names, queries run inline on the hook's thread.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SqliteStores;

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
