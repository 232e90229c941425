//! Our MCP server (`agent-memory mcp`) in each harness's MCP configuration.
//!
//! Every harness keeps its MCP servers under one name each: `mcpServers.<name>` in a JSON file
//! (Claude Code's `~/.claude.json` or a project's `.mcp.json`, Cursor's `mcp.json`, Gemini CLI's
//! and Qwen Code's `settings.json`, Copilot CLI's `mcp-config.json`, droid's `mcp.json`, Cline's
//! `cline_mcp_settings.json`), `[mcp_servers.<name>]` in Codex's `config.toml`, or `mcp.<name>`
//! with a `command` array in OpenCode's `opencode.json`. Ours is named `agent-memory` and runs
//! `"<binary>" mcp`. An entry under that name
//! is ours when its command's file name starts with `agent-memory` (or is the binary being
//! installed) and its arguments are exactly `["mcp"]`; anything else under the name is the user's
//! and is never changed. Removal takes out only our entry, and `mcpServers` (or `mcp_servers`)
//! when that left it empty.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::json::Json;
use super::plan::{Context, Harness, Scope};

/// The name our server is registered under.
pub(crate) const NAME: &str = "agent-memory";

/// How a harness's MCP configuration is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// `{"mcpServers": {name: {…members, "command", "args"}}}`, with these members first.
    Json(&'static [(&'static str, &'static str)]),
    /// Codex's `[mcp_servers.<name>]` table with `command` and `args`.
    Toml,
    /// OpenCode's `{"mcp": {name: {"type": "local", "command": [program, …args]}}}`.
    OpenCode,
}

/// Where a harness keeps MCP servers in a scope, and how; `None` where it has no such file.
pub(crate) fn file(ctx: &Context, harness: Harness, scope: Scope) -> Option<(PathBuf, Format)> {
    let project = || ctx.project.clone();
    Some(match (harness, scope) {
        (Harness::Claude, Scope::User) => (ctx.home.join(".claude.json"), Format::Json(&[("type", "stdio")])),
        (Harness::Claude, Scope::Project) => {
            (project()?.join(".mcp.json"), Format::Json(&[("type", "stdio")]))
        }
        (Harness::Codex, Scope::User) => (ctx.codex_home.join("config.toml"), Format::Toml),
        (Harness::Codex, Scope::Project) => (project()?.join(".codex").join("config.toml"), Format::Toml),
        (Harness::Cursor, Scope::User) => (ctx.home.join(".cursor").join("mcp.json"), Format::Json(&[])),
        (Harness::Cursor, Scope::Project) => (project()?.join(".cursor").join("mcp.json"), Format::Json(&[])),
        (Harness::Gemini, Scope::User) => (ctx.home.join(".gemini").join("settings.json"), Format::Json(&[])),
        (Harness::Gemini, Scope::Project) => {
            (project()?.join(".gemini").join("settings.json"), Format::Json(&[]))
        }
        (Harness::Copilot, Scope::User) => {
            (ctx.copilot_home.join("mcp-config.json"), Format::Json(&[("type", "local")]))
        }
        // Copilot CLI reads MCP servers from the user's mcp-config.json only.
        (Harness::Copilot, Scope::Project) => return None,
        (Harness::Qwen, Scope::User) => (ctx.home.join(".qwen").join("settings.json"), Format::Json(&[])),
        (Harness::Qwen, Scope::Project) => {
            (project()?.join(".qwen").join("settings.json"), Format::Json(&[]))
        }
        (Harness::Droid, Scope::User) => {
            (ctx.home.join(".factory").join("mcp.json"), Format::Json(&[("type", "stdio")]))
        }
        (Harness::Droid, Scope::Project) => {
            (project()?.join(".factory").join("mcp.json"), Format::Json(&[("type", "stdio")]))
        }
        (Harness::Opencode, Scope::User) => (ctx.opencode_home.join("opencode.json"), Format::OpenCode),
        (Harness::Opencode, Scope::Project) => (project()?.join("opencode.json"), Format::OpenCode),
        // Cline reads MCP servers from the user's settings only.
        (Harness::Cline, Scope::User) => (
            ctx.home.join(".cline").join("data").join("settings").join("cline_mcp_settings.json"),
            Format::Json(&[]),
        ),
        (Harness::Cline, Scope::Project) => return None,
    })
}

/// What the MCP entry of one file looks like.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum State {
    /// Ours, running this binary.
    Registered,
    /// Ours, running another program.
    Drifted { command: String },
    /// Something else is registered under our name.
    Foreign,
    /// Nothing under our name (or no file).
    Absent,
}

/// The outcome of an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Edit {
    /// Nothing to change.
    Unchanged,
    /// The new text, and what changed.
    Changed { text: String, what: String },
    /// The name is taken by an entry of the user's: left alone.
    Foreign,
}

/// Whether a command and its arguments are our server.
fn ours(command: &str, args: &[&str], binary: &Path) -> bool {
    let program = Path::new(command);
    let named_like_us = program.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(NAME));
    args == ["mcp"] && (named_like_us || program == binary)
}

/// The state of our entry in a file's text.
pub(crate) fn state(format: Format, text: Option<&str>, binary: &Path) -> Result<State, String> {
    let Some(text) = text else { return Ok(State::Absent) };
    let entry = match format {
        Format::Json(_) => {
            let doc = Json::parse(text).map_err(|e| e.to_string())?;
            let Some(entry) = doc.get("mcpServers").and_then(|s| s.get(NAME)) else {
                return Ok(State::Absent);
            };
            json_entry(entry)
        }
        Format::Toml => {
            let doc = text.parse::<toml_edit::DocumentMut>().map_err(|e| first_line(&e.to_string()))?;
            let Some(entry) = doc.get("mcp_servers").and_then(|s| s.get(NAME)) else {
                return Ok(State::Absent);
            };
            toml_entry(entry)
        }
        Format::OpenCode => {
            let doc = Json::parse(text).map_err(|e| e.to_string())?;
            let Some(entry) = super::opencode::mcp_entry(&doc, NAME) else { return Ok(State::Absent) };
            entry
        }
    };
    Ok(match entry {
        Some((command, args)) if ours(&command, &as_strs(&args), binary) => {
            if Path::new(&command) == binary {
                State::Registered
            } else {
                State::Drifted { command }
            }
        }
        _ => State::Foreign,
    })
}

/// Adds our entry (or points it at `binary`), or with `remove` takes it out.
pub(crate) fn edit(format: Format, text: Option<&str>, binary: &Path, remove: bool) -> Result<Edit, String> {
    let current = state(format, text, binary)?;
    let command = binary.to_string_lossy().into_owned();
    match (&current, remove) {
        (State::Foreign, _) => return Ok(Edit::Foreign),
        (State::Registered, false) | (State::Absent, true) => return Ok(Edit::Unchanged),
        _ => {}
    }
    let what = match (&current, remove) {
        (_, true) => format!("mcp server {NAME}: removed"),
        (State::Drifted { command: from }, false) => {
            format!("mcp server {NAME}: command updated (was {from})")
        }
        _ => format!("mcp server {NAME}: added"),
    };
    let text = match format {
        Format::Json(members) => edit_json(text.unwrap_or(""), members, &command, remove)?,
        Format::Toml => edit_toml(text.unwrap_or(""), &command, remove)?,
        Format::OpenCode => super::opencode::edit_mcp(text.unwrap_or(""), NAME, &command, remove)?,
    };
    Ok(Edit::Changed { text, what })
}

fn edit_json(text: &str, members: &[(&str, &str)], command: &str, remove: bool) -> Result<String, String> {
    let mut doc = Json::parse(text).map_err(|e| e.to_string())?;
    let Json::Object(top) = &mut doc else { return Err("the top level is not an object".to_owned()) };
    if remove {
        if let Some((_, Json::Object(servers))) = top.iter_mut().rev().find(|(k, _)| k == "mcpServers") {
            servers.retain(|(k, _)| k != NAME);
            if servers.is_empty() {
                top.retain(|(k, _)| k != "mcpServers");
            }
        }
        return Ok(doc.to_pretty());
    }
    if !top.iter().any(|(k, _)| k == "mcpServers") {
        top.push(("mcpServers".to_owned(), Json::Object(Vec::new())));
    }
    let Some((_, Json::Object(servers))) = top.iter_mut().rev().find(|(k, _)| k == "mcpServers") else {
        return Err("`mcpServers` is not an object".to_owned());
    };
    match servers.iter_mut().rev().find(|(k, _)| k == NAME) {
        Some((_, Json::Object(fields))) => match fields.iter_mut().rev().find(|(k, _)| k == "command") {
            Some((_, value)) => *value = Json::string(command),
            None => fields.push(("command".to_owned(), Json::string(command))),
        },
        _ => {
            let mut entry: Vec<(String, Json)> =
                members.iter().map(|(k, v)| ((*k).to_owned(), Json::string(*v))).collect();
            entry.push(("command".to_owned(), Json::string(command)));
            entry.push(("args".to_owned(), Json::Array(vec![Json::string("mcp")])));
            // Copilot CLI's local servers say which of their tools it may call.
            if members.contains(&("type", "local")) {
                entry.push(("tools".to_owned(), Json::Array(vec![Json::string("*")])));
            }
            servers.push((NAME.to_owned(), Json::Object(entry)));
        }
    }
    Ok(doc.to_pretty())
}

fn edit_toml(text: &str, command: &str, remove: bool) -> Result<String, String> {
    let mut doc = text.parse::<toml_edit::DocumentMut>().map_err(|e| first_line(&e.to_string()))?;
    if remove {
        if let Some(servers) = doc.get_mut("mcp_servers").and_then(|s| s.as_table_like_mut()) {
            servers.remove(NAME);
            if servers.is_empty() {
                doc.remove("mcp_servers");
            }
        }
        return Ok(doc.to_string());
    }
    if doc.get("mcp_servers").is_none() {
        let mut servers = toml_edit::Table::new();
        servers.set_implicit(true);
        doc.insert("mcp_servers", toml_edit::Item::Table(servers));
    }
    let servers = doc
        .get_mut("mcp_servers")
        .and_then(|s| s.as_table_like_mut())
        .ok_or("`mcp_servers` is not a table")?;
    match servers.get_mut(NAME).and_then(|e| e.as_table_like_mut()) {
        Some(entry) => {
            entry.insert("command", toml_edit::value(command));
        }
        None => {
            let mut entry = toml_edit::Table::new();
            entry.insert("command", toml_edit::value(command));
            entry.insert("args", toml_edit::value(toml_edit::Array::from_iter(["mcp"])));
            servers.insert(NAME, toml_edit::Item::Table(entry));
        }
    }
    Ok(doc.to_string())
}

/// An entry's command and arguments, when it has a string command.
fn json_entry(entry: &Json) -> Option<(String, Vec<String>)> {
    let command = entry.get("command")?.as_str()?.to_owned();
    let args = match entry.get("args") {
        Some(Json::Array(items)) => {
            items.iter().map(|a| a.as_str().map(str::to_owned)).collect::<Option<_>>()?
        }
        None => Vec::new(),
        Some(_) => return None,
    };
    Some((command, args))
}

fn toml_entry(entry: &toml_edit::Item) -> Option<(String, Vec<String>)> {
    let command = entry.get("command")?.as_str()?.to_owned();
    let args = match entry.get("args") {
        Some(args) => {
            args.as_array()?.iter().map(|a| a.as_str().map(str::to_owned)).collect::<Option<_>>()?
        }
        None => Vec::new(),
    };
    Some((command, args))
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("invalid TOML").to_owned()
}
