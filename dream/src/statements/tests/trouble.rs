//! What is told as the work at hand is no statement to keep, however it is worded: trouble going
//! on now, a line pasted from a tool's output, a question asked after a comma without its
//! question mark.

use super::super::*;

/// Asserts that none of `sentences` is kept, each read as `why`.
fn none_kept(sentences: &[&str], why: NotLasting) {
    for sentence in sentences {
        assert!(statements(sentence).is_empty(), "{sentence:?}: {:?}", statements(sentence));
        assert_eq!(not_meant_to_last(sentence), Some(why), "{sentence:?}");
    }
}

#[test]
fn trouble_going_on_now_is_the_work_not_how_things_are() {
    none_kept(
        &[
            "my runs from the cluster don't show up in the experiment dashboard",
            "dispatch-worker is in CrashLoopBackOff and the logs say a key is missing",
            "buf breaking fails on my PR, I renamed a field in dispatch.proto.",
            "the staging api keeps restarting every few minutes",
            "the invoices page doesn't load for customers in the EU",
            "the nightly export stopped working after the upgrade",
        ],
        NotLasting::Trouble,
    );
    // Said with when it happens, or why, it is how things are; a person not doing a thing is a
    // habit or a rule.
    for sentence in [
        "the e2e suite fails on the arm runner because of the date picker, retry it once",
        "the preview deploy doesn't start when the branch name has a slash in it",
        "we don't deploy with Capistrano, it's Kamal",
        "the staging database is down on sundays for the backup",
        "the build fails on the first missing env var, by design",
        "don't run migrations yourself, just tell me the command",
    ] {
        assert!(not_meant_to_last(sentence) != Some(NotLasting::Trouble), "{sentence:?}");
    }
}

#[test]
fn a_line_pasted_from_a_tools_output_is_no_statement() {
    none_kept(
        &[
            "error: Leaking async ops: 1 async operation to op_read was started in this test, but never completed",
            "WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED for fsn1-client-07",
            "NotCapable: Requires net access to \"localhost:5432\"",
            "Bullet::Notification::UnoptimizedQueryError: USE eager loading detected Order => [:line_items]",
            "dvc pull -> ERROR: Unable to acquire lock.",
            "TypeError: Cannot read properties of undefined (reading 'map') in the cart drawer",
            "fatal: refusing to merge unrelated histories",
        ],
        NotLasting::Output,
    );
    // A rule about errors is the user's, shouted or not.
    for sentence in [
        "NEVER PUSH STRAIGHT TO MAIN, open a PR",
        "error messages should say what the user can do next",
        "Errors in the public API are typed throws, not Result return types.",
        "warning: always run the migrations against a copy first",
    ] {
        assert!(!statements(sentence).is_empty(), "{sentence:?} is a rule");
    }
}

#[test]
fn a_question_asked_after_a_comma_needs_no_question_mark() {
    none_kept(
        &[
            "wandb offline runs from the gannet compute nodes, how do I sync them",
            "the orders page takes 4 seconds in production; how do I figure out where the time goes",
            "the lockfile and package.json disagree again, what's the fix",
            "the deploy key expired last night, can I rotate it myself",
            "the build agent ran out of space again, any ideas",
        ],
        NotLasting::Question,
    );
    // A rule that goes on after its comma is still a rule.
    for sentence in [
        "we squash every PR, the history stays readable",
        "always run the linter before pushing, CI rejects warnings",
    ] {
        assert!(!statements(sentence).is_empty(), "{sentence:?} is a rule");
    }
}
