//! The MCP protocol side: tool names, descriptions and schemas, routed to [`super::tools`].

use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use serde_json::Value;

use super::params::{
    ForgetParams, HistoryParams, ListParams, NoteRef, SearchParams, SessionsParams, TimelineParams,
    WriteParams,
};
use super::tools::{self, Memory, ToolError};

const INSTRUCTIONS: &str = "\
agent-memory is the user's own memory, shared by every coding agent they use. Notes are short \
Markdown documents filed at paths such as `profile/role.md` or `tools/cargo/test-flags.md` in a \
scope: `user` (everywhere), `project` (the current project), `project:<name>` (another \
project, by name or id) or `session:<key>`. Search before asking the user \
something they may have said before; write a note when you learn something durable about the \
user, a tool or a project. Rewrite a note in place rather than adding near-duplicates.";

/// The MCP server: a shared handle on the store and the projects.
#[derive(Debug, Clone)]
pub(crate) struct MemoryServer {
    memory: Arc<Memory>,
}

impl MemoryServer {
    pub(crate) fn new(memory: Memory) -> Self {
        Self { memory: Arc::new(memory) }
    }

    fn memory(&self) -> &Memory {
        &self.memory
    }
}

fn answer(result: Result<Value, ToolError>) -> Result<CallToolResult, ErrorData> {
    Ok(match result {
        Ok(value) => CallToolResult::structured(value),
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.0)]),
    })
}

#[tool_router]
impl MemoryServer {
    #[tool(description = "Search the user's notes by relevance to plain words (never query syntax). \
        Returns the best matches with their scope, path, title and a short excerpt; read_note gives \
        the full text. Optionally limit to scopes (`user`, `project` for the current project, `project:<name>`, \
        `session:<key>`).")]
    async fn search_notes(
        &self,
        Parameters(p): Parameters<SearchParams>,
    ) -> Result<CallToolResult, ErrorData> {
        answer(tools::search(self.memory(), p).await)
    }

    #[tool(description = "Read one note: its frontmatter (title, kind, tags, scope, generator, \
        updated), its Markdown body, and the whole document as stored.")]
    async fn read_note(&self, Parameters(p): Parameters<NoteRef>) -> Result<CallToolResult, ErrorData> {
        answer(tools::read(self.memory(), p).await)
    }

    #[tool(description = "Create or replace a note. The previous version is kept in the note's \
        history. Paths are lowercase segments ending in .md (`tools/cargo/test-flags.md`); kind is \
        profile, preference, convention, tool, procedure or fact; tags are lowercase slugs. Keep \
        notes short and rewrite them rather than appending.")]
    async fn write_note(&self, Parameters(p): Parameters<WriteParams>) -> Result<CallToolResult, ErrorData> {
        answer(tools::write(self.memory(), p).await)
    }

    #[tool(description = "Delete a note for good, with every previous version of it. Fails when \
        there is no note at that scope and path.")]
    async fn delete_note(&self, Parameters(p): Parameters<NoteRef>) -> Result<CallToolResult, ErrorData> {
        answer(tools::delete(self.memory(), p).await)
    }

    #[tool(description = "List notes (without bodies), ordered by scope then path. Optionally only \
        one scope and only paths under a prefix such as `tools/`.")]
    async fn list_notes(&self, Parameters(p): Parameters<ListParams>) -> Result<CallToolResult, ErrorData> {
        answer(tools::list(self.memory(), p).await)
    }

    #[tool(description = "A recorded session's events in order (prompts, tool calls and their \
        failures, session start and end), one summary line each. Session keys look like \
        `claude:<session id>`, `codex:<id>` or `cursor:<id>`.")]
    async fn session_timeline(
        &self,
        Parameters(p): Parameters<TimelineParams>,
    ) -> Result<CallToolResult, ErrorData> {
        answer(tools::timeline(self.memory(), p).await)
    }

    #[tool(description = "Explain where a note came from: the recorded events it was distilled \
        from (summarised), who wrote its current version, how many previous versions it has, and \
        for each item the sentence it was distilled from and why such a statement is kept in the \
        user's profile or in the project.")]
    async fn explain_note(&self, Parameters(p): Parameters<NoteRef>) -> Result<CallToolResult, ErrorData> {
        answer(tools::explain(self.memory(), p).await)
    }

    #[tool(description = "List recorded sessions, most recent first: key, harness, project, when \
        it started and last acted, how many events. Optionally one project (`project` for the \
        current one) or harness. Use session_timeline to read one.")]
    async fn list_sessions(
        &self,
        Parameters(p): Parameters<SessionsParams>,
    ) -> Result<CallToolResult, ErrorData> {
        answer(tools::sessions(self.memory(), p).await)
    }

    #[tool(description = "Search what happened in past sessions — prompts, shell commands, errors, \
        files written — by relevance to plain words, to answer \"what did we try last time?\". \
        Filter by project (`project` for the current one), harness, session and time (since/until: \
        a date, a time or `7d`). Each hit has its session, seq, time, a summary, an excerpt and a \
        relevance (1 for the best hit).")]
    async fn search_history(
        &self,
        Parameters(p): Parameters<HistoryParams>,
    ) -> Result<CallToolResult, ErrorData> {
        answer(tools::history(self.memory(), p).await)
    }

    #[tool(description = "Forget for good, when the user asks: the events holding a text (a \
        secret typed by mistake) and the notes holding it, a session, an event, a project, a note \
        with its history, or a time range — from the store, its indexes, the journal and the logs. \
        Without confirm: true nothing is deleted and the answer lists what would go; show it to \
        the user and confirm only with their agreement.")]
    async fn forget(&self, Parameters(p): Parameters<ForgetParams>) -> Result<CallToolResult, ErrorData> {
        answer(tools::forget(self.memory(), p).await)
    }
}

#[tool_handler]
impl ServerHandler for MemoryServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("agent-memory", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}
