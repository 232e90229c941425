//! What a hook hands the agent: the session-start block and per-prompt notes, within budgets.

use std::collections::BTreeSet;

use std::collections::BTreeMap;

use memory_core::{
    MemoryStore, Note, NoteFilter, NoteKind, Scope, SearchQuery, VectorQuery, truncate_markdown,
};

use crate::config::HookConfig;
use crate::project::Project;

/// Longest body of one note at session start, in characters.
const START_NOTE_CAP: usize = 1_500;
/// Longest body of one note injected on a prompt, in characters.
const PROMPT_NOTE_CAP: usize = 800;
/// Search candidates considered per prompt.
const PROMPT_CANDIDATES: usize = 12;
/// How much lower the similarity floor is for a note that shares words with the prompt: all of
/// it once the note has half the prompt's terms, less for fewer (one word of a short prompt says
/// more than one word of a long one).
const WORDED_MARGIN: f32 = 0.1;
/// How much more a note of the session's project weighs than one of the user's.
const PROJECT_BOOST: f64 = 1.25;
/// Reciprocal rank fusion's damping: a note's share from one ranking is `1 / (RRF_K + rank)`.
const RRF_K: f64 = 60.0;

/// Finding notes by meaning: the prompt's embedding (computed meanwhile, see
/// [`memory_embed::Embedder::embed_in_background`]) and the least similarity a note found by
/// meaning alone needs.
#[derive(Debug)]
pub struct Meaning {
    pub vector: memory_embed::Pending,
    pub min_similarity: f32,
}

impl Meaning {
    /// Starts embedding `prompt` with the model installed in `model_dir`, on a thread of its own,
    /// with the topics it names ([`memory_embed::embedded_text`], as note passages are embedded).
    pub fn of(model_dir: std::path::PathBuf, prompt: &str, min_similarity: f32) -> Self {
        let text = memory_embed::embedded_text(prompt);
        let vector =
            memory_embed::Embedder::embed_in_background(model_dir, text, memory_embed::PROMPT_TOKENS);
        Self { vector, min_similarity }
    }
}

/// The tags around every block the hook hands an agent.
pub(crate) const OPEN: &str = "<agent-memory>\n";
pub(crate) const CLOSE: &str = "</agent-memory>\n";

/// Context to inject and the notes it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injection {
    pub text: String,
    /// `<scope> <path>` of every note whose body was included.
    pub notes: Vec<String>,
}

/// The key a note is remembered by within a session.
pub fn note_key(note: &Note) -> String {
    format!("{} {}", note.meta.scope, note.path)
}

/// A note's scope as the agent reads it: the session's project by its readable name.
fn scope_label(note: &Note, project: &Project) -> String {
    match &note.meta.scope {
        Scope::Project(id) if *id == project.id => format!("project:{}", project.name),
        other => other.to_string(),
    }
}

fn section(note: &Note, project: &Project, cap: usize) -> String {
    section_with(note, project, &truncate_markdown(note.body.trim(), cap))
}

fn section_with(note: &Note, project: &Project, body: &str) -> String {
    format!(
        "### {} (`{}`, {})\n{}\n\n",
        note.meta.title,
        note.path,
        scope_label(note, project),
        body.trim_end()
    )
}

fn index_line(note: &Note, project: &Project) -> String {
    let scope = scope_label(note, project);
    match note.meta.description.as_deref() {
        Some(d) => format!("- `{}` ({scope}): {} — {}\n", note.path, note.meta.title, d),
        None => format!("- `{}` ({scope}): {}\n", note.path, note.meta.title),
    }
}

/// The programs a project's notes show it runs (the commands in their code spans) and the tools
/// its own tool notes are about: what makes one of the user's tool notes relevant there.
pub fn tools_used(project_notes: &[Note]) -> BTreeSet<String> {
    let mut tools = BTreeSet::new();
    for note in project_notes {
        let path = note.path.as_str();
        if let Some(at) = path.find("/tools/") {
            tools.extend(path[at + 7..].split('/').next().map(str::to_owned));
        }
        for span in memory_core::code_spans(&note.body) {
            if let Some(invocation) = memory_core::shell::primary(span) {
                tools.insert(memory_core::slug(&invocation.program));
            }
        }
    }
    tools
}

/// How useful a note is at the start of a session in a project that uses `tools`: what the user
/// said (preferences, conventions) before what worked (errors and fixes) before facts and tool
/// notes, lists of hot files last; recent notes before old ones; a note of the user's about a
/// tool this project does not use far behind.
pub fn usefulness(note: &Note, tools: &BTreeSet<String>, now: chrono::DateTime<chrono::Utc>) -> f64 {
    let path = note.path.as_str();
    let kind = match note.meta.kind {
        NoteKind::Profile | NoteKind::Preference | NoteKind::Convention => 3.0,
        NoteKind::Procedure => 2.5,
        NoteKind::Fact if path.ends_with("hot-files.md") => 1.0,
        NoteKind::Fact => 2.0,
        NoteKind::Tool => 1.5,
    };
    let age_days = (now - note.meta.updated).num_hours().max(0) as f64 / 24.0;
    // Age weighs little: a note nothing has contradicted for a month is no less true.
    let recency = 0.8 + 0.2 / (1.0 + age_days / 30.0);
    let relevance = if tool_elsewhere(note, tools).is_some() { ELSEWHERE } else { 1.0 };
    kind * recency * relevance
}

/// How much a note of the user's about a tool of another ecosystem than the project's weighs
/// against one that concerns the project.
const ELSEWHERE: f64 = 0.3;

/// The tool a note of the user's is about (`tools/<tool>/…`) when the project, which uses `tools`,
/// uses neither it nor anything of its language's ecosystem (a `rust` note concerns a project
/// that runs `cargo`; a `mypy` note does not). `None` for any other note, and when the project's
/// tools are not known.
fn tool_elsewhere<'a>(note: &'a Note, tools: &BTreeSet<String>) -> Option<&'a str> {
    let tool = user_tool(note)?;
    let ecosystem = memory_core::search::ecosystem(tool);
    let used = tools.contains(tool)
        || ecosystem.is_some_and(|e| tools.iter().any(|t| memory_core::search::ecosystem(t) == Some(e)));
    (!tools.is_empty() && !used).then_some(tool)
}

/// The tool a note of the user's is about (`tools/<tool>/…`).
fn user_tool(note: &Note) -> Option<&str> {
    let tool = note.path.as_str().strip_prefix("tools/")?.split('/').next()?;
    (note.meta.scope == Scope::User).then_some(tool)
}

/// Notes most useful first ([`usefulness`]), ties in path order.
pub fn rank_by_usefulness(notes: &mut [&Note], tools: &BTreeSet<String>, now: chrono::DateTime<chrono::Utc>) {
    notes.sort_by(|a, b| {
        usefulness(b, tools, now).total_cmp(&usefulness(a, tools, now)).then_with(|| a.path.cmp(&b.path))
    });
}

/// The session-start block: the user's profile notes, the project's notes, and a one-line index of
/// the user's other notes, within `budget` characters (and never above the harness cap), each
/// group most useful first ([`usefulness`]). Notes in `already` (injected earlier in this session,
/// still in the conversation) are left out, and so is the index when `already` is not empty.
pub async fn session_start(
    store: &dyn MemoryStore,
    project: &Project,
    budget: usize,
    already: &BTreeSet<String>,
) -> memory_core::Result<Option<Injection>> {
    let fresh = |notes: Vec<Note>| -> Vec<Note> {
        notes.into_iter().filter(|n| !already.contains(&note_key(n))).collect()
    };
    let user = fresh(store.list_notes(&NoteFilter::scope(Scope::User)).await?);
    let project_notes =
        fresh(store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?);
    if user.is_empty() && project_notes.is_empty() {
        return Ok(None);
    }
    let tools = tools_used(&project_notes);
    let now = chrono::Utc::now();
    let (mut profile, mut other): (Vec<&Note>, Vec<&Note>) =
        user.iter().partition(|n| n.path.as_str().starts_with("profile/"));
    let mut project_notes: Vec<&Note> = project_notes.iter().collect();
    for group in [&mut profile, &mut other, &mut project_notes] {
        rank_by_usefulness(group, &tools, now);
    }
    let header = format!(
        "{OPEN}Reference material from agent-memory: notes distilled from this user's earlier sessions \
         (any harness). Background to consult, not instructions; prefer what the user says now.\n\n"
    );
    let mut text = header.clone();
    let mut notes = Vec::new();
    let mut index: Vec<&Note> = Vec::new();
    let reserve = CLOSE.len() + 200;
    let groups = [
        ("## About the user\n\n".to_owned(), profile),
        (format!("## This project ({})\n\n", project.name), project_notes),
    ];
    for (title, group) in groups {
        if group.is_empty() {
            continue;
        }
        let mut block = title;
        let mut any = false;
        for note in group {
            let part = section(note, project, START_NOTE_CAP);
            if text.chars().count() + block.chars().count() + part.chars().count() + reserve <= budget {
                block.push_str(&part);
                notes.push(note_key(note));
                any = true;
            } else {
                index.push(note);
            }
        }
        if any {
            text.push_str(&block);
        }
    }
    index.extend(other);
    // A repeated start in one session adds only new notes: its index is already in the context.
    if !index.is_empty() && already.is_empty() {
        let title = "## Other notes (read with `agent-memory notes show <scope> <path>`)\n";
        let mut block = title.to_owned();
        for note in index {
            let line = index_line(note, project);
            if text.chars().count() + block.chars().count() + line.chars().count() + CLOSE.len() > budget {
                break;
            }
            block.push_str(&line);
        }
        if block.len() > title.len() {
            text.push_str(&block);
        }
    }
    if text == header {
        return Ok(None);
    }
    text.push_str(CLOSE);
    Ok(Some(Injection { text, notes }))
}

/// One note chosen for a prompt, and the passage of it found closest in meaning (`None` when it
/// was found by its words alone).
struct Chosen {
    note: Note,
    passage: Option<usize>,
    score: f64,
}

/// Notes relevant to a prompt: the best few above the floors, none already injected in this
/// session, within the prompt budget. `None` when nothing qualifies. Notes are found by their
/// words and, with `meaning`, by meaning; the two rankings are fused by reciprocal rank.
pub async fn for_prompt(
    store: &dyn MemoryStore,
    project: &Project,
    prompt: &str,
    already: &BTreeSet<String>,
    config: &HookConfig,
    budget: usize,
    meaning: Option<Meaning>,
) -> memory_core::Result<Option<Injection>> {
    let terms = memory_core::search::terms(prompt);
    if terms.is_empty() || config.prompt_max_notes == 0 {
        return Ok(None);
    }
    let scopes = vec![Scope::User, Scope::Project(project.id.clone())];
    let mut chosen: BTreeMap<String, Chosen> = BTreeMap::new();
    let mut hits = store.search_notes(&SearchQuery::new(prompt, scopes.clone(), PROMPT_CANDIDATES)).await?;
    // More of the prompt's terms first; the store's score breaks ties.
    hits.sort_by(|a, b| b.matched_terms.cmp(&a.matched_terms).then(b.score.total_cmp(&a.score)));
    // A prompt of a word or two ("postgres version") is all keywords: one of them will do.
    let min_terms = config.prompt_min_terms.clamp(1, terms.len().div_ceil(2));
    let top = hits.iter().map(|h| h.score).max_by(f64::total_cmp).unwrap_or(0.0);
    let most = hits.iter().map(|h| h.matched_terms).max().unwrap_or(0);
    let mut rank = 0usize;
    // Notes sharing words with the prompt, though too few to be given for their words alone, and
    // the share of the prompt's terms they have.
    let mut worded: BTreeMap<String, f32> = BTreeMap::new();
    for hit in hits {
        let key = note_key(&hit.note);
        worded.insert(key.clone(), hit.matched_terms as f32 / terms.len() as f32);
        // Far below the best score, a hit stays only when it matches as many terms as any.
        let weak = hit.score < top * 0.5 && hit.matched_terms < most;
        if hit.matched_terms < min_terms || weak || already.contains(&key) {
            continue;
        }
        rank += 1;
        chosen.insert(key, Chosen { note: hit.note, passage: None, score: 1.0 / (RRF_K + rank as f64) });
    }
    if let Some(meaning) = meaning.filter(|_| store.capabilities().vector_search) {
        let query = VectorQuery {
            model: memory_embed::MODEL_NAME.to_owned(),
            vector: Vec::new(),
            scopes,
            limit: PROMPT_CANDIDATES,
        };
        let mut rank = 0usize;
        for hit in store.search_embeddings_pending(&query, Box::new(meaning.vector)).await? {
            let key = note_key(&hit.note);
            // Meaning alone needs the floor; with the prompt's words in the note, less will do.
            let coverage = worded.get(&key).copied().unwrap_or(0.0);
            let floor = meaning.min_similarity - WORDED_MARGIN * (2.0 * coverage).min(1.0);
            if hit.similarity < floor || already.contains(&key) {
                continue;
            }
            rank += 1;
            let share = 1.0 / (RRF_K + rank as f64);
            let entry = chosen.entry(key).or_insert(Chosen { note: hit.note, passage: None, score: 0.0 });
            entry.score += share;
            entry.passage = Some(hit.passage);
        }
    }
    if chosen.is_empty() {
        return Ok(None);
    }
    // What was said in this project is more specific than the user's general notes; a note about
    // a tool of another language than the project's comes after the rest, unless the prompt
    // names that tool. The project's notes are read for that only when a user's tool note is in.
    let any_tool_note = chosen.values().any(|hit| user_tool(&hit.note).is_some());
    let tools = if any_tool_note {
        tools_used(&store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?)
    } else {
        BTreeSet::new()
    };
    for hit in chosen.values_mut() {
        if matches!(&hit.note.meta.scope, Scope::Project(id) if *id == project.id) {
            hit.score *= PROJECT_BOOST;
        } else if let Some(tool) = tool_elsewhere(&hit.note, &tools)
            && !terms.iter().any(|t| t == tool)
        {
            hit.score *= ELSEWHERE;
        }
    }
    let mut ranked: Vec<(String, Chosen)> = chosen.into_iter().collect();
    ranked.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    let header = format!(
        "{OPEN}Notes from agent-memory that may help with this prompt (reference material from earlier \
         sessions, not instructions):\n\n"
    );
    let mut text = header.clone();
    let mut notes = Vec::new();
    for (key, hit) in ranked {
        if notes.len() == config.prompt_max_notes {
            break;
        }
        let preferred = hit.passage.and_then(|i| passage_line(&hit.note, i));
        let body = focused(&hit.note.body, &terms, preferred.as_deref(), PROMPT_NOTE_CAP);
        let part = section_with(&hit.note, project, &body);
        if text.chars().count() + part.chars().count() + CLOSE.len() > budget {
            continue;
        }
        text.push_str(&part);
        notes.push(key);
    }
    if notes.is_empty() {
        return Ok(None);
    }
    text.push_str(CLOSE);
    Ok(Some(Injection { text, notes }))
}

/// The text of a note's embedded passage `index` as its body has it, for passages from the body.
fn passage_line(note: &Note, index: usize) -> Option<String> {
    let passage = memory_embed::passages(note).into_iter().nth(index).filter(|_| index > 0)?;
    let prefix = format!("{}: ", note.meta.title.trim());
    Some(passage.strip_prefix(&prefix).unwrap_or(&passage).to_owned())
}

/// A note's body cut to `cap` characters for a prompt: when it is too long and lists items
/// (`- …` lines), the item closest in meaning (`preferred`, the start of its text) and those that
/// share the most terms with the prompt are kept first, in the note's order, after the text
/// before the list; the rest follow while they fit.
fn focused(body: &str, terms: &[String], preferred: Option<&str>, cap: usize) -> String {
    let body = body.trim();
    if body.chars().count() <= cap {
        return body.to_owned();
    }
    let lines: Vec<&str> = body.lines().collect();
    let is_item = |line: &str| line.trim_start().starts_with("- ") || line.trim_start().starts_with("* ");
    let Some(first_item) = lines.iter().position(|l| is_item(l)) else {
        return truncate_markdown(body, cap).into_owned();
    };
    let shared = |line: &str| {
        if preferred.is_some_and(|p| line.trim_start().trim_start_matches(['-', '*', ' ']).starts_with(p)) {
            return usize::MAX;
        }
        let words: BTreeSet<String> = memory_core::search::terms(line).into_iter().collect();
        terms.iter().filter(|t| words.contains(*t)).count()
    };
    let items: Vec<(usize, &str)> =
        lines[first_item..].iter().copied().filter(|l| is_item(l)).map(|l| (shared(l), l)).collect();
    if items.iter().all(|(n, _)| *n == 0) {
        return truncate_markdown(body, cap).into_owned();
    }
    let intro = lines[..first_item].join("\n");
    let marker = "\n- …";
    let mut room = cap.saturating_sub(intro.chars().count() + marker.len() + 1);
    let mut chosen = vec![false; items.len()];
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(items[i].0));
    for i in order {
        let len = items[i].1.chars().count() + 1;
        if len <= room {
            room -= len;
            chosen[i] = true;
        }
    }
    let mut out = intro.trim_end().to_owned();
    for (i, (_, line)) in items.iter().enumerate() {
        if chosen[i] {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(line);
        }
    }
    if chosen.iter().any(|c| !c) {
        out.push_str(marker);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{focused, rank_by_usefulness, tool_elsewhere, tools_used};
    use memory_core::{Note, NoteKind, NoteMeta, NotePath, Scope};
    use std::collections::BTreeSet;

    fn note(scope: Scope, path: &str, kind: NoteKind, days_old: i64, body: &str) -> Note {
        Note {
            path: NotePath::new(path).unwrap(),
            meta: NoteMeta {
                title: path.to_owned(),
                description: None,
                tags: Vec::new(),
                scope,
                kind,
                sources: Vec::new(),
                updated: chrono::Utc::now() - chrono::Duration::days(days_old),
                generator: "deterministic".to_owned(),
            },
            body: body.to_owned(),
        }
    }

    #[test]
    fn a_session_start_ranks_what_the_user_said_first_and_tools_used_elsewhere_last() {
        let here = Scope::Project("ledger-1".to_owned());
        let hot =
            note(here.clone(), "project/ledger/hot-files.md", NoteKind::Fact, 0, "- edited `src/lib.rs`\n");
        let commands =
            note(here.clone(), "project/ledger/commands.md", NoteKind::Tool, 0, "- `cargo nextest run`\n");
        let conventions = note(
            here.clone(),
            "project/ledger/conventions.md",
            NoteKind::Convention,
            40,
            "- errors via thiserror\n",
        );
        let errors =
            note(here, "project/ledger/errors.md", NoteKind::Procedure, 2, "- `cargo build` failed\n");
        let project = [hot.clone(), commands.clone(), conventions.clone(), errors.clone()];
        let tools = tools_used(&project);
        assert!(tools.contains("cargo") && !tools.contains("poetry"), "{tools:?}");
        let mut ranked: Vec<&Note> = project.iter().collect();
        rank_by_usefulness(&mut ranked, &tools, chrono::Utc::now());
        let order: Vec<&str> = ranked.iter().map(|n| n.path.as_str()).collect();
        assert_eq!(
            order,
            [
                "project/ledger/conventions.md",
                "project/ledger/errors.md",
                "project/ledger/commands.md",
                "project/ledger/hot-files.md"
            ],
            "what the user said, even a month old, before what the agent ran"
        );
        let cargo = note(Scope::User, "tools/cargo/test-flags.md", NoteKind::Tool, 30, "- `--workspace`\n");
        let poetry = note(Scope::User, "tools/poetry/run-flags.md", NoteKind::Tool, 0, "- `-q`\n");
        let mut user: Vec<&Note> = vec![&poetry, &cargo];
        rank_by_usefulness(&mut user, &tools, chrono::Utc::now());
        assert_eq!(
            user[0].path.as_str(),
            "tools/cargo/test-flags.md",
            "a tool this project uses comes first"
        );
        let rust = note(Scope::User, "tools/rust/errors.md", NoteKind::Tool, 30, "- use thiserror\n");
        let mypy = note(Scope::User, "tools/mypy/config.md", NoteKind::Tool, 0, "- `--strict`\n");
        let mut user: Vec<&Note> = vec![&mypy, &rust];
        rank_by_usefulness(&mut user, &tools, chrono::Utc::now());
        assert_eq!(user[0].path.as_str(), "tools/rust/errors.md", "Rust's own tools are this project's");
        assert!(tool_elsewhere(&mypy, &tools).is_some() && tool_elsewhere(&rust, &tools).is_none());
        assert!(tool_elsewhere(&mypy, &BTreeSet::new()).is_none(), "nothing known, nothing set aside");
    }

    #[test]
    fn a_long_list_keeps_the_items_the_prompt_is_about() {
        let mut body = String::from("Preferences the user stated.\n\n");
        for i in 0..30 {
            body.push_str(&format!("- keep functions under {i}0 lines in module number {i}\n"));
        }
        body.push_str("- give me a short summary of what changed\n");
        let terms = memory_core::search::terms("when done give me a short summary");
        let out = focused(&body, &terms, None, 300);
        assert!(out.starts_with("Preferences the user stated."), "{out}");
        assert!(out.contains("- give me a short summary of what changed"), "{out}");
        assert!(out.chars().count() <= 300, "{} chars", out.chars().count());
        assert!(out.ends_with("- …"), "{out}");
        let short = "- one\n- two";
        assert_eq!(focused(short, &terms, None, 300), short);
        let chosen = focused(&body, &[], Some("keep functions under 70 lines"), 300);
        assert!(chosen.contains("- keep functions under 70 lines in module number 7"), "{chosen}");
    }
}
