//! Planning an install or uninstall: every file is read, parsed and edited in memory first, and
//! nothing is written unless every file could be planned. Applying a plan then writes each
//! changed file safely (see [`super::file`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::codex::{self, Version};
use super::file::{self, Current};
use super::json::Json;
use super::merge::{self, Change, HarnessSpec};
use super::{claude, cline, copilot, cursor, droid, gemini, mcp, opencode, qwen};

/// A harness we install into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Harness {
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
}

impl Harness {
    pub(crate) const ALL: [Self; 9] = [
        Self::Claude,
        Self::Codex,
        Self::Cursor,
        Self::Gemini,
        Self::Copilot,
        Self::Qwen,
        Self::Droid,
        Self::Opencode,
        Self::Cline,
    ];

    pub(crate) fn name(self) -> &'static str {
        self.spec().name
    }

    /// The harness's name as people know it.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Self::Claude => "Claude Code",
            Self::Codex => "Codex",
            Self::Cursor => "Cursor",
            Self::Gemini => "Gemini CLI",
            Self::Copilot => "Copilot CLI",
            Self::Qwen => "Qwen Code",
            Self::Droid => "Factory droid",
            Self::Opencode => "OpenCode",
            Self::Cline => "Cline",
        }
    }

    /// The title of the harness a hook log or a session names (`claude`), or the name itself.
    pub(crate) fn title_of(name: &str) -> &str {
        Self::ALL.iter().find(|h| h.name() == name).map_or(name, |h| h.title())
    }

    pub(crate) fn spec(self) -> &'static HarnessSpec {
        match self {
            Self::Claude => &claude::SPEC,
            Self::Codex => &codex::SPEC,
            Self::Cursor => &cursor::SPEC,
            Self::Gemini => &gemini::SPEC,
            Self::Copilot => &copilot::SPEC,
            Self::Qwen => &qwen::SPEC,
            Self::Droid => &droid::SPEC,
            Self::Opencode => &opencode::SPEC,
            Self::Cline => &cline::SPEC,
        }
    }
}

/// Whose configuration: the user's (every project) or one project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Scope {
    /// The user's configuration in the home folder.
    User,
    /// The project's configuration (committable).
    Project,
}

/// Install or uninstall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Action {
    Install,
    Uninstall,
}

/// Where things are: every path the installer touches derives from these.
#[derive(Debug, Clone)]
pub(crate) struct Context {
    /// The home folder (`~`).
    pub(crate) home: PathBuf,
    /// Codex's home (`$CODEX_HOME`, else `~/.codex`).
    pub(crate) codex_home: PathBuf,
    /// Copilot CLI's home (`$COPILOT_HOME`, else `~/.copilot`).
    pub(crate) copilot_home: PathBuf,
    /// OpenCode's configuration folder (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`).
    pub(crate) opencode_home: PathBuf,
    /// The project root, when there is one.
    pub(crate) project: Option<PathBuf>,
    /// The binary our hooks run: its absolute path, or in a project's files the bare name
    /// `agent-memory` (see [`Context::in_scope`]).
    pub(crate) binary: PathBuf,
    /// Whether `agent-memory`, looked up on `PATH`, runs `binary`.
    pub(crate) on_path: bool,
    /// The installed Codex's version, when known.
    pub(crate) codex_version: Option<Version>,
    /// Whether `install` registers our MCP server too (`--no-mcp` turns it off); `uninstall`
    /// always removes it.
    pub(crate) mcp: bool,
}

impl Context {
    /// The context for one scope's files. A project's files are committed and shared, so they run
    /// `agent-memory` by name when that name runs this binary here: the command then works on
    /// every machine with agent-memory on its `PATH`, wherever it was installed. Otherwise, and
    /// in the user's own files, the binary's absolute path.
    pub(crate) fn in_scope(&self, scope: Scope) -> Self {
        let mut ctx = self.clone();
        if scope == Scope::Project && self.on_path {
            ctx.binary = PathBuf::from(super::detect::BINARY_NAME);
        }
        ctx
    }

    fn project(&self) -> anyhow::Result<&Path> {
        self.project.as_deref().ok_or_else(|| {
            anyhow::format_err!(
                "project scope needs a project: run inside a git repository or pass --project DIR"
            )
        })
    }

    /// The hooks file of a harness in a scope; for Cline, the folder of its hook files.
    pub(crate) fn hooks_file(&self, harness: Harness, scope: Scope) -> anyhow::Result<PathBuf> {
        Ok(match (harness, scope) {
            (Harness::Claude, Scope::User) => self.home.join(".claude").join("settings.json"),
            (Harness::Claude, Scope::Project) => self.project()?.join(".claude").join("settings.json"),
            (Harness::Codex, Scope::User) => self.codex_home.join("hooks.json"),
            (Harness::Codex, Scope::Project) => self.project()?.join(".codex").join("hooks.json"),
            (Harness::Cursor, Scope::User) => self.home.join(".cursor").join("hooks.json"),
            (Harness::Cursor, Scope::Project) => self.project()?.join(".cursor").join("hooks.json"),
            (Harness::Gemini, Scope::User) => self.home.join(".gemini").join("settings.json"),
            (Harness::Gemini, Scope::Project) => self.project()?.join(".gemini").join("settings.json"),
            (Harness::Copilot, Scope::User) => self.copilot_home.join("settings.json"),
            (Harness::Copilot, Scope::Project) => {
                self.project()?.join(".github").join("hooks").join("agent-memory.json")
            }
            (Harness::Qwen, Scope::User) => self.home.join(".qwen").join("settings.json"),
            (Harness::Qwen, Scope::Project) => self.project()?.join(".qwen").join("settings.json"),
            (Harness::Droid, Scope::User) => self.home.join(".factory").join("settings.json"),
            (Harness::Droid, Scope::Project) => self.project()?.join(".factory").join("settings.json"),
            (Harness::Opencode, Scope::User) => {
                self.opencode_home.join("plugins").join(adapter_opencode::PLUGIN_FILE)
            }
            (Harness::Opencode, Scope::Project) => {
                self.project()?.join(".opencode").join("plugins").join(adapter_opencode::PLUGIN_FILE)
            }
            (Harness::Cline, Scope::User) => self.home.join(".cline").join("hooks"),
            (Harness::Cline, Scope::Project) => self.project()?.join(".clinerules").join("hooks"),
        })
    }

    /// Codex's `config.toml` in a scope.
    pub(crate) fn codex_config(&self, scope: Scope) -> anyhow::Result<PathBuf> {
        Ok(match scope {
            Scope::User => self.codex_home.join("config.toml"),
            Scope::Project => self.project()?.join(".codex").join("config.toml"),
        })
    }

    /// Our hook command for a harness.
    pub(crate) fn command(&self, harness: Harness) -> String {
        super::entries::command_for(&self.binary, harness.name())
    }
}

/// What happens to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Status {
    /// It does not exist and will be created.
    Create,
    /// It exists and will change.
    Update,
    /// It stays as it is.
    Unchanged,
    /// It does not exist and nothing needs it (uninstall).
    Absent,
    /// agent-memory created it, or it is ours alone (OpenCode's plugin, a Cline hook file of ours),
    /// and it holds nothing else: it is deleted (uninstall).
    Remove,
}

/// The plan for one file.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FilePlan {
    pub(crate) harness: Harness,
    pub(crate) scope: Scope,
    /// The path as configured.
    pub(crate) path: PathBuf,
    /// The file actually written, when `path` is a symlink.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) symlink_target: Option<PathBuf>,
    pub(crate) status: Status,
    /// Hook-level changes (hooks files, Cline's hook files).
    pub(crate) changes: Vec<Change>,
    /// Other changes (the Codex feature flag, our MCP server).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) edits: Vec<String>,
    /// Install: where the old content was saved. Uninstall: that backup, deleted once the file
    /// no longer holds anything of ours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) backup: Option<PathBuf>,
    /// Uninstall: the file gets back the exact bytes it had before install (from the backup).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) restored: bool,
    /// Whether this is the harness's hooks file (not its MCP or feature-flag file).
    #[serde(skip)]
    pub(crate) hooks: bool,
    #[serde(skip)]
    pub(crate) current: Current,
    #[serde(skip)]
    pub(crate) new_text: Option<String>,
}

impl FilePlan {
    /// The unified diff from the current to the planned content.
    pub(crate) fn diff(&self) -> String {
        let old = self.current.text.as_deref().unwrap_or("");
        let new = self.new_text.as_deref().unwrap_or(old);
        let shown = self.path.display().to_string();
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header(&format!("{shown} (now)"), &format!("{shown} (planned)"))
            .to_string()
    }
}

/// Something the user should read, about one harness.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Note {
    /// The harness it is about; none for general notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) harness: Option<Harness>,
    /// Whether it keeps hooks from running.
    pub(crate) problem: bool,
    pub(crate) text: String,
}

/// A whole plan.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Plan {
    pub(crate) action: Action,
    pub(crate) scope: Scope,
    pub(crate) binary: PathBuf,
    pub(crate) dry_run: bool,
    pub(crate) files: Vec<FilePlan>,
    pub(crate) notes: Vec<Note>,
    /// Context files the hooks wrote into projects (Cursor's rules file), removed on uninstall.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) context_files: Vec<PathBuf>,
    /// Where each harness keeps our MCP server, and whether it is registered there (install)
    /// or was there to remove (uninstall).
    pub(crate) mcp: Vec<McpOutcome>,
    /// Whether `--no-mcp` kept the MCP server out.
    #[serde(skip)]
    pub(crate) no_mcp: bool,
    /// Harnesses not found on this machine, left out of an install that named none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) not_found: Vec<Harness>,
    /// The embedding model (install).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) model: Option<ModelOutcome>,
    /// Whose events these are, as every event records it (install; see `memory_hook::owner`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) owner: Option<String>,
    /// Where the memory stays (uninstall).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) data_dir: Option<PathBuf>,
    /// Whether the memory is on a Neo4j server too (uninstall).
    #[serde(skip)]
    pub(crate) on_server: bool,
}

impl Plan {
    /// A plan of these files and nothing else.
    pub(crate) fn of(action: Action, scope: Scope, binary: PathBuf, files: Vec<FilePlan>) -> Self {
        Self {
            action,
            scope,
            binary,
            dry_run: false,
            files,
            notes: Vec::new(),
            context_files: Vec::new(),
            mcp: Vec::new(),
            no_mcp: false,
            not_found: Vec::new(),
            model: None,
            owner: None,
            data_dir: None,
            on_server: false,
        }
    }
}

/// Our MCP server in one harness's MCP configuration.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct McpOutcome {
    pub(crate) harness: Harness,
    pub(crate) path: PathBuf,
    /// Install: registered there. Uninstall: removed from there.
    pub(crate) done: bool,
}

/// What `install` did about the embedding model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(crate) enum ModelOutcome {
    /// Installed now, and the notes already there embedded.
    Installed { model: String, dir: PathBuf, notes: usize },
    /// Already installed.
    Present { dir: PathBuf },
    /// Left out (`--no-model`).
    Skipped,
    /// Would be installed (dry run).
    Planned { dir: PathBuf },
    /// Could not be installed (offline, a failed download); install went on without it.
    Failed { reason: String },
}

/// Plans an install or uninstall for the given harnesses in one scope. Fails, naming the file,
/// when any file cannot be read, parsed or safely changed; nothing is written then.
pub(crate) fn plan(
    ctx: &Context,
    harnesses: &[Harness],
    scope: Scope,
    action: Action,
) -> anyhow::Result<Plan> {
    let ctx = &ctx.in_scope(scope);
    let mut files = Vec::new();
    let mut notes = Vec::new();
    for &harness in harnesses {
        files.extend(plan_hook_files(ctx, harness, scope, action)?);
        if harness == Harness::Codex && action == Action::Install {
            let (config, flag_notes) = plan_codex_flag(ctx, scope)?;
            files.extend(config);
            notes.extend(flag_notes);
        }
    }
    let mut mcp_outcomes = Vec::new();
    if action == Action::Uninstall || ctx.mcp {
        for &harness in harnesses {
            let note = plan_mcp(ctx, harness, scope, action, &mut files)?;
            if let Some((path, _)) = mcp::file(ctx, harness, scope) {
                let done = match action {
                    Action::Install => note.is_none(),
                    Action::Uninstall => files
                        .iter()
                        .any(|f| f.path == path && f.edits.iter().any(|e| e.starts_with("mcp server"))),
                };
                mcp_outcomes.push(McpOutcome { harness, path, done });
            }
            notes.extend(note);
        }
    }
    if action == Action::Uninstall {
        for file_plan in &mut files {
            settle_uninstall(file_plan);
        }
    }
    if action == Action::Install {
        for &harness in harnesses {
            let text = match harness {
                Harness::Claude => claude::TRUST,
                Harness::Codex => codex::TRUST,
                Harness::Cursor => cursor::TRUST,
                Harness::Gemini => gemini::TRUST,
                Harness::Copilot => match scope {
                    Scope::User => copilot::TRUST,
                    Scope::Project => copilot::PROJECT_TRUST,
                },
                Harness::Qwen => qwen::TRUST,
                Harness::Droid => droid::TRUST,
                Harness::Opencode => opencode::TRUST,
                Harness::Cline => cline::TRUST,
            };
            notes.push(Note { harness: Some(harness), problem: false, text: text.to_owned() });
            if harness == Harness::Codex && scope == Scope::Project {
                notes.push(Note {
                    harness: Some(harness),
                    problem: false,
                    text: codex::PROJECT_TRUST.to_owned(),
                });
            }
            if harness == Harness::Claude
                && let Some(problem) = claude_hooks_disabled(&files)
            {
                notes.push(Note { harness: Some(harness), problem: true, text: problem });
            }
            if let Some(plan) = files.iter().find(|f| f.harness == harness)
                && let Some(text) = plan.new_text.as_deref().or(plan.current.text.as_deref())
                && let Some(problem) = hooks_off(harness, &plan.path, text)
            {
                notes.push(Note { harness: Some(harness), problem: true, text: problem });
            }
        }
        if harnesses.contains(&Harness::Claude) || harnesses.contains(&Harness::Cursor) {
            notes.push(Note { harness: None, problem: false, text: cursor::ALSO_RUNS_CLAUDE.to_owned() });
        }
    }
    let mut plan = Plan::of(action, scope, ctx.binary.clone(), files);
    plan.notes = notes;
    plan.mcp = mcp_outcomes;
    plan.no_mcp = !ctx.mcp && action == Action::Install;
    Ok(plan)
}

/// After our entries are taken out of a file: a file that is back to what it was before install
/// gets its exact old bytes from the backup install made; any other that now holds nothing (a
/// file install created, backed up only by a later install) is deleted. Either way the backup
/// goes.
fn settle_uninstall(file_plan: &mut FilePlan) {
    let Some(after) = file_plan.new_text.clone().or_else(|| file_plan.current.text.clone()) else { return };
    let backup = file::backup_path(&file_plan.current.target);
    if let Ok(before) = std::fs::read_to_string(&backup) {
        file_plan.backup = Some(backup);
        if file_plan.status == Status::Update && same_content(&before, &after) {
            file_plan.new_text = Some(before);
            file_plan.restored = true;
            return;
        }
    }
    let fresh =
        file_plan.hooks.then(|| merge::fresh(file_plan.harness.spec(), file_plan.scope == Scope::User));
    let empty = match Json::parse(&after) {
        Ok(doc) => doc == Json::Object(Vec::new()) || Some(&doc) == fresh.as_ref(),
        Err(_) => after.trim().is_empty(),
    };
    if file_plan.status == Status::Update && empty && file_plan.symlink_target.is_none() {
        file_plan.status = Status::Remove;
    }
}

/// Whether two texts of a configuration file say the same: equal JSON values once empty `hooks`
/// and `mcpServers` objects are left out (uninstall removes what it emptied), or (TOML) the same
/// words.
fn same_content(a: &str, b: &str) -> bool {
    let value = |text: &str| {
        Json::parse(text).ok().map(|doc| match doc {
            Json::Object(members) => Json::Object(
                members
                    .into_iter()
                    .filter(|(k, v)| {
                        !(matches!(k.as_str(), "hooks" | "mcpServers") && *v == Json::Object(Vec::new()))
                    })
                    .collect(),
            ),
            other => other,
        })
    };
    match (value(a), value(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a.split_whitespace().eq(b.split_whitespace()),
    }
}

/// The problem to report when a harness's settings file turns every hook off (Gemini CLI's
/// `hooksConfig.enabled: false`, Qwen Code's `disableAllHooks: true`, droid's `hooksDisabled: true`).
pub(crate) fn hooks_off(harness: Harness, path: &Path, text: &str) -> Option<String> {
    let doc = Json::parse(text).ok()?;
    match harness {
        Harness::Gemini => gemini::hooks_off(&doc).then(|| gemini::hooks_off_problem(path)),
        Harness::Qwen => qwen::hooks_off(&doc).then(|| qwen::hooks_off_problem(path)),
        Harness::Droid => droid::hooks_off(&doc).then(|| droid::hooks_off_problem(path)),
        _ => None,
    }
}

/// Plans one harness's hooks: its hooks file, OpenCode's plugin file, or for Cline one file per
/// event.
pub(crate) fn plan_hook_files(
    ctx: &Context,
    harness: Harness,
    scope: Scope,
    action: Action,
) -> anyhow::Result<Vec<FilePlan>> {
    match harness {
        Harness::Cline => cline::plan(ctx, scope, action),
        Harness::Opencode => Ok(vec![opencode::plan_plugin(ctx, scope, action)?]),
        _ => Ok(vec![plan_hooks(ctx, harness, scope, action)?]),
    }
}

/// Plans one harness's hooks file.
pub(crate) fn plan_hooks(
    ctx: &Context,
    harness: Harness,
    scope: Scope,
    action: Action,
) -> anyhow::Result<FilePlan> {
    let path = ctx.hooks_file(harness, scope)?;
    let current = file::read(&path)?;
    let spec = harness.spec();
    let mut file_plan = FilePlan {
        harness,
        scope,
        symlink_target: (current.target != path).then(|| current.target.clone()),
        path: path.clone(),
        status: Status::Unchanged,
        changes: Vec::new(),
        edits: Vec::new(),
        backup: None,
        restored: false,
        hooks: true,
        current: current.clone(),
        new_text: None,
    };
    let mut doc = match &current.text {
        None if action == Action::Uninstall => {
            file_plan.status = Status::Absent;
            return Ok(file_plan);
        }
        None => merge::fresh(spec, scope == Scope::User),
        Some(text) => Json::parse(text).map_err(|e| {
            anyhow::format_err!(
                "cannot parse {}: {e}; fix the file or move it away (nothing was changed)",
                current.target.display()
            )
        })?,
    };
    let original = doc.clone();
    let edited = match action {
        Action::Install => merge::install(&mut doc, spec, &ctx.binary, &ctx.command(harness)),
        Action::Uninstall => merge::uninstall(&mut doc, spec, &ctx.binary),
    };
    file_plan.changes = edited.map_err(|e| {
        anyhow::format_err!("cannot update {}: {e} (nothing was changed)", current.target.display())
    })?;
    if current.text.is_none() {
        file_plan.status = Status::Create;
        file_plan.new_text = Some(doc.to_pretty());
    } else if doc != original {
        check_writable(&current)?;
        file_plan.status = Status::Update;
        file_plan.new_text = Some(doc.to_pretty());
    }
    Ok(file_plan)
}

/// Plans Codex's `config.toml`: a file entry when it must change, and notes either way.
fn plan_codex_flag(ctx: &Context, scope: Scope) -> anyhow::Result<(Option<FilePlan>, Vec<Note>)> {
    let path = ctx.codex_config(scope)?;
    let current = file::read(&path)?;
    let flag = codex::plan_flag(&path, current.text.as_deref(), ctx.codex_version);
    let mut notes: Vec<Note> = flag
        .notes
        .iter()
        .map(|text| Note { harness: Some(Harness::Codex), problem: false, text: text.clone() })
        .collect();
    if let Some(problem) = flag.problem {
        notes.push(Note { harness: Some(Harness::Codex), problem: true, text: problem });
    }
    let Some(new_text) = flag.new_text else { return Ok((None, notes)) };
    if current.text.is_some() {
        check_writable(&current)?;
    }
    let plan = FilePlan {
        harness: Harness::Codex,
        scope,
        symlink_target: (current.target != path).then(|| current.target.clone()),
        path,
        status: if current.text.is_some() { Status::Update } else { Status::Create },
        changes: Vec::new(),
        edits: vec!["[features] codex_hooks = true".to_owned()],
        backup: None,
        restored: false,
        hooks: false,
        current,
        new_text: Some(new_text),
    };
    Ok((Some(plan), notes))
}

/// Plans our MCP server's entry in the harness's MCP configuration, editing the plan of the same
/// file when there is one (Gemini keeps hooks and MCP servers in one settings file, Codex its
/// feature flag and MCP servers in one `config.toml`). A file that cannot be edited, or a server of
/// the user's under our name, gives a note and is left alone: the hooks are installed regardless.
pub(crate) fn plan_mcp(
    ctx: &Context,
    harness: Harness,
    scope: Scope,
    action: Action,
    files: &mut Vec<FilePlan>,
) -> anyhow::Result<Option<Note>> {
    let Some((path, format)) = mcp::file(ctx, harness, scope) else { return Ok(None) };
    let existing = files.iter().position(|f| f.path == path);
    let current = match existing {
        Some(i) => files[i].current.clone(),
        None => file::read(&path)?,
    };
    let base = existing.and_then(|i| files[i].new_text.clone()).or_else(|| current.text.clone());
    let note = |text: String| Ok(Some(Note { harness: Some(harness), problem: false, text }));
    let edit = match mcp::edit(format, base.as_deref(), &ctx.binary, action == Action::Uninstall) {
        Ok(edit) => edit,
        Err(e) => {
            return note(format!(
                "cannot edit the MCP servers in {} ({e}); left it alone",
                current.target.display()
            ));
        }
    };
    match edit {
        mcp::Edit::Unchanged => Ok(None),
        mcp::Edit::Foreign => note(format!(
            "{} already registers an MCP server named `{}` that is not ours; left it alone",
            path.display(),
            mcp::NAME
        )),
        mcp::Edit::Changed { text, what } => {
            if current.text.is_some() {
                check_writable(&current)?;
            }
            let status = if current.text.is_some() { Status::Update } else { Status::Create };
            match existing {
                Some(i) => {
                    let plan = &mut files[i];
                    plan.new_text = Some(text);
                    plan.status = status;
                    plan.edits.push(what);
                }
                None => files.push(FilePlan {
                    harness,
                    scope,
                    symlink_target: (current.target != path).then(|| current.target.clone()),
                    path,
                    status,
                    changes: Vec::new(),
                    edits: vec![what],
                    backup: None,
                    restored: false,
                    hooks: false,
                    current,
                    new_text: Some(text),
                }),
            }
            Ok(None)
        }
    }
}

fn check_writable(current: &Current) -> anyhow::Result<()> {
    match current.mode {
        Some(mode) if file::is_read_only(mode) => Err(anyhow::format_err!(
            "{} is read-only (mode {mode:o}); make it writable (chmod u+w) to let agent-memory change it \
             (nothing was changed)",
            current.target.display()
        )),
        _ => Ok(()),
    }
}

/// A problem note when Claude Code's settings turn every hook off.
fn claude_hooks_disabled(files: &[FilePlan]) -> Option<String> {
    let plan = files.iter().find(|f| f.harness == Harness::Claude)?;
    let text = plan.new_text.as_deref().or(plan.current.text.as_deref())?;
    let doc = Json::parse(text).ok()?;
    (doc.get("disableAllHooks") == Some(&Json::Bool(true))).then(|| {
        format!(
            "{} sets `disableAllHooks: true`: Claude Code runs no hooks until it is removed",
            plan.path.display()
        )
    })
}

/// Writes every changed file of the plan. Files are written one by one; a failure stops there and
/// names the file (the files before it are written, the one that failed is untouched). Install
/// backs up a file before its first change; uninstall writes no backup, and deletes the one
/// install made.
pub(crate) fn apply(plan: &mut Plan) -> anyhow::Result<()> {
    for file_plan in &mut plan.files {
        match (plan.action, file_plan.status, &file_plan.new_text) {
            (Action::Install, Status::Create | Status::Update, Some(text)) => {
                file_plan.backup = file::replace(&file_plan.current, text)?;
            }
            (Action::Uninstall, Status::Update, Some(text)) => file::write(&file_plan.current, text)?,
            (Action::Uninstall, Status::Remove, _) => file::remove(&file_plan.current.target)?,
            _ => {}
        }
        if plan.action == Action::Uninstall
            && let Some(backup) = &file_plan.backup
        {
            file::remove(backup)?;
        }
    }
    Ok(())
}
