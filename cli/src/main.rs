//! The `agent-memory` binary: hooks for Claude Code, Codex, Cursor, Gemini CLI, Copilot CLI, Qwen
//! Code, Factory droid, OpenCode and Cline, and commands to inspect, distill and move the memory
//! they share.

mod cmd;
mod help;
mod hook;
mod install;
mod mcp;
mod output;
#[cfg(test)]
mod schemas;
mod store;
mod tree;

use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

const ABOUT: &str = "One memory for your AI coding agents, owned by you.";

const LONG_ABOUT: &str = "\
One memory for your AI coding agents, owned by you.

agent-memory plugs into the lifecycle hooks of Claude Code, Codex, Cursor, Gemini CLI,
Copilot CLI, Qwen Code, Factory droid, OpenCode (through a plugin of ours) and Cline:
  1. capture  every hook event is redacted and appended to your store (a few ms, never blocking);
  2. dream    when a session ends, the hook starts the dream in the background (or type
              `agent-memory dream`): events become small Markdown notes
              (profile/…, tools/…, project/<name>/…), merged and rewritten, never appended;
  3. inject   at session start and on each prompt, the hook hands the agent the notes that matter.
Switch harness mid-project and carry on: the memory follows you, not the tool.

The store is an embedded SQLite file by default (no setup); set `[store] backend = \"neo4j\"`
in the config file or AGENT_MEMORY_STORE=neo4j with NEO4J_URI/NEO4J_USERNAME/NEO4J_PASSWORD
to use Neo4j.

Config file: $AGENT_MEMORY_CONFIG, else ~/.config/agent-memory/config.toml (all keys optional).
Data (database, journal, logs): $AGENT_MEMORY_HOME, else ~/.local/share/agent-memory.";

#[derive(Debug, Parser)]
#[command(name = "agent-memory", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// Show times in UTC instead of the local time zone (`TZ`, else the system's).
    #[arg(long, global = true)]
    utc: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Handle one hook event: read the harness's JSON on stdin, answer on stdout.
    ///
    /// Wire this into a harness's hook configuration for every lifecycle event. The harness is
    /// named on the command line, never guessed. Always exits non-blocking.
    Hook {
        /// The harness that runs the hook: claude, codex, cursor, gemini, copilot, qwen, droid,
        /// opencode or cline.
        harness: String,
    },
    /// List recorded sessions, most recent first, a page at a time.
    Sessions {
        /// Show at most this many (0: all of them).
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Skip this many of the most recent first (the next page starts at the last one's count).
        #[arg(long, default_value_t = 0)]
        offset: usize,
    },
    /// Show one session's events in order: prompts, tool calls (failures with their error), and
    /// the notes each injection carried.
    Timeline {
        /// The session: its key as `sessions` prints it (`claude:<id>`), a unique start of it
        /// (`claude:d571`, `d571`), or `last` (the most recent session).
        session: String,
        /// With `last`: the most recent session of this folder's project.
        #[arg(long)]
        here: bool,
        /// Show at most this many events (0: all of them).
        #[arg(long, default_value_t = 1000)]
        limit: usize,
        /// Start after this event number (the next page starts at the last one shown).
        #[arg(long, default_value_t = 0)]
        after: u64,
    },
    /// Notes: list, show, add, edit (in $EDITOR), delete.
    #[command(subcommand)]
    Notes(cmd::NotesCommand),
    /// Search notes and recorded history (prompts, commands, errors, files) by relevance to
    /// free text: "what did we try last time?".
    ///
    /// Each hit shows its relevance (1.00 for the best of its list), how many of the words asked
    /// for it holds, and an excerpt. `--harness`, `--session`, `--since` and `--until` look at
    /// history only (notes have none of them); `--project` limits both; `--scope` alone searches
    /// notes only.
    Search {
        /// What to look for; any text, never parsed as query syntax.
        query: String,
        /// Limit notes to a scope (`user`, `project` for this folder's, `project:<name or id>`,
        /// `session:<key>`); repeatable.
        #[arg(long)]
        scope: Vec<String>,
        #[command(flatten)]
        history: cmd::history::HistoryArgs,
        /// Only notes.
        #[arg(long = "notes", conflicts_with = "events_only")]
        notes_only: bool,
        /// Only recorded events.
        #[arg(long = "events")]
        events_only: bool,
        /// Most results of each kind.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Delete something for good: a session, an event, the events holding a text, a time range,
    /// a project, a note or everything (--all), from the store, its indexes, the journal and the
    /// logs. Asks first unless --yes; --dry-run shows what would go.
    Forget(cmd::forget::ForgetArgs),
    /// List the known projects (name, id, folders, remotes, last seen), rename or merge them.
    Projects {
        #[command(subcommand)]
        command: Option<cmd::projects::ProjectsCommand>,
    },
    /// Distill recorded events into notes now (deterministic by default, or an LLM of your
    /// choice). Hooks also start it by themselves after a session ends.
    Dream(cmd::dream::DreamArgs),
    /// Stop recording sessions: all of them, or one project's (`--project NAME`, `--here`), for a
    /// while (`--for 2h`) or until `resume`. Paused sessions leave nothing in the store.
    Pause(cmd::capture::PauseArgs),
    /// Record sessions again (all, or one project's).
    Resume(cmd::capture::Target),
    /// Delete events older than `[retention] events_days` (or `--older-than`) that the dream has
    /// already distilled; notes and their sources' ids are kept. Dream runs do it too.
    Prune(cmd::prune::PruneArgs),
    /// Deliver events waiting in the local journal (with a server store in forward mode, every
    /// event waits there until the forwarder or `sync` delivers it; otherwise, those written
    /// while the store was unreachable). `--wait` keeps at it until nothing waits.
    Sync(cmd::sync::SyncArgs),
    /// Install, check or remove the local embedding model that lets prompts find notes by
    /// meaning, not only by their words.
    #[command(subcommand)]
    Model(cmd::model::ModelCommand),
    /// Show what a text would become once redacted, and what was redacted by rule (the built-in
    /// rules and those of the config's `[redact]` section).
    Redact {
        /// The file to read, or `-` for stdin.
        #[arg(long, value_name = "FILE|-")]
        check: String,
    },
    /// Replay a multi-harness story through the real hook into a fresh store and show what each
    /// harness is given.
    Demo {
        /// Keep the demo's data in this folder instead of a temporary one.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Show where configuration and data live, and the effective settings.
    Config,
    /// Copy sessions, events (order kept), notes with history and watermarks between stores
    /// (SQLite ↔ Neo4j). Resumable: rerun after an interruption.
    Migrate(cmd::migrate::MigrateArgs),
    /// Serve the memory to MCP clients (Claude Code, Codex, Cursor, Gemini CLI, Copilot CLI, Qwen
    /// Code, Factory droid, OpenCode, Cline) over stdio: search, read, write, delete and explain
    /// notes, show session timelines.
    Mcp,
    /// Write every note to a folder of Markdown files, one per note (opens in Obsidian).
    Export {
        /// The folder to write: new, empty, or an earlier export with no unimported edits.
        dir: std::path::PathBuf,
    },
    /// Read an exported folder back into the store; files edited by hand win and are marked
    /// `generator: human`. Notes whose files were removed are kept unless `--delete-missing`.
    Import {
        /// The exported folder.
        dir: std::path::PathBuf,
        /// Also delete notes whose files were removed from the folder since the export.
        #[arg(long)]
        delete_missing: bool,
    },
    /// Share this folder's project's notes through its repository, for teams without a server:
    /// `on` (writes `[share] notes` in `.agent-memory.toml` and the notes to that folder), `off`,
    /// `status`, `write` (the folder now). Every clone's hooks read the folder; the dream keeps
    /// it up to date and never commits (docs/team.md).
    #[command(subcommand)]
    Share(cmd::share::ShareCommand),
    /// Share some projects' notes with a team through a Neo4j server: `join <uri>`, `add`,
    /// `remove`, `sync`, `status`, `leave`; profiles, sessions and events stay here (docs/team.md).
    ///
    /// Only the projects you add have their notes published, each person's under their name; the
    /// others' are brought in at each dream and `sync`, every item saying who noted it and when.
    #[command(subcommand)]
    Team(cmd::team::TeamCommand),
    /// Add agent-memory's hooks to Claude Code, Codex, Cursor, Gemini CLI, Copilot CLI, Qwen Code,
    /// Factory droid, OpenCode and/or Cline (merging, never clobbering).
    Install(install::InstallArgs),
    /// Remove agent-memory's hooks, and only them.
    Uninstall(install::InstallArgs),
    /// Check hooks, binary and store, per harness and per file.
    Doctor(install::DoctorArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    ///
    /// bash: `agent-memory completions bash > ~/.local/share/bash-completion/completions/agent-memory`;
    /// zsh: `agent-memory completions zsh > "${fpath[1]}/_agent-memory"`;
    /// fish: `agent-memory completions fish > ~/.config/fish/completions/agent-memory.fish`.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) to stdout, or write one page per command into a folder.
    ///
    /// `agent-memory man | man -l -` reads it; `agent-memory man --dir ~/.local/share/man/man1`
    /// installs `agent-memory.1` and `agent-memory-<command>.1` for `man agent-memory-search`.
    Man {
        /// Write the pages into this folder instead of printing the main one.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Browse your memory in a local web viewer: sessions live as hooks record them, notes with
    /// their history and sources, search, what an injection would carry; edit, delete, forget.
    ///
    /// Listens on 127.0.0.1 port 7767 (`[viewer] port` or `--port` to choose another, `--bind`
    /// another address) and prints the address to open, with the token every request needs; the
    /// token is kept in the data folder for you alone, so a bookmark keeps working until
    /// `--rotate-token`. Opens the browser unless `--no-open`.
    Ui(cmd::ui::UiArgs),
}

fn main() -> ExitCode {
    let started = Instant::now();
    // `hook <harness>` runs on every event of every session: it is recognised before the whole
    // command line parser is built, and no mistake on its command line may exit with a code a
    // harness reads as "block". Help goes through the parser.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "hook") && !args.iter().any(|a| a == "--help" || a == "-h") {
        return hook::main(started, &args[1..]);
    }
    let cli = match Cli::from_arg_matches(&help::grouped(Cli::command()).get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    if let Command::Hook { harness } = cli.command {
        return hook::main(started, &[harness.into()]);
    }
    if cli.utc {
        output::use_utc();
    }
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            output::error(&format!("agent-memory: {e:#}"));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let json = cli.json;
        match cli.command {
            Command::Hook { .. } => unreachable!("handled before the runtime starts"),
            Command::Sessions { limit, offset } => cmd::query::sessions(json, limit, offset).await,
            Command::Timeline { session, here, limit, after } => {
                cmd::query::timeline(json, &session, here, limit, after).await
            }
            Command::Notes(command) => cmd::query::notes(json, command).await,
            Command::Search { query, scope, history, notes_only, events_only, limit } => {
                // A scope is a notes' place: with one alone, history is not searched.
                let events = events_only || (!notes_only && (scope.is_empty() || history.any()));
                let looking = cmd::query::Looking { notes: !events_only, events };
                cmd::query::search(json, &query, scope, &history, looking, limit).await
            }
            Command::Forget(args) => cmd::forget::run(&args, json).await,
            Command::Projects { command } => cmd::projects::run(json, command).await,
            Command::Sync(args) => cmd::sync::run(&args, json).await,
            Command::Prune(args) => cmd::prune::run(&args, json).await,
            Command::Pause(args) => cmd::capture::pause(&args, json),
            Command::Resume(target) => cmd::capture::resume(&target, json),
            Command::Model(command) => cmd::model::run(json, command).await,
            Command::Redact { check } => cmd::redact::check(json, &check),
            Command::Dream(args) => cmd::dream::run(args, json).await,
            Command::Demo { dir } => cmd::demo::run(dir, json).await,
            Command::Config => cmd::query::show_config(json),
            Command::Migrate(args) => cmd::migrate::run(args, json).await,
            Command::Mcp => {
                let config = memory_hook::Config::load()?;
                let store = store::open(&config).await?;
                mcp::serve(store, &config).await?;
                Ok(ExitCode::SUCCESS)
            }
            Command::Export { dir } => {
                let config = memory_hook::Config::load()?;
                let store = store::open(&config).await?;
                tree::export(&config, store.as_ref(), &dir, json).await
            }
            Command::Import { dir, delete_missing } => {
                let config = memory_hook::Config::load()?;
                let store = store::open(&config).await?;
                tree::import(&config, store.as_ref(), &dir, delete_missing, json).await
            }
            Command::Share(command) => cmd::share::run(command, json).await,
            Command::Team(command) => cmd::team::run(command, json).await,
            Command::Install(args) => install::install(&args, json).await,
            Command::Uninstall(args) => install::uninstall(&args, json).await,
            Command::Doctor(args) => install::doctor(&args, json).await,
            Command::Completions { shell } => {
                let mut script = Vec::new();
                clap_complete::generate(shell, &mut Cli::command(), "agent-memory", &mut script);
                // A closed pipe (`| head`) is the reader's choice, not an error.
                let _ = std::io::Write::write_all(&mut std::io::stdout(), &script);
                Ok(ExitCode::SUCCESS)
            }
            Command::Man { dir } => man(dir.as_deref(), json),
            Command::Ui(args) => cmd::ui::run(&args, json).await,
        }
    })
}

/// `agent-memory man`: the manual page of the whole command, or one page per command in `dir`.
fn man(dir: Option<&std::path::Path>, json: bool) -> anyhow::Result<ExitCode> {
    let command = Cli::command();
    match dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page)?;
            let _ = std::io::Write::write_all(&mut std::io::stdout(), &page);
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            clap_mangen::generate_to(command, dir)?;
            let mut pages: Vec<String> = std::fs::read_dir(dir)?
                .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                .filter(|name| name.starts_with("agent-memory") && name.ends_with(".1"))
                .collect();
            pages.sort();
            if json {
                output::json(&serde_json::json!({ "dir": dir, "pages": pages }))?;
            } else {
                output::print(&format!("wrote {} manual pages to {}", pages.len(), dir.display()));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
