//! What users say: durable statements kept in their words and in their scope, task requests and
//! one-offs left out, corrections replacing what they correct.

use memory_core::{MemoryStore, Scope};

use crate::support::{
    Story, all_notes, body, dream_once, dreamed_after_saying, dump, store_with, visible_in,
};

fn project(id: &str) -> Scope {
    Scope::Project(id.to_owned())
}

/// Three projects over three harnesses, with rules said the many ways people say them, mixed
/// with requests for work and instructions for one run only.
fn three_projects() -> Story {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("I like small commits with conventional commit messages.")
        .prompt("ok now can you fix the bug in src/cart.ts where the total is off by one?")
        .edit("src/cart.ts")
        .prompt("don't add comments that restate the code")
        .prompt("indent with tabs in this repo, not spaces")
        .prompt("please always use pnpm here, not npm")
        .bash_ok("pnpm install")
        .prompt("Fix the failing test in checkout.test.ts")
        .prompt("Just for this run, don't commit anything, I want to review the diff myself.")
        .prompt("I hate it when tests hit the real network.")
        .prompt("Add a test for the discount code parser.")
        .prompt("For now, skip the e2e tests.")
        .prompt("Prefer early returns over nested ifs.")
        .prompt("We're on Node 20 and deploy to Fly.")
        .stop();
    story
        .session("codex", "ledger-1", Some("ledger"), "/home/alice/src/ledger")
        .prompt("in this crate errors go through thiserror, and no unwrap() outside tests")
        .prompt("In this repo always run tests with `make check`, never `npm test`")
        .prompt("can you refactor the parser into its own module")
        .bash_ok("make check")
        .prompt("Avoid one-letter variable names.")
        .stop();
    story
        .session("cursor", "dash-1", Some("dashboard"), "/home/alice/src/dashboard")
        .prompt("the chart legend overlaps the axis labels, please take a look")
        .bash_ok("yarn test --watch=false")
        .stop();
    story
}

#[tokio::test]
async fn durable_statements_are_kept_in_the_users_words_and_in_their_scope() {
    let store = store_with(&three_projects().events()).await;
    dream_once(&store).await;
    let notes = dump(&store).await;

    let profile = body(&store, &Scope::User, "profile/preferences.md").await.expect("a profile note");
    for said in [
        "I like small commits with conventional commit messages.",
        "don't add comments that restate the code",
        "I hate it when tests hit the real network.",
        "Prefer early returns over nested ifs.",
        "Avoid one-letter variable names.",
    ] {
        assert!(profile.contains(said), "missing {said:?} in the profile:\n{profile}");
    }
    for project_only in ["pnpm", "tabs", "thiserror", "make check", "Node 20"] {
        assert!(!profile.contains(project_only), "{project_only:?} is project wording:\n{profile}");
    }

    let webshop = body(&store, &project("webshop"), "project/webshop/conventions.md").await.unwrap();
    for said in [
        "indent with tabs in this repo, not spaces",
        "please always use pnpm here, not npm",
        "We're on Node 20 and deploy to Fly.",
    ] {
        assert!(webshop.contains(said), "missing {said:?} in webshop's conventions:\n{webshop}");
    }
    let ledger = body(&store, &project("ledger"), "project/ledger/conventions.md").await.unwrap();
    for said in [
        "in this crate errors go through thiserror, and no unwrap() outside tests",
        "In this repo always run tests with `make check`, never `npm test`",
    ] {
        assert!(ledger.contains(said), "missing {said:?} in ledger's conventions:\n{ledger}");
    }
    assert!(!ledger.contains("pnpm") && !webshop.contains("thiserror"), "each project keeps its own");

    for not_a_rule in [
        "off by one",
        "checkout.test.ts",
        "don't commit anything",
        "discount code",
        "skip the e2e tests",
        "refactor the parser",
        "take a look",
    ] {
        assert!(
            !notes.contains(not_a_rule),
            "{not_a_rule:?} is a request or a one-off, not a rule:\n{notes}"
        );
    }
    let dashboard = visible_in(&store, "dashboard").await;
    assert!(!dashboard.contains("pnpm"), "webshop's pnpm rule stays in webshop:\n{dashboard}");
    assert!(!dashboard.contains("make check"), "{dashboard}");
}

#[tokio::test]
async fn a_project_rule_retires_the_commands_it_rules_out() {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .bash_ok("npm install")
        .bash_ok("npm test")
        .bash_ok("npm test")
        .prompt("please always use pnpm here, not npm")
        .bash_ok("pnpm install")
        .bash_ok("pnpm test");
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let commands = body(&store, &project("webshop"), "project/webshop/commands.md").await.unwrap();
    assert!(commands.contains("`pnpm test`") && commands.contains("`pnpm install`"), "{commands}");
    assert!(!commands.contains("`npm"), "npm was ruled out for this project:\n{commands}");
}

/// What the user said before the corrections, then the corrections.
fn before_and_after(story: &mut Story) -> (Vec<memory_core::HookEvent>, Vec<memory_core::HookEvent>) {
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("We're on Postgres 14 for the main database.")
        .prompt("The dev server runs on localhost:3000.")
        .prompt("use jest for unit tests")
        .prompt("We use Redis for the session cache.")
        .prompt("We use yarn workspaces.")
        .bash_ok("curl -s localhost:3000/health")
        .bash_ok("curl -s localhost:3000/health")
        .bash_ok("yarn dev --port 3000")
        .stop();
    let before = story.events();
    story
        .days_later(3)
        .session("codex", "web-2", Some("webshop"), "/home/alice/src/webshop")
        .prompt("we moved to Postgres 16, ignore the 14 stuff")
        .prompt("the dev server is on 5173 now")
        .prompt("actually use vitest, not jest")
        .prompt("We don't use Redis anymore, sessions live in Postgres.")
        .prompt("We switched from yarn to pnpm last week.")
        .bash_ok("curl -s localhost:5173/health")
        .stop();
    let all = story.events();
    (before.clone(), all[before.len()..].to_vec())
}

#[tokio::test]
async fn corrections_replace_what_they_correct_in_one_run_or_across_runs() {
    for across_runs in [false, true] {
        let (before, after) = before_and_after(&mut Story::new());
        let store = store_with(&before).await;
        if across_runs {
            dream_once(&store).await;
            let first = body(&store, &project("webshop"), "project/webshop/conventions.md").await.unwrap();
            assert!(first.contains("Postgres 14") && first.contains("localhost:3000"), "{first}");
        }
        store.append(&after).await.unwrap();
        dream_once(&store).await;
        let conventions = body(&store, &project("webshop"), "project/webshop/conventions.md").await.unwrap();
        for said in [
            "we moved to Postgres 16, ignore the 14 stuff",
            "the dev server is on 5173 now",
            "We don't use Redis anymore, sessions live in Postgres.",
            "We switched from yarn to pnpm last week.",
        ] {
            assert!(conventions.contains(said), "missing {said:?}:\n{conventions}");
        }
        for stale in ["Postgres 14", "localhost:3000", "Redis for the session cache", "yarn workspaces"] {
            assert!(
                !conventions.contains(stale),
                "{stale:?} was corrected (runs: {across_runs}):\n{conventions}"
            );
        }
        let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap();
        // The correction is kept as what it says, without its lead ("actually, ").
        assert!(profile.contains("- use vitest, not jest"), "{profile}");
        assert!(!profile.contains("use jest for unit tests"), "{profile}");
        let commands = body(&store, &project("webshop"), "project/webshop/commands.md").await.unwrap();
        assert!(commands.contains("localhost:5173"), "{commands}");
        assert!(!commands.contains("3000"), "the old port's commands retire:\n{commands}");
        assert!(!commands.contains("yarn"), "yarn was replaced by pnpm:\n{commands}");
        let visible = visible_in(&store, "webshop").await;
        assert!(!visible.contains("localhost:3000") && !visible.contains("Postgres 14"), "{visible}");
    }
}

#[tokio::test]
async fn a_general_correction_replaces_a_general_preference_only() {
    let mut story = Story::new();
    story
        .session("claude", "a", Some("webshop"), "/home/alice/src/webshop")
        .prompt("Indent with 4 spaces in this repo.")
        .prompt("I prefer 2 spaces for indentation.")
        .days_later(1)
        .prompt("Actually, I prefer 4 spaces for indentation now.");
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap();
    assert!(profile.contains("- I prefer 4 spaces for indentation now."), "{profile}");
    assert!(!profile.contains("I prefer 2 spaces"), "{profile}");
    let conventions = body(&store, &project("webshop"), "project/webshop/conventions.md").await.unwrap();
    assert!(conventions.contains("Indent with 4 spaces in this repo."), "{conventions}");
}

#[tokio::test]
async fn statements_outside_any_project_are_profile_only_and_project_wording_needs_a_project() {
    let mut story = Story::new();
    story
        .session("codex", "home", None, "/home/alice")
        .prompt("From now on, use rg instead of grep when searching.")
        .prompt("Always use pnpm in this repo.");
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let notes = all_notes(&store).await;
    assert!(notes.iter().all(|n| n.meta.scope == Scope::User), "{notes:?}");
    let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap();
    assert!(profile.contains("From now on, use rg instead of grep when searching."), "{profile}");
    assert!(!profile.contains("pnpm"), "a rule for some repo is nobody's profile:\n{profile}");
}

#[tokio::test]
async fn a_correction_may_give_its_new_value_before_pointing_back() {
    let mut story = Story::new();
    story
        .session("codex", "k-1", Some("kiln"), "/home/alice/src/kiln")
        .prompt("the config module for local runs is kiln.config.local, in case you need it")
        .stop();
    story
        .days_later(2)
        .session("cursor", "k-2", Some("kiln"), "/home/alice/src/kiln")
        .prompt("we split the config package, local runs use kiln.config.dev now and the old module path is gone. fix the entrypoint")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let conventions = body(&store, &project("kiln"), "project/kiln/conventions.md").await.unwrap();
    assert!(conventions.contains("kiln.config.dev"), "the new value is kept:\n{conventions}");
    assert!(!conventions.contains("kiln.config.local"), "the old value is retired:\n{conventions}");
}

#[tokio::test]
async fn a_correction_retires_the_line_it_resembles_most_among_those_it_points_at() {
    let mut story = Story::new();
    story
        .session("claude", "m-1", Some("mill"), "/home/alice/src/mill")
        .prompt("the docs site for this repo is built with sphinx, `make html` in docs/ to preview it.")
        .prompt("we keep #![warn(missing_docs)] on in this crate.")
        .stop();
    story
        .days_later(4)
        .session("codex", "m-2", Some("mill"), "/home/alice/src/mill")
        .prompt("scratch what I said about the docs tool, the site is built with mkdocs now, `mkdocs serve` to preview.")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let conventions = body(&store, &project("mill"), "project/mill/conventions.md").await.unwrap();
    assert!(conventions.contains("mkdocs serve"), "the new value is kept:\n{conventions}");
    assert!(!conventions.contains("sphinx"), "the line about the site's tool is retired:\n{conventions}");
    assert!(conventions.contains("missing_docs"), "the other line about docs stays:\n{conventions}");
}

/// A C++ project built with one compiler version: a rule about it, a failure fixed by naming the
/// compiler, and a configure command that names it in a flag.
fn built_with_gcc(story: &mut Story) -> Vec<memory_core::HookEvent> {
    story
        .session("claude", "f-1", Some("forge"), "/home/alice/src/forge")
        .prompt("we build forge with gcc 12 in this repo")
        .bash_fail("cmake --build build", "Exit code 2\nerror: 'std::expected' is not a member of 'std'")
        .bash_ok("CXX=g++-12 cmake --build build")
        .bash_ok("cmake -B build -DCMAKE_CXX_COMPILER=g++-12")
        .bash_ok("cmake -B build -DCMAKE_CXX_COMPILER=g++-12")
        .bash_fail(
            "CXX=g++-12 cmake -B build",
            "Exit code 1\nCMake Error: Could not find a package configuration file provided by \"fmt\"",
        )
        .bash_ok("CXX=g++-12 cmake -B build -DCMAKE_PREFIX_PATH=/opt/fmt")
        .stop();
    story.events()
}

#[tokio::test]
async fn a_correction_retires_what_names_the_old_value_in_every_note_of_its_scope() {
    for correction in [
        "the toolchain switched from gcc 12 to clang 17",
        "forget the gcc 12 thing, it's clang 17 now",
        "we dropped gcc 12 in favour of clang 17",
    ] {
        let mut story = Story::new();
        let before = built_with_gcc(&mut story);
        let store = store_with(&before).await;
        dream_once(&store).await;
        let forge = project("forge");
        let errors = body(&store, &forge, "project/forge/errors.md").await.unwrap_or_default();
        assert!(errors.contains("g++-12"), "the fix names the old compiler first:\n{}", dump(&store).await);
        story
            .days_later(2)
            .session("codex", "f-2", Some("forge"), "/home/alice/src/forge")
            .prompt(correction)
            .stop();
        store.append(&story.events()[before.len()..]).await.unwrap();
        dream_once(&store).await;
        let visible = visible_in(&store, "forge").await;
        assert!(!visible.contains("gcc 12 in this repo"), "{correction:?}:\n{visible}");
        assert!(!visible.contains("g++-12"), "{correction:?}:\n{visible}");
        // A fix that does not depend on the old value stays, without the setting its failing
        // command named it in.
        assert!(
            visible.contains("- `cmake -B build` failed with \"CMake Error: Could not find a package")
                && visible.contains("CMAKE_PREFIX_PATH"),
            "{correction:?}: the other fix stays:\n{visible}"
        );
        let conventions = body(&store, &forge, "project/forge/conventions.md").await.unwrap_or_default();
        assert!(conventions.contains("clang 17"), "{correction:?}: the new value is kept:\n{conventions}");
        // What a note lost stays in its history.
        let retired = "with `CXX=g++-12` set";
        let path = memory_core::NotePath::new("project/forge/errors.md").unwrap();
        let history = store.note_history(&forge, &path).await.unwrap();
        assert!(history.iter().any(|n| n.body.contains(retired)), "{correction:?}: {history:?}");
        assert!(!visible.contains(retired), "{correction:?}:\n{visible}");
    }
}

/// `stated` in project `zulu`, then a day later `corrected` in project `alpha` (whose group comes
/// first by name), dreamt in one run.
async fn said_in_two_projects(stated: &str, corrected: &str) -> memory_core::InMemoryStore {
    let mut story = Story::new();
    story.session("claude", "z-1", Some("zulu"), "/home/alice/src/zulu").prompt(stated).stop();
    story
        .days_later(1)
        .session("codex", "a-1", Some("alpha"), "/home/alice/src/alpha")
        .prompt(corrected)
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    store
}

/// A correction said in one project of what the user said earlier in another is read after it,
/// in one run, whichever project's group comes first by name: the old preference goes.
#[tokio::test]
async fn a_correction_in_another_project_comes_after_what_it_corrects_in_one_run() {
    for (stated, corrected, old) in [
        (
            "my editor is helix, so keybinding tips should be helix ones.",
            "forget my earlier note about my editor, I'm back on neovim.",
            "helix",
        ),
        (
            "I prefer 2 spaces for indentation.",
            "Actually, I prefer 4 spaces for indentation now.",
            "2 spaces",
        ),
        (
            "my shell is fish, so give me fish syntax for snippets.",
            "forget what I told you about my shell, I switched back to zsh.",
            "fish",
        ),
    ] {
        let store = said_in_two_projects(stated, corrected).await;
        let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
        assert!(!profile.contains(old), "{corrected}: the old value is retired:\n{profile}");
    }
}

/// A correction that points back at a preference, said in another project with a new value that
/// reads like a fact, never stops that project's dream: it may land where what it points at lives.
#[tokio::test]
async fn a_correction_by_reference_in_another_project_never_stops_the_dream() {
    for (stated, corrected) in [
        (
            "I like answers with a summary table at the end.",
            "scrap what I said about the summary table, plain prose is fine.",
        ),
        (
            "I like emoji in commit messages.",
            "forget what I told you about emoji in commits, plain text is better.",
        ),
        (
            "I prefer long variable names.",
            "ignore what I said about variable names, short ones are fine in loops.",
        ),
    ] {
        // Panics on a chunk the dream gave up.
        said_in_two_projects(stated, corrected).await;
    }
}

#[tokio::test]
async fn a_tool_taken_back_by_reference_takes_its_commands_and_flags_with_it() {
    let mut story = Story::new();
    story
        .session("cursor", "shop-1", Some("pantry"), "/home/alice/src/pantry")
        .prompt("we lint with RuboCop, please run `bin/rubocop -a` on whatever files you touch.")
        .bash_ok("bin/rubocop -a app/jobs/picker_job.rb")
        .bash_ok("bundle exec rspec spec/jobs")
        .stop()
        .days_later(2)
        .session("claude", "shop-2", Some("pantry"), "/home/alice/src/pantry")
        .prompt("What I said about the linter back then doesn't hold anymore: we switched to Standard.")
        .bash_ok("bin/standardrb --fix")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let notes = dump(&store).await;
    assert!(
        !notes.to_lowercase().contains("rubocop"),
        "the old linter's rule, commands and flags retire:\n{notes}"
    );
    assert!(notes.contains("we switched to Standard"), "{notes}");
    assert!(notes.contains("`bundle exec rspec spec/jobs`"), "other commands stay:\n{notes}");
}

#[tokio::test]
async fn the_new_value_after_a_retraction_is_filed_where_the_old_one_was() {
    let mut story = Story::new();
    story
        .session("claude", "ops-1", Some("fleet"), "/home/alice/src/fleet")
        .prompt("I always open PRs as drafts (`gh pr create --draft`) so nobody gets pinged early.")
        .stop()
        .days_later(3)
        .session("codex", "ops-2", Some("fleet"), "/home/alice/src/fleet")
        .prompt("scrap that thing I said about how to open PRs. from now on they go up ready for review straight away.")
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
    assert!(profile.contains("ready for review straight away"), "{profile}");
    assert!(!profile.contains("as drafts"), "{profile}");
    let conventions =
        body(&store, &project("fleet"), "project/fleet/conventions.md").await.unwrap_or_default();
    assert!(!conventions.contains("ready for review"), "{conventions}");
}

#[tokio::test]
async fn a_command_carrying_a_credential_is_never_filed() {
    let mut story = Story::new();
    story
        .session("claude", "api-1", Some("courier"), "/home/alice/src/courier")
        .bash_ok("psql postgres://courier:[REDACTED:db-credentials]@localhost:5433/courier -c 'select 1'")
        .bash_ok("go test ./internal/...")
        .stop();
    let store = store_with(&story.events()).await;
    // The run fails no group: the command is left out, not the note.
    dream_once(&store).await;
    let commands = body(&store, &project("courier"), "project/courier/commands.md").await.unwrap();
    assert!(commands.contains("`go test ./internal/...`"), "{commands}");
    assert!(!commands.contains("REDACTED") && !commands.contains("psql"), "{commands}");
}

#[tokio::test]
async fn only_the_sentence_right_after_a_retraction_is_filed_where_the_old_value_was() {
    let mut story = Story::new();
    story
        .session("claude", "web-1", Some("webshop"), "/home/alice/src/webshop")
        .prompt("The dev server runs on localhost:3000.")
        .days_later(1)
        .prompt(
            "the port changed when we dropped the custom server, the dev server is on 5173 now. can you check \
             the checkout page still renders? when you finish a change, give me a short summary of what changed.",
        )
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
    assert!(profile.contains("short summary of what changed"), "{profile}");
    let conventions = body(&store, &project("webshop"), "project/webshop/conventions.md").await.unwrap();
    assert!(conventions.contains("5173") && !conventions.contains("localhost:3000"), "{conventions}");
    assert!(!conventions.contains("short summary"), "{conventions}");
}

/// What `said` says in one session of `webshop`, then `correction` two days later in another
/// harness, dreamed once: the project's conventions and the user's profile.
async fn corrected_later(said: &[&str], correction: &str) -> (String, String) {
    let mut story = Story::new();
    story.session("claude", "w-1", Some("webshop"), "/home/alice/src/webshop");
    for prompt in said {
        story.prompt(prompt);
    }
    story.stop().days_later(2).session("cursor", "w-2", Some("webshop"), "/home/alice/src/webshop");
    story.prompt(correction).stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    let conventions =
        body(&store, &project("webshop"), "project/webshop/conventions.md").await.unwrap_or_default();
    let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
    (conventions, profile)
}

#[tokio::test]
async fn a_correction_that_finds_what_it_points_at_takes_back_nothing_else() {
    for (other, first, correction, stale) in [
        (
            "the offline queue is stored with react-native-mmkv, we moved it there last sprint.",
            "e2e flows run on detox, the specs live in e2e/.",
            "e2e: the framework I named before is gone, we moved to maestro.",
            "detox",
        ),
        (
            "we moved the feature flags to unleash last month.",
            "the docs site builds with docusaurus.",
            "the docs tool I mentioned is outdated, we moved to mkdocs.",
            "docusaurus",
        ),
        (
            "sessions moved to postgres when we dropped the cache box.",
            "background jobs run on sidekiq here.",
            "scratch what I said about background jobs, we moved to solid queue.",
            "sidekiq",
        ),
    ] {
        let (conventions, _) = corrected_later(&[other, first], correction).await;
        assert!(conventions.contains(other), "{correction:?} keeps {other:?}:\n{conventions}");
        assert!(!conventions.to_lowercase().contains(stale), "{correction:?}:\n{conventions}");
    }
}

#[tokio::test]
async fn a_correction_of_nothing_kept_said_in_a_project_is_the_projects() {
    for correction in [
        "correction on property tests — not the lib i said earlier, everything's on hedgehog now.",
        "the charting library I mentioned is outdated, everything is on visx now.",
        "forget the queue thing from before, jobs run on river now.",
    ] {
        let (conventions, profile) =
            corrected_later(&["add property tests for recommend, next to the unit specs"], correction).await;
        assert!(conventions.contains(correction), "{correction:?}:\n{conventions}\n{profile}");
        assert!(!profile.contains(correction), "{correction:?}:\n{profile}");
    }
}

#[tokio::test]
async fn a_correction_takes_back_only_lines_of_what_it_points_at() {
    for (other, correction) in [
        (
            "we moved the offline queue to react-native-mmkv last sprint.",
            "e2e: the framework I named before is gone, we moved to maestro.",
        ),
        (
            "persistent volumes use the longhorn storage class here.",
            "re logging: the library I mentioned is gone, we use tracing now.",
        ),
        (
            "the docs site builds with mkdocs material.",
            "re linting: the tool I mentioned is gone, we use ruff now.",
        ),
    ] {
        let (conventions, _) = corrected_later(&[other], correction).await;
        assert!(conventions.contains(other), "{correction:?} keeps {other:?}:\n{conventions}");
        assert!(conventions.contains(correction), "{correction:?}:\n{conventions}");
    }
}

#[tokio::test]
async fn a_machine_of_the_users_named_in_passing_and_replaced_later_takes_its_commands_along() {
    for (named, ran, correction, new, old) in [
        (
            "train the baseline on tusk, the 4090 box under my desk (ssh tusk), not on the laptop.",
            "ssh tusk 'nvidia-smi'",
            "the gpu box i told you about is gone, the board fried. the replacement is called walrus, ssh walrus.",
            "walrus",
            "tusk",
        ),
        (
            "copy the built docs over to nimbus, my home server (ssh nimbus), then restart caddy there.",
            "ssh nimbus 'systemctl restart caddy'",
            "that home server I mentioned died last week. the new one is orca, ssh orca.",
            "orca",
            "nimbus",
        ),
        (
            "run the soak test on bramble, my spare workstation (ssh bramble), overnight is fine.",
            "ssh bramble 'uptime'",
            "scrap what i said about my spare workstation. it's rook now, ssh rook.",
            "rook",
            "bramble",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "m-1", Some("trainer"), "/home/alice/src/trainer")
            .prompt(named)
            .bash_ok(ran)
            .stop()
            .days_later(3)
            .session("codex", "m-2", Some("trainer"), "/home/alice/src/trainer")
            .prompt(correction)
            .stop();
        let store = store_with(&story.events()).await;
        dream_once(&store).await;
        let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
        assert!(profile.contains(new), "{correction:?}: the new machine is the user's:\n{profile}");
        let seen = visible_in(&store, "trainer").await;
        assert!(!seen.contains(&format!("ssh {old}")), "{correction:?} retires `ssh {old}`:\n{seen}");
    }
}

#[tokio::test]
async fn a_pointer_back_meets_no_line_by_the_words_it_was_said_with() {
    for (old, kept, correction) in [
        (
            "e2e tests run on detox here.",
            "e2e: the framework I named before is gone, we moved to maestro.",
            "that branch naming rule i gave you, drop it.",
        ),
        (
            "background jobs go through sidekiq in this repo.",
            "the job queue I mentioned before is gone, jobs run on good_job now.",
            "forget the mentions thing I said about commit bodies.",
        ),
        (
            "CI here runs on circleci.",
            "the ci provider I named earlier is gone, it's buildkite now.",
            "scrap the naming convention from before for tags.",
        ),
    ] {
        let (conventions, _) = corrected_later(&[old, kept], correction).await;
        assert!(conventions.contains(kept), "{correction:?} keeps {kept:?}:\n{conventions}");
    }
}

#[tokio::test]
async fn a_pointer_at_something_of_mine_takes_back_what_i_said_of_myself() {
    for (mine, other, correction) in [
        (
            "I want PRs assigned to me, I'm jdoe on github.",
            "use the github cli for releases, never the web ui.",
            "forget what I said about my github handle, it's jdoe2 now.",
        ),
        (
            "I use helix as my editor, with the default keymap.",
            "always format on save, whatever the editor.",
            "scratch what I told you about my editor, I'm on zed now.",
        ),
        (
            "I'm on Lisbon time, so schedule things in my timezone.",
            "store timestamps in UTC and convert to the timezone only for display.",
            "ignore what I said about my timezone, I'm in Vancouver now.",
        ),
    ] {
        let (_, profile) = corrected_later(&[mine, other], correction).await;
        assert!(profile.contains(other), "{correction:?} keeps {other:?}:\n{profile}");
        assert!(!profile.contains(mine), "{correction:?} takes back {mine:?}:\n{profile}");
    }
}

#[tokio::test]
async fn a_rule_kept_without_exception_is_no_line_about_exception_handling() {
    for (kept, correction) in [
        (
            "every script starts with set -euo pipefail, no exceptions.",
            "forget what I said about my github handle, it's jdoe2 now.",
        ),
        (
            "always run the linter before every push, without exception.",
            "ignore what I said about error messages, they can be long now.",
        ),
        (
            "PRs need two approvals, no exceptions.",
            "forget what I told you about handling my dotfiles, chezmoi does it now.",
        ),
    ] {
        let (conventions, profile) = corrected_later(&[kept], correction).await;
        assert!(
            conventions.contains(kept) || profile.contains(kept),
            "{correction:?} keeps {kept:?}:\n{conventions}\n{profile}"
        );
    }
}

#[tokio::test]
async fn a_rule_about_which_language_to_answer_in_is_kept_in_whatever_language_it_is_said() {
    for (said, kept) in [
        (
            "oye, una cosa antes de empezar: aunque a veces te escriba en español, contéstame siempre en inglés. bueno, mira por qué el sync se queda colgado",
            "contéstame siempre en inglés",
        ),
        (
            "kurz vorab: antworte mir bitte immer auf Englisch, auch wenn ich Deutsch schreibe. Jetzt schau dir mal den Import an",
            "antworte mir bitte immer auf Englisch",
        ),
        (
            "petite chose avant de commencer : même si je t'écris en français, réponds-moi toujours en anglais. bon, regarde le cache",
            "réponds-moi toujours en anglais",
        ),
    ] {
        let store = dreamed_after_saying(said, "shelf").await;
        let profile = body(&store, &Scope::User, "profile/preferences.md").await.unwrap_or_default();
        assert!(profile.contains(kept), "{said}\n{}", visible_in(&store, "shelf").await);
    }
    // Once, or asked about, is no rule.
    for said in [
        "solo por hoy contéstame en inglés, que lo va a leer un compañero",
        "warum antwortest du mir auf Englisch?",
        "can you answer in English this time, the reviewer doesn't read Spanish",
    ] {
        let store = dreamed_after_saying(said, "shelf").await;
        let visible = visible_in(&store, "shelf").await;
        assert!(!visible.contains(said.split(',').next().unwrap()), "{said}\n{visible}");
    }
}

#[tokio::test]
async fn a_request_after_a_correction_is_work_to_do_not_the_new_value() {
    for (said, value, request) in [
        (
            "the region I gave you way back is stale: everything is in eu-central-1 now. update the default region in live/terragrunt.hcl, it still has the old one.",
            "eu-central-1 now",
            "update the default region",
        ),
        (
            "forget the node version I mentioned, we're on node 22 now. bump the version in build/ci-image.Dockerfile, it still says 18.",
            "node 22 now",
            "bump the version",
        ),
        (
            "scrap what I said about the staging db, we share the QA database now. fix the connection string in deploy/staging/app.yml, it points at the old host.",
            "share the QA database now",
            "fix the connection string",
        ),
    ] {
        let store = dreamed_after_saying(said, "shelf").await;
        let visible = visible_in(&store, "shelf").await;
        assert!(visible.contains(value), "the new value is kept: {said}\n{visible}");
        assert!(!visible.contains(request), "the request is work to do: {said}\n{visible}");
    }
}
