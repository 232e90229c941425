//! The MCP tools against the in-memory reference store.

use chrono::TimeZone as _;
use memory_core::{EventKind, Harness, HookEvent, InMemoryStore};
use serde_json::json;

use super::*;

fn write_params(scope: &str, path: &str, body: &str) -> WriteParams {
    WriteParams {
        scope: scope.to_owned(),
        path: path.to_owned(),
        title: "Cargo test flags".to_owned(),
        description: Some("When running tests in this workspace".to_owned()),
        kind: "tool".to_owned(),
        tags: vec!["cargo".to_owned()],
        body: body.to_owned(),
    }
}

fn note_ref(scope: &str, path: &str) -> NoteRef {
    NoteRef { scope: scope.to_owned(), path: path.to_owned() }
}

#[tokio::test]
async fn write_then_read_search_list_and_delete() {
    let store = InMemoryStore::new();
    let written = write(&store, write_params("user", "tools/cargo/test-flags.md", "Use `--workspace`.\n"))
        .await
        .unwrap();
    assert_eq!(written["created"], json!(true));
    assert_eq!(written["generator"], json!("mcp"));

    let read_back = read(&store, note_ref("user", "tools/cargo/test-flags.md")).await.unwrap();
    assert_eq!(read_back["body"], json!("Use `--workspace`.\n"));
    assert_eq!(read_back["kind"], json!("tool"));
    assert!(read_back["markdown"].as_str().unwrap().starts_with("---\n"));

    let again =
        write(&store, write_params("user", "tools/cargo/test-flags.md", "Use `-p <pkg>`.\n")).await.unwrap();
    assert_eq!(again["created"], json!(false));
    let path = NotePath::new("tools/cargo/test-flags.md").unwrap();
    assert_eq!(store.note_history(&Scope::User, &path).await.unwrap().len(), 1);

    let params =
        SearchParams { query: "pkg".to_owned(), scope: Some("user".to_owned()), scopes: vec![], limit: None };
    let hits = search(&store, params).await.unwrap();
    assert_eq!(hits["count"], json!(1));
    assert_eq!(hits["hits"][0]["path"], json!("tools/cargo/test-flags.md"));

    let listed = list(&store, ListParams { scope: None, prefix: Some("tools/".to_owned()), limit: None })
        .await
        .unwrap();
    assert_eq!(listed["count"], json!(1));

    delete(&store, note_ref("user", "tools/cargo/test-flags.md")).await.unwrap();
    assert!(store.get_note(&Scope::User, &path).await.unwrap().is_none());
    assert!(store.note_history(&Scope::User, &path).await.unwrap().is_empty());
    let gone = delete(&store, note_ref("user", "tools/cargo/test-flags.md")).await.unwrap_err();
    assert!(gone.0.contains("no note at user tools/cargo/test-flags.md"), "{gone}");
}

#[tokio::test]
async fn bad_input_is_a_helpful_error() {
    let store = InMemoryStore::new();
    let bad_path = write(&store, write_params("user", "../etc/passwd", "x")).await.unwrap_err();
    assert!(bad_path.0.contains("tools/cargo/test-flags.md"), "{bad_path}");
    let bad_scope = write(&store, write_params("team", "a.md", "x")).await.unwrap_err();
    assert!(bad_scope.0.contains("project:<id>"), "{bad_scope}");
    let mut p = write_params("user", "a.md", "x");
    p.kind = "gossip".to_owned();
    assert!(write(&store, p).await.unwrap_err().0.contains("procedure"));
    let mut p = write_params("user", "a.md", "x");
    p.tags = vec!["Not A Slug".to_owned()];
    assert!(write(&store, p).await.unwrap_err().0.contains("slug"));
    let empty = SearchParams { query: "  ".to_owned(), scope: None, scopes: vec![], limit: None };
    assert!(search(&store, empty).await.unwrap_err().0.contains("query is empty"));
    assert!(store.list_notes(&NoteFilter::all()).await.unwrap().is_empty());
}

#[tokio::test]
async fn explain_lists_source_events_and_versions() {
    let store = InMemoryStore::new();
    let at = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let session = SessionKey::new("claude", "s1");
    let mut prompt = HookEvent::new(
        EventId("a".repeat(32)),
        Harness::named("claude"),
        session.clone(),
        EventKind::UserPromptSubmit,
        at,
        json!({}),
    );
    prompt.prompt = Some("always run cargo test with --workspace".to_owned());
    store.append(&[prompt]).await.unwrap();

    let mut note = Note {
        path: NotePath::new("tools/cargo.md").unwrap(),
        meta: NoteMeta {
            title: "Cargo".to_owned(),
            description: None,
            tags: vec![],
            scope: Scope::User,
            kind: NoteKind::Tool,
            sources: vec![EventId("a".repeat(32)), EventId("b".repeat(32))],
            updated: at,
            generator: "deterministic".to_owned(),
        },
        body: "v1\n".to_owned(),
    };
    store.put_note(&note).await.unwrap();
    note.body = "v2\n".to_owned();
    store.put_note(&note).await.unwrap();

    let out = explain(&store, note_ref("user", "tools/cargo.md")).await.unwrap();
    assert_eq!(out["sources"][0]["summary"], json!("prompt: always run cargo test with --workspace"));
    assert_eq!(out["sources"][0]["session"], json!("claude:s1"));
    assert_eq!(out["missing_sources"], json!(["b".repeat(32)]));
    assert_eq!(out["previous_versions"], json!(1));

    let timeline_out =
        timeline(&store, TimelineParams { session: "claude:s1".to_owned(), limit: None, after_seq: None })
            .await
            .unwrap();
    assert_eq!(timeline_out["count"], json!(1));
    assert_eq!(timeline_out["events"][0]["kind"], json!("UserPromptSubmit"));
    let unknown =
        timeline(&store, TimelineParams { session: "codex:zz".to_owned(), limit: None, after_seq: None })
            .await
            .unwrap_err();
    assert!(unknown.0.contains("recent sessions: claude:s1"), "{unknown}");
}
