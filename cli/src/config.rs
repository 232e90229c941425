//! Configuration: a TOML file, then environment variables, then built-in defaults.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use serde::Deserialize;

/// The configuration file's location unless `AGENT_MEMORY_CONFIG` names another.
pub(crate) fn default_config_path() -> PathBuf {
    config_home().join("agent-memory").join("config.toml")
}

fn config_home() -> PathBuf {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".config")))
        .unwrap_or_else(|| PathBuf::from(".config"))
}

fn data_home() -> PathBuf {
    std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".local").join("share")))
        .unwrap_or_else(|| PathBuf::from(".local/share"))
}

/// Which store holds the memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Backend {
    /// The embedded SQLite file (the default; no setup).
    Sqlite,
    /// A Neo4j server.
    Neo4j,
}

/// agent-memory's configuration file (`config.toml`). Every key is optional.
#[derive(Debug, Clone, Deserialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Config {
    /// Folder for the database, the journal and logs.
    pub(crate) data_dir: Option<PathBuf>,
    /// The store.
    pub(crate) store: StoreConfig,
    /// Hook behaviour.
    pub(crate) hook: HookConfig,
    /// Dream defaults.
    pub(crate) dream: DreamConfig,
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
/// Which store holds the memory, and how to reach it.
pub(crate) struct StoreConfig {
    /// `sqlite` (default) or `neo4j`.
    pub(crate) backend: Backend,
    /// SQLite settings.
    pub(crate) sqlite: SqliteSection,
    /// Neo4j settings.
    pub(crate) neo4j: Neo4jSection,
}

impl Default for StoreConfig {
    fn default() -> Self {
        Self { backend: Backend::Sqlite, sqlite: SqliteSection::default(), neo4j: Neo4jSection::default() }
    }
}

#[derive(Debug, Clone, Deserialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
/// The embedded SQLite store.
pub(crate) struct SqliteSection {
    /// Database file; defaults to `<data_dir>/memory.db`.
    pub(crate) path: Option<PathBuf>,
}

#[derive(Clone, Deserialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
/// The Neo4j server; each key may also come from `NEO4J_URI`, `NEO4J_USERNAME`, `NEO4J_PASSWORD`,
/// `NEO4J_DATABASE`.
pub(crate) struct Neo4jSection {
    /// Bolt URI, for example `bolt://127.0.0.1:7687`.
    pub(crate) uri: Option<String>,
    /// User name.
    pub(crate) username: Option<String>,
    /// Password (prefer `NEO4J_PASSWORD`).
    pub(crate) password: Option<String>,
    /// Database name.
    pub(crate) database: Option<String>,
}

impl std::fmt::Debug for Neo4jSection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Neo4jSection")
            .field("uri", &self.uri)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<hidden>"))
            .field("database", &self.database)
            .finish()
    }
}

/// How hooks behave.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct HookConfig {
    /// Time a hook may take, from its start, before it journals the event and answers, in ms.
    pub(crate) deadline_ms: u64,
    /// Largest payload read from stdin, in bytes.
    pub(crate) max_input_bytes: usize,
    /// Largest tool output kept per event, in bytes.
    pub(crate) max_tool_output_bytes: usize,
    /// Character budget of the session-start block.
    pub(crate) session_start_budget: usize,
    /// Character budget of a per-prompt block.
    pub(crate) prompt_budget: usize,
    /// Most notes injected on one prompt.
    pub(crate) prompt_max_notes: usize,
    /// Distinct prompt terms a note must contain to be injected on a prompt (fewer when the prompt
    /// has fewer terms).
    pub(crate) prompt_min_terms: usize,
    /// Keep `.cursor/rules/agent-memory.mdc` current for Cursor, which cannot take per-prompt context.
    pub(crate) cursor_rules_file: bool,
}

impl Default for HookConfig {
    fn default() -> Self {
        Self {
            deadline_ms: 300,
            max_input_bytes: 8 * 1024 * 1024,
            max_tool_output_bytes: 16 * 1024,
            session_start_budget: 8_000,
            prompt_budget: 2_400,
            prompt_max_notes: 3,
            prompt_min_terms: 2,
            cursor_rules_file: true,
        }
    }
}

impl HookConfig {
    pub(crate) fn deadline(&self) -> Duration {
        Duration::from_millis(self.deadline_ms)
    }
}

/// Defaults for `agent-memory dream`.
#[derive(Debug, Clone, Deserialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct DreamConfig {
    /// Provider name (`deterministic` unless set).
    pub(crate) provider: Option<String>,
    /// Model for LLM providers.
    pub(crate) model: Option<String>,
    /// Base URL for HTTP providers.
    pub(crate) base_url: Option<String>,
    /// Token cap per run.
    pub(crate) max_tokens: Option<u64>,
    /// Spending cap per run, in US dollars.
    pub(crate) max_cost_usd: Option<f64>,
    /// Most note changes accepted from one provider call (default 20).
    pub(crate) max_operations: Option<usize>,
    /// Longest note body a provider may write, in bytes (default 8192, at most 16384).
    pub(crate) max_body_bytes: Option<usize>,
}

impl Config {
    /// Loads the file named by `AGENT_MEMORY_CONFIG` (or the default path, when it exists), then
    /// applies environment overrides.
    pub(crate) fn load() -> anyhow::Result<Self> {
        let explicit = std::env::var_os("AGENT_MEMORY_CONFIG").filter(|v| !v.is_empty()).map(PathBuf::from);
        let path = explicit.clone().unwrap_or_else(default_config_path);
        let mut config = match std::fs::read_to_string(&path) {
            Ok(text) => Self::parse(&text)
                .with_context(|| format!("config file {} is invalid; fix or remove it", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && explicit.is_none() => Self::default(),
            Err(e) => {
                return Err(anyhow::format_err!(
                    "cannot read config file {} (from AGENT_MEMORY_CONFIG): {e}",
                    path.display()
                ));
            }
        };
        config.apply_env()?;
        Ok(config)
    }

    pub(crate) fn parse(text: &str) -> anyhow::Result<Self> {
        Ok(toml::from_str(text)?)
    }

    fn apply_env(&mut self) -> anyhow::Result<()> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        if let Some(home) = var("AGENT_MEMORY_HOME") {
            self.data_dir = Some(PathBuf::from(home));
        }
        if let Some(db) = var("AGENT_MEMORY_DB") {
            self.store.sqlite.path = Some(PathBuf::from(db));
        }
        if let Some(backend) = var("AGENT_MEMORY_STORE") {
            self.store.backend = match backend.as_str() {
                "sqlite" => Backend::Sqlite,
                "neo4j" => Backend::Neo4j,
                other => anyhow::bail!("AGENT_MEMORY_STORE={other} is not `sqlite` or `neo4j`"),
            };
        }
        let neo = &mut self.store.neo4j;
        for (name, slot) in [
            ("NEO4J_URI", &mut neo.uri),
            ("NEO4J_USERNAME", &mut neo.username),
            ("NEO4J_PASSWORD", &mut neo.password),
            ("NEO4J_DATABASE", &mut neo.database),
        ] {
            if let Some(value) = var(name) {
                *slot = Some(value);
            }
        }
        if let Some(ms) = var("AGENT_MEMORY_HOOK_DEADLINE_MS") {
            self.hook.deadline_ms =
                ms.parse().with_context(|| format!("AGENT_MEMORY_HOOK_DEADLINE_MS={ms} is not a number"))?;
        }
        Ok(())
    }

    /// Folder for the database, the journal and logs.
    pub(crate) fn data_dir(&self) -> PathBuf {
        self.data_dir.clone().unwrap_or_else(|| data_home().join("agent-memory"))
    }

    pub(crate) fn sqlite_path(&self) -> PathBuf {
        self.store.sqlite.path.clone().unwrap_or_else(|| self.data_dir().join("memory.db"))
    }

    pub(crate) fn journal_dir(&self) -> PathBuf {
        self.data_dir().join("journal")
    }

    pub(crate) fn log_dir(&self) -> PathBuf {
        self.data_dir().join("logs")
    }
}

/// Creates a private folder (mode 0700) and its parents.
pub(crate) fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_full_file() {
        let config = Config::parse(
            r#"
            data_dir = "/tmp/am"
            [store]
            backend = "neo4j"
            [store.neo4j]
            uri = "bolt://127.0.0.1:7687"
            password = "hunter2hunter2"
            [hook]
            deadline_ms = 150
            "#,
        )
        .unwrap();
        assert_eq!(config.store.backend, Backend::Neo4j);
        assert_eq!(config.hook.deadline_ms, 150);
        assert_eq!(config.hook.prompt_budget, 2_400);
        assert_eq!(config.sqlite_path(), PathBuf::from("/tmp/am/memory.db"));
        assert!(!format!("{config:?}").contains("hunter2"));
    }

    #[test]
    fn rejects_unknown_keys_with_their_name() {
        let err = Config::parse("[hook]\ndeadline = 5\n").unwrap_err().to_string();
        assert!(err.contains("deadline"), "{err}");
    }
}
