//! Read-side commands: sessions, timeline, notes, search, config.

use memory_core::{NoteFilter, SearchQuery, SessionKey};
use serde_json::json;

use super::NotesCommand;
use super::projects::Scopes;
use crate::output::{json as print_json, print};
use memory_hook::config::Config;

async fn store() -> anyhow::Result<std::sync::Arc<dyn memory_core::MemoryStore>> {
    crate::store::open(&Config::load()?).await
}

/// The store, and the projects it and the registry know (the current folder's among them).
async fn store_and_scopes() -> anyhow::Result<(std::sync::Arc<dyn memory_core::MemoryStore>, Scopes)> {
    let config = Config::load()?;
    let store = crate::store::open(&config).await?;
    let cwd = std::env::current_dir().ok();
    let scopes = Scopes::load(&config, store.as_ref(), cwd.as_deref()).await?;
    Ok((store, scopes))
}

pub(crate) async fn sessions(json: bool, limit: usize) -> anyhow::Result<std::process::ExitCode> {
    let (store, scopes) = store_and_scopes().await?;
    let mut sessions = store.sessions().await?;
    sessions.truncate(limit);
    if json {
        print_json(&sessions)?;
    } else if sessions.is_empty() {
        print("no sessions recorded yet; wire the hooks in (see README) or run `agent-memory demo`");
    } else {
        let mut text = String::new();
        for s in &sessions {
            text.push_str(&format!(
                "{}  {:>5} events  {}  {}\n",
                s.last_at.format("%Y-%m-%d %H:%M"),
                s.events,
                s.project.as_deref().map_or("-", |id| scopes.project_name(id)),
                s.key
            ));
        }
        print(&text);
    }
    Ok(std::process::ExitCode::SUCCESS)
}

pub(crate) async fn timeline(
    json: bool,
    session: &str,
    limit: usize,
) -> anyhow::Result<std::process::ExitCode> {
    let key = SessionKey(session.to_owned());
    let store = store().await?;
    let events = store.timeline(&key, 0, limit).await?;
    if events.is_empty() {
        // A session whose events retention pruned is still known: it has nothing left to show.
        if !store.sessions().await?.iter().any(|s| s.key == key) {
            anyhow::bail!("no events for session `{session}`; `agent-memory sessions` lists the keys");
        }
        if !json {
            print(&format!(
                "session `{session}` has no events left: retention pruned them (`[retention]`) or they were forgotten"
            ));
            return Ok(std::process::ExitCode::SUCCESS);
        }
    }
    if json {
        print_json(&events)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let mut text = String::new();
    for stored in &events {
        let e = &stored.event;
        let detail = e
            .prompt
            .as_deref()
            .map(|p| format!("prompt: {}", one_line(p, 100)))
            .or_else(|| e.tool.as_ref().map(|t| format!("tool: {} {}", t.name, one_line(&tool_input(t), 90))))
            .unwrap_or_default();
        text.push_str(&format!(
            "{:>4}  {}  {:<18} {}\n",
            stored.seq,
            e.occurred_at.format("%H:%M:%S"),
            e.kind,
            detail
        ));
    }
    print(&text);
    Ok(std::process::ExitCode::SUCCESS)
}

fn tool_input(tool: &memory_core::ToolCall) -> String {
    match &tool.input {
        Some(serde_json::Value::Object(map)) => map
            .get("command")
            .or_else(|| map.get("file_path"))
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .unwrap_or_else(|| serde_json::Value::Object(map.clone()).to_string()),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

fn one_line(text: &str, max: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max {
        format!("{}…", flat.chars().take(max).collect::<String>())
    } else {
        flat
    }
}

pub(crate) async fn notes(json: bool, command: NotesCommand) -> anyhow::Result<std::process::ExitCode> {
    let (store, scopes) = store_and_scopes().await?;
    // Writes reach the local copy hooks read in forward mode at once.
    let config = Config::load()?;
    match command {
        NotesCommand::List { scope, prefix } => {
            let scope = scope.as_deref().map(|s| scopes.scope(s)).transpose()?;
            let notes = store.list_notes(&NoteFilter { scope, prefix }).await?;
            if json {
                print_json(&notes)?;
            } else if notes.is_empty() {
                print("no notes; run `agent-memory dream` to distill recorded sessions into notes");
            } else {
                let text: String = notes
                    .iter()
                    .map(|n| format!("{:<28} {:<40} {}\n", scopes.label(&n.meta.scope), n.path, n.meta.title))
                    .collect();
                print(&text);
            }
        }
        NotesCommand::Show { scope, path, history } => {
            let scope = scopes.scope(&scope)?;
            let Some(note) = store.get_note(&scope, &path).await? else {
                anyhow::bail!(
                    "no note `{path}` in scope `{}`; `agent-memory notes list` shows what exists",
                    scopes.label(&scope)
                );
            };
            let previous = if history { store.note_history(&scope, &path).await? } else { Vec::new() };
            if json {
                print_json(&json!({ "note": note, "history": previous }))?;
            } else {
                let mut text = note.to_markdown();
                for (i, old) in previous.iter().enumerate().rev() {
                    text.push_str(&format!(
                        "\n<!-- version {} of {} -->\n{}",
                        i + 1,
                        previous.len() + 1,
                        old.to_markdown()
                    ));
                }
                print(&text);
            }
        }
        NotesCommand::Delete { scope, path, yes } => {
            let scope = scopes.scope(&scope)?;
            let label = scopes.label(&scope);
            if store.get_note(&scope, &path).await?.is_none() {
                anyhow::bail!("no note `{path}` in scope `{label}`");
            }
            if !yes {
                match crate::output::ask(&format!("Delete {label} {path} and its history for good?"))? {
                    crate::output::Answer::Yes => {}
                    crate::output::Answer::No => {
                        print("nothing deleted");
                        return Ok(std::process::ExitCode::from(1));
                    }
                    crate::output::Answer::NoTerminal => {
                        crate::output::error(
                            "agent-memory: notes delete asks first, but stdin is not a terminal; pass --yes to delete without asking",
                        );
                        return Ok(std::process::ExitCode::from(1));
                    }
                }
            }
            let existed = store.delete_note(&scope, &path).await?;
            crate::store::refresh_replica(&config, store.as_ref()).await?;
            if json {
                print_json(&json!({ "deleted": existed }))?;
            } else {
                print(&format!("deleted {label} {path} and its history"));
            }
        }
        NotesCommand::Add(args) => {
            let code = super::notes::add(json, &args, store.as_ref(), &scopes).await?;
            crate::store::refresh_replica(&config, store.as_ref()).await?;
            return Ok(code);
        }
        NotesCommand::Edit { scope, path } => {
            let code =
                super::notes::edit(json, &scopes.scope(&scope)?, &path, store.as_ref(), &scopes).await?;
            crate::store::refresh_replica(&config, store.as_ref()).await?;
            return Ok(code);
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// What `search` looks through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Looking {
    pub(crate) notes: bool,
    pub(crate) events: bool,
}

pub(crate) async fn search(
    json: bool,
    query: &str,
    scope_args: Vec<String>,
    history: &super::history::HistoryArgs,
    looking: Looking,
    limit: usize,
) -> anyhow::Result<std::process::ExitCode> {
    use super::history::{excerpt, hit_json};
    let (store, scopes) = store_and_scopes().await?;
    let mut wanted = Vec::new();
    for text in &scope_args {
        let scope = scopes.scope(text)?;
        if !wanted.contains(&scope) {
            wanted.push(scope);
        }
    }
    let filter = history.filter(&scopes)?;
    if let Some(project) = &filter.project {
        let scope = memory_core::Scope::Project(project.clone());
        if !wanted.contains(&scope) {
            wanted.push(scope);
        }
    }
    // Notes have no harness, session or time: those filters ask about history alone.
    let event_only = filter.harness.is_some()
        || filter.session.is_some()
        || filter.since.is_some()
        || filter.until.is_some();
    let notes = if looking.notes && !(event_only && looking.events) {
        store.search_notes(&SearchQuery::new(query, wanted, limit)).await?
    } else {
        Vec::new()
    };
    let events = if looking.events {
        store.search_events(&memory_core::EventQuery::search(query, filter, limit)).await?
    } else {
        Vec::new()
    };
    let terms = memory_core::search::expand(query);
    let note_texts: Vec<String> = notes.iter().map(|h| memory_core::search::note_text(&h.note)).collect();
    let note_relevance = memory_core::search::readable_relevance(&note_texts, &terms);
    let notes = super::history::ranked(notes, note_relevance, |h| h.matched_terms);
    let event_relevance = super::history::event_relevance(&events, query);
    let events = super::history::ranked(events, event_relevance, |h| h.matched_terms);
    let project_of = |hit: &memory_core::EventHit| {
        hit.event.event.project.as_deref().map(|id| scopes.project_name(id).to_owned())
    };
    if json {
        let notes: Vec<_> = notes
            .iter()
            .map(|(h, relevance)| {
                json!({
                    "score": h.score,
                    "relevance": (relevance * 1000.0).round() / 1000.0,
                    "matched_terms": h.matched_terms,
                    "excerpt": memory_core::search::excerpt(&h.note.body, &terms, 160),
                    "note": h.note,
                })
            })
            .collect();
        let events: Vec<_> =
            events.iter().map(|(h, r)| hit_json(h, query, *r, project_of(h).as_deref())).collect();
        if looking.events {
            print_json(&json!({ "query": query, "notes": notes, "events": events }))?;
        } else {
            print_json(&notes)?;
        }
        return Ok(std::process::ExitCode::SUCCESS);
    }
    if notes.is_empty() && events.is_empty() {
        print(match (looking.notes, looking.events) {
            (true, false) => "no matching notes",
            (false, true) => "no matching events",
            _ => "no matching notes or events",
        });
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let mut text = String::new();
    if !notes.is_empty() {
        text.push_str("Notes (relevance, terms matched, scope, path, title)\n");
        for (h, relevance) in &notes {
            text.push_str(&format!(
                "  {:.2}  {}/{}  {:<24} {:<40} {}\n        {}\n",
                relevance,
                h.matched_terms,
                terms.len(),
                scopes.label(&h.note.meta.scope),
                h.note.path,
                h.note.meta.title,
                memory_core::search::excerpt(&h.note.body, &terms, 160),
            ));
        }
    }
    if !events.is_empty() {
        text.push_str("History (relevance, terms matched, time, session #seq, event, project)\n");
        for (h, relevance) in &events {
            let e = &h.event.event;
            text.push_str(&format!(
                "  {:.2}  {}/{}  {}  {} #{}  {}  {}\n        {}\n",
                relevance,
                h.matched_terms,
                terms.len(),
                e.occurred_at.format("%Y-%m-%d %H:%M"),
                e.session,
                h.event.seq,
                e.kind,
                project_of(h).unwrap_or_else(|| "-".to_owned()),
                excerpt(h, query),
            ));
        }
    }
    print(&text);
    Ok(std::process::ExitCode::SUCCESS)
}

pub(crate) fn show_config(json: bool) -> anyhow::Result<std::process::ExitCode> {
    let config = Config::load()?;
    let file = memory_hook::paths::config_file(&memory_hook::Env::process());
    let info = json!({
        "config_file": file,
        "config_file_exists": file.exists(),
        "backend": format!("{:?}", config.store.backend).to_lowercase(),
        "sqlite_path": config.sqlite_path(),
        "data_dir": config.data_dir(),
        "journal_dir": config.journal_dir(),
        "log_dir": config.log_dir(),
        "hook_deadline_ms": config.hook.deadline_ms,
        "hook_inject_deadline_ms": config.hook.inject_deadline_ms.max(config.hook.deadline_ms),
    });
    if json {
        print_json(&info)?;
    } else {
        let text: String = info
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| format!("{k:<20} {}\n", v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
            .collect();
        print(&text);
    }
    Ok(std::process::ExitCode::SUCCESS)
}
