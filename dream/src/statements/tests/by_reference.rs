//! The statement reader on corrections that point back at what was said without restating it,
//! worded the ways people word them: the time it was said ("back then", "on day one", "from our
//! first session"), a thing that no longer holds or exists, a tool ripped out or retired, a topic
//! named ahead of its new value, a person gone, a kind of tool switched; the new value said in the
//! sentence after; and, not to keep, quoted opinions disowned, regrets and what a requested piece of
//! work must do.

use super::super::*;
use super::kept;

/// The topic words a sentence points back at, if it points back.
fn pointed(sentence: &str) -> Option<std::collections::BTreeSet<String>> {
    reference::reference(&normalize(sentence)).map(|r| r.words)
}

fn points_at(sentence: &str, topic: &str) {
    assert_eq!(pointed(sentence), Some(reference::topic_words(topic)), "{sentence:?}");
}

#[test]
fn when_and_how_it_was_said_is_not_what_it_is_about() {
    points_at("the job backend I told you about a while ago is gone.", "job backend");
    points_at("What I said about the linter back then doesn't hold anymore: we use Standard", "linter");
    points_at("the deploy target from our first session here is outdated, it's Render now", "deploy target");
    points_at("the formatter I picked on day one got replaced, biome does it now", "formatter");
}

#[test]
fn a_thing_said_before_that_no_longer_holds_or_exists() {
    points_at("the kube context from before doesn't exist anymore, use stg-euc1", "kube context");
    points_at("the branching rule I gave you no longer applies", "branching");
    points_at("that naming convention I mentioned doesn't hold any more", "naming convention");
    points_at("the approach I had you follow earlier doesn't apply to new code anymore", "approach");
}

#[test]
fn a_tool_ripped_out_retired_or_archived_is_pointed_at() {
    points_at("jest got ripped out last sprint, it's vitest", "jest");
    points_at("jenkins is finally retired!! github actions does everything", "jenkins");
    points_at("node 18 is dead to us, we're on 22 across the board", "node 18");
    points_at("#ops-alerts got archived; alerts land in #incidents", "#ops-alerts");
    // How a thing is today is not a thing gone.
    assert_eq!(pointed("the build got slow after the upgrade"), None);
}

#[test]
fn a_thing_named_first_then_taken_back() {
    points_at("the container setup from last time, throw that out: we run podman now", "container");
    points_at("the commit style I gave you earlier - scrap that, plain messages are fine", "commit style");
    points_at("that port from before? forget it, the app listens on 8080", "port");
    // A request to drop a thing of the work points at nothing said.
    assert_eq!(pointed("the users table, drop it"), None);
}

#[test]
fn a_tool_taken_back_by_its_name() {
    points_at("actually scratch mocha, the project settled on vitest", "mocha");
    points_at("forget yarn, we're on pnpm", "yarn");
    points_at("oh and nix webpack: vite builds everything", "webpack");
    // A thing that is no tool is not taken back by its name alone.
    assert_eq!(pointed("forget the tests, just ship it"), None);
}

#[test]
fn a_topic_named_ahead_of_its_new_value() {
    points_at("about indentation: it's two spaces now, we reformatted everything", "indentation");
    points_at("re the api host, it's api.internal now", "api host");
    points_at("regarding reviews - we need two approvals now", "reviews");
    // A topic named ahead of a pointer adds its words to it.
    let words =
        pointed("re styling: the approach I gave you earlier doesn't apply anymore").expect("points back");
    assert!(words.contains(&reference::stem("styling")), "{words:?}");
}

#[test]
fn a_person_gone_and_a_kind_of_tool_switched() {
    points_at("Priya left the team, reviews go to Tomasz now.", "priya");
    points_at("sam quit last month, so the on-call rota is just me and kim", "sam");
    points_at("jordan has moved on; ask lee about billing", "jordan");
    points_at("switched editors, neovim full time now", "editors");
    points_at("we changed package managers, it's bun", "package managers");
    points_at("I swapped terminals: ghostty these days", "terminals");
    // The user leaving is no person gone.
    assert_eq!(pointed("I left the meeting early"), None);
}

#[test]
fn the_new_value_may_follow_in_the_next_sentence() {
    for (prompt, new) in [
        ("the old e2e tool is history. e2e is Playwright now.", "e2e is Playwright now."),
        ("jenkins is finally retired!! github actions does everything", "github actions does everything"),
        (
            "the job backend I told you about is gone. the Rails 8 upgrade landed and we're on Solid Queue now.",
            "the Rails 8 upgrade landed and we're on Solid Queue now.",
        ),
        (
            "re styling: the approach I gave you earlier doesn't apply anymore. new components get Tailwind classes.",
            "new components get Tailwind classes.",
        ),
    ] {
        let found = statements(prompt);
        // Kept with what it replaces, so that the line names its topic.
        let retraction = prompt.split_inclusive(['.', '!']).next().unwrap_or(prompt).trim();
        assert!(
            found.iter().any(|s| s.text.ends_with(new) && s.text.len() > new.len() && !s.retracts_only),
            "{prompt:?}: {found:?}"
        );
        assert!(found.iter().all(|s| s.text != retraction || s.retracts_only), "{prompt:?}: {found:?}");
    }
    // A task after a retraction is no new value.
    for prompt in [
        "the old e2e tool is history. port the cart spec over.",
        "the container setup from last time, throw that out: it's podman now. bring the local db up and run the store tests",
        "forget the staging db I mentioned. spin up a fresh one for me",
    ] {
        let found = statements(prompt);
        assert!(
            found.iter().all(|s| !s.text.starts_with("port")
                && !s.text.starts_with("bring")
                && !s.text.starts_with("spin")),
            "{prompt:?}: {found:?}"
        );
    }
}

#[test]
fn a_quoted_opinion_disowned_is_nobodys_rule() {
    for sentence in [
        "fwiw Marta's review comment on the last ui PR was 'every component must ship with a story' — that's her taste, not our rule.",
        "Kofi left a comment on #318 like 'images should always be pinned by digest' — that's his personal crusade, not team policy.",
        "my teammate keeps saying we should always squash, but that's just his thing.",
        "the linter config says 'never use any' but honestly that's the previous lead's pet rule, not ours.",
        "Dana wrote a note that tests must never touch the network, just her preference though",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    assert!(kept("every component must ship with a story, that's our rule").is_some());
}

#[test]
fn regret_and_being_fed_up_are_complaints() {
    for sentence in [
        "i'm so done with the windows runner, we should never have added it.",
        "ugh, we should never have written the e2e suite in cypress",
        "I'm sick of this flaky suite, nobody should ever have to wait 20 minutes for CI.",
        "we shouldn't have split the monorepo, it's always a pain",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    assert!(kept("you should always have a test for each bug fix").is_some());
}

#[test]
fn what_a_requested_piece_of_work_must_do_is_the_tasks() {
    for sentence in [
        "then: add --dry-run to `shelfctl import`; in dry run it must never touch the inventory file",
        "add a --json flag to `report`; it must always print valid JSON even on errors.",
        "implement the retry: it should never retry more than 3 times and must always log the attempt.",
        "write the migration, it must not lock the orders table",
    ] {
        assert_eq!(kept(sentence), None, "{sentence:?}");
    }
    // A rule of the project said after a request is kept.
    assert!(kept("write the handler; we always return errors as RFC 7807 problem details").is_some());
    assert!(kept("fix the login bug, and please always run the linter before committing").is_some());
    assert!(kept("every endpoint must validate its input").is_some());
}

#[test]
fn a_thing_swapped_out_or_a_value_judged_off_points_back_at_it() {
    points_at(
        "heads up, the background job backend got swapped last week: we're on Solid Queue now",
        "background job backend",
    );
    points_at("the queue library got switched out, it's river now", "queue library");
    points_at("our logging setup was migrated, everything goes through otel now", "logging setup");
    points_at("the length cap I gave you was too strict, 72 chars is fine now", "length cap");
    points_at("the retry limit I set was too low, make it 5", "retry limit");
    points_at("that timeout was overkill, 10s is plenty", "timeout");
}

#[test]
fn when_a_thing_was_said_does_not_make_its_correction_a_story() {
    for sentence in [
        "the job backend I told you about a while ago is gone.",
        "the deploy script I mentioned back then is gone, we use the Makefile now.",
        "the staging host from a while ago doesn't exist anymore.",
    ] {
        assert!(pointed(sentence).is_some(), "{sentence:?}");
        assert_ne!(not_meant_to_last(sentence), Some(NotLasting::Past), "{sentence:?}");
    }
    // A story with no pointer back stays one.
    assert_eq!(not_meant_to_last("a while ago we always deployed by hand"), Some(NotLasting::Past));
}

#[test]
fn a_thing_not_used_any_more_named_by_its_kind_points_back_at_it() {
    points_at(
        "we don't use that terraform version manager anymore, it's mise now",
        "terraform version manager",
    );
    points_at("we don't run the old queue worker anymore, jobs go through river", "old queue worker");
    points_at("I don't use my tiling window manager anymore, back to plain gnome", "tiling window manager");
}

#[test]
fn a_plan_withdrawn_points_at_it_and_is_kept_as_nothing_new() {
    points_at("not doing the kv cache after all, pretend i never said it.", "kv cache");
    points_at("we're not going with graphql after all", "graphql");
    points_at("ok so the redis queue idea is off the table", "redis queue");
    points_at("actually not adding the sidecar after all — forget I said it", "sidecar");
    for prompt in [
        "not doing the kv cache after all, pretend i never said it.",
        "we're not going with graphql after all.",
        "the redis queue idea is off the table.",
    ] {
        let found = statements(prompt);
        assert!(found.iter().all(|s| s.reference.is_some() && s.retracts_only), "{prompt:?}: {found:?}");
    }
    // How a thing turned out is no plan said before.
    assert_eq!(pointed("it's not flaky after all"), None);
    assert_eq!(pointed("we're not blocked after all, the ticket got approved"), None);
}
