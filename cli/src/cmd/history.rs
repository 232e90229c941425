//! Search over history: what `search`, `forget` and the MCP tools share to pick events
//! (`--project`, `--harness`, `--session`, `--since`, `--until`), and the history half of
//! `agent-memory search`.

use chrono::{DateTime, NaiveDate, Utc};
use memory_core::search::{event_text, expand};
use memory_core::{EventFilter, EventHit, SessionKey};
use serde_json::{Value, json};

use super::projects::Scopes;

/// Which events: the filters of `search` and `forget`.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct HistoryArgs {
    /// Only this project's events (a name or id as `agent-memory projects` lists them; `.` for
    /// this folder's).
    #[arg(long, value_name = "NAME")]
    pub(crate) project: Option<String>,
    /// Only this harness's events: claude, codex, cursor, gemini or copilot.
    #[arg(long)]
    pub(crate) harness: Option<String>,
    /// Only this session's events (`claude:<id>` as `agent-memory sessions` lists them, or a
    /// unique start of it).
    #[arg(long, value_name = "KEY")]
    pub(crate) session: Option<String>,
    /// Only events from this time on: `2026-03-01`, `2026-03-01T14:00:00Z`, or a while ago
    /// (`2h`, `7d`).
    #[arg(long, value_name = "WHEN")]
    pub(crate) since: Option<String>,
    /// Only events before this time (same forms as `--since`).
    #[arg(long, value_name = "WHEN")]
    pub(crate) until: Option<String>,
}

impl HistoryArgs {
    /// Whether any filter was given.
    pub(crate) fn any(&self) -> bool {
        self.project.is_some()
            || self.harness.is_some()
            || self.session.is_some()
            || self.since.is_some()
            || self.until.is_some()
    }

    /// The store filter these arguments name.
    pub(crate) fn filter(&self, scopes: &Scopes) -> anyhow::Result<EventFilter> {
        let project = match self.project.as_deref() {
            Some(name) => Some(project_id(scopes, name)?),
            None => None,
        };
        if let Some(harness) = &self.harness
            && crate::cmd::adapter(harness).is_none()
        {
            anyhow::bail!("unknown harness `{harness}`; known: {}", crate::cmd::harness_names());
        }
        let filter = EventFilter {
            session: self.session.as_ref().map(|s| SessionKey(s.trim().to_owned())),
            project,
            harness: self.harness.as_ref().map(|h| h.to_ascii_lowercase()),
            owner: None,
            since: self.since.as_deref().map(parse_when).transpose()?,
            until: self.until.as_deref().map(parse_when).transpose()?,
        };
        if let (Some(since), Some(until)) = (filter.since, filter.until)
            && since >= until
        {
            anyhow::bail!("--since must be before --until");
        }
        Ok(filter)
    }
}

/// The id of a project named on the command line (`.` or `project` for this folder's).
pub(crate) fn project_id(scopes: &Scopes, name: &str) -> anyhow::Result<String> {
    let text =
        if name == "." || name == "project" { "project".to_owned() } else { format!("project:{name}") };
    match scopes.scope(&text)? {
        memory_core::Scope::Project(id) => Ok(id),
        other => anyhow::bail!("`{name}` names {other}, not a project"),
    }
}

/// A time as typed: RFC 3339, a date (midnight UTC), or a while ago (`30m`, `2h`, `7d`).
pub(crate) fn parse_when(text: &str) -> anyhow::Result<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&Utc));
    }
    if let Ok(day) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Ok(day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    match memory_hook::capture::parse_length(text) {
        Ok(ago) => Ok(Utc::now() - ago),
        Err(_) => anyhow::bail!(
            "cannot read the time `{text}`: use a date (2026-03-01), a time (2026-03-01T14:00:00Z) or a while ago (2h, 7d)"
        ),
    }
}

/// How well each note hit answers the query, from 0 to 1, in the order the store ranked them
/// (by words and meaning): the larger of its share of the best hit's score and of the best word
/// match, so a note found by meaning or by the topics of its tools never reads as 0.
pub(crate) fn note_relevance(hits: &[memory_core::SearchHit], query: &str) -> Vec<f64> {
    let terms = memory_core::search::expand(query);
    let texts: Vec<String> = hits.iter().map(|h| memory_core::search::note_text(&h.note)).collect();
    let words = memory_core::search::readable_relevance(&texts, &terms);
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    hits.iter()
        .zip(words)
        .map(|(hit, by_words)| {
            let by_store = if best > 0.0 { (hit.score / best).clamp(0.0, 1.0) } else { 0.0 };
            (by_words.max(by_store) * 100.0).round() / 100.0
        })
        .collect()
}

/// Hits ranked by [`memory_hook::history::search`], with `first` (a project's own events in
/// its folder) before the rest, each with its relevance: its score as a share of the best's.
pub(crate) fn ranked(mut hits: Vec<EventHit>, first: impl Fn(&EventHit) -> usize) -> Vec<(EventHit, f64)> {
    hits.sort_by(|a, b| first(b).cmp(&first(a)).then(b.score.total_cmp(&a.score)));
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    hits.into_iter()
        .map(|hit| {
            let relevance = if best > 0.0 { (hit.score / best * 1000.0).round() / 1000.0 } else { 0.0 };
            (hit, relevance)
        })
        .collect()
}

/// Most actions [`what_followed`] lists.
const FOLLOWED: usize = 3;

/// For a hit on a prompt or a failed tool call, what the agent did next in the session, up to
/// the next prompt: the commands it ran (and whether they passed) and the files it edited, the
/// first few. "What did we try last time?" is answered by what followed the question or the
/// failure.
pub(crate) async fn what_followed(store: &dyn memory_core::MemoryStore, hit: &EventHit) -> Vec<String> {
    let e = &hit.event.event;
    let failed = e.tool.as_ref().and_then(|t| t.failed) == Some(true);
    if !failed && e.kind != memory_core::EventKind::UserPromptSubmit {
        return Vec::new();
    }
    let Ok(next) = store.timeline(&e.session, hit.event.seq, 24).await else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for stored in next {
        let event = &stored.event;
        if matches!(event.kind, memory_core::EventKind::UserPromptSubmit | memory_core::EventKind::Stop) {
            break;
        }
        let result = matches!(
            event.kind,
            memory_core::EventKind::PostToolUse | memory_core::EventKind::PostToolUseFailure
        );
        let Some(tool) = event.tool.as_ref().filter(|_| result) else { continue };
        let action = if let Some(shell) = &tool.shell {
            let outcome = match (tool.failed, shell.exit_code) {
                (Some(true), Some(code)) => format!("failed (exit {code})"),
                (Some(true), None) => "failed".to_owned(),
                _ => "passed".to_owned(),
            };
            format!("`{}` {outcome}", crate::output::clip(&shell.command, 120))
        } else {
            let edited: Vec<&str> = tool
                .files
                .iter()
                .filter(|f| f.action == memory_core::FileAction::Edited)
                .map(|f| f.path.as_str())
                .collect();
            if edited.is_empty() {
                continue;
            }
            format!("edited {}", edited.join(", "))
        };
        if !out.contains(&action) {
            out.push(action);
        }
        if out.len() == FOLLOWED {
            break;
        }
    }
    out
}

/// A history hit as listed: the hit and its relevance, how many near-duplicates it stands for
/// ([`memory_hook::history::collapse`]), what followed it ([`what_followed`]) and, for a failed
/// command, the event that fixed it ([`memory_hook::history::fix_of`]).
pub(crate) struct Listed {
    pub(crate) hit: EventHit,
    pub(crate) relevance: f64,
    pub(crate) count: usize,
    pub(crate) then: Vec<String>,
    pub(crate) fix: Option<memory_core::StoredEvent>,
}

/// Ranked hits as listed: near-duplicates as one, the first `limit`, each with what followed it
/// and its fix.
pub(crate) async fn listed(
    store: &dyn memory_core::MemoryStore,
    ranked: Vec<(EventHit, f64)>,
    limit: usize,
) -> Vec<Listed> {
    let mut out = Vec::new();
    for ((hit, relevance), count) in memory_hook::history::collapse(ranked, |(h, _)| &h.event.event) {
        if out.len() == limit {
            break;
        }
        let then = what_followed(store, &hit).await;
        let fix = memory_hook::history::fix_of(store, &hit).await.ok().flatten();
        out.push(Listed { hit, relevance, count, then, fix });
    }
    out
}

/// A listed hit as JSON: [`hit_json`], with `count` when it stands for more than one event,
/// `then` when something followed, and `fixed_by` (the fix's id, session place and command).
pub(crate) fn listed_json(listed: &Listed, query: &str, project: Option<&str>) -> Value {
    let mut out = hit_json(&listed.hit, query, listed.relevance, project);
    if listed.count > 1 {
        out["count"] = json!(listed.count);
    }
    if !listed.then.is_empty() {
        out["then"] = json!(listed.then);
    }
    if let Some(fix) = &listed.fix {
        out["fixed_by"] = json!({
            "id": fix.event.id.as_str(),
            "seq": fix.seq,
            "kind": fix.event.kind.as_str(),
            "command": fix.event.tool.as_ref().and_then(|t| t.shell.as_ref()).map(|s| s.command.as_str()),
        });
    }
    out
}

/// An event hit as JSON: the event's place, whose it is when it records that, an excerpt around
/// the words asked for, its text (the first [`TEXT_CHARS`]), its score and its readable relevance.
pub(crate) fn hit_json(hit: &EventHit, query: &str, relevance: f64, project: Option<&str>) -> Value {
    let e = &hit.event.event;
    let text = event_text(e);
    let mut out = json!({
        "id": e.id.as_str(),
        "session": e.session.as_str(),
        "seq": hit.event.seq,
        "kind": e.kind.as_str(),
        "harness": e.harness.name,
        "project": project,
        "occurred_at": e.occurred_at,
        "score": hit.score,
        "relevance": (relevance * 1000.0).round() / 1000.0,
        "matched_terms": hit.matched_terms,
        "excerpt": memory_core::search::excerpt(&text, &expand(query), 160),
        "text": crate::output::clip(text.trim(), TEXT_CHARS),
    });
    if let Some(owner) = &e.owner {
        out["owner"] = json!(owner);
    }
    out
}

/// Most characters of an event's text a JSON hit carries whole.
const TEXT_CHARS: usize = 1_000;

/// About 160 characters of the event's text around the first word asked for.
pub(crate) fn excerpt(hit: &EventHit, query: &str) -> String {
    memory_core::search::excerpt(&event_text(&hit.event.event), &expand(query), 160)
}
