//! Whatever a provider writes, no secret reaches a note: a line that says a credential is refused
//! (the validation reads it as the distiller reads a statement), and what slips past that
//! (a key in a command, a value only the user's own rules know) is redacted before the commit.

use dream::{Action, NoProgress, run};
use memory_core::{MemoryStore, NotePath, Scope};

use crate::support::{ScriptedProvider, ids, options, plain_events, reply, store_with, write_op};

#[tokio::test]
async fn secrets_a_provider_writes_are_redacted_before_the_commit() {
    let aws = format!("AKIA{}", "Q4ZT7X2M9BPLW3RA");
    let github = format!("ghp_{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
    let body = format!("- deploy with `AWS_ACCESS_KEY_ID={aws}`\n- the release bot pushes as {github}\n");
    let store = store_with(&plain_events(2, None)).await;
    let provider = ScriptedProvider::new(move |request, _| {
        let mut op = write_op(Action::Create, "profile/deploy.md", &body, ids(request));
        op.title = Some(format!("Deploying with {github}"));
        reply(vec![op])
    });
    let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
    assert_eq!(report.notes_created, 1, "{report:?}");
    let note =
        store.get_note(&Scope::User, &NotePath::new("profile/deploy.md").unwrap()).await.unwrap().unwrap();
    let text = note.to_markdown();
    assert!(!text.contains(&aws) && !text.contains("ghp_A1b2"), "{text}");
    assert!(text.contains("[REDACTED:"), "{text}");
    assert!(note.body.contains("deploy with"), "the rest of the note is kept: {}", note.body);
}

#[tokio::test]
async fn the_users_own_rules_apply_to_what_the_dream_writes() {
    let body = "- staging logs in with hunter-blue-42\n- tokens look like acme_live_4f9a0c1d2e\n".to_owned();
    let store = store_with(&plain_events(2, None)).await;
    let provider = ScriptedProvider::new(move |request, _| {
        reply(vec![write_op(Action::Create, "profile/staging.md", &body, ids(request))])
    });
    let mut options = options();
    options.redaction_rules = vec![
        memory_redact::CustomRule::literal("staging-password", "hunter-blue-42").unwrap(),
        memory_redact::CustomRule::pattern("acme-token", r"acme_live_[0-9a-f]+").unwrap(),
    ];
    run(&store, &provider, &options, &NoProgress).await.unwrap();
    let note =
        store.get_note(&Scope::User, &NotePath::new("profile/staging.md").unwrap()).await.unwrap().unwrap();
    assert!(!note.body.contains("hunter-blue-42") && !note.body.contains("acme_live_4f9a"), "{}", note.body);
    assert!(note.body.contains("[REDACTED:staging-password]"), "{}", note.body);
    assert!(note.body.contains("[REDACTED:acme-token]"), "{}", note.body);
}

#[tokio::test]
async fn a_line_that_says_a_credential_or_carries_a_marker_is_refused_and_the_model_told_why() {
    for line in [
        "- the staging database password is tulip-Orbit-77",
        "- deploy token: [REDACTED:github-token]",
        "- the shared vpn login lives in [private]",
    ] {
        let body = format!("- deploy from the release branch\n{line}\n");
        let store = store_with(&plain_events(2, None)).await;
        let provider = ScriptedProvider::new(move |request, attempt| {
            let body =
                if attempt == 0 { body.clone() } else { "- deploy from the release branch\n".to_owned() };
            reply(vec![write_op(Action::Create, "profile/deploy.md", &body, ids(request))])
        });
        let report = run(&store, &provider, &options(), &NoProgress).await.unwrap();
        assert_eq!(provider.calls(), 2, "the first proposal is refused: {report:?}");
        let note = store
            .get_note(&Scope::User, &NotePath::new("profile/deploy.md").unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(note.body, "- deploy from the release branch\n", "{line}");
        let retried = provider.requests.lock().unwrap().last().unwrap().previous_errors.join("\n");
        assert!(retried.contains("a credential or a redaction marker"), "{line}: {retried}");
    }
}
