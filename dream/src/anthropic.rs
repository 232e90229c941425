//! The Anthropic Messages API provider: one forced, strict tool whose input is the operations.

use std::fmt;
use std::time::Duration;

use serde_json::{Value, json};

use crate::http::{self, RetryPolicy};
use crate::{
    DreamRequest, Error, Operations, Pricing, Provider, ProviderReply, Result, SCHEMA_NAME, Usage, prompt,
};

/// The API version header value sent.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// Settings of [`AnthropicProvider`].
#[derive(Clone)]
pub struct AnthropicConfig {
    /// The API key, sent as `x-api-key`.
    pub api_key: String,
    /// Base URL without `/v1` (default `https://api.anthropic.com`).
    pub base_url: String,
    /// The model (default `claude-sonnet-4-5`).
    pub model: String,
    /// Prices; `None` uses the built-in table ([`Pricing::for_model`]).
    pub pricing: Option<Pricing>,
    /// Timeout of one HTTP request.
    pub timeout: Duration,
    /// Retries of rate limits, server errors and timeouts.
    pub retry: RetryPolicy,
}

impl fmt::Debug for AnthropicConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnthropicConfig")
            .field("api_key", &"<redacted>")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("pricing", &self.pricing)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish()
    }
}

/// Environment variable holding the API key (required).
pub const ANTHROPIC_API_KEY_VAR: &str = "ANTHROPIC_API_KEY";
/// Environment variable overriding the base URL.
pub const ANTHROPIC_BASE_URL_VAR: &str = "ANTHROPIC_BASE_URL";
/// Environment variable choosing the model.
pub const ANTHROPIC_MODEL_VAR: &str = "AGENT_MEMORY_ANTHROPIC_MODEL";

impl AnthropicConfig {
    /// The default model.
    pub const DEFAULT_MODEL: &'static str = "claude-sonnet-4-5";

    /// A configuration with defaults for everything but the key.
    pub fn new(api_key: impl Into<String>) -> Self {
        Self {
            api_key: api_key.into(),
            base_url: "https://api.anthropic.com".to_owned(),
            model: Self::DEFAULT_MODEL.to_owned(),
            pricing: None,
            timeout: Duration::from_secs(180),
            retry: RetryPolicy::default(),
        }
    }

    /// Reads `ANTHROPIC_API_KEY` (required), `ANTHROPIC_BASE_URL`, `AGENT_MEMORY_ANTHROPIC_MODEL`,
    /// `AGENT_MEMORY_PRICE_INPUT_PER_MTOK` + `AGENT_MEMORY_PRICE_OUTPUT_PER_MTOK` and
    /// `AGENT_MEMORY_DREAM_TIMEOUT_SECS` from the process environment.
    pub fn from_env() -> Result<Self> {
        Self::from_env_with(&|name| std::env::var(name).ok())
    }

    /// Like [`AnthropicConfig::from_env`], reading variables through `env`.
    pub fn from_env_with(env: &dyn Fn(&str) -> Option<String>) -> Result<Self> {
        let api_key = http::non_empty(env(ANTHROPIC_API_KEY_VAR))
            .ok_or_else(|| Error::config("anthropic", format!("set {ANTHROPIC_API_KEY_VAR}")))?;
        let mut config = Self::new(api_key);
        if let Some(base_url) = http::non_empty(env(ANTHROPIC_BASE_URL_VAR)) {
            config.base_url = base_url;
        }
        if let Some(model) = http::non_empty(env(ANTHROPIC_MODEL_VAR)) {
            config.model = model;
        }
        config.pricing = http::price_from_env("anthropic", env)?;
        if let Some(secs) =
            http::parse_setting::<f64>("anthropic", http::TIMEOUT_VAR, env(http::TIMEOUT_VAR))?
        {
            config.timeout = Duration::from_secs_f64(secs.max(0.001));
        }
        Ok(config)
    }
}

/// Calls the Anthropic Messages API (`POST {base_url}/v1/messages`).
///
/// The prompt is laid out for caching: instructions (system, cached), current notes (cached), then
/// the events. The operations come back as the input of a forced strict tool named `write_notes`.
#[derive(Debug)]
pub struct AnthropicProvider {
    config: AnthropicConfig,
    client: reqwest::Client,
}

impl AnthropicProvider {
    /// A provider with the given configuration.
    pub fn new(config: AnthropicConfig) -> Result<Self> {
        let client = http::client("anthropic", config.timeout)?;
        Ok(Self { config, client })
    }

    /// The JSON body sent for a request.
    pub fn request_body(&self, request: &DreamRequest) -> Value {
        let mut content = vec![
            json!({"type": "text", "text": prompt::notes_block(request), "cache_control": {"type": "ephemeral"}}),
            json!({"type": "text", "text": prompt::events_block(request)}),
        ];
        let errors = prompt::errors_block(request);
        if !errors.is_empty() {
            content.push(json!({"type": "text", "text": errors}));
        }
        json!({
            "model": self.config.model,
            "max_tokens": request.limits.max_output_tokens,
            "temperature": 0,
            "system": [{"type": "text", "text": prompt::system_prompt(), "cache_control": {"type": "ephemeral"}}],
            "tools": [{
                "name": SCHEMA_NAME,
                "description": "Write the note operations for this chunk of events.",
                "input_schema": request.schema,
                "strict": true
            }],
            "tool_choice": {"type": "tool", "name": SCHEMA_NAME},
            "messages": [{"role": "user", "content": content}]
        })
    }

    fn pricing_or_table(&self) -> Option<Pricing> {
        self.config.pricing.or_else(|| Pricing::for_model(&self.config.model))
    }
}

#[async_trait::async_trait]
impl Provider for AnthropicProvider {
    fn name(&self) -> String {
        format!("anthropic:{}", self.config.model)
    }

    fn pricing(&self) -> Option<Pricing> {
        self.pricing_or_table()
    }

    async fn propose(&self, request: &DreamRequest) -> Result<ProviderReply> {
        let name = self.name();
        let url = format!("{}/v1/messages", self.config.base_url.trim_end_matches('/'));
        let headers =
            [("x-api-key", self.config.api_key.clone()), ("anthropic-version", ANTHROPIC_VERSION.to_owned())];
        let body = self.request_body(request);
        let response =
            http::post_json(&self.client, &name, &url, &headers, &body, &self.config.retry).await?;
        let usage = self.usage(&response);
        let invalid = |message: String| Error::invalid_output(&name, message, usage);
        match response.get("stop_reason").and_then(Value::as_str) {
            Some("max_tokens") => {
                return Err(invalid(format!(
                    "the answer was cut off at max_tokens ({}); write fewer or shorter operations",
                    request.limits.max_output_tokens
                )));
            }
            Some("refusal") => return Err(invalid("the model refused to answer".to_owned())),
            _ => (),
        }
        let blocks = response.get("content").and_then(Value::as_array).cloned().unwrap_or_default();
        let tool_input = blocks.iter().find_map(|block| {
            (block.get("type").and_then(Value::as_str) == Some("tool_use")
                && block.get("name").and_then(Value::as_str) == Some(SCHEMA_NAME))
            .then(|| block.get("input").cloned())
            .flatten()
        });
        let operations: Operations = match tool_input {
            Some(input) => serde_json::from_value(input)
                .map_err(|e| invalid(format!("the operations do not match the schema: {e}")))?,
            None => {
                let text: String = blocks
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect();
                serde_json::from_str(text.trim()).map_err(|e| {
                    invalid(format!(
                        "no {SCHEMA_NAME} tool call and the text is not the operations JSON: {e}"
                    ))
                })?
            }
        };
        Ok(ProviderReply { operations, usage })
    }
}

impl AnthropicProvider {
    fn usage(&self, response: &Value) -> Usage {
        let count =
            |key: &str| response.pointer(&format!("/usage/{key}")).and_then(Value::as_u64).unwrap_or(0);
        let plain = count("input_tokens");
        let cache_write = count("cache_creation_input_tokens");
        let cache_read = count("cache_read_input_tokens");
        let output = count("output_tokens");
        let cost = self.pricing_or_table().map(|p| {
            let input = plain as f64 + cache_write as f64 * 1.25 + cache_read as f64 * 0.1;
            (input * p.input_per_mtok + output as f64 * p.output_per_mtok) / 1e6
        });
        Usage { input_tokens: plain + cache_write + cache_read, output_tokens: output, cost_usd: cost }
    }
}
