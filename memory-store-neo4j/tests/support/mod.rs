//! The test server the Neo4j tests connect to, shared by the test binaries.
#![allow(clippy::print_stderr)]

use std::io::Write;
use std::sync::Once;
use std::time::Duration;

use memory_store_neo4j::{Neo4jConfig, Neo4jStore};
use neo4rs::{ConfigBuilder, Graph};

/// Settings for the test server, or `None` (after one skip line) when none is configured.
pub(crate) fn server() -> Option<Neo4jConfig> {
    let uri = std::env::var("NEO4J_TEST_URI").ok().filter(|u| !u.is_empty());
    let Some(uri) = uri else {
        assert!(
            std::env::var_os("CI").is_none(),
            "NEO4J_TEST_URI is not set but CI is: the Neo4j store tests must run in CI. \
             Run them with `scripts/neo4j-test-server run -- cargo test -p agent-memory-store-neo4j`."
        );
        static SKIP: Once = Once::new();
        SKIP.call_once(|| {
            // Written to the real stderr, past the test harness's output capture, so it is seen.
            let _ = writeln!(
                std::io::stderr(),
                "memory-store-neo4j: NEO4J_TEST_URI is not set; skipping the Neo4j tests \
                 (run them with scripts/neo4j-test-server run -- cargo test -p agent-memory-store-neo4j)"
            );
        });
        return None;
    };
    let user = std::env::var("NEO4J_TEST_USER").unwrap_or_else(|_| "neo4j".to_owned());
    let pass = std::env::var("NEO4J_TEST_PASS").unwrap_or_default();
    let mut config = Neo4jConfig::new(uri, user, pass);
    config.connect_timeout = Duration::from_secs(20);
    config.query_timeout = Duration::from_secs(60);
    Some(config)
}

pub(crate) async fn connect(config: &Neo4jConfig) -> Neo4jStore {
    Neo4jStore::connect(config).await.unwrap_or_else(|e| panic!("connect to {}: {e}", config.uri))
}

/// A plain driver connection, to inspect the graph the store wrote.
pub(crate) fn raw(config: &Neo4jConfig) -> Graph {
    let built = ConfigBuilder::default()
        .uri(config.uri.as_str())
        .user(config.username.as_str())
        .password(config.password.as_str())
        .build()
        .expect("driver config");
    Graph::connect(built).expect("driver")
}
