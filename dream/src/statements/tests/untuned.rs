//! The statement reader on wordings of each category it was not written around: withheld text,
//! corrections that point back without restating, what a correction retires besides the rule it
//! corrects, the mood of what a model proposes, and where sentences end.

use super::super::*;

fn references(sentence: &str) -> Option<Reference> {
    statements(sentence).into_iter().find_map(|s| s.reference)
}

#[test]
fn text_withheld_as_private_is_never_a_statement() {
    let marker = memory_redact::PRIVATE_MARKER;
    for sentence in [
        format!("always log in to the lab vpn as {marker}"),
        format!("we keep {marker} in the deploy script's environment"),
        format!("The jump host for this repo is {marker}, use it for every ssh session."),
        format!("I prefer {marker} as the signing identity for commits"),
    ] {
        assert!(statements(&sentence).is_empty(), "{sentence:?} carries withheld text");
        assert!(carries_secret(&sentence), "{sentence:?}");
        assert_eq!(not_meant_to_last(&sentence), Some(NotLasting::Secret), "{sentence:?}");
    }
    // The word alone withholds nothing.
    for sentence in [
        "keep helpers private to their module",
        "Private methods go at the bottom of the class in this repo.",
        "we mark internal crates as private in Cargo.toml",
    ] {
        assert!(!carries_secret(sentence), "{sentence:?}");
        assert_eq!(statements(sentence).len(), 1, "{sentence:?} is a rule");
    }
}

#[test]
fn credentials_are_secret_whatever_their_case() {
    for sentence in [
        "The Office WiFi is CorrectHorse99",
        "Staging PASSWORD: blue-Falcon-7",
        "My API Key is sk_live_9x8y7z",
    ] {
        assert!(carries_secret(sentence), "{sentence:?}");
    }
    for sentence in ["The Password is stored in Vault", "API keys are read from the environment"] {
        assert!(!carries_secret(sentence), "{sentence:?}");
    }
}

#[test]
fn a_stale_topic_is_pointed_at_beside_that_or_in_what_was_said() {
    for (sentence, topic) in [
        ("the release checklist I gave you is out of date, we tag from main now", "release checklist"),
        ("what I said about the lint setup is no longer true, biome does both jobs", "lint"),
        ("the vagrant box: that's outdated, everything runs in devcontainers", "vagrant box"),
        ("re the nightly cron, that's no longer the case, it runs every hour", "nightly cron"),
        ("that's out of date about the api base url, it lives at api.acme.dev", "api base url"),
    ] {
        let found = references(sentence).unwrap_or_else(|| panic!("{sentence:?} points back"));
        assert_eq!(found.words, topic_words(topic), "{sentence:?}");
    }
    // Said of a rule given before, a request to act on it still corrects it.
    for sentence in [
        "the lint rule I gave you is outdated, drop it",
        "that deploy note from before is stale, remove it",
        "the changelog bit from earlier is obsolete, just delete it",
    ] {
        assert!(references(sentence).is_some(), "{sentence:?} points back");
    }
    for sentence in [
        "is this outdated?",
        "is the lockfile out of date",
        "this dependency is outdated, bump it",
        "the docs are out of date in places, can you update the install section?",
        "the install section of the docs is outdated, rewrite it",
    ] {
        assert!(references(sentence).is_none(), "{sentence:?} corrects nothing");
    }
}

#[test]
fn a_thing_said_to_be_gone_is_pointed_at_bare() {
    for (sentence, topic) in [
        ("not jenkins anymore, builds run on buildkite", "jenkins"),
        ("it's not webpack anymore, we bundle with vite", "webpack"),
        ("we're not a monorepo anymore", "monorepo"),
        ("no more lerna, the workspace is managed by nx", "lerna"),
        ("no longer heroku, the apps are on render", "heroku"),
        ("circleci isn't a thing here anymore", "circleci"),
        ("docker compose is not part of the setup anymore", "docker compose"),
        ("the staging cluster is no longer used", "staging cluster"),
        ("protobuf is no longer a thing in this service", "protobuf"),
    ] {
        let found = reference::reference(&normalize(sentence)).unwrap_or_else(|| panic!("{sentence:?}"));
        assert_eq!(found.words, topic_words(topic), "{sentence:?}");
    }
    for sentence in [
        "I'm not hungry anymore",
        "the tests aren't flaky anymore",
        "it's not slow anymore",
        "not sure anymore, let me think",
        "no more questions, go ahead",
        "no more than 80 columns per line",
        "it isn't a thing I care about anymore",
    ] {
        assert!(reference::reference(&normalize(sentence)).is_none(), "{sentence:?} points at nothing");
    }
}

#[test]
fn a_rule_that_names_what_it_ends_is_kept_as_the_rule() {
    for sentence in [
        "no more console.log in committed code",
        "No more default exports in this repo.",
        "no more merge commits on main",
    ] {
        let found = statements(sentence);
        assert_eq!(found.len(), 1, "{sentence:?}");
        assert!(!found[0].retracts_only, "{sentence:?} is filed: {found:?}");
    }
}

#[test]
fn a_tool_replaced_at_a_version_is_named_however_commands_spell_it() {
    for correction in [
        "we moved from gcc 12 to clang 17",
        "the build switched from gcc 12 over to clang 17 last sprint",
        "use clang 17 instead of gcc 12",
    ] {
        let claim = claim(correction);
        for stale in ["CXX=g++-12 cmake -B build", "-DCMAKE_CXX_COMPILER=gcc-12", "CC=gcc12 make"] {
            assert!(claim.names_replaced(stale), "{correction:?} retires {stale:?}");
        }
        for current in
            ["CXX=clang++-17 cmake -B build", "-DCMAKE_CXX_COMPILER=g++-14", "node-12 x", "make -j12"]
        {
            assert!(!claim.names_replaced(current), "{correction:?} keeps {current:?}");
        }
    }
    // Another tool of the kind, at the same version, that the correction names as the new one.
    assert!(!claim("we moved from npm 9 to pnpm 9").names_replaced("pnpm@9 install"));
    assert!(claim("we moved from npm 9 to pnpm 9").names_replaced("npm@9 install"));
}

#[test]
fn the_mood_of_a_proposed_line_is_read_as_a_statements() {
    let cases: &[(NotLasting, &[&str])] = &[
        (
            NotLasting::Question,
            &[
                "Should we always squash before merging?",
                "Do you think mocks are fine in the service tests",
                "I wonder if it's better to pin every dependency",
            ],
        ),
        (
            NotLasting::OneOff,
            &[
                "Just for today, don't push to main.",
                "Skip the e2e suite for now.",
                "Use the staging database this time only.",
            ],
        ),
        (
            NotLasting::Reported,
            &[
                "My lead says you should never use an ORM.",
                "The docs claim the client must always be closed.",
                "A colleague swears rebasing is never safe.",
            ],
        ),
        (
            NotLasting::Joke,
            &[
                "Delete the test suite and ship it lol",
                "I'm tempted to rewrite everything in assembly",
                "Deploy on Friday at 5pm, what could possibly go wrong",
            ],
        ),
        (
            NotLasting::Past,
            &[
                "Last year we always used Jenkins for deploys.",
                "At my previous company we never wrote integration tests.",
                "We used to keep configs on a shared drive.",
            ],
        ),
    ];
    for (why, sentences) in cases {
        for sentence in *sentences {
            assert_eq!(not_meant_to_last(sentence), Some(*why), "{sentence:?}");
        }
    }
    for sentence in [
        "Always squash before merging.",
        "Never use an ORM in this service.",
        "We use pnpm, not npm.",
        "Keep configs in the repo under config/.",
    ] {
        assert_eq!(not_meant_to_last(sentence), None, "{sentence:?}");
    }
}

#[test]
fn versions_paths_code_spans_and_abbreviations_do_not_end_a_sentence() {
    let one = |text: &str| {
        let found = sentences(text);
        assert_eq!(found.len(), 1, "{text:?} is one sentence: {found:?}");
    };
    // Versions.
    one("upgrade to 1.2.3 first and pin it in the lockfile");
    one("we're on python 3.12.4 and django 5.0.6 here");
    one("the api is v2.1 now, v1.9 is retired");
    // Paths.
    one("the entry point is ./src/main.rs and config lives in ../shared/app.toml");
    one("logs go to /var/log/app/server.log on the box");
    one("keep fixtures in tests/data/*.json");
    // Code spans.
    one("wrap errors as `Err(e). context(\"load\")` when chaining");
    one("the cli prints `Done. Next? y/n` before it exits");
    one("use `a.b()` and never `a.c(). d` in handlers");
    // Abbreviations.
    one("tabs vs. spaces is settled: tabs");
    one("lint, format, etc. all run in the pre-commit hook");
    one("see the guide, cf. the section on errors, for details");
    // And a path or a version at the end of a sentence still ends it.
    for (text, count) in [
        ("see ./src/main.rs. Then run the tests", 2),
        ("upgrade to 1.2.3. Then rebuild", 2),
        ("pin node 20.11.1. the lockfile follows", 2),
    ] {
        assert_eq!(sentences(text).len(), count, "{text:?}");
    }
}
