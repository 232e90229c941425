//! The `agent-memory` binary.

mod redact;

fn main() {}
