//! `agent-memory doctor`: is the hook installed and in step for each harness and scope, can the
//! binary run, can the store be reached, when did each harness last send an event, and is the
//! dream keeping up (events waiting for it, its last run, whether it runs by itself), and what is
//! not recorded (paused or excluded projects).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use memory_hook::hook_log::{self, HookRun, RunOutcome};
use serde::Serialize;

use super::codex;
use super::file;
use super::json::Json;
use super::mcp;
use super::merge;
use super::plan::{self, Action, Context, Harness, Scope};
use crate::output::Clock;

/// Whether a binary can be run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum BinaryState {
    Ok,
    Missing,
    NotExecutable,
}

/// Checks that `path` (for a bare name, the file `PATH` gives) is a file with an execute bit.
pub(crate) fn binary_state(path: &Path) -> BinaryState {
    let Some(path) = super::detect::resolve(path) else { return BinaryState::Missing };
    match std::fs::metadata(path) {
        Err(_) => BinaryState::Missing,
        Ok(meta) if !meta.is_file() => BinaryState::NotExecutable,
        #[cfg(unix)]
        Ok(meta) if std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o111 == 0 => {
            BinaryState::NotExecutable
        }
        Ok(_) => BinaryState::Ok,
    }
}

/// The state of one hooks file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum State {
    /// Every event has exactly one entry of ours, running the expected binary.
    Installed,
    /// Some entries of ours, but not as install would leave them.
    Drifted,
    /// No entry of ours (or no file).
    Absent,
    /// The file cannot be read or parsed.
    Unreadable,
}

/// One hooks file's check.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FileCheck {
    pub(crate) harness: Harness,
    pub(crate) scope: Scope,
    pub(crate) path: PathBuf,
    pub(crate) state: State,
    /// What is out of step, or why the file cannot be read.
    pub(crate) details: Vec<String>,
    /// Whether `--fix` reinstalled it.
    pub(crate) fixed: bool,
}

/// Our MCP server's entry in one harness's MCP configuration.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct McpCheck {
    pub(crate) harness: Harness,
    pub(crate) scope: Scope,
    pub(crate) path: PathBuf,
    pub(crate) state: mcp::State,
    /// Whether `--fix` pointed it at this binary.
    pub(crate) fixed: bool,
}

/// The store's check.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StoreCheck {
    pub(crate) reachable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    pub(crate) sessions: usize,
    /// How prompts find notes: by words, or by words and meaning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) retrieval: Option<String>,
    /// Notes not embedded yet, with the model installed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) notes_not_embedded: Option<usize>,
    /// The dream's lease on the store, while a dream (of any machine) holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) dream_lease: Option<memory_core::Lease>,
    /// The machines that delivered events or dreamed into the store, with when each last did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) machines: Vec<(String, DateTime<Utc>)>,
}

/// The most recent event a harness sent, as the store has it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LastEvent {
    pub(crate) harness: String,
    pub(crate) at: DateTime<Utc>,
    pub(crate) session: String,
}

/// Events past the watermarks at most this many are counted.
const WAITING_CAP: u64 = 10_000;

/// The dream: whether it runs by itself, what waits for it, how its last run went.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct DreamCheck {
    /// Whether hooks start the dream (`dream.auto`, and a spending cap for an LLM provider).
    pub(crate) auto: bool,
    pub(crate) provider: String,
    pub(crate) auto_after_events: u64,
    /// Events past the dream's watermarks (`None` when the store could not be read).
    pub(crate) waiting: Option<u64>,
    /// Whether more than `waiting` events wait (counting stops there).
    pub(crate) waiting_more: bool,
    /// The last run, from `<data_dir>/dream/last.json`.
    pub(crate) last: Option<memory_hook::autodream::DreamRun>,
    /// Who runs a dream now, when one runs.
    pub(crate) running: Option<memory_hook::autodream::Holder>,
}

/// Everything `doctor` found.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Report {
    pub(crate) binary: PathBuf,
    pub(crate) binary_state: BinaryState,
    pub(crate) files: Vec<FileCheck>,
    /// Our MCP server in each harness that takes MCP servers.
    pub(crate) mcp: Vec<McpCheck>,
    pub(crate) store: StoreCheck,
    pub(crate) dream: DreamCheck,
    /// Delivery to a server store: the backlog, its lag and the forwarder.
    pub(crate) delivery: memory_hook::forward::ForwardStatus,
    pub(crate) capture: super::capture::CaptureCheck,
    /// Projects that share their notes through their repository (`[share] notes`).
    pub(crate) shared: Vec<memory_hook::share::Sharing>,
    /// The team server some projects' notes are shared through (`[team]`).
    pub(crate) team: Option<memory_hook::team::TeamStatus>,
    pub(crate) last_events: Vec<LastEvent>,
    /// The last hook run of each harness, from the hook log.
    pub(crate) last_hooks: Vec<HookRun>,
    /// Things to look at that do not stop the hooks.
    pub(crate) warnings: Vec<String>,
    /// Things that keep memory from working; any makes `doctor` exit 1.
    pub(crate) problems: Vec<String>,
}

/// Runs every check; with `fix`, reinstalls drifted files first.
pub(crate) async fn check(
    ctx: &Context,
    harnesses: &[Harness],
    fix: bool,
    config: anyhow::Result<memory_hook::config::Config>,
) -> Report {
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let binary_state = binary_state(&ctx.binary);
    if binary_state != BinaryState::Ok {
        problems.push(format!("the hook binary {} is {}", ctx.binary.display(), describe(binary_state)));
    }
    let mut scopes = vec![Scope::User];
    if ctx.project.is_some() {
        scopes.push(Scope::Project);
    }
    let mut files = Vec::new();
    let mut mcp_checks = Vec::new();
    for &harness in harnesses {
        for &scope in &scopes {
            let ctx = &ctx.in_scope(scope);
            let mut checked = check_file(ctx, harness, scope);
            if fix && checked.state == State::Drifted {
                match reinstall(ctx, harness, scope) {
                    Ok(()) => {
                        checked = check_file(ctx, harness, scope);
                        checked.fixed = true;
                    }
                    Err(e) => checked.details.push(format!("--fix failed: {e:#}")),
                }
            }
            match checked.state {
                State::Drifted => problems.push(format!(
                    "the {} hooks in {} drifted: run `agent-memory doctor --fix`",
                    harness.title(),
                    checked.path.display()
                )),
                State::Unreadable => {
                    problems.push(format!("{}: {}", checked.path.display(), checked.details.join("; ")))
                }
                State::Installed | State::Absent => {}
            }
            if harness == Harness::Codex && checked.state != State::Absent {
                codex_flag(ctx, scope, fix, &mut problems, &mut warnings);
            }
            if checked.state != State::Absent
                && let Ok(Some(text)) = file::read(&checked.path).map(|c| c.text)
                && let Some(problem) = super::plan::hooks_off(harness, &checked.path, &text)
            {
                problems.push(problem);
            }
            if let Some(found) = check_mcp(ctx, harness, scope, fix, &mut warnings) {
                match &found.state {
                    mcp::State::Drifted { command } => problems.push(format!(
                        "the {} MCP server in {} runs {command}: run `agent-memory doctor --fix`",
                        harness.title(),
                        found.path.display()
                    )),
                    mcp::State::Absent if checked.state == State::Installed => warnings.push(format!(
                        "{} hooks are installed but not the MCP server ({}): `agent-memory install --harness {}` \
                         registers it",
                        harness.title(),
                        found.path.display(),
                        harness.name()
                    )),
                    _ => {}
                }
                mcp_checks.push(found);
            }
            files.push(checked);
        }
    }
    if !files.is_empty() && files.iter().all(|f| f.state == State::Absent) {
        problems.push("no harness runs agent-memory: run `agent-memory install --harness all`".to_owned());
    }
    for f in files.iter().filter(|f| f.state == State::Installed) {
        if let Some(other) = files.iter().find(|o| {
            o.harness == f.harness
                && o.scope != f.scope
                && o.scope == Scope::Project
                && o.state == State::Installed
        }) {
            warnings.push(format!(
                "{} hooks are installed in both {} and {}: each event is recorded twice",
                f.harness.title(),
                f.path.display(),
                other.path.display()
            ));
        }
    }
    if let Err(e) = &config {
        problems.push(format!("{e:#}; until it is fixed, hooks run with the default settings"));
    }
    let data = config
        .as_ref()
        .ok()
        .cloned()
        .unwrap_or_else(|| memory_hook::Config::fallback(&memory_hook::Env::process()));
    let delivery = memory_hook::forward::status(&data, &memory_hook::Env::process());
    journal_findings(&data, &delivery, &mut warnings, &mut problems);
    let config_ok = config.is_ok();
    let (store, last_events, log_dir, waiting) = check_store(config).await;
    if let Some(error) = store.error.as_ref().filter(|_| config_ok) {
        problems.push(format!("the store is unreachable: {error}"));
    }
    if let Some(n) = store.notes_not_embedded.filter(|&n| n > 0) {
        warnings.push(format!("{n} notes are not embedded yet, so prompts find them by their words alone: run `agent-memory model index`"));
    }
    let dream = dream_findings(&data, waiting, &mut warnings, &mut problems);
    let capture = super::capture::check(&data, &mut problems);
    let shared = memory_hook::share::sharing(&data);
    let team = memory_hook::team::status(&data);
    if let Some(error) = team.as_ref().and_then(|t| t.last.as_ref()).and_then(|l| l.error.as_ref()) {
        warnings.push(format!("the last team sync failed: {error}"));
    }
    let last_hooks = log_dir.map(|dir| hook_log::last_runs(&dir.join("hook.log"))).unwrap_or_default();
    for hook in last_hooks.iter().filter(|h| h.outcome == RunOutcome::Failed) {
        warnings.push(format!(
            "the last {} hook run ({}) failed: {}",
            Harness::title_of(&hook.harness),
            crate::output::clock().minute(hook.at),
            hook.summary
        ));
    }
    Report {
        binary: ctx.binary.clone(),
        binary_state,
        files,
        mcp: mcp_checks,
        store,
        dream,
        delivery,
        capture,
        shared,
        team,
        last_events,
        last_hooks,
        warnings,
        problems,
    }
}

/// Whether the dream keeps up: a backlog that no dream will take (automatic dreams off, or an LLM
/// provider without a spending cap) is a problem; a last run that failed or timed out is a warning.
pub(crate) fn dream_findings(
    config: &memory_hook::Config,
    waiting: Option<(u64, bool)>,
    warnings: &mut Vec<String>,
    problems: &mut Vec<String>,
) -> DreamCheck {
    let dream = &config.dream;
    let check = DreamCheck {
        auto: dream.auto && dream.auto_allowed(),
        provider: dream.provider_name().to_owned(),
        auto_after_events: dream.auto_after_events,
        waiting: waiting.map(|(n, _)| n),
        waiting_more: waiting.is_some_and(|(_, more)| more),
        last: memory_hook::autodream::DreamRun::last(config),
        running: memory_hook::DreamLock::holder(&config.dream_dir()),
    };
    let backlog = check.waiting.unwrap_or(0);
    let large = backlog >= dream.auto_after_events.max(1);
    let count = format!("{backlog}{}", if check.waiting_more { "+" } else { "" });
    if !dream.auto && large {
        problems.push(format!(
            "{count} events wait for the dream and it does not run by itself (`dream.auto = false`): \
             run `agent-memory dream`, or set `dream.auto = true`"
        ));
    } else if dream.auto && !dream.auto_allowed() {
        let message = format!(
            "`dream.provider = \"{}\"` has no spending cap, so hooks never start the dream: set \
             `dream.max_tokens` or `dream.max_cost_usd`, or run `agent-memory dream`",
            check.provider
        );
        if large {
            problems.push(format!("{count} events wait for the dream; {message}"));
        } else {
            warnings.push(message);
        }
    }
    if let Some(last) = &check.last {
        use memory_hook::autodream::RunOutcome;
        if matches!(last.outcome, RunOutcome::Failed | RunOutcome::TimedOut) {
            warnings.push(format!(
                "the last dream ({}) {}: {}",
                crate::output::clock().minute(last.started_at),
                if last.outcome == RunOutcome::Failed { "failed" } else { "reached its time limit" },
                last.detail.as_deref().unwrap_or("see dream.log")
            ));
        }
    }
    check
}

/// Events waiting in the journals, set aside, unreadable or written to the fallback folder, and a
/// paused store.
fn journal_findings(
    config: &memory_hook::Config,
    delivery: &memory_hook::forward::ForwardStatus,
    warnings: &mut Vec<String>,
    problems: &mut Vec<String>,
) {
    // In forward mode every event passes through the journal: a backlog is news only once it lags.
    let lagging = delivery.lag_ms.is_some_and(|ms| ms >= FORWARD_LAG_WARNING_MS);
    if delivery.forwarding && lagging {
        let last = delivery.last.as_ref().and_then(|run| run.error.as_deref()).unwrap_or("none recorded");
        warnings.push(format!(
            "{} events wait for the forwarder, the oldest for {}s (last delivery error: {last}): \
             `agent-memory sync --wait` delivers them",
            delivery.backlog,
            delivery.lag_ms.unwrap_or(0) / 1000
        ));
    }
    let journals = crate::cmd::sync::journals(config);
    for (i, journal) in journals.iter().enumerate() {
        let pending = journal.pending().map(|p| p.len()).unwrap_or(0);
        let large = journal.set_aside().map(|p| p.len()).unwrap_or(0);
        let corrupt = std::fs::read_dir(journal.dir())
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "corrupt"))
                    .count()
            })
            .unwrap_or(0);
        let dir = journal.dir().display();
        if i > 0 && pending > 0 {
            problems.push(format!(
                "{pending} events were journaled in the fallback folder {dir} because the data folder {} could not \
                 be written: make it writable, then run `agent-memory sync`",
                config.data_dir().display()
            ));
        } else if pending > large && !delivery.forwarding {
            warnings.push(format!(
                "{} events wait in the journal {dir}: run `agent-memory sync`",
                pending - large
            ));
        }
        if i == 0 && large > 0 {
            warnings.push(format!(
                "{large} large events are set aside in {dir}/large (hooks leave them to sync): run `agent-memory sync`"
            ));
        }
        if corrupt > 0 {
            warnings
                .push(format!("{corrupt} unreadable journal files were moved aside as *.corrupt in {dir}"));
        }
    }
    let health = memory_hook::health::StoreHealth::new(&config.data_dir());
    if let Some(until) = health.paused(chrono::Utc::now()) {
        warnings.push(format!(
            "hooks skip the store until {} after {} missed deadlines in a row (events are journaled meanwhile; \
             `agent-memory sync` delivers them and ends the pause)",
            crate::output::clock().minute(until),
            health.state().misses
        ));
    }
}

/// How long the oldest event may wait for the forwarder before `doctor` warns.
const FORWARD_LAG_WARNING_MS: u64 = 60_000;

/// The delivery section: in forward mode, the backlog, its lag and the forwarder's last run.
fn render_delivery(
    delivery: &memory_hook::forward::ForwardStatus,
    now: DateTime<Utc>,
    clock: &Clock,
) -> String {
    if !delivery.forwarding {
        return String::new();
    }
    let mut out = String::from("\ndelivery: forward (hooks journal, the forwarder delivers to the server)\n");
    match delivery.lag_ms {
        Some(ms) => out.push_str(&format!(
            "backlog: {} events, the oldest waiting {:.1}s\n",
            delivery.backlog,
            ms as f64 / 1000.0
        )),
        None => out.push_str("backlog: none\n"),
    }
    match &delivery.last {
        Some(run) => out.push_str(&format!(
            "last forwarder run: {}, {}\n",
            clock.ago(run.ended_at, now),
            run.log_line()
        )),
        None => out.push_str("last forwarder run: none yet\n"),
    }
    if let Some(holder) = &delivery.running {
        out.push_str(&format!("the forwarder is running now (pid {})\n", holder.pid.unwrap_or(0)));
    }
    out
}

fn describe(state: BinaryState) -> &'static str {
    match state {
        BinaryState::Ok => "ok",
        BinaryState::Missing => "missing",
        BinaryState::NotExecutable => "not executable",
    }
}

/// Checks one harness's hooks file in one scope (Cline's hook files).
pub(crate) fn check_file(ctx: &Context, harness: Harness, scope: Scope) -> FileCheck {
    if harness == Harness::Cline {
        return super::cline::check(ctx, scope);
    }
    let path = match ctx.hooks_file(harness, scope) {
        Ok(path) => path,
        Err(e) => {
            return FileCheck {
                harness,
                scope,
                path: PathBuf::new(),
                state: State::Unreadable,
                details: vec![e.to_string()],
                fixed: false,
            };
        }
    };
    let mut checked = FileCheck {
        harness,
        scope,
        path: path.clone(),
        state: State::Absent,
        details: Vec::new(),
        fixed: false,
    };
    let text = match file::read(&path) {
        Ok(current) => current.text,
        Err(e) => {
            checked.state = State::Unreadable;
            checked.details.push(format!("{e:#}"));
            return checked;
        }
    };
    let Some(text) = text else { return checked };
    if harness == Harness::Opencode {
        checked.details = super::opencode::check_plugin(ctx, &path, &text);
        checked.state = if checked.details.is_empty() { State::Installed } else { State::Drifted };
        return checked;
    }
    let spec = harness.spec();
    let found = match Json::parse(&text)
        .map_err(|e| e.to_string())
        .and_then(|doc| merge::find(&doc, spec, &ctx.binary).map_err(|e| e.to_string()))
    {
        Ok(found) => found,
        Err(e) => {
            checked.state = State::Unreadable;
            checked.details.push(format!("cannot parse: {e}"));
            return checked;
        }
    };
    if found.is_empty() {
        return checked;
    }
    let expected = ctx.command(harness);
    let mut details = Vec::new();
    for event in spec.events() {
        let ours: Vec<_> = found.iter().filter(|f| f.event == event.name).collect();
        match ours.as_slice() {
            [] => details.push(format!("{}: missing", event.name)),
            [one] if one.command != expected => details.push(format!(
                "{}: runs {} instead of {}",
                event.name,
                one.program.display(),
                ctx.binary.display()
            )),
            [_] => {}
            many => details.push(format!("{}: {} entries of ours", event.name, many.len())),
        }
    }
    for extra in found.iter().filter(|f| !spec.events().iter().any(|e| e.name == f.event)) {
        details.push(format!("{}: an event agent-memory no longer registers", extra.event));
    }
    let mut programs: Vec<&PathBuf> = found.iter().map(|f| &f.program).collect();
    programs.sort();
    programs.dedup();
    for program in programs {
        let state = binary_state(program);
        if state != BinaryState::Ok {
            details.push(format!("{} is {}", program.display(), describe(state)));
        }
    }
    checked.state = if details.is_empty() { State::Installed } else { State::Drifted };
    checked.details = details;
    checked
}

/// Checks our MCP server's entry for one harness and scope; with `fix`, points a drifted one at
/// this binary. `None` where the harness keeps no MCP servers in that scope.
fn check_mcp(
    ctx: &Context,
    harness: Harness,
    scope: Scope,
    fix: bool,
    warnings: &mut Vec<String>,
) -> Option<McpCheck> {
    let (path, format) = mcp::file(ctx, harness, scope)?;
    let read = |path: &Path| file::read(path).map_err(|e| format!("{e:#}"));
    let state = read(&path).and_then(|current| mcp::state(format, current.text.as_deref(), &ctx.binary));
    let mut check = match state {
        Ok(state) => McpCheck { harness, scope, path, state, fixed: false },
        Err(e) => {
            warnings.push(format!("cannot read the MCP servers in {}: {e}", path.display()));
            return None;
        }
    };
    if fix && matches!(check.state, mcp::State::Drifted { .. }) {
        let mut files = Vec::new();
        let fixed = plan::plan_mcp(ctx, harness, scope, Action::Install, &mut files).and_then(|_| {
            let mut whole = plan::Plan::of(Action::Install, scope, ctx.binary.clone(), files);
            plan::apply(&mut whole)
        });
        match fixed {
            Ok(()) => {
                check.state = mcp::State::Registered;
                check.fixed = true;
            }
            Err(e) => warnings.push(format!("--fix could not update {}: {e:#}", check.path.display())),
        }
    }
    Some(check)
}

fn reinstall(ctx: &Context, harness: Harness, scope: Scope) -> anyhow::Result<()> {
    let files = plan::plan_hook_files(ctx, harness, scope, Action::Install)?;
    let mut whole = plan::Plan::of(Action::Install, scope, ctx.binary.clone(), files);
    plan::apply(&mut whole)
}

/// Codex's feature flag, in the scope where its hooks are.
fn codex_flag(
    ctx: &Context,
    scope: Scope,
    fix: bool,
    problems: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    let Ok(path) = ctx.codex_config(scope) else { return };
    let current = match file::read(&path) {
        Ok(current) => current,
        Err(e) => {
            warnings.push(format!("{e:#}"));
            return;
        }
    };
    let flag = codex::plan_flag(&path, current.text.as_deref(), ctx.codex_version);
    if let Some(problem) = flag.problem {
        problems.push(problem);
    }
    if let Some(text) = flag.new_text {
        if fix {
            if let Err(e) = file::replace(&current, &text) {
                problems.push(format!("cannot set the Codex feature flag: {e:#}"));
            }
        } else {
            problems.push(format!(
                "{} needs `[features] codex_hooks = true` for this Codex: run `agent-memory doctor --fix`",
                path.display()
            ));
        }
    }
}

/// Opens the store and reads the last event of each harness, and how many events wait for the
/// dream.
async fn check_store(
    config: anyhow::Result<memory_hook::config::Config>,
) -> (StoreCheck, Vec<LastEvent>, Option<PathBuf>, Option<(u64, bool)>) {
    let unreachable = |error: String| StoreCheck {
        reachable: false,
        error: Some(error),
        sessions: 0,
        retrieval: None,
        notes_not_embedded: None,
        dream_lease: None,
        machines: Vec::new(),
    };
    let config = match config {
        Ok(config) => config,
        Err(e) => return (unreachable(format!("{e:#}")), Vec::new(), None, None),
    };
    let log_dir = Some(config.log_dir());
    let store = match crate::store::open(&config).await {
        Ok(store) => store,
        Err(e) => return (unreachable(format!("{e:#}")), Vec::new(), log_dir, None),
    };
    let sessions = match store.sessions().await {
        Ok(sessions) => sessions,
        Err(e) => return (unreachable(e.to_string()), Vec::new(), log_dir, None),
    };
    let waiting = memory_hook::dream_run::waiting(&*store, WAITING_CAP).await.ok();
    let mut last: BTreeMap<String, LastEvent> = BTreeMap::new();
    for session in &sessions {
        let newer = last.get(&session.harness).is_none_or(|seen| session.last_at > seen.at);
        if newer {
            last.insert(
                session.harness.clone(),
                LastEvent {
                    harness: session.harness.clone(),
                    at: session.last_at,
                    session: session.key.to_string(),
                },
            );
        }
    }
    let retrieval = crate::cmd::model::status(&config, &*store).await.ok();
    let dream_lease = store
        .lease(memory_hook::dream_lease::NAME)
        .await
        .ok()
        .flatten()
        .filter(|lease| lease.until > chrono::Utc::now());
    let machines = store.machines().await.unwrap_or_default();
    let check = StoreCheck {
        dream_lease,
        machines,
        reachable: true,
        error: None,
        sessions: sessions.len(),
        retrieval: retrieval.as_ref().and_then(|s| s["mode"].as_str().map(str::to_owned)),
        notes_not_embedded: retrieval
            .as_ref()
            .and_then(|s| s["notes_waiting"].as_u64())
            .and_then(|n| usize::try_from(n).ok()),
    };
    (check, last.into_values().collect(), log_dir, waiting)
}

/// The dream's lines of the report.
fn render_dream(dream: &DreamCheck, now: DateTime<Utc>, clock: &Clock) -> String {
    let mut out = if dream.auto {
        format!(
            "\ndream: runs by itself after a session ends or {} new events (provider {})\n",
            dream.auto_after_events, dream.provider
        )
    } else {
        format!("\ndream: runs only when typed, `agent-memory dream` (provider {})\n", dream.provider)
    };
    match dream.waiting {
        Some(n) => out.push_str(&format!(
            "events waiting for the dream: {n}{}\n",
            if dream.waiting_more { " or more" } else { "" }
        )),
        None => out.push_str("events waiting for the dream: unknown (the store could not be read)\n"),
    }
    match &dream.last {
        Some(run) => out.push_str(&format!(
            "last dream: {}, {}\n",
            clock.ago(run.started_at, now),
            crate::cmd::dream::describe_run(run)
        )),
        None => out.push_str("last dream: none yet\n"),
    }
    if let Some(holder) = &dream.running {
        out.push_str(&format!(
            "a dream is running now ({})\n",
            crate::cmd::dream::describe_holder(Some(holder))
        ));
    }
    out
}

/// The report as text, times in the local zone and counted back from now.
pub(crate) fn render(report: &Report) -> String {
    render_at(report, Utc::now(), crate::output::clock())
}

/// The report as text, as at `now`, times shown in `clock`'s zone.
pub(crate) fn render_at(report: &Report, now: DateTime<Utc>, clock: &Clock) -> String {
    let mut out = format!(
        "agent-memory doctor\n\nHooks run {}{}\n\n",
        report.binary.display(),
        match report.binary_state {
            BinaryState::Ok => ", which is in place and runs",
            BinaryState::Missing => ", which is MISSING",
            BinaryState::NotExecutable => ", which is NOT EXECUTABLE",
        }
    );
    let mut absent = Vec::new();
    for harness in Harness::ALL {
        let files: Vec<&FileCheck> =
            report.files.iter().filter(|f| f.harness == harness && f.state != State::Absent).collect();
        if files.is_empty() {
            if report.files.iter().any(|f| f.harness == harness) {
                absent.push(harness.title());
            }
            continue;
        }
        let mut parts = Vec::new();
        for f in &files {
            let scope = match f.scope {
                Scope::User => "",
                Scope::Project => " (this project)",
            };
            let state = match f.state {
                State::Installed => "in step",
                State::Drifted => "DRIFTED",
                State::Unreadable => "UNREADABLE",
                State::Absent => "absent",
            };
            let fixed = if f.fixed { ", reinstalled by --fix" } else { "" };
            parts.push(format!("hooks {state} in {}{scope}{fixed}", f.path.display()));
        }
        for m in report.mcp.iter().filter(|m| m.harness == harness) {
            let fixed = if m.fixed { ", updated by --fix" } else { "" };
            let at = if files.iter().any(|f| f.path == m.path) {
                "the same file".to_owned()
            } else {
                m.path.display().to_string()
            };
            match &m.state {
                mcp::State::Registered => parts.push(format!("MCP server registered in {at}{fixed}")),
                mcp::State::Drifted { command } => {
                    parts.push(format!("MCP server in {at} runs {command} (drifted)"))
                }
                mcp::State::Foreign => parts.push(format!("another MCP server holds our name in {at}")),
                mcp::State::Absent => {}
            }
        }
        out.push_str(&format!("{}: {}\n", harness.title(), parts.join("; ")));
        for f in &files {
            for detail in &f.details {
                out.push_str(&format!("  {detail}\n"));
            }
        }
        out.push_str(&format!("  {}\n", last_heard(report, harness, now, clock)));
    }
    if !absent.is_empty() {
        out.push_str(&format!("Not installed: {}\n", absent.join(", ")));
    }
    if report.store.reachable {
        let sessions = report.store.sessions;
        out.push_str(&format!(
            "\nstore: reachable, {sessions} session{} recorded\n",
            if sessions == 1 { "" } else { "s" }
        ));
        if let Some(mode) = &report.store.retrieval {
            out.push_str(&format!("retrieval: {mode}\n"));
        }
        if let Some(lease) = &report.store.dream_lease {
            out.push_str(&format!("distilling now: {}\n", memory_hook::dream_lease::describe(lease)));
        }
        if !report.store.machines.is_empty() {
            let machines: Vec<String> = report
                .store
                .machines
                .iter()
                .map(|(machine, at)| format!("{machine}, last {}", clock.ago(*at, now)))
                .collect();
            out.push_str(&format!("machines writing to it: {}\n", machines.join("; ")));
        }
    } else {
        out.push_str(&format!(
            "\nstore: UNREACHABLE ({})\n",
            report.store.error.as_deref().unwrap_or("unknown")
        ));
    }
    out.push_str(&render_delivery(&report.delivery, now, clock));
    out.push_str(&render_dream(&report.dream, now, clock));
    out.push_str(&super::capture::render(&report.capture));
    out.push_str(&render_shared(&report.shared));
    if let Some(team) = &report.team {
        out.push_str(&format!("\n{}\n", crate::cmd::team::describe(team)));
    }
    if !report.warnings.is_empty() {
        out.push_str("\nwarnings:\n");
        for w in &report.warnings {
            out.push_str(&format!("- {w}\n"));
        }
    }
    if report.problems.is_empty() {
        out.push_str("\nno problems found\n");
    } else {
        out.push_str("\nproblems:\n");
        for p in &report.problems {
            out.push_str(&format!("! {p}\n"));
        }
    }
    out
}

/// The projects that share their notes through their repository, and where.
fn render_shared(shared: &[memory_hook::share::Sharing]) -> String {
    let mut out = String::new();
    for s in shared {
        let files = s.files.map_or_else(|| "not read or written yet".to_owned(), |n| format!("{n} notes"));
        out.push_str(&format!(
            "shared notes: project {} shares its notes through its repository in {} ({files})\n",
            s.name,
            s.folder.display()
        ));
    }
    if !out.is_empty() {
        out.insert(0, '\n');
    }
    out
}

/// When a harness was last heard from, in a sentence: its last hook run from the log, else its
/// last event in the store.
fn last_heard(report: &Report, harness: Harness, now: DateTime<Utc>, clock: &Clock) -> String {
    if let Some(run) = report.last_hooks.iter().find(|h| h.harness == harness.name()) {
        return format!("last hook {}: {}", clock.ago(run.at, now), describe_hook(run));
    }
    match report.last_events.iter().find(|e| e.harness == harness.name()) {
        Some(e) => format!("last event {}, session {}", clock.ago(e.at, now), e.session),
        None => "no hook has run yet".to_owned(),
    }
}

/// A hook run in words: `stored a prompt; injected 1 note (704 characters) in 22 ms`.
pub(crate) fn describe_hook(run: &HookRun) -> String {
    let what = run.event.as_deref().map_or_else(|| "an event".to_owned(), event_in_words);
    let why = || run.summary.split_once(": ").map_or(run.summary.as_str(), |(_, why)| why).to_owned();
    let mut text = match run.outcome {
        RunOutcome::Stored => format!("stored {what}"),
        RunOutcome::Journaled => format!("journaled {what} for later delivery"),
        RunOutcome::HandedOff => format!("handed {what} to a process of its own (the deadline passed)"),
        RunOutcome::NotRecorded => format!("recorded nothing ({})", why()),
        RunOutcome::Failed => format!("FAILED: {}", run.summary),
    };
    if let Some(injected) = run.injected {
        let notes =
            if injected.notes == 1 { "1 note".to_owned() } else { format!("{} notes", injected.notes) };
        text.push_str(&format!("; injected {notes} ({} characters)", injected.chars));
    }
    if let Some(micros) = run.micros {
        match micros {
            0..1_000 => text.push_str(" in under 1 ms"),
            _ => text.push_str(&format!(" in {} ms", (micros + 500) / 1_000)),
        }
    }
    text
}

/// An event's kind as words: `a prompt`, `the end of a turn`, `a PermissionDenied event`.
fn event_in_words(kind: &str) -> String {
    let words = match kind {
        "SessionStart" => "a session start",
        "UserPromptSubmit" => "a prompt",
        "PreToolUse" => "a tool call about to run",
        "PermissionRequest" => "a permission request",
        "PostToolUse" => "a tool call",
        "PostToolUseFailure" => "a failed tool call",
        "FileEdited" => "a file edit",
        "AgentResponse" => "an answer",
        "Notification" => "a notification",
        "SubagentStart" => "a subagent's start",
        "SubagentStop" => "a subagent's end",
        "PreCompact" | "PostCompact" => "a compaction",
        "Stop" => "the end of a turn",
        "SessionEnd" => "the end of a session",
        other => {
            let article = if other.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
            return format!("{article} {other} event");
        }
    };
    words.to_owned()
}
