//! Statements said in the middle of work: a rule after a request and a dash, an aside in
//! brackets, a thing wanted built, what comes next, a request for now or for a favour, one step
//! after another; and facts said with an aside or of where a thing gets what it needs.

use super::super::*;

fn kept(prompt: &str) -> Vec<String> {
    statements(prompt).into_iter().map(|s| s.text).collect()
}

#[test]
fn a_rule_after_a_request_and_a_dash_is_kept_without_the_request() {
    for (prompt, rule, request) in [
        (
            "When it renders, push a branch and open the PR — I want PRs opened as drafts, always.",
            "PRs opened as drafts",
            "push a branch",
        ),
        (
            "once the build passes, tag the release – we always sign tags with the release key.",
            "sign tags",
            "tag the release",
        ),
        (
            "After the tests pass, merge it — I never want merge commits on main, rebase instead.",
            "merge commits on main",
            "merge it",
        ),
    ] {
        let got = kept(prompt);
        assert!(got.iter().any(|t| t.contains(rule) && !t.contains(request)), "{prompt:?}: {got:?}");
    }
}

#[test]
fn a_bracketed_aside_ends_its_sentence_and_a_story_in_it_is_not_kept() {
    for prompt in [
        "(Funny, for its first two years the whole platform lived on one node and nobody noticed.) Every \
         Deployment here gets a PodDisruptionBudget.",
        "(for its first year the api ran on a single raspberry pi.) Every service here gets a PodDisruptionBudget.",
        "(nobody noticed the cron was off for a month, lol.) Every service in this repo gets a PodDisruptionBudget.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert!(got[0].contains("PodDisruptionBudget") && !got[0].contains('('), "{got:?}");
    }
}

#[test]
fn a_thing_wanted_built_a_favour_and_work_for_now_are_not_kept() {
    for prompt in [
        "We need a courier-worker Deployment in the staging overlay: same image, 2 replicas.",
        "I'd like a dark mode toggle on the settings page.",
        "we want an export button on the orders list, csv is fine.",
        "start dagster for me.",
        "run the seed script for me.",
        "bring the dev stack up for me please.",
        "commit when done.",
        "push it once you're finished.",
        "deploy to staging when it's green.",
        "bump terraform to 1.10.3 there and re-plan staging eks",
        "set the timeout to 30s and rerun the job",
        "pin axios to 1.7.9, then open a PR",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
    // A way of working stays one.
    for prompt in [
        "I want PRs opened as drafts, always.",
        "when you're done, give me a one-paragraph summary.",
        "pin every dependency to an exact version.",
    ] {
        assert_eq!(kept(prompt).len(), 1, "{prompt:?}");
    }
}

#[test]
fn what_comes_next_after_a_retraction_is_no_new_value() {
    for prompt in [
        "ignore what I told you about my github handle, it's ribanez now. then: move the callback out of OrderItem.",
        "scratch the old staging url, it's wren.stg.example.io now. next, the table flickers when sorting.",
        "forget what I said about the region, it's eu-central-1 now. after that: the bucket policy needs a look.",
    ] {
        let got = kept(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
    }
}

#[test]
fn what_is_left_of_a_sentence_once_its_request_is_cut_must_say_something() {
    for prompt in [
        "now: run the whole suite with the race detector on, I want to know the cache is safe",
        "ok: rebase it on main and rerun the checks",
        "so: fix the flaky login test and push",
    ] {
        assert!(
            kept(prompt).iter().all(|t| t.split_whitespace().count() >= 3),
            "{prompt:?}: {:?}",
            kept(prompt)
        );
    }
}

#[test]
fn facts_with_an_aside_or_of_where_a_thing_gets_what_it_needs_are_kept() {
    for prompt in [
        "the integration tests (the ones behind the integration build tag) get their postgres from dockertest.",
        "the api gets its config from consul.",
        "the worker pulls its jobs from SQS.",
        "the billing service (the old rails one) reads its rates from the pricing db.",
    ] {
        let got = statements(prompt);
        assert_eq!(got.len(), 1, "{prompt:?}: {got:?}");
        assert_eq!(got[0].reach, Reach::Project, "{prompt:?}");
    }
}

#[test]
fn a_rule_after_a_purpose_with_no_comma_is_kept() {
    for prompt in [
        "for searching code use rg, not grep -r.",
        "for reviewing PRs use the checklist in docs/review.md.",
        "for formatting sql run sqlfluff fix, never by hand.",
    ] {
        assert_eq!(kept(prompt).len(), 1, "{prompt:?}");
    }
}

#[test]
fn an_issue_as_a_ticket_is_no_trouble() {
    for prompt in [
        "commits start with the linear issue id, e.g. `WREN-231: add eta column`.",
        "branch names start with the jira issue key, like `ABC-12-fix-login`.",
        "PR titles reference the github issue number, e.g. `#412`.",
    ] {
        assert_eq!(kept(prompt).len(), 1, "{prompt:?}");
    }
    assert!(kept("the build has issues with the linker.").is_empty());
}

#[test]
fn a_fact_after_a_semicolon_stands_on_its_own_unless_it_details_requested_work() {
    for (prompt, fact) in [
        (
            "it has to sit behind a feature flag; in courier-api flags come from Unleash, the wrapper is in internal/flags.",
            "Unleash",
        ),
        ("this one needs to be idempotent; payments here go through the ledger service.", "ledger service"),
        ("it should be quick to review; the api is versioned under /v2 since march.", "/v2"),
    ] {
        let got = kept(prompt);
        assert!(got.iter().any(|t| t.contains(fact)), "{prompt:?}: {got:?}");
    }
    for prompt in [
        "add --dry-run to `shelfctl import`; in dry run it must never touch the inventory file.",
        "then: add a retry to the sender; it should never retry more than 3 times.",
        "build the export endpoint; it must stream, never buffer the whole file.",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
}

#[test]
fn work_under_way_and_where_this_tasks_code_goes_are_not_kept() {
    for prompt in [
        "we're adding batched assignment, one driver takes 2-3 orders from the same zone.",
        "we're building a new onboarding flow for carriers this quarter.",
        "we're in the middle of splitting the monolith.",
        "the logic goes into internal/dispatch/assign.go.",
        "the implementation goes in src/export/csv.rs.",
    ] {
        assert!(kept(prompt).is_empty(), "{prompt:?}: {:?}", kept(prompt));
    }
    assert_eq!(kept("we're on Solid Queue for background jobs.").len(), 1);
}
