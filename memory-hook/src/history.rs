//! History search hits as people read them, for the CLI, MCP and the viewer alike: events that
//! say the same thing (one command run again and again, a prompt typed twice) as one hit with a
//! count, and a failed command with the event that fixed it (the next run of the same operation of
//! the same tool in its session that passed); and hits ranked by what was said around them
//! ([`in_context`]): an answer read with the question it answers.

use std::collections::{HashMap, HashSet};

use memory_core::search::{bm25_weighted, event_text, expand, matched_in, says_something, words};
use memory_core::{
    EventFilter, EventHit, EventKind, EventQuery, EventVectorQuery, HookEvent, MemoryStore, SessionKey,
    StoredEvent,
};

/// How far past a failure, in events of its session, its fix is looked for.
const FIX_REACH: usize = 80;

/// The fewest hits a search asks the store for: [`in_context`] ranks them again, and an event
/// the store ranked low by its own words may be the best read with its neighbours'.
const POOL: usize = 60;

/// How many hits a search asks the store for to show `limit` once near-duplicates are one and
/// [`in_context`] has ranked them again.
fn window(limit: usize) -> usize {
    if limit == 0 { 0 } else { limit.saturating_mul(4).clamp(POOL, limit + 200) }
}

/// How far either side of an event, in things said in its session, what is said counts as its
/// context, and by how much: the next thing said at 0.4 of the event's own words, the one after
/// at 0.2. (Over real conversation, weights half as high again or lower rank the answer lower.)
const CONTEXT: [f64; 2] = [0.4, 0.2];

/// How far either side of a hit, in events of its session, events are read to find what was said
/// around it.
const READ_AROUND: u64 = 8;

/// History search as people read it: the store's best hits for `query` under each of `filters`
/// in turn (a project's own events, then everyone's), ranked again with what was said around
/// them ([`in_context`]), best first. Near-duplicates are still separate hits ([`collapse`]).
///
/// With `embedder` (the model installed, events embedded by `memory_embed::refresh_events`), the
/// events closest to the question in meaning ([`by_meaning`]) join them, and each hit's rank
/// weighs its meaning beside its words ([`MEANING`]).
pub async fn search(
    store: &dyn MemoryStore,
    query: &str,
    filters: &[EventFilter],
    limit: usize,
    embedder: Option<&memory_embed::Embedder>,
) -> memory_core::Result<Vec<EventHit>> {
    let wide = window(limit);
    let mut hits: Vec<EventHit> = Vec::new();
    for filter in filters {
        for hit in store.search_events(&EventQuery::search(query, filter.clone(), wide)).await? {
            if hits.len() < wide && !hits.iter().any(|h| h.event.position == hit.event.position) {
                hits.push(hit);
            }
        }
    }
    let meaning = match embedder {
        Some(embedder) => by_meaning(store, query, filters, embedder).await?,
        None => HashMap::new(),
    };
    // The closest join the hits; the others' similarity still counts for the hits among them.
    let mut closest: Vec<&(StoredEvent, f32)> = meaning.values().collect();
    closest.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.position.cmp(&a.0.position)));
    for (event, _) in closest.into_iter().take(POOL) {
        if !hits.iter().any(|h| h.event.position == event.position) {
            hits.push(EventHit { event: event.clone(), score: 0.0, matched_terms: 0 });
        }
    }
    let similarity: HashMap<u64, f32> = meaning.into_iter().map(|(at, (_, s))| (at, s)).collect();
    in_context(store, hits, query, filters, &similarity).await
}

/// How much a hit's meaning counts beside its words (each scaled to the best among the hits):
/// over real conversation, half and half finds the turn that answers most often.
const MEANING: f64 = 0.5;

/// How many of the events closest in meaning are read for their similarity: the closest
/// [`POOL`] join the hits, the others count for hits found by words.
const SIMILAR: usize = 600;

/// How many of the newest events of the searched scope are read to tell which words are
/// everywhere in it ([`COMMON`]).
const SAMPLE: usize = 1_000;
/// The fewest things said among them for that to be told at all.
const SAMPLE_MIN: usize = 50;
/// A word in more than this share of the things said in a scope is everywhere there (the names
/// of the people talking, the project's name, the words of every sentence): it says nothing of
/// what a question asks, and would only pull its meaning towards every event alike.
const COMMON: f64 = 0.08;

/// Words that say what kind of answer a question wants: kept in what is embedded of it however
/// common they are.
const QUESTION_WORDS: &[&str] = &["what", "when", "where", "who", "whom", "whose", "which", "why", "how"];

/// The events each of `filters` passes that are closest in meaning to `query`, with their
/// similarity: the question embedded without the words that are everywhere in the first
/// filter's scope ([`COMMON`]), so "when did Priya adopt the dog?" asked of a conversation in
/// which Priya is named everywhere is about adopting the dog. No vectors, no hits.
async fn by_meaning(
    store: &dyn MemoryStore,
    query: &str,
    filters: &[EventFilter],
    embedder: &memory_embed::Embedder,
) -> memory_core::Result<HashMap<u64, (StoredEvent, f32)>> {
    let Some(first) = filters.first() else { return Ok(HashMap::new()) };
    let sample = EventQuery { text: None, filter: first.clone(), limit: SAMPLE, ..EventQuery::default() };
    let said: Vec<HashSet<String>> = store
        .search_events(&sample)
        .await?
        .iter()
        .filter_map(|hit| {
            let own = words(&event_text(&hit.event.event));
            says_something(&hit.event.event, &own).then(|| own.into_iter().collect())
        })
        .collect();
    let everywhere = |word: &str| {
        said.len() >= SAMPLE_MIN
            && !QUESTION_WORDS.contains(&word)
            && said.iter().filter(|w| w.contains(word)).count() as f64 > COMMON * said.len() as f64
    };
    let asked: Vec<String> = words(query).into_iter().filter(|w| !everywhere(w)).collect();
    if asked.iter().all(|w| QUESTION_WORDS.contains(&w.as_str())) {
        return Ok(HashMap::new());
    }
    let vector = embedder
        .embed(&asked.join(" "), memory_embed::EVENT_TOKENS)
        .map_err(|e| memory_core::Error::backend("embedding", e, false))?;
    let mut found = HashMap::new();
    for filter in filters {
        let ask = EventVectorQuery {
            model: memory_embed::MODEL_NAME.to_owned(),
            vector: vector.clone(),
            filter: filter.clone(),
            limit: SIMILAR,
        };
        for hit in store.search_event_embeddings(&ask).await? {
            found.entry(hit.event.position).or_insert((hit.event, hit.similarity));
        }
    }
    Ok(found)
}

/// Hits ranked again by their words and the words said around them in their session: an event's
/// words count whole, those of the things said before and after it ([`CONTEXT`]; the session's
/// bookkeeping in between is skipped) at less. "Where is Priya going for the holidays?" is
/// answered by "probably a cabin up north", said right after "any plans for the holidays,
/// Priya?"; "why did the export fail?" by the failure right after the prompt that named the
/// export. Those neighbours join the hits (when one of `filters` passes them), so an event the
/// store did not find by its own words is found by what was said around it. Best first, each with
/// its score in that ranking (BM25 over these events alone) and the terms its own words hold.
async fn in_context(
    store: &dyn MemoryStore,
    hits: Vec<EventHit>,
    query: &str,
    filters: &[EventFilter],
    similarity: &HashMap<u64, f32>,
) -> memory_core::Result<Vec<EventHit>> {
    type Key = (String, u64);
    let terms = expand(query);
    // Each session's stretches around its hits, overlapping ones read as one.
    let mut stretches: Vec<(&SessionKey, u64, u64)> = hits
        .iter()
        .map(|h| {
            let seq = h.event.seq;
            (&h.event.event.session, seq.saturating_sub(READ_AROUND), seq + READ_AROUND)
        })
        .collect();
    stretches.sort();
    let mut merged: Vec<(&SessionKey, u64, u64)> = Vec::new();
    for (session, from, to) in stretches {
        match merged.last_mut() {
            Some((s, _, end)) if *s == session && from <= *end + 1 => *end = (*end).max(to),
            _ => merged.push((session, from, to)),
        }
    }
    let mut near: HashMap<Key, StoredEvent> = HashMap::new();
    for (session, from, to) in merged {
        let after = from.saturating_sub(1);
        for stored in store.timeline(session, after, (to - after) as usize).await? {
            near.insert((session.0.clone(), stored.seq), stored);
        }
    }
    for hit in &hits {
        near.entry((hit.event.event.session.0.clone(), hit.event.seq)).or_insert_with(|| hit.event.clone());
    }
    let own: HashMap<&Key, Vec<String>> =
        near.iter().map(|(key, stored)| (key, words(&event_text(&stored.event)))).collect();
    // Each session's things said, in order; two are next to each other when every event between
    // them was read (and is bookkeeping).
    let mut said: HashMap<&str, Vec<u64>> = HashMap::new();
    for (key, stored) in &near {
        if says_something(&stored.event, &own[key]) {
            said.entry(key.0.as_str()).or_default().push(key.1);
        }
    }
    said.values_mut().for_each(|seqs| seqs.sort_unstable());
    let adjacent = |session: &str, a: u64, b: u64| {
        (a.min(b) + 1..a.max(b)).all(|seq| near.contains_key(&(session.to_owned(), seq)))
    };
    // The things said within `reach` of `seq` on either side, with how far each is.
    let around = |session: &str, seq: u64, reach: usize| -> Vec<(u64, usize)> {
        let Some(seqs) = said.get(session) else { return Vec::new() };
        let Ok(at) = seqs.binary_search(&seq) else { return Vec::new() };
        let mut out = Vec::new();
        for step in [-1isize, 1] {
            let mut last = seq;
            for distance in 1..=reach {
                let Some(&next) = at.checked_add_signed(step * distance as isize).and_then(|i| seqs.get(i))
                else {
                    break;
                };
                if !adjacent(session, last, next) {
                    break;
                }
                out.push((next, distance));
                last = next;
            }
        }
        out
    };
    let mut pool: Vec<Key> = Vec::new();
    let mut pooled: HashSet<Key> = HashSet::new();
    for hit in &hits {
        let session = hit.event.event.session.as_str();
        let key = (session.to_owned(), hit.event.seq);
        if pooled.insert(key.clone()) {
            pool.push(key);
        }
        for (seq, _) in around(session, hit.event.seq, CONTEXT.len()) {
            let key = (session.to_owned(), seq);
            if filters.iter().any(|f| f.matches(&near[&key].event)) && pooled.insert(key.clone()) {
                pool.push(key);
            }
        }
    }
    let docs: Vec<Vec<(&[String], f64)>> = pool
        .iter()
        .map(|key| {
            let mut doc = vec![(own[key].as_slice(), 1.0)];
            for (seq, distance) in around(&key.0, key.1, CONTEXT.len()) {
                let other = (key.0.clone(), seq);
                // A tool call announced and then reported is one thing said once.
                if !same_call(&near[&other].event, &near[key].event) {
                    doc.push((own[&other].as_slice(), CONTEXT[distance - 1]));
                }
            }
            doc
        })
        .collect();
    let scores = bm25_weighted(&docs, &terms);
    // Words and meaning, each scaled to the best among these events; an event found by meaning
    // alone (no word of the question around it) still counts by its meaning.
    let best_words = scores.iter().flatten().map(|(score, _)| *score).fold(0.0, f64::max);
    // Meaning: the similarity scaled to the best (unrelated, 0, and below, nothing), and as words
    // are, with what was said next to it at less.
    let most = similarity.values().fold(0.0f32, |m, s| m.max(*s));
    let similar = |key: &Key| {
        let position = near[key].position;
        similarity.get(&position).map_or(0.0, |s| if most > 0.0 { f64::from(s.max(0.0) / most) } else { 0.0 })
    };
    let meant = |key: &Key| {
        let beside: Vec<f64> =
            around(&key.0, key.1, 1).into_iter().map(|(seq, _)| similar(&(key.0.clone(), seq))).collect();
        let context = if beside.is_empty() { 0.0 } else { beside.iter().sum::<f64>() / beside.len() as f64 };
        (similar(key) + CONTEXT[0] * context) / (1.0 + CONTEXT[0])
    };
    let mut ranked: Vec<EventHit> = pool
        .iter()
        .zip(scores)
        .filter_map(|(key, score)| {
            let event = near[key].clone();
            let by_words = score.map_or(0.0, |(score, _)| score / best_words.max(f64::MIN_POSITIVE));
            let score = if similarity.is_empty() {
                by_words
            } else {
                (1.0 - MEANING) * by_words + MEANING * meant(key)
            };
            (score > 0.0).then(|| EventHit { event, score, matched_terms: matched_in(&own[key], &terms) })
        })
        .collect();
    // A question asking when is answered by what says when: "when did Priya adopt the dog?" by
    // "we picked her up last Saturday".
    if asks_when(query) {
        let best = ranked.iter().map(|h| h.score).fold(0.0, f64::max);
        for hit in &mut ranked {
            let key = (hit.event.event.session.0.clone(), hit.event.seq);
            if own[&key].iter().any(|w| says_when(w)) {
                hit.score += SAYS_WHEN * best;
            }
        }
    }
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.event.position.cmp(&a.event.position)));
    Ok(ranked)
}

/// How much of the best hit's score an event that says when gains for a question asking when.
const SAYS_WHEN: f64 = 0.4;

/// Whether a question asks when something happened: "when did …", "what year …", "which day …",
/// "how long ago …".
fn asks_when(query: &str) -> bool {
    let asked = words(query);
    let first = asked.first().map(String::as_str);
    first == Some("when")
        || asked.windows(2).any(|w| {
            matches!(w[0].as_str(), "what" | "which")
                && matches!(w[1].as_str(), "year" | "date" | "day" | "month" | "week" | "time")
                || w[0] == "long" && w[1] == "ago"
        })
}

/// Whether a word says when: "yesterday", "last", "saturday", "ago", a year.
fn says_when(word: &str) -> bool {
    memory_core::search::when(word)
        || word.len() == 4
            && (word.starts_with("19") || word.starts_with("20"))
            && word.bytes().all(|b| b.is_ascii_digit())
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
        let ranked = search(&store, query, &[memory_core::EventFilter::all()], 5, None).await.unwrap();
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
            let ranked = search(&store, query, std::slice::from_ref(&filter), 5, None).await.unwrap();
            let ids: Vec<&str> = ranked.iter().take(3).map(|h| h.event.event.id.as_str()).collect();
            assert!(ids.contains(&"x2"), "{query}: the failure after the prompt naming the export: {ids:?}");
            assert!(!ids.contains(&"x5"), "{query}: the commit two prompts later is not about it: {ids:?}");
        }
    }

    #[test]
    fn a_question_asking_when_is_told_apart_from_one_asking_what() {
        for asked in
            ["When did Priya adopt the dog?", "what year did we move to pnpm", "how long ago was the outage?"]
        {
            assert!(asks_when(asked), "{asked}");
        }
        for asked in
            ["what did Priya adopt?", "which package manager do we use", "how long does the build take?"]
        {
            assert!(!asks_when(asked), "{asked}");
        }
        assert!(["yesterday", "saturday", "2023", "ago"].iter().all(|w| says_when(w)));
        assert!(!["2023x", "dog", "1234", "when"].iter().any(|w| says_when(w)));
    }

    #[tokio::test]
    async fn a_question_asking_when_gets_the_turn_that_says_when_first() {
        const DOG: &[&str] = &[
            "Priya, how is the new dog settling in?",
            "Great, she sleeps all day. We adopted her from the shelter last Saturday.",
            "Does the dog get along with your cat?",
            "Not yet, the dog chases her around the flat.",
        ];
        for asked in [
            "When did Priya adopt the dog?",
            "what day was the dog adopted?",
            "when was the shelter visit for the dog",
        ] {
            assert_eq!(best(DOG, asked, 1).await, ["r2"], "{asked}");
        }
    }

    #[tokio::test]
    async fn the_sessions_bookkeeping_between_a_question_and_its_answer_is_skipped() {
        let store = memory_core::InMemoryStore::new();
        let mut injected = HookEvent::new(
            EventId("i2".into()),
            Harness::named("codex"),
            SessionKey("codex:s".into()),
            EventKind::Injection,
            Utc::now(),
            json!({ "notes": "user profile/preferences.md project/shop/conventions.md" }),
        );
        injected.prompt = None;
        let events = vec![
            prompt(1, "Any plans for the holidays, Priya?").event,
            injected,
            reply(3, "Probably a cabin up north with my sister.").event,
            prompt(4, "Sounds lovely. I'm stuck painting the hallway.").event,
        ];
        store.append(&events).await.unwrap();
        let filter = memory_core::EventFilter::all();
        for asked in ["where is Priya going for the holidays?", "holiday plans of Priya", "Priya's plans"] {
            let ranked = search(&store, asked, std::slice::from_ref(&filter), 5, None).await.unwrap();
            let ids: Vec<&str> = ranked.iter().map(|h| h.event.event.id.as_str()).collect();
            assert_eq!(ids.get(1), Some(&"r3"), "{asked}: the answer after the injection record: {ids:?}");
            assert!(!ids.contains(&"i2"), "{asked}: the record of what was injected does not join: {ids:?}");
        }
    }

    #[tokio::test]
    async fn what_nothing_around_it_asks_for_is_not_brought_in() {
        for query in ["kubernetes ingress", "which database migrations ran", "rust borrow checker"] {
            assert_eq!(best(CHAT, query, 5).await, Vec::<String>::new(), "{query}");
        }
    }
}
