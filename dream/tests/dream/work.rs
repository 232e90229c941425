//! What the agent did: commands kept apart from preferences, flags credited to their program, tool
//! notes where the tool is used, error→fix pairs that name the fix, and files, commands and tool
//! notes that retire.

use memory_core::{MemoryStore, Scope};

use crate::support::{Story, all_notes, body, dream_once, store_with, visible_in};

fn project(id: &str) -> Scope {
    Scope::Project(id.to_owned())
}

async fn errors_of(store: &dyn MemoryStore, id: &str) -> String {
    body(store, &project(id), &format!("project/{id}/errors.md")).await.unwrap_or_default()
}

#[tokio::test]
async fn error_fix_pairs_name_the_fix_in_every_harness() {
    let mut story = Story::new();
    story
        .session("claude", "rs-1", Some("ledger"), "/home/alice/src/ledger")
        .bash_fail(
            "cargo test",
            "Exit code 101\n   Compiling openssl-sys v0.9.103\nerror: linking with `cc` failed: exit status: 1\n  = note: /usr/bin/ld: cannot find -lssl",
        )
        .read("Cargo.toml")
        .bash_ok("cargo test --features vendored")
        .stop();
    story
        .session("codex", "py-1", Some("api"), "/home/alice/src/api")
        .bash_fail(
            "uv run pytest -q",
            "ImportError while loading conftest\nE   ModuleNotFoundError: No module named 'httpx'",
        )
        .bash_ok("uv add --dev httpx")
        .bash_ok("git status --short")
        .bash_ok("uv run pytest -q")
        .stop();
    story
        .session("cursor", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .bash_fail("pnpm test src/date.test.ts", "AssertionError: expected '2026-02-28' to be '2026-03-01'")
        .edit("src/cart.ts")
        .bash_ok("TZ=UTC pnpm test src/date.test.ts")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;

    let ledger = errors_of(&store, "ledger").await;
    assert!(
        ledger.contains(
            "`cargo test` failed with \"error: linking with 'cc' failed: exit status: 1\"; it passed with `--features vendored` added"
        ),
        "{ledger}"
    );
    let api = errors_of(&store, "api").await;
    assert!(
        api.contains(
            "`uv run pytest -q` failed with \"E   ModuleNotFoundError: No module named 'httpx'\"; it passed after running `uv add --dev httpx`"
        ),
        "a Codex failure is a failure, and the fix is the command run in between:\n{api}"
    );
    assert!(!api.contains("git status"), "looking around is not a fix:\n{api}");
    let webshop = errors_of(&store, "webshop").await;
    assert!(webshop.contains("it passed with `TZ=UTC` set"), "{webshop}");
    assert!(!webshop.contains("src/cart.ts"), "the fix was the variable, not the edit:\n{webshop}");
}

#[tokio::test]
async fn a_fix_is_kept_with_what_went_wrong_not_the_runners_banner() {
    let mut story = Story::new();
    story
        .session("claude", "rb-1", Some("shop"), "/home/alice/src/shop")
        .bash_fail(
            "bundle exec rspec spec/requests/cart_spec.rb",
            "F\n\nFailures:\n\n  1) Cart shows the total\n     Failure/Error: <%= stylesheet_link_tag \"app\" %>\n\n     ActionView::Template::Error:\n       The asset \"app.css\" is not present in the asset pipeline.\n     # ./app/views/layouts/application.html.erb:9\n",
        )
        .bash_ok("bin/rails dartsass:build")
        .bash_ok("bundle exec rspec spec/requests/cart_spec.rb")
        .stop();
    story
        .session("codex", "dbt-1", Some("warehouse"), "/home/alice/src/warehouse")
        .bash_fail(
            "dbt build --select stg_orders",
            "10:41:07  Running with dbt=1.8.7\n10:41:08  Encountered an error:\nCompilation Error\n  dbt found 1 package(s) specified in packages.yml, but only 0 package(s) installed in dbt_packages.\n",
        )
        .bash_ok("dbt deps")
        .bash_ok("dbt build --select stg_orders")
        .stop();
    story
        .session("cursor", "rs-2", Some("ledger"), "/home/alice/src/ledger")
        .bash_fail(
            "cargo nextest run",
            "    Starting 9 tests across 1 binary\n        FAIL [   0.210s] ledger::cli report\nsnapshot assertion for 'report' failed in line 12\n     Summary [   0.400s] 9 tests run: 8 passed, 1 failed\n",
        )
        .bash_ok("cargo insta accept")
        .bash_ok("cargo nextest run")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;

    let shop = errors_of(&store, "shop").await;
    assert!(
        shop.contains("failed with \"ActionView::Template::Error: The asset \"app.css\" is not present in the asset pipeline.\"; it passed after running `bin/rails dartsass:build`"),
        "the message the error's name introduces, not the template line:\n{shop}"
    );
    let warehouse = errors_of(&store, "warehouse").await;
    assert!(
        warehouse.contains("failed with \"Encountered an error: Compilation Error dbt found 1 package(s) specified in packages.yml"),
        "what the error says, without the log's time stamp:\n{warehouse}"
    );
    assert!(warehouse.contains("it passed after running `dbt deps`"), "{warehouse}");
    let ledger = errors_of(&store, "ledger").await;
    assert!(
        ledger.contains("failed with \"snapshot assertion for 'report' failed in line 12\"; it passed after running `cargo insta accept`"),
        "the assertion that failed, not the runner's opening line:\n{ledger}"
    );
}

#[tokio::test]
async fn an_edit_is_the_fix_when_the_command_did_not_change() {
    let mut story = Story::new();
    story
        .session("claude", "rs-1", Some("ledger"), "/home/alice/src/ledger")
        .bash_fail("cargo test", "Exit code 101\nerror[E0425]: cannot find value `backoff` in this scope")
        .edit("src/retry.rs")
        .bash_ok("cargo test")
        .bash_fail("cargo test", "Exit code 101\ntest retry::flaky ... FAILED")
        .bash_ok("cargo test");
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let errors = errors_of(&store, "ledger").await;
    assert!(errors.contains("; it passed after editing `src/retry.rs`"), "{errors}");
    assert!(errors.contains("\"test retry::flaky ... FAILED\"; it passed when rerun unchanged"), "{errors}");
}

#[tokio::test]
async fn agent_commands_are_not_user_preferences_and_flags_go_to_their_program() {
    let mut story = Story::new();
    story
        .session("codex", "py-1", Some("api"), "/home/alice/src/api")
        .bash_ok("git status --short")
        .bash_ok("uv run pytest -q")
        .bash_ok("uv run pytest -q tests/test_auth.py")
        .bash_ok("poetry run black --check .")
        .stop();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .bash_ok("git status")
        .bash_ok("pnpm test -- --watch")
        .bash_ok("cd web && pnpm run lint --fix")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let notes = all_notes(&store).await;
    let paths: Vec<String> = notes.iter().map(|n| format!("{} {}", n.meta.scope, n.path)).collect();
    assert!(
        notes.iter().all(|n| n.meta.scope != Scope::User),
        "each tool was used in one project: {paths:?}"
    );
    assert!(!paths.iter().any(|p| p.contains("git")), "looking at git status teaches nothing: {paths:?}");
    assert!(!paths.iter().any(|p| p.contains("/uv/")), "`uv run` passes no flags: {paths:?}");
    let pytest = body(&store, &project("api"), "project/api/tools/pytest/flags.md").await.unwrap();
    assert!(pytest.contains("`-q` (2×"), "{pytest}");
    let black = body(&store, &project("api"), "project/api/tools/black/flags.md").await.unwrap();
    assert!(black.contains("`--check`"), "{black}");
    let pnpm_test =
        body(&store, &project("webshop"), "project/webshop/tools/pnpm/test-flags.md").await.unwrap();
    assert!(pnpm_test.contains("`--watch`"), "{pnpm_test}");
    let lint = body(&store, &project("webshop"), "project/webshop/tools/pnpm/lint-flags.md").await.unwrap();
    assert!(lint.contains("`--fix`"), "{lint}");
    for note in &notes {
        assert!(!note.body.contains("the user passes"), "agent commands are not user habits:\n{}", note.body);
    }
}

#[tokio::test]
async fn tool_notes_go_where_the_tool_is_used() {
    let mut story = Story::new();
    story
        .session("claude", "py-1", Some("api"), "/home/alice/src/api")
        .bash_ok("poetry install --sync")
        .bash_ok("cargo test --workspace")
        .stop();
    story
        .session("codex", "rs-1", Some("ledger"), "/home/alice/src/ledger")
        .bash_ok("cargo test --workspace --all-features")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let ledger = visible_in(&store, "ledger").await;
    assert!(!ledger.contains("poetry"), "a Python project's tools stay in it:\n{ledger}");
    let shared =
        body(&store, &Scope::User, "tools/cargo/test-flags.md").await.expect("cargo is used in two projects");
    assert!(shared.contains("`--all-features`"), "{shared}");
    assert!(body(&store, &project("ledger"), "project/ledger/tools/cargo/test-flags.md").await.is_none());

    // The next time api uses cargo, its own note joins the shared one.
    let mut more = Story::new();
    more.session("claude", "py-2", Some("api"), "/home/alice/src/api").bash_ok("cargo test --workspace");
    store.append(&more.events()).await.unwrap();
    dream_once(&store).await;
    assert!(body(&store, &project("api"), "project/api/tools/cargo/test-flags.md").await.is_none());
    let shared = body(&store, &Scope::User, "tools/cargo/test-flags.md").await.unwrap();
    assert!(shared.contains("`--workspace` (3×"), "{shared}");
    assert!(body(&store, &project("api"), "project/api/tools/poetry/install-flags.md").await.is_some());
}

#[tokio::test]
async fn a_note_the_user_wrote_about_a_tool_does_not_pull_one_projects_flags_into_theirs() {
    let mut story = Story::new();
    story
        .session("claude", "py-1", Some("billing"), "/home/alice/src/billing")
        .bash_ok("uv run alembic revision --autogenerate -m \"add tax_rate\"")
        .stop();
    let store = store_with(&story.events()).await;
    let mut tips = memory_core::Note {
        path: memory_core::NotePath::new("tools/alembic/tips.md").unwrap(),
        meta: memory_core::NoteMeta {
            title: "alembic tips".to_owned(),
            description: None,
            tags: Vec::new(),
            scope: Scope::User,
            kind: memory_core::NoteKind::Tool,
            sources: Vec::new(),
            updated: chrono::DateTime::UNIX_EPOCH,
            generator: memory_core::GENERATOR_HUMAN.to_owned(),
            owner: None,
        },
        body: "- `alembic downgrade -1` undoes the last revision.\n".to_owned(),
    };
    store.put_note(&tips).await.unwrap();
    dream_once(&store).await;
    let flags = "project/billing/tools/alembic/revision-flags.md";
    let kept = body(&store, &project("billing"), flags).await.expect("the flags stay in the project");
    assert!(kept.contains("`--autogenerate`"), "{kept}");
    assert!(body(&store, &Scope::User, "tools/alembic/revision-flags.md").await.is_none());

    // A note a dream filed with the user's does mean the tool is shared.
    tips.path = memory_core::NotePath::new("tools/alembic/upgrade-flags.md").unwrap();
    tips.meta.generator = "deterministic".to_owned();
    store.put_note(&tips).await.unwrap();
    let mut more = Story::new();
    more.session("codex", "py-2", Some("billing"), "/home/alice/src/billing")
        .bash_ok("uv run alembic revision -m x");
    store.append(&more.events()).await.unwrap();
    dream_once(&store).await;
    assert!(body(&store, &Scope::User, "tools/alembic/revision-flags.md").await.is_some());
}

#[tokio::test]
async fn deleted_files_are_not_hot_and_cursor_edits_count_once() {
    for harness in ["claude", "codex", "cursor"] {
        let mut story = Story::new();
        story
            .session(harness, "s", Some("webshop"), "/home/alice/src/webshop")
            .edit("src/legacy.ts")
            .edit("src/legacy.ts")
            .read("src/legacy.ts")
            .edit("src/app.tsx")
            .edit("src/app.tsx")
            .delete("src/legacy.ts");
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let hot = body(&store, &project("webshop"), "project/webshop/hot-files.md").await.unwrap();
        assert!(!hot.contains("legacy.ts"), "{harness}: a deleted file is not hot:\n{hot}");
        assert!(hot.contains("edited `src/app.tsx` (2×"), "{harness}: one record per edit:\n{hot}");
    }
}

#[tokio::test]
async fn commands_no_longer_used_retire() {
    let mut story = Story::new();
    story
        .session("claude", "old", Some("webshop"), "/home/alice/src/webshop")
        .bash_ok("npm run build")
        .bash_ok("npm run build")
        .edit("src/old.ts")
        .days_later(90)
        .session("claude", "new", Some("webshop"), "/home/alice/src/webshop")
        .bash_ok("vite build")
        .edit("src/app.tsx");
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let commands = body(&store, &project("webshop"), "project/webshop/commands.md").await.unwrap();
    assert!(commands.contains("`vite build`") && !commands.contains("npm run build"), "{commands}");
    let hot = body(&store, &project("webshop"), "project/webshop/hot-files.md").await.unwrap();
    assert!(hot.contains("src/app.tsx") && !hot.contains("src/old.ts"), "{hot}");
}

/// Statements, corrections, failures and fixes, tools shared across projects, deletions, over
/// three projects, sessions outside any project and three harnesses.
fn mixed_workload() -> Vec<memory_core::HookEvent> {
    let mut story = Story::new();
    for round in 0..3 {
        for (harness, id) in [("claude", "api"), ("codex", "ledger"), ("cursor", "webshop")] {
            story
                .session(harness, &format!("{id}-{round}"), Some(id), &format!("/home/alice/src/{id}"))
                .prompt("I prefer small commits. We're on Postgres 14 for the main database.")
                .prompt("please always use pnpm here, not npm")
                .bash_ok("npm test -- --watch")
                .bash_ok("cargo test --workspace")
                .bash_ok("docker run -d postgres:14")
                .edit("src/lib.rs")
                .read("src/old.rs")
                .bash_fail("cargo build --release", "error: linking with `cc` failed")
                .bash_ok("cargo add openssl --features vendored")
                .bash_ok("cargo build --release")
                .prompt("we moved to Postgres 16, ignore the 14 stuff")
                .bash_ok("curl -s localhost:3000/health")
                .prompt("the dev server is on 5173 now")
                .delete("src/old.rs")
                .bash_ok("uv run pytest -q")
                .stop();
        }
        story
            .session("codex", &format!("home-{round}"), None, "/home/alice")
            .prompt("Never force-push.")
            .bash_ok("rg -n --hidden TODO");
        story.days_later(20);
    }
    story.events()
}

#[tokio::test]
async fn the_distiller_output_is_valid_at_every_chunk_size_and_identical_across_runs() {
    let events = mixed_workload();
    for chunk_size in [1, 2, 3, 5, 8, 13, 200] {
        let mut runs = Vec::new();
        for _ in 0..2 {
            let store = store_with(&events).await;
            let mut options = crate::support::options();
            options.chunk_size = chunk_size;
            let report =
                dream::run(&store, &dream::DeterministicProvider::new(), &options, &dream::NoProgress)
                    .await
                    .unwrap();
            assert!(report.failures.is_empty(), "chunk size {chunk_size}: {:?}", report.failures);
            runs.push(crate::support::dump(&store).await);
        }
        assert_eq!(runs[0], runs[1], "chunk size {chunk_size}: two runs differ");
        let webshop = visible_in(&store_after(&events, chunk_size).await, "webshop").await;
        assert!(
            !webshop.contains("Postgres 14") && !webshop.contains("localhost:3000"),
            "{chunk_size}:\n{webshop}"
        );
        assert!(!webshop.contains("src/old.rs"), "{chunk_size}:\n{webshop}");
    }
}

async fn store_after(events: &[memory_core::HookEvent], chunk_size: usize) -> memory_core::InMemoryStore {
    let store = store_with(events).await;
    let mut options = crate::support::options();
    options.chunk_size = chunk_size;
    dream::run(&store, &dream::DeterministicProvider::new(), &options, &dream::NoProgress).await.unwrap();
    store
}

/// A project's notes are filed under its name; notes filed under its id (as earlier versions did)
/// or under an old name move there with their history the first time a dream works on it.
#[tokio::test]
async fn project_notes_live_under_the_project_name_and_old_folders_move_there() {
    use memory_core::{Note, NoteKind, NoteMeta, NotePath};
    let id = "ledger-c4075b98";
    let scope = project(id);
    let note = |path: &str, body: &str, minutes: i64| Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: "Conventions of ledger".into(),
            description: None,
            tags: Vec::new(),
            scope: scope.clone(),
            kind: NoteKind::Convention,
            sources: Vec::new(),
            updated: crate::support::now() - chrono::Duration::minutes(minutes),
            generator: "deterministic".into(),
            owner: None,
        },
        body: body.into(),
    };
    let mut story = Story::new();
    story
        .session("claude", "rs-2", Some(id), "/home/alice/src/ledger")
        .prompt("in this crate errors go through thiserror, and no unwrap() outside tests")
        .bash_fail("cargo build", "error: failed to run custom build command for `openssl-sys v0.9.103`")
        .bash_ok("cargo build --features vendored")
        .stop();
    let store = store_with(&story.events()).await;
    let old = format!("project/{id}/conventions.md");
    store.put_note(&note(&old, "- MSRV is 1.75.\n", 60)).await.unwrap();
    store.put_note(&note(&old, "- MSRV is 1.82.\n", 30)).await.unwrap();
    store.put_note(&note("project/old-ledger/hot-files.md", "- `src/lib.rs`\n", 20)).await.unwrap();

    let mut options = crate::support::options();
    options.project_names.insert(id.to_owned(), "ledger".to_owned());
    let report =
        dream::run(&store, &dream::DeterministicProvider::new(), &options, &dream::NoProgress).await.unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);

    let paths: Vec<String> = all_notes(&store)
        .await
        .into_iter()
        .filter(|n| n.meta.scope == scope)
        .map(|n| n.path.to_string())
        .collect();
    assert!(paths.iter().all(|p| p.starts_with("project/ledger/")), "{paths:?}");
    assert!(
        paths.contains(&"project/ledger/errors.md".to_owned()),
        "the dream writes under the name: {paths:?}"
    );
    let conventions = body(&store, &scope, "project/ledger/conventions.md").await.unwrap();
    assert!(conventions.contains("MSRV is 1.82") && conventions.contains("thiserror"), "{conventions}");
    let path = NotePath::new("project/ledger/conventions.md").unwrap();
    let history: Vec<String> =
        store.note_history(&scope, &path).await.unwrap().into_iter().map(|n| n.body).collect();
    assert!(history.iter().any(|b| b.contains("MSRV is 1.75")), "the history moved too: {history:?}");
    assert!(body(&store, &scope, &old).await.is_none());
    assert!(
        body(&store, &scope, "project/ledger/hot-files.md").await.is_some(),
        "an old name's folder moves too"
    );

    // Without a name, the id is the folder, as before.
    let mut story = Story::new();
    story
        .session("codex", "x-1", Some("api-0a1b2c3d"), "/home/alice/src/api")
        .bash_fail("make", "boom")
        .bash_ok("make -j1")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    assert!(body(&store, &project("api-0a1b2c3d"), "project/api-0a1b2c3d/errors.md").await.is_some());
}

/// A scope holding two folders whose notes would land on the same path keeps both: the one whose
/// path is taken gets a numbered one in the project's folder. A note written by hand at the top
/// of the scope joins the folder too.
#[tokio::test]
async fn a_note_whose_new_path_is_taken_gets_a_numbered_one() {
    use memory_core::{Note, NoteKind, NoteMeta, NotePath};
    let id = "shop-0a1b2c3d";
    let scope = project(id);
    let note = |path: &str, body: &str| Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: "Deploying".into(),
            description: None,
            tags: Vec::new(),
            scope: scope.clone(),
            kind: NoteKind::Fact,
            sources: Vec::new(),
            updated: crate::support::now(),
            generator: "human".into(),
            owner: None,
        },
        body: body.into(),
    };
    let mut story = Story::new();
    story.session("claude", "s-1", Some(id), "/home/alice/src/shop").bash_ok("make deploy").stop();
    let store = store_with(&story.events()).await;
    store.put_note(&note("project/shop/deploy.md", "- Tuesdays.\n")).await.unwrap();
    store.put_note(&note("project/old-shop/deploy.md", "- Fridays, from the old repo.\n")).await.unwrap();
    store.put_note(&note("procedures/release.md", "- Tag first.\n")).await.unwrap();
    let mut options = crate::support::options();
    options.project_names.insert(id.to_owned(), "shop".to_owned());
    dream::run(&store, &dream::DeterministicProvider::new(), &options, &dream::NoProgress).await.unwrap();
    assert_eq!(body(&store, &scope, "project/shop/deploy.md").await.as_deref(), Some("- Tuesdays.\n"));
    assert_eq!(
        body(&store, &scope, "project/shop/deploy-2.md").await.as_deref(),
        Some("- Fridays, from the old repo.\n")
    );
    assert!(body(&store, &scope, "project/old-shop/deploy.md").await.is_none());
    assert_eq!(
        body(&store, &scope, "project/shop/procedures/release.md").await.as_deref(),
        Some("- Tag first.\n")
    );
}

#[tokio::test]
async fn a_command_the_user_ruled_out_is_not_listed_as_one_to_reuse() {
    // Three ways of ruling a tool out; each time the agent runs it anyway afterwards.
    let cases = [
        ("never npm here, it's pnpm", "npm install left-pad", "pnpm test"),
        ("We don't use yarn in this repo anymore, we switched to pnpm.", "yarn add zod", "pnpm build"),
        ("please stop using pip for this project, use uv instead", "pip install requests", "uv sync"),
    ];
    for (n, (rule, forbidden, fine)) in cases.iter().enumerate() {
        let mut story = Story::new();
        story
            .session("claude", &format!("rule-{n}"), Some("shop"), "/home/alice/src/shop")
            .prompt(rule)
            .bash_ok(forbidden)
            .bash_ok(fine)
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let commands = body(&store, &project("shop"), "project/shop/commands.md").await.unwrap_or_default();
        assert!(commands.contains(&format!("`{fine}`")), "{rule:?}: {commands}");
        assert!(!commands.contains(forbidden), "{rule:?} rules out `{forbidden}`:\n{commands}");
    }
}

#[tokio::test]
async fn flag_notes_carry_the_values_they_were_given() {
    let mut story = Story::new();
    story
        .session("claude", "flags-1", Some("shop"), "/home/alice/src/shop")
        .bash_ok("cargo clippy --all-targets -- -D warnings")
        .bash_ok("pnpm vitest run --reporter=dot")
        .bash_ok("pnpm dev --port 5173")
        .bash_ok("pytest -k test_checkout_total -q")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let shop = visible_in(&store, "shop").await;
    for expected in ["`-D warnings`", "`--reporter=dot`", "`--port 5173`", "`-q`"] {
        assert!(shop.contains(expected), "missing {expected} in\n{shop}");
    }
    for bare in ["`-D`", "`--reporter`", "`--port`", "`-k"] {
        assert!(!shop.contains(bare), "{bare} without its value (or a one-run filter) in\n{shop}");
    }
}

#[tokio::test]
async fn a_tool_taken_back_by_its_kinds_short_name_leaves_its_flags_note() {
    for correction in [
        "the old e2e tool is history, we ditched it last sprint. e2e is Playwright now, run with `pnpm --filter web exec playwright test`.",
        "forget the e2e setup I described, we're on playwright now.",
        "scrap what I said about e2e: it's playwright from today.",
    ] {
        let mut story = Story::new();
        story
            .session("codex", "s2", Some("storefront"), "/home/alice/src/storefront")
            .prompt("the cart drawer e2e is flaky. e2e lives in apps/web/cypress/e2e and runs with `pnpm --filter web cypress run`. fix it")
            .bash_ok("pnpm --filter web cypress run --spec cypress/e2e/cart-drawer.cy.ts")
            .bash_ok("pnpm --filter web cypress run --spec cypress/e2e/cart-drawer.cy.ts")
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let flags = "project/storefront/tools/cypress/run-flags.md";
        assert!(body(&store, &project("storefront"), flags).await.is_some(), "{correction}");
        let mut later = Story::new();
        later
            .session("cursor", "s12", Some("storefront"), "/home/alice/src/storefront")
            .prompt(correction)
            .stop();
        store.append(&later.events()).await.unwrap();
        dream_once(&store).await;
        assert_eq!(body(&store, &project("storefront"), flags).await, None, "{correction}");
    }
}

#[tokio::test]
async fn the_hot_files_say_what_each_file_was_edited_for() {
    for (prompt, file, said, unsaid) in [
        (
            "the agrisense dumps have a BOM on the first header, which breaks column matching. strip it in the csv reader",
            "src/ingest/csv_reader.rs",
            ["header", "column"],
            ["csv", "strip"],
        ),
        (
            "technicians lose photos when the signal drops, add a retry with backoff to the upload queue please",
            "src/sync/queue.ts",
            ["retry", "upload"],
            ["queue", "please"],
        ),
        (
            "when a product is out of stock we should offer the closest substitute by price, can you do that?",
            "app/services/substitution_picker.rb",
            ["stock", "substitute"],
            ["can", "services"],
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "s1", Some("pantry"), "/home/alice/src/pantry")
            .prompt(prompt)
            .edit(file)
            .bash_ok("make test")
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let hot = body(&store, &project("pantry"), "project/pantry/hot-files.md").await.unwrap_or_default();
        let line = hot.lines().find(|l| l.contains(file)).unwrap_or_default().to_owned();
        let (_, words) = line.split_once(" — ").unwrap_or_default();
        for word in said {
            assert!(words.contains(word), "{prompt}: {line}");
        }
        for word in unsaid {
            assert!(!words.split([',', ' ', '(']).any(|w| w == word), "{prompt}: {line}");
        }
    }
}

#[tokio::test]
async fn what_a_file_was_edited_for_leaves_out_other_peoples_words_and_what_was_only_imagined() {
    for (prompt, unsaid) in [
        (
            "priya from the platform team swears by arena allocators here. anyway, fix the leak in the frame pool",
            ["priya", "arena"],
        ),
        (
            "if we ever move the whole thing to zig someday, this pool goes away. please fix the leak in the frame pool",
            ["zig", "someday"],
        ),
        (
            "my old lead used to say mutexes are a smell lol. the frame pool leaks on resize, fix it",
            ["mutexes", "smell"],
        ),
        (
            "just curious, would vulkan 1.3 even need a pool like this? anyway, could you fix the leak in the frame pool",
            ["curious", "vulkan"],
        ),
    ] {
        let mut story = Story::new();
        story
            .session("codex", "s1", Some("engine"), "/home/alice/src/engine")
            .prompt(prompt)
            .edit("src/render/frame_pool.cpp")
            .bash_ok("cmake --build build")
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let hot = body(&store, &project("engine"), "project/engine/hot-files.md").await.unwrap_or_default();
        let line = hot.lines().find(|l| l.contains("frame_pool.cpp")).unwrap_or_default().to_owned();
        assert!(line.contains("leak"), "{prompt}: {line}");
        for word in unsaid {
            assert!(!line.contains(word), "{prompt}: {line}");
        }
    }
}

#[tokio::test]
async fn a_persons_hot_files_note_gets_no_second_line_for_a_file_it_lists() {
    for (prompt, listed) in [
        ("the retry in the uploader gives up too early, make it try five times", "- edited `src/retry.rs`\n"),
        ("add jitter to the retry backoff", "- edited `src/retry.rs` (my hot spot)\n"),
        ("retries should log each attempt at debug", "- edited `src/retry.rs` — the retry loop\n"),
    ] {
        let store = store_with(&[]).await;
        let mine = memory_core::Note {
            path: memory_core::NotePath::new("project/pantry/hot-files.md").unwrap(),
            meta: memory_core::NoteMeta {
                title: "Hot files in pantry".into(),
                description: None,
                tags: Vec::new(),
                scope: project("pantry"),
                kind: memory_core::NoteKind::Fact,
                sources: Vec::new(),
                updated: crate::support::now() - chrono::Duration::days(3),
                generator: memory_core::GENERATOR_HUMAN.into(),
                owner: None,
            },
            body: format!("Files I keep coming back to.\n\n{listed}"),
        };
        store.put_note(&mine).await.unwrap();
        let mut story = Story::new();
        story
            .session("claude", "s1", Some("pantry"), "/home/alice/src/pantry")
            .prompt(prompt)
            .edit("src/retry.rs")
            .bash_ok("make test")
            .stop();
        store.append(&story.events()).await.unwrap();
        dream_once(&store).await;
        let hot = body(&store, &project("pantry"), "project/pantry/hot-files.md").await.unwrap_or_default();
        assert_eq!(hot.matches("src/retry.rs").count(), 1, "{prompt}: {hot}");
        assert!(hot.starts_with("Files I keep coming back to."), "{hot}");
    }
}
