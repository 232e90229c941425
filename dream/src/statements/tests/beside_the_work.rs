//! What is said beside a request or in a few words: a thing of the speaker's named in passing,
//! which tool goes where, what a config holds, the speaker's own way with their things, one
//! thing announced for everywhere; and words that only look like a one-off or a thing at hand.

use super::super::*;

fn kept(prompt: &str) -> Vec<(Reach, String)> {
    statements(prompt).into_iter().map(|s| (s.reach, s.text)).collect()
}

fn kept_with(prompt: &str, part: &str) -> Option<Reach> {
    kept(prompt).into_iter().find(|(_, text)| text.contains(part)).map(|(reach, _)| reach)
}

#[test]
fn one_offs_as_a_kind_of_thing_are_no_one_off() {
    for (prompt, rule) in [
        ("don't touch config/ for one-offs, one-off toggles are env overrides", "env overrides"),
        ("one-off scripts go in scratch/, never under src/", "scratch/"),
        (
            "never bump the version for one-offs like this, one-off fixes ride along with the next release",
            "ride along",
        ),
    ] {
        assert!(kept_with(prompt, rule).is_some(), "{prompt:?}: {:?}", kept(prompt));
    }
    for prompt in
        ["this is a one-off, skip the changelog entry", "one-off: leave the lint rule off in legacy.py"]
    {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn things_like_this_are_things_of_a_kind() {
    for (prompt, rule) in [
        ("never hand-edit generated files like this, regenerate them with make gen", "hand-edit"),
        ("don't open a PR for typo fixes like that, they go straight to the docs branch", "typo fixes"),
        ("avoid raw SQL for lookups like this one, the query builder escapes for you", "raw SQL"),
    ] {
        assert!(kept_with(prompt, rule).is_some(), "{prompt:?}: {:?}", kept(prompt));
    }
    // One thing pointed at is the work.
    assert!(kept("don't rename this file").is_empty());
}

#[test]
fn what_a_config_holds_is_a_fact_of_the_project() {
    for (prompt, value) in [
        ("the tsconfig has strict true and target es2022, leave it alone", "es2022"),
        ("pyproject has line-length 100 for black, dont fight it", "line-length 100"),
        ("the nginx conf has client_max_body_size 50m on purpose", "50m"),
    ] {
        assert_eq!(kept_with(prompt, value), Some(Reach::Project), "{prompt:?}: {:?}", kept(prompt));
    }
    // What a thing must do, or a piece of it, is the work.
    for prompt in [
        "the picker has a 4-level nested if in #call, flatten it",
        "the scope has to drop rows with a null id",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn a_retraction_reads_past_an_aside_in_brackets() {
    for prompt in [
        "the staging host I gave you is gone (they folded it into qa).",
        "the lint config from before is outdated (we rewrote it in june).",
        "that port I mentioned is dead (firewall change), use 8443.",
    ] {
        let found = statements(prompt);
        assert!(found.iter().any(|s| s.reference.is_some()), "{prompt:?}: {found:?}");
    }
}

#[test]
fn one_thing_announced_for_everywhere_holds_everywhere() {
    for (prompt, rule) in [
        ("oh and one thing for everywhere not just here: every cli takes a --dry-run flag.", "--dry-run"),
        ("this one goes for all my repos - shell scripts get a usage line at the top.", "usage line"),
        (
            "also, something for every project: a readme section for every env var the service reads.",
            "env var",
        ),
    ] {
        assert_eq!(kept_with(prompt, rule), Some(Reach::General), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn etc_closes_its_sentence_when_another_opens() {
    for (text, count) in [
        ("no unwrap, expect, panic etc. run clippy before you push", 2),
        ("linters, formatters etc. I don't care which as long as CI runs them", 2),
        ("ruff, mypy etc. we run both in pre-commit", 2),
        ("ruff, mypy etc. in pre-commit", 1),
    ] {
        assert_eq!(sentences(text).len(), count, "{text:?}: {:?}", sentences(text));
    }
}

#[test]
fn the_speakers_way_with_their_things_is_theirs() {
    for (prompt, way) in [
        ("make me a branch for the parser fix, i name mine jo/<topic>", "jo/<topic>"),
        ("i prefix my commits with the ticket id", "ticket id"),
        ("i keep all my dotfiles in ~/dots, symlinked by stow", "~/dots"),
    ] {
        assert_eq!(kept_with(prompt, way), Some(Reach::General), "{prompt:?}: {:?}", kept(prompt));
    }
    assert!(kept("i put my keys in the wrong place again").is_empty());
}

#[test]
fn which_tool_goes_where_said_without_a_verb_is_a_rule() {
    for prompt in [
        "black for python, prettier only for the web bits",
        "formatting: ruff for the python, prettier only in web/.",
        "yep vitest for everything here, playwright only for the checkout flow",
    ] {
        assert!(kept(prompt).len() == 1, "{prompt:?}: {:?}", kept(prompt));
    }
    for prompt in
        ["coffee in the morning, tea only in the afternoon", "fix for the bug in main.rs, tests only in ci"]
    {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn a_thing_named_in_passing_with_what_it_is_is_kept_where_it_belongs() {
    for (prompt, name, reach) in [
        (
            "copy the dump over to nimbus, my home server, then restore it",
            "nimbus is my home server",
            Reach::General,
        ),
        (
            "run the benchmark on tusk, the desktop under my desk (ssh tusk).",
            "tusk is the desktop",
            Reach::General,
        ),
        (
            "deploy the preview to atlas, our staging cluster, and ping me",
            "atlas is our staging cluster",
            Reach::Project,
        ),
    ] {
        assert_eq!(kept_with(prompt, name), Some(reach), "{prompt:?}: {:?}", kept(prompt));
    }
    assert!(kept("move the logo to the top, the header is too tall").is_empty());
}

#[test]
fn a_rule_given_for_what_bit_the_team_is_the_projects() {
    for (prompt, rule) in [
        ("use jiff for the date parsing, NOT chrono, chrono's timezone handling bit us before.", "jiff"),
        ("stick to luxon, moment burned us on DST twice.", "luxon"),
        ("never turn on the experimental flag, it cost us a whole weekend once.", "experimental flag"),
    ] {
        assert_eq!(kept_with(prompt, rule), Some(Reach::Project), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn what_a_tool_of_the_work_does_is_a_fact_of_the_project() {
    for (prompt, fact) in [
        (
            "kustomize overlays + helm charts, Argo CD syncs from main — nobody applies by hand.",
            "Argo CD syncs",
        ),
        ("renovate opens the bump PRs, don't do them by hand", "renovate opens"),
        ("sentry catches the worker errors in prod", "sentry catches"),
    ] {
        assert_eq!(kept_with(prompt, fact), Some(Reach::Project), "{prompt:?}: {:?}", kept(prompt));
    }
    for prompt in ["docker keeps crashing on my mac", "git fails on push", "npm installs take forever"] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn a_clause_that_says_nobody_does_a_thing_is_a_rule() {
    for (prompt, rule) in [
        (
            "bump the chart to 1.4 — nobody kubectl applies anything by hand in this repo, ever.",
            "nobody kubectl",
        ),
        ("merge it when green, no one pushes to main directly here", "no one pushes"),
        ("ship the fix; everyone here signs their commits", "everyone here signs"),
    ] {
        assert_eq!(kept_with(prompt, rule), Some(Reach::Project), "{prompt:?}: {:?}", kept(prompt));
    }
}
