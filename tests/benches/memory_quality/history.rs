//! History questions: weeks later, the user asks what happened in an earlier session ("what did
//! we try last time?"). `agent-memory search --events --project P` must rank an event that holds
//! the answer among its first three (a failure's hit shows what the agent did next, which counts);
//! the baseline ranks the project's events by the words they
//! share with the question (at least two), the way a grep through the logs would.

use serde_json::Value;

use crate::harness::Machine;
use crate::judge::words;

/// A question about a project's past, and words the answering event holds (all of them,
/// case-insensitive, anywhere in the event: the prompt, the command, its output, a file).
pub(crate) struct Question {
    pub(crate) project: &'static str,
    pub(crate) text: &'static str,
    pub(crate) answer: &'static [&'static str],
}

const fn ask(project: &'static str, text: &'static str, answer: &'static [&'static str]) -> Question {
    Question { project, text, answer }
}

pub(crate) const QUESTIONS: &[Question] = &[
    ask(
        "ledger",
        "what did we end up doing when cargo build broke on the new CI image?",
        &["--features vendored"],
    ),
    ask("ledger", "remind me what the commit message was for the balance_at change", &["feat(balance)"]),
    ask(
        "ledger",
        "the statement export was missing the last day of the month, what did we change?",
        &["first..=last"],
    ),
    ask(
        "billing-api",
        "how did we get pytest running again when conftest couldn't import httpx",
        &["uv add --dev httpx"],
    ),
    ask("billing-api", "why was the due date test failing on my laptop and not in CI", &["TZ=UTC"]),
    ask(
        "billing-api",
        "what's the revision id of the alembic migration that added tax_rate?",
        &["3b9f1c2d7e41"],
    ),
    ask("billing-api", "which mypy error did we hit in invoices.py", &["no-untyped-def"]),
    ask("storefront", "the @/ imports broke the build at some point, what was missing?", &["tsconfig.json"]),
    ask("storefront", "which PR did we open for the quantity stepper?", &["pull/142"]),
    ask("storefront", "did the checkout page still render after the port change?", &["5173/checkout"]),
    ask("admin-dashboard", "what fixed the fetch is not defined error in the jest run", &["whatwg-fetch"]),
    ask(
        "admin-dashboard",
        "where was the API host hardcoded before we moved it to an env var?",
        &["src/api.js"],
    ),
];

/// How many questions had their answer among the first three events, for the product and the
/// baseline, and the questions the product missed.
pub(crate) struct Answered {
    pub(crate) product: usize,
    pub(crate) baseline: usize,
    pub(crate) missed: Vec<&'static str>,
}

fn holds(event: &Value, answer: &[&str]) -> bool {
    let text = event.to_string().to_lowercase();
    answer.iter().all(|w| text.contains(&w.to_lowercase()))
}

/// Asks every question through `search`, and answers it with the baseline from every event of
/// the project (`timeline` of each of its sessions).
pub(crate) fn ask_all(
    machine: &Machine,
    ids: &std::collections::BTreeMap<&'static str, String>,
) -> anyhow::Result<Answered> {
    let sessions: Value = serde_json::from_str(&machine.run(&["--json", "sessions", "--limit", "0"])?)?;
    let mut events_of: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    let mut by_place: std::collections::BTreeMap<(String, u64), Value> = Default::default();
    for s in sessions.as_array().into_iter().flatten() {
        let (Some(key), Some(project)) = (s["key"].as_str(), s["project"].as_str()) else { continue };
        let timeline: Value =
            serde_json::from_str(&machine.run(&["--json", "timeline", key, "--limit", "0"])?)?;
        let events = events_of.entry(project.to_owned()).or_default();
        for stored in timeline.as_array().into_iter().flatten() {
            events.push(stored["event"].clone());
            let seq = stored["seq"].as_u64().unwrap_or_default();
            by_place.insert((key.to_owned(), seq), stored["event"].clone());
        }
    }
    let mut answered = Answered { product: 0, baseline: 0, missed: Vec::new() };
    for q in QUESTIONS {
        let id = &ids[q.project];
        let found: Value = serde_json::from_str(&machine.run(&[
            "--json",
            "search",
            q.text,
            "--events",
            "--project",
            id,
            "--limit",
            "3",
        ])?)?;
        let hits = found["events"].as_array().cloned().unwrap_or_default();
        // A hit names its event by session and number; the whole event is judged, as the user
        // would open it with `timeline`.
        let event = |h: &Value| {
            let place =
                (h["session"].as_str().unwrap_or_default().to_owned(), h["seq"].as_u64().unwrap_or_default());
            by_place.get(&place).cloned().unwrap_or(Value::Null)
        };
        // What the hit shows counts too: after a failure, what the agent did next (`then`).
        if hits.iter().take(3).any(|h| holds(&event(h), q.answer) || holds(&h["then"], q.answer)) {
            answered.product += 1;
        } else {
            answered.missed.push(q.text);
        }
        let asked = words(q.text);
        let mut scored: Vec<(usize, usize, &Value)> = events_of
            .get(id)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, e)| (words(&e.to_string()).intersection(&asked).count(), i, e))
            .filter(|(shared, _, _)| *shared >= 2)
            .collect();
        // Most shared words first, the latest first among equals.
        scored.sort_by_key(|(shared, i, _)| (std::cmp::Reverse(*shared), std::cmp::Reverse(*i)));
        if scored.iter().take(3).any(|(_, _, e)| holds(e, q.answer)) {
            answered.baseline += 1;
        }
    }
    Ok(answered)
}
