//! Planning an install or uninstall: every file is read, parsed and edited in memory first, and
//! nothing is written unless every file could be planned. Applying a plan then writes each
//! changed file safely (see [`super::file`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::codex::{self, Version};
use super::file::{self, Current};
use super::json::Json;
use super::merge::{self, Change, HarnessSpec};
use super::{claude, cline, copilot, cursor, gemini, mcp, qwen};

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
    /// Cline CLI.
    Cline,
}

impl Harness {
    pub(crate) const ALL: [Self; 7] =
        [Self::Claude, Self::Codex, Self::Cursor, Self::Gemini, Self::Copilot, Self::Qwen, Self::Cline];

    pub(crate) fn name(self) -> &'static str {
        self.spec().name
    }

    pub(crate) fn spec(self) -> &'static HarnessSpec {
        match self {
            Self::Claude => &claude::SPEC,
            Self::Codex => &codex::SPEC,
            Self::Cursor => &cursor::SPEC,
            Self::Gemini => &gemini::SPEC,
            Self::Copilot => &copilot::SPEC,
            Self::Qwen => &qwen::SPEC,
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
    /// It exists and will be deleted (uninstall: a Cline hook file of ours).
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
    /// Where the old content was saved (after applying).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) backup: Option<PathBuf>,
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
    if action == Action::Uninstall || ctx.mcp {
        for &harness in harnesses {
            notes.extend(plan_mcp(ctx, harness, scope, action, &mut files)?);
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
    Ok(Plan {
        action,
        scope,
        binary: ctx.binary.clone(),
        dry_run: false,
        files,
        notes,
        context_files: Vec::new(),
    })
}

/// The problem to report when a harness's settings file turns every hook off (Gemini CLI's
/// `hooksConfig.enabled: false`, Qwen Code's `disableAllHooks: true`).
pub(crate) fn hooks_off(harness: Harness, path: &Path, text: &str) -> Option<String> {
    let doc = Json::parse(text).ok()?;
    match harness {
        Harness::Gemini => gemini::hooks_off(&doc).then(|| gemini::hooks_off_problem(path)),
        Harness::Qwen => qwen::hooks_off(&doc).then(|| qwen::hooks_off_problem(path)),
        _ => None,
    }
}

/// Plans one harness's hooks: its hooks file, or for Cline one file per event.
pub(crate) fn plan_hook_files(
    ctx: &Context,
    harness: Harness,
    scope: Scope,
    action: Action,
) -> anyhow::Result<Vec<FilePlan>> {
    match harness {
        Harness::Cline => cline::plan(ctx, scope, action),
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
/// names the file (the files before it are written, the one that failed is untouched).
pub(crate) fn apply(plan: &mut Plan) -> anyhow::Result<()> {
    for file_plan in &mut plan.files {
        if let (Status::Create | Status::Update, Some(text)) = (file_plan.status, &file_plan.new_text) {
            file_plan.backup = file::replace(&file_plan.current, text)?;
        }
        if file_plan.status == Status::Remove {
            file::remove(&file_plan.current)?;
        }
    }
    Ok(())
}

/// The plan as text for the terminal.
pub(crate) fn render(plan: &Plan) -> String {
    let mut out = String::new();
    let verb = match (plan.action, plan.dry_run) {
        (Action::Install, false) => "install",
        (Action::Install, true) => "install (dry run: nothing written)",
        (Action::Uninstall, false) => "uninstall",
        (Action::Uninstall, true) => "uninstall (dry run: nothing written)",
    };
    let scope = match plan.scope {
        Scope::User => "user",
        Scope::Project => "project",
    };
    out.push_str(&format!("agent-memory {verb}, {scope} scope, hook binary {}\n", plan.binary.display()));
    for f in &plan.files {
        let status = match (f.status, plan.dry_run) {
            (Status::Create, false) => "created",
            (Status::Create, true) => "would create",
            (Status::Update, false) => "updated",
            (Status::Update, true) => "would update",
            (Status::Unchanged, _) => "unchanged",
            (Status::Absent, _) => "absent, nothing to remove",
            (Status::Remove, false) => "removed",
            (Status::Remove, true) => "would remove",
        };
        out.push_str(&format!("\n{} {}: {status}", f.harness.name(), f.path.display()));
        if let Some(target) = &f.symlink_target {
            out.push_str(&format!(" (symlink to {})", target.display()));
        }
        out.push('\n');
        if f.status == Status::Unchanged && plan.action == Action::Install && !f.edits.is_empty() {
            continue;
        }
        if f.status == Status::Unchanged && plan.action == Action::Install {
            out.push_str("  every hook already in place\n");
        }
        for change in &f.changes {
            out.push_str(&format!("  {change}\n"));
        }
        for edit in &f.edits {
            out.push_str(&format!("  {edit}\n"));
        }
        if let Some(backup) = &f.backup {
            out.push_str(&format!("  backup: {}\n", backup.display()));
        }
        if plan.dry_run && matches!(f.status, Status::Create | Status::Update) {
            for line in f.diff().lines() {
                out.push_str(&format!("  {line}\n"));
            }
        }
    }
    for path in &plan.context_files {
        let verb = if plan.dry_run { "would remove" } else { "removed" };
        let harness = if path.ends_with(adapter_cline::RULES_FILE) { "cline" } else { "cursor" };
        out.push_str(&format!("\n{harness} rules file {}: {verb}\n", path.display()));
    }
    if !plan.notes.is_empty() {
        out.push_str("\nNext steps and notes:\n");
        for note in &plan.notes {
            let lead = if note.problem { "! " } else { "- " };
            out.push_str(&format!("{lead}{}\n", note.text));
        }
    }
    out
}
