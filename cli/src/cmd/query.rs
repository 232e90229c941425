//! Read-side commands: sessions, timeline, notes, search, config.

use memory_core::{NoteFilter, NotePath, SearchQuery};
use serde_json::json;

use super::NotesCommand;
use super::projects::Scopes;
use crate::output::{Align, Clock, Table, Tone, clip, clock, json as print_json, paint, print};
use memory_core::StoredEvent;
use memory_hook::config::Config;

/// The store, and the projects it and the registry know (the current folder's among them).
async fn store_and_scopes() -> anyhow::Result<(std::sync::Arc<dyn memory_core::MemoryStore>, Scopes)> {
    let config = Config::load()?;
    let store = crate::store::open(&config).await?;
    let cwd = std::env::current_dir().ok();
    let scopes = Scopes::load(&config, store.as_ref(), cwd.as_deref()).await?;
    Ok((store, scopes))
}

pub(crate) async fn sessions(
    json: bool,
    limit: usize,
    offset: usize,
) -> anyhow::Result<std::process::ExitCode> {
    let (store, scopes) = store_and_scopes().await?;
    let all = store.sessions().await?;
    let total = all.len();
    let page: Vec<_> =
        all.into_iter().skip(offset).take(if limit == 0 { usize::MAX } else { limit }).collect();
    let titles = memory_hook::sessions::titles(store.as_ref(), &page).await?;
    if json {
        let listed: Vec<serde_json::Value> = page
            .iter()
            .zip(&titles)
            .map(|(s, title)| {
                let mut value = serde_json::to_value(s).unwrap_or_default();
                value["title"] = json!(title);
                // The project as a person reads and types it, by name.
                value["project"] = json!(s.project.as_deref().map(|id| scopes.project_name(id)));
                value
            })
            .collect();
        print_json(&listed)?;
    } else if total == 0 {
        print("no sessions recorded yet; wire the hooks in (see README) or run `agent-memory demo`");
    } else {
        let project_name = |id: &str| scopes.project_name(id).to_owned();
        print(&render_sessions(&page, &titles, total, offset, &project_name, clock()));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The `sessions` table, with a line saying which of the `total` sessions it shows and how to
/// see the others.
pub(crate) fn render_sessions(
    page: &[memory_core::SessionInfo],
    titles: &[Option<String>],
    total: usize,
    offset: usize,
    project_name: &dyn Fn(&str) -> String,
    clock: &Clock,
) -> String {
    if page.is_empty() {
        return format!(
            "no sessions past the first {total} (--offset {offset}); `agent-memory sessions` starts at the most recent"
        );
    }
    let mut table = Table::new(&[
        ("LAST ACTIVE", Align::Left),
        ("STARTED", Align::Left),
        ("HARNESS", Align::Left),
        ("EVENTS", Align::Right),
        ("PROJECT", Align::Left),
        ("SESSION", Align::Left),
        ("TITLE", Align::Left),
    ]);
    for (s, title) in page.iter().zip(titles) {
        table.row(vec![
            clock.minute(s.last_at),
            clock.minute(s.started_at),
            s.harness.clone(),
            s.events.to_string(),
            s.project.as_deref().map_or_else(|| "-".to_owned(), project_name),
            s.key.to_string(),
            title.clone().unwrap_or_else(|| "-".to_owned()),
        ]);
    }
    let mut text = table.render();
    let (first, last) = (offset + 1, offset + page.len());
    if first == 1 && last == total {
        text.push_str(&paint(Tone::Dim, &format!("{total} sessions, most recent first")));
    } else {
        let mut line = format!("sessions {first}–{last} of {total}, most recent first");
        if last < total {
            line.push_str(&format!("; next page: --offset {last}; all: --limit 0"));
        }
        text.push_str(&paint(Tone::Dim, &line));
    }
    text
}

pub(crate) async fn timeline(
    json: bool,
    session: &str,
    here: bool,
    limit: usize,
    after: u64,
) -> anyhow::Result<std::process::ExitCode> {
    let (store, scopes) = store_and_scopes().await?;
    let all = store.sessions().await?;
    let project = if here {
        Some(scopes.here_id().ok_or_else(|| anyhow::anyhow!("this folder is in no known project"))?)
    } else {
        None
    };
    let info = memory_hook::sessions::resolve(&all, session, project)?.clone();
    let session = info.key.as_str();
    let limit = if limit == 0 { usize::MAX } else { limit };
    let events = store.timeline(&info.key, after, limit).await?;
    if json {
        let mut listed = serde_json::to_value(&events)?;
        // The project as a person reads and types it, by name; its id (which a rename keeps)
        // beside it for scripts.
        for stored in listed.as_array_mut().into_iter().flatten() {
            let event = &mut stored["event"];
            if let Some(id) = event["project"].as_str().map(str::to_owned) {
                event["project"] = serde_json::json!(scopes.project_name(&id));
                event["project_id"] = serde_json::json!(id);
            }
        }
        print_json(&listed)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    if events.is_empty() {
        // A session whose events retention pruned is still known: it has nothing left to show.
        print(&if info.events == 0 {
            format!(
                "session `{session}` has no events left: retention pruned them (`[retention]`) or they were forgotten"
            )
        } else {
            format!(
                "session `{session}` has no events after #{after}; its {} events start at #1",
                info.events
            )
        });
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let title = memory_hook::sessions::title(store.as_ref(), &info.key).await?;
    let events = memory_hook::sessions::merge_twins(events);
    print(&render_timeline(&info, title.as_deref(), &events, &|key| scopes.key_label(key), clock()));
    Ok(std::process::ExitCode::SUCCESS)
}

/// The `timeline` table: one row per event, a failure's error and an injection's notes on the
/// line under it, and a line saying which events it shows.
pub(crate) fn render_timeline(
    info: &memory_core::SessionInfo,
    title: Option<&str>,
    events: &[StoredEvent],
    note_label: &dyn Fn(&str) -> String,
    clock: &Clock,
) -> String {
    let Some((first, last)) = events.first().zip(events.last()) else {
        return String::new();
    };
    let zone = clock.abbreviation(first.event.occurred_at);
    let mut table = Table::new(&[
        ("#", Align::Right),
        ("TIME", Align::Left),
        ("EVENT", Align::Left),
        ("DETAIL", Align::Left),
    ]);
    for stored in events {
        let (detail, tone, under) = describe(&stored.event, note_label);
        table.row_with(
            vec![
                stored.seq.to_string(),
                clock.second(stored.event.occurred_at),
                stored.event.kind.to_string(),
                detail,
            ],
            tone,
            under,
        );
    }
    let mut text = format!(
        "{} · {} · started {} · times in {zone}\n",
        info.key,
        info.harness,
        clock.minute(info.started_at)
    );
    if let Some(title) = title {
        text = format!("{title}\n{text}");
    }
    text.push_str(&table.render());
    let line = if first.seq <= 1 && last.seq >= info.events {
        format!("{} events", info.events)
    } else if last.seq < info.events {
        format!("events #{}–#{} of {}; next page: --after {}", first.seq, last.seq, info.events, last.seq)
    } else {
        format!("events #{}–#{} of {}", first.seq, last.seq, info.events)
    };
    text.push_str(&paint(Tone::Dim, &line));
    text
}

/// An event's detail cell, its tone, and the line under it (a failure's error, the notes an
/// injection carried).
fn describe(
    e: &memory_core::HookEvent,
    note_label: &dyn Fn(&str) -> String,
) -> (String, Tone, Option<String>) {
    if e.kind == memory_core::EventKind::Injection {
        let notes: Vec<String> = e
            .raw
            .get("notes")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str())
            .map(note_label)
            .collect();
        let chars = e.raw.get("chars").and_then(serde_json::Value::as_u64).unwrap_or(0);
        let trigger = e.raw.get("trigger").and_then(serde_json::Value::as_str).unwrap_or("a hook");
        let detail = format!("{} notes, {chars} chars, on {trigger}", notes.len());
        let under = (!notes.is_empty()).then(|| clip(&notes.join(", "), 300));
        return (detail, Tone::Injected, under);
    }
    if let Some(prompt) = e.prompt.as_deref() {
        return (format!("prompt: {}", clip(prompt, 100)), Tone::Plain, None);
    }
    let Some(tool) = e.tool.as_ref() else {
        return (String::new(), Tone::Plain, None);
    };
    let detail = format!("{}: {}", tool.name, clip(&tool.input_line(), 90));
    if tool.failed != Some(true) && tool.error.is_none() {
        return (detail, Tone::Plain, None);
    }
    let why = tool.error.clone().or_else(|| tool.output.as_ref().map(output_text)).unwrap_or_default();
    let code =
        tool.shell.as_ref().and_then(|s| s.exit_code).map(|c| format!(" (exit {c})")).unwrap_or_default();
    let why = if why.trim().is_empty() { String::new() } else { format!(": {}", clip(&why, 200)) };
    let under = format!("failed{code}{why}");
    (detail, Tone::Failure, Some(under))
}

/// A tool's output as text: a string as it is, an object's `stderr`/`output`/`stdout` field
/// when it has one, else the JSON.
fn output_text(output: &serde_json::Value) -> String {
    match output {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Object(map) => ["stderr", "error", "output", "stdout"]
            .iter()
            .filter_map(|k| map.get(*k).and_then(serde_json::Value::as_str))
            .find(|t| !t.trim().is_empty())
            .map_or_else(|| output.to_string(), str::to_owned),
        other => other.to_string(),
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
                let naming = scopes.naming();
                print_json(&notes.iter().map(|n| naming.note(n)).collect::<Vec<_>>())?;
            } else if notes.is_empty() {
                print("no notes; run `agent-memory dream` to distill recorded sessions into notes");
            } else {
                print(&render_notes(&notes, &|scope| scopes.label(scope), clock()));
            }
        }
        NotesCommand::Show { scope, path, history } => {
            let (scope, path, note) = named_note(store.as_ref(), &scopes, &scope, &path).await?;
            let previous = if history { store.note_history(&scope, &path).await? } else { Vec::new() };
            let naming = scopes.naming();
            if json {
                let previous: Vec<_> = previous.iter().map(|n| naming.note(n)).collect();
                print_json(&json!({ "note": naming.note(&note), "history": previous }))?;
            } else {
                let mut text = naming.markdown(&note);
                for (i, old) in previous.iter().enumerate().rev() {
                    text.push_str(&format!(
                        "\n<!-- version {} of {} -->\n{}",
                        i + 1,
                        previous.len() + 1,
                        naming.markdown(old)
                    ));
                }
                print(&text);
            }
        }
        NotesCommand::Explain { scope, path } => {
            let (scope, path, note) = named_note(store.as_ref(), &scopes, &scope, &path).await?;
            let items = memory_hook::explain::items(store.as_ref(), &note).await?;
            let project = |e: &memory_core::StoredEvent| {
                e.event.project.as_ref().map(|id| scopes.label(&memory_core::Scope::Project(id.clone())))
            };
            if json {
                let items =
                    explained_json(&items, |id| scopes.label(&memory_core::Scope::Project(id.to_owned())));
                print_json(&json!({ "scope": scopes.label(&scope), "path": path, "items": items }))?;
            } else {
                let mut text = format!("{} ({} {path})\n", note.meta.title, scopes.label(&scope));
                for item in &items {
                    text.push_str(&format!("- {}\n", item.text));
                    match &item.said {
                        Some(said) => {
                            let e = &said.event.event;
                            let in_project =
                                project(&said.event).map(|p| format!(", project {p}")).unwrap_or_default();
                            text.push_str(&format!(
                                "  said in {} on {}{in_project}: \"{}\"\n",
                                e.harness.name,
                                e.occurred_at.format("%Y-%m-%d %H:%M UTC"),
                                said.sentence
                            ));
                            match said.filed {
                                Some((reach, why)) => text.push_str(&format!(
                                    "  a statement like this is kept in {}: {}\n",
                                    kept_in(reach),
                                    why.says()
                                )),
                                None => text.push_str(
                                    "  kept as the dream read it (a correction or a model's summary)\n",
                                ),
                            }
                        }
                        None => {
                            text.push_str("  not said in so many words: learned from what the sessions did\n")
                        }
                    }
                }
                print(&text);
            }
        }
        NotesCommand::Delete { scope, path, yes } => {
            let scope = scopes.scope(&scope)?;
            let path = scopes.note_path(&scope, &path);
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
            let scope = scopes.scope(&scope)?;
            let path = scopes.note_path(&scope, &path);
            let code = super::notes::edit(json, &scope, &path, store.as_ref(), &scopes).await?;
            crate::store::refresh_replica(&config, store.as_ref()).await?;
            return Ok(code);
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The `notes list` table.
pub(crate) fn render_notes(
    notes: &[memory_core::Note],
    label: &dyn Fn(&memory_core::Scope) -> String,
    clock: &Clock,
) -> String {
    let mut table = Table::new(&[
        ("SCOPE", Align::Left),
        ("PATH", Align::Left),
        ("UPDATED", Align::Left),
        ("BY", Align::Left),
        ("TITLE", Align::Left),
    ]);
    for n in notes {
        table.row(vec![
            label(&n.meta.scope),
            n.path.to_string(),
            clock.minute(n.meta.updated),
            n.meta.generator.clone(),
            n.meta.title.clone(),
        ]);
    }
    let mut text = table.render();
    text.push_str(&paint(Tone::Dim, &format!("{} notes", notes.len())));
    text
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
    use super::history::excerpt;
    let (store, scopes) = store_and_scopes().await?;
    let mut wanted = Vec::new();
    for text in &scope_args {
        let scope = scopes.scope(text)?;
        if !wanted.contains(&scope) {
            wanted.push(scope);
        }
    }
    let mut filter = history.filter(&scopes)?;
    if let Some(given) = &filter.session {
        let all = store.sessions().await?;
        filter.session = Some(memory_hook::sessions::resolve(&all, given.as_str(), None)?.key.clone());
    }
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
        // Asked in a project's folder, history is about that project first: its best hits, then
        // the best of every project's.
        let mut filters = Vec::new();
        if let Some(id) = scopes.here_id().filter(|_| filter.project.is_none()) {
            filters.push(memory_core::EventFilter { project: Some(id.to_owned()), ..filter.clone() });
        }
        filters.push(filter);
        // With the model installed, by meaning too.
        let embedder = Config::load()?.embedder();
        memory_hook::history::search(store.as_ref(), query, &filters, limit, embedder.as_ref()).await?
    } else {
        Vec::new()
    };
    let terms = memory_core::search::expand(query);
    // Notes stay in the order the store ranked them (words and meaning, as injection ranks them).
    let note_relevance = super::history::note_relevance(&notes, query);
    let notes: Vec<_> = notes.into_iter().zip(note_relevance).collect();
    // History asked in a project's folder is about that project first: its events before another
    // project's.
    let here = |h: &memory_core::EventHit| {
        usize::from(scopes.here_id().is_some_and(|id| h.event.event.project.as_deref() == Some(id)))
    };
    let events = super::history::ranked(events, here);
    let events = super::history::listed(store.as_ref(), events, limit).await;
    let project_of = |hit: &memory_core::EventHit| {
        hit.event.event.project.as_deref().map(|id| scopes.project_name(id).to_owned())
    };
    if json {
        let naming = scopes.naming();
        let notes: Vec<_> = notes
            .iter()
            .map(|(h, relevance)| {
                json!({
                    "score": h.score,
                    "relevance": (relevance * 1000.0).round() / 1000.0,
                    "matched_terms": h.matched_terms,
                    "excerpt": memory_core::search::excerpt(&h.note.body, &terms, 160),
                    "note": naming.note(&h.note),
                })
            })
            .collect();
        let events: Vec<_> = events
            .iter()
            .map(|listed| super::history::listed_json(listed, query, project_of(&listed.hit).as_deref()))
            .collect();
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
    let clock = clock();
    let mut text = String::new();
    if !notes.is_empty() {
        let mut table = Table::new(&[
            ("RELEVANCE", Align::Right),
            ("WORDS", Align::Right),
            ("SCOPE", Align::Left),
            ("PATH", Align::Left),
            ("TITLE", Align::Left),
        ]);
        for (h, relevance) in &notes {
            table.row_with(
                vec![
                    format!("{relevance:.2}"),
                    format!("{}/{}", h.matched_terms, terms.len()),
                    scopes.label(&h.note.meta.scope),
                    h.note.path.to_string(),
                    h.note.meta.title.clone(),
                ],
                Tone::Plain,
                Some(memory_core::search::excerpt(&h.note.body, &terms, 160)),
            );
        }
        text.push_str(&paint(Tone::Header, &format!("Notes ({})", notes.len())));
        text.push('\n');
        text.push_str(&table.render());
    }
    if !events.is_empty() {
        if !text.is_empty() {
            text.push('\n');
        }
        let zone =
            events.first().map(|l| clock.abbreviation(l.hit.event.event.occurred_at)).unwrap_or_default();
        let mut table = Table::new(&[
            ("RELEVANCE", Align::Right),
            ("WORDS", Align::Right),
            ("TIME", Align::Left),
            ("SESSION", Align::Left),
            ("#", Align::Right),
            ("EVENT", Align::Left),
            ("PROJECT", Align::Left),
        ]);
        for listed in &events {
            let h = &listed.hit;
            let e = &h.event.event;
            let tone = if e.tool.as_ref().is_some_and(|t| t.failed == Some(true)) {
                Tone::Failure
            } else {
                Tone::Plain
            };
            let kind =
                if listed.count > 1 { format!("{} ×{}", e.kind, listed.count) } else { e.kind.to_string() };
            let fixed = listed.fix.as_ref().map(|fix| {
                let command =
                    fix.event.tool.as_ref().and_then(|t| t.shell.as_ref()).map(|s| s.command.as_str());
                format!(
                    "fixed by #{}: `{}` passed",
                    fix.seq,
                    crate::output::clip(command.unwrap_or_default(), 120)
                )
            });
            table.row_with(
                vec![
                    format!("{:.2}", listed.relevance),
                    format!("{}/{}", h.matched_terms, terms.len()),
                    clock.second(e.occurred_at),
                    e.session.to_string(),
                    h.event.seq.to_string(),
                    kind,
                    project_of(h).unwrap_or_else(|| "-".to_owned()),
                ],
                tone,
                std::iter::once(excerpt(h, query))
                    .chain(fixed)
                    .chain((!listed.then.is_empty()).then(|| format!("then: {}", listed.then.join(" → ")))),
            );
        }
        text.push_str(&paint(Tone::Header, &format!("History ({}, times in {zone})", events.len())));
        text.push('\n');
        text.push_str(&table.render());
    }
    text.push_str(&paint(
        Tone::Dim,
        "relevance: 1.00 for the best hit of each list; words: how many of the words asked for (with their variants) a hit holds",
    ));
    print(&text);
    Ok(std::process::ExitCode::SUCCESS)
}

pub(crate) fn show_config(json: bool) -> anyhow::Result<std::process::ExitCode> {
    let env = memory_hook::Env::process();
    let config = Config::load_from(&env)?;
    let file = memory_hook::paths::config_file(&env);
    let settings = memory_hook::settings::settings(&env)?;
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
        let mut info = info;
        info["settings"] = json!(settings);
        print_json(&info)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let mut text = format!(
        "config file  {}{}\ndata         {}\nstore        {}\n\n",
        file.display(),
        if file.exists() { "" } else { " (none: every setting is a default)" },
        config.data_dir().display(),
        match config.store.backend {
            memory_hook::Backend::Sqlite => config.sqlite_path().display().to_string(),
            memory_hook::Backend::Neo4j => "neo4j".to_owned(),
        },
    );
    text.push_str(&render_settings(&settings));
    print(&text);
    Ok(std::process::ExitCode::SUCCESS)
}

/// The settings table: key, value, and where the value came from.
pub(crate) fn render_settings(settings: &[memory_hook::settings::Setting]) -> String {
    let mut table = Table::new(&[("SETTING", Align::Left), ("VALUE", Align::Left), ("FROM", Align::Left)]);
    for s in settings {
        let value = match &s.value {
            serde_json::Value::Null => "-".to_owned(),
            serde_json::Value::String(text) => text.clone(),
            // A setting read as `f32` (`min_similarity`) shows as it was written.
            serde_json::Value::Number(n) if n.is_f64() => {
                n.as_f64().map_or_else(String::new, |v| (v as f32).to_string())
            }
            other => other.to_string(),
        };
        table.row(vec![s.key.clone(), clip(&value, 60), s.source.to_string()]);
    }
    table.render()
}

/// The note a command names by scope and path as typed, or an error that says how to list them.
async fn named_note(
    store: &dyn memory_core::MemoryStore,
    scopes: &Scopes,
    scope: &str,
    path: &NotePath,
) -> anyhow::Result<(memory_core::Scope, NotePath, memory_core::Note)> {
    let scope = scopes.scope(scope)?;
    let path = scopes.note_path(&scope, path);
    let Some(note) = store.get_note(&scope, &path).await? else {
        anyhow::bail!(
            "no note `{path}` in scope `{}`; `agent-memory notes list` shows what exists",
            scopes.label(&scope)
        );
    };
    Ok((scope, path, note))
}

/// Where a statement of this reach is kept, in words.
fn kept_in(reach: dream::Reach) -> &'static str {
    match reach {
        dream::Reach::General => "your profile",
        dream::Reach::Project => "the project",
    }
}

/// A note's items explained ([`memory_hook::explain::items`]) as JSON, for `notes explain` and
/// MCP's `explain_note`; `project` names a project by its id.
pub(crate) fn explained_json(
    items: &[memory_hook::explain::Item],
    project: impl Fn(&str) -> String,
) -> Vec<serde_json::Value> {
    items
        .iter()
        .map(|item| {
            let said = item.said.as_ref().map(|said| {
                let e = &said.event.event;
                json!({
                    "sentence": said.sentence,
                    "event": e.id,
                    "session": e.session,
                    "harness": e.harness.name,
                    "at": e.occurred_at,
                    "project": e.project.as_deref().map(&project),
                    "kept_in": said.filed.map(|(reach, _)| kept_in(reach)),
                    "why": said.filed.map(|(_, why)| why.says()),
                })
            });
            json!({ "item": item.text, "said": said })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! The read commands' tables, at a fixed time in a fixed zone.

    use chrono::{DateTime, Utc};
    use memory_core::{
        EventId, EventKind, Harness, HookEvent, Note, NoteKind, NoteMeta, NotePath, Scope, SessionInfo,
        SessionKey, ShellCall, StoredEvent, ToolCall,
    };
    use serde_json::json;

    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().with_timezone(&Utc)
    }

    fn plain(text: &str) -> String {
        anstream::adapter::strip_str(text).to_string()
    }

    fn clock() -> Clock {
        Clock::named("America/New_York")
    }

    fn session(key: &str, harness: &str, project: Option<&str>, last: &str, events: u64) -> SessionInfo {
        SessionInfo {
            key: SessionKey(key.to_owned()),
            harness: harness.to_owned(),
            project: project.map(str::to_owned),
            owner: None,
            started_at: at("2026-11-30T14:02:00Z"),
            last_at: at(last),
            events,
        }
    }

    fn name(id: &str) -> String {
        id.split('-').next().unwrap_or(id).to_owned()
    }

    #[test]
    fn sessions_table() {
        let page = [
            session("claude:5d1c2e", "claude", Some("webshop-09503e0d"), "2026-12-01T12:40:05Z", 214),
            session("codex:019a5c2e-7c1d", "codex", Some("ledger-c4075b98"), "2026-12-01T09:03:00Z", 9),
            session("cursor:8c1f4e2a", "cursor", None, "2026-07-01T16:30:00Z", 31),
        ];
        let titles = [Some("fix the flaky cart test".to_owned()), None, None];
        insta::assert_snapshot!(plain(&render_sessions(&page, &titles, 3, 0, &name, &clock())), @r"
        LAST ACTIVE           STARTED               HARNESS  EVENTS  PROJECT  SESSION              TITLE
        2026-12-01 07:40 EST  2026-11-30 09:02 EST  claude      214  webshop  claude:5d1c2e        fix the flaky cart test
        2026-12-01 04:03 EST  2026-11-30 09:02 EST  codex         9  ledger   codex:019a5c2e-7c1d  -
        2026-07-01 12:30 EDT  2026-11-30 09:02 EST  cursor       31  -        cursor:8c1f4e2a      -
        3 sessions, most recent first
        ");
        insta::assert_snapshot!(plain(&render_sessions(&page[..2], &titles[..2], 207, 50, &name, &clock())), @r"
        LAST ACTIVE           STARTED               HARNESS  EVENTS  PROJECT  SESSION              TITLE
        2026-12-01 07:40 EST  2026-11-30 09:02 EST  claude      214  webshop  claude:5d1c2e        fix the flaky cart test
        2026-12-01 04:03 EST  2026-11-30 09:02 EST  codex         9  ledger   codex:019a5c2e-7c1d  -
        sessions 51–52 of 207, most recent first; next page: --offset 52; all: --limit 0
        ");
        insta::assert_snapshot!(
            plain(&render_sessions(&[], &[], 207, 300, &name, &clock())),
            @"no sessions past the first 207 (--offset 300); `agent-memory sessions` starts at the most recent"
        );
    }

    fn event(seq: u64, kind: EventKind, occurred: &str, fill: impl FnOnce(&mut HookEvent)) -> StoredEvent {
        let mut e = HookEvent::new(
            EventId(format!("e{seq}")),
            Harness::named("claude"),
            SessionKey("claude:5d1c2e".into()),
            kind,
            at(occurred),
            json!({}),
        );
        fill(&mut e);
        StoredEvent { seq, position: seq, event: e }
    }

    fn bash(command: &str, exit: Option<i64>, failed: Option<bool>, output: serde_json::Value) -> ToolCall {
        ToolCall {
            name: "Bash".into(),
            use_id: None,
            input: Some(json!({ "command": command })),
            output: Some(output),
            error: None,
            duration_ms: None,
            shell: Some(ShellCall { command: command.into(), exit_code: exit }),
            failed,
            files: Vec::new(),
            patch: None,
        }
    }

    #[test]
    fn timeline_table_shows_failures_and_what_injections_carried() {
        let info = session("claude:5d1c2e", "claude", Some("webshop-09503e0d"), "2026-12-01T12:40:05Z", 214);
        let events = [
            event(7, EventKind::UserPromptSubmit, "2026-12-01T12:31:00Z", |e| {
                e.prompt = Some("the dev server is on 5173 now,\nnot 3000".into());
            }),
            event(8, EventKind::Injection, "2026-12-01T12:31:00Z", |e| {
                e.raw = json!({
                    "trigger": "UserPromptSubmit",
                    "notes": ["project:webshop-09503e0d project/webshop/commands.md", "user profile/preferences.md"],
                    "chars": 812,
                });
            }),
            event(9, EventKind::PostToolUseFailure, "2026-12-01T12:32:10Z", |e| {
                e.tool = Some(bash(
                    "pnpm test --filter api",
                    Some(1),
                    Some(true),
                    json!({ "stdout": "", "stderr": "Error: connect ECONNREFUSED 127.0.0.1:5432" }),
                ));
            }),
            event(10, EventKind::PostToolUse, "2026-12-01T12:33:00Z", |e| {
                e.tool = Some(bash("pnpm test --filter api", Some(0), Some(false), json!("ok")));
            }),
        ];
        let label = |key: &str| key.replace("webshop-09503e0d", "webshop");
        insta::assert_snapshot!(plain(&render_timeline(&info, Some("the dev server port"), &events, &label, &clock())), @r"
        the dev server port
        claude:5d1c2e · claude · started 2026-11-30 09:02 EST · times in EST
         #  TIME                 EVENT               DETAIL
         7  2026-12-01 07:31:00  UserPromptSubmit    prompt: the dev server is on 5173 now, not 3000
         8  2026-12-01 07:31:00  Injection           2 notes, 812 chars, on UserPromptSubmit
            project:webshop project/webshop/commands.md, user profile/preferences.md
         9  2026-12-01 07:32:10  PostToolUseFailure  Bash: pnpm test --filter api
            failed (exit 1): Error: connect ECONNREFUSED 127.0.0.1:5432
        10  2026-12-01 07:33:00  PostToolUse         Bash: pnpm test --filter api
        events #7–#10 of 214; next page: --after 10
        ");
    }

    #[test]
    fn notes_table() {
        let note = |scope: Scope, path: &str, title: &str, generator: &str| Note {
            path: NotePath::new(path).unwrap(),
            meta: NoteMeta {
                title: title.into(),
                description: None,
                tags: Vec::new(),
                scope,
                kind: NoteKind::Convention,
                sources: Vec::new(),
                updated: at("2026-12-01T03:15:00Z"),
                generator: generator.into(),
                owner: None,
            },
            body: String::new(),
        };
        let notes = [
            note(Scope::User, "profile/preferences.md", "Preferences", "deterministic"),
            note(
                Scope::Project("webshop-09503e0d".into()),
                "project/webshop/conventions.md",
                "Conventions of webshop",
                "human",
            ),
        ];
        let label = |scope: &Scope| scope.to_string().replace("webshop-09503e0d", "webshop");
        insta::assert_snapshot!(plain(&render_notes(&notes, &label, &clock())), @r"
        SCOPE            PATH                            UPDATED               BY             TITLE
        user             profile/preferences.md          2026-11-30 22:15 EST  deterministic  Preferences
        project:webshop  project/webshop/conventions.md  2026-11-30 22:15 EST  human          Conventions of webshop
        2 notes
        ");
    }

    #[test]
    fn tables_are_coloured_only_through_their_styles() {
        let page = [session("claude:5d1c2e", "claude", None, "2026-12-01T12:40:05Z", 1)];
        let text = render_sessions(&page, &[None], 1, 0, &name, &clock());
        assert!(text.contains("\u{1b}[1m"), "the header is bold before print decides: {text:?}");
        assert!(!plain(&text).contains('\u{1b}'));
    }
}
