#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod batch;
mod codec;
mod config;
mod cypher;
mod error;
mod nodelay;
mod schema;
mod search;
mod store;

pub use config::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_QUERY_TIMEOUT, ENV_DATABASE, ENV_PASSWORD, ENV_URI, ENV_USERNAME,
    Neo4jConfig,
};
pub use error::Neo4jStoreError;
pub use store::Neo4jStore;

/// The store's name, as [`memory_core::MemoryStore::name`] reports it and errors name it.
pub const STORE_NAME: &str = "neo4j";
