//! Input the hook cannot use and input it must keep: bad payloads, a broken configuration, an
//! unwritable data folder, deep nesting, random extra fields.

use memory_core::{EventKind, HookEvent};
use memory_hook::{EXIT_BAD_INPUT, Journal};
use proptest::prelude::*;
use serde_json::Value;

use super::HookFixtures;
use super::bench::{Bench, files_containing};

/// An AWS access key id that the redactor knows the shape of.
const SECRET: &str = "AKIAQX7Z4M2KD9WBT3RL";

/// Every kind of bad input fails open: the exit code is 0 or [`EXIT_BAD_INPUT`] (never 2, which
/// blocks the action in Claude Code and Codex), stdout is empty or the adapter's no-op, stderr is
/// one line, and the secret the input held is nowhere: not on stderr, not in the hook log, not in
/// any file the hook wrote.
pub fn bad_input_fails_open_without_leaking(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook]\ndeadline_ms = 5000\nmax_input_bytes = 4096\n");
    let (id, _) = bench.session("bad");
    let cwd = bench.cwd();
    let oversize =
        Bench::bytes(&fixtures.prompt(&id, cwd, &format!("{SECRET} {}", "padding ".repeat(1_000))));
    let mut deep = Bench::bytes(&fixtures.prompt(&id, cwd, SECRET));
    let levels = (4096 - deep.len() - 64) / 2;
    assert!(levels > 1_000, "room for deep nesting under the size bound");
    deep.pop();
    deep.extend(format!(",\"x_deep\":{}{}}}", "[".repeat(levels), "]".repeat(levels)).as_bytes());
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("empty stdin", Vec::new()),
        ("text that is not JSON", format!("export KEY={SECRET}").into_bytes()),
        ("a JSON array", format!("[\"{SECRET}\"]").into_bytes()),
        ("a wrongly typed field", Bench::bytes(&fixtures.wrongly_typed(&id, cwd, SECRET))),
        ("a payload over hook.max_input_bytes", oversize),
        ("nesting no JSON reader accepts", deep),
    ];
    let noop = bench.adapter().render_noop();
    for (what, input) in &inputs {
        let ran = bench.run(input);
        let answer = &ran.answer;
        assert!(
            answer.exit_code == 0 || answer.exit_code == EXIT_BAD_INPUT,
            "{what}: exit code {} blocks the harness",
            answer.exit_code
        );
        assert!(
            answer.stdout.is_empty() || answer.stdout == noop.stdout,
            "{what}: stdout {:?}",
            answer.stdout
        );
        assert_eq!(answer.stderr.lines().count(), 1, "{what}: stderr is one line: {:?}", answer.stderr);
        assert!(answer.stderr.ends_with('\n'), "{what}: stderr ends its line: {:?}", answer.stderr);
        assert!(!answer.stderr.contains(SECRET), "{what}: the secret is on stderr: {}", answer.stderr);
        assert!(!ran.outcome.log.contains(SECRET), "{what}: the secret is in the log line");
    }
    let log = bench.log();
    assert_eq!(log.lines().count(), inputs.len(), "one log line per hook:\n{log}");
    let leaked = files_containing(bench.root(), SECRET.as_bytes());
    assert!(leaked.is_empty(), "the secret was written to {leaked:?}");
    assert!(Bench::journaled(&bench.journal()).is_empty(), "bad input journals nothing");
}

/// A configuration file that does not parse: the hook runs with the defaults, still stores (or
/// journals) its event, and stderr carries one warning line naming the file.
pub fn broken_config_warns_and_keeps_the_event(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    bench.configure("[hook\ndeadline_ms = ");
    let (id, key) = bench.session("config");
    let payload = fixtures.tool_call(&id, bench.cwd(), "ls -la");
    let ran = bench.run(&Bench::bytes(&payload));
    let file = bench.config_file().display().to_string();
    assert_eq!(ran.answer.exit_code, 0, "stderr: {}", ran.answer.stderr);
    assert_eq!(ran.answer.stdout, bench.pass(&payload).stdout, "the harness gets the pass answer");
    let warnings: Vec<&str> = ran.answer.stderr.lines().collect();
    assert!(
        matches!(warnings.as_slice(), [line] if line.contains(&file)),
        "one warning line naming {file}: {:?}",
        ran.answer.stderr
    );
    bench.drain_all();
    assert_eq!(
        bench.timeline(&key).len(),
        1,
        "the event is kept with the default settings: {}",
        ran.outcome.log
    );
}

/// A data folder that cannot be written (`AGENT_MEMORY_HOME` below a regular file, which stops
/// root too): the event is journaled in [`memory_hook::paths::fallback_data_dir`], and stderr says
/// so in one line.
pub fn unwritable_data_dir_journals_in_fallback(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let file = bench.root().join("not-a-folder");
    std::fs::write(&file, "a regular file").expect("write a file");
    let data = file.join("data");
    let env = bench.env().clone().with("AGENT_MEMORY_HOME", data.to_str().expect("UTF-8 path"));
    let (id, key) = bench.session("unwritable");
    let payload = fixtures.tool_call(&id, bench.cwd(), "git status");
    let ran = bench.run_with(fixtures.stores(), &env, &Bench::bytes(&payload), &Default::default());
    assert_eq!(ran.answer.exit_code, 0, "stderr: {}", ran.answer.stderr);
    assert_eq!(ran.answer.stdout, bench.pass(&payload).stdout, "the harness gets the pass answer");
    let fallback = Journal::new(memory_hook::paths::fallback_data_dir(&env).join("journal"));
    let journaled = Bench::journaled(&fallback);
    assert!(
        matches!(journaled.as_slice(), [event] if event.session == key),
        "the event is journaled in {}: {journaled:?}",
        fallback.dir().display()
    );
    let fallback_dir = fallback.dir().display().to_string();
    let lines: Vec<&str> = ran.answer.stderr.lines().collect();
    assert!(
        matches!(lines.as_slice(), [line] if line.contains(&fallback_dir)),
        "stderr names the fallback journal {fallback_dir} in one line: {:?}",
        ran.answer.stderr
    );
    assert!(!data.exists(), "nothing was created below a file");
}

/// `depth` levels of arrays, innermost holding a number.
fn nested(depth: usize) -> Value {
    (1..depth).fold(serde_json::json!([1]), |inner, _| Value::Array(vec![inner]))
}

fn depth_of(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth_of).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth_of).max().unwrap_or(0),
        _ => 0,
    }
}

fn with_field(mut payload: Value, key: &str, value: Value) -> Value {
    payload.as_object_mut().expect("a payload is a JSON object").insert(key.to_owned(), value);
    payload
}

/// Whatever the parser accepts every reader reads: payloads nested 120 to 127 levels deep are
/// stored, `timeline` reads them back, and a journal holding the stored event delivers it (it is
/// not set aside as corrupt).
pub fn deep_payloads_read_back(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    for depth in 120..=127 {
        let (id, key) = bench.session(&format!("deep-{depth}"));
        let payload =
            with_field(fixtures.tool_call(&id, bench.cwd(), "cargo build"), "x_deep", nested(depth - 1));
        assert_eq!(depth_of(&payload), depth, "the payload is {depth} levels deep");
        let ran = bench.run(&Bench::bytes(&payload));
        assert_eq!(ran.answer.exit_code, 0, "depth {depth}: {}", ran.answer.stderr);
        let stored = bench.timeline(&key);
        let [event] = stored.as_slice() else {
            panic!("depth {depth}: one event is stored, found {}: {}", stored.len(), ran.outcome.log)
        };
        let journal = Journal::new(bench.root().join(format!("journal-{depth}")));
        journal
            .write(&event.event)
            .unwrap_or_else(|e| panic!("depth {depth}: journal the stored event: {e}"));
        let drained = bench.drain(&journal);
        assert_eq!(
            (drained.delivered, drained.corrupt),
            (1, 0),
            "depth {depth}: the journal reads the event back"
        );
    }
}

/// Random JSON in extra fields of a payload: the hook answers with exit 0, and the stored event
/// reads back with the extra fields kept as keys of the raw payload.
pub fn random_extra_fields_read_back(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let extra = prop::collection::btree_map("x_[a-z]{1,6}", crate::strategies::arb_json(), 1..4);
    let config = ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&extra, |extra| {
        let (id, key) = bench.session("random");
        let mut payload = fixtures.tool_call(&id, bench.cwd(), "cargo fmt");
        for (name, value) in &extra {
            payload = with_field(payload, name, value.clone());
        }
        let ran = bench.run(&Bench::bytes(&payload));
        prop_assert_eq!(ran.answer.exit_code, 0, "stderr: {}", ran.answer.stderr);
        let stored: Vec<HookEvent> = bench.timeline(&key).into_iter().map(|e| e.event).collect();
        prop_assert_eq!(stored.len(), 1, "log: {}", ran.outcome.log);
        prop_assert_ne!(&stored[0].kind, &EventKind::Injection);
        for name in extra.keys() {
            prop_assert!(stored[0].raw.get(name).is_some(), "raw keeps `{}`: {}", name, stored[0].raw);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
