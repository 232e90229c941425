//! HTTP plumbing shared by the API providers: client construction and retries with backoff.

use std::time::Duration;

use serde_json::Value;

use crate::{Error, Result, Usage};

/// How API providers retry rate limits (429), server errors (5xx, 529) and timeouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Delay before the first retry; doubled for each further one.
    pub base_delay: Duration,
    /// Longest delay between attempts, also the cap on a server's `Retry-After`.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_retries: 3, base_delay: Duration::from_secs(1), max_delay: Duration::from_secs(30) }
    }
}

impl RetryPolicy {
    fn backoff(&self, retry: u32) -> Duration {
        self.base_delay.saturating_mul(2u32.saturating_pow(retry)).min(self.max_delay)
    }
}

/// An HTTP client with the given overall request timeout, on rustls with the ring provider.
pub(crate) fn client(provider: &str, timeout: Duration) -> Result<reqwest::Client> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| Error::config(provider, format!("cannot build the HTTP client: {e}")))
}

fn retryable(status: u16) -> bool {
    matches!(status, 408 | 429 | 500 | 502 | 503 | 504 | 529)
}

/// POSTs a JSON body and returns the JSON answer of a 2xx response, retrying as the policy says.
///
/// A 2xx answer that is not JSON is [`Error::InvalidOutput`]; other failures are [`Error::Provider`].
pub(crate) async fn post_json(
    client: &reqwest::Client,
    provider: &str,
    url: &str,
    headers: &[(&str, String)],
    body: &Value,
    policy: &RetryPolicy,
) -> Result<Value> {
    let mut retry = 0;
    loop {
        let mut builder = client.post(url).json(body);
        for (name, value) in headers {
            builder = builder.header(*name, value);
        }
        let (message, wait) = match builder.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                let retry_after = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<f64>().ok())
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .map(Duration::from_secs_f64);
                let text = match response.text().await {
                    Ok(text) => text,
                    Err(e) => {
                        return Err(Error::provider(
                            provider,
                            format!("reading the response failed: {e}"),
                            true,
                        ));
                    }
                };
                if (200..300).contains(&status) {
                    return serde_json::from_str(&text).map_err(|e| {
                        Error::invalid_output(
                            provider,
                            format!("the response is not JSON: {e}"),
                            Usage::default(),
                        )
                    });
                }
                let message = format!("HTTP {status}: {}", error_message(&text));
                if !retryable(status) {
                    return Err(Error::provider(provider, message, false));
                }
                (message, retry_after.map(|d| d.min(policy.max_delay)))
            }
            Err(e) if e.is_timeout() => (format!("request timed out: {e}"), None),
            Err(e) if e.is_connect() => (format!("cannot connect to {url}: {e}"), None),
            Err(e) => return Err(Error::provider(provider, format!("request failed: {e}"), false)),
        };
        if retry >= policy.max_retries {
            let attempts = retry + 1;
            return Err(Error::provider(
                provider,
                format!("{message} (gave up after {attempts} attempts)"),
                true,
            ));
        }
        let delay = wait.unwrap_or_else(|| policy.backoff(retry));
        tracing::debug!(provider, %message, ?delay, "retrying");
        tokio::time::sleep(delay).await;
        retry += 1;
    }
}

/// The `error.message` of a JSON error body, or the start of the body.
fn error_message(text: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(text).ok();
    let message = parsed.as_ref().and_then(|v| v.pointer("/error/message")).and_then(Value::as_str);
    match message {
        Some(message) => message.to_owned(),
        None => text.chars().take(300).collect(),
    }
}

/// Reads an API key-like setting: trimmed, empty meaning unset.
pub(crate) fn non_empty(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Parses a number setting from the environment.
pub(crate) fn parse_setting<T: std::str::FromStr>(
    provider: &str,
    name: &str,
    value: Option<String>,
) -> Result<Option<T>> {
    match non_empty(value) {
        None => Ok(None),
        Some(raw) => raw
            .parse()
            .map(Some)
            .map_err(|_| Error::config(provider, format!("{name}={raw:?} is not a valid number"))),
    }
}

/// Prices from `AGENT_MEMORY_PRICE_INPUT_PER_MTOK` / `AGENT_MEMORY_PRICE_OUTPUT_PER_MTOK`, when both are set.
pub(crate) fn price_from_env(
    provider: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<crate::Pricing>> {
    let input: Option<f64> = parse_setting(provider, PRICE_INPUT_VAR, env(PRICE_INPUT_VAR))?;
    let output: Option<f64> = parse_setting(provider, PRICE_OUTPUT_VAR, env(PRICE_OUTPUT_VAR))?;
    match (input, output) {
        (Some(input), Some(output)) => Ok(Some(crate::Pricing::new(input, output))),
        (None, None) => Ok(None),
        _ => Err(Error::config(provider, format!("set both {PRICE_INPUT_VAR} and {PRICE_OUTPUT_VAR}"))),
    }
}

/// Dollars per million input tokens, overriding the built-in price table.
pub const PRICE_INPUT_VAR: &str = "AGENT_MEMORY_PRICE_INPUT_PER_MTOK";
/// Dollars per million output tokens, overriding the built-in price table.
pub const PRICE_OUTPUT_VAR: &str = "AGENT_MEMORY_PRICE_OUTPUT_PER_MTOK";
/// Seconds before one HTTP request or harness run is abandoned.
pub const TIMEOUT_VAR: &str = "AGENT_MEMORY_DREAM_TIMEOUT_SECS";

/// Redacts a secret for `Debug` output.
pub(crate) fn redacted(secret: Option<&String>) -> &'static str {
    if secret.is_some() { "<redacted>" } else { "<unset>" }
}
