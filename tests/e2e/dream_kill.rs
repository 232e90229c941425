//! A dream killed with SIGKILL at random points loses nothing and tears nothing: every chunk commits
//! its notes together with its watermark, so a later run finishes exactly as an uninterrupted one.
#![allow(clippy::print_stderr, reason = "the test logs its seed and kill points for reproduction")]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use chrono::{TimeZone as _, Utc};
use memory_core::{
    EventId, EventKind, FileAction, FileTouch, Harness, HookEvent, MemoryStore as _, SessionKey, ShellCall,
    ToolCall,
};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use serde_json::{Value, json};

use crate::support::Machine;

/// Events per provider call: small, so the run commits many chunks.
const CHUNK_SIZE: &str = "5";
/// Most kills per trial.
const MAX_KILLS: usize = 12;
/// Most trials (each on a fresh copy of the recorded events).
const MAX_TRIALS: usize = 6;
/// Kills that must land after some chunk committed and before the run completed.
const MIN_MID_RUN_KILLS: usize = 4;
/// The seed of the kill delays; `DREAM_KILL_SEED` picks another to explore more points.
const DEFAULT_SEED: u64 = 0x5eed_d7ea_4d00_0001;

/// A small deterministic generator (SplitMix64): the test needs reproducible delays, not quality.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..bound`.
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }
}

/// Several projects and sessions of prompts, shell commands (some failing, then fixed), file edits
/// and reads, plus a few sessions outside any project.
fn workload() -> Vec<HookEvent> {
    let projects = ["acme-api-1a2b", "billing-3c4d", "website-5e6f", ""];
    let commands = [
        "cargo test --workspace",
        "cargo clippy --all-targets -- -D warnings",
        "cargo build --release",
        "npm run lint -- --fix",
        "git commit -m wip --no-verify",
        "pytest -x -q tests/unit",
        "make check",
    ];
    let prompts = [
        "I prefer small focused commits with lowercase messages.",
        "In this project we use thiserror for library errors, never anyhow.",
        "Always run the tests before you push.",
        "Use ripgrep instead of grep, please.",
        "From now on write the changelog entry with every fix.",
        "Never commit generated files.",
        "In this project we keep modules small and named after what they hold.",
    ];
    let files = ["src/lib.rs", "src/store.rs", "src/main.rs", "README.md", "tests/e2e.rs", "Cargo.toml"];
    let start = Utc.with_ymd_and_hms(2026, 11, 2, 9, 0, 0).unwrap();
    let mut events = Vec::new();
    let mut n = 0u64;
    for session in 0..60u64 {
        let project = projects[(session % projects.len() as u64) as usize];
        let key = SessionKey::new("claude", &format!("kill-{session:02}"));
        for step in 0..14u64 {
            let at = start + chrono::Duration::minutes((session * 60 + step) as i64);
            let mut push = |kind: EventKind, fill: &dyn Fn(&mut HookEvent)| {
                n += 1;
                let mut event = HookEvent::new(
                    EventId(format!("{n:032x}")),
                    Harness::named("claude"),
                    key.clone(),
                    kind,
                    at,
                    json!({ "n": n }),
                );
                event.cwd =
                    Some(format!("/home/u/src/{}", if project.is_empty() { "scratch" } else { project }));
                event.project = (!project.is_empty()).then(|| project.to_owned());
                fill(&mut event);
                events.push(event);
            };
            let pick = (session * 7 + step * 3) as usize;
            match step % 4 {
                0 => {
                    let prompt = prompts[pick % prompts.len()];
                    push(EventKind::UserPromptSubmit, &|e| e.prompt = Some(prompt.to_owned()));
                }
                1 | 2 => {
                    let command = commands[pick % commands.len()];
                    let failed = step % 4 == 1 && session % 3 == 0;
                    // Described as the Claude Code adapter describes a Bash call.
                    let tool =
                        |output: Option<Value>, error: Option<String>, failed: Option<bool>| ToolCall {
                            name: "Bash".to_owned(),
                            use_id: Some(format!("toolu_{session}_{step}")),
                            input: Some(json!({ "command": command })),
                            output,
                            error,
                            duration_ms: Some(1200),
                            shell: Some(ShellCall::new(command)),
                            failed,
                            ..ToolCall::default()
                        };
                    push(EventKind::PreToolUse, &|e| e.tool = Some(tool(None, None, None)));
                    if failed {
                        push(EventKind::PostToolUseFailure, &|e| {
                            let error = "error[E0432]: unresolved import".to_owned();
                            e.tool = Some(tool(None, Some(error), Some(true)));
                        });
                    } else {
                        push(EventKind::PostToolUse, &|e| {
                            e.tool = Some(tool(
                                Some(json!({ "stdout": "ok", "stderr": "", "interrupted": false })),
                                None,
                                Some(false),
                            ));
                        });
                    }
                }
                _ => {
                    let file = files[pick % files.len()];
                    let path = format!("/home/u/src/{project}/{file}");
                    let (name, input, action) = if step % 8 == 3 {
                        (
                            "Edit",
                            json!({ "file_path": path, "old_string": "a", "new_string": "b" }),
                            FileAction::Edited,
                        )
                    } else {
                        ("Read", json!({ "file_path": path }), FileAction::Read)
                    };
                    push(EventKind::PostToolUse, &|e| {
                        e.tool = Some(ToolCall {
                            name: name.to_owned(),
                            use_id: Some(format!("toolu_{session}_{step}")),
                            input: Some(input.clone()),
                            output: Some(json!({ "success": true })),
                            duration_ms: Some(30),
                            failed: Some(false),
                            files: vec![FileTouch::new(path.clone(), action)],
                            ..ToolCall::default()
                        });
                    });
                }
            }
        }
    }
    events
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Records the workload into the machine's SQLite file, as the hooks would have.
fn seed(m: &Machine) -> usize {
    std::fs::create_dir_all(m.home()).unwrap();
    let events = workload();
    runtime().block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        store.append(&events).await.unwrap();
    });
    events.len()
}

/// The dream watermarks of a store (`dream:*`).
fn watermarks(m: &Machine) -> BTreeMap<String, u64> {
    runtime().block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        store.watermarks().await.unwrap().into_iter().filter(|(name, _)| name.starts_with("dream:")).collect()
    })
}

/// Each event's store position and the watermark name of its group.
fn event_groups(m: &Machine) -> Vec<(u64, String)> {
    runtime().block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        let stored = store.events_after(0, 100_000).await.unwrap();
        stored
            .into_iter()
            .map(|s| {
                let group = match s.event.project.as_deref() {
                    Some(project) if !project.is_empty() => format!("dream:project:{project}"),
                    _ => "dream:user".to_owned(),
                };
                (s.position, group)
            })
            .collect()
    })
}

/// The share of events past their group's watermark.
fn remaining(groups: &[(u64, String)], watermarks: &BTreeMap<String, u64>) -> f64 {
    let left =
        groups.iter().filter(|(position, group)| *position > watermarks.get(group).copied().unwrap_or(0));
    left.count() as f64 / groups.len().max(1) as f64
}

/// Every note as JSON without its write time, keyed by scope and path; fails on unparsable output.
fn notes(m: &Machine) -> BTreeMap<String, Value> {
    let listed = m.run_json(&["notes", "list"]);
    let mut out = BTreeMap::new();
    for mut note in listed.as_array().expect("notes list --json is an array").iter().cloned() {
        let meta = note["meta"].as_object_mut().expect("every note has frontmatter");
        assert!(meta.remove("updated").is_some(), "every note has an update time: {note}");
        let key = format!("{}/{}", note["meta"]["scope"], note["path"].as_str().unwrap());
        out.insert(key, note);
    }
    out
}

fn integrity(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let verdict: String = conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)).unwrap();
    assert_eq!(verdict, "ok", "the SQLite file is damaged");
}

fn copy_store(from: &Machine, to: &Machine) {
    std::fs::create_dir_all(to.home()).unwrap();
    for entry in std::fs::read_dir(from.home()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.home().join(entry.file_name())).unwrap();
        }
    }
}

fn dream_args() -> Vec<&'static str> {
    vec!["dream", "--chunk-size", CHUNK_SIZE]
}

/// The timing of a run, measured once per test.
struct Timing {
    /// A run with nothing to do: process start and opening the store.
    startup_ms: u64,
    /// The rest of an uninterrupted run.
    work_ms: f64,
}

/// Kills dream runs on `m` at random points until one completes (or the kill budget is spent);
/// after each kill checks that the file is intact, the notes parse and no watermark went back.
/// Returns how many kills landed after some chunks committed and before the run completed.
fn kill_until_complete(m: &Machine, rng: &mut Rng, timing: &mut Timing, groups: &[(u64, String)]) -> usize {
    let mut previous = watermarks(m);
    let mut mid_run = 0;
    for round in 0..MAX_KILLS {
        // Between half the start-up time and the estimated end of the remaining work.
        let remaining_ms = (timing.work_ms * remaining(groups, &previous)) as u64;
        let delay = Duration::from_millis(
            timing.startup_ms / 2 + rng.below(timing.startup_ms / 2 + remaining_ms + 1),
        );
        let mut child = m
            .command(&dream_args())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let exited = child.try_wait().unwrap();
        if exited.is_none() {
            child.kill().unwrap();
        }
        let status = child.wait().unwrap();

        integrity(&m.db());
        notes(m);
        let now = watermarks(m);
        for (name, position) in &previous {
            let after = now.get(name).copied().unwrap_or(0);
            assert!(
                after >= *position,
                "round {round}: watermark {name} went back from {position} to {after}"
            );
        }
        let complete = now.contains_key("dream:scanned");
        eprintln!(
            "dream_kill: round {round}: {} after {delay:?}, {:.0}% of the events left{}",
            if exited.is_some() { "exited" } else { "killed" },
            remaining(groups, &now) * 100.0,
            if complete { ", complete" } else { "" }
        );
        if exited.is_some() {
            assert!(status.success() && complete, "round {round}: the dream failed: {status}");
            // Runs are faster now than the measured one (the machine is less busy): aim earlier.
            timing.work_ms /= 2.0;
        }
        if complete {
            break;
        }
        if now != previous {
            mid_run += 1;
        }
        previous = now;
    }
    mid_run
}

#[test]
fn a_dream_killed_at_random_points_ends_as_an_uninterrupted_one() {
    let seed_value =
        std::env::var("DREAM_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_SEED);
    let mut rng = Rng(seed_value);
    let pristine = Machine::new();
    let events = seed(&pristine);
    let groups = event_groups(&pristine);

    crate::support::binary();
    let empty = Machine::new();
    let started = Instant::now();
    empty.run_json(&dream_args());
    let startup = started.elapsed();

    // The reference: one uninterrupted run on an identical copy.
    let clean = Machine::new();
    copy_store(&pristine, &clean);
    let started = Instant::now();
    let report = clean.run_json(&dream_args());
    let clean_time = started.elapsed();
    let chunks = report["chunks"].as_u64().unwrap();
    assert_eq!(report["events_read"].as_u64().unwrap(), events as u64, "{report}");
    assert!(chunks >= 100, "the workload must take many chunks: {report}");
    assert!(report["failures"].as_array().unwrap().is_empty(), "{report}");
    let expected = notes(&clean);
    assert!(expected.len() >= 5, "the workload must produce several notes: {expected:?}");
    eprintln!(
        "dream_kill: seed {seed_value:#x}, {events} events, {chunks} chunks, clean run {clean_time:?}, \
         empty run {startup:?}"
    );
    let mut timing = Timing {
        startup_ms: startup.as_millis() as u64,
        work_ms: clean_time.saturating_sub(startup).as_millis().max(20) as f64,
    };

    // Trials on fresh copies until enough kills landed mid-run.
    let mut mid_run = 0;
    for trial in 0..MAX_TRIALS {
        if mid_run >= MIN_MID_RUN_KILLS {
            break;
        }
        let killed = Machine::new();
        copy_store(&pristine, &killed);
        mid_run += kill_until_complete(&killed, &mut rng, &mut timing, &groups);

        // Resume to completion; the result is the uninterrupted run's.
        let report = killed.run_json(&dream_args());
        assert!(report["failures"].as_array().unwrap().is_empty(), "trial {trial}: {report}");
        assert_eq!(
            watermarks(&killed),
            watermarks(&clean),
            "trial {trial}: the runs end at the same watermarks"
        );
        let got = notes(&killed);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "trial {trial}: the same notes exist after the killed runs"
        );
        for (key, note) in &expected {
            assert_eq!(&got[key], note, "trial {trial}: note {key} differs from the uninterrupted run");
        }
        let again = killed.run_json(&dream_args());
        assert_eq!(again["events_read"], 0, "trial {trial}: nothing is left to read: {again}");
    }
    assert!(
        mid_run >= MIN_MID_RUN_KILLS,
        "only {mid_run} kills landed between chunk commits; an uninterrupted run took {clean_time:?}"
    );
}
