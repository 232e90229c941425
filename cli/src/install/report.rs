//! What `install` and `uninstall` print: by default one line per harness (the file written, how
//! many events are hooked, the MCP server, for install the embedding model; for uninstall where
//! the memory stays), with `--verbose` (and always for `--dry-run`) every event, every file's
//! change and every note.

use std::fmt::Write as _;

use super::plan::{Action, FilePlan, Harness, ModelOutcome, Plan, Scope, Status};

/// The plan as text for the terminal.
pub(crate) fn render(plan: &Plan, verbose: bool) -> String {
    let mut out = if verbose || plan.dry_run { details(plan) } else { summary(plan) };
    if let Some(model) = &plan.model {
        let _ = writeln!(out, "\n{}", model_line(model));
    }
    if let Some(owner) = &plan.owner {
        let _ = writeln!(
            out,
            "\nYour events record you as {owner}; `[user] owner` in the config file names someone else."
        );
    }
    if plan.action == Action::Uninstall
        && let Some(dir) = &plan.data_dir
    {
        let _ = writeln!(
            out,
            "\nYour memory is still in {dir} (events, notes, logs{model}). `agent-memory forget --all --yes` \
             deletes it for good and keeps the config; or delete that folder (`rm -rf {dir}`), or keep it \
             for a later install.",
            dir = dir.display(),
            model = if memory_embed::is_installed(&memory_embed::model_dir(dir)) {
                ", the embedding model"
            } else {
                ""
            }
        );
        if plan.on_server {
            out.push_str(
                "The events and notes on the Neo4j server stay there too; `agent-memory forget --all --yes` \
                 deletes them with the folder's.\n",
            );
        }
    }
    if plan.action == Action::Install && !plan.dry_run && !verbose {
        out.push_str(
            "\nHooks take effect in new sessions; some harnesses ask you to trust them first \
             (`agent-memory install --verbose` says how for each). `agent-memory doctor` checks that everything works.\n",
        );
    }
    out
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
    }
}

/// One line per harness.
fn summary(plan: &Plan) -> String {
    let mut out = match plan.action {
        Action::Install => format!(
            "agent-memory install ({} scope): hooks run {}\n\n",
            scope_name(plan.scope),
            plan.binary.display()
        ),
        Action::Uninstall => format!("agent-memory uninstall ({} scope)\n\n", scope_name(plan.scope)),
    };
    let mut untouched = Vec::new();
    for hooks in plan.files.iter().filter(|f| f.hooks) {
        let line = match plan.action {
            Action::Install => Some(installed(plan, hooks)),
            Action::Uninstall => uninstalled(plan, hooks),
        };
        match line {
            Some(line) => {
                let _ = writeln!(out, "{}: {line}", hooks.harness.title());
            }
            None => untouched.push(hooks.harness.title()),
        }
    }
    if !untouched.is_empty() {
        let _ = writeln!(out, "Nothing of agent-memory's to remove for {}", untouched.join(", "));
    }
    for harness in Harness::ALL {
        let count = plan.context_files.iter().filter(|p| rules_of(p) == harness.name()).count();
        if count > 0 {
            let plural = if count == 1 { "" } else { "s" };
            let title = harness.title();
            let _ =
                writeln!(out, "{title}: {count} rules file{plural} the hooks wrote into projects removed");
        }
    }
    if !plan.not_found.is_empty() {
        let names: Vec<&str> = plan.not_found.iter().map(|h| h.title()).collect();
        let _ = writeln!(
            out,
            "Not found on this machine, so left out: {} (`agent-memory install --harness NAME` installs one anyway)",
            names.join(", ")
        );
    }
    let shown: Vec<_> = plan
        .notes
        .iter()
        .filter(|n| n.problem || n.harness.is_none() && plan.scope == Scope::Project)
        .filter(|n| !n.text.starts_with(super::cursor::ALSO_RUNS_CLAUDE))
        .chain(plan.notes.iter().filter(|n| {
            !n.problem
                && plan.mcp.iter().any(|m| !m.done && Some(m.harness) == n.harness && n.text.contains("MCP"))
        }))
        .collect();
    if !shown.is_empty() {
        out.push('\n');
        for note in shown {
            let _ = writeln!(out, "{} {}", if note.problem { "!" } else { "-" }, note.text);
        }
    }
    out
}

/// What install did for one harness: `20 events hooked in <file> (new file); MCP server
/// registered in <file>`.
fn installed(plan: &Plan, hooks: &FilePlan) -> String {
    let events = hooks.harness.spec().events().len();
    let state = match (hooks.status, &hooks.backup) {
        (Status::Create, _) => "new file".to_owned(),
        (Status::Update, Some(backup)) => format!("updated; its old content is in {}", backup.display()),
        (Status::Update, None) => "updated".to_owned(),
        _ => "already in place".to_owned(),
    };
    let mut line = format!("{events} events hooked in {} ({state})", shown(hooks).display());
    match plan.mcp.iter().find(|m| m.harness == hooks.harness) {
        _ if plan.no_mcp => line.push_str("; MCP server left out (--no-mcp)"),
        Some(m) if m.done && m.path == hooks.path => {
            line.push_str("; MCP server registered in the same file")
        }
        Some(m) if m.done => {
            let _ = write!(line, "; MCP server registered in {}", m.path.display());
        }
        Some(_) => line.push_str("; MCP server not registered (see below)"),
        None => {}
    }
    line
}

/// What uninstall did for one harness, or `None` when nothing of ours was there.
fn uninstalled(plan: &Plan, hooks: &FilePlan) -> Option<String> {
    let removed = |f: &FilePlan| matches!(f.status, Status::Update | Status::Remove);
    let mcp = plan
        .mcp
        .iter()
        .find(|m| m.harness == hooks.harness && m.done)
        .and_then(|m| plan.files.iter().find(|f| f.path == m.path));
    let mut parts = Vec::new();
    match mcp {
        Some(file) if file.path == hooks.path => {
            parts.push(format!("hooks and MCP server removed from {}", where_now(file)));
        }
        _ => {
            if removed(hooks) {
                parts.push(format!("hooks removed from {}", where_now(hooks)));
            }
            if let Some(file) = mcp {
                parts.push(format!("MCP server removed from {}", where_now(file)));
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The path a harness's line names: its hooks file, or the folder of Cline's hook files.
fn shown(hooks: &FilePlan) -> &std::path::Path {
    match hooks.harness {
        Harness::Cline => hooks.path.parent().unwrap_or(&hooks.path),
        _ => &hooks.path,
    }
}

/// A file after uninstall: `<path> (deleted: …)`, `<path> (restored …)` or the path.
fn where_now(file: &FilePlan) -> String {
    let path = shown(file).display();
    match file.status {
        Status::Remove => format!("{path}, deleted: agent-memory had created it"),
        _ if file.restored => format!("{path}, restored byte for byte as it was before install"),
        _ => format!("{path}, the rest left as it was"),
    }
}

fn model_line(model: &ModelOutcome) -> String {
    match model {
        ModelOutcome::Installed { model, dir, notes } => format!(
            "Embedding model: {model} installed in {}{}; prompts find notes by meaning too",
            dir.display(),
            match notes {
                0 => String::new(),
                1 => ", 1 note embedded".to_owned(),
                n => format!(", {n} notes embedded"),
            }
        ),
        ModelOutcome::Present { dir } => {
            format!(
                "Embedding model: already installed in {}; prompts find notes by meaning too",
                dir.display()
            )
        }
        ModelOutcome::Planned { dir } => format!("Embedding model: would be installed in {}", dir.display()),
        ModelOutcome::Skipped => {
            "Embedding model: left out (--no-model); prompts find notes by their words alone \
                                  until `agent-memory model install` adds it"
                .to_owned()
        }
        ModelOutcome::Failed { reason } => format!(
            "Embedding model: not installed ({reason}); prompts find notes by their words alone until \
             `agent-memory model install` adds it"
        ),
    }
}

/// Every file, every event and every note.
fn details(plan: &Plan) -> String {
    let mut out = String::new();
    let verb = match (plan.action, plan.dry_run) {
        (Action::Install, false) => "install",
        (Action::Install, true) => "install (dry run: nothing written)",
        (Action::Uninstall, false) => "uninstall",
        (Action::Uninstall, true) => "uninstall (dry run: nothing written)",
    };
    let _ = writeln!(
        out,
        "agent-memory {verb}, {} scope, hook binary {}",
        scope_name(plan.scope),
        plan.binary.display()
    );
    for f in &plan.files {
        let status = match (f.status, plan.dry_run) {
            (Status::Create, false) => "created",
            (Status::Create, true) => "would create",
            (Status::Update, false) if f.restored => "restored as it was before install",
            (Status::Update, true) if f.restored => "would restore as it was before install",
            (Status::Update, false) => "updated",
            (Status::Update, true) => "would update",
            (Status::Remove, false) => "deleted (agent-memory had created it)",
            (Status::Remove, true) => "would delete (agent-memory had created it)",
            (Status::Unchanged, _) => "unchanged",
            (Status::Absent, _) => "absent, nothing to remove",
        };
        let _ = write!(out, "\n{} {}: {status}", f.harness.name(), f.path.display());
        if let Some(target) = &f.symlink_target {
            let _ = write!(out, " (symlink to {})", target.display());
        }
        out.push('\n');
        if f.status == Status::Unchanged && plan.action == Action::Install && !f.edits.is_empty() {
            continue;
        }
        if f.status == Status::Unchanged && plan.action == Action::Install {
            out.push_str("  every hook already in place\n");
        }
        for change in &f.changes {
            let _ = writeln!(out, "  {change}");
        }
        for edit in &f.edits {
            let _ = writeln!(out, "  {edit}");
        }
        match (&f.backup, plan.action, plan.dry_run) {
            (Some(backup), Action::Install, _) => {
                let _ = writeln!(out, "  backup: {}", backup.display());
            }
            (Some(backup), Action::Uninstall, false) => {
                let _ = writeln!(out, "  backup deleted: {}", backup.display());
            }
            (Some(backup), Action::Uninstall, true) => {
                let _ = writeln!(out, "  backup to delete: {}", backup.display());
            }
            _ => {}
        }
        if plan.dry_run && matches!(f.status, Status::Create | Status::Update) {
            for line in f.diff().lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
    }
    for path in &plan.context_files {
        let verb = if plan.dry_run { "would remove" } else { "removed" };
        let _ = writeln!(out, "\n{} rules file {}: {verb}", rules_of(path), path.display());
    }
    if !plan.notes.is_empty() {
        out.push_str("\nNext steps and notes:\n");
        for note in &plan.notes {
            let lead = if note.problem { "! " } else { "- " };
            let _ = writeln!(out, "{lead}{}", note.text);
        }
    }
    out
}

/// The harness whose rules file (its adapter's `context_file`) the hooks wrote at `path`.
fn rules_of(path: &std::path::Path) -> &'static str {
    crate::cmd::ADAPTERS
        .iter()
        .find(|a| a.context_file().is_some_and(|file| path.ends_with(file)))
        .map_or("cursor", |a| a.harness())
}
