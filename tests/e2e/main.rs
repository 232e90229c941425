//! Workspace end-to-end tests: the built `agent-memory` binary, spawned as each harness would
//! spawn it, against real stores.

mod auto_dream;
mod by_hand;
mod cline;
mod control;
mod cross_harness;
mod distribution;
mod dream_kill;
mod droid;
#[path = "../shared/embedding_model.rs"]
mod embedding_model;
mod explain;
mod failure;
mod forward;
mod identity;
mod left_off;
mod local_llm;
mod machines;
mod mcp;
mod meaning;
mod memory;
mod migrate;
mod model_server;
mod more_clis;
mod neo4j_restart;
mod opencode;
mod output;
mod people;
mod privacy;
mod purge;
mod real_clis;
mod redaction_sweep;
mod setup;
mod support;
mod team;
mod tool_time;
mod tree;
mod viewer;
mod what_lasts;
mod write_paths;
