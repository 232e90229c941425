//! Stores and finds a note with the in-memory store.
fn main() {}
