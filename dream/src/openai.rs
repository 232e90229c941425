//! The OpenAI-compatible chat-completions provider, with a strict `json_schema` response format.
//!
//! Works with OpenAI and with local servers speaking the same protocol: Ollama (`/v1`), llama.cpp's
//! `llama-server`, vLLM and LM Studio.
//!
//! Local servers get a bounded copy of the schema: they turn it into a grammar that constrains
//! decoding, and without length and count bounds a small model can repeat itself inside one string
//! until its context is full. OpenAI's strict mode rejects those keywords, so it gets the plain schema.

use std::fmt;
use std::time::Duration;

use memory_core::Scope;
use serde_json::{Value, json};

use crate::http::{self, RetryPolicy};
use crate::{
    DreamRequest, Error, Operations, Pricing, Provider, ProviderReply, Result, SCHEMA_NAME, Usage, prompt,
};

/// Settings of [`OpenAiProvider`].
#[derive(Clone)]
pub struct OpenAiConfig {
    /// The API key, sent as `Authorization: Bearer …`; `None` for local servers without auth.
    pub api_key: Option<String>,
    /// Base URL including the version folder (default `https://api.openai.com/v1`; Ollama:
    /// `http://localhost:11434/v1`).
    pub base_url: String,
    /// The model (default `gpt-4.1-mini`).
    pub model: String,
    /// Prices; `None` uses the built-in table for `api.openai.com` and free for other servers.
    pub pricing: Option<Pricing>,
    /// Timeout of one HTTP request.
    pub timeout: Duration,
    /// Retries of rate limits, server errors and timeouts.
    pub retry: RetryPolicy,
}

impl fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiConfig")
            .field("api_key", &http::redacted(self.api_key.as_ref()))
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("pricing", &self.pricing)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish()
    }
}

/// Environment variable holding the API key (optional).
pub const OPENAI_API_KEY_VAR: &str = "OPENAI_API_KEY";
/// Environment variable overriding the base URL.
pub const OPENAI_BASE_URL_VAR: &str = "OPENAI_BASE_URL";
/// Environment variable choosing the model.
pub const OPENAI_MODEL_VAR: &str = "AGENT_MEMORY_OPENAI_MODEL";

impl OpenAiConfig {
    /// The default model.
    pub const DEFAULT_MODEL: &'static str = "gpt-4.1-mini";
    /// The default base URL.
    pub const DEFAULT_BASE_URL: &'static str = "https://api.openai.com/v1";

    /// A configuration for `model` at `base_url`, without a key.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            api_key: None,
            base_url: base_url.into(),
            model: model.into(),
            pricing: None,
            timeout: Duration::from_secs(180),
            retry: RetryPolicy::default(),
        }
    }

    /// Reads `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `AGENT_MEMORY_OPENAI_MODEL`,
    /// `AGENT_MEMORY_PRICE_INPUT_PER_MTOK` + `AGENT_MEMORY_PRICE_OUTPUT_PER_MTOK` and
    /// `AGENT_MEMORY_DREAM_TIMEOUT_SECS` from the process environment.
    pub fn from_env() -> Result<Self> {
        Self::from_env_with(&|name| std::env::var(name).ok())
    }

    /// Like [`OpenAiConfig::from_env`], reading variables through `env`.
    pub fn from_env_with(env: &dyn Fn(&str) -> Option<String>) -> Result<Self> {
        let base_url =
            http::non_empty(env(OPENAI_BASE_URL_VAR)).unwrap_or_else(|| Self::DEFAULT_BASE_URL.to_owned());
        let model = http::non_empty(env(OPENAI_MODEL_VAR)).unwrap_or_else(|| Self::DEFAULT_MODEL.to_owned());
        let mut config = Self::new(base_url, model);
        config.api_key = http::non_empty(env(OPENAI_API_KEY_VAR));
        if config.api_key.is_none() && config.is_official() {
            return Err(Error::config(
                "openai",
                format!("set {OPENAI_API_KEY_VAR} (or {OPENAI_BASE_URL_VAR} for a local server)"),
            ));
        }
        config.pricing = http::price_from_env("openai", env)?;
        if let Some(secs) = http::parse_setting::<f64>("openai", http::TIMEOUT_VAR, env(http::TIMEOUT_VAR))? {
            config.timeout = Duration::from_secs_f64(secs.max(0.001));
        }
        Ok(config)
    }

    fn is_official(&self) -> bool {
        self.base_url.contains("api.openai.com")
    }
}

/// Calls `POST {base_url}/chat/completions` with `response_format` `json_schema` (strict).
#[derive(Debug)]
pub struct OpenAiProvider {
    config: OpenAiConfig,
    client: reqwest::Client,
}

impl OpenAiProvider {
    /// A provider with the given configuration.
    pub fn new(config: OpenAiConfig) -> Result<Self> {
        let client = http::client("openai", config.timeout)?;
        Ok(Self { config, client })
    }

    /// The JSON body sent for a request: the request's schema as is for the official API, a bounded
    /// copy (see the module docs) and a lower `max_tokens` for every other server.
    pub fn request_body(&self, request: &DreamRequest) -> Value {
        let (schema, max_tokens) = if self.config.is_official() {
            (request.schema.clone(), request.limits.max_output_tokens)
        } else {
            (bounded_schema(request), request.limits.max_output_tokens.min(LOCAL_MAX_TOKENS))
        };
        json!({
            "model": self.config.model,
            "messages": [
                {"role": "system", "content": prompt::system_prompt()},
                {"role": "user", "content": prompt::user_prompt(request)}
            ],
            "temperature": 0,
            "max_tokens": max_tokens,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "strict": true, "schema": schema}
            }
        })
    }
}

/// Most output tokens asked of a local server (the bounded schema fits well within it).
const LOCAL_MAX_TOKENS: u64 = 2048;
/// Most operations a local server may return in one answer.
const LOCAL_MAX_OPERATIONS: usize = 3;
/// Longest path, scope, title and description a local server may write, in characters.
const LOCAL_MAX_LINE: u64 = 80;
/// Longest reason, in characters.
const LOCAL_MAX_REASON: u64 = 200;
/// Longest note body, in characters.
const LOCAL_MAX_BODY: u64 = 600;
/// Most tags, and the longest tag in characters.
const LOCAL_MAX_TAGS: u64 = 4;
const LOCAL_MAX_TAG: u64 = 24;
/// Most sources of one operation.
const LOCAL_MAX_SOURCES: u64 = 4;

/// Paths offered for new notes of a scope on a local server, below the project folder for a project.
const USER_PATHS: &[&str] =
    &["profile/role.md", "profile/preferences.md", "tools/commands.md", "errors/known-errors.md"];
const PROJECT_PATHS: &[&str] = &["conventions.md", "commands.md", "errors.md", "hot-files.md"];

/// A copy of the request's schema with bounds a local server enforces while decoding: few
/// operations, short strings, few tags, and one to a few `sources` limited to the ids of the chunk's
/// events, a non-empty title and body. Each operation is one of a set of shapes: per allowed scope,
/// `create` at a conventional path that does not exist yet, and `update` of one of the scope's current
/// notes (deleting is left to the full schema of capable providers). No `pattern` is added: a regex grammar
/// makes small models loop. Validation in Rust still checks everything.
fn bounded_schema(request: &DreamRequest) -> Value {
    let mut schema = request.schema.clone();
    let max_operations = request.limits.max_operations.min(LOCAL_MAX_OPERATIONS);
    let max_body = (request.limits.max_body_bytes as u64).min(LOCAL_MAX_BODY);
    let Some(operations) = schema.pointer_mut("/properties/operations") else {
        return schema;
    };
    insert(operations, "maxItems", json!(max_operations));
    let Some(item) = operations.get_mut("items") else {
        return schema;
    };
    if let Some(Value::Object(fields)) = item.get_mut("properties") {
        for (name, max) in [
            ("path", LOCAL_MAX_LINE),
            ("scope", LOCAL_MAX_LINE),
            ("title", LOCAL_MAX_LINE),
            ("description", LOCAL_MAX_LINE),
            ("reason", LOCAL_MAX_REASON),
            ("body", max_body),
        ] {
            if let Some(field) = fields.get_mut(name) {
                insert(field, "maxLength", json!(max));
            }
        }
        if let Some(tags) = fields.get_mut("tags") {
            insert(tags, "maxItems", json!(LOCAL_MAX_TAGS));
            if let Some(tag) = tags.get_mut("items") {
                insert(tag, "maxLength", json!(LOCAL_MAX_TAG));
            }
        }
        let ids: Vec<&str> = request.events.iter().map(|e| e.event.id.0.as_str()).collect();
        if let Some(sources) = fields.get_mut("sources") {
            insert(sources, "minItems", json!(1));
            insert(sources, "maxItems", json!(LOCAL_MAX_SOURCES));
            if let (Some(source), false) = (sources.get_mut("items"), ids.is_empty()) {
                insert(source, "enum", json!(ids));
            }
        }
    }
    // Shapes only create and update, which need a title, a kind and a body: no nulls there.
    for name in ["title", "body"] {
        if let Some(field) = item.pointer_mut(&format!("/properties/{name}")) {
            insert(field, "type", json!("string"));
            insert(field, "minLength", json!(1));
        }
    }
    if let Some(Value::Array(kinds)) = item.pointer_mut("/properties/kind/enum") {
        kinds.retain(|k| !k.is_null());
        if let Some(field) = item.pointer_mut("/properties/kind") {
            insert(field, "type", json!("string"));
        }
    }
    let mut shapes = Vec::new();
    for scope in &request.allowed_scopes {
        let (existing, fresh) = local_paths(request, scope);
        for (paths, action) in [(fresh, "create"), (existing, "update")] {
            if paths.is_empty() {
                continue;
            }
            let mut shape = item.clone();
            for (field, allowed) in [("scope", json!([scope.to_string()])), ("path", json!(paths))] {
                if let Some(field) = shape.pointer_mut(&format!("/properties/{field}")) {
                    insert(field, "enum", allowed);
                }
            }
            if let Some(field) = shape.pointer_mut("/properties/action") {
                *field = json!({"type": "string", "enum": [action]});
            }
            shapes.push(shape);
        }
    }
    if !shapes.is_empty() {
        *item = json!({"anyOf": shapes});
    }
    schema
}

/// The paths a local server may write in `scope`: its current notes (to update) and the
/// conventional paths that do not exist yet (to create).
fn local_paths(request: &DreamRequest, scope: &Scope) -> (Vec<String>, Vec<String>) {
    let existing: Vec<String> =
        request.notes.iter().filter(|n| &n.meta.scope == scope).map(|n| n.path.to_string()).collect();
    let conventional: Vec<String> = match scope {
        Scope::Project(id) => {
            let folder = request.project_folder().unwrap_or_else(|| crate::project_folder(id, None));
            PROJECT_PATHS.iter().map(|name| format!("{folder}/{name}")).collect()
        }
        _ => USER_PATHS.iter().map(|path| (*path).to_owned()).collect(),
    };
    let fresh = conventional.into_iter().filter(|path| !existing.contains(path)).collect();
    (existing, fresh)
}

fn insert(schema: &mut Value, keyword: &str, value: Value) {
    if let Value::Object(map) = schema {
        map.insert(keyword.to_owned(), value);
    }
}

#[async_trait::async_trait]
impl Provider for OpenAiProvider {
    fn name(&self) -> String {
        format!("openai:{}", self.config.model)
    }

    fn pricing(&self) -> Option<Pricing> {
        match self.config.pricing {
            Some(pricing) => Some(pricing),
            None if self.config.is_official() => Pricing::for_model(&self.config.model),
            None => Some(Pricing::FREE),
        }
    }

    async fn propose(&self, request: &DreamRequest) -> Result<ProviderReply> {
        let name = self.name();
        let url = format!("{}/chat/completions", self.config.base_url.trim_end_matches('/'));
        let mut headers = Vec::new();
        if let Some(key) = &self.config.api_key {
            headers.push(("authorization", format!("Bearer {key}")));
        }
        let body = self.request_body(request);
        let response =
            http::post_json(&self.client, &name, &url, &headers, &body, &self.config.retry).await?;
        let count =
            |key: &str| response.pointer(&format!("/usage/{key}")).and_then(Value::as_u64).unwrap_or(0);
        let usage = Usage {
            input_tokens: count("prompt_tokens"),
            output_tokens: count("completion_tokens"),
            cost_usd: None,
        };
        let invalid = |message: String| Error::invalid_output(&name, message, usage);
        let choice = response
            .pointer("/choices/0")
            .ok_or_else(|| invalid("the response has no choices".to_owned()))?;
        if let Some(refusal) = choice.pointer("/message/refusal").and_then(Value::as_str) {
            return Err(invalid(format!("the model refused: {refusal}")));
        }
        if choice.get("finish_reason").and_then(Value::as_str) == Some("length") {
            return Err(invalid(format!(
                "the answer was cut off (at max_tokens {} or the server's context limit); write fewer \
                 or shorter operations",
                body["max_tokens"]
            )));
        }
        let content = choice
            .pointer("/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("the message has no text content".to_owned()))?;
        let operations: Operations = serde_json::from_str(content.trim())
            .map_err(|e| invalid(format!("the answer is not valid operations JSON: {e}")))?;
        Ok(ProviderReply { operations, usage })
    }
}
