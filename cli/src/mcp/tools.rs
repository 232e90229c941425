//! What each MCP tool does, independent of the protocol: parameters in, JSON or a tool error out.

use std::fmt;
use std::sync::Arc;

use chrono::Utc;
use memory_core::{
    EventId, MemoryStore, Note, NoteFilter, NoteKind, NoteMeta, NotePath, Scope, SearchQuery, SessionKey,
};
use memory_hook::Project;
use memory_hook::project::{Catalog, Registry};
use serde_json::{Value, json};

use super::params::{
    ForgetParams, HistoryParams, ListParams, NoteRef, SearchParams, SessionsParams, TimelineParams,
    WriteParams,
};
use super::summary;

/// Who wrote a note through the MCP server, as recorded in its frontmatter.
pub(crate) const GENERATOR_MCP: &str = "mcp";

/// A failure shown to the agent as an MCP tool error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolError(pub(crate) String);

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<memory_core::Error> for ToolError {
    fn from(e: memory_core::Error) -> Self {
        let hint = if e.is_transient() { " (temporary; try again shortly)" } else { "" };
        Self(format!("{e}{hint}"))
    }
}

impl From<memory_hook::Error> for ToolError {
    fn from(e: memory_hook::Error) -> Self {
        Self(e.to_string())
    }
}

type ToolResult = Result<Value, ToolError>;

/// What the tools work on: the store, the project registry, and the project of the folder the
/// server runs in (what `project` alone names).
#[derive(Debug)]
pub(crate) struct Memory {
    pub(crate) store: Arc<dyn MemoryStore>,
    registry: Registry,
    here: Option<Project>,
    redactor: memory_redact::Redactor,
    /// The embedding model, when installed: notes written are embedded at once.
    embedder: Option<memory_embed::Embedder>,
    /// Where the journal, logs and ledgers are, for `forget`; without it, forget cleans the store only.
    files: Option<(memory_hook::Config, memory_hook::Env)>,
}

/// Most notes embedded after one write (the written one, and any others still waiting).
const EMBED_AFTER_WRITE: usize = 16;

impl Memory {
    pub(crate) fn new(store: Arc<dyn MemoryStore>, registry: Registry, here: Option<Project>) -> Self {
        Self { store, registry, here, redactor: memory_redact::Redactor::new(), embedder: None, files: None }
    }

    /// Lets `forget` clean the journal, logs and ledgers `config` places.
    pub(crate) fn files(mut self, config: memory_hook::Config, env: memory_hook::Env) -> Self {
        self.files = Some((config, env));
        self
    }

    /// Embeds the notes it writes with `embedder`, so prompts find them by meaning.
    pub(crate) fn embedder(mut self, embedder: Option<memory_embed::Embedder>) -> Self {
        self.embedder = embedder;
        self
    }

    /// Redacts the notes it writes with `redactor` (the configured one) instead of the built-in
    /// rules alone.
    pub(crate) fn redactor(mut self, redactor: memory_redact::Redactor) -> Self {
        self.redactor = redactor;
        self
    }

    fn store(&self) -> &dyn MemoryStore {
        self.store.as_ref()
    }

    /// The projects known now (hooks add to them while the server runs).
    async fn catalog(&self) -> Result<Catalog, ToolError> {
        Catalog::load_settled(&self.registry, self.store()).await.map_err(|e| ToolError(e.to_string()))
    }

    /// The scope an agent wrote; a project nobody knows is an error listing the known ones.
    fn scope(&self, catalog: &Catalog, text: &str) -> Result<Scope, ToolError> {
        if let Err(e) = text.trim().parse::<Scope>()
            && text.trim() != "project"
            && catalog.find(text).is_none()
        {
            return Err(ToolError(format!(
                "{e}; use `user`, `project` (the current project), `project:<name>` or \
                 `project:<id>`, or `session:<key>` (list_notes shows the scopes in use)"
            )));
        }
        catalog.scope(text, self.here.as_ref()).map_err(|e| ToolError(e.to_string()))
    }
}

fn path(text: &str) -> Result<NotePath, ToolError> {
    NotePath::new(text.trim())
        .map_err(|e| ToolError(format!("{e}; a valid path looks like `tools/cargo/test-flags.md`")))
}

fn kind(text: &str) -> Result<NoteKind, ToolError> {
    serde_json::from_value(json!(text.trim().to_ascii_lowercase())).map_err(|_| {
        ToolError(format!(
            "kind {text:?} is not one of profile, preference, convention, tool, procedure, fact"
        ))
    })
}

fn capped(limit: Option<u32>, default: usize, max: usize) -> usize {
    limit.map_or(default, |l| usize::try_from(l).unwrap_or(max)).clamp(1, max)
}

fn not_found(catalog: &Catalog, scope: &Scope, path: &NotePath) -> ToolError {
    ToolError(format!(
        "no note at {} {path}; list_notes or search_notes shows what exists",
        catalog.label(scope)
    ))
}

/// `search_notes`: notes ranked by relevance, each with a short excerpt of its body.
pub(crate) async fn search(m: &Memory, p: SearchParams) -> ToolResult {
    if p.query.trim().is_empty() {
        return Err(ToolError(
            "query is empty: say what to look for, for example `cargo test flags`".to_owned(),
        ));
    }
    let catalog = m.catalog().await?;
    let mut scopes = Vec::new();
    for text in p.scope.iter().chain(&p.scopes) {
        let parsed = m.scope(&catalog, text)?;
        if !scopes.contains(&parsed) {
            scopes.push(parsed);
        }
    }
    let limit = capped(p.limit, 10, 50);
    let hits = m.store().search_notes(&SearchQuery::new(p.query.clone(), scopes, limit)).await?;
    let relevance = crate::cmd::history::note_relevance(&hits, &p.query);
    let hits: Vec<Value> = hits
        .iter()
        .zip(relevance)
        .map(|(hit, relevance)| {
            let mut out = summary::note_header(&hit.note, &catalog);
            out["relevance"] = json!(relevance);
            out["matched_terms"] = json!(hit.matched_terms);
            out["excerpt"] = json!(summary::clip(hit.note.body.trim(), summary::EXCERPT_CHARS));
            out
        })
        .collect();
    Ok(json!({ "query": p.query, "count": hits.len(), "hits": hits }))
}

/// `read_note`: a note's frontmatter, body and full Markdown.
pub(crate) async fn read(m: &Memory, p: NoteRef) -> ToolResult {
    let catalog = m.catalog().await?;
    let scope = m.scope(&catalog, &p.scope)?;
    let path = catalog.note_path(&scope, &path(&p.path)?);
    let note = m.store().get_note(&scope, &path).await?.ok_or_else(|| not_found(&catalog, &scope, &path))?;
    let mut out = summary::note_header(&note, &catalog);
    out["sources"] = json!(note.meta.sources.len());
    out["body"] = json!(note.body);
    out["markdown"] = json!(catalog.naming().markdown(&note));
    Ok(out)
}

/// `write_note`: creates or replaces a note, keeping the replaced version as history.
pub(crate) async fn write(m: &Memory, p: WriteParams) -> ToolResult {
    let catalog = m.catalog().await?;
    let scope = m.scope(&catalog, &p.scope)?;
    // A project's notes are in its folder, whoever writes them.
    let path = catalog.note_path(&scope, &path(&p.path)?);
    let mut note = Note {
        path,
        meta: NoteMeta {
            title: p.title.trim().to_owned(),
            description: p.description.map(|d| d.trim().to_owned()).filter(|d| !d.is_empty()),
            tags: p.tags,
            scope,
            kind: kind(&p.kind)?,
            sources: Vec::new(),
            updated: Utc::now(),
            generator: GENERATOR_MCP.to_owned(),
            owner: None,
        },
        body: p.body,
    };
    if let Some((config, _)) = &m.files {
        memory_hook::notes::stamp(config, &mut note);
    }
    m.redactor.redact_note(&mut note);
    note.validate()?;
    let existed = m.store().get_note(&note.meta.scope, &note.path).await?.is_some();
    m.store().put_note(&note).await?;
    if let Some(embedder) = &m.embedder {
        // The note is written either way; without its embedding it is found by its words.
        let _ = memory_embed::refresh(m.store(), embedder, EMBED_AFTER_WRITE).await;
    }
    let mut out = summary::note_header(&note, &catalog);
    out["created"] = json!(!existed);
    Ok(out)
}

/// `delete_note`: deletes a note and every previous version of it.
pub(crate) async fn delete(m: &Memory, p: NoteRef) -> ToolResult {
    let catalog = m.catalog().await?;
    let scope = m.scope(&catalog, &p.scope)?;
    let path = catalog.note_path(&scope, &path(&p.path)?);
    if !m.store().delete_note(&scope, &path).await? {
        return Err(not_found(&catalog, &scope, &path));
    }
    Ok(json!({ "deleted": true, "scope": catalog.label(&scope), "path": path.as_str() }))
}

/// `list_notes`: notes ordered by scope then path, without bodies.
pub(crate) async fn list(m: &Memory, p: ListParams) -> ToolResult {
    let catalog = m.catalog().await?;
    let filter = NoteFilter {
        scope: p.scope.as_deref().map(|text| m.scope(&catalog, text)).transpose()?,
        prefix: p.prefix.filter(|prefix| !prefix.is_empty()),
    };
    let limit = capped(p.limit, 200, 1000);
    let notes = m.store().list_notes(&filter).await?;
    let total = notes.len();
    let listed: Vec<Value> = notes.iter().take(limit).map(|n| summary::note_header(n, &catalog)).collect();
    Ok(json!({ "count": listed.len(), "total": total, "truncated": total > limit, "notes": listed }))
}

/// `session_timeline`: a session's events in order, one summary line each.
pub(crate) async fn timeline(m: &Memory, p: TimelineParams) -> ToolResult {
    let store = m.store();
    let key = p.session.trim();
    if key.is_empty() {
        return Err(ToolError("session is empty: pass a key such as `claude:<session id>`".to_owned()));
    }
    let all = store.sessions().await?;
    let session = match memory_hook::sessions::resolve(&all, key, None) {
        Ok(info) => info.key.clone(),
        Err(e) => {
            let known: Vec<String> = all.iter().take(5).map(|s| s.key.to_string()).collect();
            let hint = if known.is_empty() {
                "no sessions are recorded yet".to_owned()
            } else {
                format!("recent sessions: {}", known.join(", "))
            };
            return Err(ToolError(format!("{e}; {hint}")));
        }
    };
    let key = session.as_str();
    let limit = capped(p.limit, 50, 500);
    let after = p.after_seq.unwrap_or(0);
    let events = store.timeline(&session, after, limit).await?;
    let next = events.last().map(|e| e.seq).filter(|_| events.len() == limit);
    let events = memory_hook::sessions::merge_twins(events);
    let catalog = m.catalog().await?;
    let listed: Vec<Value> = events.iter().map(|e| summary::event(e, &catalog)).collect();
    Ok(json!({ "session": key, "count": listed.len(), "next_after_seq": next, "events": listed }))
}

/// `explain_note`: where a note came from — its source events, each item's sentence and why it is
/// kept where it is — and how many versions it had.
pub(crate) async fn explain(m: &Memory, p: NoteRef) -> ToolResult {
    let store = m.store();
    let catalog = m.catalog().await?;
    let scope = m.scope(&catalog, &p.scope)?;
    let path = catalog.note_path(&scope, &path(&p.path)?);
    let note = store.get_note(&scope, &path).await?.ok_or_else(|| not_found(&catalog, &scope, &path))?;
    let ids: &[EventId] = &note.meta.sources;
    let mut found = store.events_by_id(ids).await?;
    found.sort_by_key(|e| e.position);
    let missing: Vec<&str> =
        ids.iter().filter(|id| !found.iter().any(|e| &e.event.id == *id)).map(EventId::as_str).collect();
    let history = match store.note_history(&scope, &path).await {
        Ok(history) => history,
        Err(memory_core::Error::Unsupported { .. }) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    let versions: Vec<Value> = history
        .iter()
        .map(|v| json!({ "updated": v.meta.updated, "generator": v.meta.generator, "title": v.meta.title }))
        .collect();
    let mut out = summary::note_header(&note, &catalog);
    out["human_edited"] = json!(note.is_human_edited());
    out["sources"] = json!(found.iter().map(|e| summary::event(e, &catalog)).collect::<Vec<_>>());
    out["missing_sources"] = json!(missing);
    out["previous_versions"] = json!(versions.len());
    out["history"] = json!(versions);
    let items = memory_hook::explain::items(store, &note).await?;
    out["items"] =
        json!(crate::cmd::query::explained_json(&items, |id| catalog.label(&Scope::Project(id.to_owned()))));
    Ok(out)
}

/// A project an agent named (`project` for the current one, else a name or id): its id.
fn project_id(m: &Memory, catalog: &Catalog, text: &str) -> Result<String, ToolError> {
    let text = text.trim();
    let scope = if text == "project" { text.to_owned() } else { format!("project:{text}") };
    match m.scope(catalog, &scope)? {
        Scope::Project(id) => Ok(id),
        other => Err(ToolError(format!("`{text}` names {other}, not a project"))),
    }
}

fn when(text: Option<&String>) -> Result<Option<chrono::DateTime<Utc>>, ToolError> {
    text.map(|t| crate::cmd::history::parse_when(t).map_err(|e| ToolError(e.to_string()))).transpose()
}

fn harness(text: Option<&String>) -> Result<Option<String>, ToolError> {
    match text.map(|h| h.trim().to_ascii_lowercase()) {
        Some(h) if crate::cmd::adapter(&h).is_none() => {
            Err(ToolError(format!("unknown harness `{h}`; use one of {}", crate::cmd::harness_names())))
        }
        other => Ok(other),
    }
}

/// `list_sessions`: recorded sessions, most recent first.
pub(crate) async fn sessions(m: &Memory, p: SessionsParams) -> ToolResult {
    let catalog = m.catalog().await?;
    let project = p.project.as_deref().map(|t| project_id(m, &catalog, t)).transpose()?;
    let harness = harness(p.harness.as_ref())?;
    let limit = capped(p.limit, 20, 200);
    let all = m.store().sessions().await?;
    let shown: Vec<memory_core::SessionInfo> = all
        .into_iter()
        .filter(|s| project.as_ref().is_none_or(|id| s.project.as_deref() == Some(id.as_str())))
        .filter(|s| harness.as_ref().is_none_or(|h| s.harness == *h))
        .take(limit)
        .collect();
    let titles = memory_hook::sessions::titles(m.store(), &shown).await?;
    let listed: Vec<Value> = shown
        .iter()
        .zip(titles)
        .map(|(s, title)| {
            let mut listed = json!({
                "session": s.key.as_str(),
                "title": title,
                "harness": s.harness,
                "project": s.project.as_ref().map(|id| catalog.label(&Scope::Project(id.clone()))),
                "started_at": s.started_at,
                "last_at": s.last_at,
                "events": s.events,
            });
            if let Some(owner) = &s.owner {
                listed["owner"] = json!(owner);
            }
            listed
        })
        .collect();
    Ok(json!({ "count": listed.len(), "sessions": listed }))
}

/// `search_history`: recorded events ranked by relevance, each with an excerpt.
pub(crate) async fn history(m: &Memory, p: HistoryParams) -> ToolResult {
    if p.query.trim().is_empty() {
        return Err(ToolError(
            "query is empty: say what to look for, for example `migration failed`".to_owned(),
        ));
    }
    let catalog = m.catalog().await?;
    let filter = memory_core::EventFilter {
        session: p.session.as_ref().map(|s| SessionKey(s.trim().to_owned())),
        project: p.project.as_deref().map(|t| project_id(m, &catalog, t)).transpose()?,
        harness: harness(p.harness.as_ref())?,
        owner: None,
        since: when(p.since.as_ref())?,
        until: when(p.until.as_ref())?,
    };
    let limit = capped(p.limit, 10, 50);
    let hits =
        memory_hook::history::search(m.store(), &p.query, &[filter], limit, m.embedder.as_ref()).await?;
    let hits = crate::cmd::history::ranked(hits, |_| 0);
    let hits = crate::cmd::history::listed(m.store(), hits, limit).await;
    let mut listed: Vec<Value> = Vec::with_capacity(hits.len());
    for h in &hits {
        let e = &h.hit.event.event;
        let project = e.project.as_ref().map(|id| catalog.label(&Scope::Project(id.clone())));
        let mut out = crate::cmd::history::listed_json(h, &p.query, project.as_deref());
        out["summary"] = summary::event(&h.hit.event, &catalog)["summary"].clone();
        listed.push(out);
    }
    Ok(json!({ "query": p.query, "count": listed.len(), "hits": listed }))
}

/// `forget`: what would go (without `confirm`), or deletes it for good.
pub(crate) async fn forget(m: &Memory, p: ForgetParams) -> ToolResult {
    use memory_hook::forget::{self, Target};
    let catalog = m.catalog().await?;
    let range = p.since.is_some() || p.until.is_some();
    let range_filter = memory_core::EventFilter {
        since: when(p.since.as_ref())?,
        until: when(p.until.as_ref())?,
        ..memory_core::EventFilter::all()
    };
    let mut targets = Vec::new();
    if let Some(text) = &p.text {
        targets.push(Target::Text { text: text.clone(), filter: range_filter.clone() });
    }
    if let Some(session) = &p.session {
        targets.push(Target::Session(SessionKey(session.trim().to_owned())));
    }
    if let Some(id) = &p.event {
        targets.push(Target::Event(EventId(id.trim().to_ascii_lowercase())));
    }
    if let Some(project) = &p.project {
        targets.push(Target::Project(project_id(m, &catalog, project)?));
    }
    if let Some(note) = &p.note_path {
        let scope =
            p.note_scope.as_deref().ok_or_else(|| ToolError("note_path needs note_scope".to_owned()))?;
        let scope = m.scope(&catalog, scope)?;
        let path = catalog.note_path(&scope, &path(note)?);
        targets.push(Target::Note { scope, path });
    }
    if targets.is_empty() && range {
        targets.push(Target::Events(range_filter));
    }
    let [target] = targets.as_slice() else {
        return Err(ToolError(
            "name exactly one thing to forget: text, session, event, project, note_path (with note_scope), \
             or a time range (since/until)"
                .to_owned(),
        ));
    };
    let default_config;
    let (config, env) = match &m.files {
        Some((config, env)) => (config, env.clone()),
        None => {
            default_config = memory_hook::Config::default();
            (&default_config, memory_hook::Env::process())
        }
    };
    let plan = forget::plan(m.store(), config, &env, target).await.map_err(|e| ToolError(e.to_string()))?;
    if !p.confirm || plan.is_empty() {
        return Ok(json!({
            "deleted": false,
            "plan": plan,
            "next": if plan.is_empty() { "nothing matches: nothing to forget" } else {
                "nothing was deleted: show the user this plan, and call forget again with confirm: true if they agree"
            },
        }));
    }
    let report = forget::apply(m.store(), &plan).await.map_err(|e| ToolError(e.to_string()))?;
    // Hooks in forward mode read the notes from a local copy: purged as the store was.
    memory_hook::forward::purge_replica(config, &crate::store::HookStores, m.store(), &plan)
        .await
        .map_err(|e| ToolError(e.to_string()))?;
    Ok(json!({ "deleted": true, "plan": plan, "forgotten": report }))
}

#[cfg(test)]
mod tests;
