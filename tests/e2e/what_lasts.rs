//! What the dream keeps of what people say, through the real binary and three harnesses: only
//! what is meant to last, in the right place, with corrections winning however they are worded.

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor, holding};

/// Sends one prompt in a session of `harness` (a session of its own per call).
fn say(m: &Machine, harness: &str, session: &str, dir: &std::path::Path, prompt: &str) {
    let payload = match harness {
        "claude" => claude(session, dir, "UserPromptSubmit", json!({ "prompt": prompt })),
        "codex" => codex(session, dir, "UserPromptSubmit", json!({ "turn_id": "t1", "prompt": prompt })),
        _ => cursor(session, dir, "beforeSubmitPrompt", json!({ "prompt": prompt, "attachments": [] })),
    };
    m.hook(harness, dir, &payload);
}

/// Every note's text, lowercase.
fn notes_text(m: &Machine) -> String {
    let listed = m.run_json(&["notes", "list", "--json"]);
    listed
        .as_array()
        .map(|notes| {
            notes
                .iter()
                .map(|n| format!("{}\n{}\n", n["meta"]["title"], n["body"].as_str().unwrap_or("")))
                .collect::<String>()
        })
        .unwrap_or_default()
        .to_lowercase()
}

/// What a fresh session of `harness` in `dir` is given at its start, lowercase.
fn start(m: &Machine, harness: &str, session: &str, dir: &std::path::Path) -> String {
    let payload: Value = match harness {
        "claude" => claude(session, dir, "SessionStart", json!({ "source": "startup" })),
        "codex" => codex(session, dir, "SessionStart", json!({ "source": "startup" })),
        _ => cursor(session, dir, "sessionStart", json!({ "session_id": session })),
    };
    m.hook(harness, dir, &payload).context(harness).unwrap_or_default().to_lowercase()
}

#[test]
fn questions_hypotheticals_reported_words_stories_jokes_and_one_offs_are_not_kept() {
    let m = Machine::new();
    let dir = m.project("quill-api");
    let said = [
        // A lasting statement, so the dream has something to keep beside what it must not.
        ("claude", "we use ruff for linting here, never flake8."),
        // Questions, with and without a question mark.
        ("claude", "should we always vendor the openapi spec? not sure."),
        ("codex", "do you think we should never mock the payment gateway in tests"),
        ("cursor", "i wonder if it's better to always pin transitive deps"),
        // Hypotheticals.
        ("claude", "if we ever go serverless we'd deploy with zappa. anyway, look at the logs"),
        ("codex", "what if we always ran the migrations on boot"),
        ("cursor", "someday we could move the whole queue to nats"),
        // Somebody else's words.
        ("claude", "my lead says you should never use celery beat, sounds odd to me"),
        ("codex", "the vendor docs claim the webhook must always be acked within 2 seconds"),
        ("cursor", "a friend swears we should always run black with --preview, is that right"),
        // Stories about the past.
        ("claude", "last year we always deployed from a laptop, never again. check the ci config"),
        ("codex", "at my previous job we never reviewed migrations and it hurt"),
        ("cursor", "we used to keep fixtures in a dropbox folder, long story"),
        // Jokes.
        ("claude", "let's just rewrite the api in cobol lol. run the tests"),
        ("codex", "i'm tempted to delete the staging cluster and call it a day"),
        ("cursor", "another 40 minute ci run, love that for me"),
        // One-offs.
        ("claude", "just for today, don't run the slow integration suite"),
        ("codex", "skip the type check this time, i'm in a rush"),
        ("cursor", "for now, leave the feature flag on in staging"),
    ];
    for (i, (harness, prompt)) in said.iter().enumerate() {
        say(&m, harness, &format!("{harness}-mood-{i}"), &dir, prompt);
    }
    m.run_json(&["dream"]);
    let notes = notes_text(&m);
    assert!(notes.contains("ruff"), "the lasting statement is kept:\n{notes}");
    for leak in [
        "vendor the openapi",
        "mock the payment gateway",
        "transitive deps",
        "zappa",
        "migrations on boot",
        "nats",
        "celery beat",
        "acked within",
        "--preview",
        "from a laptop",
        "reviewed migrations",
        "dropbox",
        "cobol",
        "staging cluster",
        "love that for me",
        "slow integration suite",
        "type check",
        "feature flag",
    ] {
        assert!(!notes.contains(leak), "{leak:?} is not meant to last, yet a note holds it:\n{notes}");
    }
}

#[test]
fn trouble_pasted_output_and_questions_after_a_comma_are_never_kept_however_often_said() {
    let m = Machine::new();
    let dir = m.project("quill-api");
    let said = [
        // A lasting statement, so the dream has something to keep beside what it must not.
        "we use ruff for linting here, never flake8.",
        // Trouble going on now.
        "my runs from the cluster don't show up in the experiment dashboard",
        "the quill worker is in CrashLoopBackOff since the deploy",
        "the invoices page doesn't load for customers in the EU",
        // Lines pasted from a tool's output.
        "error: Leaking async ops: 1 async operation to op_read was started in this test, but never completed",
        "WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED for fsn1-client-07",
        "NotCapable: Requires net access to \"localhost:5432\"",
        // Questions asked after a comma, without a question mark.
        "wandb offline runs from the compute nodes, how do I sync them",
        "the orders page takes 4 seconds in production; how do I figure out where the time goes",
        "the lockfile and package.json disagree again, what's the fix",
    ];
    // Each said again in every harness, as a user retrying a prompt does.
    for (i, prompt) in said.iter().enumerate() {
        for harness in ["claude", "codex", "cursor"] {
            say(&m, harness, &format!("{harness}-again-{i}"), &dir, prompt);
        }
    }
    m.run_json(&["dream"]);
    let notes = notes_text(&m);
    assert!(notes.contains("ruff"), "the lasting statement is kept:\n{notes}");
    for leak in [
        "experiment dashboard",
        "crashloopbackoff",
        "customers in the eu",
        "leaking async ops",
        "remote host identification",
        "requires net access",
        "compute nodes",
        "where the time goes",
        "package.json disagree",
    ] {
        assert!(!notes.contains(leak), "{leak:?} is the work at hand, yet a note holds it:\n{notes}");
    }
}

#[test]
fn a_correction_that_points_back_retires_the_old_value_in_every_harness() {
    let m = Machine::new();
    let dir = m.project("ledger-ui");
    say(&m, "claude", "c-1", &dir, "state lives in redux slices here, one slice per feature.");
    say(&m, "claude", "c-1", &dir, "the api base url is https://api.old-ledger.dev for local work.");
    say(&m, "claude", "c-1", &dir, "my editor is emacs, so give me elisp snippets when config comes up.");
    say(&m, "claude", "c-1", &dir, "we deploy the frontend to the eu-west-1 bucket.");
    m.run_json(&["dream"]);
    let before = start(&m, "codex", "x-0", &dir);
    assert!(before.contains("redux") && before.contains("emacs") && before.contains("eu-west-1"), "{before}");

    // Three wordings of a correction by reference, in two other harnesses.
    say(&m, "codex", "x-1", &dir, "scratch what i said about state management, we're on zustand stores now.");
    say(
        &m,
        "cursor",
        "u-1",
        &dir,
        "the api url i gave you is dead, local work goes against https://api.ledger.dev now",
    );
    say(&m, "codex", "x-2", &dir, "forget my earlier note about my editor, i'm on helix these days.");
    say(
        &m,
        "cursor",
        "u-2",
        &dir,
        "the bucket thing from before is outdated, the frontend ships to eu-central-1 now.",
    );
    m.run_json(&["dream"]);

    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for new in ["zustand", "api.ledger.dev", "helix", "eu-central-1"] {
            assert!(context.contains(new), "{harness} is given the new value {new:?}:\n{context}");
        }
        for stale in ["redux slices", "api.old-ledger.dev", "emacs", "eu-west-1"] {
            assert!(!context.contains(stale), "{harness} is still given {stale:?}:\n{context}");
        }
    }
}

#[test]
fn what_a_project_learns_stays_there_and_what_the_user_likes_goes_everywhere() {
    let m = Machine::new();
    let a = m.project("orchard-api");
    let b = m.project("plum-cli");
    say(&m, "claude", "c-1", &a, "background jobs go through sidekiq, never threads.");
    say(&m, "claude", "c-1", &a, "errors in the public client are typed results, not exceptions.");
    say(&m, "codex", "x-1", &a, "keep your answers short, i read them on my phone.");
    say(&m, "codex", "x-1", &a, "in all my projects, commit messages follow the conventional style.");
    say(&m, "cursor", "u-1", &a, "when you hand me shell snippets use long flags.");
    m.run_json(&["dream"]);

    let home = start(&m, "codex", "x-2", &a);
    let away = start(&m, "claude", "c-2", &b);
    for project_fact in ["sidekiq", "typed results"] {
        assert!(home.contains(project_fact), "{project_fact:?} in its project:\n{home}");
        assert!(!away.contains(project_fact), "{project_fact:?} leaked to another project:\n{away}");
    }
    for everywhere in ["answers short", "conventional style", "long flags"] {
        assert!(home.contains(everywhere), "{everywhere:?} in the project it was said in:\n{home}");
        assert!(away.contains(everywhere), "{everywhere:?} in every project:\n{away}");
    }
}

#[test]
fn credentials_said_in_a_prompt_never_become_notes() {
    let m = Machine::new();
    let dir = m.project("fig-store");
    say(&m, "claude", "c-1", &dir, "the office wifi is CorrectHorse99. we use pnpm here, not npm.");
    say(&m, "codex", "x-1", &dir, "btw the staging admin password: Tr0ub4dor&3");
    say(
        &m,
        "cursor",
        "u-1",
        &dir,
        "my github token is ghp_Zq4tW8nR2yV6mK1pL9sX3cB7dF5gH0jA2eU4, use it for the release",
    );
    m.run_json(&["dream"]);
    let notes = notes_text(&m);
    assert!(notes.contains("pnpm"), "the rule beside the secret is kept:\n{notes}");
    for secret in ["correcthorse99", "tr0ub4dor", "ghp_", "redacted", "wifi", "password"] {
        assert!(!notes.contains(secret), "{secret:?} reached a note:\n{notes}");
    }
    let context = start(&m, "codex", "x-2", &dir);
    assert!(!context.contains("correcthorse99") && !context.contains("redacted"), "{context}");
}

#[test]
fn a_thing_said_to_be_dropped_gone_or_outdated_leaves_every_harness_and_a_task_is_never_a_note() {
    let m = Machine::new();
    let dir = m.project("harbor-web");
    say(&m, "claude", "c-1", &dir, "we queue outgoing emails through beanstalkd here.");
    say(&m, "claude", "c-1", &dir, "the search index runs on elasticsearch 7 in this repo.");
    say(&m, "claude", "c-1", &dir, "we lint the stylesheets with stylelint here.");
    say(&m, "claude", "c-1", &dir, "the ios build signs with fastlane match in this repo.");
    m.run_json(&["dream"]);
    let before = start(&m, "codex", "x-0", &dir);
    for old in ["beanstalkd", "elasticsearch 7", "stylelint", "fastlane match"] {
        assert!(before.contains(old), "{old:?} is given before the corrections:\n{before}");
    }

    // Later sessions in two other harnesses: corrections that name the old thing as gone, and a
    // request for one piece of work.
    say(&m, "codex", "x-1", &dir, "we dropped beanstalkd, emails go out through sqs now.");
    say(&m, "cursor", "u-1", &dir, "elasticsearch is gone, search runs on meilisearch.");
    say(&m, "codex", "x-2", &dir, "not stylelint anymore, biome lints the css too.");
    say(
        &m,
        "cursor",
        "u-2",
        &dir,
        "the signing setup: that's outdated, xcode cloud manages the certificates now.",
    );
    say(&m, "codex", "x-3", &dir, "fix the flaky test in checkout_total_spec.rb");
    m.run_json(&["dream"]);

    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for new in ["sqs", "meilisearch", "biome", "xcode cloud"] {
            assert!(context.contains(new), "{harness} is given the new value {new:?}:\n{context}");
        }
        for stale in
            ["through beanstalkd here", "elasticsearch 7", "stylesheets with stylelint", "fastlane match"]
        {
            assert!(!context.contains(stale), "{harness} is still given {stale:?}:\n{context}");
        }
    }
    let notes = notes_text(&m);
    assert!(!notes.contains("checkout_total_spec"), "a request for work became a note:\n{notes}");
}

#[test]
fn everyday_wordings_keep_the_teams_habits_drop_guesses_sources_and_jokes_and_hide_passwords() {
    let m = Machine::new();
    let dir = m.project("quarry-api");
    let other = m.project("slate-ui");
    let said = [
        ("claude", "the team squashes every PR"),
        ("codex", "fwiw I'm on a Linux box with fish shell, so no bash-isms in commands please"),
        ("cursor", "tip for future sessions: the seed data lives in db/seeds.sql"),
        ("claude", "the docs site is built with mkdocs"),
        ("cursor", "the app won't start unless REDIS_URL is set"),
        ("codex", "the staging db is shared with QA, so never run destructive migrations there"),
        // Not meant to last, each in its own way.
        ("codex", "the blog post I read says you should always use a monorepo"),
        ("cursor", "my guess is they always cache the avatars at the edge"),
        ("claude", "it's a running joke that we never finish sprints"),
        ("codex", "just this afternoon, don't touch the CI config, Sam's fixing it"),
        ("cursor", "I keep forgetting whether we always rebase or merge"),
        ("claude", "in the old codebase we never had tests for the parser"),
        ("codex", "the wifi password here is hunter2-guest"),
        ("cursor", "honestly I never understood monads"),
    ];
    for (i, (harness, prompt)) in said.iter().enumerate() {
        say(&m, harness, &format!("{harness}-day-{i}"), &dir, prompt);
    }
    m.run_json(&["dream"]);
    let notes = notes_text(&m);
    for kept in
        ["squashes every pr", "fish shell", "db/seeds.sql", "mkdocs", "redis_url", "destructive migrations"]
    {
        assert!(notes.contains(kept), "{kept:?} is meant to last:\n{notes}");
    }
    for leak in [
        "monorepo",
        "avatars",
        "finish sprints",
        "ci config",
        "rebase or merge",
        "parser",
        "hunter2",
        "monads",
    ] {
        assert!(!notes.contains(leak), "{leak:?} is not meant to last, yet a note holds it:\n{notes}");
    }
    // The password said with where it holds is redacted before anything is stored.
    assert!(holding(&m.home(), "hunter2-guest").is_empty(), "the password reached the data folder");

    // The team's habit stays in its project; the user's shell goes everywhere.
    let away = start(&m, "claude", "c-away", &other);
    assert!(away.contains("fish shell") && !away.contains("squashes"), "{away}");

    // A later correction in another harness points at a remark instead of restating it.
    say(&m, "cursor", "u-later", &dir, "disregard the mkdocs remark, the docs moved to docusaurus");
    m.run_json(&["dream"]);
    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        assert!(context.contains("docusaurus"), "{harness} is given the new value:\n{context}");
        assert!(!context.contains("built with mkdocs"), "{harness} is still given the old value:\n{context}");
    }
}

#[test]
fn a_thing_switched_renamed_changed_or_no_longer_used_gives_way_to_its_new_value() {
    let m = Machine::new();
    let dir = m.project("orbit-api");
    say(&m, "claude", "c-1", &dir, "the API base URL is https://api.acme.io/v1");
    say(&m, "claude", "c-1", &dir, "I use vim for quick edits");
    say(&m, "claude", "c-1", &dir, "we deploy with Capistrano");
    say(&m, "claude", "c-1", &dir, "the default branch is master");
    say(&m, "claude", "c-1", &dir, "we use classic yarn here");
    m.run_json(&["dream"]);
    let before = start(&m, "codex", "x-0", &dir);
    for old in
        ["api.acme.io/v1", "vim for quick edits", "capistrano", "branch is master", "classic yarn here"]
    {
        assert!(before.contains(old), "{old:?} is given before the corrections:\n{before}");
    }
    say(&m, "codex", "x-1", &dir, "update: the API base URL changed to https://api.v2.acme.io");
    say(&m, "cursor", "u-1", &dir, "I switched from vim to helix last month");
    say(&m, "codex", "x-2", &dir, "turns out we don't deploy with Capistrano anymore, it's Kamal");
    say(&m, "cursor", "u-2", &dir, "heads up, we renamed master to main");
    say(&m, "claude", "c-2", &dir, "nope, it's yarn berry now, not classic yarn");
    m.run_json(&["dream"]);
    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for new in ["api.v2.acme.io", "helix", "kamal", "master to main", "yarn berry"] {
            assert!(context.contains(new), "{harness} is given the new value {new:?}:\n{context}");
        }
        for stale in [
            "api.acme.io/v1",
            "vim for quick edits",
            "we deploy with capistrano",
            "branch is master",
            "classic yarn here",
        ] {
            assert!(!context.contains(stale), "{harness} is still given {stale:?}:\n{context}");
        }
    }
}

/// A thing arrowed to its new value, replaced in the passive, said to be out here, a mind
/// changed about it, or a value given with "'s", each said in another harness than the line it
/// corrects: every harness gets the new value and never the old line.
#[test]
fn a_thing_arrowed_replaced_out_or_changed_a_mind_about_gives_way_to_its_new_value() {
    let m = Machine::new();
    let dir = m.project("relay-api");
    say(&m, "claude", "c-1", &dir, "we use RabbitMQ for the job queue here");
    say(&m, "claude", "c-1", &dir, "our CI runs on Jenkins");
    say(&m, "claude", "c-1", &dir, "run migrations with knex migrate:latest in this repo");
    say(&m, "claude", "c-1", &dir, "I prefer two-space indentation");
    say(&m, "claude", "c-1", &dir, "the API lives on port 8080 here");
    m.run_json(&["dream"]);
    let old =
        ["rabbitmq for the job queue", "runs on jenkins", "knex migrate:latest", "two-space", "port 8080"];
    let before = start(&m, "codex", "x-0", &dir);
    for line in old {
        assert!(before.contains(line), "{line:?} is given before the corrections:\n{before}");
    }
    say(&m, "codex", "x-1", &dir, "RabbitMQ → SQS now.");
    say(&m, "cursor", "u-1", &dir, "Jenkins got replaced by GitHub Actions last month.");
    say(&m, "codex", "x-2", &dir, "knex is out, we run migrations with drizzle-kit now.");
    say(&m, "cursor", "u-2", &dir, "Changed my mind on indentation: four spaces please.");
    say(&m, "claude", "c-2", &dir, "Port's 9090 now.");
    m.run_json(&["dream"]);
    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for new in ["sqs", "github actions", "drizzle-kit", "four spaces", "9090"] {
            assert!(context.contains(new), "{harness} is given the new value {new:?}:\n{context}");
        }
        for stale in old {
            assert!(!context.contains(stale), "{harness} is still given {stale:?}:\n{context}");
        }
    }
}

/// Things said in passing over three harnesses: questions folded into a request to find out,
/// plans said with "could" or "may", what a tool reports and feelings about how a thing is are
/// never notes; a rule under an everyday condition, who the user is, an announced fact, a habit
/// said in the passive and a rule said to the agent with a modal are.
#[test]
fn things_said_in_passing_are_kept_only_when_they_state_how_things_are() {
    let m = Machine::new();
    let dir = m.project("ember-api");
    let said = [
        ("claude", "When in doubt, write a test first."),
        ("codex", "I'm a backend dev, mostly Go and Postgres."),
        ("cursor", "FYI the test database resets every night."),
        ("claude", "Migrations are generated with alembic, never by hand."),
        ("codex", "you must not push straight to main"),
        // Not meant to last.
        ("cursor", "Can you check if we always close the db connection"),
        ("claude", "We could try using sqlc instead of the ORM."),
        ("codex", "The linter complains that we never use the return value."),
        ("cursor", "I hate that the build always takes forever."),
        ("claude", "Assuming we go with Postgres, we'd want pgbouncer."),
    ];
    for (i, (harness, prompt)) in said.iter().enumerate() {
        say(&m, harness, &format!("{harness}-passing-{i}"), &dir, prompt);
    }
    m.run_json(&["dream"]);
    let notes = notes_text(&m);
    for kept in
        ["write a test first", "backend dev", "resets every night", "alembic", "push straight to main"]
    {
        assert!(notes.contains(kept), "{kept:?} is meant to last:\n{notes}");
    }
    for leak in ["db connection", "sqlc", "return value", "takes forever", "pgbouncer"] {
        assert!(!notes.contains(leak), "{leak:?} is not meant to last, yet a note holds it:\n{notes}");
    }
}

/// A rule that names a thing only its project has (a folder, a namespaced task, a make target),
/// a fix for when a thing of it goes wrong, and a step tied to when it holds, said with no place
/// named: each stays in its project, said in one harness and given in another, never in a
/// second project; how the user likes answers goes everywhere.
#[test]
fn rules_naming_the_projects_things_and_its_fixes_stay_in_the_project() {
    let m = Machine::new();
    let dir = m.project("fern-api");
    let other = m.project("moss-web");
    for (i, prompt) in [
        "Never edit files under gen/ by hand, they're generated.",
        "Always run db:reset after pulling schema changes.",
        "If the e2e tests hang, kill the stale chromedriver first.",
        "Run ./scripts/bootstrap.sh once after cloning.",
        "Please keep answers short and skip the pleasantries.",
    ]
    .iter()
    .enumerate()
    {
        say(&m, "claude", &format!("c-{i}"), &dir, prompt);
    }
    m.run_json(&["dream"]);
    let project_lines = ["files under gen/", "db:reset", "stale chromedriver", "bootstrap.sh"];
    let here = start(&m, "codex", "x-1", &dir);
    for line in project_lines {
        assert!(here.contains(line), "{line:?} is the project's:\n{here}");
    }
    let elsewhere = start(&m, "cursor", "u-1", &other);
    for line in project_lines {
        assert!(!elsewhere.contains(line), "{line:?} leaked into another project:\n{elsewhere}");
    }
    assert!(
        elsewhere.contains("keep answers short"),
        "how the user likes answers goes everywhere:\n{elsewhere}"
    );
}

/// Style choices said without a verb and a change of setup are kept; a statement the user doubts
/// is not; a tool switched to retires the tool of its kind in every harness.
#[test]
fn style_choices_and_changes_of_setup_are_kept_and_doubted_statements_are_not() {
    let m = Machine::new();
    let dir = m.project("fern-web");
    say(&m, "claude", "c-1", &dir, "my editor is vscode");
    say(&m, "claude", "c-1", &dir, "we use npm here");
    m.run_json(&["dream"]);
    let before = start(&m, "codex", "x-0", &dir);
    for old in ["editor is vscode", "use npm here"] {
        assert!(before.contains(old), "{old:?} is given before the changes:\n{before}");
    }
    let said = [
        ("codex", "Single quotes in the JS files please."),
        ("cursor", "one component per file."),
        ("claude", "kebab-case for the CSS class names."),
        ("codex", "I changed my editor to zed."),
        ("cursor", "we moved to pnpm."),
        // Doubted.
        ("claude", "the staging cache is memcached, not 100% sure"),
        ("codex", "the deploy key rotates monthly (don't quote me on that)"),
    ];
    for (i, (harness, prompt)) in said.iter().enumerate() {
        say(&m, harness, &format!("{harness}-style-{i}"), &dir, prompt);
    }
    m.run_json(&["dream"]);
    let notes = notes_text(&m);
    for kept in ["single quotes", "one component per file", "kebab-case", "zed", "pnpm"] {
        assert!(notes.contains(kept), "{kept:?} is meant to last:\n{notes}");
    }
    for leak in ["memcached", "rotates monthly"] {
        assert!(!notes.contains(leak), "{leak:?} was doubted, yet a note holds it:\n{notes}");
    }
    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for stale in ["editor is vscode", "use npm here"] {
            assert!(!context.contains(stale), "{harness} is still given {stale:?}:\n{context}");
        }
    }
}

/// A thing said to have changed with its new value, said to be no more, upgraded, set anew or
/// changed a mind on, in another harness than the line it corrects, gives way to its new value
/// everywhere; how to get a thing done and what makes a thing work are kept for the project.
#[test]
fn a_thing_changed_no_more_or_upgraded_gives_way_and_how_tos_are_kept() {
    let m = Machine::new();
    let dir = m.project("birch-web");
    say(&m, "claude", "c-1", &dir, "the staging url is staging.birch.dev");
    say(&m, "claude", "c-1", &dir, "we use circleci for the pipelines");
    say(&m, "claude", "c-1", &dir, "the db is mysql 5.7");
    say(&m, "claude", "c-1", &dir, "the api timeout is 30s here");
    say(&m, "claude", "c-1", &dir, "I like verbose logs");
    m.run_json(&["dream"]);
    let old =
        ["staging.birch.dev", "circleci for the pipelines", "mysql 5.7", "timeout is 30s", "verbose logs"];
    let before = start(&m, "codex", "x-0", &dir);
    for line in old {
        assert!(before.contains(line), "{line:?} is given before the corrections:\n{before}");
    }
    say(&m, "codex", "x-1", &dir, "staging url changed, it's stage.birch.io now.");
    say(&m, "cursor", "u-1", &dir, "circleci is no more, everything's in github actions.");
    say(&m, "codex", "x-2", &dir, "we finally upgraded the db to mysql 8.");
    say(&m, "cursor", "u-2", &dir, "to regenerate the graphql types run pnpm codegen.");
    say(&m, "claude", "c-2", &dir, "the flaky checkout test passes if you clear the redis cache first.");
    say(&m, "codex", "x-3", &dir, "bump that timeout I told you about to 60s.");
    say(&m, "cursor", "u-3", &dir, "re: logging, I changed my mind, keep logs terse.");
    m.run_json(&["dream"]);
    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for new in [
            "stage.birch.io",
            "github actions",
            "mysql 8",
            "pnpm codegen",
            "clear the redis cache",
            "60s",
            "terse",
        ] {
            assert!(context.contains(new), "{harness} is given {new:?}:\n{context}");
        }
        for stale in old {
            assert!(!context.contains(stale), "{harness} is still given {stale:?}:\n{context}");
        }
    }
    // Kept for this project only.
    let elsewhere = m.project("other-app");
    let context = start(&m, "claude", "c-10", &elsewhere);
    assert!(!context.contains("pnpm codegen"), "another project is given birch-web's how-to:\n{context}");
}

#[test]
fn corrections_worded_by_when_or_by_what_no_longer_holds_give_way_and_disowned_quotes_regrets_and_task_requirements_are_not_kept()
 {
    let m = Machine::new();
    let dir = m.project("tern-api");
    say(&m, "claude", "c-1", &dir, "we deploy to the eu-west-1 region.");
    say(&m, "claude", "c-1", &dir, "use jest for the unit tests here.");
    say(&m, "claude", "c-1", &dir, "tabs for indentation in this repo.");
    say(&m, "claude", "c-1", &dir, "we lint with eslint and its airbnb preset.");
    say(&m, "claude", "c-1", &dir, "code review goes to Priya.");
    m.run_json(&["dream"]);
    let before = start(&m, "codex", "x-0", &dir);
    for line in
        ["eu-west-1", "jest for the unit tests", "tabs for indentation", "airbnb preset", "goes to priya"]
    {
        assert!(before.contains(line), "{line:?} is given before the corrections:\n{before}");
    }
    say(
        &m,
        "codex",
        "x-1",
        &dir,
        "the deploy region from our first session doesn't exist anymore, use eu-north-1.",
    );
    say(&m, "cursor", "u-1", &dir, "jest got ripped out last sprint, it's vitest.");
    say(&m, "codex", "x-2", &dir, "about indentation: it's two spaces now, we reformatted everything.");
    say(
        &m,
        "cursor",
        "u-2",
        &dir,
        "the linter I picked back then doesn't hold anymore. biome does linting and formatting now.",
    );
    say(&m, "claude", "c-2", &dir, "Priya left the team, reviews go to Tomasz now.");
    say(
        &m,
        "codex",
        "x-3",
        &dir,
        "Kim's review comment was 'every handler must log its input' — that's her taste, not our rule.",
    );
    say(&m, "cursor", "u-3", &dir, "i'm so done with the windows runner, we should never have added it.");
    say(
        &m,
        "claude",
        "c-3",
        &dir,
        "add a --json flag to `report`; it must always print valid JSON even on errors.",
    );
    m.run_json(&["dream"]);
    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        for new in ["eu-north-1", "vitest", "two spaces", "biome does linting", "tomasz"] {
            assert!(context.contains(new), "{harness} is given {new:?}:\n{context}");
        }
        for stale in
            ["eu-west-1", "jest for the unit tests", "tabs for indentation", "airbnb preset", "goes to priya"]
        {
            assert!(!context.contains(stale), "{harness} is given {stale:?}:\n{context}");
        }
    }
    // Nobody's rule, a regret and what a requested piece of work must do are no notes (the last
    // prompt may still be quoted where the last session left off).
    let notes = notes_text(&m).to_lowercase();
    for said in ["must log its input", "windows runner", "valid json"] {
        assert!(!notes.contains(said), "{said:?} became a note:\n{notes}");
    }
}

/// A rule said right after the task it is about, without naming it, is found by that task's
/// words in another harness.
#[test]
fn a_rule_said_with_its_task_is_given_when_that_task_comes_again() {
    let m = Machine::new();
    let dir = m.project("slate-cli");
    for (i, (harness, prompt)) in [
        (
            "claude",
            "commit that. format for subjects in this repo: the component in square brackets then a \
             lowercase summary, e.g. `[ingest] strip bom`.",
        ),
        ("codex", "write the migration for the owners column. always reversible, with a down step please"),
        ("cursor", "bump the version and tag it. we always go through cargo release, never by hand"),
    ]
    .iter()
    .enumerate()
    {
        say(&m, harness, &format!("{harness}-task-{i}"), &dir, prompt);
    }
    m.run_json(&["dream"]);
    for (harness, prompt, rule) in [
        ("codex", "commit the units-row change", "square brackets"),
        ("claude", "add a migration that drops the legacy flags table", "down step"),
        ("codex", "cut a new version of the crate", "cargo release"),
    ] {
        let payload = match harness {
            "claude" => claude(&format!("ask-{rule}"), &dir, "UserPromptSubmit", json!({ "prompt": prompt })),
            _ => codex(
                &format!("ask-{rule}"),
                &dir,
                "UserPromptSubmit",
                json!({ "turn_id": "t1", "prompt": prompt }),
            ),
        };
        let given = m.hook(harness, &dir, &payload).context(harness).unwrap_or_default();
        assert!(given.contains(rule), "{prompt:?} gets the rule said with its task:\n{given}");
    }
}

/// A plan said in one harness and withdrawn in another ("not doing X after all", "X is off the
/// table") leaves every harness, and the withdrawal is no rule of its own.
#[test]
fn a_plan_withdrawn_leaves_every_harness_and_is_no_rule() {
    let m = Machine::new();
    let dir = m.project("loam-api");
    say(&m, "claude", "c-1", &dir, "forecasts get cached in deno kv, keyed by field and day.");
    say(&m, "claude", "c-1", &dir, "we expose the api over graphql, one schema file per domain.");
    say(&m, "claude", "c-1", &dir, "background jobs go through a redis queue with three retries.");
    m.run_json(&["dream"]);
    let before = start(&m, "codex", "x-0", &dir);
    assert!(
        before.contains("deno kv") && before.contains("graphql") && before.contains("redis queue"),
        "{before}"
    );

    say(&m, "codex", "x-1", &dir, "not doing the deno kv cache after all, pretend i never said it.");
    say(&m, "cursor", "u-1", &dir, "we're not going with graphql after all. plain rest endpoints.");
    say(&m, "codex", "x-2", &dir, "ok so the redis queue idea is off the table.");
    m.run_json(&["dream"]);

    for (harness, session) in [("claude", "c-9"), ("codex", "x-9"), ("cursor", "u-9")] {
        let context = start(&m, harness, session, &dir);
        // The plans' own lines are gone; a new value names what it replaces.
        for gone in [
            "keyed by field and day",
            "one schema file per domain",
            "three retries",
            "never said",
            "off the table",
        ] {
            assert!(!context.contains(gone), "{harness} is still given {gone:?}:\n{context}");
        }
        assert!(context.contains("plain rest endpoints"), "{harness} is given the new value:\n{context}");
    }
}
