//! The dream run: scan events past the watermarks, chunk them per group, ask the provider, validate,
//! and commit each chunk's note changes together with its watermark.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::{
    EventId, EventKind, HookEvent, MemoryStore, Note, NoteChange, NoteFilter, NotePath, Scope, StoredEvent,
    WatermarkAdvance,
};

use crate::options::{SCANNED_WATERMARK, watermark_name};
use crate::validate::{self, Context, ValidChange};
use crate::{
    Action, ChunkFailure, ChunkOutcome, DreamOptions, DreamReport, DreamRequest, Error, PlannedChange,
    Progress, Provider, Result, ScopeFilter, StopReason, Usage, diff, events_text, operations_schema,
};

/// The event group an event belongs to: its project, or the user when it has none.
pub fn event_group(event: &HookEvent) -> Scope {
    match event.project.as_deref().map(str::trim) {
        Some(project) if !project.is_empty() => Scope::Project(project.to_owned()),
        _ => Scope::User,
    }
}

/// Runs the dream once.
///
/// Reads the events after each group's watermark (`dream:<scope>`), in chunks of
/// [`DreamOptions::chunk_size`] per group, and hands each chunk with the group's current notes (as
/// last written in this run) to `provider`. The reply is validated; an invalid reply is retried once
/// with the errors, and a chunk still invalid is reported in [`DreamReport::failures`] and changes
/// nothing: its group stops there and resumes from that chunk on the next run. Each valid chunk is
/// committed with one [`MemoryStore::commit`] holding its note changes and its watermark advance, so a
/// run killed at any point leaves notes and watermarks consistent. `Injection` events are never
/// evidence. No new events means no provider call and no change.
///
/// Store errors end the run with `Err` (earlier chunks stay committed). Budget caps, the event
/// limit ([`DreamOptions::max_events`]: the events read so far are still distilled) and provider
/// failures stop it cleanly, see [`DreamReport::stopped`].
pub async fn run(
    store: &dyn MemoryStore,
    provider: &dyn Provider,
    options: &DreamOptions,
    progress: &dyn Progress,
) -> Result<DreamReport> {
    let watermarks: BTreeMap<String, u64> =
        store.watermarks().await?.into_iter().filter(|(name, _)| name.starts_with("dream:")).collect();
    let scanned = watermarks.get(SCANNED_WATERMARK).copied().unwrap_or(0);
    let scan_start = watermarks.values().copied().chain([scanned]).min().unwrap_or(0);
    let mut state = RunState {
        store,
        provider,
        options,
        progress,
        generator: provider.name(),
        schema: operations_schema(),
        report: DreamReport { dry_run: options.dry_run, ..DreamReport::default() },
        overlay: BTreeMap::new(),
        halted: BTreeSet::new(),
        project_tools: None,
        activity: None,
        relocated: BTreeSet::new(),
    };
    let chunk_size = options.chunk_size.max(1);
    let page = chunk_size.clamp(100, 1000);
    let mut buffers: BTreeMap<Scope, Chunk> = BTreeMap::new();
    let mut position = scan_start;
    let mut limited = false;
    'scan: loop {
        let batch = store.events_after(position, page).await?;
        if batch.is_empty() {
            break;
        }
        for stored in batch {
            if options.max_events.is_some_and(|limit| state.report.events_read >= limit) {
                limited = true;
                break 'scan;
            }
            position = stored.position;
            let group = event_group(&stored.event);
            if !options.scopes.contains(&group)
                || state.halted.contains(&group)
                || stored.position <= watermarks.get(&watermark_name(&group)).copied().unwrap_or(0)
            {
                continue;
            }
            state.report.events_read += 1;
            let chunk = buffers.entry(group.clone()).or_insert_with(|| Chunk::starting_at(stored.position));
            chunk.last_position = stored.position;
            if stored.event.kind != EventKind::Injection {
                chunk.events.push(stored);
            }
            if chunk.events.len() >= chunk_size {
                // What was said earlier in other groups goes first: a correction in one project of
                // what the user said in another is read after what it corrects.
                let first = chunk.first_position;
                for (earlier, chunk) in take_in_order(&mut buffers, |c| c.first_position <= first) {
                    state.process(&earlier, chunk).await?;
                    if state.report.stopped.is_some() {
                        break 'scan;
                    }
                }
            }
        }
        progress.scanned(state.report.events_read, position);
    }
    for (group, chunk) in take_in_order(&mut buffers, |_| true) {
        if state.report.stopped.is_some() {
            break;
        }
        if !state.halted.contains(&group) {
            state.process(&group, chunk).await?;
        }
    }
    if limited && state.report.stopped.is_none() {
        state.report.stopped = Some(StopReason::EventLimit { limit: options.max_events.unwrap_or(0) });
    }
    let complete = state.report.stopped.is_none() && state.report.failures.is_empty();
    if complete && !options.dry_run && options.scopes == ScopeFilter::All && position > scanned {
        let advance = WatermarkAdvance { name: SCANNED_WATERMARK.to_owned(), position };
        store.commit(&[], Some(&advance)).await?;
    }
    Ok(state.report)
}

/// Events of one group waiting to go to the provider.
#[derive(Debug)]
struct Chunk {
    events: Vec<StoredEvent>,
    first_position: u64,
    last_position: u64,
}

impl Chunk {
    fn starting_at(position: u64) -> Self {
        Self { events: Vec::new(), first_position: position, last_position: position }
    }
}

/// Takes the buffered chunks `which` picks out of `buffers`, in the order of their first event.
fn take_in_order(
    buffers: &mut BTreeMap<Scope, Chunk>,
    which: impl Fn(&Chunk) -> bool,
) -> Vec<(Scope, Chunk)> {
    let picked: Vec<Scope> = buffers.iter().filter(|(_, c)| which(c)).map(|(g, _)| g.clone()).collect();
    let mut taken: Vec<(Scope, Chunk)> =
        picked.into_iter().filter_map(|g| buffers.remove(&g).map(|c| (g, c))).collect();
    taken.sort_by_key(|(_, c)| c.first_position);
    taken
}

struct RunState<'a> {
    store: &'a dyn MemoryStore,
    provider: &'a dyn Provider,
    options: &'a DreamOptions,
    progress: &'a dyn Progress,
    generator: String,
    schema: serde_json::Value,
    report: DreamReport,
    /// Notes as this run left them (`None`: deleted); in a dry run, the only record of the plan.
    overlay: BTreeMap<(Scope, NotePath), Option<Note>>,
    /// Groups stopped by a failed chunk.
    halted: BTreeSet<Scope>,
    /// The tools each project's notes describe (`project/<folder>/tools/<tool>/…`), read once per
    /// run and kept up to date with what it writes.
    project_tools: Option<BTreeMap<Scope, BTreeMap<String, usize>>>,
    /// The notes of every project that record what the agent did there, as stored when the run
    /// began: read once ([`DreamRequest::elsewhere`] adds what the run wrote since).
    activity: Option<BTreeMap<(Scope, NotePath), Note>>,
    /// Projects whose notes were moved to their folder in this run ([`crate::relocate`]).
    relocated: BTreeSet<Scope>,
}

impl RunState<'_> {
    async fn process(&mut self, group: &Scope, chunk: Chunk) -> Result<()> {
        let watermark = WatermarkAdvance { name: watermark_name(group), position: chunk.last_position };
        if chunk.events.is_empty() {
            if !self.options.dry_run {
                self.store.commit(&[], Some(&watermark)).await?;
            }
            return Ok(());
        }
        self.report.chunks += 1;
        self.progress.chunk_started(group, chunk.events.len());
        let allowed_scopes =
            if *group == Scope::User { vec![Scope::User] } else { vec![group.clone(), Scope::User] };
        let project_name = match group {
            Scope::Project(id) => self.options.project_names.get(id).cloned(),
            _ => None,
        };
        if let Scope::Project(id) = group
            && !self.options.dry_run
            && self.relocated.insert(group.clone())
        {
            let folder = validate::project_folder(id, project_name.as_deref());
            crate::relocate::relocate(self.store, group, &folder).await?;
            // Notes that moved are read again where they are now.
            self.activity = None;
        }
        let notes = self.current_notes(&allowed_scopes).await?;
        let tools_elsewhere = self.tools_elsewhere(group).await?;
        let elsewhere = self.activity_elsewhere(group).await?;
        let mut request = DreamRequest {
            group: group.clone(),
            allowed_scopes,
            events_text: events_text::render_events(&chunk.events),
            events: chunk.events,
            notes: notes.values().cloned().collect(),
            tools_elsewhere,
            elsewhere: elsewhere.values().cloned().collect(),
            schema: self.schema.clone(),
            previous_errors: Vec::new(),
            limits: self.options.limits.clone(),
            now: self.options.now,
            project_name,
        };
        let mut errors: Vec<String> = Vec::new();
        for _attempt in 0..2 {
            request.previous_errors = errors.clone();
            if let Some(reason) = self.over_budget(&request) {
                self.report.stopped = Some(reason);
                return Ok(());
            }
            self.report.provider_calls += 1;
            match self.provider.propose(&request).await {
                Ok(reply) => {
                    self.account(reply.usage);
                    let known_sources = self.known_sources(&request, &reply.operations.operations).await?;
                    let folder = request.project_folder();
                    let context = Context {
                        group,
                        folder: folder.as_deref(),
                        events: &request.events,
                        allowed_scopes: &request.allowed_scopes,
                        notes: &notes,
                        elsewhere: &elsewhere,
                        known_sources: &known_sources,
                        generator: &self.generator,
                        owner: self.options.owner.as_deref(),
                        now: self.options.now,
                        limits: &self.options.limits,
                    };
                    match validate::validate(&reply.operations.operations, &context) {
                        Ok(changes) => return self.apply(group, changes, &watermark).await,
                        Err(problems) => errors = problems,
                    }
                }
                Err(Error::InvalidOutput { message, usage, .. }) => {
                    self.account(usage);
                    errors = vec![message];
                }
                Err(error) => {
                    let message = error.to_string();
                    self.fail(group, &chunk_span(&request), vec![message.clone()]);
                    self.report.stopped = Some(StopReason::ProviderFailed { message });
                    return Ok(());
                }
            }
        }
        self.fail(group, &chunk_span(&request), errors);
        Ok(())
    }

    fn fail(&mut self, group: &Scope, span: &(u64, u64), errors: Vec<String>) {
        tracing::warn!(%group, ?errors, "dream chunk given up");
        self.halted.insert(group.clone());
        self.progress.chunk_finished(group, &ChunkOutcome::Failed { message: errors.join("; ") });
        self.report.failures.push(ChunkFailure {
            group: group.clone(),
            first_position: span.0,
            last_position: span.1,
            errors,
        });
    }

    async fn current_notes(&self, scopes: &[Scope]) -> Result<BTreeMap<(Scope, NotePath), Note>> {
        let mut notes = BTreeMap::new();
        for scope in scopes {
            for note in self.store.list_notes(&NoteFilter::scope(scope.clone())).await? {
                notes.insert((note.meta.scope.clone(), note.path.clone()), note);
            }
            for ((overlay_scope, path), note) in &self.overlay {
                if overlay_scope != scope {
                    continue;
                }
                let key = (overlay_scope.clone(), path.clone());
                match note {
                    Some(note) => notes.insert(key, note.clone()),
                    None => notes.remove(&key),
                };
            }
        }
        Ok(notes)
    }

    /// The notes of projects other than `group` that record what the agent did there, as last
    /// written in this run ([`DreamRequest::elsewhere`]); none a person edited.
    async fn activity_elsewhere(&mut self, group: &Scope) -> Result<BTreeMap<(Scope, NotePath), Note>> {
        if self.activity.is_none() {
            let mut stored = BTreeMap::new();
            for note in self.store.list_notes(&NoteFilter::all()).await? {
                if crate::deterministic::records_activity(&note.path) {
                    stored.insert((note.meta.scope.clone(), note.path.clone()), note);
                }
            }
            self.activity = Some(stored);
        }
        let mut notes = self.activity.clone().unwrap_or_default();
        for (key, note) in &self.overlay {
            match note {
                Some(note) => notes.insert(key.clone(), note.clone()),
                None => notes.remove(key),
            };
        }
        notes.retain(|(scope, path), note| {
            matches!(scope, Scope::Project(_))
                && scope != group
                && !note.is_human_edited()
                && note.meta.generator == crate::deterministic::GENERATOR
                && crate::deterministic::records_activity(path)
        });
        Ok(notes)
    }

    /// Tools that the notes of projects other than `group` describe.
    async fn tools_elsewhere(&mut self, group: &Scope) -> Result<BTreeSet<String>> {
        if self.project_tools.is_none() {
            let mut tools: BTreeMap<Scope, BTreeMap<String, usize>> = BTreeMap::new();
            for note in self.store.list_notes(&NoteFilter::all()).await? {
                if let Some(tool) = project_tool(&note.meta.scope, &note.path) {
                    *tools.entry(note.meta.scope.clone()).or_default().entry(tool).or_default() += 1;
                }
            }
            self.project_tools = Some(tools);
        }
        let tools = self.project_tools.as_ref().expect("just read");
        Ok(tools
            .iter()
            .filter(|(scope, _)| *scope != group)
            .flat_map(|(_, tools)| tools.iter().filter(|(_, n)| **n > 0).map(|(tool, _)| tool.clone()))
            .collect())
    }

    /// Ids the operations may cite: the chunk's events and any other stored event.
    async fn known_sources(
        &self,
        request: &DreamRequest,
        operations: &[crate::NoteOperation],
    ) -> Result<BTreeSet<String>> {
        let mut known: BTreeSet<String> = request.events.iter().map(|e| e.event.id.0.clone()).collect();
        let others: Vec<EventId> = operations
            .iter()
            .flat_map(|op| &op.sources)
            .filter(|id| !known.contains(*id))
            .map(|id| EventId(id.clone()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if !others.is_empty() {
            for stored in self.store.events_by_id(&others).await? {
                if stored.event.kind != EventKind::Injection {
                    known.insert(stored.event.id.0);
                }
            }
        }
        Ok(known)
    }

    fn account(&mut self, usage: Usage) {
        self.report.tokens_in += usage.input_tokens;
        self.report.tokens_out += usage.output_tokens;
        let cost = usage
            .cost_usd
            .or_else(|| self.provider.pricing().map(|p| p.cost(usage.input_tokens, usage.output_tokens)));
        self.report.cost_usd += cost.unwrap_or(0.0);
    }

    fn over_budget(&self, request: &DreamRequest) -> Option<StopReason> {
        let estimate = self.provider.estimate_usage(request);
        if let Some(limit) = self.options.max_tokens {
            let used = self.report.tokens_in + self.report.tokens_out;
            if used + estimate.input_tokens + estimate.output_tokens > limit {
                return Some(StopReason::TokenBudget { limit, used });
            }
        }
        if let Some(limit) = self.options.max_cost_usd {
            let spent = self.report.cost_usd;
            let next = estimate.cost_usd.unwrap_or_else(|| {
                self.provider.pricing().map_or(0.0, |p| p.cost(estimate.input_tokens, estimate.output_tokens))
            });
            if spent + next > limit || (spent >= limit && limit > 0.0) {
                return Some(StopReason::CostBudget { limit, spent });
            }
        }
        None
    }

    async fn apply(
        &mut self,
        group: &Scope,
        changes: Vec<ValidChange>,
        watermark: &WatermarkAdvance,
    ) -> Result<()> {
        // Whatever a provider wrote, no secret reaches a note.
        let redactor = memory_redact::Redactor::with_rules(self.options.redaction_rules.clone());
        let mut changes = changes;
        for note in changes.iter_mut().filter_map(|c| c.after.as_mut()) {
            redactor.redact_note(note);
        }
        let store_changes: Vec<NoteChange> = changes
            .iter()
            .map(|change| match &change.after {
                Some(note) => NoteChange::Put(note.clone()),
                None => NoteChange::Delete { scope: change.scope.clone(), path: change.path.clone() },
            })
            .collect();
        if !self.options.dry_run {
            self.store.commit(&store_changes, Some(watermark)).await?;
        }
        let (mut created, mut updated, mut deleted) = (0, 0, 0);
        for change in changes {
            match change.action {
                Action::Create => created += 1,
                Action::Update => updated += 1,
                Action::Delete => deleted += 1,
            }
            let before = change.before.as_ref().map(Note::to_markdown);
            let after = change.after.as_ref().map(Note::to_markdown);
            let label = format!("{}/{}", change.scope, change.path);
            let diff =
                diff::unified_diff(&label, before.as_deref().unwrap_or(""), after.as_deref().unwrap_or(""));
            self.report.changes.push(PlannedChange {
                action: change.action,
                scope: change.scope.clone(),
                path: change.path.clone(),
                reason: change.reason,
                merged_into_human_edit: change.before.as_ref().is_some_and(Note::is_human_edited),
                before,
                after,
                diff,
            });
            if let (Some(tools), Some(tool)) =
                (self.project_tools.as_mut(), project_tool(&change.scope, &change.path))
            {
                let count = tools.entry(change.scope.clone()).or_default().entry(tool).or_default();
                match change.action {
                    Action::Create => *count += 1,
                    Action::Delete => *count = count.saturating_sub(1),
                    Action::Update => {}
                }
            }
            self.overlay.insert((change.scope, change.path), change.after);
        }
        self.report.notes_created += created as u64;
        self.report.notes_updated += updated as u64;
        self.report.notes_deleted += deleted as u64;
        self.progress.chunk_finished(group, &ChunkOutcome::Applied { created, updated, deleted });
        Ok(())
    }
}

/// The tool a project note is about, for a note at `project/<folder>/tools/<tool>/…`.
fn project_tool(scope: &Scope, path: &NotePath) -> Option<String> {
    let Scope::Project(_) = scope else { return None };
    let rest = path.below_project_folder()?.strip_prefix("tools/")?;
    let (tool, file) = rest.split_once('/')?;
    (!tool.is_empty() && !file.is_empty()).then(|| tool.to_owned())
}

fn chunk_span(request: &DreamRequest) -> (u64, u64) {
    let first = request.events.first().map_or(0, |e| e.position);
    let last = request.events.last().map_or(0, |e| e.position);
    (first, last)
}
