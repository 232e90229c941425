//! The errors of the hook runtime.

use std::path::PathBuf;

/// What can go wrong in the hook runtime. Every message is one line, safe to print: no payload
/// value is quoted in it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The configuration file does not parse.
    #[error("config file {} is invalid: {message}; fix or remove it", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// The configuration file named by `AGENT_MEMORY_CONFIG` cannot be read.
    #[error("cannot read config file {} (from AGENT_MEMORY_CONFIG): {cause}", path.display())]
    ConfigUnreadable {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// An environment variable has a value that cannot be used.
    #[error("{name}: {message}")]
    Env {
        /// The variable.
        name: &'static str,
        /// What is wrong with its value.
        message: String,
    },
    /// The journal could not be read or written.
    #[error("journal {}: {cause}", path.display())]
    Journal {
        /// The file or folder.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// A store call failed.
    #[error(transparent)]
    Store(#[from] memory_core::Error),
    /// The project registry could not be read or written.
    #[error("project registry {}: {cause}", path.display())]
    Registry {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// The project registry does not parse.
    #[error(
        "project registry {} is invalid: {message}; fix it, or remove it and hooks record projects again",
        path.display()
    )]
    RegistryFormat {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// A command named a project nobody knows.
    #[error("{}", unknown_project(name, known))]
    UnknownProject {
        /// What was given.
        name: String,
        /// Every known project, as `name (id)`.
        known: Vec<String>,
    },
    /// A project name that cannot be used.
    #[error("project name `{name}` {problem}")]
    ProjectName {
        /// The name.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A merge of a project into itself.
    #[error("`{from}` and `{into}` are the same project ({id})")]
    SameProject {
        /// The project given first.
        from: String,
        /// The project given second.
        into: String,
        /// Their id.
        id: String,
    },
    /// The pause state (`capture.json`) does not parse.
    #[error("pause state {} is invalid: {message}; run `agent-memory resume` to reset it", path.display())]
    CaptureState {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// A length of time that cannot be read.
    #[error("`{text}` is not a length of time: write it as `30m`, `2h`, `1d` or `1h30m`")]
    Length {
        /// What was given.
        text: String,
    },
    /// A session key that names no session, or more than one.
    #[error("{message}")]
    Session {
        /// What went wrong, with the candidates when there are several.
        message: String,
    },
    /// A forget that cannot run as asked.
    #[error("{0}")]
    Forget(String),
    /// Journaled events were still waiting when a delivery's time ran out.
    #[error("{waiting} events still wait for delivery after {}s; last failure: {cause}", waited.as_secs())]
    Timeout {
        /// How long it tried.
        waited: std::time::Duration,
        /// Events still waiting.
        waiting: usize,
        /// The last failure, or what was under way.
        cause: String,
    },
    /// The config names a dream provider that does not exist.
    #[error(
        "config `dream.provider = \"{name}\"` is not one of deterministic, anthropic, openai, claude-cli, codex-cli"
    )]
    DreamProvider {
        /// The name configured.
        name: String,
    },
    /// A dream provider cannot be set up (a missing API key, an unknown price with a cost cap).
    #[error(transparent)]
    Dream(#[from] dream::Error),
    /// The dream's run stopped with an error; what it committed before stays.
    #[error("dream run failed")]
    DreamRun(#[source] dream::Error),
    /// Notes could not be embedded.
    #[error("embedding notes")]
    Embed(#[source] memory_embed::Error),
    /// The caller's store could not be opened.
    #[error(transparent)]
    OpenStore(Box<dyn std::error::Error + Send + Sync>),
    /// A task waiting on another thread (for the dream lock) ended without an answer.
    #[error(transparent)]
    Task(#[from] tokio::task::JoinError),
    /// A file the runtime keeps (a ledger, a context file) could not be written.
    #[error("{}: {cause}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
    /// A shared notes folder could not be read or written.
    #[error("shared notes: {0}")]
    Share(#[from] memory_tree::Error),
    /// `[share] notes` names a folder outside the project.
    #[error(
        "`{folder}` is not a folder inside the project; give a relative path such as `.agent-memory/notes`"
    )]
    ShareFolder {
        /// What was given.
        folder: String,
    },
    /// The project file (`.agent-memory.toml`) could not be read, parsed or written.
    #[error("{}: {cause}", path.display())]
    ProjectFile {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so it is not also a source).
        cause: std::io::Error,
    },
}

fn unknown_project(name: &str, known: &[String]) -> String {
    if known.is_empty() {
        return format!(
            "no project `{name}`: no project is known yet (a hook records one when a session starts in its folder)"
        );
    }
    format!("no project `{name}`; known projects: {}; `agent-memory projects` lists them", known.join(", "))
}

/// The runtime's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |cause| Self::Io { path, cause }
    }

    pub(crate) fn journal(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |cause| Self::Journal { path, cause }
    }
}
