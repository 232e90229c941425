//! The scope rules and correction semantics LLM providers are given, and the validation that holds
//! them to it.

use chrono::Duration;
use dream::{Action, NoProgress, NoteOperation, prompt, run};
use memory_core::{EventId, MemoryStore, Note, NoteKind, NoteMeta, NotePath, Scope};

use crate::support::{ScriptedProvider, Story, body, ids, now, options, reply, store_with};

#[test]
fn instructions_carry_the_scope_rules_and_the_correction_semantics() {
    let instructions = prompt::system_prompt();
    for rule in [
        "\"here\"",
        "\"in this repo\"",
        "conventions.md",
        "Task requests",
        "\"just for this run\"",
        "questions, with or without a question mark",
        "somebody else's words",
        "stories about the past",
        "point at the old rule",
        "how they want you to work with them",
        "credential",
        "supersedes",
        "remove the superseded",
        "Commands the agent ran",
        "`uv run pytest -q`",
        "between the failure and the success",
        "deleted",
        "where the tool is used",
    ] {
        assert!(instructions.contains(rule), "the instructions lack {rule:?}:\n{instructions}");
    }
}

fn op(scope: &str, path: &str, action: Action, body: &str, sources: Vec<String>) -> NoteOperation {
    NoteOperation {
        action,
        scope: scope.to_owned(),
        path: path.to_owned(),
        title: Some("Conventions".to_owned()),
        description: None,
        kind: Some(NoteKind::Convention),
        tags: vec!["conventions".to_owned()],
        body: Some(body.to_owned()),
        reason: "stated by the user".to_owned(),
        sources,
    }
}

#[tokio::test]
async fn a_profile_note_made_only_of_project_wording_is_rejected() {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("please always use pnpm here, not npm");
    let store = store_with(&story.events()).await;
    let provider = ScriptedProvider::new(|request, call| {
        if call == 0 {
            reply(vec![op(
                "user",
                "profile/preferences.md",
                Action::Create,
                "- Use pnpm, not npm.\n",
                ids(request),
            )])
        } else {
            let path = "project/webshop/conventions.md";
            reply(vec![op(
                "project:webshop",
                path,
                Action::Create,
                "- Use pnpm here, not npm.\n",
                ids(request),
            )])
        }
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let errors = provider.requests.lock().unwrap()[1].previous_errors.clone();
    assert!(
        errors.iter().any(|e| e.contains("project:webshop") && e.contains("project/webshop/conventions.md")),
        "{errors:?}"
    );
    assert!(body(&store, &Scope::User, "profile/preferences.md").await.is_none());
    let conventions = body(&store, &Scope::Project("webshop".into()), "project/webshop/conventions.md").await;
    assert_eq!(conventions.as_deref(), Some("- Use pnpm here, not npm.\n"));
}

#[tokio::test]
async fn a_profile_line_with_project_wording_is_rejected() {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("I like small commits. Indent with tabs in this repo.");
    let store = store_with(&story.events()).await;
    let provider = ScriptedProvider::new(|request, call| {
        let body = if call == 0 {
            "- Small commits.\n- Indent with tabs in this repo.\n"
        } else {
            "- Small commits.\n"
        };
        reply(vec![op("user", "profile/preferences.md", Action::Create, body, ids(request))])
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let errors = provider.requests.lock().unwrap()[1].previous_errors.clone();
    assert!(errors.iter().any(|e| e.contains("Indent with tabs in this repo.")), "{errors:?}");
}

#[tokio::test]
async fn a_note_that_keeps_a_corrected_value_is_rejected() {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("We're on Postgres 14.");
    let old = story.events();
    story.prompt("we moved to Postgres 16, ignore the 14 stuff");
    let events = story.events();
    let store = store_with(&events).await;
    let scope = Scope::Project("webshop".into());
    let path = NotePath::new("project/webshop/conventions.md").unwrap();
    store
        .put_note(&Note {
            path: path.clone(),
            meta: NoteMeta {
                title: "Conventions".into(),
                description: None,
                tags: vec![],
                scope: scope.clone(),
                kind: NoteKind::Convention,
                sources: vec![EventId(old[1].id.0.clone())],
                updated: now() - Duration::days(1),
                generator: "anthropic".into(),
                owner: None,
            },
            body: "- Database: Postgres 14.\n- Tabs, not spaces.\n".into(),
        })
        .await
        .unwrap();
    store
        .commit(
            &[],
            Some(&memory_core::WatermarkAdvance { name: "dream:project:webshop".into(), position: 2 }),
        )
        .await
        .unwrap();
    let provider = ScriptedProvider::new(|request, call| {
        let body = if call == 0 {
            "- Database: Postgres 14.\n- Database: Postgres 16.\n- Tabs, not spaces.\n"
        } else {
            "- Database: Postgres 16.\n- Tabs, not spaces.\n"
        };
        reply(vec![op(
            "project:webshop",
            "project/webshop/conventions.md",
            Action::Update,
            body,
            ids(request),
        )])
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let errors = provider.requests.lock().unwrap()[1].previous_errors.clone();
    assert!(errors.iter().any(|e| e.contains("Postgres 14") && e.contains("superseded")), "{errors:?}");
    let note = body(&store, &scope, path.as_str()).await.unwrap();
    assert_eq!(note, "- Database: Postgres 16.\n- Tabs, not spaces.\n");
}

#[tokio::test]
async fn the_prompt_says_which_tools_other_projects_use() {
    let mut story = Story::new();
    story.session("claude", "py-1", Some("api"), "/home/alice/src/api").bash_ok("cargo test --workspace");
    story.session("claude", "rs-1", Some("ledger"), "/home/alice/src/ledger").bash_ok("cargo build");
    let store = store_with(&story.events()).await;
    crate::support::dream_once(&store).await;
    let mut more = Story::new();
    more.session("claude", "rs-2", Some("zeta"), "/home/alice/src/zeta").bash_ok("make");
    store.append(&more.events()).await.unwrap();
    let provider = ScriptedProvider::new(|_, _| reply(vec![]));
    run(&store, &provider, &options(), &NoProgress).await.unwrap();
    let request = provider.requests.lock().unwrap()[0].clone();
    assert!(request.tools_elsewhere.contains("cargo"), "{:?}", request.tools_elsewhere);
    assert!(
        prompt::events_block(&request).contains("Tools other projects use: cargo"),
        "{}",
        prompt::events_block(&request)
    );
}

/// Runs one proposal of a convention note with `line` beside a lasting rule, then the rule alone;
/// returns what the second call was told about the first.
async fn refused(kind: NoteKind, line: &str) -> Vec<String> {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("Indent with tabs in this repo.");
    let store = store_with(&story.events()).await;
    let first = format!("- Indent with tabs in this repo.\n- {line}\n");
    let provider = ScriptedProvider::new(move |request, call| {
        let body = if call == 0 { first.as_str() } else { "- Indent with tabs in this repo.\n" };
        let mut operation =
            op("project:webshop", "project/webshop/conventions.md", Action::Create, body, ids(request));
        operation.kind = Some(kind);
        reply(vec![operation])
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let requests = provider.requests.lock().unwrap();
    requests.get(1).map(|r| r.previous_errors.clone()).unwrap_or_default()
}

#[tokio::test]
async fn a_proposed_line_that_is_not_meant_to_last_is_refused_with_the_reason() {
    let cases: &[(&str, &[&str])] = &[
        (
            "a question",
            &[
                "Should we always squash before merging?",
                "Do you think mocks are fine in the service tests",
                "I wonder if every dependency should be pinned",
            ],
        ),
        (
            "a one-off",
            &[
                "Just for today, don't push to main.",
                "Skip the e2e suite for now.",
                "Use the staging database just this once.",
            ],
        ),
        (
            "somebody else's words",
            &[
                "The tech lead says an ORM should never be used.",
                "The docs claim the client must always be closed.",
                "A colleague swears rebasing is never safe.",
            ],
        ),
        (
            "said in jest",
            &[
                "Delete the test suite and ship it lol",
                "Tempted to rewrite everything in assembly",
                "Deploy on Friday at 5pm, what could possibly go wrong",
            ],
        ),
        (
            "a story of how things were",
            &[
                "Last year the team always used Jenkins for deploys.",
                "At my previous company we never wrote integration tests.",
                "Back when I was at the agency we deployed by hand.",
            ],
        ),
    ];
    for (why, lines) in cases {
        for line in *lines {
            let errors = refused(NoteKind::Convention, line).await;
            assert!(
                errors.iter().any(|e| e.contains(line) && e.contains(why) && e.contains("leave it out")),
                "{line:?} is {why}: {errors:?}"
            );
        }
    }
}

#[tokio::test]
async fn lines_that_last_and_commands_are_not_read_for_mood() {
    for (kind, line) in [
        (NoteKind::Convention, "Never push to main; open a pull request."),
        (NoteKind::Convention, "Show the changes of the day with `git log --since=today`."),
        (NoteKind::Preference, "We use pnpm, not npm."),
        (
            NoteKind::Procedure,
            "`pytest -k today` failed; passed after `make fixtures`. Why? The fixtures were stale.",
        ),
        (NoteKind::Tool, "`gh pr list --search \"is:open updated:today\"`"),
    ] {
        let errors = refused(kind, line).await;
        assert!(errors.is_empty(), "{line:?} is kept: {errors:?}");
    }
}
