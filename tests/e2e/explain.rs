//! `notes explain` through the real binary: after a dream, each item of a note is traced to the
//! sentence it was distilled from, in whichever harness it was said, with why such a statement
//! is kept in the user's profile or in the project; MCP's `explain_note` gives the same.

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex};

/// The explained item whose text holds `words`.
fn item<'a>(explained: &'a Value, words: &str) -> &'a Value {
    explained["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["item"].as_str().unwrap_or_default().contains(words)))
        .unwrap_or_else(|| panic!("an item with `{words}`: {explained}"))
}

#[test]
fn each_item_says_where_it_was_said_and_why_it_is_kept_there() {
    let m = Machine::new();
    let dir = m.project("quill-api");
    m.hook(
        "claude",
        &dir,
        &claude(
            "s1",
            &dir,
            "UserPromptSubmit",
            json!({ "prompt": "I prefer small focused commits. Run the tests and tell me what fails." }),
        ),
    );
    m.hook(
        "codex",
        &dir,
        &codex(
            "s2",
            &dir,
            "UserPromptSubmit",
            json!({ "turn_id": "t1", "prompt": "In this repo we use ruff for linting, never flake8. Also keep your answers short." }),
        ),
    );
    m.run_json(&["dream"]);
    let listed = m.run_json(&["notes", "list", "--json"]);
    let find = |words: &str| -> (String, String) {
        let notes = listed.as_array().expect("a list of notes");
        let note = notes
            .iter()
            .find(|n| n["body"].as_str().unwrap_or_default().to_lowercase().contains(words))
            .unwrap_or_else(|| panic!("a note holding `{words}`: {listed}"));
        let scope = note["meta"]["scope"].as_str().unwrap_or_default();
        let scope = if scope == "user" { "user".to_owned() } else { "project:quill-api".to_owned() };
        (scope, note["path"].as_str().unwrap_or_default().to_owned())
    };

    // The note holding `words`, its scope, and the item explained (`--json`).
    let explain = |words: &str| -> (String, Value) {
        let (scope, path) = find(words);
        let explained = m.run_json(&["notes", "explain", &scope, &path, "--json"]);
        (scope, item(&explained, words).clone())
    };

    let (scope, commits) = explain("small focused commits");
    assert_eq!(scope, "user", "a preference of the user's is in their profile");
    assert_eq!(commits["said"]["sentence"], "I prefer small focused commits.", "{commits}");
    assert_eq!(commits["said"]["harness"], "claude");
    assert_eq!(commits["said"]["kept_in"], "your profile");
    assert!(commits["said"]["why"].as_str().unwrap().contains("about you"), "{commits}");

    let (scope, ruff) = explain("ruff");
    assert_eq!(scope, "project:quill-api", "a statement naming the repo is the project's");
    assert_eq!(ruff["said"]["harness"], "codex", "said in another harness: {ruff}");
    assert_eq!(ruff["said"]["kept_in"], "the project");
    assert!(ruff["said"]["why"].as_str().unwrap().contains("names this project"), "{ruff}");

    let (scope, path) = find("answers short");
    let text = m.run(&["notes", "explain", &scope, &path]);
    assert!(text.contains("said in codex on "), "{text}");
    assert!(
        text.contains(
            "a statement like this is kept in your profile: it tells the agent how to work with you"
        ),
        "{text}"
    );
}
