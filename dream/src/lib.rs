//! The dream: distils logged agent events into Markdown notes.
//!
//! [`run`] reads the events after each group's watermark from a [`memory_core::MemoryStore`], hands
//! them in chunks, together with the current notes, to a [`Provider`], validates the proposed
//! [`NoteOperation`]s in Rust, renders the frontmatter itself, and commits each chunk's changes with
//! its watermark in one atomic step.
//!
//! Providers:
//! - [`DeterministicProvider`] (no LLM, the default): what the user states (preferences, rules,
//!   conventions, facts, in their scope, corrections replacing what they correct), and what the agent
//!   ran (commands, each program's flags, hot files, error→fix pairs naming the fix),
//!   byte-identical for identical input;
//! - [`AnthropicProvider`]: the Anthropic Messages API with a forced, strict tool;
//! - [`OpenAiProvider`]: any OpenAI-compatible chat-completions server with a strict `json_schema`
//!   response format (OpenAI, Ollama, llama.cpp, vLLM, LM Studio);
//! - [`HarnessCliProvider`]: the user's own `claude` or `codex` command line, headless.
//!
//! Validation also holds every provider to the scope rules and correction semantics where they can
//! be checked: a `profile/` note gets no line worded for the project and is not made only of
//! statements worded for it, and a rewritten note keeps no line a correction in the chunk
//! superseded.
//!
//! Notes a person edited (generator `human`) are merged, never replaced: providers see them marked as
//! human-edited, deleting them is rejected, an update must keep every line of the person's body, and
//! the merged version keeps the generator `human` (so later runs keep protecting it).

mod anthropic;
mod deterministic;
mod diff;
mod error;
mod events_text;
mod evidence;
mod harness_cli;
mod http;
mod meaning;
mod openai;
mod operation;
mod options;
mod progress;
pub mod prompt;
mod provider;
mod relocate;
mod report;
mod request;
mod run;
mod statements;
mod validate;
mod values;

pub use anthropic::{
    ANTHROPIC_API_KEY_VAR, ANTHROPIC_BASE_URL_VAR, ANTHROPIC_MODEL_VAR, ANTHROPIC_VERSION, AnthropicConfig,
    AnthropicProvider,
};
pub use deterministic::DeterministicProvider;
pub use deterministic::fixes::{ShellRun, passes, shell_run};
pub use deterministic::sightings::{Sightings, has_items, sightings, without_sightings};
pub use diff::unified_diff;
pub use error::{Error, Result};
pub use events_text::render_events;
pub use harness_cli::{HarnessCliConfig, HarnessCliProvider, HarnessKind};
pub use http::{PRICE_INPUT_VAR, PRICE_OUTPUT_VAR, RetryPolicy, TIMEOUT_VAR};
pub use meaning::Meaning;
pub use openai::{OPENAI_API_KEY_VAR, OPENAI_BASE_URL_VAR, OPENAI_MODEL_VAR, OpenAiConfig, OpenAiProvider};
pub use operation::{Action, NoteOperation, Operations, SCHEMA_NAME, operations_schema};
pub use options::{DreamOptions, SCANNED_WATERMARK, ScopeFilter, watermark_name};
pub use progress::{ChunkOutcome, NoProgress, Progress};
pub use provider::Provider;
pub use relocate::relocate;
pub use report::{ChunkFailure, DreamReport, PlannedChange, StopReason};
pub use request::{DreamRequest, Limits, Pricing, ProviderReply, Usage};
pub use run::{event_group, run};
pub use statements::{Reach, Why, carries_secret, filed, sentences, worth_quoting};
pub use validate::{MAX_SOURCES, USER_FOLDERS, project_folder};

/// The environment variable set for harness processes the dream starts, so agent-memory's own hooks
/// do not record the dream's sessions.
pub const DREAM_ENV_VAR: &str = "AGENT_MEMORY_DREAM";
