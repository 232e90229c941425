//! The statement reader on things said in passing: questions folded into a request to find out,
//! plans said with "could" or "may", what a tool reports, feelings about how a thing is; and, to
//! keep, rules under an everyday condition, who the user is, facts announced as such and habits
//! said in the passive.

use super::super::*;
use super::{kept, points_at_with_a_new_value};

fn none_kept(sentences: &[&str]) {
    for sentence in sentences {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
}

#[test]
fn a_question_folded_into_a_request_to_find_out_is_asked() {
    none_kept(&[
        "I'm curious whether we should always pin versions",
        "curious if we should never log request bodies",
        "Can you check if we always close the db connection",
        "could you see whether we ever call this endpoint",
        "Double-check whether we never leak the session id",
        "please find out if the worker always retries",
    ]);
    // A request that sets a habit is not a question.
    assert!(kept("could you always run the tests before committing from now on?").is_some());
    assert!(kept("check with me before you add a dependency").is_some());
}

#[test]
fn what_would_follow_from_a_plan_not_made_is_not_how_things_are() {
    none_kept(&[
        "Assuming we go with Postgres, we'd want pgbouncer.",
        "Provided the budget holds, we'd always use managed services.",
        "say we moved to AWS, we would need to redo the IAM setup",
        "We could try using sqlc instead of the ORM.",
        "we might switch to Bun at some point",
        "Not sure yet, but we may move the docs to Docusaurus.",
        "still undecided, we may end up using tRPC instead of REST",
    ]);
    // A rule with "may not" or a condition that holds every time is kept.
    assert!(kept("you may not push straight to main").is_some());
    assert!(kept("we may not merge without two approvals").is_some());
    assert!(kept("if a test is flaky, mark it with #[flaky] rather than deleting it").is_some());
}

#[test]
fn what_a_tool_or_a_file_reports_is_reported() {
    none_kept(&[
        "The linter complains that we never use the return value.",
        "the compiler warns that we always shadow that variable",
        "clippy flags that we never check the result",
        "the profiler shows that we always allocate in the hot loop",
    ]);
    // A fact of how a tool is set up is kept.
    assert_eq!(kept("CI runs clippy with -D warnings"), Some(Reach::Project));
}

#[test]
fn a_feeling_about_how_a_thing_is_is_not_a_preference() {
    none_kept(&[
        "I hate that the build always takes forever.",
        "I love how the new router always handles errors.",
        "i really like that our tests run in parallel now",
        "I can't stand how the dashboard is always slow",
    ]);
    // How the user wants things done stays theirs.
    for sentence in [
        "I hate it when you add emojis to commit messages",
        "I love small focused PRs",
        "I can't stand long docstrings on private helpers",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
}

#[test]
fn a_rule_under_an_everyday_condition_is_kept() {
    for sentence in [
        "When in doubt, write a test first.",
        "If possible, keep functions under fifty lines.",
        "Where practical, prefer pure functions.",
        "if you're unsure, ask me rather than guessing",
        "when something is ambiguous, check the existing code first",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    // The same condition before a piece of work is a request.
    none_kept(&["if possible, fix the login bug today", "when in doubt about this function, rename it"]);
}

#[test]
fn who_the_user_is_and_what_they_know_is_theirs() {
    for sentence in [
        "I'm a backend dev, mostly Go and Postgres.",
        "I'm a data scientist, so explain the web stuff a bit more.",
        "I'm the only maintainer of this repo.",
        "I'm new to Rust, so explain borrow checker errors.",
        "i'm fairly comfortable with kubernetes but rusty with helm",
        "I work on a Mac with an M2, keep that in mind for docker images.",
        "i develop on a linux box over ssh",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    assert_eq!(kept("I'm a backend dev, mostly Go and Postgres."), Some(Reach::General));
    // Where the user is for the moment says nothing lasting.
    none_kept(&["I'm in a meeting, keep it short", "i work on this bug after lunch", "I'm new here lol"]);
}

#[test]
fn a_fact_announced_as_one_is_kept_without_its_announcement() {
    for sentence in [
        "Heads up that our CI runs on self-hosted runners.",
        "FYI the test database resets every night.",
        "just so you know, the staging cluster scales down on weekends",
        "fyi that the api gateway strips trailing slashes",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    let said = statements("Heads up that our CI runs on self-hosted runners.");
    assert_eq!(said[0].text, "our CI runs on self-hosted runners.");
    // An announced moment of trouble is not a fact to keep.
    none_kept(&["fyi the build fails on main right now", "heads up, the deploy broke again"]);
}

#[test]
fn a_habit_said_in_the_passive_is_a_fact_of_the_project() {
    for sentence in [
        "Errors get wrapped with context using anyhow in the binaries.",
        "Migrations are generated with alembic, never by hand.",
        "Releases are always cut from the main branch.",
        "PRs get merged by the merge queue, not by hand.",
        "all secrets are injected from Vault at deploy time",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    // One thing being worked on, or trouble, is not a habit.
    none_kept(&[
        "the file is written to disk by the exporter",
        "The PR is merged into main.",
        "the tests are broken on main",
        "it gets called twice on startup",
    ]);
}

#[test]
fn a_rule_said_to_the_agent_with_a_modal_is_kept() {
    for (sentence, reach) in [
        ("you must not push straight to main", Reach::General),
        ("you shouldn't use var in new code", Reach::General),
        ("you can't use floats for money", Reach::General),
        // A make target is the project's.
        ("you need to run make gen after editing the proto files", Reach::Project),
        ("you have to restart the worker after changing env vars", Reach::General),
    ] {
        assert_eq!(kept(sentence), Some(reach), "{sentence:?}");
    }
    // An obligation of one piece of work, a feeling or a regret is not a rule.
    none_kept(&[
        "you should fix the typo in the readme",
        "you need to update the snapshot",
        "you must be tired of this bug",
        "you can't delete this file",
        "you shouldn't have deleted it",
    ]);
}

#[test]
fn nobody_doing_a_thing_is_a_habit_of_the_team() {
    for sentence in
        ["nobody pushes straight to main", "no one merges without a review", "none of us uses the GUI client"]
    {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&["nobody knows why the build is slow", "no one told me about the migration"]);
}

#[test]
fn a_thing_replaced_renamed_or_arrowed_to_a_new_one_points_at_the_old() {
    for (sentence, topic) in [
        ("RabbitMQ → SQS now.", "rabbitmq"),
        ("npm -> pnpm", "npm"),
        ("jest => vitest for the unit tests", "jest"),
        ("Jenkins got replaced by GitHub Actions last month.", "jenkins"),
        ("Moment was replaced with date-fns", "moment"),
        ("our ORM has been swapped out for sqlc", "orm"),
        ("Heads up, master was renamed to main.", "master"),
        ("the staging bucket got renamed to assets-stg", "staging bucket"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    // How a thing went is not a new value for it.
    for sentence in
        ["the build got replaced by a green one", "it was renamed to something weird", "a -> b -> c"]
    {
        assert!(statements(sentence).iter().all(|s| s.reference.is_none()), "{sentence:?}");
    }
}

#[test]
fn a_thing_said_to_be_out_retired_or_deprecated_here_points_at_it() {
    for (sentence, topic) in [
        ("knex is out, we run migrations with drizzle-kit now.", "knex"),
        ("Moment is deprecated for us, use date-fns.", "moment"),
        ("Heroku is retired here, everything runs on Fly", "heroku"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    for sentence in ["the new release is out, take a look", "I'm out for lunch, back at two"] {
        assert!(statements(sentence).iter().all(|s| s.reference.is_none()), "{sentence:?}");
    }
}

#[test]
fn a_changed_mind_or_a_taken_back_word_points_at_its_topic() {
    for (sentence, topic) in [
        ("Changed my mind on indentation: four spaces please.", "indentation"),
        ("I've changed my mind about trailing commas, leave them out", "trailing commas"),
        ("i changed my mind re squash merges, plain merges are fine", "squash merges"),
        ("I take back what I said about tabs, spaces are fine", "tabs"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    // A mind changed about a piece of work is not a correction of a note.
    assert!(statements("take back the last commit").iter().all(|s| s.reference.is_none()));
}

#[test]
fn a_things_s_before_its_value_is_is() {
    for sentence in ["Port's 9090 now.", "the region's eu-west-1 now", "node's at 22 in this repo"] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    // "it's", "that's" and possessives stay as they are.
    assert_eq!(normalize("it's 9090 now, that's the port's value"), "it's 9090 now, that's the port's value");
    assert_eq!(normalize("The port's 9090 now"), "the port is 9090 now");
}

#[test]
fn a_noun_that_is_also_a_verb_of_work_may_be_a_subject() {
    for sentence in
        ["Port is 9090 now.", "Build runs on self-hosted runners here", "Deploy is handled by Kamal here"]
    {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&["port the parser to rust", "build the docker image and push it"]);
}

#[test]
fn a_rule_that_names_a_thing_only_the_project_has_is_the_projects() {
    for sentence in [
        "Run make proto before building, otherwise imports break.",
        "Always run db:reset after pulling schema changes.",
        "Never edit files under gen/ by hand, they're generated.",
        "Avoid the old http client in pkg/legacy.",
        "Use the `api_client` fixture in tests instead of requests.",
        "don't touch config/prod.yaml without asking Dana",
        "always use npm run build:prod for release builds",
    ] {
        assert_eq!(filed(sentence), Some((Reach::Project, Why::NamesAThingOfTheProject)), "{sentence:?}");
    }
    // General shapes, the user's own paths and how the user likes things stay theirs.
    for sentence in [
        "always say and/or instead of a slash-free rewrite",
        "use snake_case for Python function names",
        "never use emojis in anything you write",
        "make sure you run the formatter before you commit",
        "my notes folder is ~/notes/work",
        "I always run make check before pushing",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
}

#[test]
fn a_way_of_working_tied_to_when_it_holds_is_a_rule_and_a_step_before_another_is_work() {
    for sentence in [
        "Run ./scripts/bootstrap.sh once after cloning.",
        "Rebase on main before opening a PR.",
        "Run the tests before pushing.",
        "Lint with golangci-lint run ./... before pushing.",
        "don't merge without running the e2e suite",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    none_kept(&[
        "Fix the typo in the readme before merging.",
        "Run the migration before deploying.",
        "Update the changelog before you push this.",
        "Delete the old branch after merging the PR.",
    ]);
}

#[test]
fn what_to_do_when_a_thing_goes_wrong_or_what_fixed_it_is_a_fix_of_the_project() {
    for sentence in [
        "If the e2e tests hang, kill the stale chromedriver first.",
        "When the build fails with OOM, bump the node heap to 4GB.",
        "if storybook won't start, just clear node_modules/.cache",
        "The fix for the flaky upload test was bumping the timeout to 30s.",
        "What fixed the CORS errors was adding the origin to ALLOWED_ORIGINS.",
        "the workaround for the M1 build issue is running under Rosetta",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&[
        "If the build fails, we'd have to roll back.",
        "If it breaks again I'll scream.",
        "What fixed it?",
        "the fix for the login bug is in review",
    ]);
}

#[test]
fn how_to_answer_and_when_to_ask_first_are_the_users() {
    for sentence in [
        "Please keep answers short and skip the pleasantries.",
        "Ask before installing any new package.",
        "Show me the diff before you apply big changes.",
        "warn me every time a migration drops a column",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
    assert!(kept("Put new endpoints behind the v2 router.").is_some());
    none_kept(&["show me the diff", "put the endpoint behind the router"]);
}

#[test]
fn a_complaint_of_the_moment_or_a_not_yet_is_not_a_rule() {
    for sentence in [
        "We always forget to update the changelog, ugh.",
        "sigh, the linter never agrees with the formatter",
        "Always the same error with this thing.",
        "ffs, it always times out on the first run",
    ] {
        assert_eq!(not_meant_to_last(sentence), Some(NotLasting::Vent), "{sentence:?}");
    }
    none_kept(&[
        "Please don't push yet, I want to look first.",
        "don't merge it yet",
        "we're not deploying to prod yet",
    ]);
    // The same habit without the complaint is kept.
    assert!(kept("we always update the changelog in the same PR").is_some());
}

#[test]
fn how_much_to_hand_over_at_once_and_what_the_user_cares_about_are_theirs() {
    for sentence in [
        "Give me one suggestion at a time, not a list of ten.",
        "show me the plan up front before touching files",
        "hand me the commands one by one",
        "I'm more of a functional programming person.",
        "i'm very much a visual learner",
        "I care a lot about accessibility, so check contrast and alt text.",
        "i care deeply about startup time",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
    none_kept(&["give me the logs", "show me the diff", "I'm a bit tired today"]);
}

#[test]
fn how_often_and_what_to_default_to_are_conventions() {
    for sentence in [
        "Commit often, small steps.",
        "push early and often",
        "Default to async code in the API layer.",
        "default to UTC in every timestamp",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    none_kept(&["commit the lockfile", "push the branch"]);
}

#[test]
fn a_thing_said_to_be_history_after_its_replacement_points_at_it() {
    for (sentence, topic) in [
        ("I've moved to Zed, VS Code is history.", "vs code"),
        ("we run on Fly now, Heroku is gone", "heroku"),
        ("the docs build with Astro; Gatsby is dead", "gatsby"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
}

#[test]
fn a_new_value_now_not_the_old_one_points_at_the_old_whatever_opens_it() {
    for (sentence, topic) in [
        ("Actually unittest is fine now, not pytest.", "pytest"),
        ("pnpm now, not npm", "npm"),
        ("GitLab CI now, not Jenkins", "jenkins"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
}

#[test]
fn a_retraction_followed_by_a_way_of_working_keeps_the_way_of_working() {
    for (sentence, kept_words) in [
        ("Forget what I said about terse answers, explain things in detail now.", "explain things in detail"),
        ("scrap the squash rule, use merge commits from now on", "use merge commits"),
        ("ignore my earlier note on imports, sort imports with isort instead", "sort imports with isort"),
    ] {
        let found = statements(sentence);
        assert_eq!(found.len(), 1, "{sentence:?}");
        assert!(found[0].reference.is_some() && !found[0].retracts_only, "{sentence:?}: {found:?}");
        assert!(found[0].text.to_lowercase().contains(kept_words), "{sentence:?}: {found:?}");
    }
    // Asked alone, the same verbs ask for a piece of work.
    none_kept(&[
        "explain big-O notation to a beginner",
        "answer the reviewer's comments in the PR",
        "explain the stack trace in detail",
    ]);
}

#[test]
fn a_thing_of_the_project_named_beside_a_general_rule_leaves_the_rule_the_users() {
    for sentence in [
        "don't add comments that restate the code, the ones you put in round_half_even are noise",
        "for searching, use ripgrep, grep -r is way too slow on these node_modules-heavy repos",
        "never commit node_modules or __pycache__",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
}

#[test]
fn a_style_choice_said_without_a_verb_is_kept() {
    for sentence in [
        "two spaces for yaml, four for python.",
        "single quotes in the JS files please.",
        "snake_case for database columns, camelCase in the API.",
        "British spelling in the user-facing copy.",
        "4-space indentation in every Python file.",
        "ISO dates in the changelog, please.",
        "one component per file.",
        "one assertion per test where you can.",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    assert_eq!(kept("conventional commits for every message here"), Some(Reach::Project));
    // The same words with a verb say how one thing is, or ask for work.
    none_kept(&[
        "dates in the report look off, can you check?",
        "spaces in the file name broke the script.",
        "two spaces or four, what do you think?",
        "quotes in this file are inconsistent",
    ]);
}

#[test]
fn doubt_added_after_a_statement_makes_it_a_guess() {
    none_kept(&[
        "I think the flaky test is the upload one, not sure.",
        "the release is next tuesday, I'm not sure.",
        "we use yarn here I think, but I could be wrong.",
        "the staging key rotates monthly (don't quote me on that)",
        "the cache lives in redis - not 100% sure",
    ]);
    // Doubt as the condition of a rule, and certainty, are not a guess.
    assert!(kept("when you're not sure, ask before deleting anything.").is_some());
    assert!(kept("we pin every dependency, I'm sure of that.").is_some());
}

#[test]
fn where_a_kind_of_thing_goes_to_is_a_fact_of_the_project() {
    for sentence in [
        "logs go to stderr, output goes to stdout.",
        "errors go to sentry, not to the console.",
        "alerts go to the #ops channel.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&["go to the settings page and click save", "then go to line 40"]);
}

#[test]
fn how_a_kind_of_thing_is_named_or_ordered_is_a_convention() {
    for sentence in [
        "name branches after the ticket, like ENG-123-short-title.",
        "prefix env vars with APP_ so they don't clash.",
        "tag releases with the date, like 2026.12.1.",
        "sort imports by module path.",
    ] {
        assert!(kept(sentence).is_some(), "{sentence:?}");
    }
    // One thing named or ordered, or a piece of work on a kind of thing, is a task.
    none_kept(&[
        "tag the release with v2.0.",
        "sort the list by date.",
        "write tests for the parser.",
        "format files in the src folder.",
    ]);
}

#[test]
fn a_change_made_that_holds_from_now_on_is_kept() {
    for sentence in [
        "I upgraded to Ubuntu 24.04.",
        "I've switched to a Linux laptop.",
        "I changed my editor to zed.",
        "I switched my shell to zsh.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
    assert_eq!(kept("we've migrated to GitHub Actions."), Some(Reach::Project));
    // Moving on in the work, changing one thing, or a change long past is not a new setup.
    none_kept(&[
        "I switched to the other branch.",
        "I moved to the next ticket.",
        "I changed the function to return early.",
        "last year I switched to vim for a month.",
    ]);
}

#[test]
fn a_thing_said_to_have_changed_with_its_new_value_points_at_it() {
    for (sentence, topic) in [
        ("staging url changed, it's stage.acme.io now.", "staging url"),
        ("the api host moved: now it's api2.internal", "api host"),
        ("the deploy branch changed; it is release now", "deploy branch"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    for (sentence, topic) in [
        ("circleci is no more, everything's in github actions.", "circleci"),
        ("jenkins is toast, CI is all github actions now", "jenkins"),
        ("nagios is decommissioned, alerts come from grafana now", "nagios"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    // How a thing went is not a new value for it.
    assert!(statements("the plan changed, it's fine").iter().all(|s| s.reference.is_none()));
}

#[test]
fn a_two_letter_abbreviation_in_the_plural_is_the_same_topic() {
    assert_eq!(reference::topic_words("keep PRs small"), reference::topic_words("keep PR small"));
    assert_eq!(reference::topic_words("two VMs"), reference::topic_words("two VM"));
    assert_eq!(reference::topic_words("the IDs"), reference::topic_words("the ID"));
}

#[test]
fn an_upgrade_of_a_named_thing_supersedes_its_old_version() {
    for (new, old) in [
        ("we finally upgraded the db to mysql 8.", "the db is mysql 5.7."),
        ("I upgraded my laptop to macOS 15.", "my laptop runs macOS 14."),
        ("we migrated the cluster to k8s 1.31", "the cluster is on k8s 1.29"),
    ] {
        assert!(claim(new).supersedes(old), "{new:?} should supersede {old:?}");
    }
    assert!(!claim("we upgraded the db to mysql 8.").supersedes("the cache is redis 7."));
}

#[test]
fn an_idiom_with_no_is_not_a_contrast_and_a_habit_asked_of_one_thing_is_work() {
    none_kept(&[
        "the tests are failing again, no idea why",
        "the deploy broke, no clue what happened",
        "staging is slow today, no rush though",
        "can you always make sure to close the file handle in this function",
        "could you always check this file for typos",
    ]);
    assert!(kept("use pnpm, no npm.").is_some());
    assert!(kept("could you always run the tests before committing from now on?").is_some());
}

#[test]
fn what_a_thing_of_the_work_needs_by_name_is_a_fact() {
    for sentence in [
        "the test suite needs docker running.",
        "the frontend requires node 20.",
        "the e2e tests expect a running postgres.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&["the test needs fixing.", "this function needs a rewrite"]);
}

#[test]
fn how_to_get_a_thing_of_the_work_done_is_the_projects() {
    for sentence in [
        "to regenerate the graphql types run pnpm codegen.",
        "to get a shell in the db container, use docker compose exec db psql.",
        "to reset the local db you can run make db-reset.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    // A turn of speech, or a goal about one thing at hand, is no how-to.
    none_kept(&[
        "to be honest, run the tests again.",
        "to fix this, use a mutex.",
        "to me it looks fine, run it again.",
    ]);
}

#[test]
fn what_makes_a_thing_work_and_when_it_fails_are_the_projects() {
    for sentence in [
        "the flaky checkout test passes if you clear the redis cache first.",
        "the dev server only starts once you run make certs.",
        "login works again after you clear the cookies.",
        "the payments service times out if the sandbox key is missing.",
        "the worker crashes when the queue is full.",
        "the monorepo uses turborepo for task caching.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&["it works if you restart it.", "the worker crashed when I ran it."]);
    // A rule with "use" in it is not a fact of what a thing uses.
    assert_eq!(kept("Always use unwrap in library code."), Some(Reach::General));
}

#[test]
fn exaggeration_a_question_someone_asked_a_source_and_an_absence_are_not_rules() {
    none_kept(&[
        // Venting by exaggeration.
        "we literally always have merge conflicts in package-lock, it's a curse",
        "the e2e suite literally never passes on the first try",
        "flaky tests drive me nuts, we always rerun them",
        // Somebody else's question.
        "the intern asked if we should always use microservices",
        "my manager wondered whether we never need staging",
        "a customer wants to know if we always encrypt backups",
        // What a source says, not the user.
        "per the vendor docs you must always call init first, but their docs are wrong half the time",
        "as per the blog post, never use ORMs",
        // For as long as somebody is away.
        "while I'm out next week, don't merge anything big",
        "while Dana is on vacation, never deploy the billing service",
        "while we're off for the holidays, don't touch prod",
    ]);
    // What the user asked for is theirs.
    assert!(kept("I asked you to always use pnpm.").is_some());
}

#[test]
fn what_a_kind_of_thing_needs_or_may_go_without_is_a_rule_of_the_project() {
    for sentence in [
        "docs-only changes don't need a version bump.",
        "design reviews are required for any new public endpoint.",
        "hotfixes need two approvals.",
        "migrations must be reversible.",
        "new services require a runbook before launch.",
        // What still holds, said beside an exception to it.
        "native changes still need a proper store build + review, but this one doesn't",
        "schema migrations still need a DBA sign-off.",
        "public endpoints also need rate limits",
        "hotfixes now need two approvals, since the outage",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    none_kept(&[
        "the tests need fixing.",
        "these files need a rewrite.",
        "things need to calm down before the release",
        "the tests still need fixing.",
        "these files still need a rewrite.",
        "my eyes still need a break",
    ]);
}

#[test]
fn a_rule_naming_a_team_of_the_workplace_or_what_it_built_for_itself_is_the_projects() {
    for sentence in [
        "never bump the api version without telling the mobile team.",
        "always loop in the security team before adding a new auth provider.",
        "don't ship UI changes without a sign-off from the design folks.",
        "use the internal http wrapper, not fetch directly.",
        "prefer our in-house feature flag service over env toggles.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    // "Internal" of anything else says nothing of a workplace.
    assert_eq!(kept("don't write internal monologue in comments."), Some(Reach::General));
    assert_eq!(kept("I prefer guard clauses over nested ifs."), Some(Reach::General));
}

#[test]
fn how_the_agent_is_to_report_when_it_finishes_is_a_habit() {
    for sentence in [
        "I'd like you to run the tests yourself before telling me it's done.",
        "when you're done, give me a one-paragraph summary.",
        "once you've finished, list the files you touched.",
        "at the end of each task, tell me what's left.",
        "let me review any schema change before you apply it.",
        "let me see every migration first.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::General), "{sentence:?}");
    }
    // The end of one piece of work, or a moment's pause, is no habit.
    none_kept(&[
        "when you're done with that, fix the header too.",
        "once you've finished the refactor, run the tests.",
        "let me check the logs real quick.",
        "let me think about it.",
    ]);
}

#[test]
fn how_the_parts_of_the_work_connect_and_what_a_kind_of_thing_follows_are_the_projects() {
    for sentence in [
        "the mobile app talks to the api through the bff layer.",
        "the worker reads jobs from the redis queue.",
        "PR titles follow the ticket id, like PAY-123: summary.",
        "commit messages follow conventional commits.",
        "test files live next to the code they test.",
    ] {
        assert_eq!(kept(sentence), Some(Reach::Project), "{sentence:?}");
    }
    // How a thing goes amiss, or a step to follow, is not how the work is built.
    none_kept(&[
        "the app calls the api way too often, can you batch it?",
        "the button calls handleClick twice.",
        "the test calls the wrong endpoint.",
        "follow the steps in the readme.",
    ]);
}

#[test]
fn advice_that_no_longer_applies_a_mind_changed_on_a_topic_and_a_thing_set_anew_point_at_it() {
    for (sentence, topic) in [
        ("the cypress advice no longer applies, playwright took over.", "cypress advice"),
        ("that lint rule doesn't apply anymore, we use biome.", "lint rule"),
        ("re: logging, I changed my mind, keep logs terse.", "logging"),
        ("about commit sizes: I've changed my mind, bigger PRs are fine.", "commit sizes"),
        ("prettier's gone, biome handles formatting.", "prettier"),
    ] {
        points_at_with_a_new_value(sentence, topic);
    }
    for sentence in [
        "bump that timeout I told you about to 60s.",
        "change the port I gave you to 8081.",
        "set that retry count we picked to 5.",
    ] {
        let found = statements(sentence);
        assert!(found.len() == 1 && found[0].reference.is_some(), "{sentence:?}: {found:?}");
    }
    // A value set on a thing not said before is work.
    none_kept(&["bump the version to 2.0.", "change the port to 8081 in the config."]);
}
