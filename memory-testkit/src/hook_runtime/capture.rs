//! Capture switched off: a paused or excluded session records nothing and still answers.

use chrono::Utc;
use memory_core::{EventKind, NoteKind, Scope};
use memory_hook::capture::{Pause, PauseFile, PauseState};
use serde_json::Value;

use super::HookFixtures;
use super::bench::{Bench, PROJECT, RELAXED_CONFIG};
use crate::fixtures::note;

/// A whole session (start, prompt, tool call, end), as the harness sends it.
fn whole_session(fixtures: &dyn HookFixtures, id: &str, cwd: &std::path::Path) -> Vec<Value> {
    vec![
        fixtures.session_start(id, cwd),
        fixtures.prompt(id, cwd, "the quartzlane checks, again"),
        fixtures.tool_call(id, cwd, "cargo test"),
        fixtures.session_end(id, cwd),
    ]
}

/// While all capture is paused (`<data_dir>/capture.json`), and while `[capture] exclude` names
/// the session's project, a whole session stores nothing, journals nothing, counts nothing for the
/// dream and starts none; every event is answered in time with a non-blocking answer that carries
/// no notes (`inject_when_paused` is off by default), and the log names no session. With
/// `inject_when_paused`, a start is given notes and still nothing is stored. Resumed, the same
/// session is recorded.
pub fn paused_and_excluded_sessions_record_nothing(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let cwd = bench.cwd();
    let mut profile = note(&Scope::User, "profile/role.md", "Role", &["profile"], "Works on quartzlane.");
    profile.meta.kind = NoteKind::Profile;
    bench.plant(&[profile]);
    let data = bench.config().data_dir();
    let pauses = PauseFile::new(&data);
    let now = Utc::now();
    pauses.save(&PauseState { all: Some(Pause::from(now, None)), projects: Vec::new() }, now).expect("pause");

    let quiet = |label: &str| {
        let (id, key) = bench.session(label);
        for payload in whole_session(fixtures, &id, cwd) {
            let ran = bench.run(&Bench::bytes(&payload));
            assert!(!ran.late(), "answered in time: {}", ran.outcome.log);
            assert_ne!(ran.answer.exit_code, memory_hook::EXIT_BAD_INPUT, "{}", ran.outcome.log);
            assert!(!ran.answer.stdout.contains("quartzlane"), "no notes: {}", ran.answer.stdout);
            assert!(ran.outcome.log.contains("not recorded"), "{}", ran.outcome.log);
            assert!(!ran.outcome.log.contains(&id), "the log names no session: {}", ran.outcome.log);
        }
        assert!(bench.timeline(&key).is_empty(), "{label}: nothing stored");
    };
    quiet("paused");
    pauses.save(&PauseState::default(), now).expect("resume");
    bench.configure(&format!("{RELAXED_CONFIG}[capture]\nexclude = [\"{PROJECT}\"]\n"));
    quiet("excluded");
    assert!(Bench::journaled(&bench.journal()).is_empty(), "nothing journaled");
    assert!(bench.dreams().is_empty(), "no dream started for sessions that are not recorded");
    assert!(!bench.config().dream_dir().join("waiting").exists(), "nothing counted for the dream");

    bench.configure(&format!(
        "{RELAXED_CONFIG}[capture]\nexclude = [\"{PROJECT}\"]\ninject_when_paused = true\n"
    ));
    let (id, key) = bench.session("given");
    let start = fixtures.session_start(&id, cwd);
    let ran = bench.run(&Bench::bytes(&start));
    if bench.adapter().support(&EventKind::SessionStart).context {
        assert!(ran.answer.stdout.contains("quartzlane"), "notes are given: {}", ran.answer.stdout);
    }
    assert!(bench.timeline(&key).is_empty(), "and still nothing is stored");
    assert!(bench.events().iter().all(|e| e.event.session != key), "not even the injection");

    bench.relax();
    let (id, key) = bench.session("recorded");
    for payload in whole_session(fixtures, &id, cwd) {
        bench.run(&Bench::bytes(&payload));
    }
    assert_eq!(bench.timeline(&key).len(), 4, "with capture on again, the session is recorded");
}
