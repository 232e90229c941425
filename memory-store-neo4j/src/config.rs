//! Connection settings: from the environment or from a TOML table, never showing the password.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use crate::STORE_NAME;

/// Environment variable holding the Bolt URI (`bolt://127.0.0.1:7687`).
pub const ENV_URI: &str = "NEO4J_URI";
/// Environment variable holding the user name (default `neo4j`).
pub const ENV_USERNAME: &str = "NEO4J_USERNAME";
/// Environment variable holding the password (default empty, for servers without auth).
pub const ENV_PASSWORD: &str = "NEO4J_PASSWORD";
/// Environment variable naming the database (default: the server's default database).
pub const ENV_DATABASE: &str = "NEO4J_DATABASE";

/// Default time allowed to open a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Default time allowed for one store operation.
pub const DEFAULT_QUERY_TIMEOUT: Duration = Duration::from_secs(30);

const SCHEMES: &[&str] = &["bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc"];

/// How to reach a Neo4j server.
///
/// Read it with [`Neo4jConfig::from_env`] or deserialize it from a TOML table:
///
/// ```toml
/// uri = "bolt://127.0.0.1:7687"
/// username = "neo4j"          # optional, default "neo4j"
/// password = "secret"         # optional, default empty
/// database = "neo4j"          # optional, default: the server's default database
/// connect_timeout = "5s"      # optional: seconds as a number, or "250ms", "5s", "2m"
/// query_timeout = 30          # optional, default 30 s
/// ```
///
/// `Debug` never shows the password, and no error this crate returns contains it.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Neo4jConfig {
    /// Bolt URI: `bolt://`, `bolt+s://`, `bolt+ssc://`, or the `neo4j` variants.
    pub uri: String,
    /// User name.
    #[serde(default = "default_username")]
    pub username: String,
    /// Password; empty for a server with authentication off.
    #[serde(default)]
    pub password: String,
    /// Database name; `None` uses the server's default database.
    #[serde(default)]
    pub database: Option<String>,
    /// Time allowed to open a connection and check that the server answers.
    #[serde(default = "default_connect_timeout", deserialize_with = "duration")]
    pub connect_timeout: Duration,
    /// Time allowed for one store operation (one `MemoryStore` call), retries included.
    #[serde(default = "default_query_timeout", deserialize_with = "duration")]
    pub query_timeout: Duration,
}

fn default_username() -> String {
    "neo4j".to_owned()
}

fn default_connect_timeout() -> Duration {
    DEFAULT_CONNECT_TIMEOUT
}

fn default_query_timeout() -> Duration {
    DEFAULT_QUERY_TIMEOUT
}

impl Neo4jConfig {
    /// Settings for a URI and credentials, with the default database and timeouts.
    pub fn new(uri: impl Into<String>, username: impl Into<String>, password: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            username: username.into(),
            password: password.into(),
            database: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            query_timeout: DEFAULT_QUERY_TIMEOUT,
        }
    }

    /// Reads `NEO4J_URI` (required), `NEO4J_USERNAME`, `NEO4J_PASSWORD` and `NEO4J_DATABASE`.
    pub fn from_env() -> memory_core::Result<Self> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// Like [`Neo4jConfig::from_env`], reading variables through `lookup`.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> memory_core::Result<Self> {
        let uri = lookup(ENV_URI).filter(|uri| !uri.trim().is_empty()).ok_or_else(|| {
            config_error(format!("{ENV_URI} is not set (for example bolt://127.0.0.1:7687)"))
        })?;
        let mut config = Self::new(
            uri,
            lookup(ENV_USERNAME).filter(|u| !u.is_empty()).unwrap_or_else(default_username),
            lookup(ENV_PASSWORD).unwrap_or_default(),
        );
        config.database = lookup(ENV_DATABASE).filter(|d| !d.is_empty());
        config.validate()?;
        Ok(config)
    }

    /// Checks the settings without contacting the server.
    pub fn validate(&self) -> memory_core::Result<()> {
        // Checked first: the messages below quote the uri.
        if !self.password.is_empty() && self.uri.contains(&self.password) {
            return Err(config_error("the password must not be part of the uri".to_owned()));
        }
        let scheme = self.uri.split_once("://").map(|(scheme, _)| scheme);
        if !scheme.is_some_and(|s| SCHEMES.contains(&s)) {
            return Err(config_error(format!(
                "uri {:?} must start with one of {}",
                self.uri,
                SCHEMES.iter().map(|s| format!("{s}://")).collect::<Vec<_>>().join(", ")
            )));
        }
        if self.username.is_empty() {
            return Err(config_error("username is empty".to_owned()));
        }
        if self.database.as_deref().is_some_and(str::is_empty) {
            return Err(config_error("database is empty (leave it out for the server's default)".to_owned()));
        }
        if self.connect_timeout.is_zero() || self.query_timeout.is_zero() {
            return Err(config_error("timeouts must be longer than zero".to_owned()));
        }
        Ok(())
    }
}

fn config_error(message: String) -> memory_core::Error {
    memory_core::Error::Config { store: STORE_NAME, message }
}

impl fmt::Debug for Neo4jConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Neo4jConfig")
            .field("uri", &self.uri)
            .field("username", &self.username)
            .field("password", &if self.password.is_empty() { "<empty>" } else { "<redacted>" })
            .field("database", &self.database)
            .field("connect_timeout", &self.connect_timeout)
            .field("query_timeout", &self.query_timeout)
            .finish()
    }
}

/// A duration written as seconds (`30`, `0.5`) or with a unit (`"250ms"`, `"5s"`, `"2m"`).
fn duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Seconds(f64),
        Text(String),
    }
    let bad =
        |what: &str| serde::de::Error::custom(format!("invalid duration {what:?}: use seconds or \"5s\""));
    match Raw::deserialize(deserializer)? {
        Raw::Seconds(secs) => Duration::try_from_secs_f64(secs).map_err(|_| bad(&secs.to_string())),
        Raw::Text(text) => parse_duration(&text).ok_or_else(|| bad(&text)),
    }
}

fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    let seconds = match unit.trim() {
        "ms" => value / 1000.0,
        "" | "s" => value,
        "m" => value * 60.0,
        _ => return None,
    };
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("5s"), Some(Duration::from_secs(5)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("7"), Some(Duration::from_secs(7)));
        assert_eq!(parse_duration("5h"), None);
        assert_eq!(parse_duration("soon"), None);
    }

    #[test]
    fn reads_variables_with_defaults() {
        let vars = |name: &str| match name {
            ENV_URI => Some("bolt://127.0.0.1:7687".to_owned()),
            ENV_PASSWORD => Some("hunter2-secret".to_owned()),
            _ => None,
        };
        let config = Neo4jConfig::from_vars(vars).expect("valid");
        assert_eq!(config.username, "neo4j");
        assert_eq!(config.database, None);
        assert_eq!(config.query_timeout, DEFAULT_QUERY_TIMEOUT);
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2-secret"), "Debug shows the password: {shown}");
        assert!(shown.contains("<redacted>"));
    }

    #[test]
    fn deserializes_from_toml() {
        let config: Neo4jConfig = toml::from_str(
            "uri = \"bolt://db:7687\"\npassword = \"toml-secret-1\"\ndatabase = \"memory\"\n\
             connect_timeout = \"250ms\"\nquery_timeout = 12\n",
        )
        .expect("valid toml");
        assert_eq!(config.uri, "bolt://db:7687");
        assert_eq!(config.username, "neo4j");
        assert_eq!(config.database.as_deref(), Some("memory"));
        assert_eq!(config.connect_timeout, Duration::from_millis(250));
        assert_eq!(config.query_timeout, Duration::from_secs(12));
        assert!(!format!("{config:?}").contains("toml-secret-1"));
        let minimal: Neo4jConfig = toml::from_str("uri = \"bolt://db\"").expect("only the uri");
        assert_eq!((minimal.password.as_str(), minimal.query_timeout), ("", DEFAULT_QUERY_TIMEOUT));
        let err = toml::from_str::<Neo4jConfig>("uri = \"bolt://db\"\nquery_timeout = \"soon\"")
            .expect_err("bad duration");
        assert!(err.to_string().contains("invalid duration"), "{err}");
        assert!(toml::from_str::<Neo4jConfig>("uri = \"bolt://db\"\nuser = \"x\"").is_err(), "unknown keys");
    }

    #[test]
    fn missing_uri_is_a_config_error() {
        let err = Neo4jConfig::from_vars(|_| None).expect_err("no uri");
        assert!(matches!(err, memory_core::Error::Config { store: "neo4j", .. }), "{err:?}");
        assert!(err.to_string().contains(ENV_URI));
    }

    #[test]
    fn rejects_bad_settings_without_showing_the_password() {
        let mut config = Neo4jConfig::new("http://localhost:7474", "neo4j", "pw-in-config-1");
        let err = config.validate().expect_err("http is not bolt");
        assert!(err.to_string().contains("bolt://"), "{err}");
        config.uri = "http://neo4j:pw-in-config-1@localhost".to_owned();
        let err = config.validate().expect_err("password in uri");
        assert!(!err.to_string().contains("pw-in-config-1"), "{err}");
        config.uri = "bolt://localhost".to_owned();
        config.query_timeout = Duration::ZERO;
        assert!(config.validate().is_err());
    }
}
