//! History search hits as people read them, for the CLI, MCP and the viewer alike: events that
//! say the same thing (one command run again and again, a prompt typed twice) as one hit with a
//! count, and a failed command with the event that fixed it (the next run of the same operation of
//! the same tool in its session that passed).

use memory_core::{EventHit, EventKind, HookEvent, MemoryStore, StoredEvent};

/// How far past a failure, in events of its session, its fix is looked for.
const FIX_REACH: usize = 80;

/// How many hits a search asks the store for to show `limit` once near-duplicates are one.
pub fn window(limit: usize) -> usize {
    limit.saturating_mul(4).clamp(limit, limit + 200)
}

/// What makes two events near-duplicates: a shell command's words and whether it failed (its
/// call announced and its result alike), a prompt's words, else the event's kind and the words of
/// its text. Output, timings and spacing play no part.
pub fn likeness(event: &HookEvent) -> String {
    let words = |text: &str| memory_core::search::words(text).join(" ");
    if let Some(tool) = &event.tool
        && let Some(shell) = &tool.shell
    {
        let failed = dream::shell_run(event).is_some_and(|run| run.failed);
        return format!("shell {} {}", if failed { "failed" } else { "ran" }, words(&shell.command));
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
        assert_eq!(window(5), 20);
        assert_eq!(window(100), 300);
        assert_eq!(window(0), 0);
    }
}
