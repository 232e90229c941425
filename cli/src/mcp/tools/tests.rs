//! The MCP tools against the in-memory reference store.

use chrono::TimeZone as _;
use memory_core::{EventKind, Harness, HookEvent, InMemoryStore};
use serde_json::json;

use super::*;

/// The tools over a fresh in-memory store, with an empty project registry.
fn memory() -> (Memory, Arc<InMemoryStore>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(InMemoryStore::new());
    let memory = Memory::new(store.clone(), Registry::new(dir.path()), None);
    (memory, store, dir)
}

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
    let (m, store, _dir) = memory();
    let written =
        write(&m, write_params("user", "tools/cargo/test-flags.md", "Use `--workspace`.\n")).await.unwrap();
    assert_eq!(written["created"], json!(true));
    assert_eq!(written["generator"], json!("mcp"));

    let read_back = read(&m, note_ref("user", "tools/cargo/test-flags.md")).await.unwrap();
    assert_eq!(read_back["body"], json!("Use `--workspace`.\n"));
    assert_eq!(read_back["kind"], json!("tool"));
    assert!(read_back["markdown"].as_str().unwrap().starts_with("---\n"));

    let again =
        write(&m, write_params("user", "tools/cargo/test-flags.md", "Use `-p <pkg>`.\n")).await.unwrap();
    assert_eq!(again["created"], json!(false));
    let path = NotePath::new("tools/cargo/test-flags.md").unwrap();
    assert_eq!(store.note_history(&Scope::User, &path).await.unwrap().len(), 1);

    let params =
        SearchParams { query: "pkg".to_owned(), scope: Some("user".to_owned()), scopes: vec![], limit: None };
    let hits = search(&m, params).await.unwrap();
    assert_eq!(hits["count"], json!(1));
    assert_eq!(hits["hits"][0]["path"], json!("tools/cargo/test-flags.md"));

    let listed =
        list(&m, ListParams { scope: None, prefix: Some("tools/".to_owned()), limit: None }).await.unwrap();
    assert_eq!(listed["count"], json!(1));

    delete(&m, note_ref("user", "tools/cargo/test-flags.md")).await.unwrap();
    assert!(store.get_note(&Scope::User, &path).await.unwrap().is_none());
    assert!(store.note_history(&Scope::User, &path).await.unwrap().is_empty());
    let gone = delete(&m, note_ref("user", "tools/cargo/test-flags.md")).await.unwrap_err();
    assert!(gone.0.contains("no note at user tools/cargo/test-flags.md"), "{gone}");
}

#[tokio::test]
async fn bad_input_is_a_helpful_error() {
    let (m, store, _dir) = memory();
    let bad_path = write(&m, write_params("user", "../etc/passwd", "x")).await.unwrap_err();
    assert!(bad_path.0.contains("tools/cargo/test-flags.md"), "{bad_path}");
    let bad_scope = write(&m, write_params("team", "a.md", "x")).await.unwrap_err();
    assert!(bad_scope.0.contains("project:<id>"), "{bad_scope}");
    let mut p = write_params("user", "a.md", "x");
    p.kind = "gossip".to_owned();
    assert!(write(&m, p).await.unwrap_err().0.contains("procedure"));
    let mut p = write_params("user", "a.md", "x");
    p.tags = vec!["Not A Slug".to_owned()];
    assert!(write(&m, p).await.unwrap_err().0.contains("slug"));
    let empty = SearchParams { query: "  ".to_owned(), scope: None, scopes: vec![], limit: None };
    assert!(search(&m, empty).await.unwrap_err().0.contains("query is empty"));
    assert!(store.list_notes(&NoteFilter::all()).await.unwrap().is_empty());
}

#[tokio::test]
async fn explain_lists_source_events_and_versions() {
    let (m, store, _dir) = memory();
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
            owner: None,
        },
        body: "v1\n".to_owned(),
    };
    store.put_note(&note).await.unwrap();
    note.body = "v2\n".to_owned();
    store.put_note(&note).await.unwrap();

    let out = explain(&m, note_ref("user", "tools/cargo.md")).await.unwrap();
    assert_eq!(out["sources"][0]["summary"], json!("prompt: always run cargo test with --workspace"));
    assert_eq!(out["sources"][0]["session"], json!("claude:s1"));
    assert_eq!(out["missing_sources"], json!(["b".repeat(32)]));
    assert_eq!(out["previous_versions"], json!(1));

    let timeline_out =
        timeline(&m, TimelineParams { session: "claude:s1".to_owned(), limit: None, after_seq: None })
            .await
            .unwrap();
    assert_eq!(timeline_out["count"], json!(1));
    assert_eq!(timeline_out["events"][0]["kind"], json!("UserPromptSubmit"));
    let unknown =
        timeline(&m, TimelineParams { session: "codex:zz".to_owned(), limit: None, after_seq: None })
            .await
            .unwrap_err();
    assert!(unknown.0.contains("recent sessions: claude:s1"), "{unknown}");
}

#[tokio::test]
async fn projects_are_named_by_name_or_id_and_an_unknown_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("webshop");
    std::fs::create_dir_all(&folder).unwrap();
    let registry = Registry::new(&dir.path().join("data"));
    let here = registry.identify(&folder);
    let store = Arc::new(InMemoryStore::new());
    let m = Memory::new(store.clone(), registry, Some(here.clone()));

    let unknown = write(&m, write_params("project:nowhere", "deploy.md", "x")).await.unwrap_err();
    assert!(unknown.0.contains("no project `nowhere`"), "{unknown}");
    assert!(unknown.0.contains(&format!("webshop ({})", here.id)), "{unknown}");
    assert!(store.list_notes(&NoteFilter::all()).await.unwrap().is_empty(), "no scope was made up");

    let written =
        write(&m, write_params("project:webshop", "deploy.md", "Ship on Fridays.\n")).await.unwrap();
    assert_eq!(written["scope"], json!("project:webshop"));
    assert_eq!(written["path"], json!("project/webshop/deploy.md"), "in the project's folder");
    assert!(!written.to_string().contains(&here.id), "no id in the answer: {written}");
    let scope = Scope::Project(here.id.clone());
    let filed = NotePath::new("project/webshop/deploy.md").unwrap();
    assert!(store.get_note(&scope, &filed).await.unwrap().is_some());
    let bare = read(&m, note_ref("webshop", "project/webshop/deploy.md")).await.unwrap();
    assert!(bare["markdown"].as_str().unwrap().contains("scope: project:webshop\n"), "{bare}");
    let by_id = read(&m, note_ref(&format!("project:{}", here.id), "deploy.md")).await.unwrap();
    assert_eq!(by_id["body"], json!("Ship on Fridays.\n"));
    let here_too = read(&m, note_ref("project", "deploy.md")).await.unwrap();
    assert_eq!(here_too["body"], json!("Ship on Fridays.\n"));
}

fn said(session: &str, id: char, minute: u32, prompt: &str) -> HookEvent {
    let at = Utc.with_ymd_and_hms(2026, 3, 1, 9, minute, 0).unwrap();
    let (harness, _) = session.split_once(':').unwrap();
    let mut e = HookEvent::new(
        EventId(id.to_string().repeat(32)),
        Harness::named(harness),
        SessionKey(session.to_owned()),
        EventKind::UserPromptSubmit,
        at,
        json!({ "prompt": prompt }),
    );
    e.prompt = Some(prompt.to_owned());
    e
}

#[tokio::test]
async fn sessions_and_history_answer_what_we_tried_last_time() {
    let (m, store, _dir) = memory();
    let mut owned = said("claude:s1", 'a', 1, "the postgres migration failed with a lock timeout");
    owned.owner = Some("sam@example.com".to_owned());
    store
        .append(&[
            owned,
            said("codex:s2", 'b', 2, "retry the postgres migration with a longer lock timeout"),
            said("codex:s2", 'c', 3, "write the changelog"),
        ])
        .await
        .unwrap();
    let listed = sessions(&m, SessionsParams::default()).await.unwrap();
    assert_eq!(listed["count"], json!(2));
    assert_eq!(listed["sessions"][0]["session"], json!("codex:s2"), "most recent first");
    assert_eq!(
        listed["sessions"][0]["title"],
        json!("retry the postgres migration with a longer lock timeout"),
        "a session's first prompt is its title"
    );
    assert_eq!(listed["sessions"][1]["owner"], json!("sam@example.com"), "whose, where recorded");
    assert!(listed["sessions"][0].get("owner").is_none(), "{listed:#}");
    let by_start = TimelineParams { session: "claude:s".to_owned(), limit: None, after_seq: None };
    assert_eq!(timeline(&m, by_start).await.unwrap()["session"], json!("claude:s1"));
    let ambiguous = TimelineParams { session: "s".to_owned(), limit: None, after_seq: None };
    let err = timeline(&m, ambiguous).await.unwrap_err().0;
    assert!(err.contains("claude:s1") && err.contains("codex:s2"), "{err}");
    let codex = SessionsParams { harness: Some("codex".to_owned()), ..SessionsParams::default() };
    assert_eq!(sessions(&m, codex).await.unwrap()["count"], json!(1));
    let bad = SessionsParams { harness: Some("emacs".to_owned()), ..SessionsParams::default() };
    assert!(sessions(&m, bad).await.unwrap_err().0.contains("unknown harness"));

    let found =
        history(&m, HistoryParams { query: "migration lock timeout".to_owned(), ..HistoryParams::default() })
            .await
            .unwrap();
    assert_eq!(found["count"], json!(2), "{found:#}");
    assert_eq!(found["hits"][0]["relevance"], json!(1.0));
    assert!(found["hits"][1]["relevance"].as_f64().unwrap() > 0.0);
    assert!(found["hits"][0]["excerpt"].as_str().unwrap().contains("migration"), "{found:#}");
    assert!(found["hits"][0]["summary"].as_str().unwrap().starts_with("prompt: "), "{found:#}");
    let owners: Vec<(&Value, Option<&Value>)> =
        found["hits"].as_array().unwrap().iter().map(|h| (&h["session"], h.get("owner"))).collect();
    assert!(owners.contains(&(&json!("claude:s1"), Some(&json!("sam@example.com")))), "{found:#}");
    assert!(owners.contains(&(&json!("codex:s2"), None)), "{found:#}");
    let later = HistoryParams {
        query: "migration".to_owned(),
        since: Some("2026-03-01T09:02:00Z".to_owned()),
        ..HistoryParams::default()
    };
    let found = history(&m, later).await.unwrap();
    assert_eq!(found["count"], json!(1));
    assert_eq!(found["hits"][0]["session"], json!("codex:s2"));
    let empty = history(&m, HistoryParams { query: " ".to_owned(), ..HistoryParams::default() }).await;
    assert!(empty.unwrap_err().0.contains("query is empty"));
}

#[tokio::test]
async fn forget_lists_first_and_deletes_only_when_confirmed() {
    let (m, store, dir) = memory();
    let config = memory_hook::Config::parse(&format!("data_dir = {:?}", dir.path().join("data"))).unwrap();
    let m = m.files(config, memory_hook::Env::default());
    store
        .append(&[said("claude:s1", 'a', 1, "the pin is Quokka-7741"), said("claude:s1", 'b', 2, "hello")])
        .await
        .unwrap();
    let ask =
        |confirm| ForgetParams { text: Some("quokka 7741".to_owned()), confirm, ..ForgetParams::default() };
    let plan = forget(&m, ask(false)).await.unwrap();
    assert_eq!(plan["deleted"], json!(false));
    assert_eq!(plan["plan"]["events"].as_array().unwrap().len(), 1, "{plan:#}");
    assert_eq!(
        store.timeline(&SessionKey("claude:s1".to_owned()), 0, 10).await.unwrap().len(),
        2,
        "nothing yet"
    );
    let done = forget(&m, ask(true)).await.unwrap();
    assert_eq!(done["forgotten"]["store"]["events"], json!(1), "{done:#}");
    assert_eq!(store.timeline(&SessionKey("claude:s1".to_owned()), 0, 10).await.unwrap().len(), 1);
    let two = ForgetParams {
        text: Some("x".to_owned()),
        session: Some("claude:s1".to_owned()),
        ..ForgetParams::default()
    };
    assert!(forget(&m, two).await.unwrap_err().0.contains("exactly one"));
    let none = forget(&m, ForgetParams::default()).await.unwrap_err();
    assert!(none.0.contains("exactly one"), "{none}");
}
