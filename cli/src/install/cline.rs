//! Cline: no hooks document but a hooks folder (`~/.cline/hooks/`, or the project's
//! `.clinerules/hooks/`) holding one file per event, named after it, which Cline runs with the
//! payload on stdin. Ours is a two-line shell script that runs our hook; a file of that name that
//! is not ours is never touched. MCP servers live in the user's `cline_mcp_settings.json`.

use std::path::Path;

use super::doctor::{FileCheck, State};
use super::file;
use super::merge::{Change, HandlerSpec, HarnessSpec, Shape};
use super::plan::{Action, Context, FilePlan, Harness, Scope, Status};

/// The events come from the adapter; Cline has no hooks document, so the shape and handler are
/// never used to edit one.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "cline",
    shape: Shape::Flat,
    adapter: &crate::cmd::CLINE,
    fresh_members: &[],
    user_file_is_settings: false,
    handler: HandlerSpec::COMMAND,
};

/// The line that marks a hook file as ours.
const MARK: &str = "# agent-memory hook for Cline (written by `agent-memory install`)";

/// The trust step.
pub(crate) const TRUST: &str = "Cline: the hook files take effect in new tasks. Cline runs the files in \
~/.cline/hooks/ for every workspace and those in a workspace's .clinerules/hooks/ for that one. It waits \
for PreToolUse and PostToolUse only, so notes reach a task's start through .clinerules/agent-memory.md, \
which the hooks keep current (and `agent-memory uninstall` removes).";

/// Our hook file for an event, running `command`.
pub(crate) fn script(command: &str) -> String {
    format!("#!/bin/sh\n{MARK}\nexec {command}\n")
}

/// When `text` is a hook file of ours, the command it runs.
fn ours(text: &str) -> Option<&str> {
    let mut lines = text.lines();
    (lines.next()? == "#!/bin/sh" && lines.next()? == MARK).then_some(())?;
    lines.next()?.strip_prefix("exec ")
}

/// Plans the hook files of one scope: each event's file written (install) or deleted (uninstall)
/// when it is ours. Fails, naming it, when a file of ours would overwrite one that is not.
pub(crate) fn plan(ctx: &Context, scope: Scope, action: Action) -> anyhow::Result<Vec<FilePlan>> {
    let dir = ctx.hooks_file(Harness::Cline, scope)?;
    let command = ctx.command(Harness::Cline);
    let mut plans = Vec::new();
    for (i, event) in SPEC.adapter.hook_events().iter().enumerate() {
        let path = dir.join(event.name);
        let current = file::read(&path)?;
        let found = current.text.as_deref().map(|text| ours(text).map(str::to_owned));
        let event = event.name.to_owned();
        let (status, change, new_text) = match (action, found) {
            (Action::Install, Some(None)) => anyhow::bail!(
                "{} is a Cline hook that is not agent-memory's; move it away or merge it by hand \
                 (nothing was changed)",
                current.target.display()
            ),
            (Action::Install, None) => {
                (Status::Create, Some(Change::Added { event }), Some(script(&command)))
            }
            (Action::Install, Some(Some(running))) if running == command => (Status::Unchanged, None, None),
            (Action::Install, Some(Some(from))) => {
                (Status::Update, Some(Change::Updated { event, from }), Some(script(&command)))
            }
            (Action::Uninstall, Some(Some(_))) => (Status::Remove, Some(Change::Removed { event }), None),
            (Action::Uninstall, Some(None)) => (Status::Unchanged, None, None),
            (Action::Uninstall, None) => (Status::Absent, None, None),
        };
        plans.push(FilePlan {
            harness: Harness::Cline,
            scope,
            symlink_target: (current.target != path).then(|| current.target.clone()),
            path,
            status,
            changes: change.into_iter().collect(),
            edits: Vec::new(),
            backup: None,
            restored: false,
            // The first file stands for the folder in the install report's line for Cline.
            hooks: i == 0,
            current,
            new_text,
        });
    }
    Ok(plans)
}

/// Checks the hook files of one scope: installed when every event's file is ours and runs this
/// binary, absent when none is ours.
pub(crate) fn check(ctx: &Context, scope: Scope) -> FileCheck {
    let mut checked = FileCheck {
        harness: Harness::Cline,
        scope,
        path: Default::default(),
        state: State::Absent,
        details: Vec::new(),
        fixed: false,
    };
    let dir = match ctx.hooks_file(Harness::Cline, scope) {
        Ok(dir) => dir,
        Err(e) => {
            checked.state = State::Unreadable;
            checked.details.push(e.to_string());
            return checked;
        }
    };
    checked.path = dir.clone();
    let expected = ctx.command(Harness::Cline);
    let mut found = 0;
    for event in SPEC.adapter.hook_events() {
        let path = dir.join(event.name);
        match read(&path) {
            Err(e) => checked.details.push(e),
            Ok(None) => checked.details.push(format!("{}: missing", event.name)),
            Ok(Some(text)) => match ours(&text) {
                None => checked.details.push(format!("{}: a hook that is not agent-memory's", event.name)),
                Some(running) => {
                    found += 1;
                    if running != expected {
                        checked.details.push(format!("{}: runs {running} instead of {expected}", event.name));
                    }
                }
            },
        }
    }
    checked.state = match found {
        0 => {
            checked.details.clear();
            State::Absent
        }
        _ if checked.details.is_empty() => State::Installed,
        _ => State::Drifted,
    };
    checked
}

fn read(path: &Path) -> Result<Option<String>, String> {
    file::read(path).map(|current| current.text).map_err(|e| format!("{e:#}"))
}
