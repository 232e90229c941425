//! Opens the configured store.

use std::sync::Arc;

use anyhow::Context as _;
use memory_core::MemoryStore;

use crate::config::{Backend, Config};

/// Opens the store the configuration names.
pub(crate) async fn open(config: &Config) -> anyhow::Result<Arc<dyn MemoryStore>> {
    open_with(config, false).await
}

/// Opens the configured store for one hook: SQLite queries run on the hook's own thread, which
/// does nothing else meanwhile.
pub(crate) async fn open_for_hook(config: &Config) -> anyhow::Result<Arc<dyn MemoryStore>> {
    open_with(config, true).await
}

async fn open_with(config: &Config, inline_sqlite: bool) -> anyhow::Result<Arc<dyn MemoryStore>> {
    match config.store.backend {
        Backend::Sqlite => open_sqlite(config, inline_sqlite),
        Backend::Neo4j => open_neo4j(config).await,
    }
}

fn open_sqlite(config: &Config, inline: bool) -> anyhow::Result<Arc<dyn MemoryStore>> {
    let path = config.sqlite_path();
    let sqlite = memory_store_sqlite::SqliteConfig::new(path.clone()).with_inline(inline);
    let store = memory_store_sqlite::SqliteStore::open(&sqlite)
        .with_context(|| format!("cannot open the SQLite store at {}", path.display()))?;
    Ok(Arc::new(store))
}

pub(crate) async fn open_neo4j(config: &Config) -> anyhow::Result<Arc<dyn MemoryStore>> {
    let section = &config.store.neo4j;
    let lookup = |name: &str| {
        let from_file = match name {
            "NEO4J_URI" => section.uri.clone(),
            "NEO4J_USERNAME" => section.username.clone(),
            "NEO4J_PASSWORD" => section.password.clone(),
            "NEO4J_DATABASE" => section.database.clone(),
            _ => None,
        };
        from_file.or_else(|| std::env::var(name).ok())
    };
    let neo = memory_store_neo4j::Neo4jConfig::from_vars(lookup)
        .context("the Neo4j store is not configured: set `[store.neo4j] uri` in the config or NEO4J_URI")?;
    let uri = neo.uri.clone();
    let store = memory_store_neo4j::Neo4jStore::connect(&neo).await.with_context(|| {
        format!("cannot connect to Neo4j at {uri} (set NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD)")
    })?;
    Ok(Arc::new(store))
}
