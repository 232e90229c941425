//! The OpenAI-compatible provider against a local server speaking chat completions.

use std::time::Duration;

use dream::{
    DreamRequest, Limits, NoProgress, OpenAiConfig, OpenAiProvider, Provider, RetryPolicy, StopReason, run,
};
use memory_core::{MemoryStore, NotePath, Scope};
use serde_json::{Value, json};

use crate::http_server::{Reply, Server};
use crate::support::{all_notes, operations_json, options, plain_events, store_with};

fn provider(server: &Server, key: Option<&str>) -> OpenAiProvider {
    let mut config = OpenAiConfig::new(format!("{}/v1", server.url), "smollm2");
    config.api_key = key.map(str::to_owned);
    config.timeout = Duration::from_secs(10);
    config.retry = RetryPolicy {
        max_retries: 1,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_secs(1),
    };
    OpenAiProvider::new(config).unwrap()
}

fn completion(content: &str, finish_reason: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1764000000, "model": "smollm2",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": null},
                     "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 120, "total_tokens": 1020,
                  "prompt_tokens_details": {"cached_tokens": 0}}
    })
}

/// Checks the bounds a local server gets on top of the plain schema: one operation shape per allowed
/// scope and action (in `shapes`: scope, action, offered paths), and nothing else changed.
fn assert_bounded(schema: &Value, event_ids: &[&str], shapes: &[(&str, &str, &[&str])]) {
    assert_eq!(schema["properties"]["operations"]["maxItems"], 3, "{schema:#}");
    let offered = schema["properties"]["operations"]["items"]["anyOf"].as_array().unwrap();
    assert_eq!(offered.len(), shapes.len(), "{schema:#}");
    assert!(!schema.to_string().contains("\"pattern\""), "no regex grammar: {schema:#}");
    let plain = dream::operations_schema()["properties"]["operations"]["items"].clone();
    for (shape, (scope, action, paths)) in offered.iter().zip(shapes) {
        let fields = &shape["properties"];
        for (field, max) in
            [("path", 80), ("scope", 80), ("title", 80), ("description", 80), ("reason", 200), ("body", 600)]
        {
            assert_eq!(fields[field]["maxLength"], max, "{field}: {schema:#}");
        }
        assert_eq!((&fields["title"]["minLength"], &fields["body"]["minLength"]), (&json!(1), &json!(1)));
        assert_eq!(fields["scope"]["enum"], json!([scope]), "{schema:#}");
        assert_eq!(fields["action"], json!({"type": "string", "enum": [action]}), "{schema:#}");
        assert_eq!(fields["path"]["enum"], json!(paths), "{schema:#}");
        assert_eq!(
            (&fields["tags"]["maxItems"], &fields["tags"]["items"]["maxLength"]),
            (&json!(4), &json!(24))
        );
        assert_eq!((&fields["sources"]["minItems"], &fields["sources"]["maxItems"]), (&json!(1), &json!(4)));
        assert_eq!(fields["sources"]["items"]["enum"], json!(event_ids), "{schema:#}");

        let mut stripped = shape.clone();
        for field in stripped["properties"].as_object_mut().unwrap().values_mut() {
            let field = field.as_object_mut().unwrap();
            for keyword in ["minLength", "maxLength", "minItems", "maxItems"] {
                field.remove(keyword);
            }
            if let Some(Value::Object(item)) = field.get_mut("items") {
                item.remove("maxLength");
                item.remove("enum");
            }
        }
        for field in ["scope", "path"] {
            stripped["properties"][field].as_object_mut().unwrap().remove("enum");
        }
        for field in ["action", "title", "body", "kind"] {
            stripped["properties"][field] = plain["properties"][field].clone();
        }
        assert_eq!((&fields["title"]["type"], &fields["body"]["type"]), (&json!("string"), &json!("string")));
        assert!(fields["kind"]["enum"].as_array().unwrap().iter().all(Value::is_string), "{schema:#}");
        assert_eq!(stripped, plain, "only bounds are added");
    }
}

async fn first_event_id(store: &dyn MemoryStore) -> String {
    store.events_after(0, 1).await.unwrap()[0].event.id.0.clone()
}

#[tokio::test]
async fn success_sends_a_strict_json_schema_response_format() {
    let store = store_with(&plain_events(2, Some("acme"))).await;
    let source = first_event_id(&store).await;
    let content = operations_json("profile/search.md", &source).to_string();
    let server = Server::start(vec![Reply::json(200, &completion(&content, "stop"))]).await;
    let report = run(&store, &provider(&server, Some("sk-local")), &options(), &NoProgress).await.unwrap();
    assert_eq!((report.notes_created, report.tokens_in, report.tokens_out), (1, 900, 120));
    assert_eq!(report.cost_usd, 0.0, "a local server is free");
    let note =
        store.get_note(&Scope::User, &NotePath::new("profile/search.md").unwrap()).await.unwrap().unwrap();
    assert_eq!(note.meta.generator, "openai:smollm2");

    let request = &server.received()[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.headers["authorization"], "Bearer sk-local");
    assert_eq!(request.body["model"], "smollm2");
    assert_eq!(request.body["messages"][0]["role"], "system");
    let format = &request.body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], "write_notes");
    assert_eq!(format["json_schema"]["strict"], true);
    let ids: Vec<String> =
        store.events_after(0, 10).await.unwrap().into_iter().map(|e| e.event.id.0).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let project: &[&str] = &[
        "project/acme/conventions.md",
        "project/acme/commands.md",
        "project/acme/errors.md",
        "project/acme/hot-files.md",
    ];
    let user: &[&str] =
        &["profile/role.md", "profile/preferences.md", "tools/commands.md", "errors/known-errors.md"];
    let shapes = [("project:acme", "create", project), ("user", "create", user)];
    assert_bounded(&format["json_schema"]["schema"], &ids, &shapes);
    assert_eq!(request.body["max_tokens"], 2048, "a local server gets a lower output bound");
    let user = request.body["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("Allowed scopes: project:acme, user"), "{user}");
    assert!(user.contains("Project folder for scope project:acme: project/acme"), "{user}");
}

#[tokio::test]
async fn the_official_api_gets_the_plain_schema_and_a_local_server_the_bounded_one() {
    let store = store_with(&plain_events(3, None)).await;
    let events = store.events_after(0, 10).await.unwrap();
    let ids: Vec<String> = events.iter().map(|e| e.event.id.0.clone()).collect();
    let request = DreamRequest {
        group: Scope::User,
        allowed_scopes: vec![Scope::User],
        events,
        events_text: "[e1] prompt: look at item 0".to_owned(),
        notes: vec![memory_core::Note {
            path: memory_core::NotePath::new("profile/preferences.md").unwrap(),
            meta: memory_core::NoteMeta {
                title: "Preferences".to_owned(),
                description: None,
                tags: Vec::new(),
                scope: Scope::User,
                kind: memory_core::NoteKind::Preference,
                sources: Vec::new(),
                updated: crate::support::now(),
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: "Small commits.\n".to_owned(),
        }],
        tools_elsewhere: Default::default(),
        elsewhere: Vec::new(),
        schema: dream::operations_schema(),
        previous_errors: Vec::new(),
        limits: Limits { max_body_bytes: 300, ..Limits::default() },
        now: crate::support::now(),
        project_name: None,
    };
    let mut official = OpenAiConfig::new(OpenAiConfig::DEFAULT_BASE_URL, "gpt-4.1-mini");
    official.api_key = Some("sk-test".to_owned());
    let body = OpenAiProvider::new(official).unwrap().request_body(&request);
    assert_eq!(body["response_format"]["json_schema"]["schema"], dream::operations_schema());
    assert_eq!(body["max_tokens"], Limits::default().max_output_tokens);

    let local = OpenAiConfig::new("http://127.0.0.1:8080/v1", "smollm2");
    let body = OpenAiProvider::new(local).unwrap().request_body(&request);
    let schema = &body["response_format"]["json_schema"]["schema"];
    let operation = &schema["properties"]["operations"]["items"]["anyOf"][0]["properties"];
    assert_eq!(operation["body"]["maxLength"], 300, "never above the body limit");
    assert_eq!(operation["scope"]["enum"], json!(["user"]));
    assert_eq!(operation["sources"]["items"]["enum"], json!(ids));
    assert_eq!(body["max_tokens"], 2048);
    let shapes = schema["properties"]["operations"]["items"]["anyOf"].as_array().unwrap();
    let offered: Vec<(&Value, &Value)> = shapes
        .iter()
        .map(|s| (&s["properties"]["action"]["enum"], &s["properties"]["path"]["enum"]))
        .collect();
    assert_eq!(
        offered,
        [
            (&json!(["create"]), &json!(["profile/role.md", "tools/commands.md", "errors/known-errors.md"])),
            (&json!(["update"]), &json!(["profile/preferences.md"])),
        ],
        "new notes are created at paths that are free, existing ones updated"
    );
}

#[tokio::test]
async fn without_a_key_no_authorization_header_is_sent() {
    let store = store_with(&plain_events(1, None)).await;
    let server = Server::start(vec![Reply::json(200, &completion("{\"operations\": []}", "stop"))]).await;
    let report = run(&store, &provider(&server, None), &options(), &NoProgress).await.unwrap();
    assert_eq!(report.provider_calls, 1);
    assert!(!server.received()[0].headers.contains_key("authorization"));
    assert_eq!(store.watermark("dream:user").await.unwrap(), Some(2), "an empty answer still advances");
}

#[tokio::test]
async fn a_server_error_then_success() {
    let store = store_with(&plain_events(1, None)).await;
    let source = first_event_id(&store).await;
    let content = operations_json("profile/search.md", &source).to_string();
    let server = Server::start(vec![
        Reply::raw(503, "{\"error\": {\"message\": \"loading model\"}}"),
        Reply::json(200, &completion(&content, "stop")),
    ])
    .await;
    let report = run(&store, &provider(&server, None), &options(), &NoProgress).await.unwrap();
    assert_eq!((report.notes_created, server.received().len()), (1, 2));
}

#[tokio::test]
async fn repeated_server_errors_stop_the_run() {
    let store = store_with(&plain_events(1, None)).await;
    let server = Server::start(vec![Reply::raw(502, "bad gateway"), Reply::raw(502, "bad gateway")]).await;
    let report = run(&store, &provider(&server, None), &options(), &NoProgress).await.unwrap();
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("502"))
    );
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[tokio::test]
async fn malformed_content_is_retried_with_the_error_then_given_up() {
    let store = store_with(&plain_events(1, None)).await;
    let server = Server::start(vec![
        Reply::json(200, &completion("{\"operations\": [", "stop")),
        Reply::json(200, &completion("{\"operations\": [{\"action\": \"create\"}]}", "length")),
    ])
    .await;
    let report = run(&store, &provider(&server, None), &options(), &NoProgress).await.unwrap();
    assert_eq!(report.provider_calls, 2);
    let retry_prompt = server.received()[1].body["messages"][1]["content"].as_str().unwrap().to_owned();
    assert!(retry_prompt.contains("Your previous answer was rejected"), "{retry_prompt}");
    assert!(retry_prompt.contains("not valid operations JSON"), "{retry_prompt}");
    assert!(report.failures[0].errors[0].contains("cut off"), "{:?}", report.failures);
    assert_eq!((report.tokens_in, report.tokens_out), (1800, 240));
    assert!(all_notes(&store).await.is_empty());
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_refusal_is_invalid_output() {
    let store = store_with(&plain_events(1, None)).await;
    let mut refused = completion("", "stop");
    refused["choices"][0]["message"]["refusal"] = json!("I cannot help with that");
    let server = Server::start(vec![Reply::json(200, &refused), Reply::json(200, &refused)]).await;
    let report = run(&store, &provider(&server, None), &options(), &NoProgress).await.unwrap();
    assert!(report.failures[0].errors[0].contains("refused"), "{:?}", report.failures);
}

#[test]
fn config_from_the_environment() {
    let local = |name: &str| match name {
        "OPENAI_BASE_URL" => Some("http://localhost:11434/v1".to_owned()),
        "AGENT_MEMORY_OPENAI_MODEL" => Some("qwen2.5-coder".to_owned()),
        _ => None,
    };
    let config = OpenAiConfig::from_env_with(&local).unwrap();
    assert_eq!(config.api_key, None);
    let provider = OpenAiProvider::new(config).unwrap();
    assert_eq!(provider.pricing(), Some(dream::Pricing::FREE));
    assert_eq!(provider.name(), "openai:qwen2.5-coder");

    let official = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-secret".to_owned());
    let config = OpenAiConfig::from_env_with(&official).unwrap();
    assert!(!format!("{config:?}").contains("sk-secret"));
    assert_eq!(OpenAiProvider::new(config).unwrap().pricing(), Some(dream::Pricing::new(0.4, 1.6)));
    assert!(OpenAiConfig::from_env_with(&|_| None).is_err(), "the official API needs a key");
}
