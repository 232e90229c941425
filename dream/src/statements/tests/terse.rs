//! Rules said tersely or around other talk: without a verb, under a condition of any thing of a
//! kind, with the speaker's own reason, under a label of where they hold; and what is no rule:
//! work under its label, ironic comparisons, what became of a thing said before.

use super::super::*;

fn kept(prompt: &str) -> Vec<(Reach, String)> {
    statements(prompt).into_iter().map(|s| (s.reach, s.text)).collect()
}

#[test]
fn a_rule_without_its_verb_is_kept() {
    for (prompt, rule) in [
        ("branch names always kebab-case, makes the CI filters simpler.", "kebab-case"),
        ("log lines max 120 characters please, the aggregator truncates the rest", "120 characters"),
        ("open it as a draft. migrations never squashed btw, we replay them in staging", "never squashed"),
    ] {
        let got = kept(prompt);
        assert!(got.iter().any(|(_, text)| text.contains(rule)), "{prompt:?}: {got:?}");
    }
    // A thing that always goes wrong is trouble, not a rule; "we always" is said with its verb.
    for prompt in ["builds always fail on the arm runner", "these never work on the first try"] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn a_condition_on_any_thing_of_a_kind_opens_a_rule() {
    for (prompt, rule) in [
        ("if a migration drops a column, ask me before running it.", "ask me before running"),
        ("whenever a PR touches the public API, bump the minor version in the same PR.", "bump the minor"),
        ("when any endpoint returns a list, paginate it with cursors, never offsets.", "paginate it"),
    ] {
        let got = kept(prompt);
        assert!(got.iter().any(|(_, text)| text.contains(rule)), "{prompt:?}: {got:?}");
    }
    // Of one thing at hand, it is the work.
    assert!(kept("if the migration in this PR drops a column, ask me first.").is_empty());
}

#[test]
fn a_rule_announced_for_every_project_holds_everywhere() {
    for prompt in [
        "general rule btw, any repo: when a diff grows past 400 lines, split it into stacked PRs.",
        "standing rule for all my projects: when a dependency is added, say why in the PR body.",
        "rule of thumb, every repo: if a test needs the network, mark it and keep it out of the unit run.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
        assert!(!got[0].1.contains("rule"), "{prompt:?} is kept without its announcement: {got:?}");
    }
    // What follows about the work at hand is no rule.
    let got = kept(
        "general rule, any repo: when a change touches many files, plan it first. this one is small so go ahead",
    );
    assert_eq!(got.len(), 1, "{got:?}");
}

#[test]
fn a_rule_for_the_speakers_own_reason_is_about_the_user() {
    for prompt in [
        "since I'm dyslexic, never rely on spelling alone to tell two names apart in anything you build for me",
        "commit bodies wrapped at 72 please, I read them in a narrow terminal",
        "because I have a screen reader on, never put meaning only in emoji",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
    }
}

#[test]
fn a_rule_of_the_users_loses_the_example_of_the_project_at_hand() {
    for (prompt, rule, example) in [
        (
            "I can't tell red from green, so never show status by colour alone in anything you build for me: \
             the failed/passed chips in BuildList need a glyph too",
            "colour alone",
            "BuildList",
        ),
        (
            "I want every error message you write for me in plain words — the ones in AuthErrors are a good start",
            "plain words",
            "AuthErrors",
        ),
        (
            "I always want units in names of numbers: e.g. timeout_ms in config/defaults.toml",
            "units in names",
            "defaults.toml",
        ),
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
        assert!(got[0].1.contains(rule) && !got[0].1.contains(example), "{prompt:?}: {got:?}");
    }
}

#[test]
fn work_under_its_label_is_no_rule() {
    for prompt in [
        "task: the worker pool goes from 4 to 8 threads; src/pool.rs takes it from the config.",
        "today's job - the invoices table needs a currency column with a default.",
        "ok next ticket: every row of the report should link to its order",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn where_the_sentence_before_holds_makes_it_a_rule() {
    for prompt in [
        "ship it. PRs always as drafts btw, I flip them myself. that's for every repo",
        "squash on merge, one commit per PR. that goes for all my projects",
        "tag releases with a leading v. same for every repo",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
        assert!(got[0].1.split_whitespace().count() > 5, "{prompt:?} keeps what it said: {got:?}");
    }
    // Alone, it says nothing.
    assert!(kept("that's for every repo").is_empty());
}

#[test]
fn an_ironic_comparison_is_no_rule() {
    for prompt in [
        "rails is basically php with better manners but I do like retry_on",
        "gradle is just make with extra steps, honestly",
        "kubernetes is pretty much a bash script in a trench coat",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn what_became_of_a_thing_said_before_is_no_new_value() {
    for prompt in [
        "the on-call contact I gave you: she left the team in march.",
        "that staging box from before — it got decommissioned.",
        "the release checklist I mentioned: we moved off it last quarter.",
    ] {
        let found = statements(prompt);
        assert_eq!(found.len(), 1, "{prompt:?}: {found:?}");
        assert!(found[0].reference.is_some() && found[0].retracts_only, "{prompt:?}: {found:?}");
    }
    // What the thing is now is its new value.
    let found = statements("the on-call contact I gave you: it's Marta now.");
    assert!(found.len() == 1 && !found[0].retracts_only, "{found:?}");
}

#[test]
fn work_asked_with_a_verb_no_list_knows_is_no_rule() {
    for prompt in [
        "vectorize the rolling window with polars instead of the python loop.",
        "memoize the tariff lookup in the pricing module",
        "debounce the search box on the orders page, 300ms",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
    // Verbs of rules stay rules.
    for prompt in
        ["prefer the builder pattern over long constructors", "leave them out, trailing commas I mean"]
    {
        assert!(!asks_for_work(prompt), "{prompt:?}");
    }
}

#[test]
fn how_a_piece_of_work_stands_is_no_fact() {
    for prompt in [
        "pr 88 is approved, merge it",
        "the nightly build is green again",
        "tests are red on my machine again",
        "the admin ingress is 502ing since the upgrade",
        "the settings endpoint needs a rate limit",
        "the queue worker needs more memory, bump it",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
    // Of every thing of a kind, it is a rule.
    assert_eq!(kept("every endpoint needs a rate limit").len(), 1);
}

#[test]
fn rules_announced_as_the_houses_are_the_projects() {
    for prompt in [
        "house rule too: no partial functions. no head, no fromJust.",
        "team rules: no default exports. no barrel files either.",
        "house style: no abbreviations in names. no single-letter variables outside loops.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 2, "{prompt:?}: {got:?}");
        assert!(got.iter().all(|(reach, _)| *reach == Reach::Project), "{prompt:?}: {got:?}");
    }
}

#[test]
fn a_rule_after_a_rule_of_the_project_goes_on_with_it() {
    for prompt in [
        "subjects here start with the component in brackets. no trailing period.",
        "in this repo errors are typed enums. no stringly errors.",
        "we format with black here. no manual line wrapping.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 2, "{prompt:?}: {got:?}");
        assert!(got.iter().all(|(reach, _)| *reach == Reach::Project), "{prompt:?}: {got:?}");
    }
}

#[test]
fn a_rule_of_a_thing_of_the_project_named_ahead_keeps_it() {
    for prompt in [
        "and the parquet files under data/ — never git add those, data/ is tracked by dvc.",
        "the generated clients in gen/ — never edit them by hand, they come from the openapi spec.",
        "the fixtures in tests/snapshots/ — never hand-edit those, regenerate them with the script.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::Project, "{prompt:?}: {got:?}");
        assert!(got[0].1.contains('/'), "{prompt:?} keeps what it speaks of: {got:?}");
    }
}

#[test]
fn a_rule_of_how_to_work_with_the_user_said_for_everything_is_theirs() {
    for prompt in [
        "when you explain stuff to me, start with a tiny concrete example and then the theory. goes for everything.",
        "if you change things in a migration, tell me which tables first. applies to every repo.",
        "whenever you review code for me, list the blocking points before the nits.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
    }
}

#[test]
fn what_the_speaker_mentioned_is_their_own_word() {
    for prompt in [
        "the docs tool I mentioned is outdated, we moved to mkdocs.",
        "the review bot we mentioned last week is gone, reviews go through codeowners now.",
        "the docs host I said is old news, it's readthedocs now.",
    ] {
        assert_eq!(not_meant_to_last(prompt), None, "{prompt:?}");
        let found = statements(prompt);
        assert!(found.len() == 1 && found[0].reference.is_some(), "{prompt:?}: {found:?}");
    }
    // Somebody else's words stay theirs.
    assert_eq!(not_meant_to_last("the docs say we should pin every action"), Some(NotLasting::Reported));
}

#[test]
fn what_was_said_denied_by_pointing_back_is_a_correction() {
    for (prompt, value) in [
        (
            "correction on property tests — not the lib i said earlier, everything's on hedgehog now.",
            "hedgehog",
        ),
        ("not the region we picked before, it's eu-north-1 now.", "eu-north-1"),
        ("re the formatter: not the one i mentioned last time — we use dprint now.", "dprint"),
    ] {
        let found = statements(prompt);
        assert_eq!(found.len(), 1, "{prompt:?}: {found:?}");
        assert!(found[0].reference.is_some() && !found[0].retracts_only, "{prompt:?}: {found:?}");
        assert!(found[0].text.contains(value), "{prompt:?}: {found:?}");
    }
}

#[test]
fn a_retraction_ends_at_a_dash_and_its_new_value_follows() {
    for (prompt, topic) in [
        ("scrap what i said about the holdout region — it's the zeeland fields now.", "holdout region"),
        ("forget the cache host I gave you – it's redis-2 now.", "cache host"),
        ("ignore what I told you about the base image - we're on distroless now.", "base image"),
    ] {
        let found = statements(prompt);
        assert_eq!(found.len(), 1, "{prompt:?}: {found:?}");
        let reference = found[0].reference.as_ref().expect("points back");
        assert_eq!(reference.words, reference::topic_words(topic), "{prompt:?}");
        assert!(!found[0].retracts_only, "{prompt:?} gives the new value: {found:?}");
    }
}

#[test]
fn a_thing_of_the_work_judged_off_is_no_correction() {
    for prompt in [
        "the sync retry is too aggressive, make it back off exponentially.",
        "the polling interval is too short, it hammers the api",
        "the modal animation is a bit much, tone it down",
    ] {
        assert!(
            statements(prompt).iter().all(|s| s.reference.is_none()),
            "{prompt:?}: {:?}",
            statements(prompt)
        );
    }
    // What was said, judged off, is.
    assert!(
        statements("the length cap I gave you was too strict, 72 is fine")
            .iter()
            .any(|s| s.reference.is_some())
    );
}

#[test]
fn a_rule_said_to_hold_everywhere_in_its_own_words_is_the_users() {
    for prompt in [
        "dont touch package-lock.json unless the task is about deps — applies to every repo, lockfile churn makes reviews awful",
        "throwaway scripts go in ~/scratch, never in the repo, thats true everywhere.",
        "keep generated files out of commits, that's the rule everywhere",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
    }
}

#[test]
fn what_the_user_means_by_their_words_is_kept() {
    for prompt in [
        "ship it — and fyi when i say ship it i mean open the PR ready for review, not merge it",
        "when i say tidy up i mean formatting and imports only, no refactors",
        "by done i mean merged and deployed to staging, not just pushed",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, Reach::General, "{prompt:?}: {got:?}");
    }
}

#[test]
fn a_rule_said_right_after_its_task_is_filed_under_the_tasks_topic() {
    for (prompt, topic, rule) in [
        (
            "commit that. format for subjects in this repo: the component in square brackets then a lowercase summary",
            "commits",
            "square brackets",
        ),
        (
            "write the migration for the new column. always reversible, with a down step please",
            "migrations",
            "down step",
        ),
        (
            "bump the version and tag it. we always go through cargo release, never by hand",
            "version",
            "cargo release",
        ),
    ] {
        let got = kept(prompt);
        assert!(
            got.iter().any(|(_, text)| text.contains(rule) && text.contains(topic)),
            "{prompt:?}: {got:?}"
        );
    }
    // A rule after a turn, or of the user, is not the task's.
    for prompt in [
        "deploy the fix to staging. also, the image tag is always the short git sha",
        "deploy the fix to staging. i like short answers, no summaries",
    ] {
        let got = kept(prompt);
        assert!(got.iter().all(|(_, text)| !text.starts_with("deployment")), "{prompt:?}: {got:?}");
    }
    // A rule that names what it is about keeps its own words.
    let got = kept("commit that. commit subjects are lowercase here");
    assert_eq!(
        got.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>(),
        ["commit subjects are lowercase here"]
    );
}
