//! The OpenAI-compatible chat-completions provider, with a strict `json_schema` response format.
//!
//! Works with OpenAI and with local servers speaking the same protocol: Ollama (`/v1`), llama.cpp's
//! `llama-server`, vLLM and LM Studio.

use std::fmt;
use std::time::Duration;

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

    /// The JSON body sent for a request.
    pub fn request_body(&self, request: &DreamRequest) -> Value {
        json!({
            "model": self.config.model,
            "messages": [
                {"role": "system", "content": prompt::system_prompt()},
                {"role": "user", "content": prompt::user_prompt(request)}
            ],
            "temperature": 0,
            "max_tokens": request.limits.max_output_tokens,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "strict": true, "schema": request.schema}
            }
        })
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
                "the answer was cut off at max_tokens ({}); write fewer or shorter operations",
                request.limits.max_output_tokens
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
