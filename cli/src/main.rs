//! The `agent-memory` binary.
fn main() {}
