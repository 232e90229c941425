//! The dream that runs by itself: a hook starts it after a session ends, or once enough events
//! wait, one at a time, never for agent-memory's own processes, and never when it is turned off.

use std::sync::Barrier;

use memory_hook::{GUARD_VAR, Trigger};

use super::HookFixtures;
use super::bench::{Bench, Late, RELAXED_CONFIG};

/// Sessions ending at the same moment in [`hooks_ending_sessions_at_once_start_one_dream`].
const AT_ONCE: usize = 6;

/// A session's end starts the dream, once: the events before it start nothing, the end gets the
/// harness's usual answer and its hook starts one dream; while that dream runs (holds its lock),
/// another session's end starts nothing; once it ended, the next end starts the next dream. Hooks
/// of agent-memory's own processes ([`GUARD_VAR`]) record nothing and start nothing, and with
/// `dream.auto = false` no hook starts a dream. Every event is stored either way.
pub fn a_session_end_starts_one_dream_at_a_time(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let cwd = bench.cwd();
    let (id, key) = bench.session("ending");
    for payload in [
        fixtures.session_start(&id, cwd),
        fixtures.prompt(&id, cwd, "I prefer small commits with short messages"),
        fixtures.tool_call(&id, cwd, "cargo test --workspace"),
    ] {
        let ran = bench.run(&Bench::bytes(&payload));
        assert!(!ran.outcome.log.contains("dream"), "nothing starts mid-session: {}", ran.outcome.log);
    }
    assert_eq!(bench.dreams(), [], "no dream before the session ends");
    let end = fixtures.session_end(&id, cwd);
    let ran = bench.run(&Bench::bytes(&end));
    assert_eq!(ran.answer, bench.pass(&end), "the end gets the harness's usual answer: {}", ran.outcome.log);
    assert_eq!(bench.dreams(), [Trigger::SessionEnd], "{}", ran.outcome.log);
    assert!(ran.outcome.log.contains("dream started (session-end"), "{}", ran.outcome.log);
    assert_eq!(bench.timeline(&key).len(), 4, "every event of the session is stored");

    let (other, _) = bench.session("ending-meanwhile");
    let ran = bench.run(&Bench::bytes(&fixtures.session_end(&other, cwd)));
    assert!(ran.outcome.log.contains("dream already running"), "{}", ran.outcome.log);
    assert_eq!(bench.dreams(), [Trigger::SessionEnd], "one dream at a time");

    bench.finish_dreams();
    let (next, _) = bench.session("ending-after");
    let ran = bench.run(&Bench::bytes(&fixtures.session_end(&next, cwd)));
    assert_eq!(bench.dreams(), [Trigger::SessionEnd; 2], "the next end starts the next: {}", ran.outcome.log);
    bench.finish_dreams();

    let (own, own_key) = bench.session("dream-own");
    let guarded = bench.env().clone().with(GUARD_VAR, "1");
    let ran = bench.run_with(
        fixtures.stores(),
        &guarded,
        &Bench::bytes(&fixtures.session_end(&own, cwd)),
        &Late::default(),
    );
    assert!(ran.outcome.log.contains("skipped"), "{}", ran.outcome.log);
    assert!(bench.timeline(&own_key).is_empty(), "the dream's own sessions are not recorded");

    bench.configure(&format!("{RELAXED_CONFIG}[dream]\nauto = false\n"));
    let (off, off_key) = bench.session("auto-off");
    let ran = bench.run(&Bench::bytes(&fixtures.session_end(&off, cwd)));
    assert!(!ran.outcome.log.contains("dream"), "{}", ran.outcome.log);
    assert_eq!(bench.timeline(&off_key).len(), 1, "the event is stored");
    assert_eq!(bench.dreams().len(), 2, "neither agent-memory's own hooks nor a turned-off dream start one");
}

/// Enough events start the dream without a session's end: with `dream.auto_after_events = 3`,
/// the third event's hook starts it; the dream starts a new count, so the next one starts at the
/// sixth event (once the first has ended).
pub fn a_backlog_starts_the_dream_without_a_session_end(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure(&format!("{RELAXED_CONFIG}[dream]\nauto_after_events = 3\n"));
    let cwd = bench.cwd();
    let (id, key) = bench.session("backlog");
    let mut started = Vec::new();
    for n in 1..=7 {
        let ran = bench.run(&Bench::bytes(&fixtures.tool_call(&id, cwd, &format!("cargo test case_{n}"))));
        if ran.outcome.log.contains("dream started (backlog, 3 events waiting)") {
            started.push(n);
            bench.finish_dreams();
        } else {
            assert!(!ran.outcome.log.contains("dream"), "event {n}: {}", ran.outcome.log);
        }
    }
    assert_eq!(started, [3, 6], "a dream every third event");
    assert_eq!(bench.dreams(), [Trigger::Backlog; 2]);
    assert_eq!(bench.timeline(&key).len(), 7);
}

/// Hooks ending sessions at the same moment start one dream: the others find it running.
pub fn hooks_ending_sessions_at_once_start_one_dream(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let cwd = bench.cwd();
    let sessions: Vec<String> = (0..AT_ONCE).map(|_| bench.session("at-once").0).collect();
    for id in &sessions {
        bench.run(&Bench::bytes(&fixtures.session_start(id, cwd)));
    }
    let barrier = Barrier::new(AT_ONCE);
    let logs: Vec<String> = std::thread::scope(|scope| {
        let running: Vec<_> = sessions
            .iter()
            .map(|id| {
                let (bench, barrier) = (&bench, &barrier);
                let end = Bench::bytes(&fixtures.session_end(id, cwd));
                scope.spawn(move || {
                    barrier.wait();
                    bench.run(&end).outcome.log
                })
            })
            .collect();
        running.into_iter().map(|r| r.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let count = |what: &str| logs.iter().filter(|l| l.contains(what)).count();
    assert_eq!(bench.dreams(), [Trigger::SessionEnd], "{logs:#?}");
    assert_eq!((count("dream started"), count("dream already running")), (1, AT_ONCE - 1), "{logs:#?}");
}
