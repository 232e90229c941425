//! The sessions of every scenario in the independent eval's format (`tests/evals/*.json`), people
//! and projects worded apart from the distiller, replayed through it session by session: what it
//! proposes always passes its own validation, so no chunk of real talk is ever given up.

use crate::support::{Story, dream_once, store_with};
use serde_json::Value;

/// The scenarios' sessions as stories, one per file.
fn scenarios() -> Vec<(String, Vec<Value>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/evals");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/evals is part of the repository") {
        let path = entry.expect("a listed file").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a scenario reads");
        let scenario: Value = serde_json::from_str(&text).expect("a scenario parses");
        let sessions = scenario["e2e"]["sessions"].as_array().cloned().unwrap_or_default();
        out.push((path.display().to_string(), sessions));
    }
    out
}

#[tokio::test]
async fn every_scenario_dreams_without_a_chunk_given_up() {
    let all = scenarios();
    assert!(
        all.len() >= 3,
        "the scenarios of tests/evals: {:?}",
        all.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    for (path, sessions) in all {
        let store = store_with(&[]).await;
        let mut story = Story::new();
        let mut from = 0;
        let mut written = 0;
        for (n, session) in sessions.iter().enumerate() {
            let project = session["project"].as_str().unwrap_or("p");
            let harness = session["harness"].as_str().unwrap_or("claude");
            story.session(harness, &format!("s{n}"), Some(project), &format!("/home/u/src/{project}"));
            for turn in session["turns"].as_array().into_iter().flatten() {
                if let Some(prompt) = turn["prompt"].as_str().filter(|p| !p.is_empty()) {
                    story.prompt(prompt);
                }
                for tool in turn["tools"].as_array().into_iter().flatten() {
                    match tool["type"].as_str() {
                        Some("bash") => {
                            story.shell(
                                tool["command"].as_str().unwrap_or_default(),
                                tool["exit"].as_i64().unwrap_or(0),
                                tool["output"].as_str().unwrap_or_default(),
                            );
                        }
                        Some("edit" | "write") => {
                            story.edit(tool["file"].as_str().unwrap_or_default());
                        }
                        _ => {}
                    }
                }
            }
            story.stop().days_later(1);
            let events = story.events();
            memory_core::MemoryStore::append(&store, &events[from..]).await.unwrap();
            from = events.len();
            // Panics with the chunk given up, and why, when one is.
            let report = dream_once(&store).await;
            written += report.notes_updated + report.notes_created;
        }
        assert!(written > 0, "{path}: the dream wrote nothing");
    }
}
