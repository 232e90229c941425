//! Workspace end-to-end tests: the built `agent-memory` binary, spawned as each harness would
//! spawn it, against real stores.

mod cross_harness;
mod dream_kill;
mod failure;
mod local_llm;
mod mcp;
mod migrate;
mod neo4j_restart;
mod support;
mod tree;
