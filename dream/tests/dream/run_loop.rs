//! The run loop with scripted providers: validation and retry, dry runs, budgets, Injection events,
//! group isolation and atomicity when the run dies mid-way.

use std::sync::Arc;

use dream::{
    Action, DreamReport, Error, NoProgress, Pricing, ProviderReply, StopReason, Usage, run, watermark_name,
};
use memory_core::{EventKind, MemoryStore, NotePath, Scope};

use crate::support::{
    ScriptedProvider, Story, all_notes, delete_op, ids, options, plain_events, reply, store_with, write_op,
};

fn user_mark() -> String {
    watermark_name(&Scope::User)
}

#[tokio::test]
async fn invalid_reply_is_retried_once_with_the_errors() {
    let store = store_with(&plain_events(3, None)).await;
    let provider = ScriptedProvider::new(|request, call| {
        let path = if call == 0 { "Profile/../x.md" } else { "profile/x.md" };
        reply(vec![write_op(Action::Create, path, "- fact\n", ids(request))])
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!((report.provider_calls, report.notes_created), (2, 1));
    {
        let requests = provider.requests.lock().unwrap();
        assert!(requests[0].previous_errors.is_empty());
        assert!(
            requests[1].previous_errors[0].contains("Profile/../x.md"),
            "{:?}",
            requests[1].previous_errors
        );
    }
    assert!(store.get_note(&Scope::User, &NotePath::new("profile/x.md").unwrap()).await.unwrap().is_some());
    assert_eq!(store.watermark(&user_mark()).await.unwrap(), Some(4), "a session start and three prompts");
}

#[tokio::test]
async fn twice_invalid_changes_nothing_and_halts_only_that_group() {
    let mut events = plain_events(2, None);
    events.extend(plain_events(2, Some("acme")).into_iter().map(|mut e| {
        e.id.0 = format!("{}ff", &e.id.0[..30]);
        e
    }));
    let store = store_with(&events).await;
    let provider = ScriptedProvider::new(|request, _| {
        if request.group == Scope::User {
            // Invalid every time: a source id that does not exist.
            reply(vec![write_op(Action::Create, "profile/x.md", "- x\n", vec!["f".repeat(32)])])
        } else {
            let mut op = write_op(Action::Create, "project/acme/notes.md", "- y\n", ids(request));
            op.scope = "project:acme".to_owned();
            reply(vec![op])
        }
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!(report.failures.len(), 1, "{report:?}");
    assert_eq!(report.failures[0].group, Scope::User);
    assert!(report.failures[0].errors[0].contains("unknown source event ids"));
    assert_eq!(store.watermark(&user_mark()).await.unwrap(), None, "the failed group does not advance");
    assert_eq!(store.watermark("dream:project:acme").await.unwrap(), Some(6));
    let notes = all_notes(&store).await;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].path.as_str(), "project/acme/notes.md");
    assert_eq!(
        store.watermark(dream::SCANNED_WATERMARK).await.unwrap(),
        None,
        "an incomplete run records no scan"
    );
}

#[tokio::test]
async fn operations_outside_the_allowed_scopes_and_folders_are_rejected() {
    let store = store_with(&plain_events(1, Some("acme"))).await;
    let provider = ScriptedProvider::new(|request, _| {
        let mut other_project = write_op(Action::Create, "project/other/x.md", "- x\n", ids(request));
        other_project.scope = "project:other".to_owned();
        let mut wrong_folder = write_op(Action::Create, "project/other/y.md", "- y\n", ids(request));
        wrong_folder.scope = "project:acme".to_owned();
        let bad_user_folder = write_op(Action::Create, "secrets/z.md", "- z\n", ids(request));
        let update_missing = write_op(Action::Update, "profile/none.md", "- n\n", ids(request));
        reply(vec![other_project, wrong_folder, bad_user_folder, update_missing])
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    let errors = report.failures[0].errors.join("\n");
    for expected in
        ["not allowed here", "must be under `project/acme/`", "user notes must be under", "does not exist"]
    {
        assert!(errors.contains(expected), "missing {expected:?} in {errors}");
    }
    assert!(all_notes(&store).await.is_empty());
}

#[tokio::test]
async fn invalid_output_errors_count_their_usage_and_are_retried() {
    let store = store_with(&plain_events(1, None)).await;
    let provider = ScriptedProvider::new(|request, call| {
        if call == 0 {
            let usage = Usage { input_tokens: 100, output_tokens: 7, cost_usd: None };
            return Err(Error::invalid_output("scripted", "not JSON", usage));
        }
        Ok(ProviderReply {
            operations: dream::Operations {
                operations: vec![write_op(Action::Create, "profile/a.md", "- a\n", ids(request))],
            },
            usage: Usage { input_tokens: 120, output_tokens: 30, cost_usd: None },
        })
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!((report.tokens_in, report.tokens_out, report.notes_created), (220, 37, 1));
    assert_eq!(provider.requests.lock().unwrap()[1].previous_errors, vec!["not JSON".to_owned()]);
}

#[tokio::test]
async fn dry_run_plans_but_writes_nothing() {
    let store = store_with(&plain_events(4, None)).await;
    let provider = ScriptedProvider::new(|request, _| {
        let body = format!("- seen {}\n", request.events.len());
        let exists = request.notes.iter().any(|n| n.path.as_str() == "profile/a.md");
        reply(vec![write_op(
            if exists { Action::Update } else { Action::Create },
            "profile/a.md",
            &body,
            ids(request),
        )])
    });
    let mut options = options();
    options.dry_run = true;
    options.chunk_size = 2;
    let report = run(&store, &provider, &options, &NoProgress).await.unwrap();
    assert!(report.dry_run);
    assert_eq!(
        (report.notes_created, report.notes_updated),
        (1, 1),
        "the second chunk sees the planned note"
    );
    assert!(report.changes[0].diff.contains("+- seen 2"), "{}", report.changes[0].diff);
    assert!(report.changes[1].before.as_deref().unwrap().contains("- seen 2"));
    assert!(all_notes(&store).await.is_empty());
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[tokio::test]
async fn token_and_cost_caps_stop_before_the_call() {
    let store = store_with(&plain_events(3, None)).await;
    let provider = ScriptedProvider::new(|_, _| reply(vec![]));
    let mut options = options();
    options.max_tokens = Some(100);
    let report = run(&store, &provider, &options, &NoProgress).await.unwrap();
    assert!(matches!(report.stopped, Some(StopReason::TokenBudget { limit: 100, used: 0 })), "{report:?}");
    assert_eq!(provider.calls(), 0);
    assert_eq!(store.watermark(&user_mark()).await.unwrap(), None);

    let mut priced = ScriptedProvider::new(|_, _| reply(vec![]));
    priced.pricing = Some(Pricing::new(3.0, 15.0));
    let mut options = crate::support::options();
    options.max_cost_usd = Some(0.01);
    let report = run(&store, &priced, &options, &NoProgress).await.unwrap();
    assert!(
        matches!(report.stopped, Some(StopReason::CostBudget { .. })),
        "8192 output tokens alone cost $0.12"
    );
    assert_eq!(priced.calls(), 0);

    options.max_cost_usd = Some(1.0);
    let report = run(&store, &priced, &options, &NoProgress).await.unwrap();
    assert_eq!((report.stopped, priced.calls()), (None, 1));
}

#[tokio::test]
async fn the_event_limit_distills_what_was_read_and_leaves_the_rest_for_the_next_run() {
    let mut events = plain_events(3, None);
    events.extend(plain_events(2, Some("acme")).into_iter().map(|mut e| {
        e.id.0 = format!("{}ee", &e.id.0[..30]);
        e
    }));
    let store = store_with(&events).await;
    let provider = ScriptedProvider::new(|_, _| reply(vec![]));
    let mut limited = options();
    limited.max_events = Some(5);
    let report = run(&store, &provider, &limited, &NoProgress).await.unwrap();
    assert_eq!(report.stopped, Some(StopReason::EventLimit { limit: 5 }), "{report:?}");
    assert_eq!(report.events_read, 5);
    assert_eq!(store.watermark(&user_mark()).await.unwrap(), Some(4), "the user group was read whole");
    assert_eq!(store.watermark("dream:project:acme").await.unwrap(), Some(5), "one acme event was read");
    assert_eq!(store.watermark(dream::SCANNED_WATERMARK).await.unwrap(), None, "the scan is not complete");

    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!((report.stopped, report.events_read), (None, 2), "the next run reads only the rest");
    let seen: usize = provider.requests.lock().unwrap().iter().map(|r| r.events.len()).sum();
    assert_eq!(seen, events.len(), "every event reached the provider exactly once");
    assert_eq!(store.watermark(dream::SCANNED_WATERMARK).await.unwrap(), Some(7));
}

#[tokio::test]
async fn injection_events_are_never_evidence() {
    let mut story = Story::new();
    story.session("claude", "s", Some("acme"), "/src/acme");
    let start = story.events();
    story.injection().injection();
    let store = store_with(&start).await;
    let provider = ScriptedProvider::new(|request, _| {
        assert!(request.events.iter().all(|e| e.event.kind != EventKind::Injection));
        reply(vec![])
    });
    run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!(provider.calls(), 1);
    store.append(&story.events()).await.unwrap();
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!(provider.calls(), 1, "only Injection events are new: no provider call");
    assert_eq!(report.events_read, 2);
    assert_eq!(store.watermark("dream:project:acme").await.unwrap(), Some(3), "the watermark passes them");
}

#[tokio::test]
async fn a_provider_failure_stops_the_run_cleanly() {
    let store = store_with(&plain_events(3, None)).await;
    let provider = ScriptedProvider::new(|_, _| Err(Error::provider("scripted", "HTTP 401: bad key", false)));
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("401"))
    );
    assert_eq!(provider.calls(), 1, "no retry for a provider error");
    assert_eq!(store.watermarks().await.unwrap(), vec![]);
}

#[tokio::test]
async fn deleting_a_human_note_is_rejected() {
    let store = store_with(&plain_events(1, None)).await;
    let mut note = memory_core::Note {
        path: NotePath::new("profile/mine.md").unwrap(),
        meta: memory_core::NoteMeta {
            title: "Mine".into(),
            description: None,
            tags: vec![],
            scope: Scope::User,
            kind: memory_core::NoteKind::Profile,
            sources: vec![],
            updated: crate::support::now(),
            generator: memory_core::GENERATOR_HUMAN.into(),
            owner: None,
        },
        body: "- keep me\n".into(),
    };
    store.put_note(&note).await.unwrap();
    let provider = ScriptedProvider::new(|request, call| match call {
        0 => reply(vec![delete_op("user", "profile/mine.md")]),
        _ => reply(vec![write_op(Action::Update, "profile/mine.md", "- replaced\n", ids(request))]),
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    let errors = report.failures[0].errors.join("\n");
    assert!(errors.contains("keep each of its lines"), "{errors}");
    note.body = "- keep me\n".into();
    assert_eq!(store.get_note(&Scope::User, &note.path).await.unwrap().unwrap().body, note.body);
    let first_errors = &provider.requests.lock().unwrap()[1].previous_errors;
    assert!(first_errors[0].contains("must not be deleted"), "{first_errors:?}");
}

/// One note per chunk (`topics/chunk-<first position>.md`) citing the chunk's events.
fn chunk_note_provider(panic_on_call: Option<usize>) -> ScriptedProvider {
    ScriptedProvider::new(move |request, call| {
        if Some(call) == panic_on_call {
            panic!("provider died mid-run");
        }
        let first = request.events[0].position;
        reply(vec![write_op(
            Action::Create,
            &format!("topics/chunk-{first:04}.md"),
            "- chunk\n",
            ids(request),
        )])
    })
}

async fn assert_consistent(store: &dyn MemoryStore) -> u64 {
    let mark = store.watermark(&user_mark()).await.unwrap().unwrap_or(0);
    let notes = all_notes(store).await;
    for note in &notes {
        let cited = store.events_by_id(&note.meta.sources).await.unwrap();
        assert!(
            cited.iter().all(|e| e.position <= mark),
            "{} cites events past the watermark {mark}",
            note.path
        );
    }
    let covered: u64 = notes.iter().map(|n| n.meta.sources.len() as u64).sum();
    assert_eq!(covered, mark, "every event up to the watermark is in exactly one note");
    mark
}

#[tokio::test]
async fn a_run_dying_mid_way_leaves_notes_and_watermark_consistent() {
    let events = plain_events(10, None);
    let store = Arc::new(store_with(&events).await);
    let mut options = options();
    options.chunk_size = 3;
    let dying = Arc::new(chunk_note_provider(Some(2)));
    let task = {
        let (store, dying, options) = (Arc::clone(&store), Arc::clone(&dying), options.clone());
        tokio::spawn(async move { run(store.as_ref(), dying.as_ref(), &options, &NoProgress).await })
    };
    assert!(task.await.unwrap_err().is_panic());
    assert_eq!(assert_consistent(store.as_ref()).await, 6, "two chunks of three were committed");

    let report: DreamReport =
        run(store.as_ref(), &chunk_note_provider(None), &options, &NoProgress).await.unwrap();
    assert_eq!(report.events_read, 5, "the rerun resumes after the last committed chunk");
    assert_eq!(assert_consistent(store.as_ref()).await, 11);

    let clean = store_with(&events).await;
    run(&clean, &chunk_note_provider(None), &options, &NoProgress).await.unwrap();
    let names = |notes: Vec<memory_core::Note>| notes.into_iter().map(|n| n.path).collect::<Vec<_>>();
    assert_eq!(names(all_notes(store.as_ref()).await), names(all_notes(&clean).await));
}

#[derive(Default)]
struct RecordingProgress {
    seen: std::sync::Mutex<Vec<String>>,
}

impl dream::Progress for RecordingProgress {
    fn chunk_started(&self, group: &Scope, events: usize) {
        self.seen.lock().unwrap().push(format!("start {group} {events}"));
    }

    fn chunk_finished(&self, group: &Scope, outcome: &dream::ChunkOutcome) {
        self.seen.lock().unwrap().push(format!("done {group} {outcome:?}"));
    }
}

#[tokio::test]
async fn a_scope_filter_leaves_other_groups_for_a_later_run() {
    let mut events = plain_events(2, None);
    events.extend(plain_events(3, Some("acme")).into_iter().map(|mut e| {
        e.id.0 = format!("{}ee", &e.id.0[..30]);
        e
    }));
    let store = store_with(&events).await;
    let provider = ScriptedProvider::new(|_, _| reply(vec![]));
    let mut only_acme = options();
    only_acme.scopes = dream::ScopeFilter::Only(vec![Scope::Project("acme".into())]);
    let progress = RecordingProgress::default();
    let report = run(&store, &provider, &only_acme, &progress).await.unwrap();
    assert_eq!(report.events_read, 4);
    assert_eq!(
        *progress.seen.lock().unwrap(),
        vec![
            "start project:acme 4".to_owned(),
            "done project:acme Applied { created: 0, updated: 0, deleted: 0 }".to_owned()
        ]
    );
    assert_eq!(
        store.watermark(dream::SCANNED_WATERMARK).await.unwrap(),
        None,
        "a filtered run records no scan"
    );
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!(
        report.events_read, 3,
        "the user group's events, read before acme's watermark, are not skipped"
    );
    assert_eq!(store.watermark(dream::SCANNED_WATERMARK).await.unwrap(), Some(7));
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!((report.events_read, provider.calls()), (0, 2));
}

#[tokio::test]
async fn a_body_of_exactly_the_limit_is_accepted_and_one_byte_more_is_not() {
    let store = store_with(&plain_events(2, None)).await;
    let mut opts = options();
    opts.limits.max_body_bytes = 64;
    let provider = ScriptedProvider::new(|request, call| {
        let body = if call == 0 { "x".repeat(65) } else { "y".repeat(64) };
        reply(vec![write_op(Action::Create, "profile/limit.md", &body, ids(request))])
    });
    let report = run(&store, &provider, &opts, &NoProgress).await.unwrap();
    assert_eq!((report.provider_calls, report.notes_created), (2, 1), "{report:?}");
    let errors = provider.requests.lock().unwrap()[1].previous_errors.clone();
    assert!(errors.iter().any(|e| e.contains("the body is 65 bytes, over the limit of 64")), "{errors:?}");
    let notes = all_notes(&store).await;
    assert_eq!(notes[0].body, format!("{}\n", "y".repeat(64)));
}

#[tokio::test]
async fn each_note_written_records_whose_memory_wrote_it_and_keeps_it_when_nobody_is_named() {
    let store = store_with(&plain_events(2, None)).await;
    let provider = ScriptedProvider::new(|request, _| {
        reply(vec![write_op(Action::Create, "profile/x.md", "- fact\n", ids(request))])
    });
    let mut named = options();
    named.owner = Some("sam@example.com".to_owned());
    run(&store, &provider, &named, &NoProgress).await.unwrap();
    let path = NotePath::new("profile/x.md").unwrap();
    let owner = |note: Option<memory_core::Note>| note.unwrap().meta.owner;
    assert_eq!(owner(store.get_note(&Scope::User, &path).await.unwrap()).as_deref(), Some("sam@example.com"));

    // A later run that names nobody (a custom integration without an owner) leaves the owner.
    let mut later = Story::new();
    later.session("claude", "later", None, "/home/alice/src/acme");
    later.prompt("look at one more item");
    let later: Vec<_> = later
        .events()
        .into_iter()
        .map(|mut e| {
            e.id.0 = format!("{}aa", &e.id.0[..30]);
            e
        })
        .collect();
    store.append(&later).await.unwrap();
    let rewrite = ScriptedProvider::new(|request, _| {
        reply(vec![write_op(Action::Update, "profile/x.md", "- fact\n- another\n", ids(request))])
    });
    let report = run(&store, &rewrite, &options(), &NoProgress).await.unwrap();
    assert_eq!(report.notes_updated, 1, "{report:?}");
    let note = store.get_note(&Scope::User, &path).await.unwrap();
    assert!(note.as_ref().unwrap().body.contains("another"));
    assert_eq!(owner(note).as_deref(), Some("sam@example.com"));
}
