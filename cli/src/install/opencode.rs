//! OpenCode: no hooks file but a plugin of ours, `agent-memory.js`, in its plugin folder
//! (`~/.config/opencode/plugins/`, or `$XDG_CONFIG_HOME/opencode/plugins/`, and a project's
//! `.opencode/plugins/`), written whole from `adapter_opencode::plugin_source`; MCP servers under
//! `mcp` in its `opencode.json`, each a `command` array.

use std::path::Path;

use super::file;
use super::json::Json;
use super::merge::{HandlerSpec, HarnessSpec, Shape};
use super::plan::{Action, Context, FilePlan, Harness, Scope, Status};

/// The spec the other harnesses' code reads (name, adapter); OpenCode's plugin is never merged.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "opencode",
    shape: Shape::Flat,
    adapter: &crate::cmd::OPENCODE,
    fresh_members: &[],
    user_file_is_settings: false,
    handler: HandlerSpec::COMMAND,
};

/// The trust step.
pub(crate) const TRUST: &str = "OpenCode: the plugin loads when OpenCode starts (a running OpenCode needs a restart); \
`opencode --pure` runs without it. It waits at most 10 seconds for agent-memory and goes on without notes when \
the binary is missing or fails.";

/// The plugin our binary would write for this context.
fn expected(ctx: &Context) -> String {
    adapter_opencode::plugin_source(&ctx.binary.to_string_lossy())
}

/// Plans the plugin file: written whole on install, deleted on uninstall, and left alone when a
/// file of the same name is not ours.
pub(crate) fn plan_plugin(ctx: &Context, scope: Scope, action: Action) -> anyhow::Result<FilePlan> {
    let path = ctx.hooks_file(Harness::Opencode, scope)?;
    let current = file::read(&path)?;
    let mut plan = FilePlan {
        harness: Harness::Opencode,
        scope,
        symlink_target: (current.target != path).then(|| current.target.clone()),
        path,
        status: Status::Unchanged,
        changes: Vec::new(),
        edits: Vec::new(),
        backup: None,
        restored: false,
        hooks: true,
        current: current.clone(),
        new_text: None,
    };
    if let Some(text) = &current.text
        && !adapter_opencode::is_ours(text)
    {
        anyhow::bail!(
            "{} is not agent-memory's plugin; move it away to let agent-memory write its own (nothing was changed)",
            current.target.display()
        );
    }
    let name = adapter_opencode::PLUGIN_FILE;
    match (action, &current.text) {
        (Action::Uninstall, None) => plan.status = Status::Absent,
        (Action::Uninstall, Some(_)) => {
            plan.status = Status::Remove;
            let backup = file::backup_path(&current.target);
            plan.backup = backup.is_file().then_some(backup);
            plan.edits.push(format!("plugin {name}: removed"));
        }
        (Action::Install, Some(text)) if *text == expected(ctx) => {
            plan.edits.push(format!("plugin {name}: in place"));
        }
        (Action::Install, found) => {
            plan.status = if found.is_some() { Status::Update } else { Status::Create };
            let verb = if found.is_some() { "rewritten for this binary" } else { "added" };
            plan.edits.push(format!("plugin {name}: {verb}"));
            plan.new_text = Some(expected(ctx));
        }
    }
    Ok(plan)
}

/// What doctor finds in a plugin file that exists: nothing wrong, or why it drifted.
pub(crate) fn check_plugin(ctx: &Context, path: &Path, text: &str) -> Vec<String> {
    if !adapter_opencode::is_ours(text) {
        return vec![format!("{} is not agent-memory's plugin", path.display())];
    }
    let mut details = Vec::new();
    if text != expected(ctx) {
        details.push(format!("the plugin is not the one this binary writes for {}", ctx.binary.display()));
    }
    let program = super::detect::resolve(&ctx.binary);
    if program.is_none_or(|p| super::doctor::binary_state(&p) != super::doctor::BinaryState::Ok) {
        details.push(format!("{} does not run", ctx.binary.display()));
    }
    details
}

/// Our MCP entry in `opencode.json`: `{"mcp": {name: {"type": "local", "command": [binary,
/// "mcp"], "enabled": true}}}`. Its command and arguments, when the entry has a command array.
pub(crate) fn mcp_entry(doc: &Json, name: &str) -> Option<Option<(String, Vec<String>)>> {
    let entry = doc.get("mcp")?.get(name)?;
    let Some(Json::Array(items)) = entry.get("command") else { return Some(None) };
    let parts: Option<Vec<String>> = items.iter().map(|a| a.as_str().map(str::to_owned)).collect();
    Some(parts.and_then(|mut parts| (!parts.is_empty()).then(|| (parts.remove(0), parts))))
}

/// Adds, repoints or removes our MCP entry in `opencode.json`'s text.
pub(crate) fn edit_mcp(text: &str, name: &str, command: &str, remove: bool) -> Result<String, String> {
    let mut doc = Json::parse(text).map_err(|e| e.to_string())?;
    let Json::Object(top) = &mut doc else { return Err("the top level is not an object".to_owned()) };
    if remove {
        if let Some((_, Json::Object(servers))) = top.iter_mut().rev().find(|(k, _)| k == "mcp") {
            servers.retain(|(k, _)| k != name);
            if servers.is_empty() {
                top.retain(|(k, _)| k != "mcp");
            }
        }
        return Ok(doc.to_pretty());
    }
    if !top.iter().any(|(k, _)| k == "mcp") {
        top.push(("mcp".to_owned(), Json::Object(Vec::new())));
    }
    let Some((_, Json::Object(servers))) = top.iter_mut().rev().find(|(k, _)| k == "mcp") else {
        return Err("`mcp` is not an object".to_owned());
    };
    let argv = Json::Array(vec![Json::string(command), Json::string("mcp")]);
    match servers.iter_mut().rev().find(|(k, _)| k == name) {
        Some((_, Json::Object(fields))) => match fields.iter_mut().rev().find(|(k, _)| k == "command") {
            Some((_, value)) => *value = argv,
            None => fields.push(("command".to_owned(), argv)),
        },
        _ => servers.push((
            name.to_owned(),
            Json::Object(vec![
                ("type".to_owned(), Json::string("local")),
                ("command".to_owned(), argv),
                ("enabled".to_owned(), Json::Bool(true)),
            ]),
        )),
    }
    Ok(doc.to_pretty())
}
