//! The journal: nothing lost under contention, big events set aside, delivery in firing order,
//! and the temporary files of killed hooks.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use memory_core::{EventId, HookEvent};
use memory_hook::journal::LARGE_EVENT_BYTES;
use serde_json::Value;

use super::HookFixtures;
use super::bench::Bench;

/// Hooks fired by the contention behaviour.
const HOOKS: usize = 500;
/// Threads firing them at once.
const THREADS: usize = 4;
/// Sessions they share.
const SESSIONS: usize = 8;

/// The number after `mark-` in an event's prompt or tool input, if any.
fn mark(event: &HookEvent) -> Option<usize> {
    let text = match (&event.prompt, &event.tool) {
        (Some(prompt), _) => prompt.clone(),
        (None, Some(tool)) => tool.input.as_ref().map(Value::to_string).unwrap_or_default(),
        (None, None) => return None,
    };
    let start = text.find("mark-")? + "mark-".len();
    text[start..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

/// No event is lost or stored twice: 500 hooks with deadlines from 1 to 50 ms, fired from several
/// threads at once into a few shared sessions while the store's write lock is held part of the
/// time, and some payloads slow to parse, so hooks miss their deadlines at every stage (handed
/// off, journaled, stored late) and drain one journal concurrently. After a final drain every
/// hook's event is in the store once.
pub fn no_event_lost_under_contention(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let sessions: Vec<String> = (0..SESSIONS).map(|_| bench.session("contended").0).collect();
    let done = AtomicBool::new(false);
    let late = std::thread::scope(|scope| {
        let locker = scope.spawn(|| {
            let mut locks = 0;
            while !done.load(Ordering::Relaxed) {
                let lock = bench.lock_writes();
                std::thread::sleep(Duration::from_millis(25));
                lock.release();
                locks += 1;
                std::thread::sleep(Duration::from_millis(35));
            }
            locks
        });
        let workers: Vec<_> = (0..THREADS)
            .map(|thread| {
                let (bench, sessions) = (&bench, &sessions);
                scope.spawn(move || {
                    let (mut late, mut handed_off) = (0, 0);
                    for n in (thread..HOOKS).step_by(THREADS) {
                        let session = &sessions[n % SESSIONS];
                        let mut payload = if n % 4 == 0 {
                            fixtures.prompt(session, bench.cwd(), &format!("explain mark-{n} please"))
                        } else {
                            fixtures.tool_call(session, bench.cwd(), &format!("echo mark-{n}"))
                        };
                        let slow = n % 10 == 5;
                        if slow {
                            // A megabyte to parse outlasts a 1 ms deadline: it is caught before
                            // the event is ready, and handed off.
                            payload["x_padding"] = Value::String("lorem ipsum dolor ".repeat(60_000));
                        }
                        let deadline = if slow { 1 } else { 1 + n * 7 % 50 }.to_string();
                        let env = bench
                            .env()
                            .clone()
                            .with("AGENT_MEMORY_HOOK_DEADLINE_MS", deadline.clone())
                            .with("AGENT_MEMORY_HOOK_INJECT_DEADLINE_MS", deadline);
                        let ran = bench.run_with(
                            fixtures.stores(),
                            &env,
                            &Bench::bytes(&payload),
                            &Default::default(),
                        );
                        assert_eq!(ran.answer.exit_code, 0, "hook {n}: {}", ran.answer.stderr);
                        late += usize::from(ran.late());
                        handed_off += ran.handed_off.len();
                    }
                    (late, handed_off)
                })
            })
            .collect();
        let counts: Vec<(usize, usize)> =
            workers.into_iter().map(|w| w.join().expect("a worker panicked")).collect();
        done.store(true, Ordering::Relaxed);
        assert!(locker.join().expect("the locker panicked") > 0, "the store was locked at times");
        counts.into_iter().fold((0, 0), |(l, h), (late, handed)| (l + late, h + handed))
    });
    assert!(late.0 > 0, "some hooks missed their deadline, or the behaviour tests nothing");
    assert!(late.1 > 0, "some payloads were handed off, or the behaviour tests nothing");
    bench.drain_all();
    assert!(Bench::journaled(&bench.journal()).is_empty(), "the final drain empties the journal");
    let mut stored: BTreeMap<usize, Vec<EventId>> = BTreeMap::new();
    for event in bench.events().into_iter().map(|e| e.event) {
        if let Some(n) = mark(&event) {
            stored.entry(n).or_default().push(event.id);
        }
    }
    let missing: Vec<usize> = (0..HOOKS).filter(|n| !stored.contains_key(n)).collect();
    assert!(missing.is_empty(), "{} of {HOOKS} events were lost: hooks {missing:?}", missing.len());
    let twice: BTreeMap<&usize, &Vec<EventId>> = stored.iter().filter(|(_, ids)| ids.len() > 1).collect();
    assert!(twice.is_empty(), "{} hooks' events were stored more than once: {twice:?}", twice.len());
}

/// Events over [`LARGE_EVENT_BYTES`] wait under `large/` for `sync`: four of ~2 MB each do not hold
/// up five later hooks, which store their own events in time; a full drain then delivers the big
/// ones.
pub fn large_events_do_not_hold_up_small_ones(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 1000\n");
    let (id, key) = bench.session("large");
    let journal = bench.journal();
    let big: Vec<HookEvent> = (0..4)
        .map(|n| {
            let mut event = bench.parse(&fixtures.tool_call(&id, bench.cwd(), &format!("cat big-{n}")));
            event.id = crate::fixtures::event_id(&format!("{id}/big-{n}"));
            event.raw["x_big"] = Value::String("z".repeat(2 * LARGE_EVENT_BYTES));
            journal.write(&event).unwrap_or_else(|e| panic!("journal a big event: {e}"));
            event
        })
        .collect();
    assert_eq!(journal.set_aside().map(|s| s.len()).ok(), Some(4), "big events are set aside");
    for n in 0..5 {
        let ran = bench.run(&Bench::bytes(&fixtures.tool_call(&id, bench.cwd(), &format!("echo small-{n}"))));
        assert!(!ran.late(), "small hook {n} answered in time: {}", ran.outcome.log);
    }
    let small = bench.timeline(&key);
    assert_eq!(small.len(), 5, "the five small events are stored while the big ones wait");
    assert!(
        small.iter().all(|e| big.iter().all(|b| b.id != e.event.id)),
        "no big event was delivered by a hook"
    );
    let drained = bench.drain_all();
    assert_eq!(drained.delivered, 4, "a full drain delivers the big events");
    let ids: Vec<EventId> = bench.timeline(&key).into_iter().map(|e| e.event.id).collect();
    assert!(big.iter().all(|b| ids.contains(&b.id)), "every big event is stored");
    assert_eq!(journal.pending().map(|p| p.len()).ok(), Some(0), "nothing waits any more");
}

/// Events journaled while the store cannot be reached are delivered before a later event, in the
/// order they fired: the session's timeline follows the firing order with seqs 1, 2, 3, 4.
pub fn journaled_events_are_delivered_in_order(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 150\n");
    let (id, key) = bench.session("ordered");
    let payload = |n: usize| Bench::bytes(&fixtures.tool_call(&id, bench.cwd(), &format!("make mark-{n}")));
    let lock = bench.lock_everything();
    std::thread::scope(|scope| {
        let mut running = Vec::new();
        for n in 1..=3 {
            let run = bench.spawn(scope, fixtures.stores(), bench.env().clone(), payload(n));
            run.answer();
            assert_eq!(
                Bench::journaled(&bench.journal()).len(),
                n,
                "hook {n}'s event is journaled at its deadline"
            );
            running.push(run);
        }
        lock.release();
        for run in running {
            run.join();
        }
    });
    bench.relax();
    let fourth = bench.run(&payload(4));
    assert!(!fourth.late(), "the fourth hook reaches the store: {}", fourth.outcome.log);
    bench.drain_all();
    let timeline = bench.timeline(&key);
    let order: Vec<(u64, Option<usize>)> = timeline.iter().map(|e| (e.seq, mark(&e.event))).collect();
    assert_eq!(
        order,
        [(1, Some(1)), (2, Some(2)), (3, Some(3)), (4, Some(4))],
        "the timeline follows the firing order with contiguous seqs"
    );
}

/// A hook killed while writing to the journal leaves a temporary file: once stale, a whole event in
/// it is recovered and delivered by the next hook's drain, before that hook's own event; a partial
/// one is removed; a fresh one (a write in progress) is left alone.
pub fn killed_writes_are_recovered_or_removed(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let (id, key) = bench.session("killed");
    let dir = bench.journal().dir().to_path_buf();
    std::fs::create_dir_all(&dir).expect("journal folder");
    let mut whole = bench.parse(&fixtures.tool_call(&id, bench.cwd(), "make mark-1"));
    whole.project = Some(bench.project().id);
    let partial = bench.parse(&fixtures.tool_call(&id, bench.cwd(), "make mark-9"));
    let tmp = |event: &HookEvent, n: u32| {
        let nanos = event.occurred_at.timestamp_nanos_opt().unwrap_or_default();
        dir.join(format!(".{nanos:020}-{}.json.999999.{n}.tmp", event.id))
    };
    let stale = SystemTime::now() - Duration::from_secs(120);
    let write = |path: &std::path::Path, bytes: &[u8], modified: Option<SystemTime>| {
        std::fs::write(path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        if let Some(time) = modified {
            let file = std::fs::File::options().write(true).open(path).expect("open the temporary file");
            file.set_modified(time).expect("set the modification time");
        }
    };
    let whole_json = serde_json::to_vec(&whole).expect("event serialises");
    let partial_json = serde_json::to_vec(&partial).expect("event serialises");
    let (recoverable, broken, in_progress) = (tmp(&whole, 0), tmp(&partial, 1), tmp(&partial, 2));
    write(&recoverable, &whole_json, Some(stale));
    write(&broken, &partial_json[..partial_json.len() / 2], Some(stale));
    write(&in_progress, &partial_json[..partial_json.len() / 2], None);
    let ran = bench.run(&Bench::bytes(&fixtures.tool_call(&id, bench.cwd(), "make mark-2")));
    assert!(!ran.late(), "the hook answered in time: {}", ran.outcome.log);
    let order: Vec<Option<usize>> = bench.timeline(&key).iter().map(|e| mark(&e.event)).collect();
    assert_eq!(order, [Some(1), Some(2)], "the recovered event is delivered before the hook's own");
    assert!(!recoverable.exists() && !broken.exists(), "stale temporary files are gone");
    assert!(in_progress.exists(), "a write in progress is left alone");
}
