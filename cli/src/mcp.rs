//! `agent-memory mcp`: the memory as a Model Context Protocol server over stdio.
//!
//! Agents that speak MCP (Claude Code, Codex, Cursor) can search, read, write and delete notes,
//! list them, list sessions, read a session's timeline, search history, ask where a note came
//! from, and forget (listing what would go until told to confirm). Stdout carries the
//! protocol and nothing else; every failure a tool meets is answered as an MCP tool error with a
//! message saying what to change, never as a crash.

mod params;
mod server;
mod summary;
mod tools;

use std::sync::Arc;

use anyhow::Context as _;
use memory_core::MemoryStore;
use memory_hook::project::Registry;
use rmcp::ServiceExt as _;

/// Serves MCP on stdin/stdout until the client disconnects. `project` alone names the project of
/// the folder the server runs in (harnesses start it in the session's folder).
pub(crate) async fn serve(store: Arc<dyn MemoryStore>, config: &memory_hook::Config) -> anyhow::Result<()> {
    let registry = Registry::new(&config.data_dir());
    let here = match std::env::current_dir() {
        Ok(cwd) => registry.lookup(&cwd).unwrap_or(None),
        Err(_) => None,
    };
    let memory = tools::Memory::new(store, registry, here)
        .redactor(config.redactor())
        .embedder(config.embedder())
        .files(config.clone(), memory_hook::Env::process());
    let service = server::MemoryServer::new(memory)
        .serve(rmcp::transport::stdio())
        .await
        .context("the MCP client did not complete the initialize handshake")?;
    service.waiting().await.context("the MCP session ended with an error")?;
    Ok(())
}
