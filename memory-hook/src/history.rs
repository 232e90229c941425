//! History search hits as people read them, for the CLI, MCP and the viewer alike: events that
//! say the same thing (one command run again and again, a prompt typed twice) as one hit with a
//! count, and a failed command with the event that fixed it (the next run of the same operation of
//! the same tool in its session that passed); and hits ranked by what was said around them
//! ([`in_context`]): an answer read with the question it answers.

use std::collections::HashMap;

use memory_core::search::{bm25_weighted, event_text, expand, matched_in, words};
use memory_core::{EventFilter, EventHit, EventKind, HookEvent, MemoryStore, StoredEvent};

/// How far past a failure, in events of its session, its fix is looked for.
const FIX_REACH: usize = 80;

/// The fewest hits a search asks the store for: [`in_context`] ranks them again, and an event
/// the store ranked low by its own words may be the best read with its neighbours'.
const POOL: usize = 60;

/// How many hits a search asks the store for to show `limit` once near-duplicates are one and
/// [`in_context`] has ranked them again.
pub fn window(limit: usize) -> usize {
    if limit == 0 { 0 } else { limit.saturating_mul(4).clamp(POOL, limit + 200) }
}

/// How far either side of an event, in events of its session, what is said counts as its
/// context, and by how much: the next event's words at 0.4 of the event's own, the one after at
/// 0.2. (Over real conversation, weights twice as high rank the answer lower: a neighbour then
/// outweighs what the event itself says.)
const CONTEXT: [f64; 2] = [0.4, 0.2];

/// The fewest words a neighbour of a hit must hold to join the hits: something said (a prompt, a
/// reply, a tool call), not an event with nothing of its own (a bare stop). A session's start and
/// end never join.
const SAYS_SOMETHING: usize = 4;

/// Hits ranked again by their words and the words around them in their session: an event's
/// words count whole, its neighbours' ([`CONTEXT`]) at less. "What did Caroline research?" is
/// answered by "researching adoption agencies", said in reply to someone who named her; "why did
/// the export fail?" by the failure right after the prompt that named the export. The hits'
/// neighbours join them, so an event the store did not find by its own words is found by the
/// words of what was said around it (a neighbour joins when `filter` passes it). Best first, each
/// with its score in that ranking (BM25 over these events alone) and the terms its own words hold.
pub async fn in_context(
    store: &dyn MemoryStore,
    hits: Vec<EventHit>,
    query: &str,
    filter: &EventFilter,
) -> memory_core::Result<Vec<EventHit>> {
    let terms = expand(query);
    let reach = CONTEXT.len() as u64;
    // Every event within twice the reach of a hit: the hits and their neighbours, and the
    // neighbours' own context.
    let mut near: HashMap<(String, u64), StoredEvent> = HashMap::new();
    let mut pool: Vec<(String, u64)> = Vec::new();
    for hit in &hits {
        let session = &hit.event.event.session;
        let from = hit.event.seq.saturating_sub(2 * reach + 1);
        let around = store.timeline(session, from, (4 * reach + 1) as usize).await?;
        for stored in around {
            let key = (session.0.clone(), stored.seq);
            let joins = stored.seq.abs_diff(hit.event.seq) <= reach
                && filter.matches(&stored.event)
                && !matches!(stored.event.kind, EventKind::SessionStart | EventKind::SessionEnd)
                && words(&event_text(&stored.event)).len() >= SAYS_SOMETHING;
            if joins && !pool.contains(&key) {
                pool.push(key.clone());
            }
            near.entry(key).or_insert(stored);
        }
        let key = (session.0.clone(), hit.event.seq);
        if !pool.contains(&key) {
            pool.push(key.clone());
        }
        near.entry(key).or_insert_with(|| hit.event.clone());
    }
    let own: HashMap<&(String, u64), Vec<String>> =
        near.iter().map(|(key, stored)| (key, words(&event_text(&stored.event)))).collect();
    let docs: Vec<Vec<(&[String], f64)>> = pool
        .iter()
        .map(|(session, seq)| {
            let mut doc = vec![(own[&(session.clone(), *seq)].as_slice(), 1.0)];
            for (distance, weight) in (1..).zip(CONTEXT) {
                for other in [seq.checked_sub(distance), seq.checked_add(distance)].into_iter().flatten() {
                    let key = (session.clone(), other);
                    // A tool call announced and then reported is one thing said once.
                    if let Some(words) = own.get(&key)
                        && !same_call(&near[&key].event, &near[&(session.clone(), *seq)].event)
                    {
                        doc.push((words.as_slice(), weight));
                    }
                }
            }
            doc
        })
        .collect();
    let scores = bm25_weighted(&docs, &terms);
    let mut ranked: Vec<EventHit> = pool
        .iter()
        .zip(scores)
        .filter_map(|(key, score)| {
            let (score, _) = score?;
            let event = near[key].clone();
            Some(EventHit { event, score, matched_terms: matched_in(&own[key], &terms) })
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.event.position.cmp(&a.event.position)));
    Ok(ranked)
}

/// Whether two events are one tool call: its announcement and its result (the same call id, or
/// the same tool given the same input).
fn same_call(a: &HookEvent, b: &HookEvent) -> bool {
    match (&a.tool, &b.tool) {
        (Some(x), Some(y)) => match (&x.use_id, &y.use_id) {
            (Some(i), Some(j)) => i == j,
            _ => x.name == y.name && x.input.is_some() && x.input == y.input,
        },
        _ => false,
    }
}

/// What makes two events near-duplicates: a shell command's words and whether it failed (its
/// call announced and its result alike), another tool's name and input words and whether it
/// failed (an edit announced and made alike), a prompt's words, else the event's kind and the
/// words of its text. Output, timings and spacing play no part.
pub fn likeness(event: &HookEvent) -> String {
    let words = |text: &str| memory_core::search::words(text).join(" ");
    if let Some(tool) = &event.tool {
        if tool.shell.is_some() {
            let failed = dream::shell_run(event).is_some_and(|run| run.failed);
            let command = tool.shell.as_ref().map_or("", |s| s.command.as_str());
            return format!("shell {} {}", if failed { "failed" } else { "ran" }, words(command));
        }
        if let Some(input) = &tool.input {
            let failed = tool.failed == Some(true) || tool.error.is_some();
            return format!("tool {} {failed} {}", tool.name, words(&input.to_string()));
        }
    }
    if event.kind == EventKind::UserPromptSubmit
        && let Some(prompt) = &event.prompt
    {
        return format!("prompt {}", words(prompt));
    }
    format!("{} {}", event.kind, words(&memory_core::search::event_text(event)))
}

/// Hits in their order with each near-duplicate ([`likeness`]) of an earlier one folded into it:
/// the first of each stays, with how many hits it stands for.
pub fn collapse<T>(hits: Vec<T>, event: impl Fn(&T) -> &HookEvent) -> Vec<(T, usize)> {
    let mut out: Vec<(T, usize, String)> = Vec::with_capacity(hits.len());
    for hit in hits {
        let key = likeness(event(&hit));
        match out.iter_mut().find(|(_, _, k)| *k == key) {
            Some((_, count, _)) => *count += 1,
            None => out.push((hit, 1, key)),
        }
    }
    out.into_iter().map(|(hit, count, _)| (hit, count)).collect()
}

/// Whether `event` is a shell command that failed.
pub fn is_failure(event: &HookEvent) -> bool {
    dream::shell_run(event).is_some_and(|run| run.failed)
}

/// For a hit on a failed shell command, the event that fixed it: the first later command of its
/// session, within [`FIX_REACH`] events, that runs the same operation of the same tool and passes.
pub async fn fix_of(store: &dyn MemoryStore, hit: &EventHit) -> memory_core::Result<Option<StoredEvent>> {
    fix_after(store, &hit.event).await
}

/// See [`fix_of`].
pub async fn fix_after(
    store: &dyn MemoryStore,
    failure: &StoredEvent,
) -> memory_core::Result<Option<StoredEvent>> {
    let Some(run) = dream::shell_run(&failure.event).filter(|run| run.failed) else { return Ok(None) };
    let later = store.timeline(&failure.event.session, failure.seq, FIX_REACH).await?;
    Ok(later.into_iter().find(|stored| {
        dream::shell_run(&stored.event)
            .is_some_and(|next| !next.failed && dream::passes(&run.command, &next.command))
    }))
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use memory_core::{EventId, Harness, SessionKey, ShellCall, ToolCall};
    use serde_json::json;

    use super::*;

    fn shell(seq: u64, kind: EventKind, command: &str, exit: Option<i64>, output: &str) -> StoredEvent {
        let mut event = HookEvent::new(
            EventId(format!("e{seq}")),
            Harness::named("claude"),
            SessionKey("claude:s".into()),
            kind,
            Utc::now(),
            json!({}),
        );
        event.tool = Some(ToolCall {
            name: "Bash".into(),
            output: Some(json!(output)),
            shell: Some(ShellCall { command: command.into(), exit_code: exit }),
            failed: exit.map(|c| c != 0),
            ..ToolCall::default()
        });
        StoredEvent { seq, position: seq, event }
    }

    fn prompt(seq: u64, text: &str) -> StoredEvent {
        let mut event = HookEvent::new(
            EventId(format!("p{seq}")),
            Harness::named("codex"),
            SessionKey("codex:s".into()),
            EventKind::UserPromptSubmit,
            Utc::now(),
            json!({}),
        );
        event.prompt = Some(text.into());
        StoredEvent { seq, position: seq, event }
    }

    fn counts(events: Vec<StoredEvent>) -> Vec<(String, usize)> {
        collapse(events, |e| &e.event).into_iter().map(|(e, n)| (e.event.id.0, n)).collect()
    }

    #[test]
    fn one_command_run_again_and_again_is_one_hit_with_its_count() {
        let events = vec![
            shell(1, EventKind::PreToolUse, "cargo test -p cart", None, ""),
            shell(2, EventKind::PostToolUse, "cargo test -p cart", Some(0), "ok: 12 passed in 1.2s"),
            shell(3, EventKind::PostToolUse, "cargo  test   -p cart", Some(0), "ok: 12 passed in 0.9s"),
            shell(4, EventKind::PostToolUse, "cargo test -p ledger", Some(0), "ok"),
        ];
        assert_eq!(counts(events), [("e1".into(), 3), ("e4".into(), 1)], "spacing and output do not count");
    }

    #[test]
    fn a_failed_run_is_not_folded_into_the_runs_that_passed() {
        let events = vec![
            shell(1, EventKind::PostToolUse, "make check", Some(0), ""),
            shell(2, EventKind::PostToolUseFailure, "make check", None, "error: boom"),
            shell(3, EventKind::PostToolUse, "make check", Some(2), "error: boom"),
            shell(4, EventKind::PostToolUse, "make check", None, "1 failed"),
        ];
        assert_eq!(
            counts(events),
            [("e1".into(), 1), ("e2".into(), 3)],
            "failures, however reported, are one"
        );
    }

    #[test]
    fn an_edit_announced_and_made_is_one_hit_but_another_edit_is_not() {
        let edit = |seq: u64, kind: EventKind, content: &str| {
            let mut event = shell(seq, kind, "", None, "");
            event.event.tool = Some(ToolCall {
                name: "Write".into(),
                input: Some(json!({ "content": content })),
                ..ToolCall::default()
            });
            event
        };
        let events = vec![
            edit(1, EventKind::PreToolUse, "region = \"europe-west3\""),
            edit(2, EventKind::PostToolUse, "region = \"europe-west3\""),
            edit(3, EventKind::PostToolUse, "region = \"europe-west1\""),
        ];
        assert_eq!(counts(events), [("e1".into(), 2), ("e3".into(), 1)]);
    }

    #[test]
    fn a_prompt_typed_again_is_one_hit_but_another_question_is_not() {
        let events = vec![
            prompt(1, "Why does the build break on CI?"),
            prompt(2, "why does the build break on ci"),
            prompt(3, "why did the build break on CI yesterday?"),
        ];
        assert_eq!(counts(events), [("p1".into(), 2), ("p3".into(), 1)]);
    }

    #[tokio::test]
    async fn a_failure_comes_with_the_run_that_fixed_it() {
        let store = memory_core::InMemoryStore::new();
        let events = [
            shell(1, EventKind::PostToolUseFailure, "cargo build", None, "Could not find OpenSSL"),
            shell(2, EventKind::PostToolUse, "cargo test", Some(101), "1 failed"),
            shell(3, EventKind::PostToolUse, "cargo fmt", Some(0), ""),
            shell(4, EventKind::PostToolUse, "OPENSSL_DIR=/usr cargo build --release", Some(0), "Finished"),
            shell(5, EventKind::PostToolUse, "cargo build", Some(0), "Finished"),
        ];
        store.append(&events.iter().map(|e| e.event.clone()).collect::<Vec<_>>()).await.unwrap();
        let stored = store.timeline(&SessionKey("claude:s".into()), 0, 10).await.unwrap();
        let fix = fix_after(&store, &stored[0]).await.unwrap().expect("fixed");
        assert_eq!(fix.event.id.0, "e4", "the first pass of the same operation, however spelt");
        assert_eq!(fix_after(&store, &stored[1]).await.unwrap(), None, "no later `cargo test` passed");
        assert_eq!(fix_after(&store, &stored[2]).await.unwrap(), None, "what passed has no fix");
        assert!(
            is_failure(&stored[0].event) && is_failure(&stored[1].event) && !is_failure(&stored[2].event)
        );
    }

    #[test]
    fn the_window_asks_for_more_than_is_shown() {
        assert_eq!(window(5), POOL, "enough to rank again with what was said around them");
        assert_eq!(window(100), 300);
        assert_eq!(window(0), 0);
    }

    fn reply(seq: u64, text: &str) -> StoredEvent {
        let event = HookEvent::new(
            EventId(format!("r{seq}")),
            Harness::named("codex"),
            SessionKey("codex:s".into()),
            EventKind::Stop,
            Utc::now(),
            json!({ "last_assistant_message": text }),
        );
        StoredEvent { seq, position: seq, event }
    }

    /// A session of `said` (prompts and replies taking turns), searched for `query` by the store,
    /// then ranked in context: the ids of the first `n`.
    async fn best(said: &[&str], query: &str, n: usize) -> Vec<String> {
        let store = memory_core::InMemoryStore::new();
        let events: Vec<HookEvent> = said
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let seq = i as u64 + 1;
                if i % 2 == 0 { prompt(seq, text).event } else { reply(seq, text).event }
            })
            .collect();
        store.append(&events).await.unwrap();
        let filter = memory_core::EventFilter::all();
        let hits =
            store.search_events(&memory_core::EventQuery::search(query, filter.clone(), 60)).await.unwrap();
        let ranked = in_context(&store, hits, query, &filter).await.unwrap();
        ranked.into_iter().take(n).map(|h| h.event.event.id.0).collect()
    }

    const CHAT: &[&str] = &[
        "Morning! How was the weekend, Priya?",
        "Busy. I spent most of it researching rescue shelters for a second dog.",
        "Nice. Did the move to the new flat go well?",
        "Mostly. The landlord still owes us the deposit though.",
        "Any plans for the holidays, Priya?",
        "Probably a cabin up north with my sister.",
        "Sounds lovely. I'm stuck painting the hallway.",
        "Good luck with that, pick a light colour.",
    ];

    #[tokio::test]
    async fn an_answer_is_found_by_the_question_that_named_what_it_answers() {
        // The answers hold none of the words asked: the turn before them does.
        for (query, answer) in [
            ("how did Priya's weekend go?", "r2"),
            ("where is Priya going for the holidays?", "r6"),
            ("how is painting the hallway going?", "r8"),
        ] {
            assert!(best(CHAT, query, 9).await.len() > 1, "{query}");
            let top = best(CHAT, query, 3).await;
            assert!(top.contains(&answer.to_owned()), "{query}: {top:?}");
        }
    }

    #[tokio::test]
    async fn a_failure_is_found_by_the_prompt_before_it() {
        let store = memory_core::InMemoryStore::new();
        let mut events = vec![
            prompt(1, "the invoice export is broken again, look into it").event,
            shell(2, EventKind::PostToolUseFailure, "pytest tests/test_csv.py", None, "UnicodeEncodeError")
                .event,
            shell(3, EventKind::PostToolUse, "pytest tests/test_csv.py", Some(0), "4 passed").event,
            prompt(4, "now bump the changelog").event,
            shell(5, EventKind::PostToolUse, "git commit -am changelog", Some(0), "").event,
        ];
        for (i, e) in events.iter_mut().enumerate() {
            e.id = EventId(format!("x{}", i + 1));
            e.session = SessionKey("claude:s".into());
        }
        store.append(&events).await.unwrap();
        let filter = memory_core::EventFilter::all();
        for query in
            ["why did the invoice export fail?", "export broken error", "what broke in the invoice export"]
        {
            let hits = store
                .search_events(&memory_core::EventQuery::search(query, filter.clone(), 60))
                .await
                .unwrap();
            let ranked = in_context(&store, hits, query, &filter).await.unwrap();
            let ids: Vec<&str> = ranked.iter().take(3).map(|h| h.event.event.id.as_str()).collect();
            assert!(ids.contains(&"x2"), "{query}: the failure after the prompt naming the export: {ids:?}");
            assert!(!ids.contains(&"x5"), "{query}: the commit two prompts later is not about it: {ids:?}");
        }
    }

    #[tokio::test]
    async fn what_nothing_around_it_asks_for_is_not_brought_in() {
        for query in ["kubernetes ingress", "which database migrations ran", "rust borrow checker"] {
            assert_eq!(best(CHAT, query, 5).await, Vec::<String>::new(), "{query}");
        }
    }
}
