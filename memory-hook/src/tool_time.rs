//! Tool-time recall: before a shell command runs that will hit a failure seen before in this
//! project, the agent is handed what made it pass, from the project's notes of errors and fixes;
//! before an edit of a file with a known pitfall, that pitfall. Each known fix at most once per
//! session.
//!
//! A note line is about a command when its first code span is a command line (`` `cargo build`
//! failed … ``, `` `npm test` hangs when … ``). A command about to run is recalled by what failed,
//! not by how it was spelt: it matches when it runs the same tool (past runners and variables,
//! `./gradlew` is `gradle`) for the same operation ([`Invocation::operations`]: the subcommand,
//! the family of a namespaced task, the kind of a Gradle task, the mode of `cmake`), whatever its
//! other flags, variables and targets, unless both name different files; a failure of the tool's
//! environment (no credentials, a server that refused, no key) that its setup fixed meets any
//! operation of the tool, and a look around of it (`kubectl get pods`) when a look around failed
//! so. Of a failed line, the step that failed is its last when the steps before only prepared it
//! (`rustup target add x && cargo build --target x`). A package manager's script, a `just`
//! recipe or a Makefile target counts as the commands the project's own `package.json` (a
//! workspace package's, when the command names one), justfile or Makefile say it runs, and a
//! dependency's program run through pnpm, yarn or bun as that program. A command that only asks
//! for a version or for help gets nothing, and neither does one that already carries the fix (its
//! flag, its variable, the command run before it). A line is about a file when its first code span is the
//! file's path, relative to the project root.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use memory_core::shell::{self, Invocation};
use memory_core::{FileAction, HookEvent, MemoryStore, Note, NoteFilter, NoteKind, Scope, ToolCall};
use sha2::{Digest as _, Sha256};

use crate::inject::{CLOSE, Injection, OPEN, note_key};
use crate::project::Project;

/// Most known fixes handed over before one tool call.
const MAX_FIXES: usize = 2;
/// Longest line handed over, in characters.
const MAX_LINE: usize = 600;

/// What a tool call could have a known fix for: the commands it runs (unless they ask for a
/// version, or run a program that only looks around) and the files it edits. `None` when there is nothing to look up,
/// so a hook can skip the store for it.
fn subjects(tool: &ToolCall) -> Option<(Vec<Invocation>, Vec<&str>)> {
    let commands: Vec<Invocation> = tool
        .shell
        .as_ref()
        .map(|s| shell::invocations(&s.command))
        .unwrap_or_default()
        .into_iter()
        // A tool's own look around (`kubectl get pods`) meets a look around of it that failed
        // for its environment; a program that only looks (`ls`, `grep`) meets nothing.
        .filter(|i| !i.is_informational() && (!i.is_inspection() || i.sub.is_some()))
        .collect();
    let edited: Vec<&str> =
        tool.files.iter().filter(|f| f.action == FileAction::Edited).map(|f| f.path.as_str()).collect();
    (!commands.is_empty() || !edited.is_empty()).then_some((commands, edited))
}

/// Whether a tool call about to run could come with a known fix ([`before_tool`] would look).
pub fn may_recall(event: &HookEvent) -> bool {
    event.tool.as_ref().is_some_and(|tool| subjects(tool).is_some())
}

/// What agent-memory knows about the tool call `event` is about to make, or `None`. `already`
/// holds what this session was given (see [`fix_key`]).
pub async fn before_tool(
    store: &dyn MemoryStore,
    project: &Project,
    event: &HookEvent,
    already: &BTreeSet<String>,
    budget: usize,
) -> memory_core::Result<Option<Injection>> {
    let Some((commands, edited)) = event.tool.as_ref().and_then(subjects) else { return Ok(None) };
    let notes = store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?;
    let notes: Vec<&Note> = notes.iter().filter(|n| about_errors(n)).collect();
    if notes.is_empty() {
        return Ok(None);
    }
    let ran: Vec<Vec<String>> = event
        .tool
        .as_ref()
        .and_then(|t| t.shell.as_ref())
        .map(|s| shell::simple_commands(&s.command))
        .unwrap_or_default()
        .into_iter()
        .map(|words| words.iter().map(|w| shell::unquote(w)).collect())
        .collect();
    let scripts = Scripts::new(project, event.cwd.as_deref());
    let now: Vec<Invocation> = commands.iter().flat_map(|c| scripts.expand(c)).collect();
    let mut found: Vec<(String, String)> = Vec::new();
    for note in notes {
        for line in note.body.lines().filter_map(memory_core::item_text) {
            let Some(subject) = memory_core::code_spans(line).next() else { continue };
            let before = if now.is_empty() { None } else { shell::failed_step(subject) };
            let relevant = (before.as_ref().is_some_and(|before| {
                let was = scripts.expand(before);
                // How the line failed is read only when a tool it ran runs now.
                if !was.iter().any(|b| now.iter().any(|n| b.tool() == n.tool())) {
                    return false;
                }
                let setup = fixed_by_setup(line);
                let builds = build_failure(line);
                was.iter().any(|b| {
                    // Of the tool that failed: the one the line ran, or one its script runs.
                    let environment = setup && environment_failure(line, &b.tool());
                    now.iter().any(|n| {
                        same_command(b, n, setup, builds, environment)
                            && (!n.is_inspection() || (environment && b.is_inspection()))
                    })
                })
            }) && !carries_fix(line, &commands, &ran))
                || edited.iter().any(|path| same_path(subject, path));
            let key = fix_key(note, line);
            if relevant && !already.contains(&key) && !found.iter().any(|(k, _)| *k == key) {
                found.push((key, line.to_owned()));
            }
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    let header = if !commands.is_empty() {
        "This command, or one like it, failed before in this project. What agent-memory's notes say \
         made it pass (from earlier sessions; check it still applies):\n"
    } else {
        "agent-memory's notes name a known problem with this file (from earlier sessions; check it \
         still applies):\n"
    };
    let mut text = format!("{OPEN}{header}");
    let mut keys = Vec::new();
    for (key, line) in found.into_iter().take(MAX_FIXES) {
        let line = format!("- {}\n", truncate(&line, MAX_LINE));
        if text.chars().count() + line.chars().count() + CLOSE.len() > budget {
            break;
        }
        text.push_str(&line);
        keys.push(key);
    }
    if keys.is_empty() {
        return Ok(None);
    }
    text.push_str(CLOSE);
    Ok(Some(Injection { text, notes: keys }))
}

/// The key a known fix is remembered by in a session's ledger: its note's key and a digest of
/// the line, so the note itself can still be given on a prompt.
pub fn fix_key(note: &Note, line: &str) -> String {
    let digest = Sha256::digest(line.as_bytes());
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("{}#fix-{short}", note_key(note))
}

/// Notes of errors and fixes, or of pitfalls: what a dream files as procedures under `errors.md`
/// and what people write there by hand.
fn about_errors(note: &Note) -> bool {
    let file = note.path.as_str().rsplit('/').next().unwrap_or_default();
    matches!(file, "errors.md" | "pitfalls.md" | "gotchas.md" | "known-issues.md")
        || (note.meta.kind == NoteKind::Procedure && file.contains("error"))
}

/// Operations that build the code before they do what they are for.
const BUILD_FIRST: &[&str] = &[
    "build",
    "run",
    "test",
    "vet",
    "install",
    "check",
    "clippy",
    "compile",
    "bench",
    "typecheck",
    "dev",
    "start",
    "serve",
];

/// What a failure to build the code says: every operation that builds first meets it.
const BUILD_FAILURES: &[&str] = &[
    "no required module provides",
    "cannot find module",
    "cannot find package",
    "could not compile",
    "unresolved import",
    "module not found",
    "no such module",
    "cannot find symbol",
    "compilation failed",
    "failed to compile",
    "undefined reference",
    "is not in std",
];

/// Whether a known failure is one of building the code ("no required module provides package
/// …/sqlcgen"): `go run` meets it as `go build` did.
fn build_failure(line: &str) -> bool {
    let lower = line.to_lowercase();
    BUILD_FAILURES.iter().any(|marker| lower.contains(marker))
}

/// What a failure of a tool's environment says: it cannot reach its server or registry, finds
/// no credentials, key or configuration, or a setting (a variable, the folder one names) is
/// missing. Every operation of the tool that is more than a look around meets it, once its setup
/// made it pass.
const ENVIRONMENT_FAILURES: &[&str] = &[
    "unable to locate credentials",
    "no credentials",
    "credentials not found",
    "could not find credentials",
    "connection refused",
    "connection to the server",
    "could not connect",
    "couldn't connect",
    "cannot connect to",
    "failed to connect",
    "no such host",
    "could not resolve host",
    "name or service not known",
    "econnrefused",
    "unauthorized",
    "not logged in",
    "login required",
    "token has expired",
    "expired token",
    "no configuration has been provided",
    "could not resolve dependencies",
    "unknown package",
    "package list",
    "failed to get the data key",
    "failed to load age identities",
    "no identity matched",
    "dial tcp",
    "couldn't get current server",
    "no route to host",
    "i/o timeout",
    "x509:",
    "exec plugin",
    "provide credentials",
    "must be logged in",
    "reauthenticate",
    "reauthentication",
    "is not set",
    "is not a directory",
];

/// Whether a known failure is one of its own tool's environment ([`ENVIRONMENT_FAILURES`]), read
/// in what it failed with: not one of another tool it needed ("Cannot connect to the Docker
/// daemon" when `go test` failed meets only the tests, not `go env`). `own` is the tool that failed.
fn environment_failure(line: &str, own: &str) -> bool {
    let failed = line.split_once("; it passed").map_or(line, |(failed, _)| failed);
    let said = failed.split_once(" failed").map_or(failed, |(_, said)| said).to_lowercase();
    ENVIRONMENT_FAILURES.iter().any(|marker| said.contains(marker))
        && memory_core::search::tools(&said)
            .iter()
            .filter(|tool| memory_core::search::software(tool))
            .all(|tool| own.contains(tool) || tool.contains(own))
}

/// Whether two commands run the same tool for the same operation, on targets that can overlap;
/// with `builds` (the failure was one of building the code), any two operations that build first;
/// with `environment` (the failure was of the tool's environment), any two operations.
fn same_command(before: &Invocation, now: &Invocation, setup: bool, builds: bool, environment: bool) -> bool {
    if before.tool() != now.tool() || now.is_informational() {
        return false;
    }
    let (was, is) = (before.operations(), now.operations());
    let building =
        |ops: &[String]| !ops.is_empty() && ops.iter().all(|op| BUILD_FIRST.contains(&op.as_str()));
    // A run that names no operation covers them all.
    let overlapping = was.is_empty()
        || is.is_empty()
        || was.iter().any(|op| is.contains(op))
        || (builds && building(&was) && building(&is))
        || environment;
    overlapping && (setup || !different_files(before, now))
}

/// Whether what made a failed command pass was its setup (a command run before it, a variable, a
/// flag), not an edit: such a failure hits a run of the same tool on any file ("the stylesheet was
/// not built" fails every system spec).
fn fixed_by_setup(line: &str) -> bool {
    line.split_once("; it passed").is_some_and(|(_, how)| !how.contains("after editing"))
}

/// Whether both commands name files to work on, and none of them the same: a failure in one test
/// file says nothing about another.
fn different_files(before: &Invocation, now: &Invocation) -> bool {
    let files = |i: &Invocation| -> BTreeSet<String> {
        i.args
            .iter()
            .filter(|a| !a.starts_with('-') && is_file(a))
            .map(|a| a.trim_start_matches("./").to_owned())
            .collect()
    };
    let (was, is) = (files(before), files(now));
    !was.is_empty() && !is.is_empty() && was.is_disjoint(&is)
}

/// Whether a word names one file (`tests/test_api.py`, not `tests/*.py`).
fn is_file(word: &str) -> bool {
    !word.contains(['*', '?', '=', ':']) && shell::is_file_name(word)
}

/// Whether the command line about to run already does what the line says made it pass: a flag
/// or a variable the line names in a code span after the command, or a command it names that the
/// line runs too (`ran`: the words of each of its simple commands).
fn carries_fix(line: &str, commands: &[Invocation], ran: &[Vec<String>]) -> bool {
    let carried = |word: &str| {
        commands.iter().any(|now| {
            now.words.iter().any(|n| shell::unquote(n) == word)
                || now.env.iter().any(|e| e == word || variable(e) == variable(word))
        })
    };
    memory_core::code_spans(line).skip(1).any(|span| {
        let words: Vec<String> = span.split_whitespace().map(shell::unquote).collect();
        if ran.contains(&words) {
            return true;
        }
        let set = span.strip_prefix("export ").unwrap_or(span);
        let words: Vec<String> = set.split_whitespace().map(shell::unquote).collect();
        let flag_or_variable = words.first().is_some_and(|w| w.starts_with('-') || w.contains('='));
        flag_or_variable && (words.iter().all(|w| carried(w)) || carried(set))
    })
}

/// The name a variable assignment sets (`TZ` of `TZ=UTC`), else the word.
fn variable(word: &str) -> &str {
    word.split_once('=').map_or(word, |(name, _)| name)
}

/// The project's scripts, read on demand: a package manager's `run` scripts from
/// `package.json`, `just` recipes, Makefile targets. Looked up in the folder the command runs
/// in, then the project root.
struct Scripts {
    dirs: Vec<PathBuf>,
    /// The files read so far, by the names asked for.
    read: RefCell<BTreeMap<&'static str, Option<String>>>,
}

/// How deep scripts that run other scripts are followed.
const MAX_SCRIPT_DEPTH: usize = 3;
/// Most commands one script expands to.
const MAX_SCRIPT_COMMANDS: usize = 24;
/// Largest project file read for its scripts, in bytes.
const MAX_SCRIPT_FILE: u64 = 256 * 1024;

impl Scripts {
    fn new(project: &Project, cwd: Option<&str>) -> Self {
        let mut dirs = Vec::new();
        if let Some(cwd) = cwd.map(PathBuf::from).filter(|c| c.is_absolute() && c.starts_with(&project.root))
        {
            dirs.push(cwd);
        }
        if !dirs.contains(&project.root) {
            dirs.push(project.root.clone());
        }
        Self { dirs, read: RefCell::default() }
    }

    /// The command and, when it runs one of the project's scripts, the commands that script runs.
    fn expand(&self, command: &Invocation) -> Vec<Invocation> {
        let mut out = vec![command.clone()];
        self.expand_into(command, 0, &mut out);
        out
    }

    fn expand_into(&self, command: &Invocation, depth: usize, out: &mut Vec<Invocation>) {
        if depth >= MAX_SCRIPT_DEPTH {
            return;
        }
        for body in self.bodies(command) {
            for line in body {
                for inner in shell::invocations(&line) {
                    if out.len() >= MAX_SCRIPT_COMMANDS || out.contains(&inner) {
                        continue;
                    }
                    out.push(inner.clone());
                    self.expand_into(&inner, depth + 1, out);
                }
            }
        }
    }

    /// The command lines of the scripts `command` runs, one list per script.
    fn bodies(&self, command: &Invocation) -> Vec<Vec<String>> {
        let tool = command.tool();
        match tool.as_str() {
            "npm" | "pnpm" | "yarn" | "bun" => {
                let Some(script) = command.sub.as_deref() else { return Vec::new() };
                let script = if tool == "npm" && script == "t" { "test" } else { script };
                // A workspace package named by the command (`pnpm --filter @shop/ui test`) runs
                // its own scripts.
                let manifest = match self.workspace_package(command) {
                    Some(dir) => read_small(&dir.join("package.json")),
                    None => self.read(&["package.json"]),
                };
                if let Some(body) = manifest.and_then(|text| package_script(&text, script)) {
                    return vec![vec![body]];
                }
                // pnpm, yarn and bun run a dependency's program named in place of a script
                // (`pnpm turbo run build` is `turbo run build`); npm runs only its own commands.
                match command.args.iter().position(|a| a == script) {
                    Some(at) if tool != "npm" && !PACKAGE_MANAGER_COMMANDS.contains(&script) => {
                        vec![vec![command.args[at..].join(" ")]]
                    }
                    _ => Vec::new(),
                }
            }
            "just" | "make" => {
                let files: &'static [&'static str] = if tool == "just" {
                    &["justfile", "Justfile", ".justfile"]
                } else {
                    &["GNUmakefile", "makefile", "Makefile"]
                };
                let Some(text) = self.read(files) else { return Vec::new() };
                let targets: Vec<&str> = command
                    .args
                    .iter()
                    .map(String::as_str)
                    .filter(|a| !a.starts_with('-') && !a.contains('='))
                    .take(if tool == "just" { 1 } else { 4 })
                    .collect();
                targets.iter().map(|t| recipe(&text, t, tool == "just")).collect()
            }
            "task" => {
                let Some(text) =
                    self.read(&["Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"])
                else {
                    return Vec::new();
                };
                command
                    .args
                    .iter()
                    .filter(|a| !a.starts_with('-') && !a.contains('='))
                    .take(1)
                    .map(|t| taskfile_task(&text, t))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The first of `names` found in the command's folder or the project root, when small; each
    /// read once.
    fn read(&self, names: &'static [&'static str]) -> Option<String> {
        let key = names.first().copied().unwrap_or_default();
        if let Some(known) = self.read.borrow().get(key) {
            return known.clone();
        }
        let text = self.find(names);
        self.read.borrow_mut().insert(key, text.clone());
        text
    }

    fn find(&self, names: &[&str]) -> Option<String> {
        self.dirs.iter().flat_map(|d| names.iter().map(move |n| d.join(n))).find_map(|path| read_small(&path))
    }

    /// The folder of the workspace package a package manager's command names: pnpm's `--filter`
    /// (`-F`), npm's `--workspace` (`-w`), by the package's name or its folder, looked for in the
    /// project's folders two levels down (`packages/ui`, `apps/web`).
    fn workspace_package(&self, command: &Invocation) -> Option<PathBuf> {
        let flags: &[&str] = match command.tool().as_str() {
            "pnpm" => &["--filter", "-F"],
            "npm" => &["-w", "--workspace"],
            _ => return None,
        };
        let named = command.args.iter().enumerate().find_map(|(at, arg)| {
            let (flag, value) = arg.split_once('=').map_or((arg.as_str(), None), |(f, v)| (f, Some(v)));
            flags
                .contains(&flag)
                .then(|| value.map(str::to_owned).or_else(|| command.args.get(at + 1).cloned()))
                .flatten()
        })?;
        let root = self.dirs.last()?;
        let folder = root.join(named.trim_start_matches("./"));
        if !named.starts_with('@') && folder.join("package.json").is_file() {
            return Some(folder);
        }
        let children = |dir: &std::path::Path| -> Vec<PathBuf> {
            std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .map(|e| e.path())
                        .filter(|p| {
                            p.is_dir()
                                && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                                    !n.starts_with('.') && n != "node_modules" && n != "target"
                                })
                        })
                        .take(MAX_WORKSPACE_FOLDERS)
                        .collect()
                })
                .unwrap_or_default()
        };
        children(root)
            .into_iter()
            .flat_map(|dir| {
                let mut both = vec![dir.clone()];
                both.extend(children(&dir));
                both
            })
            .find(|dir| {
                read_small(&dir.join("package.json"))
                    .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
                    .is_some_and(|v| v.get("name").and_then(|n| n.as_str()) == Some(named.as_str()))
            })
    }
}

/// Most folders read at each level when looking for a workspace package.
const MAX_WORKSPACE_FOLDERS: usize = 64;

/// A project file's text, when it is small enough to read for its scripts.
fn read_small(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    (meta.is_file() && meta.len() <= MAX_SCRIPT_FILE).then(|| std::fs::read_to_string(path).ok()).flatten()
}

/// Commands of pnpm, yarn and bun themselves: a word among them after the program runs no
/// dependency's program of that name.
const PACKAGE_MANAGER_COMMANDS: &[&str] = &[
    "add",
    "audit",
    "bin",
    "build",
    "cache",
    "config",
    "create",
    "dedupe",
    "deploy",
    "dlx",
    "env",
    "exec",
    "fetch",
    "global",
    "help",
    "i",
    "import",
    "info",
    "init",
    "install",
    "licenses",
    "link",
    "list",
    "login",
    "logout",
    "ls",
    "outdated",
    "pack",
    "patch",
    "pm",
    "prune",
    "publish",
    "rebuild",
    "remove",
    "rm",
    "root",
    "run",
    "setup",
    "start",
    "store",
    "t",
    "test",
    "uninstall",
    "unlink",
    "up",
    "update",
    "upgrade",
    "version",
    "view",
    "why",
    "workspace",
    "workspaces",
    "x",
];

/// The command line of a `package.json` script.
fn package_script(text: &str, script: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get("scripts")?.get(script)?.as_str().map(str::to_owned)
}

/// The command lines of a task of a Taskfile (`task test`): its `cmds` (or `cmd`, or the line it
/// is when written as one), the commands of the tasks it depends on (`deps`) or calls
/// (`- task: generate`) first.
fn taskfile_task(text: &str, task: &str) -> Vec<String> {
    let mut out = Vec::new();
    taskfile_into(text, task, &mut BTreeSet::new(), &mut out);
    out
}

fn taskfile_into(text: &str, task: &str, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
    if !seen.insert(task.to_owned()) || seen.len() > MAX_SCRIPT_COMMANDS {
        return;
    }
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '"' || c == '\'').to_owned();
    let mut in_tasks = false;
    let mut task_indent = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if indent == 0 {
            in_tasks = trimmed == "tasks:";
            continue;
        }
        if !in_tasks || trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent_of_tasks = *task_indent.get_or_insert(indent);
        if indent != indent_of_tasks {
            continue;
        }
        let Some((name, inline)) = trimmed.split_once(':') else { continue };
        if unquote(name) != task {
            continue;
        }
        if !inline.trim().is_empty() {
            out.push(unquote(inline));
            return;
        }
        let mut key = "";
        while let Some(body) =
            lines.next_if(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > indent)
        {
            let body = body.trim();
            if let Some(item) = body.strip_prefix("- ") {
                let item = item.trim();
                if let Some(other) = item.strip_prefix("task:") {
                    taskfile_into(text, &unquote(other), seen, out);
                } else if let Some(command) = item.strip_prefix("cmd:") {
                    out.push(unquote(command));
                } else if key == "deps" {
                    taskfile_into(text, &unquote(item), seen, out);
                } else if key == "cmds" {
                    out.push(unquote(item));
                }
            } else if let Some((k, value)) = body.split_once(':') {
                key = k.trim();
                let value = value.trim();
                match key {
                    "cmd" if !value.is_empty() => out.push(unquote(value)),
                    "deps" if value.starts_with('[') => {
                        for dependency in value.trim_matches(['[', ']']).split(',') {
                            taskfile_into(text, &unquote(dependency), seen, out);
                        }
                    }
                    _ => {}
                }
            }
        }
        return;
    }
}

/// The command lines of a Makefile target or a `just` recipe: the scripts of the targets it
/// depends on, then its own lines, without the echo-suppressing and error-ignoring prefixes.
fn recipe(text: &str, target: &str, just: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    recipe_into(text, target, just, &mut seen, &mut out);
    out
}

fn recipe_into(text: &str, target: &str, just: bool, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
    if !seen.insert(target.to_owned()) || seen.len() > MAX_SCRIPT_COMMANDS {
        return;
    }
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some((names, dependencies)) = recipe_header(line, just) else { continue };
        if !names.contains(&target) {
            continue;
        }
        for dependency in dependencies.split_whitespace() {
            let dependency = dependency.trim_start_matches('(').split('(').next().unwrap_or_default();
            if !dependency.is_empty()
                && dependency.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
            {
                recipe_into(text, dependency, just, seen, out);
            }
        }
        while let Some(body) = lines.next_if(|l| l.starts_with([' ', '\t']) || l.trim().is_empty()) {
            let body = body.trim().trim_start_matches(['@', '-', '+']).trim();
            if !body.is_empty() && !body.starts_with('#') {
                out.push(body.to_owned());
            }
        }
        return;
    }
}

/// A recipe's header line: the names it defines and what it depends on (`build test: deps`;
/// a `just` recipe's parameters come before the colon). `None` for any other line.
fn recipe_header(line: &str, just: bool) -> Option<(Vec<&str>, &str)> {
    if line.starts_with([' ', '\t', '#', '.']) {
        return None;
    }
    let (before, after) = line.split_once(':')?;
    if after.starts_with('=') || (!just && before.contains('=')) || before.trim().is_empty() {
        return None;
    }
    let names: Vec<&str> = if just {
        before.trim_start_matches('@').split_whitespace().take(1).collect()
    } else {
        before.split_whitespace().collect()
    };
    let dependencies = after.split('#').next().unwrap_or_default();
    Some((names, dependencies))
}

/// Whether a code span names the file at `path` (relative to the project root).
fn same_path(span: &str, path: &str) -> bool {
    let clean = |p: &str| p.trim().trim_start_matches("./").to_owned();
    !span.contains(' ') && span.contains('.') && clean(span) == clean(path)
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::{Scripts, carries_fix, fixed_by_setup, same_command, same_path};
    use memory_core::shell::{invocations, primary, simple_commands};

    fn matches(before: &str, now: &str) -> bool {
        same_command(&primary(before).unwrap(), &primary(now).unwrap(), false, false, false)
    }

    fn carried(line: &str, now: &str) -> bool {
        let ran: Vec<Vec<String>> = simple_commands(now)
            .into_iter()
            .map(|w| w.iter().map(|w| memory_core::shell::unquote(w)).collect())
            .collect();
        carries_fix(line, &invocations(now), &ran)
    }

    /// Whether `now`, run in `dir`, reaches the failure of `before` through the project's scripts.
    fn matches_in(dir: &std::path::Path, before: &str, now: &str) -> bool {
        let scripts = Scripts { dirs: vec![PathBuf::from(dir)], read: Default::default() };
        let before = scripts.expand(&primary(before).unwrap());
        let now = scripts.expand(&primary(now).unwrap());
        before.iter().any(|b| now.iter().any(|n| same_command(b, n, false, false, false)))
    }

    #[test]
    fn a_command_matches_the_same_program_and_subcommand() {
        assert!(matches("cargo build", "cargo build --release"));
        assert!(matches("uv run pytest -q", "pytest tests/test_invoices.py"));
        assert!(matches("cargo nextest run export", "cargo nextest run"));
        assert!(matches("TZ=UTC pnpm test src/a.test.ts", "cd web && pnpm test src/a.test.ts"));
        assert!(!matches("cargo build", "cargo test"));
        assert!(!matches("pnpm build", "npm run build"));
        assert!(!matches("uv run pytest tests/test_invoices.py", "uv run pytest tests/test_users.py"));
    }

    #[test]
    fn another_target_or_path_meets_the_same_failure() {
        assert!(matches("go test ./internal/billing/...", "go test ./cmd/server"));
        assert!(matches("./gradlew :core:lintRelease", "./gradlew lintDebug"));
        assert!(matches("bazel build //services/api:server", "bazel build //libs/auth/..."));
        assert!(matches("dotnet test src/Shop.Tests", "dotnet test tests/Shop.IntegrationTests"));
        assert!(matches("rails db:migrate", "bin/rails db:rollback STEP=2"));
        assert!(!matches("go test ./pkg/a/a_test.go", "go test ./pkg/b/b_test.go"), "two different files");
    }

    #[test]
    fn a_failure_fixed_by_the_setup_meets_a_run_on_any_file() {
        for line in [
            "`bundle exec rspec spec/jobs/a_spec.rb` failed with \"asset not found\"; it passed after running `bin/rails dartsass:build`",
            "`go test ./pkg/a/a_test.go` failed with \"Cannot connect to the Docker daemon\"; it passed with `DOCKER_HOST=unix:///run/podman.sock` set",
            "`pytest tests/test_a.py` failed with \"database does not exist\"; it passed with `--create-db`",
        ] {
            assert!(fixed_by_setup(line), "{line}");
        }
        assert!(!fixed_by_setup(
            "`pytest tests/test_a.py` failed in `test_total`; it passed after editing `src/cart.py` (adding `round(…)`)"
        ));
        let (before, now) = (
            primary("bundle exec rspec spec/jobs/a_spec.rb").unwrap(),
            primary("bin/rspec spec/system/checkout_spec.rb --fail-fast").unwrap(),
        );
        assert!(same_command(&before, &now, true, false, false));
        assert!(!same_command(&before, &now, false, false, false), "an edit's failure is of its file");
    }

    #[test]
    fn a_failure_of_the_tools_environment_meets_any_operation_of_it() {
        let meets = |before: &str, now: &str, line: &str| {
            let environment =
                fixed_by_setup(line) && super::environment_failure(line, &primary(before).unwrap().tool());
            same_command(&primary(before).unwrap(), &primary(now).unwrap(), true, false, environment)
        };
        for (before, now, line) in [
            (
                "kubectl get pods -A",
                "kubectl logs -n apps deploy/minio --tail=100",
                "`kubectl get pods -A` failed with \"The connection to the server localhost:8080 was refused\"; it passed after running `export KUBECONFIG=~/.kube/office.yaml`",
            ),
            (
                "dvc pull",
                "dvc status -c",
                "`dvc pull` failed with \"ERROR: unexpected error - Unable to locate credentials\"; it passed with `AWS_PROFILE=minio` set",
            ),
            (
                "gh pr create --draft",
                "gh issue list --label bug",
                "`gh pr create --draft` failed with \"HTTP 401: Unauthorized\"; it passed after running `gh auth login`",
            ),
            (
                "kubectl --context staging -n kube-system get pods",
                "kubectl --context staging logs -n api deploy/api --tail=50",
                "`kubectl --context staging -n kube-system get pods` failed with \"error: exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"\"; it passed after running `aws eks update-kubeconfig --name staging`",
            ),
            (
                "dagster dev -m orchestration",
                "dagster asset materialize -m orchestration --select fct_deliveries",
                "`make dagster` failed with \"dagster._core.errors.DagsterInvariantViolationError: $DAGSTER_HOME \"/src/heron/.dagster_home\" is not a directory or does not exist.\"; it passed after running `mkdir -p .dagster_home`",
            ),
            (
                "gradle assembleDebug",
                "gradle test",
                "`gradle assembleDebug` failed with \"ERROR: JAVA_HOME is not set and no 'java' command could be found\"; it passed after running `export JAVA_HOME=/usr/lib/jvm/java-17`",
            ),
        ] {
            assert!(meets(before, now, line), "{now:?} after {line:?}");
        }
        // Another tool's environment is not this one's.
        let docker = "`go test ./internal/store/...` failed in `TestStore` with \"Cannot connect to the Docker daemon at unix:///var/run/docker.sock\"; it passed with `DOCKER_HOST=unix:///run/podman.sock` set";
        assert!(!meets("go test ./internal/store/...", "go env GOMODCACHE", docker));
        // A failure of the operation itself stays with it, and a look around meets nothing.
        let test_failed = "`cargo test` failed in `parses_header` with \"assertion failed\"; it passed with `RUST_TEST_THREADS=1` set";
        assert!(!meets("cargo test", "cargo build", test_failed));
        let refused = "`kubectl get pods` failed with \"connection refused\"; it passed after running `export KUBECONFIG=k`";
        assert!(!meets("kubectl get pods", "kubectl version --client", refused));
    }

    #[test]
    fn a_failure_to_build_meets_every_operation_that_builds_first() {
        let builds = |before: &str, now: &str, line: &str| {
            same_command(
                &primary(before).unwrap(),
                &primary(now).unwrap(),
                false,
                super::build_failure(line),
                false,
            )
        };
        for (before, now, line) in [
            (
                "go build ./...",
                "go run ./cmd/kestrel --addr :8081",
                "no required module provides package x/sqlcgen",
            ),
            ("cargo build", "cargo test -p parser", "error[E0432]: unresolved import `crate::store`"),
            ("npm run build", "npm test", "Error: Cannot find module '@saltmarsh/ui'"),
        ] {
            assert!(builds(before, now, line), "{now:?} after {before:?}");
            assert!(!matches(before, now), "{now:?}: another failure of {before:?} is its own");
        }
        // Looking around builds nothing.
        assert!(!builds("go build ./...", "go version", "no required module provides package x"));
        assert!(!builds("cargo build", "cargo fmt", "error[E0432]: unresolved import"));
    }

    #[test]
    fn other_flags_meet_the_same_failure() {
        assert!(matches("poetry install", "poetry install --no-root --sync"));
        assert!(matches("helm -n shop upgrade web ./chart", "helm upgrade --install web ./chart --dry-run"));
        assert!(matches("terraform -chdir=live/eu apply", "terraform apply -auto-approve -parallelism=4"));
        assert!(matches("cmake -S . -B out -G Ninja", "cmake --fresh -B out/asan -DSANITIZE=address"));
        assert!(matches("vale --config .vale.ini docs", "vale --output line --minAlertLevel error docs"));
        assert!(
            !matches("cmake -S . -B out", "cmake --build out --target docs"),
            "building is not configuring"
        );
    }

    #[test]
    fn an_environment_prefix_or_runner_meets_the_same_failure() {
        assert!(matches("bundle exec rspec spec/models", "RAILS_ENV=test bundle exec rspec"));
        assert!(matches("python3 -m alembic upgrade head", "DATABASE_URL=sqlite:// alembic upgrade head"));
        assert!(matches("npx prisma migrate dev", "DEBUG=prisma:* pnpm exec prisma migrate deploy"));
        assert!(matches("NODE_OPTIONS=--max-old-space-size=4096 vite build", "cross-env CI=1 vite build"));
    }

    #[test]
    fn unrelated_commands_and_version_calls_meet_nothing() {
        assert!(!matches("dotnet test", "dotnet --version"));
        assert!(!matches("terraform apply", "terraform version"));
        assert!(!matches("cargo build", "cargo help build"));
        assert!(!matches("rails db:migrate", "rails routes"));
        assert!(!matches("python manage.py migrate", "python manage.py collectstatic"));
        assert!(!matches("python manage.py migrate", "python3 -c 'import django; print(django.VERSION)'"));
        assert!(!matches("mvn -pl api verify", "mvn -pl api dependency:tree"));
        assert!(!matches("./gradlew assembleDebug", "./gradlew testDebugUnitTest"));
        assert!(!matches("go test ./...", "gofmt -l ."));
    }

    #[test]
    fn a_script_alias_meets_the_tool_it_runs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"name":"web","scripts":{"typecheck":"tsc -p tsconfig.app.json --noEmit","verify":"npm run typecheck && eslint src","fmt":"prettier --write ."}}"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("justfile"),
            "set dotenv-load\n\nlint: fmt\n    cargo clippy --workspace -- -D warnings\n\nfmt:\n    cargo fmt --all\n\ndeploy env='staging':\n    ./scripts/deploy.sh {{env}}\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("Makefile"),
            "GO ?= go\n.PHONY: check\ncheck: vet\n\t@go test -race ./...\nvet:\n\t-go vet ./...\nclean:\n\trm -rf bin\n",
        )
        .unwrap();
        let d = dir.path();
        assert!(matches_in(d, "tsc --noEmit", "npm run typecheck"));
        assert!(
            matches_in(d, "tsc -p tsconfig.app.json", "pnpm verify"),
            "through a script that runs another"
        );
        assert!(matches_in(d, "yarn typecheck", "npx tsc --watch"), "the failed command was the alias");
        assert!(matches_in(d, "cargo clippy --all-targets", "just lint"));
        assert!(matches_in(d, "cargo fmt --check", "just lint"), "a recipe's dependency runs too");
        assert!(matches_in(d, "go test ./internal/...", "make check"));
        assert!(matches_in(d, "go vet ./cmd/...", "make check"), "a target's prerequisite runs too");
        assert!(!matches_in(d, "tsc --noEmit", "npm run fmt"));
        assert!(!matches_in(d, "cargo clippy", "just deploy"));
        assert!(!matches_in(d, "go test ./...", "make clean"));
        assert!(!matches_in(d, "tsc --noEmit", "npm run missing-script"));
    }

    #[test]
    fn a_dependencys_program_run_through_the_package_manager_is_that_program() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"name":"shop","scripts":{"build":"turbo run build","lint":"eslint .","test":"vitest run"}}"#,
        )
        .unwrap();
        let d = dir.path();
        assert!(matches_in(d, "pnpm turbo run build --filter=web", "pnpm build"));
        assert!(matches_in(d, "yarn eslint src --max-warnings 0", "yarn lint"));
        assert!(matches_in(d, "bun vitest run src/cart.test.ts", "pnpm test"));
        // npm runs no program in place of a script, and a package manager's own command is its own.
        std::fs::create_dir_all(d.join("packages/ui")).unwrap();
        std::fs::write(
            d.join("packages/ui/package.json"),
            r#"{"name":"@shop/ui","scripts":{"test":"jest --ci","check":"tsc --noEmit"}}"#,
        )
        .unwrap();
        // A workspace package named by the command runs its own scripts.
        assert!(matches_in(
            d,
            "pnpm --filter @shop/ui test",
            "pnpm --filter @shop/ui exec jest src/Badge.test.tsx"
        ));
        assert!(matches_in(d, "npm -w packages/ui run check", "npx tsc --noEmit -p packages/ui"));
        assert!(matches_in(d, "pnpm -F=@shop/ui check", "tsc --noEmit"));
        assert!(!matches_in(d, "pnpm --filter @shop/ui check", "pnpm lint"));
        assert!(!matches_in(d, "npm turbo run build", "pnpm build"));
        assert!(!matches_in(d, "pnpm install --frozen-lockfile", "pnpm lint"));
    }

    #[test]
    fn a_taskfile_task_meets_the_tools_it_runs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Taskfile.yml"),
            "version: '3'\n\nvars:\n  PKG: ./...\n\ntasks:\n  generate:\n    cmds:\n      - sqlc generate\n  build:\n    deps: [generate]\n    cmds:\n      - go build ./...\n  test:\n    desc: run the tests with the race detector\n    cmds:\n      - task: generate\n      - cmd: go test -race ./...\n  lint: golangci-lint run\n  clean:\n    cmds:\n      - rm -rf bin\n",
        )
        .unwrap();
        let d = dir.path();
        assert!(matches_in(d, "go test -race ./internal/...", "task test"));
        assert!(matches_in(d, "sqlc generate", "task test"), "a task it calls runs too");
        assert!(matches_in(d, "go build ./cmd/kestrel", "task build"));
        assert!(matches_in(d, "sqlc generate", "task build"), "a dependency runs first");
        assert!(matches_in(d, "golangci-lint run ./...", "task lint"), "a task written as one line");
        assert!(!matches_in(d, "go test ./...", "task clean"));
        assert!(!matches_in(d, "go build ./...", "task lint"));
        assert!(!matches_in(d, "go test ./...", "task missing"));
    }

    #[test]
    fn a_command_carrying_the_fix_is_left_alone() {
        let line = "`cargo build` failed with \"openssl-sys\"; it passed with `--features vendored` added";
        assert!(carried(line, "cargo build --features vendored"));
        assert!(!carried(line, "cargo build --release"));
        let tz = "`uv run pytest tests/test_invoices.py` failed; it passed with `TZ=UTC` set";
        assert!(carried(tz, "TZ=UTC uv run pytest tests/test_invoices.py"));
        let other = "`uv run pytest -q` failed; it passed after running `uv add --dev httpx`";
        assert!(!carried(other, "uv run pytest -q"), "a separate command is no flag");
        assert!(carried(other, "uv add --dev httpx && uv run pytest -q"), "unless the line runs it first");
        let exported = "`dotnet build` failed; it passed after running `export DOTNET_ROOT=$HOME/.dotnet`";
        assert!(carried(exported, "DOTNET_ROOT=/opt/dotnet dotnet build -c Release"));
        assert!(!carried(exported, "dotnet build -c Release"));
        let substituted = "`make` failed; it passed with `CC=$(brew --prefix llvm)/bin/clang` set";
        assert!(carried(substituted, "CC=$(brew --prefix llvm)/bin/clang make"));
    }

    #[test]
    fn lines_are_read_without_counts_and_spans_in_order() {
        let body =
            "Commands that failed.\n\n- `a b` failed; it passed with `-x` added (2×, last 2026-12-01)\n";
        let lines: Vec<&str> = body.lines().filter_map(memory_core::item_text).collect();
        assert_eq!(lines, ["`a b` failed; it passed with `-x` added"]);
        assert_eq!(memory_core::code_spans(lines[0]).collect::<Vec<_>>(), ["a b", "-x"]);
        assert!(same_path("./src/money.rs", "src/money.rs"));
        assert!(!same_path("cargo test", "cargo"));
    }
}
