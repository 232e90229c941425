//! memory-store-neo4j.
