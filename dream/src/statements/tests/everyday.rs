//! The statement reader on everyday wordings: the team as the subject of a habit, rules for a
//! kind of work ("when you write shell scripts, …"), when a rule begins against how long it
//! lasts, words from a source the user only found, jokes named as such, credentials said with
//! where they hold, facts of how things are built, and corrections that point at a remark.

use super::super::*;
use super::{kept, points_at_with_a_new_value};

#[test]
fn the_team_as_the_subject_of_a_present_habit_is_the_projects() {
    for sentence in [
        "the team squashes every PR",
        "our team always squash-merges",
        "the backend team deploys on Tuesdays and Thursdays",
        "my team reviews every PR within a day",
        "everyone here uses conventional commits",
        "our devs never push straight to main",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    // A moment, a plan or a mood of the team is not how it works.
    for sentence in [
        "the team is going to migrate to Postgres next quarter",
        "the team broke the build yesterday",
        "the team decided last week to try trunk-based dev",
        "my team hates flaky tests lol",
        "the team wants a demo on Friday",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn a_rule_for_a_kind_of_work_is_kept_and_a_request_about_one_thing_is_not() {
    for sentence in [
        "when you write shell scripts, set -euo pipefail at the top, every time",
        "when you write migrations, make them reversible",
        "before you open pull requests, run the linters",
        "whenever you add endpoints, document them in openapi.yaml",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    for sentence in [
        "when you write the migration, make it reversible",
        "before you open this PR, run the linter",
        "fix the flaky test in payments_test.go",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn when_a_rule_begins_is_not_how_long_it_lasts() {
    for sentence in [
        "starting today we use pnpm instead of npm",
        "as of this sprint, PRs need two approvals",
        "from this release on, every migration gets a rollback script",
        "beginning next week, we deploy on Wednesdays",
    ] {
        assert_eq!(not_meant_to_last(sentence), None, "{sentence:?}");
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    for sentence in [
        "just this afternoon, don't touch the CI config, Sam's fixing it",
        "this morning, skip the e2e suite, it's too slow",
        "until the release, don't merge anything big",
        "for the next couple of days, don't deploy on your own",
        "until tomorrow, leave the feature flags alone",
    ] {
        assert_eq!(not_meant_to_last(sentence), Some(NotLasting::OneOff), "{sentence:?}");
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn words_from_a_source_the_user_only_found_are_reported() {
    for sentence in [
        "the blog post I read says you should always use a monorepo",
        "a talk we watched argued that you should never use ORMs",
        "some answer I found on stackoverflow claims you should always vendor dependencies",
        "the article I linked says never to use floats for money",
        "my friend who works at Google says they never write comments",
    ] {
        assert_eq!(not_meant_to_last(sentence), Some(NotLasting::Reported), "{sentence:?}");
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    // The user and the team speak for themselves.
    for sentence in ["I always say we should squash before merging", "we say no force pushes to main, ever"] {
        assert_ne!(not_meant_to_last(sentence), Some(NotLasting::Reported), "{sentence:?}");
    }
}

#[test]
fn a_joke_named_as_one_is_not_a_rule() {
    for sentence in [
        "we always end up fighting the build on Mondays, it's a running joke",
        "it's a running joke that we never finish sprints",
        "I'm half joking but we should always blame Dave",
        "not seriously, but never trust the staging clock",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    for sentence in ["no jokes in commit messages please", "keep jokes out of the changelog"] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
}

#[test]
fn a_credential_said_with_where_it_holds_is_secret() {
    for sentence in [
        "the wifi password here is hunter2-guest",
        "the wifi password at the office is Tr0ub4dor&3",
        "our db password currently is hunter22",
    ] {
        assert!(carries_secret(sentence), "{sentence:?}");
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    for sentence in [
        "our staging password lives in 1Password under \"staging\"",
        "the token lifetime is 15 minutes in this service",
        "the password here is rotated every month",
    ] {
        assert!(!carries_secret(sentence), "{sentence:?}");
    }
}

#[test]
fn how_a_thing_is_built_or_what_it_needs_is_a_fact_of_the_project() {
    for sentence in [
        "the docs site is built with mkdocs",
        "the admin panel is hosted on Fly",
        "PRs need two approvals",
        "the login page is at /signin",
        "the integration tests need the LOCALSTACK_URL env var or they hang forever",
        "the e2e suite needs LOCALSTACK_URL set, otherwise it hangs",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    for sentence in ["the page is broken", "the login page is slow today", "the build hangs forever"] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn a_correction_may_point_at_a_remark_a_suggestion_or_a_tip() {
    for (sentence, topic) in [
        ("disregard the mkdocs remark, the docs moved to docusaurus", "mkdocs"),
        ("ignore my suggestion about tabs, spaces are fine", "tabs"),
        ("drop the tip about nvm, we use fnm now", "nvm"),
        ("forget my preference for bullet points, paragraphs are fine", "bullet points"),
    ] {
        let found = statements(sentence)
            .into_iter()
            .find_map(|s| s.reference)
            .unwrap_or_else(|| panic!("{sentence:?} points back"));
        assert_eq!(found.words, reference::topic_words(topic), "{sentence:?}");
    }
    // A request about a comment or a line of code points at nothing said.
    for sentence in ["ignore the lint comment on line 4", "drop the last line of the file"] {
        assert!(statements(sentence).iter().all(|s| s.reference.is_none()), "{sentence:?}");
    }
}

#[test]
fn fillers_that_say_for_what_it_is_worth_are_left_out() {
    for sentence in [
        "fwiw I'm on a Linux box with fish shell, so no bash-isms in commands please",
        "for what it's worth, I'm on Windows with PowerShell",
        "imo, error messages should say what to do next",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
}

#[test]
fn what_a_thing_should_say_is_a_rule_not_words_reported() {
    for sentence in [
        "error messages should say what to do next",
        "commit messages must mention the ticket number",
        "log lines should always say which tenant they belong to",
    ] {
        assert_eq!(not_meant_to_last(sentence), None, "{sentence:?}");
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    for sentence in ["the docs say you should pin versions", "Priya says commits should be small"] {
        assert_eq!(not_meant_to_last(sentence), Some(NotLasting::Reported), "{sentence:?}");
    }
}

#[test]
fn a_habit_of_every_thing_of_a_kind_is_a_fact_of_the_project() {
    for sentence in [
        "every PR gets a changelog entry",
        "each service has its own Dockerfile",
        "all endpoints return JSON with a top-level data key",
        "from this release on, every migration gets a rollback script",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    for sentence in ["every test fails on my machine", "every time I run it, it hangs"] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn a_question_asked_without_a_question_mark_is_not_a_rule() {
    for sentence in [
        "is there any reason not to always use strict mode",
        "I was thinking maybe we never use default exports, what do you reckon",
        "I keep forgetting whether we always rebase or merge",
        "we always tag releases from main, right",
        "never mock the clock in these tests, wdyt",
    ] {
        assert_eq!(not_meant_to_last(sentence), Some(NotLasting::Question), "{sentence:?}");
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    for sentence in
        ["we check if the user is an admin before every write", "we always tag releases from main"]
    {
        assert_ne!(not_meant_to_last(sentence), Some(NotLasting::Question), "{sentence:?}");
    }
}

#[test]
fn a_guess_or_a_story_of_old_habits_is_not_how_things_are() {
    for sentence in [
        "my guess is they always cache it at the edge",
        "I suspect the nightly job always runs twice",
        "probably the api never retries on 502",
        "in the old codebase we never had tests for the parser",
        "we always deployed by hand before the pipeline existed",
        "they never wrote docs for the billing module",
    ] {
        assert!(not_meant_to_last(sentence).is_some(), "{sentence:?}");
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    for sentence in
        ["we always deploy from the release branch", "in the legacy module we never use exceptions"]
    {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
}

#[test]
fn a_note_announced_for_later_is_kept_without_its_announcement() {
    for sentence in [
        "heads-up, the api expects snake_case keys everywhere",
        "tip for future sessions: the seed data lives in db/seeds.sql",
        "note to self and you: the staging URL is https://staging.acme.io",
        "for future reference, the worker reads its queue name from QUEUE_NAME",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
}

#[test]
fn what_the_user_asks_to_be_assumed_or_made_a_habit_is_theirs() {
    for sentence in [
        "make it a habit to add a test for every bug you fix",
        "get into the habit of running clippy before you hand back",
        "you can assume I'm on the latest stable Rust",
        "assume I have docker running",
        "I'm a visual learner, so diagrams help me a lot",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
}

#[test]
fn a_rule_that_follows_from_a_reason_is_kept_with_it() {
    for sentence in [
        "in my experience mocks hide bugs, so prefer fakes over mocks",
        "the staging db is shared with QA, so never run destructive migrations there",
        "I read everything on my phone, so keep answers under ten lines",
    ] {
        let found = statements(sentence);
        assert_eq!(found.len(), 1, "{sentence:?}");
        assert_eq!(found[0].text, sentence, "kept with its reason");
    }
    for sentence in ["the test is failing, so fix the import in app.py", "it's late, so let's stop here"] {
        assert!(statements(sentence).is_empty(), "{sentence:?}");
    }
}

#[test]
fn how_a_thing_fails_unless_something_is_done_is_a_fact_of_the_project() {
    for sentence in [
        "the build breaks if you don't run codegen first",
        "the e2e suite hangs without a running emulator",
        "the app won't start unless REDIS_URL is set",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    for sentence in ["the build breaks all the time", "the app won't start"] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn rules_for_kinds_of_things_who_owns_what_and_what_not_to_bother_with_are_kept() {
    for sentence in [
        "tests must not hit the network, stub the HTTP layer",
        "handlers should never log request bodies",
        "don't bother with docstrings on private helpers",
        "Sarah owns the billing module, loop her in on changes there",
        "Priya maintains the iOS app",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    for sentence in [
        "the tests should pass now",
        "don't bother, I'll do it myself",
        "honestly I never understood monads",
        "we never finished the migration to v2",
        "Sam maintains that tabs are better",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn what_a_thing_of_the_work_is_called_is_a_fact_and_how_it_is_is_not() {
    for sentence in [
        "the queue is RabbitMQ",
        "the default branch is master",
        "the CI pipeline is GitHub Actions",
        "the error tracker is Sentry",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    for sentence in [
        "the queue is full again",
        "the branch is behind main",
        "the api is down",
        "the branch is ready for review",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn a_thing_switched_renamed_changed_or_no_longer_used_is_pointed_at_with_its_new_value() {
    for (sentence, topic) in [
        ("I switched from vim to helix last month", "vim"),
        ("we moved from Jenkins to GitHub Actions", "jenkins"),
        ("heads up, we renamed master to main", "master"),
        ("turns out we don't deploy with Capistrano anymore, it's Kamal", "capistrano"),
        ("update: the API base URL changed to https://api.v2.acme.io", "api base url"),
        ("the staging host has moved to staging-2.internal", "staging host"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    for sentence in ["it changed to something weird", "the build moved to green after the fix, thanks"] {
        assert!(statements(sentence).iter().all(|s| s.reference.is_none()), "{sentence:?}");
    }
}

#[test]
fn a_thing_named_in_one_word_that_moved_points_at_no_line() {
    for sentence in ["the API moved to 8081 after the proxy change", "staging changed to a bigger box"] {
        assert!(statements(sentence).iter().all(|s| s.reference.is_none()), "{sentence:?}");
    }
}

#[test]
fn its_a_new_value_now_not_the_old_one_points_at_the_old_line() {
    for (sentence, topic) in [
        ("nope, it's yarn berry now, not classic yarn", "classic yarn"),
        ("it's pnpm now, not npm", "npm"),
        ("no, it's GitLab CI now, not Jenkins", "jenkins"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    for sentence in ["it's broken now, not sure why", "it's fine now, not a big deal"] {
        assert!(statements(sentence).iter().all(|s| s.reference.is_none()), "{sentence:?}");
    }
}

#[test]
fn how_a_thing_is_at_the_moment_is_not_a_fact_to_keep() {
    for sentence in [
        "the build is green now",
        "the staging db is empty",
        "the staging box is down again",
        "the PR is merged now",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    for sentence in
        ["the dev server is on 5173 now", "the port is now 8081", "the default branch is main now"]
    {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
}
