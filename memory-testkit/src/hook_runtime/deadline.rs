//! The deadline: a store that does not answer, a payload as large as a hook reads, and a server
//! store that keeps missing it.

use std::time::Duration;

use memory_core::{EventKind, MemoryStore};
use memory_hook::health::StoreHealth;
use memory_hook::{Config, OpenStore};

use super::HookFixtures;
use super::bench::{Bench, Late};

/// How late past its deadline an answer may come on a loaded machine (the watchdog journals,
/// with an fsync, before it answers). Far below what a stalled store would take: its busy wait.
const SLACK: Duration = Duration::from_millis(1_000);

/// A store that does not answer (its SQLite file locked by another connection): the watchdog
/// answers within the deadline with the harness's pass answer, the event is journaled whole, and
/// once the lock is released a drain delivers it, and the store holds it once.
pub fn deadline_answers_pass_and_journals(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 100\n");
    let (id, key) = bench.session("deadline");
    let payload = fixtures.tool_call(&id, bench.cwd(), "cargo test --workspace");
    let lock = bench.lock_writes();
    let (ran, journaled) = std::thread::scope(|scope| {
        let running = bench.spawn(scope, fixtures.stores(), bench.env().clone(), Bench::bytes(&payload));
        let (took, answer) = running.answer();
        assert!(
            took <= Duration::from_millis(100) + SLACK,
            "the harness waited {took:?} for a hook with a 100 ms deadline"
        );
        assert_eq!(answer, bench.pass(&payload), "the watchdog answers with the harness's pass answer");
        let journaled = Bench::journaled(&bench.journal());
        lock.release();
        (running.join(), journaled)
    });
    assert!(ran.late(), "the watchdog answered, not the run: {}", ran.outcome.log);
    let [event] = journaled.as_slice() else {
        panic!("one event is journaled at the deadline, found {}", journaled.len())
    };
    assert_eq!(
        (&event.session, &event.kind),
        (&key, &bench.kind(&payload)),
        "the journal holds the hook's event"
    );
    let drained = bench.drain_all();
    assert_eq!(drained.delivered, 1, "the drain delivers the journaled event");
    assert!(bench.journal().pending().is_ok_and(|p| p.is_empty()), "nothing is left in the journal");
    let stored: Vec<_> = bench.timeline(&key).into_iter().map(|e| e.event.id).collect();
    assert_eq!(
        stored,
        std::slice::from_ref(&event.id),
        "the store holds the event once, under its journaled id"
    );
}

/// A payload just under `hook.max_input_bytes` (the default 8 MiB): the harness is answered
/// (by the run or the watchdog) within the deadline counted from the hook's start, and the event is
/// stored or journaled (when handed off, by the run that finished the hand-off).
pub fn maximal_payload_meets_the_deadline(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 300\ninject_deadline_ms = 300\n");
    let max = bench.config().hook.max_input_bytes;
    assert_eq!(max, Config::default().hook.max_input_bytes, "the suite checks the default bound");
    let (id, key) = bench.session("maximal");
    let small = Bench::bytes(&fixtures.prompt(&id, bench.cwd(), ""));
    let words = "the quick brown fox jumps over the lazy dog ";
    let room = max - small.len() - 64 * 1024;
    let prompt = words.repeat(room / words.len());
    let payload = Bench::bytes(&fixtures.prompt(&id, bench.cwd(), &prompt));
    assert!(payload.len() < max && payload.len() > max - 128 * 1024, "payload of {} bytes", payload.len());
    let ran = bench.run(&payload);
    assert!(
        ran.took <= Duration::from_millis(300) + SLACK,
        "a {}-byte payload was answered after {:?}, past its 300 ms deadline",
        payload.len(),
        ran.took
    );
    assert_eq!(ran.answer.exit_code, 0, "stderr: {}", ran.answer.stderr);
    bench.drain_all();
    let kinds: Vec<EventKind> = bench.timeline(&key).into_iter().map(|e| e.event.kind).collect();
    assert_eq!(
        kinds,
        [EventKind::UserPromptSubmit],
        "the prompt is stored once; log: {} {:?}",
        ran.outcome.log,
        ran.handed_off
    );
}

/// A payload the deadline catches before its event is ready (read, but still being parsed and
/// redacted) is handed off: the harness gets the no-op answer in time, the run that finishes the
/// hand-off journals the event whole (while the store cannot be reached), and a drain delivers it.
/// The caught run, which goes on in process, derives the same event id, so the store holds the
/// delivery once.
pub fn caught_payloads_are_handed_off_and_journaled(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 1\ninject_deadline_ms = 1\n[user]\nowner = \"sam@example.com\"\n");
    let (id, key) = bench.session("handed-off");
    let mut payload = fixtures.tool_call(&id, bench.cwd(), "cargo doc");
    // Slow to parse and redact, so the deadline passes before the event is ready.
    payload["x_padding"] = serde_json::Value::String("lorem ipsum dolor sit amet ".repeat(120_000));
    let kind = bench.kind(&payload);
    let lock = bench.lock_everything();
    let (ran, journaled) = std::thread::scope(|scope| {
        let running = bench.spawn(scope, fixtures.stores(), bench.env().clone(), Bench::bytes(&payload));
        let (took, answer) = running.answer();
        assert!(took <= Duration::from_millis(1) + SLACK, "the harness waited {took:?} past a 1 ms deadline");
        assert_eq!(
            answer,
            bench.adapter().render_noop(),
            "a payload caught before it is ready gets the no-op"
        );
        // The caught run waits for the store meanwhile: what the journal holds is the hand-off's.
        running.handed_off();
        let journaled = Bench::journaled(&bench.journal());
        lock.release();
        (running.join(), journaled)
    });
    assert!(ran.late(), "the watchdog answered: {}", ran.outcome.log);
    assert_eq!(ran.handed_off.len(), 1, "the payload was handed off once: {}", ran.outcome.log);
    let [event] = journaled.as_slice() else {
        panic!("the hand-off journals one event, found {}: {:?}", journaled.len(), ran.handed_off)
    };
    assert_eq!((&event.session, &event.kind), (&key, &kind), "the journal holds the handed-off event");
    assert_eq!(event.owner.as_deref(), Some("sam@example.com"), "stamped with its owner");
    bench.drain_all();
    let stored: Vec<_> = bench.timeline(&key).into_iter().map(|e| e.event.id).collect();
    assert_eq!(
        stored,
        std::slice::from_ref(&event.id),
        "the delivery is stored once, under the id the hand-off and the run share"
    );
}

/// Opens the suite's store but says it is not local: the runtime treats it as a server store,
/// which the deadline can pause.
struct AsServer<'a>(&'a dyn OpenStore);

#[memory_core::async_trait]
impl OpenStore for AsServer<'_> {
    async fn open(&self, config: &Config) -> memory_core::Result<std::sync::Arc<dyn MemoryStore>> {
        self.0.open(config).await
    }

    fn local(&self, _config: &Config) -> bool {
        false
    }
}

/// A server store that keeps missing the deadline is paused: after three hooks the watchdog
/// answered for, the fourth journals at once and answers itself, whatever its deadline, and the
/// log says the store is paused. Once the store answers again, everything is delivered.
pub fn slow_server_is_paused(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 150\n");
    let stores = AsServer(fixtures.stores());
    let (id, key) = bench.session("paused");
    let payload = |n: usize| Bench::bytes(&fixtures.tool_call(&id, bench.cwd(), &format!("make step-{n}")));
    let lock = bench.lock_everything();
    let (missed, fourth) = std::thread::scope(|scope| {
        let mut missed = Vec::new();
        for n in 1..=3 {
            let running = bench.spawn(scope, &stores, bench.env().clone(), payload(n));
            let (took, _) = running.answer();
            assert!(took <= Duration::from_millis(150) + SLACK, "hook {n} was answered after {took:?}");
            missed.push(running);
        }
        let health = StoreHealth::new(&bench.config().data_dir()).state();
        assert!(health.misses >= 3, "three missed deadlines are counted: {health:?}");
        // However long its deadline, a paused store is not waited on.
        bench.configure("[hook]\ndeadline_ms = 5000\n");
        let fourth = bench.run_with(&stores, bench.env(), &payload(4), &Late::default());
        lock.release();
        (missed.into_iter().map(|m| m.join()).collect::<Vec<_>>(), fourth)
    });
    for (n, ran) in missed.iter().enumerate() {
        assert!(ran.late(), "hook {} missed its deadline: {}", n + 1, ran.outcome.log);
    }
    assert!(!fourth.late(), "the fourth hook answered itself, before its deadline: {}", fourth.outcome.log);
    assert!(fourth.outcome.log.contains("store paused"), "log line: {}", fourth.outcome.log);
    assert!(bench.log().contains("store paused"), "the hook log says the store is paused:\n{}", bench.log());
    bench.drain_all();
    assert_eq!(bench.timeline(&key).len(), 4, "every event is delivered once the store answers");
}
