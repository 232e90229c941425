//! How far a correction reaches: what a user says of themselves or of every project, and their
//! corrections of it, reach the notes of what the agent did in every project, while a project's
//! own rule stays in its project; a line that says more loses only the clause corrected; "that"
//! after a retraction points at what was just taken back, nothing else.

use memory_core::{MemoryStore, Scope};

use crate::support::{Story, body, dream_once, dump, store_with};

fn project(id: &str) -> Scope {
    Scope::Project(id.to_owned())
}

/// Two projects where the agent ran commands with a value the user corrects later in a third
/// session of one of them: the correction, its sentence, the value.
async fn corrected_in_one_project(correction: &str, old: &str) -> String {
    let mut story = Story::new();
    story
        .session("claude", "a-1", Some("courier"), "/home/alice/src/courier")
        .prompt("I want PRs opened as drafts, always, and assign them to me, I'm rafa-ib on github.")
        .bash_ok("gh pr create --draft --assignee rafa-ib --title 'Zone capacity' --body 'adds the endpoint'")
        .bash_ok("docker compose up -d postgres")
        .bash_ok("go test ./...")
        .stop()
        .session("codex", "b-1", Some("pantry"), "/home/alice/src/pantry")
        .prompt("add the nightly cart sweep job")
        .bash_ok("gh pr create --draft --assignee rafa-ib --title 'Cart sweep' --body 'nightly job'")
        .bash_ok("docker compose up -d redis")
        .bash_ok("bundle exec rspec")
        .stop();
    let first = story.events().len();
    story
        .days_later(5)
        .session("cursor", "b-2", Some("pantry"), "/home/alice/src/pantry")
        .prompt(correction)
        .stop();
    let events = story.events();
    let store = store_with(&events[..first]).await;
    dream_once(&store).await;
    store.append(&events[first..]).await.unwrap();
    dream_once(&store).await;
    let notes = dump(&store).await;
    for (scope, path) in [
        (project("courier"), "project/courier/commands.md"),
        (project("pantry"), "project/pantry/commands.md"),
    ] {
        let commands = body(&store, &scope, path).await.unwrap_or_default();
        assert!(!commands.contains(old), "{correction:?}: {old:?} leaves {path}:\n{notes}");
    }
    notes
}

#[tokio::test]
async fn a_correction_of_the_user_reaches_the_commands_of_every_project() {
    for (correction, old) in [
        (
            "ignore what I told you about my github handle, the old one went away with the SSO migration, it's ribanez now.",
            "rafa-ib",
        ),
        ("my github username changed, I'm ribanez now, not rafa-ib.", "rafa-ib"),
        (
            "the container setup from last time, throw that out: docker desktop licences got pulled, so everything runs on podman now.",
            "docker",
        ),
        (
            "scrap that thing I said about how to open PRs. from now on they go up ready for review straight away.",
            "--draft",
        ),
    ] {
        let notes = corrected_in_one_project(correction, old).await;
        // What does not depend on the old value stays.
        assert!(notes.contains("`go test ./...`") && notes.contains("`bundle exec rspec`"), "{notes}");
    }
}

#[tokio::test]
async fn a_project_rule_leaves_other_projects_commands_alone() {
    let mut story = Story::new();
    story
        .session("claude", "a-1", Some("courier"), "/home/alice/src/courier")
        .bash_ok("npm install")
        .bash_ok("npm test")
        .stop()
        .session("codex", "b-1", Some("pantry"), "/home/alice/src/pantry")
        .bash_ok("npm install")
        .stop()
        .days_later(1)
        .session("codex", "b-2", Some("pantry"), "/home/alice/src/pantry")
        .prompt("in this repo we use pnpm, not npm.")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let courier = body(&store, &project("courier"), "project/courier/commands.md").await.unwrap_or_default();
    assert!(courier.contains("`npm test`"), "another project keeps its own tool:\n{courier}");
    let pantry = body(&store, &project("pantry"), "project/pantry/commands.md").await.unwrap_or_default();
    assert!(!pantry.contains("npm install"), "{pantry}");
}

#[tokio::test]
async fn files_under_a_replaced_tools_folder_leave_the_hot_files() {
    for correction in [
        "the old e2e tool is history, we ditched it last sprint. e2e is Playwright now.",
        "we moved off Cypress, Playwright runs the e2e tests now.",
        "forget the e2e setup I described before, it's playwright now.",
    ] {
        let mut story = Story::new();
        story
            .session("claude", "w-1", Some("storefront"), "/home/alice/src/storefront")
            .prompt("our e2e tests are Cypress, specs in apps/web/cypress/e2e.")
            .edit("apps/web/cypress/e2e/cart-drawer.cy.ts")
            .edit("apps/web/components/CartDrawer.tsx")
            .stop()
            .days_later(3)
            .session("cursor", "w-2", Some("storefront"), "/home/alice/src/storefront")
            .prompt(correction)
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let hot =
            body(&store, &project("storefront"), "project/storefront/hot-files.md").await.unwrap_or_default();
        assert!(!hot.contains("cypress/"), "{correction:?}:\n{hot}");
        assert!(hot.contains("CartDrawer.tsx"), "{correction:?}:\n{hot}");
    }
}

#[tokio::test]
async fn a_correction_takes_only_its_clause_from_a_line_that_says_more() {
    for (first, correction, gone, stays) in [
        (
            "background jobs run on Sidekiq (config/sidekiq.yml), and we lint with RuboCop on every file we touch.",
            "What I said about the linter back then doesn't hold anymore: we switched to Standard.",
            "RuboCop",
            "Sidekiq",
        ),
        (
            "the api is deployed with Kamal; we lint with RuboCop on every file we touch.",
            "the linter I told you about got replaced, it's Standard now.",
            "RuboCop",
            "Kamal",
        ),
        (
            "our e2e tests are Cypress — and the api runs on Fly.io in two regions.",
            "the e2e setup I described before is history, it's playwright now.",
            "Cypress",
            "Fly.io",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "p-1", Some("pantry"), "/home/alice/src/pantry")
            .prompt(first)
            .stop()
            .days_later(3)
            .session("codex", "p-2", Some("pantry"), "/home/alice/src/pantry")
            .prompt(correction)
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let conventions =
            body(&store, &project("pantry"), "project/pantry/conventions.md").await.unwrap_or_default();
        assert!(!conventions.contains(gone), "{correction:?}:\n{conventions}");
        assert!(conventions.contains(stays), "{correction:?}:\n{conventions}");
    }
}

#[tokio::test]
async fn that_after_a_retraction_points_at_what_was_just_taken_back() {
    for (first, correction) in [
        (
            "the integration tests get their postgres from dockertest.",
            "forget what I told you about where the integration tests get their database. we moved off that library last sprint, it's testcontainers-go now.",
        ),
        (
            "the e2e suite runs on Cypress.",
            "scratch what I said about the e2e tests. that tool is history, playwright runs them now.",
        ),
        (
            "screenshots in docs are made with shot-scraper.",
            "ignore what I told you about screenshots. we dropped that package, it's playwright's screenshot now.",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "k-1", Some("kestrel"), "/home/alice/src/kestrel")
            .prompt("a general rule for all my projects: ask me before adding any new gem/package/dependency/library.")
            .prompt(first)
            .stop()
            .days_later(3)
            .session("codex", "k-2", Some("kestrel"), "/home/alice/src/kestrel")
            .prompt(correction)
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
        assert!(profile.contains("ask me before adding"), "{correction:?}:\n{profile}");
        let conventions =
            body(&store, &project("kestrel"), "project/kestrel/conventions.md").await.unwrap_or_default();
        assert!(!conventions.contains(first), "{correction:?}:\n{conventions}");
    }
}

#[tokio::test]
async fn a_value_the_pointer_names_leaves_the_commands_and_fixes_that_used_it() {
    for (command, correction, old) in [
        (
            "PLAYWRIGHT_BASE_URL=https://wren-staging.vercel.app pnpm e2e",
            "staging moved, the vercel url is dead. it's https://wren.stg.example.io now.",
            "vercel.app",
        ),
        (
            "psql postgres://app@db-legacy.internal:5432/app -c 'select 1'",
            "the legacy database host is gone, everything is on db-main.internal now.",
            "db-legacy",
        ),
        (
            "curl -fsS https://api.sandbox-eu.example.com/health",
            "forget the sandbox endpoint I gave you, we test against https://api.staging.example.com now.",
            "sandbox-eu",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "w-1", Some("wren"), "/home/alice/src/wren")
            .bash_ok(command)
            .bash_ok("pnpm test")
            .stop()
            .days_later(2)
            .session("codex", "w-2", Some("wren"), "/home/alice/src/wren")
            .prompt(correction)
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let commands = body(&store, &project("wren"), "project/wren/commands.md").await.unwrap_or_default();
        assert!(!commands.contains(old), "{correction:?}:\n{commands}");
        assert!(commands.contains("`pnpm test`"), "{correction:?}:\n{commands}");
    }
}

#[tokio::test]
async fn a_rule_said_for_everywhere_that_names_a_repo_stays_in_the_profile_through_later_dreams() {
    for rule in [
        "throwaway scripts go in ~/sandbox, never in the repo, that's true everywhere.",
        "in every repo, keep secrets out of the repo's history, rotate anything that slips in.",
        "generally, any repo: no generated files checked into the repo.",
    ] {
        let mut story = Story::new();
        story.session("claude", "e-1", Some("courier"), "/home/alice/src/courier").prompt(rule).stop();
        let first = story.events().len();
        story
            .days_later(2)
            .session("codex", "e-2", Some("pantry"), "/home/alice/src/pantry")
            .prompt("I like answers short, the diff first and then one line of why.")
            .stop();
        let events = story.events();
        let store = store_with(&events[..first]).await;
        dream_once(&store).await;
        store.append(&events[first..]).await.unwrap();
        dream_once(&store).await;
        let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
        assert!(profile.contains(rule), "{rule:?} is lost from the profile:\n{profile}");
        assert!(profile.contains("answers short"), "{profile}");
    }
}
