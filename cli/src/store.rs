//! Opens the configured store: for commands, and for hooks and the forwarder through
//! [`memory_hook::OpenStore`] (with the local copy of a server store's notes, in forward mode).

use std::sync::Arc;

use anyhow::Context as _;
use memory_core::MemoryStore;
use memory_hook::config::{Backend, Config};

/// Opens the store the configuration names.
pub(crate) async fn open(config: &Config) -> anyhow::Result<Arc<dyn MemoryStore>> {
    match config.store.backend {
        Backend::Sqlite => open_sqlite(config, false),
        Backend::Neo4j => open_neo4j(config).await,
    }
}

/// The stores hooks open: SQLite queries run on the hook's own thread, which does nothing else
/// meanwhile.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HookStores;

#[memory_core::async_trait]
impl memory_hook::OpenStore for HookStores {
    async fn open(&self, config: &Config) -> memory_core::Result<Arc<dyn MemoryStore>> {
        let opened = match config.store.backend {
            Backend::Sqlite => open_sqlite(config, true),
            Backend::Neo4j => open_neo4j(config).await,
        };
        opened.map_err(|e| {
            // What failed, and the first cause (the chain repeats itself in between).
            let root = e.root_cause().to_string();
            let message = if e.to_string().contains(&root) { e.to_string() } else { format!("{e}: {root}") };
            let transient = e.chain().any(|cause| {
                cause.downcast_ref::<memory_core::Error>().is_some_and(memory_core::Error::is_transient)
            });
            memory_core::Error::backend("store", message, transient)
        })
    }

    fn local(&self, config: &Config) -> bool {
        config.store.backend == Backend::Sqlite
    }

    async fn open_replica(
        &self,
        config: &Config,
        create: bool,
    ) -> memory_core::Result<Option<Arc<dyn MemoryStore>>> {
        if !create && !config.replica_path().exists() {
            return Ok(None);
        }
        Ok(Some(Arc::new(open_replica(config)?)))
    }

    async fn open_team(&self, config: &Config) -> memory_core::Result<Option<Arc<dyn MemoryStore>>> {
        if !config.team.is_on() {
            return Ok(None);
        }
        let team = open_team(config).await.map_err(|e| {
            let transient = e.chain().any(|cause| {
                cause.downcast_ref::<memory_core::Error>().is_some_and(memory_core::Error::is_transient)
            });
            memory_core::Error::backend("team server", format!("{e:#}"), transient)
        })?;
        Ok(Some(team))
    }

    async fn tidy_replica(&self, config: &Config) -> memory_core::Result<()> {
        open_replica(config)?.optimize_note_search().await
    }
}

/// The local copy of the notes, inline: hooks query it on their own thread.
fn open_replica(config: &Config) -> memory_core::Result<memory_store_sqlite::SqliteStore> {
    let sqlite = memory_store_sqlite::SqliteConfig::new(config.replica_path()).with_inline(true);
    memory_store_sqlite::SqliteStore::open(&sqlite)
        .map_err(|e| memory_core::Error::backend("local copy of the notes", e.to_string(), false))
}

/// Brings the local copy of the notes level with the configured server store, when hooks read
/// it (forward mode); the notes written. Commands that write notes (the dream) call it after.
pub(crate) async fn refresh_replica(config: &Config, store: &dyn MemoryStore) -> anyhow::Result<u64> {
    if !config.forwards() {
        return Ok(0);
    }
    Ok(memory_hook::forward::refresh_replica(config, &HookStores, store).await?)
}

fn open_sqlite(config: &Config, inline: bool) -> anyhow::Result<Arc<dyn MemoryStore>> {
    let path = config.sqlite_path();
    let sqlite = memory_store_sqlite::SqliteConfig::new(path.clone()).with_inline(inline);
    let store = memory_store_sqlite::SqliteStore::open(&sqlite)
        .with_context(|| format!("cannot open the SQLite store at {}", path.display()))?;
    Ok(Arc::new(store))
}

/// Opens the team server of `[team]`: a Neo4j server that holds only shared project notes.
pub(crate) async fn open_team(config: &Config) -> anyhow::Result<Arc<dyn MemoryStore>> {
    let team = &config.team;
    let lookup = |name: &str| match name {
        "NEO4J_URI" => team.uri.clone(),
        "NEO4J_USERNAME" => team.username.clone(),
        "NEO4J_PASSWORD" => team.password.clone(),
        "NEO4J_DATABASE" => team.database.clone(),
        _ => None,
    };
    let neo = memory_store_neo4j::Neo4jConfig::from_vars(lookup)
        .context("no team server is set up: `agent-memory team join <bolt-uri>` sets one")?;
    let uri = neo.uri.clone();
    let store = memory_store_neo4j::Neo4jStore::connect(&neo).await.with_context(|| {
        format!(
            "cannot connect to the team server at {uri} (`[team]` in the config; AGENT_MEMORY_TEAM_PASSWORD)"
        )
    })?;
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
