//! Configuration: a TOML file, then environment variables, then built-in defaults.
//!
//! [`Config::load_from`] reads the file `AGENT_MEMORY_CONFIG` names (else
//! `~/.config/agent-memory/config.toml`, when it exists) and applies the environment on top.
//! Every key is optional; `schemas/config.schema.json` documents them.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::env::Env;
use crate::error::{Error, Result};

/// Which store holds the memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// The embedded SQLite file (the default; no setup).
    Sqlite,
    /// A Neo4j server.
    Neo4j,
}

/// How hooks reach a server store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StoreMode {
    /// Hooks write each event to the local journal and read notes from a local copy; a forwarder
    /// process of their own delivers the journal to the server, in order and in batches (the
    /// default: a hook costs what the embedded store costs).
    #[default]
    Forward,
    /// Every hook writes its event straight to the server and reads notes from it, within its
    /// deadline (the journal only takes what misses it).
    Direct,
}

/// agent-memory's configuration file (`config.toml`). Every key is optional.
#[derive(Debug, Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Folder for the database, the journal and logs.
    pub data_dir: Option<PathBuf>,
    /// Whose memory this is: the owner every event records.
    pub user: UserConfig,
    /// The store.
    pub store: StoreConfig,
    /// Hook behaviour.
    pub hook: HookConfig,
    /// Dream defaults.
    pub dream: DreamConfig,
    /// Redaction rules of your own, on top of the built-in ones.
    pub redact: RedactConfig,
    /// How notes are found for a prompt.
    pub retrieval: RetrievalConfig,
    /// What is not recorded.
    pub capture: CaptureConfig,
    /// How long events are kept.
    pub retention: RetentionConfig,
    /// The web viewer (`agent-memory ui`).
    pub viewer: ViewerConfig,
    /// A team server the project notes of some projects are shared through (`agent-memory team`).
    pub team: TeamConfig,
}

/// Whose memory this is: every event records its owner, and a team reads the notes this memory
/// publishes under that name (`crate::owner::of` resolves it).
#[derive(Debug, Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct UserConfig {
    /// Who you are, as every event records it and a team reads it: an email address, as git has
    /// it. Unset, `git_email` stands in.
    pub owner: Option<String>,
    /// git's global `user.email` as `agent-memory install` last found it (written by `install`):
    /// the owner while `owner` is unset.
    pub git_email: Option<String>,
}

/// A team server: a Neo4j server that people share some projects' notes through. Only those
/// projects' notes go there, each person's under their own name (`[user] owner`); events, the
/// profile and sessions never do (docs/team.md).
#[derive(Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TeamConfig {
    /// Bolt URI of the team's Neo4j server, for example `bolt://memory.internal:7687`.
    pub uri: Option<String>,
    /// User name on it (default `neo4j`).
    pub username: Option<String>,
    /// Password (prefer `AGENT_MEMORY_TEAM_PASSWORD`).
    pub password: Option<String>,
    /// Database name, when the server has several.
    pub database: Option<String>,
    /// The projects whose notes are shared there, by name or id. No other project's notes go.
    pub projects: Vec<String>,
    /// The name `team join --owner` wrote here before `[user] owner` existed: still read, as the
    /// owner while `[user] owner` is unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub owner: Option<String>,
}

impl TeamConfig {
    /// Whether a team server is set up and shares at least one project.
    pub fn is_on(&self) -> bool {
        self.uri.as_deref().is_some_and(|uri| !uri.trim().is_empty()) && !self.projects.is_empty()
    }
}

impl std::fmt::Debug for TeamConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TeamConfig")
            .field("uri", &self.uri)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<hidden>"))
            .field("database", &self.database)
            .field("projects", &self.projects)
            .finish()
    }
}

/// The default port of the web viewer.
pub const VIEWER_PORT: u16 = 7767;

/// The web viewer (`agent-memory ui`).
#[derive(Debug, Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ViewerConfig {
    /// The port it listens on, on 127.0.0.1 (default 7767), so its address can be bookmarked;
    /// `agent-memory ui --port` chooses another for one launch, `0` a free one.
    pub port: u16,
}

impl Default for ViewerConfig {
    fn default() -> Self {
        Self { port: VIEWER_PORT }
    }
}

/// How long events are kept once the dream has distilled them.
#[derive(Debug, Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RetentionConfig {
    /// Events older than this many days are deleted once the dream has read them (by
    /// `agent-memory prune` and after each dream run); notes are kept. Unset (the default): every
    /// event is kept.
    pub events_days: Option<u32>,
}

/// What is not recorded (see [`crate::capture`]); `agent-memory pause` does the same for a while.
#[derive(Debug, Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CaptureConfig {
    /// Folders and projects whose sessions are never recorded: path globs (`~/clients/*`,
    /// `/srv/**/secret-*`; an entry with a `/` in it, matched against the session's folder, its
    /// project's root and every folder above them) and project names or ids (`acme`).
    pub exclude: Vec<String>,
    /// Whether sessions that are not recorded (paused, excluded, `capture = false`) are still
    /// given notes (default `false`: agent-memory leaves them alone).
    pub inject_when_paused: bool,
}

/// Whether notes are also found by meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Semantic {
    /// By meaning and by words when the embedding model is installed, by words alone otherwise.
    #[default]
    Auto,
    /// By words alone.
    Off,
}

/// How notes are found for a prompt: by their words (always), and by meaning with the local
/// embedding model (`agent-memory model install`).
#[derive(Debug, Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RetrievalConfig {
    /// `auto` (default): by meaning too when the model is installed; `off`: by words only.
    pub semantic: Semantic,
    /// Folder of the installed model; default `<data_dir>/models/all-MiniLM-L6-v2`.
    pub model_dir: Option<PathBuf>,
    /// Least relevance the best note needs for a prompt to be given anything (0 to 1): the cosine
    /// similarity of its closest passage plus 0.3 times its share of the prompt's words that are
    /// not everyday English; further notes may be 0.1 below it.
    pub min_similarity: f32,
}

impl Default for RetrievalConfig {
    fn default() -> Self {
        Self { semantic: Semantic::Auto, model_dir: None, min_similarity: DEFAULT_MIN_SIMILARITY }
    }
}

/// The default [`RetrievalConfig::min_similarity`].
pub const DEFAULT_MIN_SIMILARITY: f32 = 0.40;

/// Redaction rules of your own: each one's name is shown in its marker (`[REDACTED:<name>]`).
/// They apply wherever agent-memory redacts: hook events, the journal, MCP writes, `import`.
#[derive(Debug, Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RedactConfig {
    /// Regular expressions; a match (its first capture group, when it has one) is replaced.
    pub patterns: Vec<NamedPattern>,
    /// Literal values (an in-house password, a customer's name) replaced wherever they occur.
    pub values: Vec<NamedValue>,
}

/// A named regular expression.
#[derive(Debug, Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedPattern {
    /// The marker's name: a lowercase slug such as `acme-token`.
    pub name: String,
    /// The regular expression (Rust `regex` syntax).
    pub pattern: String,
}

/// A named literal value.
#[derive(Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedValue {
    /// The marker's name: a lowercase slug such as `wifi-password`.
    pub name: String,
    /// The value, at least 4 characters.
    pub value: String,
}

impl std::fmt::Debug for NamedValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamedValue").field("name", &self.name).field("value", &"<hidden>").finish()
    }
}

impl RedactConfig {
    /// The rules, compiled; the first one that cannot be used is an error naming it.
    pub fn rules(&self) -> std::result::Result<Vec<memory_redact::CustomRule>, memory_redact::Error> {
        let patterns = self.patterns.iter().map(|p| memory_redact::CustomRule::pattern(&p.name, &p.pattern));
        let values = self.values.iter().map(|v| memory_redact::CustomRule::literal(&v.name, &v.value));
        patterns.chain(values).collect()
    }
}

#[derive(Debug, Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
/// Which store holds the memory, and how to reach it.
pub struct StoreConfig {
    /// `sqlite` (default) or `neo4j`.
    pub backend: Backend,
    /// With a server store: `forward` (default; hooks write locally, a forwarder delivers) or
    /// `direct` (every hook writes to the server). The embedded store is always written directly.
    pub mode: StoreMode,
    /// SQLite settings.
    pub sqlite: SqliteSection,
    /// Neo4j settings.
    pub neo4j: Neo4jSection,
}

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            backend: Backend::Sqlite,
            mode: StoreMode::default(),
            sqlite: SqliteSection::default(),
            neo4j: Neo4jSection::default(),
        }
    }
}

#[derive(Debug, Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
/// The embedded SQLite store.
pub struct SqliteSection {
    /// Database file; defaults to `<data_dir>/memory.db`.
    pub path: Option<PathBuf>,
}

#[derive(Clone, Deserialize, serde::Serialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
/// The Neo4j server; each key may also come from `NEO4J_URI`, `NEO4J_USERNAME`, `NEO4J_PASSWORD`,
/// `NEO4J_DATABASE`.
pub struct Neo4jSection {
    /// Bolt URI, for example `bolt://127.0.0.1:7687`.
    pub uri: Option<String>,
    /// User name.
    pub username: Option<String>,
    /// Password (prefer `NEO4J_PASSWORD`).
    pub password: Option<String>,
    /// Database name.
    pub database: Option<String>,
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

/// Edits the config file at `path` with `change` (created when missing; other settings and
/// comments kept), and returns what `change` returned.
pub(crate) fn edit_file<T>(
    path: &std::path::Path,
    change: impl FnOnce(&mut toml_edit::DocumentMut) -> T,
) -> Result<T> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(cause) => return Err(Error::Io { path: path.to_owned(), cause }),
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| Error::Io {
        path: path.to_owned(),
        cause: std::io::Error::new(std::io::ErrorKind::InvalidData, e.message().to_owned()),
    })?;
    let out = change(&mut doc);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    }
    std::fs::write(path, doc.to_string()).map_err(Error::io(path))?;
    Ok(out)
}

/// A TOML error as one line: its message and where.
fn one_line(error: &toml::de::Error, text: &str) -> String {
    let message = error.message().split_whitespace().collect::<Vec<_>>().join(" ");
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("{message} (line {line}, column {column})")
        }
        None => message,
    }
}

/// How hooks behave.
#[derive(Debug, Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HookConfig {
    /// Time a hook may take, from its start, before it journals the event and answers, in ms.
    pub deadline_ms: u64,
    /// The same for events whose answer can carry notes (a session start, a prompt), in ms; never
    /// below `deadline_ms`. A hook that misses it journals the event and injects nothing.
    pub inject_deadline_ms: u64,
    /// Longest prompt, and longest string of a tool's input or of the payload, kept per event, in
    /// bytes; longer texts are cut with a marker before redaction.
    pub max_text_bytes: usize,
    /// Largest payload read from stdin, in bytes.
    pub max_input_bytes: usize,
    /// Largest tool output kept per event, in bytes.
    pub max_tool_output_bytes: usize,
    /// Character budget of the session-start block.
    pub session_start_budget: usize,
    /// Character budget of a per-prompt block.
    pub prompt_budget: usize,
    /// Most notes injected on one prompt.
    pub prompt_max_notes: usize,
    /// Distinct prompt terms a note must contain to be injected on a prompt for its words (at most
    /// half the prompt's terms, rounded up: one for a prompt of one or two words).
    pub prompt_min_terms: usize,
    /// Keep `.cursor/rules/agent-memory.mdc` current for Cursor, which cannot take per-prompt context.
    pub cursor_rules_file: bool,
    /// Before a shell command that failed before in this project (or an edit of a file with a
    /// known pitfall), hand the agent the known fix, where the harness takes context there.
    pub tool_recall: bool,
}

impl Default for HookConfig {
    fn default() -> Self {
        Self {
            deadline_ms: 300,
            inject_deadline_ms: 1_000,
            max_text_bytes: memory_redact::DEFAULT_MAX_TEXT,
            max_input_bytes: 8 * 1024 * 1024,
            max_tool_output_bytes: 16 * 1024,
            session_start_budget: 8_000,
            prompt_budget: 2_400,
            prompt_max_notes: 3,
            prompt_min_terms: 2,
            cursor_rules_file: true,
            tool_recall: true,
        }
    }
}

impl HookConfig {
    /// The deadline of an event that only logs.
    pub fn deadline(&self) -> Duration {
        Duration::from_millis(self.deadline_ms)
    }

    /// The deadline of an event whose answer can carry notes.
    pub fn inject_deadline(&self) -> Duration {
        Duration::from_millis(self.inject_deadline_ms.max(self.deadline_ms))
    }

    /// What a redacted event may hold.
    pub fn limits(&self) -> memory_redact::Limits {
        memory_redact::Limits {
            max_tool_output: self.max_tool_output_bytes,
            max_text: self.max_text_bytes,
            ..memory_redact::Limits::default()
        }
    }
}

/// Defaults for `agent-memory dream`, and the dream hooks start by themselves.
#[derive(Debug, Clone, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DreamConfig {
    /// Provider name (`deterministic` unless set).
    pub provider: Option<String>,
    /// Model for LLM providers.
    pub model: Option<String>,
    /// Base URL for HTTP providers.
    pub base_url: Option<String>,
    /// Token cap per run.
    pub max_tokens: Option<u64>,
    /// Spending cap per run, in US dollars.
    pub max_cost_usd: Option<f64>,
    /// Most note changes accepted from one provider call (default 20).
    pub max_operations: Option<usize>,
    /// Longest note body a provider may write, in bytes (default 8192, at most 16384).
    pub max_body_bytes: Option<usize>,
    /// Dream by itself: a hook starts the dream in the background after a session ends, or once
    /// `auto_after_events` new events wait. An LLM provider dreams by itself only within a
    /// spending cap (`max_tokens` or `max_cost_usd`).
    pub auto: bool,
    /// New events that start the dream without waiting for a session to end.
    pub auto_after_events: u64,
    /// Longest run of a dream started by a hook, in seconds; what it distilled by then is kept.
    pub auto_max_seconds: u64,
    /// Most events a dream started by a hook reads; the rest waits for the next one.
    pub auto_max_events: u64,
}

impl Default for DreamConfig {
    fn default() -> Self {
        Self {
            provider: None,
            model: None,
            base_url: None,
            max_tokens: None,
            max_cost_usd: None,
            max_operations: None,
            max_body_bytes: None,
            auto: true,
            auto_after_events: 200,
            auto_max_seconds: 120,
            auto_max_events: 10_000,
        }
    }
}

impl DreamConfig {
    /// The provider's name as configured, `deterministic` when none is.
    pub fn provider_name(&self) -> &str {
        self.provider.as_deref().unwrap_or("deterministic")
    }

    /// Whether a dream started by a hook may run with this provider: the deterministic one always,
    /// an LLM only within a spending cap.
    pub fn auto_allowed(&self) -> bool {
        self.provider_name().eq_ignore_ascii_case("deterministic")
            || self.max_tokens.is_some()
            || self.max_cost_usd.is_some()
    }

    /// The time limit of a dream started by a hook.
    pub fn auto_max_duration(&self) -> Duration {
        Duration::from_secs(self.auto_max_seconds.max(1))
    }
}

impl Config {
    /// Loads the configuration from the process environment; see [`Config::load_from`].
    pub fn load() -> Result<Self> {
        Self::load_from(&Env::process())
    }

    /// Loads the file named by `AGENT_MEMORY_CONFIG` in `env` (or the default path, when it
    /// exists), then applies the environment's overrides. The data folder is resolved against
    /// `env` too, so the result does not depend on the process environment.
    pub fn load_from(env: &Env) -> Result<Self> {
        let path = crate::paths::config_file(env);
        let explicit = env.get("AGENT_MEMORY_CONFIG").is_some();
        let mut config = match std::fs::read_to_string(&path) {
            Ok(text) => Self::parse(&text)
                .map_err(|e| Error::Config { path: path.clone(), message: one_line(&e, &text) })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => Self::default(),
            Err(e) => return Err(Error::ConfigUnreadable { path, cause: e }),
        };
        config.apply_env(env)?;
        // A rule that cannot be used makes the file unusable, as any other wrong value does.
        config.redact.rules().map_err(|e| Error::Config { path: path.clone(), message: e.to_string() })?;
        Ok(config)
    }

    /// A redactor with the built-in rules and the configured ones (see [`RedactConfig`]); the one
    /// place every writer gets its redactor from.
    pub fn redactor(&self) -> memory_redact::Redactor {
        memory_redact::Redactor::with_rules(self.redact.rules().unwrap_or_default())
    }

    /// The built-in defaults with the environment's overrides applied: what a hook runs with when
    /// the configuration file cannot be used.
    pub fn fallback(env: &Env) -> Self {
        let mut config = Self::default();
        // An environment value that does not parse keeps its default here (the data folder is
        // resolved before any value is checked).
        let _ = config.apply_env(env);
        config
    }

    /// Parses a configuration file's text.
    pub fn parse(text: &str) -> std::result::Result<Self, toml::de::Error> {
        toml::from_str(text)
    }

    fn apply_env(&mut self, env: &Env) -> Result<()> {
        let var = |name: &str| env.get(name).map(str::to_owned);
        if let Some(home) = var("AGENT_MEMORY_HOME") {
            self.data_dir = Some(PathBuf::from(home));
        }
        if self.data_dir.is_none() {
            self.data_dir = Some(crate::paths::default_data_dir(env));
        }
        if let Some(db) = var("AGENT_MEMORY_DB") {
            self.store.sqlite.path = Some(PathBuf::from(db));
        }
        if let Some(backend) = var("AGENT_MEMORY_STORE") {
            self.store.backend = match backend.as_str() {
                "sqlite" => Backend::Sqlite,
                "neo4j" => Backend::Neo4j,
                other => {
                    return Err(Error::Env {
                        name: "AGENT_MEMORY_STORE",
                        message: format!("`{other}` is not `sqlite` or `neo4j`"),
                    });
                }
            };
        }
        if let Some(mode) = var("AGENT_MEMORY_STORE_MODE") {
            self.store.mode = match mode.as_str() {
                "forward" => StoreMode::Forward,
                "direct" => StoreMode::Direct,
                other => {
                    return Err(Error::Env {
                        name: "AGENT_MEMORY_STORE_MODE",
                        message: format!("`{other}` is not `forward` or `direct`"),
                    });
                }
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
        if let Some(password) = var("AGENT_MEMORY_TEAM_PASSWORD") {
            self.team.password = Some(password);
        }
        for (name, slot) in [
            ("AGENT_MEMORY_HOOK_DEADLINE_MS", &mut self.hook.deadline_ms),
            ("AGENT_MEMORY_HOOK_INJECT_DEADLINE_MS", &mut self.hook.inject_deadline_ms),
        ] {
            if let Some(ms) = var(name) {
                *slot = ms.parse().map_err(|_| Error::Env {
                    name,
                    message: format!("`{ms}` is not a number of milliseconds"),
                })?;
            }
        }
        Ok(())
    }

    /// Folder for the database, the journal and logs.
    pub fn data_dir(&self) -> PathBuf {
        self.data_dir.clone().unwrap_or_else(|| crate::paths::default_data_dir(&Env::process()))
    }

    /// The folder of the embedding model.
    pub fn model_dir(&self) -> PathBuf {
        self.retrieval.model_dir.clone().unwrap_or_else(|| memory_embed::model_dir(&self.data_dir()))
    }

    /// The embedding model, when semantic retrieval is on and the model is installed.
    pub fn embedder(&self) -> Option<memory_embed::Embedder> {
        memory_embed::Embedder::open(&self.semantic_model()?).ok()
    }

    /// The folder of the embedding model retrieval by meaning uses: `None` when it is turned off
    /// or no complete model is installed there.
    pub fn semantic_model(&self) -> Option<PathBuf> {
        let dir = self.model_dir();
        (self.retrieval.semantic != Semantic::Off && memory_embed::is_installed(&dir)).then_some(dir)
    }

    /// The SQLite database file.
    pub fn sqlite_path(&self) -> PathBuf {
        self.store.sqlite.path.clone().unwrap_or_else(|| self.data_dir().join("memory.db"))
    }

    /// Whether hooks journal every event for the forwarder and read notes from the local copy
    /// ([`crate::forward`]): a server store in [`StoreMode::Forward`].
    pub fn forwards(&self) -> bool {
        self.store.backend == Backend::Neo4j && self.store.mode == StoreMode::Forward
    }

    /// The forwarder's folder: its single-flight lock and its last run ([`crate::forward`]).
    pub fn forward_dir(&self) -> PathBuf {
        self.data_dir().join("forward")
    }

    /// The local copy of a server store's notes and their embeddings that hooks read in forward
    /// mode ([`crate::replica`]).
    pub fn replica_path(&self) -> PathBuf {
        self.data_dir().join("replica.db")
    }

    /// The journal's folder.
    pub fn journal_dir(&self) -> PathBuf {
        self.data_dir().join("journal")
    }

    /// The hook log's folder.
    pub fn log_dir(&self) -> PathBuf {
        self.data_dir().join("logs")
    }

    /// The folder of the once-per-session injection ledgers.
    pub fn sessions_dir(&self) -> PathBuf {
        self.data_dir().join("sessions")
    }

    /// The folder the hooks and the dream share: the dream's lock, the count of events waiting
    /// for it, and its last run ([`crate::autodream`]).
    pub fn dream_dir(&self) -> PathBuf {
        self.data_dir().join("dream")
    }
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
        assert_eq!(config.hook.inject_deadline(), Duration::from_millis(1_000));
        assert!(config.forwards(), "a server store forwards by default");
        let direct = Config::parse("[store]\nbackend = \"neo4j\"\nmode = \"direct\"\n").unwrap();
        assert!(!direct.forwards());
        assert!(!Config::parse("").unwrap().forwards(), "the embedded store is written directly");
    }

    #[test]
    fn custom_redaction_rules_reach_the_redactor_and_stay_out_of_debug() {
        let config = Config::parse(
            r#"
            [[redact.patterns]]
            name = "acme-token"
            pattern = "acme_[a-z]+_[0-9a-f]{8,}"
            [[redact.values]]
            name = "wifi"
            value = "Tr0ub4dor-and-3"
            "#,
        )
        .unwrap();
        assert!(!format!("{config:?}").contains("Tr0ub4dor"));
        let out = config.redactor().redact_text("acme_int_0a1b2c3d4e and Tr0ub4dor-and-3").into_owned();
        assert_eq!(out, "[REDACTED:acme-token] and [REDACTED:wifi]");
        let broken = Config::parse("[[redact.patterns]]\nname = \"x\"\npattern = \"(\"\n").unwrap();
        let err = broken.redact.rules().unwrap_err().to_string();
        assert!(err.contains("`x`"), "{err}");
    }

    #[test]
    fn the_dream_runs_by_itself_by_default_and_llms_only_within_a_cap() {
        let config = Config::parse("").unwrap();
        assert!(config.dream.auto);
        assert_eq!((config.dream.auto_after_events, config.dream.auto_max_seconds), (200, 120));
        assert!(config.dream.auto_allowed(), "the deterministic provider needs no cap");
        let llm = Config::parse("[dream]\nprovider = \"anthropic\"\nauto_after_events = 50\n").unwrap();
        assert_eq!(llm.dream.auto_after_events, 50);
        assert!(!llm.dream.auto_allowed(), "an LLM without a spending cap does not dream by itself");
        let capped = Config::parse("[dream]\nprovider = \"openai\"\nmax_cost_usd = 0.25\n").unwrap();
        assert!(capped.dream.auto_allowed());
        assert!(!Config::parse("[dream]\nauto = false\n").unwrap().dream.auto);
    }

    #[test]
    fn rejects_unknown_keys_with_their_name() {
        let err = Config::parse("[hook]\ndeadline = 5\n").unwrap_err().to_string();
        assert!(err.contains("deadline"), "{err}");
    }
}
