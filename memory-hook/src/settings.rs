//! Every effective setting and where it came from: the built-in default, the config file, or an
//! environment variable. Secrets (the Neo4j and team passwords, `[redact] values`) are shown as set or not,
//! never in clear.

use serde_json::Value;

use crate::{Config, Env, Result};

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "from", content = "name")]
pub enum Source {
    /// The built-in default.
    Default,
    /// The config file.
    File,
    /// This environment variable.
    Env(&'static str),
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Default => f.write_str("default"),
            Self::File => f.write_str("config file"),
            Self::Env(name) => write!(f, "env {name}"),
        }
    }
}

/// One effective setting.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Setting {
    /// Its key in the config file, dotted (`hook.deadline_ms`).
    pub key: String,
    /// Its value (`null` when unset).
    pub value: Value,
    /// Where the value came from.
    pub source: Source,
}

/// The environment variables that override a setting, and the setting's key.
const ENV_KEYS: &[(&str, &str)] = &[
    ("AGENT_MEMORY_HOME", "data_dir"),
    ("AGENT_MEMORY_DB", "store.sqlite.path"),
    ("AGENT_MEMORY_STORE", "store.backend"),
    ("AGENT_MEMORY_STORE_MODE", "store.mode"),
    ("NEO4J_URI", "store.neo4j.uri"),
    ("NEO4J_USERNAME", "store.neo4j.username"),
    ("NEO4J_PASSWORD", "store.neo4j.password"),
    ("NEO4J_DATABASE", "store.neo4j.database"),
    ("AGENT_MEMORY_TEAM_PASSWORD", "team.password"),
    ("AGENT_MEMORY_HOOK_DEADLINE_MS", "hook.deadline_ms"),
    ("AGENT_MEMORY_HOOK_INJECT_DEADLINE_MS", "hook.inject_deadline_ms"),
];

/// Every setting the configuration loaded from `env` runs with, in the config file's order of
/// sections, each with its source.
pub fn settings(env: &Env) -> Result<Vec<Setting>> {
    let config = Config::load_from(env)?;
    let file: Option<toml::Table> =
        std::fs::read_to_string(crate::paths::config_file(env)).ok().and_then(|text| text.parse().ok());
    let effective = serde_json::to_value(&config).unwrap_or(Value::Null);
    let mut leaves = Vec::new();
    flatten(&effective, String::new(), &mut leaves);
    Ok(leaves
        .into_iter()
        .map(|(key, value)| {
            let from_env = ENV_KEYS.iter().find(|(name, k)| *k == key && env.get(name).is_some());
            let source = match from_env {
                Some((name, _)) => Source::Env(name),
                None if file.as_ref().is_some_and(|f| in_file(f, &key)) => Source::File,
                None => Source::Default,
            };
            Setting { value: hidden(&key, value), key, source }
        })
        .collect())
}

/// The leaves of `value` under dotted keys; a list is one leaf.
fn flatten(value: &Value, key: String, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if key.is_empty() { k.clone() } else { format!("{key}.{k}") };
                flatten(v, key, out);
            }
        }
        other => out.push((key, other.clone())),
    }
}

/// Whether the config file sets `key`.
fn in_file(file: &toml::Table, key: &str) -> bool {
    let mut parts = key.split('.');
    let Some(first) = parts.next() else { return false };
    let mut at = file.get(first);
    for part in parts {
        at = at.and_then(|v| v.as_table()).and_then(|t| t.get(part));
    }
    at.is_some()
}

/// `value` with secrets replaced by whether they are set.
fn hidden(key: &str, value: Value) -> Value {
    match (key, value) {
        ("store.neo4j.password" | "team.password", Value::String(_)) => Value::String("[set]".to_owned()),
        ("redact.values", Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|mut item| {
                    if let Some(v) = item.get_mut("value") {
                        *v = Value::String("[set]".to_owned());
                    }
                    item
                })
                .collect(),
        ),
        (_, value) => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_says_whether_the_default_the_file_or_the_environment_gave_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(
            &file,
            "[hook]\nprompt_budget = 900\n[store.neo4j]\npassword = \"hunter2\"\n[[redact.values]]\nname = \"pin\"\nvalue = \"4711\"\n",
        )
        .unwrap();
        let env = Env::from_pairs([
            ("AGENT_MEMORY_CONFIG", file.to_str().unwrap()),
            ("AGENT_MEMORY_HOME", dir.path().to_str().unwrap()),
            ("AGENT_MEMORY_HOOK_DEADLINE_MS", "4000"),
        ]);
        let all = settings(&env).unwrap();
        let get = |key: &str| all.iter().find(|s| s.key == key).unwrap_or_else(|| panic!("{key}: {all:?}"));
        assert_eq!(get("hook.prompt_budget").source, Source::File);
        assert_eq!(get("hook.prompt_budget").value, serde_json::json!(900));
        assert_eq!(get("hook.deadline_ms").source, Source::Env("AGENT_MEMORY_HOOK_DEADLINE_MS"));
        assert_eq!(get("hook.session_start_budget").source, Source::Default);
        assert_eq!(get("data_dir").source, Source::Env("AGENT_MEMORY_HOME"));
        let shown = serde_json::to_string(&all).unwrap();
        assert!(!shown.contains("hunter2") && !shown.contains("4711"), "{shown}");
    }
}
