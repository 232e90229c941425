//! The pages: the sessions timeline, one session, the notes tree, one note with its history and
//! sources, search, and the injection preview.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use axum::extract::{Query, State};
use axum::response::Html;
use chrono::{DateTime, NaiveDate, Utc};
use memory_core::{
    EventFilter, EventKind, HookEvent, Note, NoteFilter, NotePath, Scope, SearchQuery, SessionInfo,
    StoredEvent,
};
use memory_hook::project::{Catalog, Registry};
use memory_hook::{Project, inject};
use serde::Deserialize;
use serde_json::Value;

use crate::html::{clip, enc, esc, markdown, note_href, page, page_with, session_href};
use crate::{Error, Result, Shared};

/// Sessions on one page of the timeline.
const PAGE: usize = 50;
/// Events on one page of a session.
const SESSION_PAGE: usize = 500;
/// Longest tool output shown in full, in characters.
const OUTPUT_CAP: usize = 20_000;
/// Hits of each kind a search shows.
const HITS: usize = 20;

/// The known projects now.
pub(crate) async fn catalog(state: &Shared) -> Result<Catalog> {
    let registry = Registry::new(&state.config.data_dir());
    Ok(Catalog::load_settled(&registry, state.store.as_ref()).await?)
}

/// The id of the project a request names by name or id.
fn project_id(catalog: &Catalog, text: Option<&str>) -> Option<String> {
    let text = text.filter(|p| !p.is_empty())?;
    Some(catalog.find(text).map_or_else(|| text.to_owned(), |k| k.id.clone()))
}

/// A note key as the hook records it (`<scope> <path>`) as a link, its scope by name.
fn note_key_link(names: &memory_core::ProjectNames, key: &str) -> String {
    let (scope, path) = key.split_once(' ').unwrap_or((key, ""));
    let scope = scope.parse::<Scope>().map_or_else(|_| scope.to_owned(), |s| names.label(&s));
    format!("<li><a href=\"{}\">{} {}</a></li>", esc(&note_href(&scope, path)), esc(&scope), esc(path))
}

fn project_name<'a>(catalog: &'a Catalog, id: &'a str) -> &'a str {
    catalog.projects().iter().find(|k| k.id == id).map_or(id, |k| k.name.as_str())
}

/// A time, in UTC, that the page's script shows in the reader's own time zone.
pub(crate) fn time(at: DateTime<Utc>) -> String {
    format!("<time datetime=\"{}\">{}</time>", at.to_rfc3339(), at.format("%Y-%m-%d %H:%M:%S UTC"))
}

fn harness_badge(name: &str) -> String {
    format!("<span class=\"harness harness-{0}\">{0}</span>", esc(name))
}

/// One session in the timeline.
pub(crate) fn session_row(info: &SessionInfo, project: Option<&str>, title: Option<&str>) -> String {
    let title = title.map(|t| format!("<span class=\"title\">{}</span> ", esc(t))).unwrap_or_default();
    format!(
        "<li class=\"session\" data-key=\"{key}\"><a href=\"{href}\">{harness} {title}<span class=\"project\">{project}</span> \
         <span class=\"key\">{key}</span></a> <span class=\"count\">{events}</span> events, last {last}</li>",
        key = esc(info.key.as_str()),
        href = esc(&session_href(info.key.as_str())),
        harness = harness_badge(&info.harness),
        project = esc(project.unwrap_or("no project")),
        events = info.events,
        last = time(info.last_at),
    )
}

#[derive(Debug, Deserialize, Default)]
pub(crate) struct SessionsQuery {
    #[serde(default)]
    page: usize,
    harness: Option<String>,
    project: Option<String>,
    forgot: Option<String>,
}

/// `/`: every session, most recent first, by day.
/// With a server store in forward mode: how many events wait for delivery, how long the oldest
/// has waited, and whether a forwarder runs (the figures `doctor` shows).
fn delivery(config: &memory_hook::Config, env: &memory_hook::Env) -> Option<String> {
    if !config.forwards() {
        return None;
    }
    let status = memory_hook::forward::status(config, env);
    let running = if status.running.is_some() { "a forwarder is delivering" } else { "no forwarder runs" };
    let last = status.last.as_ref().map(|run| format!("; last run: {}", run.log_line())).unwrap_or_default();
    Some(match status.lag_ms {
        Some(lag) if status.backlog > 0 => format!(
            "{} {} for the server, the oldest for {:.1} s; {running}{last}",
            status.backlog,
            if status.backlog == 1 { "event waits" } else { "events wait" },
            lag as f64 / 1000.0
        ),
        _ => format!("every event is on the server; {running}{last}"),
    })
}

pub(crate) async fn sessions(
    State(state): State<Shared>,
    Query(q): Query<SessionsQuery>,
) -> Result<Html<String>> {
    let all = state.store.sessions().await?;
    let catalog = catalog(&state).await?;
    let after = crate::live::end_position(state.store.as_ref()).await?;
    let harness = q.harness.as_deref().filter(|h| !h.is_empty());
    let project = project_id(&catalog, q.project.as_deref());
    let project = project.as_deref();
    let mut per_harness: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &all {
        *per_harness.entry(s.harness.as_str()).or_default() += 1;
    }
    let shown: Vec<&SessionInfo> = all
        .iter()
        .filter(|s| harness.is_none_or(|h| s.harness == h))
        .filter(|s| project.is_none_or(|p| s.project.as_deref() == Some(p)))
        .collect();
    let mut body = String::from("<h1>Sessions</h1>");
    if let Some(line) = delivery(&state.config, &state.env) {
        let _ = write!(body, "<p class=\"delivery\" id=\"delivery\">{}</p>", esc(&line));
    }
    if let Some(key) = &q.forgot {
        let _ = write!(body, "<p class=\"notice\">Forgot session {} for good.</p>", esc(key));
    }
    body.push_str("<form class=\"filters\" method=\"get\" action=\"/\"><label>Harness <select name=\"harness\"><option value=\"\">all</option>");
    for (name, count) in &per_harness {
        let selected = if harness == Some(name) { " selected" } else { "" };
        let _ = write!(body, "<option value=\"{0}\"{selected}>{0} ({count})</option>", esc(name));
    }
    body.push_str("</select></label> ");
    body.push_str(&project_select(&catalog, project, true));
    body.push_str(" <button>Show</button></form>");
    if shown.is_empty() {
        body.push_str("<p class=\"empty\">No sessions recorded yet. Wire the hooks in (<code>agent-memory install</code>) or run <code>agent-memory demo</code>.</p>");
    }
    let start = q.page * PAGE;
    let mut day: Option<NaiveDate> = None;
    body.push_str("<div id=\"timeline\">");
    for s in shown.iter().skip(start).take(PAGE) {
        let d = s.last_at.date_naive();
        if day != Some(d) {
            if day.is_some() {
                body.push_str("</ul>");
            }
            let _ = write!(body, "<h2 class=\"day\">{}</h2><ul class=\"sessions\">", d.format("%A %Y-%m-%d"));
            day = Some(d);
        }
        let name = s.project.as_deref().map(|id| project_name(&catalog, id));
        let title = memory_hook::sessions::title(state.store.as_ref(), &s.key).await?;
        body.push_str(&session_row(s, name, title.as_deref()));
    }
    if day.is_some() {
        body.push_str("</ul>");
    }
    body.push_str("</div>");
    let project_name = project.map_or("", |id| project_name(&catalog, id));
    let filters = format!("harness={}&project={}", enc(harness.unwrap_or("")), enc(project_name));
    body.push_str("<nav class=\"pages\">");
    if q.page > 0 {
        let _ = write!(body, "<a href=\"/?page={}&{}\">newer</a> ", q.page - 1, esc(&filters));
    }
    let _ = write!(
        body,
        "<span>{}–{} of {} sessions</span>",
        (start + 1).min(shown.len()),
        (start + PAGE).min(shown.len()),
        shown.len()
    );
    if start + PAGE < shown.len() {
        let _ = write!(body, " <a href=\"/?page={}&{}\">older</a>", q.page + 1, esc(&filters));
    }
    body.push_str("</nav>");
    Ok(page_with("Sessions", "/", &body, &format!(" data-live-after=\"{after}\" data-view=\"sessions\"")))
}

/// A `<select name="project">` of the known projects.
fn project_select(catalog: &Catalog, chosen: Option<&str>, any: bool) -> String {
    let mut out = String::from("<label>Project <select name=\"project\">");
    if any {
        out.push_str("<option value=\"\">all</option>");
    }
    for k in catalog.projects() {
        let selected = if chosen == Some(k.id.as_str()) { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{0}\"{selected}>{0}</option>", esc(&k.name));
    }
    out.push_str("</select></label>");
    out
}

#[derive(Debug, Deserialize)]
pub(crate) struct SessionQuery {
    key: String,
    #[serde(default)]
    after: u64,
}

/// `/session?key=…`: one session's events in order.
pub(crate) async fn session(
    State(state): State<Shared>,
    Query(q): Query<SessionQuery>,
) -> Result<Html<String>> {
    let all = state.store.sessions().await?;
    let info = memory_hook::sessions::resolve(&all, &q.key, None)
        .map_err(|e| Error::NotFound(e.to_string()))?
        .clone();
    let key = info.key.clone();
    let catalog = catalog(&state).await?;
    let events = state.store.timeline(&key, q.after, SESSION_PAGE).await?;
    let fetched = events.len();
    let last_seq = events.last().map(|e| e.seq);
    let events = memory_hook::sessions::merge_twins(events);
    let after = crate::live::end_position(state.store.as_ref()).await?;
    let project = info.project.as_deref().map(|id| project_name(&catalog, id));
    let names = catalog.naming();
    let title = memory_hook::sessions::title(state.store.as_ref(), &key).await?;
    let title = title.map(|t| format!("{} ", esc(&t))).unwrap_or_default();
    let mut body = format!(
        "<h1>{title}{} <span class=\"key\">{}</span></h1><p class=\"meta\">{} · {} events · {} – {}</p>",
        harness_badge(&info.harness),
        esc(info.key.as_str()),
        esc(project.unwrap_or("no project")),
        info.events,
        time(info.started_at),
        time(info.last_at),
    );
    if events.is_empty() {
        body.push_str("<p class=\"empty\">No events left in this session: retention pruned them or they were forgotten.</p>");
    }
    body.push_str("<ol id=\"events\" class=\"events\">");
    for e in &events {
        body.push_str(&event_row(e, &names));
    }
    body.push_str("</ol>");
    if fetched == SESSION_PAGE
        && let Some(last) = last_seq
    {
        let _ = write!(
            body,
            "<p><a href=\"{}&after={}\">later events</a></p>",
            esc(&session_href(info.key.as_str())),
            last
        );
    }
    let _ = write!(
        body,
        "<form class=\"danger\" method=\"post\" action=\"/session/forget\"><input type=\"hidden\" name=\"form_key\" value=\"{}\">\
         <input type=\"hidden\" name=\"key\" value=\"{}\"><button id=\"forget-session\">Forget this session…</button></form>",
        esc(&state.form_key),
        esc(info.key.as_str())
    );
    let attributes = format!(
        " data-live-after=\"{after}\" data-view=\"session\" data-session=\"{}\"",
        esc(info.key.as_str())
    );
    Ok(page_with(info.key.as_str(), "/", &body, &attributes))
}

/// A tool's output as text.
fn output_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(map) if map.contains_key("stdout") || map.contains_key("stderr") => {
            let part = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            let (out, err) = (part("stdout"), part("stderr"));
            if err.is_empty() { out } else { format!("{out}\n{err}") }
        }
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// One event of a session, with what it carried.
pub(crate) fn event_row(stored: &StoredEvent, names: &memory_core::ProjectNames) -> String {
    let e = &stored.event;
    let failed = e.tool.as_ref().is_some_and(|t| t.failed == Some(true) || t.error.is_some());
    let mut out = format!(
        "<li class=\"event kind-{kind}{fail}\" id=\"e-{seq}\" data-seq=\"{seq}\"><div class=\"head\"><span class=\"seq\">#{seq}</span> {at} \
         <span class=\"kind\">{kind}</span>{badge}</div>",
        kind = esc(e.kind.as_str()),
        fail = if failed { " failed" } else { "" },
        seq = stored.seq,
        at = time(e.occurred_at),
        badge = if failed { " <span class=\"badge-failed\">failed</span>" } else { "" },
    );
    out.push_str(&event_detail(e, names));
    out.push_str("</li>");
    out
}

fn event_detail(e: &HookEvent, names: &memory_core::ProjectNames) -> String {
    let mut out = String::new();
    if let Some(prompt) = &e.prompt {
        let _ = write!(out, "<pre class=\"prompt\">{}</pre>", esc(prompt));
    }
    if let Some(tool) = &e.tool {
        let _ = write!(
            out,
            "<div class=\"tool\"><span class=\"tool-name\">{}</span> <code>{}</code></div>",
            esc(&tool.name),
            esc(&clip(&tool.input_line(), 400))
        );
        if let Some(output) = &tool.output {
            let text = output_text(output);
            if !text.trim().is_empty() {
                let _ = write!(
                    out,
                    "<details class=\"output\"><summary>output ({} characters)</summary><pre>{}</pre></details>",
                    text.chars().count(),
                    esc(&clip(&text, OUTPUT_CAP))
                );
            }
        }
        if let Some(error) = &tool.error {
            let _ = write!(out, "<pre class=\"error\">{}</pre>", esc(error));
        }
    }
    if e.kind == EventKind::Injection {
        let notes: Vec<&str> = e
            .raw
            .get("notes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let chars = e.raw.get("chars").and_then(Value::as_u64).unwrap_or(0);
        let trigger = e.raw.get("trigger").and_then(Value::as_str).unwrap_or("");
        let _ = write!(
            out,
            "<div class=\"injection\">Given at {}: {} note{}, {chars} characters<ul>",
            esc(trigger),
            notes.len(),
            if notes.len() == 1 { "" } else { "s" }
        );
        for key in notes {
            out.push_str(&note_key_link(names, key));
        }
        out.push_str("</ul></div>");
    }
    if let Some(model) = &e.model {
        let _ = write!(out, "<div class=\"model\">model {}</div>", esc(model));
    }
    out
}

#[derive(Debug, Deserialize, Default)]
pub(crate) struct NotesQuery {
    deleted: Option<String>,
}

/// `/notes`: every note, by scope and folder.
pub(crate) async fn notes(State(state): State<Shared>, Query(q): Query<NotesQuery>) -> Result<Html<String>> {
    let notes = state.store.list_notes(&NoteFilter::all()).await?;
    let catalog = catalog(&state).await?;
    let mut body = String::from("<h1>Notes</h1>");
    if let Some(deleted) = &q.deleted {
        let _ = write!(body, "<p class=\"notice\">Deleted {} and its history.</p>", esc(deleted));
    }
    if notes.is_empty() {
        body.push_str("<p class=\"empty\">No notes yet: <code>agent-memory dream</code> distills recorded sessions into notes.</p>");
    }
    let mut by_scope: BTreeMap<(u8, String), Vec<&Note>> = BTreeMap::new();
    for n in &notes {
        let rank = match n.meta.scope {
            Scope::User => 0,
            Scope::Project(_) => 1,
            _ => 2,
        };
        by_scope.entry((rank, catalog.label(&n.meta.scope))).or_default().push(n);
    }
    body.push_str("<div class=\"tree\">");
    for ((_, label), group) in by_scope {
        let _ = write!(
            body,
            "<details open><summary>{} <span class=\"count\">{}</span></summary>",
            esc(&label),
            group.len()
        );
        let mut folder: Option<&str> = None;
        body.push_str("<ul>");
        for n in group {
            let path = n.path.as_str();
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            if folder != Some(dir) {
                let _ = write!(body, "<li class=\"folder\">{}/</li>", esc(dir));
                folder = Some(dir);
            }
            let _ = write!(
                body,
                "<li class=\"note\"><a href=\"{}\">{}</a> <span class=\"title\">{}</span></li>",
                esc(&note_href(&catalog.label(&n.meta.scope), path)),
                esc(path.rsplit_once('/').map_or(path, |(_, f)| f)),
                esc(&n.meta.title)
            );
        }
        body.push_str("</ul></details>");
    }
    body.push_str("</div>");
    Ok(page("Notes", "/notes", &body))
}

#[derive(Debug, Deserialize)]
pub(crate) struct NoteQuery {
    pub(crate) scope: String,
    pub(crate) path: String,
    #[serde(default)]
    saved: bool,
}

/// A note's scope and path as a request names them: a project by name or id, a project note's
/// path with or without its project's folder.
pub(crate) fn note_place(catalog: &Catalog, scope: &str, path: &str) -> Result<(Scope, NotePath)> {
    let scope = catalog.scope(scope, None).map_err(|e| Error::BadRequest(e.to_string()))?;
    let path = NotePath::new(path).map_err(|e| Error::BadRequest(e.to_string()))?;
    let path = catalog.note_path(&scope, &path);
    Ok((scope, path))
}

/// `/note?scope=…&path=…`: a note rendered, its sources, its history as diffs, and its editor.
pub(crate) async fn note(State(state): State<Shared>, Query(q): Query<NoteQuery>) -> Result<Html<String>> {
    let catalog = catalog(&state).await?;
    let (scope, path) = note_place(&catalog, &q.scope, &q.path)?;
    let Some(note) = state.store.get_note(&scope, &path).await? else {
        return Err(Error::NotFound(format!("no note {path} in {}", catalog.label(&scope))));
    };
    let names = catalog.naming();
    let history = state.store.note_history(&scope, &path).await?;
    let kind = serde_json::to_value(note.meta.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut body = String::new();
    if q.saved {
        body.push_str("<p class=\"notice\">Saved; the previous version is in the history below.</p>");
    }
    let _ = write!(
        body,
        "<h1 id=\"note-title\">{}</h1><p class=\"meta\">{} · <code>{}</code> · {} · by {}{} · {}{}</p>",
        esc(&note.meta.title),
        esc(&catalog.label(&scope)),
        esc(path.as_str()),
        esc(&kind),
        esc(&note.meta.generator),
        note.meta.owner.as_deref().map(|o| format!(" · owner {}", esc(o))).unwrap_or_default(),
        time(note.meta.updated),
        if note.meta.tags.is_empty() {
            String::new()
        } else {
            format!(" · tags: {}", esc(&note.meta.tags.join(", ")))
        },
    );
    if let Some(d) = &note.meta.description {
        let _ = write!(body, "<p class=\"description\">{}</p>", esc(d));
    }
    let _ = write!(body, "<article id=\"note-body\" class=\"markdown\">{}</article>", markdown(&note.body));
    body.push_str(&sources(&state, &note).await?);
    let _ = write!(body, "<h2>History</h2>");
    if history.is_empty() {
        body.push_str("<p class=\"empty\">One version so far.</p>");
    } else {
        body.push_str("<ol class=\"history\" reversed>");
        let mut versions: Vec<&Note> = history.iter().collect();
        versions.push(&note);
        for i in (1..versions.len()).rev() {
            let (old, new) = (versions[i - 1], versions[i]);
            let _ = write!(
                body,
                "<li class=\"version\"><div class=\"head\">version {} · by {} · {}</div>{}</li>",
                i + 1,
                esc(&new.meta.generator),
                time(new.meta.updated),
                diff(&names.markdown(old), &names.markdown(new))
            );
        }
        let first = versions[0];
        let _ = write!(
            body,
            "<li class=\"version\"><div class=\"head\">version 1 · by {} · {}</div></li></ol>",
            esc(&first.meta.generator),
            time(first.meta.updated)
        );
    }
    let hidden = format!(
        "<input type=\"hidden\" name=\"form_key\" value=\"{}\"><input type=\"hidden\" name=\"scope\" value=\"{}\">\
         <input type=\"hidden\" name=\"path\" value=\"{}\">",
        esc(&state.form_key),
        esc(&catalog.label(&scope)),
        esc(path.as_str())
    );
    let _ = write!(
        body,
        "<h2>Edit</h2><form class=\"edit\" method=\"post\" action=\"/note/edit\">{hidden}\
         <textarea id=\"note-markdown\" name=\"markdown\" rows=\"18\" spellcheck=\"false\">{}</textarea>\
         <p class=\"hint\">Frontmatter and body. A note you edit is marked as yours: the dream merges into it and never overwrites it.</p>\
         <button id=\"save-note\">Save</button></form>\
         <form class=\"danger\" method=\"post\" action=\"/note/delete\">{hidden}<button id=\"delete-note\">Delete this note…</button></form>",
        esc(&names.markdown(&note))
    );
    Ok(page(&note.meta.title, "/notes", &body))
}

/// The events a note came from, linked to their place in their sessions.
async fn sources(state: &Shared, note: &Note) -> Result<String> {
    let mut out = String::from("<h2>Came from</h2>");
    if note.meta.sources.is_empty() {
        out.push_str("<p class=\"empty\">No recorded events: written by hand or from forgotten history.</p>");
        return Ok(out);
    }
    let found = state.store.events_by_id(&note.meta.sources).await?;
    out.push_str("<ul class=\"sources\">");
    for e in &found {
        let _ = write!(
            out,
            "<li><a href=\"{}#e-{}\">{} #{}</a> {} {} <span class=\"excerpt\">{}</span></li>",
            esc(&session_href(e.event.session.as_str())),
            e.seq,
            esc(e.event.session.as_str()),
            e.seq,
            esc(e.event.kind.as_str()),
            time(e.event.occurred_at),
            esc(&clip(&memory_core::search::event_text(&e.event), 160)),
        );
    }
    out.push_str("</ul>");
    let missing = note.meta.sources.len().saturating_sub(found.len());
    if missing > 0 {
        let _ = write!(
            out,
            "<p class=\"empty\">{missing} more source event{} pruned or forgotten.</p>",
            if missing == 1 { "" } else { "s" }
        );
    }
    Ok(out)
}

/// Two versions of a note, line by line: what changed, with two lines around each change.
fn diff(old: &str, new: &str) -> String {
    let mut out = String::from("<pre class=\"diff\">");
    let diff = similar::TextDiff::from_lines(old, new);
    for (i, group) in diff.grouped_ops(2).iter().enumerate() {
        if i > 0 {
            out.push_str("<span class=\"gap\">⋯</span>");
        }
        for change in group.iter().flat_map(|op| diff.iter_changes(op)) {
            let (class, sign) = match change.tag() {
                similar::ChangeTag::Delete => ("del", '-'),
                similar::ChangeTag::Insert => ("ins", '+'),
                similar::ChangeTag::Equal => ("same", ' '),
            };
            let _ = write!(out, "<span class=\"{class}\">{sign} {}</span>", esc(change.value()));
        }
    }
    out.push_str("</pre>");
    out
}

#[derive(Debug, Deserialize, Default)]
pub(crate) struct SearchForm {
    #[serde(default)]
    q: String,
    project: Option<String>,
    harness: Option<String>,
    since: Option<String>,
    until: Option<String>,
}

/// A day from a date field, at midnight UTC.
fn day(text: Option<&str>) -> Result<Option<DateTime<Utc>>> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| Error::BadRequest(format!("`{text}` is not a date (2026-03-01)")))?;
    Ok(day.and_hms_opt(0, 0, 0).map(|t| t.and_utc()))
}

/// `/search`: notes and history by relevance, filtered by project, harness and time.
pub(crate) async fn search(State(state): State<Shared>, Query(f): Query<SearchForm>) -> Result<Html<String>> {
    let catalog = catalog(&state).await?;
    let project = project_id(&catalog, f.project.as_deref());
    let project = project.as_deref();
    let harness = f.harness.as_deref().filter(|h| !h.is_empty());
    let since = day(f.since.as_deref())?;
    // A day given as the end includes that day.
    let until = day(f.until.as_deref())?.map(|t| t + chrono::Duration::days(1));
    let mut body = String::from("<h1>Search</h1><form class=\"filters\" method=\"get\" action=\"/search\">");
    let _ = write!(
        body,
        "<input id=\"search-q\" type=\"search\" name=\"q\" value=\"{}\" placeholder=\"what did we try last time?\" autofocus> ",
        esc(&f.q)
    );
    body.push_str(&project_select(&catalog, project, true));
    body.push_str(" <label>Harness <select name=\"harness\"><option value=\"\">all</option>");
    let harnesses: BTreeSet<String> = state.store.sessions().await?.into_iter().map(|s| s.harness).collect();
    for h in &harnesses {
        let selected = if harness == Some(h.as_str()) { " selected" } else { "" };
        let _ = write!(body, "<option value=\"{0}\"{selected}>{0}</option>", esc(h));
    }
    let _ = write!(
        body,
        "</select></label> <label>From <input type=\"date\" name=\"since\" value=\"{}\"></label> \
         <label>To <input type=\"date\" name=\"until\" value=\"{}\"></label> <button id=\"search-go\">Search</button></form>",
        esc(f.since.as_deref().unwrap_or("")),
        esc(f.until.as_deref().unwrap_or(""))
    );
    if f.q.trim().is_empty() {
        return Ok(page("Search", "/search", &body));
    }
    let terms = memory_core::search::expand(&f.q);
    // Notes have no harness and no time: those filters ask about history alone.
    let history_only = harness.is_some() || since.is_some() || until.is_some();
    let scopes = project.map(|p| vec![Scope::Project(p.to_owned())]).unwrap_or_default();
    let notes = if history_only {
        Vec::new()
    } else {
        state.store.search_notes(&SearchQuery::new(f.q.clone(), scopes, HITS)).await?
    };
    let filter = EventFilter {
        session: None,
        project: project.map(str::to_owned),
        harness: harness.map(str::to_owned),
        owner: None,
        since,
        until,
    };
    // Ranked with what was said around each; near-duplicates as one hit with a count; a failure
    // with the run that fixed it.
    let found = memory_hook::history::search(
        state.store.as_ref(),
        &f.q,
        &[filter],
        HITS,
        state.config.embedder().as_ref(),
    )
    .await?;
    let mut events = Vec::new();
    for (h, count) in memory_hook::history::collapse(found, |h| &h.event.event).into_iter().take(HITS) {
        let fix = memory_hook::history::fix_of(state.store.as_ref(), &h).await.ok().flatten();
        events.push((h, count, fix));
    }
    let _ = write!(body, "<section id=\"note-hits\"><h2>Notes ({})</h2><ul class=\"hits\">", notes.len());
    for h in &notes {
        let _ = write!(
            body,
            "<li><a href=\"{}\">{}</a> <span class=\"scope\">{} {}</span><div class=\"excerpt\">{}</div></li>",
            esc(&note_href(&catalog.label(&h.note.meta.scope), h.note.path.as_str())),
            esc(&h.note.meta.title),
            esc(&catalog.label(&h.note.meta.scope)),
            esc(h.note.path.as_str()),
            esc(&memory_core::search::excerpt(&h.note.body, &terms, 160)),
        );
    }
    if history_only {
        body.push_str("<li class=\"empty\">Notes have no harness or time: with those filters, history alone is searched.</li>");
    }
    let _ = write!(
        body,
        "</ul></section><section id=\"event-hits\"><h2>History ({})</h2><ul class=\"hits\">",
        events.len()
    );
    for (h, count, fix) in &events {
        let e = &h.event.event;
        let count =
            if *count > 1 { format!(" <span class=\"count\">×{count}</span>") } else { String::new() };
        let fixed = fix.as_ref().map_or(String::new(), |fix| {
            let command =
                fix.event.tool.as_ref().and_then(|t| t.shell.as_ref()).map_or("", |s| s.command.as_str());
            format!(
                "<div class=\"fix\">fixed by <a href=\"{}#e-{}\">#{}</a>: <code>{}</code> passed</div>",
                esc(&session_href(fix.event.session.as_str())),
                fix.seq,
                fix.seq,
                esc(command)
            )
        });
        let _ = write!(
            body,
            "<li><a href=\"{}#e-{}\">{} #{}</a> {} {}{count} {} <span class=\"project\">{}</span><div class=\"excerpt\">{}</div>{fixed}</li>",
            esc(&session_href(e.session.as_str())),
            h.event.seq,
            esc(e.session.as_str()),
            h.event.seq,
            harness_badge(&e.harness.name),
            esc(e.kind.as_str()),
            time(e.occurred_at),
            esc(e.project.as_deref().map_or("", |id| project_name(&catalog, id))),
            esc(&memory_core::search::excerpt(&memory_core::search::event_text(e), &terms, 160)),
        );
    }
    body.push_str("</ul></section>");
    Ok(page("Search", "/search", &body))
}

#[derive(Debug, Deserialize, Default)]
pub(crate) struct PreviewForm {
    project: Option<String>,
    #[serde(default)]
    prompt: String,
}

/// `/preview`: what a session start in a project would be given now, against the budget, and
/// what a typed prompt would be given.
pub(crate) async fn preview(
    State(state): State<Shared>,
    Query(f): Query<PreviewForm>,
) -> Result<Html<String>> {
    let catalog = catalog(&state).await?;
    let chosen = f
        .project
        .as_deref()
        .filter(|p| !p.is_empty())
        .and_then(|p| catalog.find(p))
        .or_else(|| catalog.projects().first());
    let mut body =
        String::from("<h1>Injection preview</h1><form class=\"filters\" method=\"get\" action=\"/preview\">");
    body.push_str(&project_select(&catalog, chosen.map(|k| k.id.as_str()), false));
    let _ = write!(
        body,
        " <label class=\"wide\">Prompt <input id=\"preview-prompt\" type=\"text\" name=\"prompt\" value=\"{}\" placeholder=\"a prompt to try\"></label> \
         <button id=\"preview-go\">Preview</button></form>",
        esc(&f.prompt)
    );
    let Some(known) = chosen else {
        body.push_str("<p class=\"empty\">No project is known yet: a hook records one when a session starts in its folder.</p>");
        return Ok(page("Injection preview", "/preview", &body));
    };
    let root = known
        .entry
        .as_ref()
        .and_then(|e| e.roots.first())
        .map(|r| r.path.clone())
        .unwrap_or_else(PathBuf::new);
    let project = Project { id: known.id.clone(), name: known.name.clone(), root };
    let hook = &state.config.hook;
    let none = BTreeSet::new();
    // A session that has not started yet: where the project's last one left off is due too.
    let new_session = memory_core::SessionKey("preview:new".to_owned());
    let left_off = memory_hook::left_off::section(
        state.store.as_ref(),
        &project,
        &new_session,
        hook.session_start_budget,
    )
    .await?;
    let start = inject::session_start(
        state.store.as_ref(),
        &project,
        hook.session_start_budget,
        &none,
        left_off.as_deref(),
    )
    .await?;
    let _ = write!(body, "<section id=\"preview-start\"><h2>Session start in {}</h2>", esc(&project.name));
    let names = catalog.naming();
    body.push_str(&injection(start.as_ref(), hook.session_start_budget, &names));
    body.push_str("</section>");
    if !f.prompt.trim().is_empty() {
        let min_similarity = state.config.retrieval.min_similarity;
        let meaning =
            state.config.semantic_model().map(|dir| inject::Meaning::of(dir, &f.prompt, min_similarity));
        let given = inject::for_prompt(
            state.store.as_ref(),
            &project,
            &f.prompt,
            &none,
            hook,
            hook.prompt_budget,
            meaning,
        )
        .await?;
        body.push_str("<section id=\"preview-prompt-result\"><h2>This prompt</h2>");
        body.push_str(&injection(given.as_ref(), hook.prompt_budget, &names));
        body.push_str("</section>");
    }
    Ok(page("Injection preview", "/preview", &body))
}

/// An injection: its size against the budget, the notes it carries, its text.
fn injection(given: Option<&inject::Injection>, budget: usize, names: &memory_core::ProjectNames) -> String {
    let Some(given) = given else {
        return format!("<p class=\"empty\">Nothing would be given (budget {budget} characters).</p>");
    };
    let used = given.text.chars().count();
    let share = (used * 100).checked_div(budget).unwrap_or(0);
    let mut out = format!(
        "<p class=\"budget\"><span class=\"used\">{used}</span> of {budget} characters ({share}%)\
         <meter min=\"0\" max=\"{budget}\" value=\"{used}\"></meter></p><ul class=\"carried\">"
    );
    for key in &given.notes {
        out.push_str(&note_key_link(names, key));
    }
    let _ = write!(out, "</ul><pre class=\"injected\">{}</pre>", esc(&given.text));
    out
}

#[cfg(test)]
mod tests {
    use memory_core::{EventId, EventKind, Harness, HookEvent, SessionKey};

    use super::delivery;

    #[test]
    fn the_sessions_page_says_what_waits_for_the_server() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().to_string_lossy().into_owned();
        let env =
            memory_hook::Env::from_pairs([("AGENT_MEMORY_HOME", home.as_str()), ("HOME", home.as_str())]);
        let config = |text: &str| {
            let mut config = memory_hook::Config::parse(text).unwrap();
            config.data_dir = Some(dir.path().join("data"));
            config
        };
        assert_eq!(delivery(&config(""), &env), None, "the embedded store has nothing to deliver");
        let neo4j = config("[store]\nbackend = \"neo4j\"\n");
        let line = delivery(&neo4j, &env).unwrap();
        assert!(line.starts_with("every event is on the server; no forwarder runs"), "{line}");
        let event = HookEvent::new(
            EventId("e1".into()),
            Harness::named("claude"),
            SessionKey("claude:s1".into()),
            EventKind::UserPromptSubmit,
            chrono::Utc::now(),
            serde_json::json!({}),
        );
        memory_hook::journal::Journal::new(neo4j.journal_dir()).write(&event).unwrap();
        let line = delivery(&neo4j, &env).unwrap();
        assert!(line.starts_with("1 event waits for the server, the oldest for "), "{line}");
        let direct = config("[store]\nbackend = \"neo4j\"\nmode = \"direct\"\n");
        assert_eq!(delivery(&direct, &env), None, "direct writes keep no backlog to show");
    }
}
