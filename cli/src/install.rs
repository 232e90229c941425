//! `agent-memory install`, `uninstall` and `doctor`: wire our hook into Claude Code, Codex, Cursor,
//! Gemini CLI, Copilot CLI, Qwen Code, Factory droid, OpenCode (a plugin of ours) and Cline, take it
//! out again, and check that it is in place and working.
//!
//! Every harness but Cline keeps its hooks in a JSON file the user may also edit by hand, so the
//! installer changes one handler at a time and leaves everything else as it found it; OpenCode
//! loads one plugin file of ours, and Cline runs one file per event from a hooks folder: only the
//! files of ours are ever written or removed (see `docs/install.md` for what is written where and the exact merge, removal and formatting rules).

mod capture;
mod claude;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod detect;
mod doctor;
mod droid;
mod entries;
mod file;
mod gemini;
mod json;
mod mcp;
mod merge;
mod opencode;
mod plan;
mod qwen;
mod report;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use plan::{Action, Context, ModelOutcome};
pub(crate) use plan::{Harness, Scope};

/// A harness named on the command line, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum HarnessChoice {
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
    /// Cursor.
    Cursor,
    /// Gemini CLI.
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// Qwen Code.
    Qwen,
    /// Factory droid.
    Droid,
    /// OpenCode.
    Opencode,
    /// Cline CLI.
    Cline,
    /// All of them.
    All,
}

/// Arguments of `install` and `uninstall`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct InstallArgs {
    /// Which harness: claude, codex, cursor, gemini, copilot, qwen, droid, opencode, cline or all
    /// (repeat or separate with commas). Default: for `install`, the harnesses found on this machine
    /// (their configuration folder or their program on PATH); for `uninstall`, all.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub(crate) harness: Vec<HarnessChoice>,
    /// `user` (your home folder: every project) or `project` (the project's own files).
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub(crate) scope: Scope,
    /// Project root for `--scope project` (default: the git top level of the current folder).
    #[arg(long, value_name = "DIR")]
    pub(crate) project: Option<PathBuf>,
    /// Show what would change (with a diff) and write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// The binary the hooks run (default: this executable).
    #[arg(long, value_name = "PATH")]
    pub(crate) binary: Option<PathBuf>,
    /// Do not register agent-memory's MCP server (`agent-memory mcp`) in the harnesses' MCP
    /// configuration (`uninstall` removes it regardless).
    #[arg(long)]
    pub(crate) no_mcp: bool,
    /// Do not set up the local embedding model that lets prompts find notes by meaning (set up
    /// by default; `agent-memory model install` adds it later).
    #[arg(long)]
    pub(crate) no_model: bool,
    /// List every event, every file's change and every harness's notes (trust steps, flags).
    #[arg(long, short = 'v')]
    pub(crate) verbose: bool,
}

/// Arguments of `doctor`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct DoctorArgs {
    /// Reinstall hooks that drifted (another binary path, missing or duplicate events).
    #[arg(long)]
    pub(crate) fix: bool,
    /// Check only these harnesses (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub(crate) harness: Vec<HarnessChoice>,
    /// Project root to check besides the user files (default: the git top level of the current
    /// folder, when there is one).
    #[arg(long, value_name = "DIR")]
    pub(crate) project: Option<PathBuf>,
    /// The binary the hooks should run (default: this executable).
    #[arg(long, value_name = "PATH")]
    pub(crate) binary: Option<PathBuf>,
}

/// `agent-memory install`: adds our hook to each chosen harness's configuration, then sets up the
/// embedding model.
pub(crate) async fn install(args: &InstallArgs, json: bool) -> anyhow::Result<ExitCode> {
    run(args, json, Action::Install).await
}

/// `agent-memory uninstall`: removes our hook, and only ours, from each chosen harness.
pub(crate) async fn uninstall(args: &InstallArgs, json: bool) -> anyhow::Result<ExitCode> {
    run(args, json, Action::Uninstall).await
}

/// `agent-memory doctor`: reports what is installed where, whether it is in step, whether the
/// binary and the store work and when each harness was last heard from. Exits 1 when something is
/// wrong.
pub(crate) async fn doctor(args: &DoctorArgs, json: bool) -> anyhow::Result<ExitCode> {
    let ctx = context(args.project.as_deref(), args.binary.as_deref(), false)?;
    let harnesses = if args.harness.is_empty() { Harness::ALL.to_vec() } else { chosen(&args.harness) };
    let report =
        doctor::check(&ctx, &harnesses, args.fix, memory_hook::config::Config::load().map_err(Into::into))
            .await;
    if json {
        crate::output::json(&report)?;
    } else {
        crate::output::print(&doctor::render(&report));
    }
    Ok(if report.problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

async fn run(args: &InstallArgs, json: bool, action: Action) -> anyhow::Result<ExitCode> {
    let mut ctx = context(args.project.as_deref(), args.binary.as_deref(), args.scope == Scope::Project)?;
    ctx.mcp = !args.no_mcp;
    if action == Action::Install && !args.dry_run {
        check_binary(&ctx.binary)?;
    }
    let mut found_notes = Vec::new();
    let mut not_found = Vec::new();
    let harnesses = match (args.harness.is_empty(), action) {
        (false, _) => chosen(&args.harness),
        (true, Action::Uninstall) => Harness::ALL.to_vec(),
        (true, Action::Install) => {
            let (found, notes) = found_here(&ctx, args.scope)?;
            found_notes = notes;
            not_found = Harness::ALL.into_iter().filter(|h| !found.contains(h)).collect();
            found
        }
    };
    let mut plan = plan::plan(&ctx, &harnesses, args.scope, action)?;
    plan.notes.splice(0..0, found_notes);
    plan.not_found = not_found;
    if action == Action::Install && args.scope == Scope::Project {
        plan.notes.push(portability_note(&ctx));
    }
    plan.dry_run = args.dry_run;
    if !args.dry_run {
        plan::apply(&mut plan)?;
    }
    if action == Action::Install && !args.dry_run {
        record_git_email();
    }
    let config = memory_hook::Config::load()
        .unwrap_or_else(|_| memory_hook::Config::fallback(&memory_hook::Env::process()));
    if action == Action::Install {
        plan.owner = memory_hook::owner::of(&config).map(str::to_owned);
    }
    match action {
        Action::Install if args.no_model => plan.model = Some(ModelOutcome::Skipped),
        Action::Install if args.dry_run => {
            let dir = config.model_dir();
            plan.model = Some(if memory_embed::is_installed(&dir) {
                ModelOutcome::Present { dir }
            } else {
                ModelOutcome::Planned { dir }
            });
        }
        Action::Install => plan.model = Some(set_up_model(&config, json).await),
        Action::Uninstall => {
            plan.data_dir = Some(config.data_dir());
            plan.on_server = config.store.backend == memory_hook::Backend::Neo4j;
        }
    }
    if action == Action::Uninstall {
        // The rules files the hooks wrote (Cursor's, Cline's): every project's for the user scope,
        // this project's for the project scope.
        let only_under = if args.scope == Scope::Project { ctx.project.as_deref() } else { None };
        for adapter in harnesses.iter().filter_map(|h| crate::cmd::adapter(h.name())) {
            plan.context_files.extend(memory_hook::context_file::remove_all(
                adapter,
                &config.data_dir(),
                only_under,
                args.dry_run,
            )?);
        }
    }
    if json {
        crate::output::json(&plan)?;
    } else {
        crate::output::print(&report::render(&plan, args.verbose));
    }
    Ok(ExitCode::SUCCESS)
}

/// Records git's global `user.email` in agent-memory's config file, so that hooks, which start
/// no process, stamp every event with its owner (`memory_hook::owner`). A machine without one,
/// or a config file that cannot be edited, records nothing: the install goes on.
fn record_git_email() {
    if let Some(email) = memory_hook::owner::git_email(None) {
        let path = memory_hook::paths::config_file(&memory_hook::Env::process());
        let _ = memory_hook::owner::record_git_email(&path, &email);
    }
}

/// Installs the embedding model when it is not there yet (see [`crate::cmd::model::fetch`] for
/// where it comes from) and embeds the notes already stored. A failure, such as no network, is
/// reported and leaves the rest of the install as it is.
async fn set_up_model(config: &memory_hook::Config, json: bool) -> ModelOutcome {
    let dir = config.model_dir();
    if memory_embed::is_installed(&dir) {
        return ModelOutcome::Present { dir };
    }
    if !json {
        crate::output::error(&format!(
            "setting up the embedding model ({}, {} MB)…",
            memory_embed::MODEL_NAME,
            crate::cmd::model::DOWNLOAD_MB
        ));
    }
    let installed = match crate::cmd::model::fetch(&dir).await {
        Ok(installed) => installed,
        Err(e) => {
            let reason = format!("{e:#}");
            let reason = reason.lines().next().unwrap_or_default().to_owned();
            return ModelOutcome::Failed { reason };
        }
    };
    let notes = match crate::store::open(config).await {
        Ok(store) => memory_hook::dream_run::embed(config, store.as_ref(), 0)
            .await
            .ok()
            .flatten()
            .map_or(0, |r| r.notes.notes),
        Err(_) => 0,
    };
    ModelOutcome::Installed { model: installed.model, dir, notes }
}

/// The harnesses found on this machine, with a note on what was found or skipped for each. Fails
/// when there is none.
fn found_here(ctx: &Context, scope: Scope) -> anyhow::Result<(Vec<Harness>, Vec<plan::Note>)> {
    let detections = detect::detect(ctx, scope);
    let found: Vec<Harness> = detections.iter().filter(|d| d.found.is_some()).map(|d| d.harness).collect();
    if found.is_empty() {
        let looked: Vec<String> =
            detections.iter().map(|d| format!("  {}: {}", d.harness.name(), d.looked_for)).collect();
        anyhow::bail!(
            "no harness found on this machine; looked for\n{}\nname one with --harness claude|codex|cursor|gemini|copilot|qwen|droid|opencode|cline|all",
            looked.join("\n")
        );
    }
    let notes = detections
        .iter()
        .map(|d| plan::Note {
            harness: Some(d.harness),
            problem: false,
            text: match &d.found {
                Some(path) => format!("found {} ({})", d.harness.name(), path.display()),
                None => format!(
                    "skipped {}: no {}; `agent-memory install --harness {}` installs it anyway",
                    d.harness.name(),
                    d.looked_for,
                    d.harness.name()
                ),
            },
        })
        .collect();
    Ok((found, notes))
}

/// What the hooks in a project's files run, and whether that works on a teammate's machine.
fn portability_note(ctx: &Context) -> plan::Note {
    let text = if ctx.on_path {
        format!(
            "the project's files run `{}` by name, which is {} here: they work on every machine with \
             agent-memory on its PATH",
            detect::BINARY_NAME,
            ctx.binary.display()
        )
    } else {
        format!(
            "the project's files run {} by its full path, because `{}` on PATH is not this binary: \
             a teammate needs it at that same path. Put agent-memory on PATH and install again for \
             files that work on every machine",
            ctx.binary.display(),
            detect::BINARY_NAME
        )
    };
    plan::Note { harness: None, problem: false, text }
}

/// The harnesses a list of choices names, each once, in a fixed order.
fn chosen(choices: &[HarnessChoice]) -> Vec<Harness> {
    let mut out: Vec<Harness> = choices
        .iter()
        .flat_map(|c| match c {
            HarnessChoice::Claude => vec![Harness::Claude],
            HarnessChoice::Codex => vec![Harness::Codex],
            HarnessChoice::Cursor => vec![Harness::Cursor],
            HarnessChoice::Gemini => vec![Harness::Gemini],
            HarnessChoice::Copilot => vec![Harness::Copilot],
            HarnessChoice::Qwen => vec![Harness::Qwen],
            HarnessChoice::Droid => vec![Harness::Droid],
            HarnessChoice::Opencode => vec![Harness::Opencode],
            HarnessChoice::Cline => vec![Harness::Cline],
            HarnessChoice::All => Harness::ALL.to_vec(),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Builds the context from the environment and the arguments.
fn context(project: Option<&Path>, binary: Option<&Path>, need_project: bool) -> anyhow::Result<Context> {
    let home = dirs::home_dir().context("cannot tell the home folder (set HOME)")?;
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".codex"));
    let copilot_home = std::env::var_os("COPILOT_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".copilot"));
    let opencode_home = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".config"))
        .join("opencode");
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let project = match project {
        Some(dir) => Some(
            std::fs::canonicalize(dir)
                .with_context(|| format!("--project {} is not a folder", dir.display()))?,
        ),
        None => git_top_level(&cwd),
    };
    if need_project && project.is_none() {
        anyhow::bail!("{} is not inside a git repository; pass --project DIR", cwd.display());
    }
    let binary = match binary {
        Some(path) => cwd.join(path),
        None => {
            std::env::current_exe().context("cannot tell where this executable is; pass --binary PATH")?
        }
    };
    Ok(Context {
        on_path: detect::name_runs(&binary),
        mcp: true,
        home,
        codex_home,
        copilot_home,
        opencode_home,
        project,
        binary,
        codex_version: codex::detect_version(),
    })
}

/// The top level of the git work tree that holds `dir` (the folder with `.git`, a folder or a
/// worktree's file).
fn git_top_level(dir: &Path) -> Option<PathBuf> {
    let dir = std::fs::canonicalize(dir).ok()?;
    dir.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf)
}

/// Refuses to point hooks at a binary that is not there or cannot run.
fn check_binary(binary: &Path) -> anyhow::Result<()> {
    match doctor::binary_state(binary) {
        doctor::BinaryState::Ok => Ok(()),
        doctor::BinaryState::Missing => anyhow::bail!("the hook binary {} does not exist", binary.display()),
        doctor::BinaryState::NotExecutable => {
            anyhow::bail!("the hook binary {} is not an executable file", binary.display())
        }
    }
}
