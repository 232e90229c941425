//! Context announced ahead ("some background first:", "a few house rules for this codebase:"):
//! the statements after it are kept whatever their form, until the prompt turns to the work.

use super::super::*;

fn kept(prompt: &str) -> Vec<(Reach, String)> {
    statements(prompt).into_iter().map(|s| (s.reach, s.text)).collect()
}

#[test]
fn statements_after_an_announcement_are_kept_until_the_work_begins() {
    for (prompt, facts, not) in [
        (
            "Some background before we start: the api talks to Postgres 15 through pgbouncer. The job \
             queue is NATS. Feature toggles come from LaunchDarkly. Today's task: add a retry to the \
             webhook sender.",
            &["pgbouncer", "NATS", "LaunchDarkly"][..],
            &["retry"][..],
        ),
        (
            "quick context on this repo — the frontend is SvelteKit and goes out through Vercel. design \
             tokens sit in packages/tokens. can you fix the header spacing?",
            &["SvelteKit", "packages/tokens"][..],
            &["header spacing"][..],
        ),
        (
            "first session in here, so a bit of context. invoices get their numbers from a postgres \
             sequence, never from the app. emails render with mjml. now the ask: the invoice list is \
             missing its pagination.",
            &["postgres sequence", "mjml"][..],
            &["pagination"][..],
        ),
    ] {
        let got = kept(prompt);
        for fact in facts {
            assert!(
                got.iter().any(|(reach, text)| text.contains(fact) && *reach == Reach::Project),
                "{fact:?} of {prompt:?} is a project fact: {got:?}"
            );
        }
        for task in not {
            assert!(!got.iter().any(|(_, text)| text.contains(task)), "{task:?} is the work: {got:?}");
        }
    }
}

#[test]
fn context_about_the_user_is_theirs_and_questions_tasks_and_trouble_end_it() {
    let got = kept(
        "new laptop, so a few things about my setup. my editor is helix. I run fish as my shell. ok the \
         actual ask: why is cargo so slow here?",
    );
    assert!(got.iter().any(|(r, t)| t.contains("helix") && *r == Reach::General), "{got:?}");
    assert!(got.iter().any(|(r, t)| t.contains("fish") && *r == Reach::General), "{got:?}");
    assert!(!got.iter().any(|(_, t)| t.contains("cargo")), "{got:?}");
    for prompt in [
        "a few things: fix the login redirect, bump axios, and delete the dead css.",
        "couple of things before you start. the build is broken on main since yesterday. do you know if \
         nx caches test results?",
        "some context: the checkout page needs a coupon field, pls add it. the old one got lost in the merge.",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn rules_of_a_topic_announced_ahead_keep_their_topic() {
    for (prompt, topic, rule) in [
        (
            "add the shipments query. house style for sql here: keywords in UPPERCASE, one clause per line.",
            "sql",
            "UPPERCASE",
        ),
        ("sql style reminder: lowercase keywords and leading commas in this repo.", "sql", "leading commas"),
        ("naming conventions: components in PascalCase, hooks start with use.", "naming", "PascalCase"),
        ("commit rules: subject under 72 chars, body wrapped at 80.", "commit", "72 chars"),
    ] {
        let got = kept(prompt);
        assert!(got.iter().any(|(_, t)| t.contains(topic) && t.contains(rule)), "{prompt:?}: {got:?}");
    }
    assert!(kept("one more rule: fix the failing test first.").is_empty());
}

#[test]
fn a_sentence_saying_where_the_last_one_holds_sets_its_place() {
    for (prompt, reach) in [
        (
            "for searching code use rg, not grep -r, it respects gitignore. that goes for every repo, not just this one",
            Reach::General,
        ),
        ("indent yaml with two spaces. same for all my projects.", Reach::General),
        ("we squash merge PRs. that applies to this repo only.", Reach::Project),
        ("keep functions under 40 lines. that holds everywhere, not only here.", Reach::General),
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].0, reach, "{prompt:?}: {got:?}");
    }
    assert!(kept("that goes without saying, fix it.").is_empty());
}
