//! The Anthropic provider against a local server speaking the Messages API.

use std::time::{Duration, Instant};

use dream::{AnthropicConfig, AnthropicProvider, NoProgress, RetryPolicy, StopReason, run};
use memory_core::{MemoryStore, NotePath, Scope};
use serde_json::{Value, json};

use crate::http_server::{Reply, Server};
use crate::support::{all_notes, operations_json, options, plain_events, store_with};

fn provider(server: &Server, timeout: Duration) -> AnthropicProvider {
    let mut config = AnthropicConfig::new("sk-ant-test-key");
    config.base_url = server.url.clone();
    config.model = "claude-sonnet-4-5".into();
    config.timeout = timeout;
    config.retry = RetryPolicy {
        max_retries: 2,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_secs(2),
    };
    AnthropicProvider::new(config).unwrap()
}

fn message(input: &Value) -> Value {
    json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "tool_use", "id": "toolu_01", "name": "write_notes", "input": input}],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 1000, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 200}
    })
}

async fn first_event_id(store: &dyn MemoryStore) -> String {
    store.events_after(0, 1).await.unwrap()[0].event.id.0.clone()
}

#[tokio::test]
async fn success_sends_the_wire_format_and_applies_the_tool_input() {
    let store = store_with(&plain_events(2, None)).await;
    let source = first_event_id(&store).await;
    let server =
        Server::start(vec![Reply::json(200, &message(&operations_json("profile/search.md", &source)))]).await;
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert_eq!((report.notes_created, report.tokens_in, report.tokens_out), (1, 1000, 200));
    assert!((report.cost_usd - 0.006).abs() < 1e-9, "3$/M in, 15$/M out: {}", report.cost_usd);
    let note =
        store.get_note(&Scope::User, &NotePath::new("profile/search.md").unwrap()).await.unwrap().unwrap();
    assert_eq!(note.meta.generator, "anthropic:claude-sonnet-4-5");
    assert_eq!(note.meta.updated, crate::support::now());

    let received = server.received();
    assert_eq!(received.len(), 1);
    let request = &received[0];
    assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", "/v1/messages"));
    assert_eq!(request.headers["x-api-key"], "sk-ant-test-key");
    assert_eq!(request.headers["anthropic-version"], "2023-06-01");
    assert_eq!(request.body["model"], "claude-sonnet-4-5");
    assert_eq!(request.body["max_tokens"], 8192);
    assert_eq!(request.body["tool_choice"], json!({"type": "tool", "name": "write_notes"}));
    assert_eq!(request.body["tools"][0]["input_schema"], dream::operations_schema());
    assert_eq!(request.body["tools"][0]["strict"], true);
    assert_eq!(request.body["system"][0]["cache_control"]["type"], "ephemeral");
    let events_text = request.body["messages"][0]["content"][1]["text"].as_str().unwrap();
    assert!(events_text.contains(&format!("[{source}]")), "{events_text}");
}

#[tokio::test]
async fn rate_limit_is_retried_after_the_servers_delay() {
    let store = store_with(&plain_events(1, None)).await;
    let source = first_event_id(&store).await;
    let limited = json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}});
    let server = Server::start(vec![
        Reply::json(429, &limited).header("retry-after", "1"),
        Reply::json(200, &message(&operations_json("profile/search.md", &source))),
    ])
    .await;
    let started = Instant::now();
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(950), "Retry-After: 1 is respected");
    assert_eq!((report.notes_created, server.received().len()), (1, 2));
}

#[tokio::test]
async fn server_errors_are_retried_then_given_up() {
    let store = store_with(&plain_events(1, None)).await;
    let source = first_event_id(&store).await;
    let overloaded = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    let server = Server::start(vec![
        Reply::json(529, &overloaded),
        Reply::json(500, &overloaded),
        Reply::json(200, &message(&operations_json("profile/search.md", &source))),
    ])
    .await;
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert_eq!(report.notes_created, 1, "succeeds on the third attempt");

    let store = store_with(&plain_events(1, None)).await;
    let server = Server::start(vec![Reply::json(500, &overloaded); 3]).await;
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert_eq!(server.received().len(), 3, "one attempt and two retries");
    match &report.stopped {
        Some(StopReason::ProviderFailed { message }) => assert!(message.contains("Overloaded"), "{message}"),
        other => panic!("expected a provider failure, got {other:?}"),
    }
    assert!(all_notes(&store).await.is_empty());
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    let store = store_with(&plain_events(1, None)).await;
    let denied =
        json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
    let server = Server::start(vec![Reply::json(401, &denied)]).await;
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert_eq!(server.received().len(), 1);
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("invalid x-api-key"))
    );
}

#[tokio::test]
async fn malformed_then_schema_invalid_output_changes_nothing() {
    let store = store_with(&plain_events(1, None)).await;
    let server = Server::start(vec![
        Reply::raw(200, "{\"id\": \"msg_01\", \"content\": [tru"),
        Reply::json(200, &message(&json!({"operations": [{"action": "rename", "path": "x.md"}]}))),
    ])
    .await;
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert_eq!(report.provider_calls, 2);
    let received = server.received();
    let retry_content = received[1].body["messages"][0]["content"].as_array().unwrap();
    let errors_text = retry_content.last().unwrap()["text"].as_str().unwrap();
    assert!(errors_text.contains("not JSON"), "the retry carries the error: {errors_text}");
    assert_eq!(report.failures.len(), 1);
    assert!(report.failures[0].errors[0].contains("do not match the schema"), "{:?}", report.failures);
    assert!(all_notes(&store).await.is_empty());
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[tokio::test]
async fn truncated_output_counts_as_invalid() {
    let store = store_with(&plain_events(1, None)).await;
    let source = first_event_id(&store).await;
    let mut cut = message(&json!({}));
    cut["stop_reason"] = json!("max_tokens");
    let server = Server::start(vec![
        Reply::json(200, &cut),
        Reply::json(200, &message(&operations_json("profile/a.md", &source))),
    ])
    .await;
    let report =
        run(&store, &provider(&server, Duration::from_secs(10)), &options(), &NoProgress).await.unwrap();
    assert_eq!((report.provider_calls, report.notes_created), (2, 1));
    assert_eq!(report.tokens_in, 2000, "the cut-off call is accounted for");
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let store = store_with(&plain_events(1, None)).await;
    let slow = Reply::json(200, &message(&json!({"operations": []}))).delayed(Duration::from_secs(5));
    let server = Server::start(vec![slow.clone(), slow.clone(), slow]).await;
    let started = Instant::now();
    let report =
        run(&store, &provider(&server, Duration::from_millis(200)), &options(), &NoProgress).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("timed out"))
    );
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[test]
fn config_comes_from_the_environment_and_hides_the_key() {
    let env = |name: &str| match name {
        "ANTHROPIC_API_KEY" => Some("sk-ant-secret".to_owned()),
        "ANTHROPIC_BASE_URL" => Some("http://127.0.0.1:9".to_owned()),
        "AGENT_MEMORY_ANTHROPIC_MODEL" => Some("claude-haiku-4-5".to_owned()),
        "AGENT_MEMORY_PRICE_INPUT_PER_MTOK" => Some("2".to_owned()),
        "AGENT_MEMORY_PRICE_OUTPUT_PER_MTOK" => Some("4".to_owned()),
        _ => None,
    };
    let config = AnthropicConfig::from_env_with(&env).unwrap();
    assert_eq!((config.base_url.as_str(), config.model.as_str()), ("http://127.0.0.1:9", "claude-haiku-4-5"));
    assert_eq!(config.pricing, Some(dream::Pricing::new(2.0, 4.0)));
    assert!(!format!("{config:?}").contains("sk-ant-secret"));
    let missing = AnthropicConfig::from_env_with(&|_| None).unwrap_err();
    assert!(missing.to_string().contains("ANTHROPIC_API_KEY"), "{missing}");
}
