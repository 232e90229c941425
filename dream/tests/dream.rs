//! Integration tests of the dream: the run loop, the deterministic distiller, the wire formats of
//! the API providers against local HTTP servers, and the harness command lines against stand-in
//! executables.

#[path = "dream/support.rs"]
mod support;

#[path = "dream/http_server.rs"]
mod http_server;

#[path = "dream/schema.rs"]
mod schema;

#[path = "dream/deterministic.rs"]
mod deterministic;

#[path = "dream/run_loop.rs"]
mod run_loop;

#[path = "dream/properties.rs"]
mod properties;

#[path = "dream/anthropic.rs"]
mod anthropic;

#[path = "dream/openai.rs"]
mod openai;

#[path = "dream/harness_cli.rs"]
mod harness_cli;

#[path = "dream/redaction.rs"]
mod redaction;

#[path = "dream/said.rs"]
mod said;

#[path = "dream/scenarios.rs"]
mod scenarios;

#[path = "dream/work.rs"]
mod work;

#[path = "dream/llm_rules.rs"]
mod llm_rules;

#[path = "dream/everywhere.rs"]
mod everywhere;
#[path = "dream/fixes.rs"]
mod fixes;
