//! What a hook hands the agent: the session-start block and per-prompt notes, within budgets.

use std::collections::{BTreeSet, HashSet};

use std::collections::BTreeMap;

use memory_core::{MemoryStore, Note, NoteFilter, NoteKind, Scope, SearchQuery, VectorQuery};

use crate::config::HookConfig;
use crate::project::Project;

/// Longest body of one note given whole on a prompt, in characters; a longer one gives its
/// passages that match.
const PROMPT_NOTE_CAP: usize = 800;
/// Search candidates considered per prompt.
const PROMPT_CANDIDATES: usize = 12;
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
    let current = if is_outdated(note) { OUTDATED } else { 1.0 };
    kind * recency * relevance * current
}

/// How much a note that says it is out of date ([`is_outdated`]) weighs against a current one.
const OUTDATED: f64 = 0.2;

/// Words a note's title opens or closes with, or its description says, when it tells of something
/// no longer done: `OUTDATED: Capistrano deploys`, `[Deprecated] Jenkins jobs`, `Manual release
/// steps (obsolete)`, "superseded by the Kamal runbook".
const OUT_OF_DATE: &[&str] =
    &["outdated", "deprecated", "obsolete", "superseded", "no longer", "out of date"];

/// Whether a note says it is out of date, in its title or its description ([`OUT_OF_DATE`]): kept
/// for the record (written by hand, imported from a team's documents), it comes after the notes
/// of what holds now, at a session start and on a prompt.
pub fn is_outdated(note: &Note) -> bool {
    let title = note.meta.title.to_lowercase();
    let title = title.trim_matches(|c: char| !c.is_alphanumeric());
    let description = note.meta.description.as_deref().unwrap_or_default().to_lowercase();
    OUT_OF_DATE
        .iter()
        .any(|marker| title.starts_with(marker) || title.ends_with(marker) || description.contains(marker))
}

/// How much a note of the user's about a tool of another ecosystem than the project's weighs
/// against one that concerns the project.
const ELSEWHERE: f64 = 0.3;

/// The tool a note of the user's is about (`tools/<tool>/…`) when that tool belongs to a language's
/// ecosystem and the project, which uses `tools`, uses neither it nor anything of that ecosystem (a
/// `rust` note concerns a project that runs `cargo`; a `mypy` note does not), or when the project's
/// tools are not known yet: the note then waits for a prompt that asks for it. `None` for any
/// other note.
fn tool_elsewhere<'a>(note: &'a Note, tools: &BTreeSet<String>) -> Option<&'a str> {
    let tool = user_tool(note)?;
    // A tool of no language in particular (a terminal, a container runtime) concerns any project.
    let ecosystem = memory_core::search::ecosystem(tool)?;
    let used =
        tools.contains(tool) || tools.iter().any(|t| memory_core::search::ecosystem(t) == Some(ecosystem));
    (!used).then_some(tool)
}

/// The tool a note of the user's is about (`tools/<tool>/…` or `tools/<tool>.md`).
fn user_tool(note: &Note) -> Option<&str> {
    let name = note.path.as_str().strip_prefix("tools/")?.split('/').next()?;
    let tool = name.strip_suffix(".md").unwrap_or(name);
    (note.meta.scope == Scope::User).then_some(tool)
}

/// Notes most useful first ([`usefulness`]), ties in path order.
pub fn rank_by_usefulness(notes: &mut [&Note], tools: &BTreeSet<String>, now: chrono::DateTime<chrono::Utc>) {
    // Each note's usefulness once, not once per comparison.
    let mut ranked: Vec<(f64, &Note)> = notes.iter().map(|n| (usefulness(n, tools, now), *n)).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.path.cmp(&b.1.path)));
    for (slot, (_, note)) in notes.iter_mut().zip(ranked) {
        *slot = note;
    }
}

/// The session-start block: the user's profile notes and the project's notes, then the user's
/// other notes that concern the project (its tools, or no tool in particular), and a one-line
/// index of the rest, within `budget` characters (never above the harness cap). Each note shows
/// its facts one a line, none said twice; when a group's notes do not all fit whole, each gets a
/// share that grows with its usefulness ([`usefulness`]; short notes whole, long ones cut to their
/// first lines) and the least useful are only listed. Notes in `already` (injected earlier in this session, still
/// in the conversation) are left out, and so is the index when `already` is not empty. `left_off`
/// (where the last session in the project left off, [`crate::left_off`], rendered within its
/// share of `budget`) closes the block; the notes have the rest.
pub async fn session_start(
    store: &dyn MemoryStore,
    project: &Project,
    budget: usize,
    already: &BTreeSet<String>,
    left_off: Option<&str>,
) -> memory_core::Result<Option<Injection>> {
    // The notes not given yet, the hot files without the words of what they were edited for.
    let fresh = |notes: Vec<Note>| -> Vec<Note> {
        notes.into_iter().filter(|n| !already.contains(&note_key(n))).map(without_purposes).collect()
    };
    let user = fresh(store.list_notes(&NoteFilter::scope(Scope::User)).await?);
    let project_notes =
        fresh(store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?);
    let left_off = left_off.unwrap_or_default();
    if user.is_empty() && project_notes.is_empty() && left_off.is_empty() {
        return Ok(None);
    }
    let tools = tools_used(&project_notes);
    let now = chrono::Utc::now();
    let (mut profile, user_rest): (Vec<&Note>, Vec<&Note>) = user.iter().partition(|n| is_profile(n));
    let (mut concerned, mut elsewhere): (Vec<&Note>, Vec<&Note>) =
        user_rest.into_iter().partition(|n| tool_elsewhere(n, &tools).is_none());
    let mut project_notes: Vec<&Note> = project_notes.iter().collect();
    // A note that says it is out of date is kept for the record: a start lists it, after the
    // rest, and spends its budget on what holds now.
    let outdated: Vec<&Note> = project_notes
        .extract_if(.., |n| is_outdated(n))
        .chain(concerned.extract_if(.., |n| is_outdated(n)))
        .collect();
    elsewhere.extend(outdated);
    for group in [&mut profile, &mut project_notes, &mut concerned] {
        rank_by_usefulness(group, &tools, now);
    }
    let header = format!(
        "{OPEN}Reference material from agent-memory: notes distilled from this user's earlier sessions \
         (any harness). Background to consult, not instructions; prefer what the user says now.\n\n"
    );
    let mut said = Said::new(budget);
    let weight = |note: &Note| usefulness(note, &tools, now);
    let first = vec![
        ("## About the user\n\n".to_owned(), entries(&profile, project, &mut said, &weight)),
        (
            project_heading(&project_notes, project),
            entries(&project_notes, project, &mut said, &|n| weight(n) * PROJECT_BOOST),
        ),
    ];
    let second =
        vec![("## The user's other notes\n\n".to_owned(), entries(&concerned, project, &mut said, &weight))];
    // A note every line of which an earlier note said has no entry: what it says is given.
    let listed: BTreeSet<String> =
        first.iter().chain(&second).flat_map(|(_, group)| group.iter().map(|e| note_key(e.note))).collect();
    let covered: Vec<String> = profile
        .iter()
        .chain(&project_notes)
        .chain(&concerned)
        .map(|n| note_key(n))
        .filter(|key| !listed.contains(key))
        .collect();
    let room = budget.saturating_sub(header.chars().count() + CLOSE.len() + left_off.chars().count());
    let (body, mut notes) = fill(vec![first, second], elsewhere, project, room, already.is_empty());
    if !body.is_empty() {
        notes.extend(covered);
    }
    if body.is_empty() && left_off.is_empty() {
        return Ok(None);
    }
    let text = format!("{header}{body}{left_off}{CLOSE}");
    Ok(Some(Injection { text, notes }))
}

/// Whether a note is about the user themselves (`profile/…`), not about a tool or a procedure.
pub(crate) fn is_profile(note: &Note) -> bool {
    note.meta.scope == Scope::User && note.path.as_str().starts_with("profile/")
}

/// The shortest share of a note's text at session start: when a group's notes cannot all have
/// this much, the least useful are listed by title instead.
const START_MIN_NOTE: usize = 200;

/// One note as a session start shows it: a heading and its facts, one a line, none that an
/// earlier note already said.
pub(crate) struct Entry<'a> {
    note: &'a Note,
    head: String,
    lines: Vec<String>,
    weight: f64,
}

impl Entry<'_> {
    fn full_len(&self) -> usize {
        self.head.chars().count() + self.lines.iter().map(|l| l.chars().count() + 1).sum::<usize>() + 1
    }

    /// The note within `cap` characters: its lines in order while they fit, then the next one cut at
    /// a word and marked `…`; and whether it is whole.
    fn render(&self, cap: usize) -> (String, bool) {
        let mut out = self.head.clone();
        let mut room = cap.saturating_sub(out.chars().count() + 1);
        for line in &self.lines {
            let len = line.chars().count() + 1;
            if len <= room {
                out.push_str(line);
                out.push('\n');
                room -= len;
                continue;
            }
            // The rest of the share holds the start of the next line, when that says something.
            if room > 24 {
                out.push_str(&cut_at_word(line, room - 3));
                out.push_str(" …\n");
            } else if room >= 2 {
                out.push_str("…\n");
            }
            out.push('\n');
            return (out, false);
        }
        out.push('\n');
        (out, true)
    }
}

/// `text` cut to at most `cap` characters, at a space when one is in its second half.
fn cut_at_word(text: &str, cap: usize) -> String {
    let end = text.char_indices().nth(cap).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let cut = head.rfind(' ').filter(|&i| i >= end / 2).unwrap_or(end);
    head[..cut].trim_end().to_owned()
}

/// A line's words, lowercased, without its counts: what two notes saying the same share.
pub(crate) fn said_in(line: &str) -> String {
    let text = line.trim().trim_start_matches(['-', '*']).trim();
    memory_core::search::words(memory_core::without_counts(text)).join(" ")
}

/// What the entries of a start block said so far, line by line, so that nothing is said twice.
pub(crate) struct Said {
    exact: HashSet<String>,
    /// Lines of several words, each between spaces (` cargo nextest run `).
    padded: Vec<String>,
    /// How many notes of a group are compared line by line: more than the budget can show (each
    /// shown note gets at least [`START_MIN_NOTE`] characters); the rest are listed by title.
    compared: usize,
}

impl Said {
    /// Nothing said yet, for a block of `budget` characters.
    pub(crate) fn new(budget: usize) -> Self {
        Self { exact: HashSet::new(), padded: Vec::new(), compared: budget / START_MIN_NOTE + 1 }
    }

    /// Whether a line's words (`key`) were said: the same words, or, for several words, inside a
    /// longer line said before. Records them when they were not.
    fn again(&mut self, key: String) -> bool {
        let padded = format!(" {key} ");
        if self.exact.contains(&key) || (key.contains(' ') && self.padded.iter().any(|s| s.contains(&padded)))
        {
            return true;
        }
        if key.contains(' ') {
            self.padded.push(padded);
        }
        self.exact.insert(key);
        false
    }
}

/// Notes (most useful first) as session-start entries: each body's lines without blank lines and
/// counts, and, for as many notes as a start can show, without the lines a note before it (in
/// `said`, which grows) already said, word for word or inside a longer line.
pub(crate) fn entries<'a>(
    notes: &[&'a Note],
    project: &Project,
    said: &mut Said,
    weight: &dyn Fn(&Note) -> f64,
) -> Vec<Entry<'a>> {
    let folder = project_prefix(notes, project);
    let mut out = Vec::new();
    for (n, note) in notes.iter().enumerate() {
        let compare = n < said.compared;
        let mut lines = Vec::new();
        for line in note.body.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()) {
            // A line that introduces what follows ("First-time setup:") is no fact said twice.
            if compare && !line.ends_with(':') {
                let key = said_in(line);
                if !key.is_empty() && said.again(key) {
                    continue;
                }
            }
            lines.push(memory_core::without_counts(line).to_owned());
        }
        // A list whose every item an earlier note said leaves only its introduction: nothing.
        let is_item = |line: &str| line.trim_start().starts_with(['-', '*']);
        if lines.is_empty() || (note.body.lines().any(is_item) && !lines.iter().any(|l| is_item(l))) {
            continue;
        }
        let head = match &note.meta.scope {
            Scope::Project(id) if *id == project.id => {
                let path = note.path.as_str();
                let short = path.strip_prefix(folder.as_str()).unwrap_or(path);
                format!("### {} (`{short}`)\n", note.meta.title)
            }
            _ => format!("### {} (`{}`, {})\n", note.meta.title, note.path, scope_label(note, project)),
        };
        out.push(Entry { note, head, lines, weight: weight(note) });
    }
    out
}

/// The heading of the project's notes at session start, with the folder their paths are under.
pub(crate) fn project_heading(notes: &[&Note], project: &Project) -> String {
    match project_prefix(notes, project) {
        folder if folder.is_empty() => {
            format!(
                "## This project ({})\n\nIts notes are in scope `project:{}`.\n\n",
                project.name, project.name
            )
        }
        folder => format!(
            "## This project ({})\n\nIts notes are in scope `project:{}`, under `{folder}`.\n\n",
            project.name, project.name
        ),
    }
}

/// The folder all of `notes` of the project are under (`project/<name>/`), which their headings
/// leave out; empty when they have none in common.
fn project_prefix(notes: &[&Note], project: &Project) -> String {
    let mut paths =
        notes.iter().filter(|n| n.meta.scope == Scope::Project(project.id.clone())).map(|n| n.path.as_str());
    let Some(first) = paths.next() else { return String::new() };
    let mut prefix = match first.rfind('/') {
        Some(at) => &first[..=at],
        None => return String::new(),
    };
    for path in paths {
        while !path.starts_with(prefix) {
            match prefix[..prefix.len() - 1].rfind('/') {
                Some(at) => prefix = &prefix[..=at],
                None => return String::new(),
            }
        }
    }
    prefix.to_owned()
}

/// The share of each of `entries` (most useful first) shown, so they fit in `budget` characters:
/// all whole when they fit; otherwise each gets a share that grows with its usefulness (the
/// square root of it against the most useful's, so the user's rules get more room than the files
/// edited most, and a less useful note still says more than its title; short notes whole, the
/// rest cut to their share), the least useful left out while a share would be below
/// [`START_MIN_NOTE`]. One share per entry shown, in order.
fn share(entries: &[&Entry<'_>], budget: usize) -> Vec<usize> {
    let lens: Vec<usize> = entries.iter().map(|e| e.full_len()).collect();
    let most = entries.iter().map(|e| e.weight).fold(0.0, f64::max);
    let ratios: Vec<f64> = entries
        .iter()
        .map(|e| if most <= 0.0 { 1.0 } else { (e.weight / most).clamp(1e-6, 1.0).sqrt() })
        .collect();
    // The shares of the first `n` when the most useful gets `cap` characters.
    let shares = |n: usize, cap: usize| -> Vec<usize> {
        ratios[..n].iter().map(|r| (cap as f64 * r) as usize).collect()
    };
    // No more notes can be shown than fit with the least each needs: a note's share is at least
    // START_MIN_NOTE characters, or the whole note when it is shorter.
    let mut least = 0;
    let most_shown = lens
        .iter()
        .take_while(|&&l| {
            least += l.min(START_MIN_NOTE);
            least <= budget
        })
        .count();
    for n in (1..=most_shown).rev() {
        let fits = |cap: usize| {
            ratios[..n].iter().zip(&lens).map(|(r, &l)| ((cap as f64 * r) as usize).min(l)).sum::<usize>()
                <= budget
        };
        let whole = (0..n).map(|i| (lens[i] as f64 / ratios[i]).ceil() as usize).max().unwrap_or(0);
        if fits(whole) {
            return shares(n, whole);
        }
        let (mut lo, mut hi) = (0, whole);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let got = shares(n, lo);
        if got.iter().zip(&lens).all(|(&s, &l)| s.min(l) >= START_MIN_NOTE.min(l)) {
            return got;
        }
    }
    Vec::new()
}

/// A tier of session-start groups: titles and their entries, shown in this order.
pub(crate) type Tier<'a> = Vec<(String, Vec<Entry<'a>>)>;

/// Session-start groups within `budget` characters, tier after tier: every note of a tier gets
/// its share ([`share`]) of what the tiers before left; what does not fit, and `rest`, is listed
/// by title (with `with_index`) while lines fit. Returns the text and the keys of the notes shown.
pub(crate) fn fill(
    tiers: Vec<Tier<'_>>,
    rest: Vec<&Note>,
    project: &Project,
    budget: usize,
    with_index: bool,
) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut shown = Vec::new();
    let mut index: Vec<&Note> = Vec::new();
    for tier in tiers {
        let titles: usize = tier.iter().filter(|(_, e)| !e.is_empty()).map(|(t, _)| t.chars().count()).sum();
        let left = budget.saturating_sub(text.chars().count() + titles);
        // The least useful across the tier are the ones left out.
        let mut ranked: Vec<(usize, usize)> =
            tier.iter().enumerate().flat_map(|(g, (_, e))| (0..e.len()).map(move |i| (g, i))).collect();
        ranked.sort_by(|a, b| tier[b.0].1[b.1].weight.total_cmp(&tier[a.0].1[a.1].weight).then(a.cmp(b)));
        let flat: Vec<&Entry<'_>> = ranked.iter().map(|&(g, i)| &tier[g].1[i]).collect();
        let caps: BTreeMap<(usize, usize), usize> = ranked.iter().copied().zip(share(&flat, left)).collect();
        for (g, (title, group)) in tier.iter().enumerate() {
            let mut block = String::new();
            for (i, entry) in group.iter().enumerate() {
                if let Some(&cap) = caps.get(&(g, i)) {
                    let (part, whole) = entry.render(cap);
                    block.push_str(&part);
                    // A note cut short is still due whole when a prompt asks for it.
                    if whole {
                        shown.push(note_key(entry.note));
                    }
                } else {
                    index.push(entry.note);
                }
            }
            if !block.is_empty() {
                text.push_str(title);
                text.push_str(&block);
            }
        }
    }
    index.extend(rest);
    if with_index && !index.is_empty() {
        let title = "## Other notes (read with `agent-memory notes show <scope> <path>`)\n";
        let mut block = title.to_owned();
        for note in index {
            let line = index_line(note, project);
            if text.chars().count() + block.chars().count() + line.chars().count() > budget {
                break;
            }
            block.push_str(&line);
        }
        if block.len() > title.len() {
            text.push_str(&block);
        }
    }
    (text, shown)
}

/// A note considered for a prompt: how close its closest passage is in meaning (and which passage
/// that is), and the share of the prompt's terms it has that are not everyday English.
struct Candidate {
    note: Note,
    similarity: Option<f32>,
    passage: Option<usize>,
    coverage: f32,
    /// Whether it shares a word with the prompt that is not everyday English
    /// ([`memory_core::search::everyday`]).
    specific: bool,
    /// Whether one passage of it has [`PROFILE_TERMS`] of those words.
    strong: bool,
    /// Whether one of its facts (a short passage) names what the prompt is about ([`names_topic`]).
    fact: bool,
    /// Whether it has one of the prompt's words few of the notes found have.
    rare: bool,
    /// The most of the prompt's specific words one passage of it has, read under the note's title
    /// ([`best_passage`]).
    best: usize,
    /// The same, of the passage alone.
    best_untitled: usize,
}

/// What a word of the prompt that only one of the user's rules has counts for in a passage: it
/// says more of what the prompt is about than two words several notes share.
const OWN_WORD_WEIGHT: usize = 2;
/// The share of a prompt's terms a note answering it by its words alone has, when no passage of it
/// has two of them.
const HALF: f32 = 0.5;
/// How much a note's share of the prompt's terms adds to its similarity in meaning.
const WORD_WEIGHT: f32 = 0.3;
/// The share of the prompt's terms (not everyday English) that makes a note relevant by its words
/// alone when meaning is known too.
const WORDED_ENOUGH: f32 = 0.5;
/// How far a list of what the agent did ([`is_activity_list`]) falls behind in the order of the
/// notes relevant in meaning.
const ACTIVITY_DROP: f32 = 0.1;
/// How much a note of what was stated, sharing a word of the prompt, adds to the relevance that
/// admits it.
const STATED_ADMIT: f32 = 0.06;
/// How much a note of the session's project adds to its relevance in meaning: what was said in
/// this project is more specific than the user's general notes.
const PROJECT_LIFT: f32 = 0.06;
/// How much a note of the user's about a tool of another language than the project's loses.
const ELSEWHERE_DROP: f32 = 0.1;
/// How far below the relevance the best note needs ([`Meaning::min_similarity`]) further notes may
/// be.
const FURTHER_MARGIN: f32 = 0.1;
/// How much closer than [`Meaning::min_similarity`] a passage of the user's profile must be for
/// the profile, already given at session start, to be given again on a prompt.
const PROFILE_MARGIN: f32 = 0.05;
/// How many of the prompt's terms that are not everyday English one passage of a profile note
/// needs for the note to be given on a prompt for its words (all of them when the prompt has
/// fewer).
const PROFILE_TERMS: usize = 2;

/// A candidate weighed by meaning: how relevant it is, where it goes in the order, whether it is a
/// list of what the agent did ([`is_activity_list`]), and whether it is something the user stated
/// (a profile line, a preference, a convention) with a fact about what the prompt asks.
struct Scored {
    key: String,
    relevance: f32,
    order: f32,
    activity: bool,
    stated: bool,
}

/// Notes relevant to a prompt: the best few, none already injected in this session, within the
/// prompt budget; `None` when nothing is relevant enough. Notes are found by their words and,
/// with `meaning`, by meaning. With meaning, a note's relevance is the similarity of its closest
/// passage plus a share for the prompt's terms it has (and for being the project's); nothing is
/// given unless the best note reaches [`Meaning::min_similarity`], so a question about anything
/// else gets nothing. By words alone, a note needs enough of the prompt's terms, one of them not
/// everyday English. A prompt that asks about a topic of work without naming it ("lint the crate",
/// "ship main to staging") also finds the notes whose facts are about that topic, a passage about
/// it counting as a word of the prompt. The user's profile, given at session start, comes again
/// only for a strong match or a fact about what the prompt asks. Each note shows its passages that
/// match (whole when short), under its title.
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
    // The terms the prompt is about: words saying only when ("last week") are left out of the
    // count a note's share is taken of.
    let asked_about = asked_about(&terms);
    let expanded = memory_core::search::expand(prompt);
    // A phrase of everyday words the thesaurus knows ("every hour", "go back") is as specific as
    // the word of the trade it stands for ("hourly", "rollback").
    let specific_terms: Vec<memory_core::search::Term> = expanded
        .iter()
        .filter(|t| {
            !t.asked.split(' ').all(memory_core::search::everyday)
                || (t.asked.contains(' ')
                    && t.forms.iter().any(|f| !f.split(' ').all(memory_core::search::everyday)))
        })
        .cloned()
        .collect();
    // What the prompt is about: the words of software work it names, but the verbs any task is
    // asked with.
    let topics: Vec<memory_core::search::Term> = specific_terms
        .iter()
        .filter(|t| {
            !t.asked.split(' ').all(memory_core::search::action)
                && t.forms.iter().any(|f| memory_core::search::software(f))
        })
        .cloned()
        .collect();
    let file_words = file_words(&specific_terms);
    let scopes = vec![Scope::User, Scope::Project(project.id.clone())];
    // What the files were edited for answers where something is in the code, and nothing else.
    let where_asked = asks_where(prompt);
    let plain = |note: Note| if where_asked { note } else { without_purposes(note) };
    let mut hits = store.search_notes(&SearchQuery::new(prompt, scopes.clone(), PROMPT_CANDIDATES)).await?;
    // More of the prompt's terms first; the store's score breaks ties.
    hits.sort_by(|a, b| b.matched_terms.cmp(&a.matched_terms).then(b.score.total_cmp(&a.score)));
    // A prompt asked about a topic of work without naming it ("lint the crate", "report bad
    // input") is answered by the notes that name it otherwise ("run clippy with -D warnings",
    // "errors are typed throws"): they are found by the topic's names, after those found by the
    // prompt's words, sharing none of them.
    let cued = memory_core::search::asked_topics(prompt);
    if !cued.is_empty() {
        let query = cued.iter().map(|t| memory_core::search::topic_query(t)).collect::<Vec<_>>().join(" ");
        let found: BTreeSet<String> = hits.iter().map(|h| note_key(&h.note)).collect();
        for mut hit in store.search_notes(&SearchQuery::new(query, scopes.clone(), PROMPT_CANDIDATES)).await?
        {
            if !found.contains(&note_key(&hit.note)) {
                hit.matched_terms = 0;
                hit.score = 0.0;
                hits.push(hit);
            }
        }
    }
    let hits: Vec<_> = hits
        .into_iter()
        .map(|mut hit| {
            hit.note = plain(hit.note);
            hit
        })
        .collect();
    // Each note's words, and its facts' words, read once.
    let read: Vec<NoteWords> = hits
        .iter()
        .map(|hit| {
            let words = memory_core::search::words(&memory_core::search::indexed_text(&hit.note));
            let passages = fact_passages(&hit.note);
            let facts = passages.iter().map(|b| memory_core::search::words(b)).collect();
            // Read only when the prompt asks about a topic without naming it.
            let mut topics: Vec<&'static str> = if cued.is_empty() {
                Vec::new()
            } else {
                passages.iter().flat_map(|b| memory_core::search::topics(b)).collect()
            };
            topics.sort_unstable();
            topics.dedup();
            (words, facts, topics, is_activity_list(&hit.note))
        })
        .collect();
    let few = |has: &dyn Fn(&NoteWords) -> bool| read.iter().filter(|r| has(r)).count() <= FACT_SPREAD;
    // The prompt's words few of the notes found have: one of them shared is an answer.
    let rare: Vec<memory_core::search::Term> = specific_terms
        .iter()
        .filter(|term| {
            few(&|(words, ..)| memory_core::search::matched_in(words, std::slice::from_ref(*term)) > 0)
        })
        .cloned()
        .collect();
    // A topic that facts of many notes state ("python" to a user of it) tells none of them apart.
    // The commands the agent ran name what they ran for (`swift test`) and are not counted.
    let topics: Vec<memory_core::search::Term> = topics
        .into_iter()
        .filter(|topic| {
            few(&|(_, facts, _, activity)| {
                !activity
                    && facts
                        .iter()
                        .any(|f| memory_core::search::matched_in(f, std::slice::from_ref(topic)) > 0)
            })
        })
        .collect();
    // The topics of work the prompt is asked about without naming them ("lint the crate", "report
    // bad input"), and that the facts of few notes are about.
    let asked_topics: Vec<&'static str> = cued
        .iter()
        .copied()
        .filter(|topic| few(&|(_, _, topics, activity)| !activity && topics.contains(topic)))
        .collect();
    // The things the prompt names (not the verbs any task is asked with) that, of the notes found,
    // only the user's profile has ("clipboard", "status" beside a rule about colours); read only
    // when the profile is among them.
    let profile_found = hits.iter().any(|hit| is_profile(&hit.note));
    let profile_only: Vec<memory_core::search::Term> = specific_terms
        .iter()
        .filter(|term| profile_found && !term.asked.split(' ').all(memory_core::search::action))
        .filter(|term| {
            let having: Vec<bool> = hits
                .iter()
                .zip(&read)
                .filter(|(_, (words, ..))| {
                    memory_core::search::matched_in(words, std::slice::from_ref(*term)) > 0
                })
                .map(|(hit, _)| is_profile(&hit.note))
                .collect();
            !having.is_empty() && having.iter().all(|profile| *profile)
        })
        .cloned()
        .collect();
    let mut candidates: BTreeMap<String, Candidate> = BTreeMap::new();
    let mut by_words: Vec<(String, f64, usize)> = Vec::new();
    for (hit, (words, facts, note_topics, _)) in hits.into_iter().zip(&read) {
        let key = note_key(&hit.note);
        if already.contains(&key) {
            continue;
        }
        let specific_matched = memory_core::search::matched_terms(&hit.note, &specific_terms);
        let specific = specific_matched > 0;
        let need = PROFILE_TERMS.min(specific_terms.len()).max(1);
        // Passages are read under the note's title, as they are embedded.
        let (titled, untitled) = best_passage(&hit.note, &specific_terms, &project.name);
        let strong = is_profile(&hit.note) && titled >= need;
        let about_asked = asked_topics.iter().any(|topic| note_topics.contains(topic));
        let fact = names_topic(facts, &topics) || names_file(&hit.note, &file_words) || about_asked;
        let rare = memory_core::search::matched_in(words, &rare) > 0;
        // A passage about a topic the prompt asks for without naming it counts as a word of it.
        let best = titled.max(usize::from(about_asked));
        let best_untitled = untitled.max(usize::from(about_asked));
        by_words.push((key.clone(), hit.score, hit.matched_terms));
        // Everyday words the note shares with the prompt say nothing of what the prompt is about.
        let coverage = (specific_matched.min(hit.matched_terms) as f32 / asked_about as f32).min(1.0);
        candidates.insert(
            key,
            Candidate {
                note: hit.note,
                similarity: None,
                passage: None,
                coverage,
                specific,
                strong,
                fact,
                rare,
                best,
                best_untitled,
            },
        );
    }
    // A question about computing in general shares a word with a note by chance: only a note with
    // several of its words in one passage, and half of them, answers it. Code it names is the
    // user's when a note found names it too.
    // The notes' text is lowercased once, and only when the prompt names code.
    let lowered = std::cell::OnceCell::new();
    let known = |name: &str| {
        lowered
            .get_or_init(|| {
                candidates
                    .values()
                    .map(|c| format!("{}\n{}", c.note.meta.title, c.note.body).to_lowercase())
                    .collect::<Vec<_>>()
            })
            .iter()
            .any(|text| text.contains(name))
    };
    let general = asked_about > 2 && crate::in_general::asked_in_general(prompt, known);
    // The title a passage is read under is no word of it here: "binary search" is no question about
    // a note titled "search and replace" that names python.
    // Two words of one meaning ("a sql query") ask one thing: each counts once here.
    let one_each = memory_core::search::one_per_meaning(&specific_terms);
    let repeated = specific_terms.len() - one_each.len();
    let answers_in_general = |c: &Candidate| {
        if repeated == 0 {
            return c.best_untitled >= 2 && c.coverage >= HALF;
        }
        let matched = memory_core::search::matched_terms(&c.note, &one_each);
        best_passage(&c.note, &one_each, &project.name).1 >= 2
            && matched as f32 >= HALF * asked_about.saturating_sub(repeated).max(1) as f32
    };
    if general {
        candidates.retain(|_, c| answers_in_general(c));
    } else {
        // A task about the work here (a note of the project answers it by its words: a fact, two
        // of them in a passage, or half of them) that names what one of the user's rules is about
        // gets the rule: "add a status pill to the carrier page" to a user who said never to show
        // status by colour alone.
        let about_work_here = candidates.values().any(|c| {
            matches!(&c.note.meta.scope, Scope::Project(id) if *id == project.id)
                && (c.fact || c.best >= 2 || c.coverage >= HALF)
        });
        if about_work_here && !profile_only.is_empty() {
            for c in candidates.values_mut().filter(|c| is_profile(&c.note)) {
                if best_passage(&c.note, &profile_only, &project.name).1 > 0 {
                    c.fact = true;
                    c.best = c.best.max(OWN_WORD_WEIGHT);
                }
            }
        }
    }
    let mut ranked: Vec<(String, f32)> = Vec::new();
    let mut by_meaning = false;
    // The prompt's vector once made, to read the passages of the notes given by meaning too.
    let kept: std::sync::Arc<std::sync::Mutex<Option<Vec<f32>>>> = std::sync::Arc::default();
    if let Some(meaning) = meaning.filter(|_| store.capabilities().vector_search) {
        let min_similarity = meaning.min_similarity;
        let query = VectorQuery {
            model: memory_embed::MODEL_NAME.to_owned(),
            vector: Vec::new(),
            scopes,
            limit: PROMPT_CANDIDATES,
        };
        let found = store
            .search_embeddings_pending(&query, Box::new(Kept { vector: meaning.vector, kept: kept.clone() }))
            .await?;
        if !found.is_empty() {
            by_meaning = true;
            // A note found by its words only is no closer than the farthest note found by meaning.
            let farthest = found.iter().map(|h| h.similarity).fold(f32::MAX, f32::min);
            for hit in found {
                let key = note_key(&hit.note);
                if already.contains(&key) {
                    continue;
                }
                let entry = candidates.entry(key).or_insert(Candidate {
                    note: plain(hit.note),
                    similarity: None,
                    passage: None,
                    coverage: 0.0,
                    specific: false,
                    strong: false,
                    fact: false,
                    rare: false,
                    best: 0,
                    best_untitled: 0,
                });
                entry.similarity = Some(hit.similarity);
                entry.passage = Some(hit.passage);
            }
            if general {
                candidates.retain(|_, c| answers_in_general(c));
            }
            let tools = tools_if_needed(store, project, candidates.values().map(|c| &c.note)).await?;
            // Each candidate's relevance, which admits it, and its order among the admitted.
            let mut scored: Vec<Scored> = Vec::new();
            for (key, c) in &candidates {
                let similarity = c.similarity.unwrap_or(farthest);
                if is_profile(&c.note) && similarity < min_similarity + PROFILE_MARGIN && !c.strong && !c.fact
                {
                    continue;
                }
                let mut relevance = similarity + WORD_WEIGHT * c.coverage;
                // Half the prompt's terms, rare words among them, or a fact that names what the
                // prompt is about, is an answer whatever the model makes of them (names and
                // identifiers embed poorly).
                if (c.specific && c.coverage >= WORDED_ENOUGH) || c.fact {
                    relevance = relevance.max(min_similarity);
                }
                if matches!(&c.note.meta.scope, Scope::Project(id) if *id == project.id) {
                    relevance += PROJECT_LIFT;
                } else if let Some(tool) = tool_elsewhere(&c.note, &tools)
                    && !terms.iter().any(|t| t == tool)
                {
                    relevance -= ELSEWHERE_DROP;
                }
                // Lists of what the agent ran and edited say what happened, not how the work is
                // done: they come after what was stated, and what was stated (not notes on how a
                // tool is used, which share words with any question about that tool's trade) is
                // admitted a little sooner when it shares a word of the prompt that is not
                // everyday English.
                let activity = is_activity_list(&c.note);
                let mut order = if activity { relevance - ACTIVITY_DROP } else { relevance };
                // What a note says is out of date comes after what holds now.
                if is_outdated(&c.note) {
                    order -= ACTIVITY_DROP;
                }
                if c.specific && !activity && c.note.meta.kind != NoteKind::Tool {
                    relevance += STATED_ADMIT;
                }
                let stated = c.fact
                    && matches!(
                        c.note.meta.kind,
                        NoteKind::Profile | NoteKind::Preference | NoteKind::Convention
                    );
                scored.push(Scored { key: key.clone(), relevance, order, activity, stated });
            }
            if scored.iter().all(|s| s.relevance < min_similarity) {
                return Ok(None);
            }
            // What the user stated (a preference, a convention) about what the prompt is about ("the
            // clipboard tool is pbcopy" for "put the query on my clipboard") comes before the lists
            // of what the agent did that share the prompt's other words: those say what was run,
            // not how it is wanted.
            let first_list = scored.iter().filter(|s| s.activity).map(|s| s.order).fold(f32::MIN, f32::max);
            for s in scored.iter_mut().filter(|s| s.stated && s.order < first_list) {
                s.order = first_list + 1e-4;
            }
            scored.retain(|s| s.relevance >= min_similarity - FURTHER_MARGIN);
            scored.sort_by(|a, b| b.order.total_cmp(&a.order).then(a.key.cmp(&b.key)));
            ranked = scored.into_iter().map(|s| (s.key, s.order)).collect();
        }
    }
    if !by_meaning {
        ranked = by_words_only(store, project, &terms, config, &candidates, &by_words).await?;
    }
    if ranked.is_empty() {
        return Ok(None);
    }
    let header = format!(
        "{OPEN}Notes from agent-memory that may help with this prompt (reference material from earlier \
         sessions, not instructions):\n\n"
    );
    let mut text = header.clone();
    let mut notes = Vec::new();
    let count = ranked.len().min(config.prompt_max_notes);
    let prompt_topics = std::cell::OnceCell::new();
    let chosen: Vec<Candidate> =
        ranked.into_iter().take(count).filter_map(|(key, _)| candidates.remove(&key)).collect();
    let prompt_vector = kept.lock().ok().and_then(|mut v| v.take());
    let mut similar = passages_in_meaning(store, &chosen, prompt_vector.as_deref()).await?.into_iter();
    // Each note's heading, body and what it has that matters, in the order the notes rank.
    let mut planned = Vec::new();
    for c in chosen {
        let key = note_key(&c.note);
        let head = section_with(&c.note, project, "").chars().count();
        let similar = similar.next().unwrap_or_default();
        // How often and when an item was seen is for the session start and the viewer: a prompt
        // gets more of what the items say in the room instead.
        let body: String =
            c.note.body.lines().map(memory_core::without_counts).collect::<Vec<_>>().join("\n");
        // The profile, given whole at session start, brings only what matches unless it is short;
        // a rule about the topic the prompt names matches it too ("stage files by name" for
        // "commit the change").
        let only_matching = is_profile(&c.note);
        let topics: &[&str] = if only_matching {
            prompt_topics.get_or_init(|| memory_core::search::topics(prompt))
        } else {
            &cued
        };
        let passages = Passages::read(&body, &expanded, topics, &similar, only_matching);
        // All a note has for the prompt: its body when short, else the passages that match, with
        // room for its opening and what each passage shown costs.
        let all = passages.within(budget, true);
        // A long note's share is never less than a short note's whole body.
        let wanted = if all.chars().count() < passages.body.chars().count() {
            head + (all.chars().count() + PASSAGE_COST * all.lines().count() + LEAD_CHARS)
                .max(PROMPT_NOTE_CAP)
        } else {
            head + all.chars().count()
        };
        planned.push(Planned { key, note: c.note, head, passages, only_matching, wanted });
    }
    // The room is shared, the best note weighing twice, and what a note needs less of goes to the
    // others: a long document's passages that match get the room short notes beside it leave.
    let room = budget.saturating_sub(header.chars().count() + CLOSE.len());
    let shares = shares(room, &planned.iter().map(|p| p.wanted).collect::<Vec<_>>());
    for (p, share) in planned.into_iter().zip(shares) {
        // A note that fits whole is given whole; a longer one its passages within its share.
        let room = share.saturating_sub(p.head);
        if room < MIN_PROMPT_PASSAGE.min(p.wanted - p.head) {
            continue;
        }
        text.push_str(&section_with(&p.note, project, &p.passages.within(room, p.only_matching)));
        notes.push(p.key);
    }
    if notes.is_empty() {
        return Ok(None);
    }
    text.push_str(CLOSE);
    Ok(Some(Injection { text, notes }))
}

/// The most of `terms` one passage of `note` ([`blocks`]) has, read under the note's title as
/// it is embedded (a runbook titled "Crash reporting" is about crashes in every passage), its
/// description being one more passage; and the same of the passages alone. Of the title, the
/// name of `project` ("Hot files in shale-api": every note of the project would have it) and the
/// verbs ("Running the app") are left out; a list of what the agent did is read alone.
fn best_passage(note: &Note, terms: &[memory_core::search::Term], project: &str) -> (usize, usize) {
    use memory_core::search::{matched_in, words};
    // A list of what the agent did is titled by the kind of list, not by what its items are about.
    let titled = !is_activity_list(note);
    let title: Vec<String> = if titled {
        let title = note.meta.title.to_lowercase();
        let title = if project.is_empty() { title } else { title.replace(&project.to_lowercase(), " ") };
        // "Running the app", "Writing a new job": the verbs of a title say what is done, not what
        // the passages are about.
        words(&title).into_iter().filter(|w| !memory_core::search::action(w) && !w.ends_with("ing")).collect()
    } else {
        Vec::new()
    };
    let under_title = |passage: Vec<String>| matched_in(&[title.clone(), passage].concat(), terms);
    let (mut best_titled, mut best_alone) = (0, 0);
    for block in blocks(&note.body) {
        let passage = words(&block);
        best_alone = best_alone.max(matched_in(&passage, terms));
        best_titled = best_titled.max(under_title(passage));
    }
    if let Some(description) = note.meta.description.as_deref().filter(|_| titled) {
        best_titled = best_titled.max(under_title(words(description)));
    }
    (best_titled, best_alone)
}

/// The most notes whose facts may name a topic of the prompt for one of them to be brought by it
/// ([`names_topic`]).
const FACT_SPREAD: usize = 3;
/// Longest passage read as one fact, which one topic word of the prompt is enough to bring.
const FACT_CHARS: usize = 240;

/// Whether one of a note's facts' words ([`fact_passages`], passages of at most [`FACT_CHARS`])
/// name one of `topics`: "make a
/// branch for the retry work" is answered by "branches are made with git switch", whatever else
/// the prompt says. Longer passages (paragraphs of a document) need more of the prompt.
fn names_topic(facts: &[Vec<String>], topics: &[memory_core::search::Term]) -> bool {
    !topics.is_empty() && facts.iter().any(|f| memory_core::search::matched_in(f, topics) > 0)
}

/// A note's words, each of its facts' words ([`fact_passages`]), the topics of work its facts are
/// about ([`memory_core::search::topics`]), and whether it is a list of what the agent did
/// ([`is_activity_list`]), whose commands name the topics of the work they did (`swift test`)
/// without telling the notes about them apart.
type NoteWords = (Vec<String>, Vec<Vec<String>>, Vec<&'static str>, bool);

/// A note's facts: its passages ([`blocks`]) of at most [`FACT_CHARS`], headings left out, each
/// in its own words: what it quotes (a tool's message, `"database test_app does not exist"`) names
/// a topic by chance. So do the paths in a list of what the agent did ([`is_activity_list`]): in
/// `pytest tests/orders` "tests" is a folder's name, while `kamal deploy -d staging` is about
/// staging.
fn fact_passages(note: &Note) -> Vec<String> {
    let activity = is_activity_list(note);
    blocks(&note.body)
        .into_iter()
        .filter(|b| !b.trim_start().starts_with('#') && b.chars().count() <= FACT_CHARS)
        .map(|b| {
            let own = unquoted(&b);
            if activity {
                own.split_whitespace().filter(|token| !token.contains('/')).collect::<Vec<_>>().join(" ")
            } else {
                own
            }
        })
        .collect()
}

/// `text` without what it quotes: from its first double quote (straight or curly) to its last, so
/// quotes inside a quoted message (`"database "app_test" does not exist"`) stay inside it.
fn unquoted(text: &str) -> String {
    let open = text.find(['"', '\u{201c}']);
    let close = text.rfind(['"', '\u{201d}']);
    match (open, close) {
        (Some(open), Some(close)) if open < close => {
            let after = close + text[close..].chars().next().map_or(1, char::len_utf8);
            format!("{} {}", &text[..open], &text[after..])
        }
        _ => text.to_owned(),
    }
}

/// The forms of the prompt's words that name a file they are part of ([`names_file`]): single
/// words of [`NAMED_PART_CHARS`] or more, not everyday English nor a verb any task is asked with.
fn file_words(terms: &[memory_core::search::Term]) -> Vec<&str> {
    terms
        .iter()
        .filter(|t| {
            !t.asked.contains(' ')
                && t.asked.chars().count() >= NAMED_PART_CHARS
                && !memory_core::search::action(&t.asked)
        })
        .flat_map(|t| t.forms.iter().map(String::as_str))
        .collect()
}

/// How many of a prompt's `terms` say what it is about: those that do not only say when ("last
/// week"), at least one.
fn asked_about(terms: &[String]) -> usize {
    terms.iter().filter(|t| !memory_core::search::when(t)).count().max(1)
}

/// The shortest word that counts as naming a file it is a part of: shorter parts of file names are
/// common words ("name", "value", "test").
const NAMED_PART_CHARS: usize = 7;

/// Whether a short passage of a project's `note` names a file or an identifier that one of the prompt's words
/// not everyday English is a part of: "the swapchain code" and `src/render/vk_swapchain.cpp`,
/// "the scheduler's config" and `config/scheduler.toml`, "the checkout flow" and
/// `CheckoutFlowView.swift`.
/// `wanted` is [`file_words`] of the prompt.
fn names_file(note: &Note, wanted: &[&str]) -> bool {
    if !matches!(note.meta.scope, Scope::Project(_)) {
        // A project's files; the user's notes name files of every project.
        return false;
    }
    !wanted.is_empty()
        && blocks(&note.body).iter().any(|b| {
            !b.trim_start().starts_with('#')
                && b.chars().count() <= FACT_CHARS
                && memory_core::code_spans(b).any(|span| {
                    span.split(|c: char| c.is_whitespace() || c == '=')
                        .filter(|token| {
                            token.contains(['/', '_', '.']) || token.chars().skip(1).any(char::is_uppercase)
                        })
                        .flat_map(identifier_parts)
                        .any(|part| wanted.contains(&part.as_str()))
                })
        })
}

/// The words an identifier or path is made of, lowercased: `vk_swapchain.cpp` gives `vk`,
/// `swapchain`, `cpp`; `ktlintFormat` gives `ktlint`, `format`.
fn identifier_parts(token: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for piece in token.split(|c: char| !c.is_alphanumeric()) {
        let mut word = String::new();
        let mut previous_lower = false;
        for c in piece.chars() {
            if c.is_uppercase() && previous_lower && !word.is_empty() {
                parts.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        }
        if !word.is_empty() {
            parts.push(word);
        }
    }
    parts
}

/// The fewest characters of a note worth giving on a prompt.
const MIN_PROMPT_PASSAGE: usize = 80;

/// The project's tools ([`tools_used`]) when one of `notes` is a user's note about a tool, which
/// they decide about; none otherwise, without reading the project's notes.
async fn tools_if_needed<'a>(
    store: &dyn MemoryStore,
    project: &Project,
    mut notes: impl Iterator<Item = &'a Note>,
) -> memory_core::Result<BTreeSet<String>> {
    if notes.any(|n| user_tool(n).is_some()) {
        Ok(tools_used(&store.list_notes(&NoteFilter::scope(Scope::Project(project.id.clone()))).await?))
    } else {
        Ok(BTreeSet::new())
    }
}

/// Notes for a prompt by their words alone, best first: enough of the prompt's terms, one of them
/// not everyday English; a hit far below the best only when it matches as many terms as any; the
/// profile only when one passage of it has several of the prompt's terms. The project's notes first, a note about a
/// tool of another language than the project's after the rest.
async fn by_words_only(
    store: &dyn MemoryStore,
    project: &Project,
    terms: &[String],
    config: &HookConfig,
    candidates: &BTreeMap<String, Candidate>,
    by_words: &[(String, f64, usize)],
) -> memory_core::Result<Vec<(String, f32)>> {
    // A prompt of a word or two ("postgres version") is all keywords: one of them will do.
    // Words saying only when ("last week") do not make a prompt longer.
    let min_terms = config.prompt_min_terms.clamp(1, asked_about(terms).div_ceil(2));
    let top = by_words.iter().map(|h| h.1).max_by(f64::total_cmp).unwrap_or(0.0);
    let most = by_words.iter().map(|h| h.2).max().unwrap_or(0);
    let tools = tools_if_needed(store, project, candidates.values().map(|c| &c.note)).await?;
    // The second best score: a note far above it ([`STANDS_OUT`]) has a word of the prompt few
    // notes have and that says much, and answers by it alone. Beside no other note found, nothing
    // stands out.
    let mut scores: Vec<f64> = by_words.iter().map(|h| h.1).collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    let second = scores.get(1).copied().unwrap_or(f64::INFINITY);
    let mut ranked = Vec::new();
    for (rank, (key, score, matched)) in by_words.iter().enumerate() {
        let Some(c) = candidates.get(key) else { continue };
        let stands_out = *score >= top && *score >= second * STANDS_OUT && c.rare && c.specific;
        // Far below the best score, a hit stays only when it matches as many terms as any.
        let weak = *score < top * 0.5 && *matched < most && !c.fact;
        // A longer prompt is answered by a note that has two of its words in one passage, or half
        // of them: one word shared ("python", "database") is what a general question and a note
        // have in common by chance.
        let answers =
            c.fact || c.rare || c.best >= 2 || c.coverage >= HALF || asked_about(terms) <= 2 || stands_out;
        if (*matched < min_terms && !c.fact && !stands_out)
            || weak
            || !(c.specific || c.fact)
            || !answers
            || (is_profile(&c.note) && !c.strong && !c.fact)
        {
            continue;
        }
        // The note with the passage that has most of the prompt's words first; among equals, what
        // the user stated before what was observed, then the search's order.
        let mut weight = stated_weight(&c.note);
        if matches!(&c.note.meta.scope, Scope::Project(id) if *id == project.id) {
            weight *= PROJECT_BOOST;
        } else if let Some(tool) = tool_elsewhere(&c.note, &tools)
            && !terms.iter().any(|t| t == tool)
        {
            weight *= ELSEWHERE;
        }
        let mut relevance = c.best as f64 + weight / 4.0 + 1.0 / (RRF_K + rank as f64 + 1.0);
        // What a note says is out of date comes after what holds now with as many of the words.
        if is_outdated(&c.note) {
            relevance -= OUTDATED_WORDS_DROP;
        }
        ranked.push((key.clone(), relevance as f32));
    }
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(ranked)
}

/// How far a note that says it is out of date falls behind in the order of the notes found by
/// their words: behind those with as many of the prompt's words in a passage.
const OUTDATED_WORDS_DROP: f64 = 0.5;

/// How many times the second best score by words the best must be to answer a prompt by one word:
/// a word only that note has ("non-English" beside a note on translations, "paged" beside the
/// on-call runbook) and that the search weighs far above what the other notes share with it.
const STANDS_OUT: f64 = 3.0;

/// A list of what the agent did ([`is_activity_list`]) without the words of what its items were
/// for ([`memory_core::without_purposes`]); any other note as it is.
fn without_purposes(mut note: Note) -> Note {
    if is_activity_list(&note) && note.body.contains(memory_core::PURPOSE_SEPARATOR) {
        note.body = memory_core::without_purposes(&note.body);
    }
    note
}

/// Whether a prompt asks where something is in the code: "where's the header parsing code?",
/// "where do we decide which product replaces an out-of-stock one?", "which file has the carrier
/// scopes?".
fn asks_where(prompt: &str) -> bool {
    let words = memory_core::search::words(prompt);
    words.iter().any(|w| w == "where" || w == "wheres")
        || words.windows(2).any(|pair| {
            matches!(pair[0].as_str(), "which" | "what")
                && matches!(
                    pair[1].as_str(),
                    "file" | "files" | "module" | "modules" | "package" | "component"
                )
        })
}

/// Whether a note is a list the dream keeps of what the agent did (the commands it ran, the files
/// it edited most, the flags it passed to a tool: `tools/<tool>/…flags.md`), not something stated
/// (a note of the project's on its feature flags is).
fn is_activity_list(note: &Note) -> bool {
    let path = note.path.as_str();
    let file = path.rsplit('/').next().unwrap_or_default();
    let of_a_tool = path.starts_with("tools/") || path.contains("/tools/");
    file == "commands.md" || file == "hot-files.md" || (of_a_tool && file.ends_with("flags.md"))
}

/// How much what a note holds weighs on a prompt, below one: rules and preferences the user
/// stated, then fixes, facts, commands, and the files edited most last.
fn stated_weight(note: &Note) -> f64 {
    match note.meta.kind {
        NoteKind::Profile | NoteKind::Preference | NoteKind::Convention => 0.6,
        NoteKind::Procedure => 0.5,
        NoteKind::Fact if note.path.as_str().ends_with("hot-files.md") => 0.1,
        NoteKind::Fact => 0.4,
        NoteKind::Tool => 0.3,
    }
}

/// A prompt's vector on its way to the store's search by meaning, kept once made.
struct Kept {
    vector: memory_embed::Pending,
    kept: std::sync::Arc<std::sync::Mutex<Option<Vec<f32>>>>,
}

impl memory_core::PendingVector for Kept {
    fn ready(&self) -> bool {
        memory_core::PendingVector::ready(&self.vector)
    }

    fn wait(self: Box<Self>) -> Option<Vec<f32>> {
        let vector = memory_core::PendingVector::wait(Box::new(self.vector));
        if let (Some(vector), Ok(mut kept)) = (&vector, self.kept.lock()) {
            *kept = Some(vector.clone());
        }
        vector
    }
}

/// The passages of each of `chosen` as embedded (without the title they are embedded under) with
/// how close each is to the prompt (`prompt`, its vector): every passage of a note too long to
/// be given whole, whose embeddings the store has; the one it was found by otherwise.
async fn passages_in_meaning(
    store: &dyn MemoryStore,
    chosen: &[Candidate],
    prompt: Option<&[f32]>,
) -> memory_core::Result<Vec<Vec<(String, f32)>>> {
    // Whose every passage is compared: each note too long to be given whole, once the prompt's
    // vector is there.
    let compared: Vec<bool> =
        chosen.iter().map(|c| prompt.is_some() && c.note.body.chars().count() > PROMPT_NOTE_CAP).collect();
    let long: Vec<Note> = chosen
        .iter()
        .zip(&compared)
        .filter(|(_, compared)| **compared)
        .map(|(c, _)| c.note.clone())
        .collect();
    let mut vectors = if long.is_empty() {
        Vec::new()
    } else {
        store.note_embeddings(memory_embed::MODEL_NAME, &long).await?
    }
    .into_iter();
    Ok(chosen
        .iter()
        .zip(compared)
        .map(|(c, compared)| {
            let vectors = if compared { vectors.next() } else { None };
            // A note found by words alone, and not compared, has no passage to read.
            if vectors.is_none() && c.passage.is_none_or(|i| i == 0) {
                return Vec::new();
            }
            let prefix = format!("{}: ", c.note.meta.title.trim());
            let texts: Vec<String> = memory_embed::passages(&c.note)
                .into_iter()
                .map(|p| p.strip_prefix(&prefix).map(str::to_owned).unwrap_or(p))
                .collect();
            let all = vectors.filter(|v| v.len() == texts.len()).map(|v| {
                // The first passage is the title (and description), which every passage has.
                let prompt = prompt.unwrap_or_default();
                texts
                    .iter()
                    .zip(&v)
                    .skip(1)
                    .map(|(text, vector)| (text.clone(), memory_core::cosine(prompt, vector)))
                    .collect::<Vec<_>>()
            });
            let found = || c.passage.filter(|i| *i > 0).and_then(|i| texts.get(i).cloned());
            all.or_else(|| found().map(|text| vec![(text, 1.0)])).unwrap_or_default()
        })
        .collect())
}

/// The passages of a body as [`memory_embed::passages`] reads it: each list item (with the lines
/// that continue it), each paragraph, each heading; a block of code is kept whole, with the step
/// or paragraph right before it.
fn blocks(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<String>| {
        if !current.trim().is_empty() {
            out.push(current.trim_end().to_owned());
        }
        current.clear();
    };
    let mut fenced = false;
    for line in body.lines() {
        let trimmed = line.trim_start();
        let fence = fence(trimmed);
        if fence && !fenced && current.is_empty() {
            // A block of code belongs to what comes right before it: the step or paragraph that
            // introduces it ("Find the pod:", "5. Clear the cache", "Then run this rake task").
            if out.last().is_some_and(|b| !b.trim_start().starts_with('#') && !markup(b)) {
                current = out.pop().unwrap_or_default();
            }
        }
        if fence || fenced {
            // Code is read whole: its blank lines and `#` comments split nothing.
            fenced ^= fence;
            if !current.is_empty() {
                current.push('\n');
            }
            current.push_str(line.trim_end());
            continue;
        }
        let item = list_item(trimmed);
        if line.trim().is_empty() || trimmed.starts_with('#') || item {
            flush(&mut current, &mut out);
            if trimmed.starts_with('#') {
                out.push(line.trim_end().to_owned());
                continue;
            }
        }
        if !line.trim().is_empty() {
            if !current.is_empty() {
                current.push('\n');
            }
            current.push_str(line.trim_end());
        }
    }
    flush(&mut current, &mut out);
    out
}

/// Whether a passage is markup a reader of the rendered document never sees: Markdown link
/// definitions (`[label]: https://…`) or an HTML comment (`<!-- vale off -->`).
fn markup(passage: &str) -> bool {
    let passage = passage.trim();
    let link = passage.starts_with('[')
        && passage.find("]: ").is_some_and(|at| !passage[..at].contains(['\n', ']']));
    // One comment, whole: a paragraph between two linter directives is text.
    let comment =
        passage.starts_with("<!--") && passage.find("-->").is_some_and(|end| end + 3 == passage.len());
    link || comment
}

/// A passage as a reader of the rendered document sees it: a link's text without where it goes
/// (`[release history](https://…)` reads "release history") and no HTML comments; code as it is.
fn rendered(passage: &str) -> String {
    let mut out = String::with_capacity(passage.len());
    let mut fenced = false;
    for line in passage.lines() {
        let fence = fence(line.trim_start());
        fenced ^= fence;
        let text =
            if fenced || fence { line.to_owned() } else { without_link_targets(&without_comments(line)) };
        if text.trim().is_empty() && !line.trim().is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(text.trim_end());
    }
    out
}

/// `line` without its HTML comments (`<!-- vale off -->`).
fn without_comments(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("<!--") {
        let Some(end) = rest[start..].find("-->") else { break };
        out.push_str(&rest[..start]);
        rest = &rest[start + end + 3..];
    }
    out.push_str(rest);
    out
}

/// `line` with each inline link `[text](target)` as its text.
fn without_link_targets(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else { break };
        let Some(end) = rest[close + 2..].find(')').map(|e| close + 2 + e) else { break };
        let label = &rest[open + 1..close];
        if label.contains('[') || rest[close + 2..end].contains(' ') {
            out.push_str(&rest[..open + 1]);
            rest = &rest[open + 1..];
            continue;
        }
        let image = rest[..open].ends_with('!');
        out.push_str(&rest[..if image { open - 1 } else { open }]);
        out.push_str(label);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Whether a line (its indentation trimmed) opens or closes a block of code.
fn fence(line: &str) -> bool {
    line.starts_with("```") || line.starts_with("~~~")
}

/// Whether a line (its indentation trimmed) starts a list item, bulleted or numbered.
fn list_item(line: &str) -> bool {
    line.starts_with("- ") || line.starts_with("* ") || numbered(line)
}

/// Whether a line starts a numbered list item (`1. `, `12) `).
fn numbered(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// A note about to be given on a prompt: its key, its heading's length, its body read for the
/// prompt, whether only its matching passages count, and the room it would use with all it has
/// for the prompt.
struct Planned {
    key: String,
    note: Note,
    head: usize,
    passages: Passages,
    only_matching: bool,
    wanted: usize,
}

/// `room` shared among notes that would use `wanted` characters each: equally, and what one
/// needs less of than its share goes to the others.
fn shares(room: usize, wanted: &[usize]) -> Vec<usize> {
    // The best note weighs twice the others.
    let weight = |i: usize| if i == 0 { 2 } else { 1 };
    let mut out = vec![0; wanted.len()];
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by_key(|&i| wanted[i] / weight(i));
    let mut left = room;
    let mut weights: usize = (0..wanted.len()).map(weight).sum();
    for &i in &order {
        let share = left * weight(i) / weights.max(1);
        out[i] = wanted[i].min(share);
        left -= out[i];
        weights -= weight(i);
    }
    out
}

/// What a passage shown costs beside its text: the line it ends, and the `…` of a gap before it.
const PASSAGE_COST: usize = 5;

/// Longest opening of a note that leads every excerpt of it on a prompt ([`Passages::read`]).
const LEAD_CHARS: usize = 160;

/// A note's body read for a prompt: its passages ([`blocks`]), how well each answers the prompt,
/// and the order they are given in.
struct Passages {
    body: String,
    parts: Vec<String>,
    scores: Vec<u64>,
    order: Vec<usize>,
}

impl Passages {
    /// Reads `body` for a prompt of `terms`: the passage closest in meaning first (`similar`: the
    /// text of passages as embedded, with their similarity to the prompt), then those sharing the
    /// most of the prompt's telling words, the closer in meaning first among equals; then the
    /// opening, then the rest. A passage about one of `topics` counts as a word of the prompt, as
    /// two in the `profile`.
    fn read(
        body: &str,
        terms: &[memory_core::search::Term],
        topics: &[&str],
        similar: &[(String, f32)],
        profile: bool,
    ) -> Self {
        let body = body.trim().to_owned();
        let raw = blocks(&body);
        // Passages as shown; an embedded passage is found in the block as written.
        let parts: Vec<String> =
            raw.iter().map(|p| if markup(p) { p.clone() } else { rendered(p) }).collect();
        let similar: Vec<(String, f32)> = similar
            .iter()
            .map(|(text, similarity)| (memory_core::search::words(text).join(" "), *similarity))
            .filter(|(words, _)| !words.is_empty())
            .collect();
        // How close in meaning each passage is: the closest of the embedded passages it holds.
        let closeness: Vec<Option<f32>> = raw
            .iter()
            .map(|part| {
                if similar.is_empty() {
                    return None;
                }
                // The passage embedded is the block's text without its marker and counts.
                let joined = memory_core::search::words(part).join(" ");
                let unmarked = memory_core::search::words(memory_core::without_counts(
                    part.trim_start().trim_start_matches(['-', '*', ' ']),
                ))
                .join(" ");
                similar
                    .iter()
                    .filter(|(p, _)| {
                        unmarked == *p
                            || joined.ends_with(p.as_str())
                            || unmarked.starts_with(p.as_str())
                            || (p.starts_with(&unmarked) && !unmarked.is_empty())
                    })
                    .map(|(_, similarity)| *similarity)
                    .max_by(f32::total_cmp)
            })
            .collect();
        let closest = closeness.iter().flatten().copied().max_by(f32::total_cmp);
        // Each passage's words, read under the headings of its section and the sections it is part
        // of: "restore taking a long time" finds the paragraph below it that says how long.
        // The items of a list are read under the line that introduces them ("configured to:").
        // The headings a passage sits under, from its section's up: (level, heading).
        let mut headings: Vec<(usize, &str)> = Vec::new();
        let mut intro: &str = "";
        let words_of: Vec<Vec<String>> = parts
            .iter()
            .map(|p| {
                let trimmed = p.trim_start();
                if markup(p) {
                    // Where a link goes, or a note to a linter: nothing the prompt asks.
                    return Vec::new();
                }
                let mut words = memory_core::search::words(p);
                let item = list_item(trimmed);
                if trimmed.starts_with('#') {
                    let level = trimmed.chars().take_while(|c| *c == '#').count();
                    headings.retain(|(above, _)| *above < level);
                    headings.push((level, p));
                    intro = "";
                } else {
                    for (_, heading) in &headings {
                        words.extend(memory_core::search::words(heading));
                    }
                    if item {
                        words.extend(memory_core::search::words(intro));
                    } else {
                        intro = if p.ends_with(':') { p } else { "" };
                    }
                }
                words
            })
            .collect();
        let has: Vec<Vec<bool>> = words_of
            .iter()
            .map(|words| {
                terms
                    .iter()
                    .map(|t| memory_core::search::matched_in(words, std::slice::from_ref(t)) > 0)
                    .collect()
            })
            .collect();
        // A word of the prompt that few of the note's passages have tells the one that answers it
        // ("keyspace" in a runbook about Redis): it weighs more than one most of them have.
        let weights: Vec<f64> = (0..terms.len())
            .map(|t| {
                let having = has.iter().filter(|h| h[t]).count();
                if having == 0 { 0.0 } else { (1.0 + parts.len() as f64 / having as f64).ln() }
            })
            .collect();
        // Of the profile, sent again only for what the prompt asks, a rule about the kind of task
        // asked comes before a passage sharing a word with it.
        let about_weight = if profile { 2.0 } else { 1.0 };
        let scores: Vec<u64> = parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                if closest.is_some() && closeness[i] == closest {
                    return u64::MAX;
                }
                // A passage about a topic the prompt asks for without naming it counts as a word of it.
                let about = !topics.is_empty()
                    && memory_core::search::topics(part).iter().any(|t| topics.contains(t));
                let words: f64 = has[i].iter().zip(&weights).filter(|(h, _)| **h).map(|(_, w)| w).sum();
                ((words + about_weight * f64::from(u8::from(about))) * 1000.0) as u64
            })
            .collect();
        let mut order: Vec<usize> = (0..parts.len()).collect();
        // A short opening says what the note is about: it leads whatever passages follow. Then what
        // matches (best first), then the opening if long, then the rest in order.
        let lead = parts.first().is_some_and(|p| p.chars().count() <= LEAD_CHARS && !p.starts_with("- "));
        // Among passages sharing as much of the prompt's words (those under one heading that has
        // them, most often), the closest in meaning first.
        let close = |i: usize| closeness[i].unwrap_or(f32::MIN);
        order.sort_by(|&a, &b| {
            (!(lead && a == 0))
                .cmp(&!(lead && b == 0))
                .then(scores[b].cmp(&scores[a]))
                .then((a != 0).cmp(&(b != 0)))
                .then(close(b).total_cmp(&close(a)))
                .then(a.cmp(&b))
        });
        Self { body, parts, scores, order }
    }

    /// The body within `cap` characters: whole when it fits; otherwise its passages in the order
    /// read, kept in the note's order, with `…` where passages were left out; with
    /// `only_matching`, a long body gives the passages that matter and nothing else. When no
    /// passage fits, the best is cut at a word.
    fn within(&self, cap: usize, only_matching: bool) -> String {
        let (parts, scores, order) = (&self.parts, &self.scores, &self.order);
        if self.body.chars().count() <= cap.min(PROMPT_NOTE_CAP) {
            return self.body.clone();
        }
        const GAP: &str = "…";
        let mut chosen = vec![false; parts.len()];
        let mut used = 0usize;
        let matching = scores.iter().any(|s| *s > 0);
        for &i in order {
            if (only_matching && matching && scores[i] == 0)
                || markup(&parts[i])
                || parts[i].trim().is_empty()
            {
                continue;
            }
            let len = parts[i].chars().count() + PASSAGE_COST;
            if used + len <= cap {
                used += len;
                chosen[i] = true;
            }
        }
        if !chosen.iter().any(|c| *c) {
            let best = order[0];
            return format!("{} …", cut_at_word(&parts[best], cap.saturating_sub(2)));
        }
        let mut out = String::new();
        let mut gap = false;
        for (i, part) in parts.iter().enumerate() {
            if !chosen[i] {
                // A passage that was only a comment left nothing out.
                gap |= !part.trim().is_empty();
                continue;
            }
            if gap && !out.is_empty() {
                out.push_str(GAP);
                out.push('\n');
            }
            gap = false;
            out.push_str(part);
            out.push('\n');
        }
        if gap {
            out.push_str(GAP);
        }
        out.trim_end().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::{rank_by_usefulness, tool_elsewhere, tools_used};
    use memory_core::{Note, NoteKind, NoteMeta, NotePath, Scope};
    use std::collections::BTreeSet;

    /// `body` within `cap` characters for a prompt of `terms`, read as `for_prompt` reads a note.
    fn focused(
        body: &str,
        terms: &[memory_core::search::Term],
        topics: &[&str],
        preferred: Option<&str>,
        cap: usize,
        only_matching: bool,
    ) -> String {
        let similar: Vec<(String, f32)> = preferred.map(|p| (p.to_owned(), 1.0)).into_iter().collect();
        super::Passages::read(body, terms, topics, &similar, only_matching).within(cap, only_matching)
    }

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
                owner: None,
            },
            body: body.to_owned(),
        }
    }

    #[test]
    fn a_list_of_what_the_agent_did_is_told_by_its_file_and_a_feature_flags_note_is_no_such_list() {
        let here = Scope::Project("ledger".to_owned());
        for path in [
            "project/ledger/commands.md",
            "project/ledger/hot-files.md",
            "project/ledger/tools/cargo/build-flags.md",
            "tools/gh/pr-flags.md",
        ] {
            assert!(super::is_activity_list(&note(here.clone(), path, NoteKind::Tool, 0, "- x\n")), "{path}");
        }
        for path in [
            "project/ledger/feature-flags.md",
            "project/ledger/conventions/flags.md",
            "project/ledger/errors.md",
            "tools/gh/review.md",
        ] {
            assert!(
                !super::is_activity_list(&note(here.clone(), path, NoteKind::Fact, 0, "- x\n")),
                "{path}"
            );
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
        assert!(
            tool_elsewhere(&mypy, &BTreeSet::new()).is_some(),
            "a language's tool waits for a prompt while the project's tools are not known"
        );
        let terminal = note(Scope::User, "tools/zellij/layouts.md", NoteKind::Tool, 0, "- `dev`\n");
        assert!(
            tool_elsewhere(&terminal, &BTreeSet::new()).is_none(),
            "a tool of no language concerns any project"
        );
    }

    #[tokio::test]
    async fn a_chart_or_a_container_asked_for_gets_the_rule_about_it() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let conventions = note(
            here.clone(),
            "project/ledger/conventions.md",
            NoteKind::Convention,
            0,
            "- chart versions are pinned exact in the HelmRelease, no 5.x ranges\n- local services run under podman, not docker\n",
        );
        let hot = note(here, "project/ledger/hot-files.md", NoteKind::Fact, 0, "- edited `src/app.ts`\n");
        for n in [&conventions, &hot] {
            store.put_note(n).await.unwrap();
        }
        for prompt in [
            "add the loki chart for log aggregation",
            "bump the grafana chart to the latest",
            "which chart does the ingress come from?",
            "I want a throwaway local redis to try the caching idea, how do I spin one up?",
            "spin up a postgres for the integration tests",
            "the api container keeps restarting after the upgrade",
        ] {
            let found = asked(&store, &project, prompt).await;
            assert!(found.iter().any(|k| k.ends_with("conventions.md")), "{prompt}: {found:?}");
        }
    }

    #[tokio::test]
    async fn the_everyday_words_of_running_software_find_the_notes_in_its_trade_words() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let titled = |path: &str, title: &str, body: &str| {
            let mut n = note(here.clone(), path, NoteKind::Procedure, 0, body);
            n.meta.title = title.to_owned();
            n
        };
        let notes = [
            titled(
                "project/ledger/oncall.md",
                "Ledger runbook",
                "- First thing when on call: ack in PagerDuty, then open the ledger dashboard.\n- Hand over on Monday in #ledger-ops.\n",
            ),
            titled(
                "project/ledger/rollback.md",
                "Releases",
                "- To roll back, `kamal rollback <version>`; the previous version stays on every host.\n",
            ),
            titled(
                "project/ledger/jobs.md",
                "Jobs",
                "- The reconciliation job is a cron entry in `config/schedule.yml`, nightly at 02:00 UTC.\n",
            ),
            titled(
                "project/ledger/costs.md",
                "Cloud account",
                "- The budget alert at 80% of the monthly spend goes to #ledger-costs.\n",
            ),
            titled(
                "project/ledger/error-responses.md",
                "Responses",
                "- HTTP errors are `application/problem+json` with a stable `code` like `LED-4091`.\n",
            ),
        ];
        for n in &notes {
            store.put_note(n).await.unwrap();
        }
        finds_each(
            &store,
            &project,
            &[
                ("I just got paged about the ledger, what do I do first?", "oncall.md"),
                ("the pager went off for the ledger at 3am", "oncall.md"),
                ("who do I hand over to when my ledger on-call week ends?", "oncall.md"),
                ("the release from this morning is broken, revert it", "rollback.md"),
                ("undo yesterday's release on the hosts", "rollback.md"),
                ("how do I roll back the ledger release?", "rollback.md"),
                ("what runs every night for reconciliation?", "jobs.md"),
                ("when is the reconciliation job scheduled?", "jobs.md"),
                ("move the reconciliation to run hourly", "jobs.md"),
                ("how much is the ledger costing us per month?", "costs.md"),
                ("who hears about it when we overspend?", "costs.md"),
                ("is there a billing alert for the ledger?", "costs.md"),
                ("what shape does the json take when a request goes wrong?", "error-responses.md"),
                ("when a call went wrong, what does the client get back?", "error-responses.md"),
                ("the http response when things go wrong, what code does it carry?", "error-responses.md"),
            ],
        )
        .await;
        // An everyday phrase of another life is no word of the trade.
        finds_nothing(
            &store,
            &project,
            &[
                "is it good to go back to running after a knee injury?",
                "how long should I boil an egg?",
                "what's a good way to split up chores at home?",
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn the_plain_words_of_a_task_find_the_rule_in_the_words_of_the_code() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let notes = [
            note(
                here.clone(),
                "project/ledger/naming.md",
                NoteKind::Convention,
                0,
                "- naming is stg_<source>__<entity> for the ingest models, e.g. stg_bank__transfers\n",
            ),
            note(
                here.clone(),
                "project/ledger/access.md",
                NoteKind::Convention,
                0,
                "- creds come from vault (`vault login -method=oidc`), never from a dotfile in home\n",
            ),
            note(
                here.clone(),
                "project/ledger/keys.md",
                NoteKind::Convention,
                0,
                "- every key we mint is a ULID (oklog/ulid), sortable in the btree indexes\n",
            ),
            note(
                here.clone(),
                "project/ledger/database.md",
                NoteKind::Convention,
                0,
                "- db.ts exports a `sql` tagged template from npm:postgres; nothing else talks to postgres\n",
            ),
            note(
                here.clone(),
                "project/ledger/invoices.md",
                NoteKind::Procedure,
                0,
                "- Invoice PDFs are rendered by `Billing::InvoicePdfJob` when an order ships, then mailed\n",
            ),
            note(
                here.clone(),
                "project/ledger/vat.md",
                NoteKind::Convention,
                0,
                "- EU business customers with a VAT ID that validates in VIES: reverse charge, 0% VAT\n",
            ),
            note(
                here.clone(),
                "project/ledger/cluster.md",
                NoteKind::Convention,
                0,
                "- every Deployment ships with cpu and memory requests and limits, plus a PodDisruptionBudget\n",
            ),
            note(
                here.clone(),
                "project/ledger/gpu.md",
                NoteKind::Fact,
                0,
                "- the gpu box is walrus now (`ssh walrus`), same drivers as before\n",
            ),
            note(
                here.clone(),
                "project/ledger/overview.md",
                NoteKind::Fact,
                0,
                "ledger books card payments for clinics; the Maven modules are laid out as `app/` (the \
                 service), `api-client/` and `avro/` (the event schemas).\n",
            ),
        ];
        for n in &notes {
            store.put_note(n).await.unwrap();
        }
        finds_each(
            &store,
            &project,
            &[
                ("what should I call the ingest model for the bank transfers feed?", "naming.md"),
                ("what do we call a new model for the card payments source?", "naming.md"),
                ("add a staging model for the refunds feed", "naming.md"),
                ("how do I authenticate before running the migration against prod?", "access.md"),
                ("where do my credentials for the ledger come from?", "access.md"),
                ("the deploy script says it can't find creds, what now?", "access.md"),
                ("give every new transfer its own identifier", "keys.md"),
                ("should the refund ids be uuids?", "keys.md"),
                ("which id format do new tables use?", "keys.md"),
                ("write a query helper for the transfers table", "database.md"),
                ("the report queries are slow, where do they go through?", "database.md"),
                ("add a sql query that sums refunds per day", "database.md"),
                ("start the training run on the gpu machine", "gpu.md"),
                ("which gpu server do I ssh into?", "gpu.md"),
                ("is the gpu host still the same one?", "gpu.md"),
                ("a customer says they never got the PDF for their bill", "invoices.md"),
                ("which job renders the bills?", "invoices.md"),
                ("resend the receipt for order 4411", "invoices.md"),
                ("a German company with a tax number orders from us, do we charge them tax?", "vat.md"),
                ("how much sales tax goes on an order from Lisbon?", "vat.md"),
                ("which taxes apply to a Dutch business?", "vat.md"),
                ("scaffold manifests for the new notifications service", "cluster.md"),
                ("add a manifest for the reconciliation worker", "cluster.md"),
                ("the exporter's manifests need a second replica", "cluster.md"),
                ("what's in this repo and how is it split up?", "overview.md"),
                ("which parts is the code divided into?", "overview.md"),
                ("how is the codebase broken up into modules?", "overview.md"),
            ],
        )
        .await;
        // A question about anything else that shares such a word gets nothing.
        finds_nothing(
            &store,
            &project,
            &[
                "what should I call my new puppy?",
                "in general, how do websites authenticate users with passkeys?",
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn a_prompt_gets_what_the_items_say_without_how_often_they_were_seen() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let items: String = [
            "- the ledger service is Go 1.23 with chi and sqlc on pgx",
            "- deploys go through argo: bump the image tag in the apps repo and argocd syncs it",
            "- errors are wrapped with fmt.Errorf and %w, never pkg/errors",
            "- secrets come from vault via `vault kv get`, never from a dotfile in the home directory",
            "- the carrier http client retries with backoff, three attempts at most",
            "- db.ts exports a `sql` tagged template from npm:postgres; nothing else talks to postgres",
            "- migrations are goose files under db/migrations, one change per file",
            "- feature flags come from unleash through internal/flags",
        ]
        .iter()
        .map(|item| format!("{item} (1×, last 2026-12-01)\n"))
        .collect();
        let conventions = note(
            Scope::Project(project.id.clone()),
            "project/ledger/conventions.md",
            NoteKind::Convention,
            0,
            &format!("Conventions and facts the user stated for this project.\n\n{items}"),
        );
        assert!(
            conventions.body.chars().count() > super::PROMPT_NOTE_CAP,
            "longer than one note's share with its counts"
        );
        store.put_note(&conventions).await.unwrap();
        let config = crate::config::HookConfig::default();
        let given = injected(
            &store,
            &project,
            "write a query helper for the transfers table in the ledger",
            &config,
            2_400,
        )
        .await
        .expect("the conventions answer it");
        assert!(!given.text.contains('×'), "no counts: {}", given.text);
        assert!(!given.text.contains('…'), "every item fits: {}", given.text);
        assert!(given.text.contains("npm:postgres"), "{}", given.text);
    }

    #[tokio::test]
    async fn a_task_here_that_names_what_a_rule_of_the_user_is_about_gets_that_rule_alone() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let profile = note(
            Scope::User,
            "profile/preferences.md",
            NoteKind::Preference,
            0,
            "Preferences and rules the user stated, in their words.\n\n\
             - I'm on a macbook now, so the clipboard tool is pbcopy.\n\
             - since I'm colourblind, never show a status by colour alone, add an icon or a label.\n\
             - timings: always the median of five runs, a single run is noise.\n\
             - no emoji in commit messages, ever.\n\
             - PR descriptions need a 'How to test' section.\n\
             - never push to main and never force-push anything, feature branches are fine.\n\
             - ask me before adding any new package or dependency, in every repo.\n\
             - for searching code use rg rather than grep -r, it respects the gitignore.\n\
             - when a change touches more than three files, write the plan into PLAN.md first.\n\
             - bash scripts start with set -euo pipefail, every repo.\n\
             - don't use git add . or -A, stage files by name.\n\
             - never point anything at prod from a laptop.\n\
             - scratch files go under /mnt/fast/scratch, the home partition is tiny.\n\
             - long-running things I start myself in a zellij pane, don't background them.\n",
        );
        assert!(
            profile.body.chars().count() > super::PROMPT_NOTE_CAP,
            "a profile longer than a note's share"
        );
        let hot = note(
            here.clone(),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- edited `web/pages/transfers/TransferList.tsx`\n- edited `reports/monthly_settlements.sql`\n- edited `api/handlers/payouts.go`\n",
        );
        let commands = note(
            here,
            "project/ledger/commands.md",
            NoteKind::Tool,
            0,
            "Commands run here.\n\n- `make bench-payouts`\n- `psql -f reports/monthly_settlements.sql`\n",
        );
        for n in [&profile, &hot, &commands] {
            store.put_note(n).await.unwrap();
        }
        let config = crate::config::HookConfig::default();
        for (prompt, rule) in [
            ("add a status column to the transfer list", "colourblind"),
            ("give the transfers list a status badge per row", "colourblind"),
            ("put the monthly settlements sql on my clipboard", "pbcopy"),
            ("copy the output of the monthly settlements report to the clipboard", "pbcopy"),
            ("get me timings for the payouts handler", "median"),
            ("measure the payouts bench and tell me the timings", "median"),
            // A rule about what the task is, whatever its words: committing is staging files too.
            ("commit the transfer list change", "by name"),
            ("make a commit for the payouts handler fix", "by name"),
            ("commit what we have for the monthly settlements report", "by name"),
            // Locally is on the user's laptop.
            ("run the monthly settlements report locally", "from a laptop"),
            ("try the payouts bench on my laptop first", "from a laptop"),
            ("build the transfer list locally to check my change", "from a laptop"),
        ] {
            let given = injected(&store, &project, prompt, &config, 2_400).await.expect(prompt);
            assert!(given.text.contains(rule), "{prompt}: {}", given.text);
            // Only the rule it names, not the rest of the profile again.
            assert!(!given.text.contains("How to test"), "{prompt}: {}", given.text);
        }
        // Unless the prompt is about the work here, a word of a rule is no reason to send it again.
        for prompt in [
            "what's the status of the artemis moon mission?",
            "is 422 or 400 the better status for a validation error, generally?",
            "how do I clear the clipboard history on windows?",
        ] {
            let found = asked(&store, &project, prompt).await;
            assert!(!found.iter().any(|k| k.ends_with("profile/preferences.md")), "{prompt}: {found:?}");
        }
    }

    #[tokio::test]
    async fn a_kind_of_task_gets_the_users_rule_about_it_whatever_its_words() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let profile = note(
            Scope::User,
            "profile/preferences.md",
            NoteKind::Preference,
            0,
            "Preferences and rules the user stated, in their words.\n\n\
             - when a change touches more than three files, write the plan into PLAN.md first and wait.\n\
             - long-running stuff I start myself in a zellij pane, don't background it.\n\
             - style-wise, early returns and guard clauses instead of if-pyramids, in any language.\n\
             - i'm on a metered connection, anything big (images, model weights, datasets) ask me before downloading.\n",
        );
        let hot = note(
            Scope::Project(project.id.clone()),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- edited `src/parser.rs` (4×)\n- edited `src/webhook.rs` (2×)\n",
        );
        for n in [&profile, &hot] {
            store.put_note(n).await.unwrap();
        }
        gives_each(
            &store,
            &project,
            &[
                ("rename the `amount` field to `total` everywhere it's used", "PLAN.md"),
                ("switch all the importers over to the new parser", "PLAN.md"),
                ("move the logging calls to tracing across the codebase", "PLAN.md"),
                ("start the api and a watcher that rebuilds the templates", "zellij"),
                ("bring up the dev server for the ledger ui", "zellij"),
                ("kick off the long-running reconciliation backfill", "zellij"),
                ("the validation in the webhook handler is hard to read, clean it up", "early returns"),
                ("tidy up the parser's error branches", "early returns"),
                ("make the refund checks more readable", "early returns"),
                ("grab the pretrained encoder weights from huggingface", "before downloading"),
                ("download the 2024 census extract for the fixtures", "before downloading"),
                ("fetch the ERA5 dataset from the climate data store", "before downloading"),
            ],
        )
        .await;
        finds_nothing(&store, &project, GENERAL_QUESTIONS).await;
    }

    #[tokio::test]
    async fn a_slow_thing_asked_about_gets_how_to_profile_it() {
        let store = memory_core::InMemoryStore::new();
        let project = project();
        procedures(
            &store,
            &project,
            &[
                (
                    "project/ledger/profiling.md",
                    "Locally the rack-mini-profiler badge shows SQL count and time; append `?pp=flamegraph` for a \
                     flamegraph (stackprof). In production, AppSignal's event timeline per action.\n",
                ),
                (
                    "project/ledger/orders.md",
                    "The orders page lists the last 50 orders of the company, newest first.\n",
                ),
                (
                    "project/ledger/exports.md",
                    "Exports are written to S3 under `exports/<company>/` and mailed as a link.\n",
                ),
                ("project/ledger/deploy.md", "Deploys go out with kamal from main after the checks pass.\n"),
            ],
        )
        .await;
        finds_each(
            &store,
            &project,
            &[
                (
                    "the orders page takes 4 seconds in production; how do I figure out where the time goes",
                    "profiling.md",
                ),
                ("checkout got slow since Tuesday, how do I find the bottleneck?", "profiling.md"),
                ("the csv export slowed down a lot this week, find out why", "profiling.md"),
                ("the admin dashboard takes forever to load, help me dig in", "profiling.md"),
            ],
        )
        .await;
        finds_nothing(
            &store,
            &project,
            &["what makes a sorting algorithm slow in the worst case, generally?"],
        )
        .await;
    }

    #[tokio::test]
    async fn a_prompt_in_another_language_gets_the_rule_of_which_language_to_answer_in() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let profile = note(
            Scope::User,
            "profile/preferences.md",
            NoteKind::Preference,
            0,
            "Preferences and rules the user stated, in their words.\n\n\
             - aunque a veces te escriba en español, contéstame siempre en inglés, the logs get read by the team.\n\
             - no emoji in commit messages, ever.\n\
             - PR descriptions need a 'How to test' section.\n",
        );
        let hot = note(
            Scope::Project(project.id.clone()),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- edited `deploy/worker.yaml`\n- edited `src/sync.rs`\n",
        );
        for n in [&profile, &hot] {
            store.put_note(n).await.unwrap();
        }
        let config = crate::config::HookConfig::default();
        for prompt in [
            "¿puedes mirar por qué el pod del worker se reinicia tanto en staging?",
            "kannst du bitte nachsehen, warum der Sync so langsam ist?",
            "pourquoi le worker redémarre en boucle, tu peux regarder ?",
        ] {
            let text =
                injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.text).unwrap_or_default();
            assert!(text.contains("contéstame siempre en inglés"), "{prompt}:\n{text}");
        }
        for prompt in
            ["why does the worker pod keep restarting on staging?", "look at why the sync is so slow"]
        {
            let text =
                injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.text).unwrap_or_default();
            assert!(!text.contains("inglés"), "{prompt}:\n{text}");
        }
    }

    #[tokio::test]
    async fn a_passage_is_read_under_its_notes_title_except_for_a_question_in_general() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let mut crashes = note(
            here.clone(),
            "project/ledger/crash-reporting.md",
            NoteKind::Procedure,
            0,
            "- Look the user up by their id in Sentry; symbols are uploaded by the release job.\n",
        );
        crashes.meta.title = "Crash reports".to_owned();
        let mut accounts = note(
            here.clone(),
            "project/ledger/accounts.md",
            NoteKind::Fact,
            0,
            "- A user signs in to the app with a magic link.\n",
        );
        accounts.meta.title = "Accounts".to_owned();
        let mut search = note(
            Scope::User,
            "tools/search-and-replace.md",
            NoteKind::Tool,
            0,
            "- Across a repo: `rg -l old | xargs sd old new`; in python files only, add `-t py`.\n",
        );
        search.meta.title = "Repo-wide search and replace".to_owned();
        let mut hot = note(
            here,
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "- edited `src/user.ts` (4×)\n- edited `src/app.ts` (2×)\n",
        );
        hot.meta.title = "Hot files in ledger".to_owned();
        for n in [&crashes, &accounts, &search, &hot] {
            store.put_note(n).await.unwrap();
        }
        for prompt in [
            "why did the app crash for that user last night, where's the report?",
            "the app blew up for a user, where do I find the crash report?",
            "a user says the app keeps crashing, how do I see their report?",
        ] {
            let found = asked(&store, &project, prompt).await;
            assert_eq!(
                found.first().map(|k| k.ends_with("crash-reporting.md")),
                Some(true),
                "{prompt}: {found:?}"
            );
        }
        for prompt in [
            "implement binary search in python",
            "how does binary search work on a sorted python list?",
            "explain the difference between linear and binary search in python",
        ] {
            let found = asked(&store, &project, prompt).await;
            assert!(!found.iter().any(|k| k.ends_with("search-and-replace.md")), "{prompt}: {found:?}");
        }
    }

    #[tokio::test]
    async fn a_note_that_says_it_is_out_of_date_comes_after_what_holds_now() {
        use memory_core::MemoryStore as _;
        let here = Scope::Project("ledger-1".to_owned());
        let titled = |path: &str, title: &str, description: Option<&str>, body: &str| {
            let mut n = note(here.clone(), path, NoteKind::Procedure, 0, body);
            n.meta.title = title.to_owned();
            n.meta.description = description.map(str::to_owned);
            n
        };
        let current = titled(
            "project/ledger/deploy.md",
            "Deploying with Kamal",
            None,
            "Roll back a deploy with `kamal rollback`, then check the health page of each host.\n",
        );
        for old in [
            titled(
                "project/ledger/deploy-old.md",
                "OUTDATED: Capistrano deploys",
                None,
                "Roll back a deploy: `cap rollback`.\n",
            ),
            titled(
                "project/ledger/deploy-old.md",
                "[Deprecated] Deploying from a laptop",
                None,
                "Roll back a deploy by hand.\n",
            ),
            titled(
                "project/ledger/deploy-old.md",
                "Deploy steps",
                Some("Superseded by the Kamal runbook"),
                "Roll back a deploy: `rake rollback`.\n",
            ),
            titled(
                "project/ledger/deploy-old.md",
                "Manual deploys (obsolete)",
                None,
                "Roll back a deploy: check out the last tag.\n",
            ),
        ] {
            assert!(super::is_outdated(&old), "{}", old.meta.title);
            // At a session start, and on a prompt both answer, what holds now comes first.
            let (notes, tools) = ([old.clone(), current.clone()], BTreeSet::new());
            let mut ranked: Vec<&Note> = notes.iter().collect();
            rank_by_usefulness(&mut ranked, &tools, chrono::Utc::now());
            assert_eq!(ranked[0].path.as_str(), "project/ledger/deploy.md", "{}", old.meta.title);
            let store = memory_core::InMemoryStore::new();
            for n in [&old, &current] {
                store.put_note(n).await.unwrap();
            }
            let found = asked(&store, &project(), "how do I roll back a deploy?").await;
            assert_eq!(
                found.first().map(String::as_str),
                Some("project:ledger-1 project/ledger/deploy.md"),
                "{}: {found:?}",
                old.meta.title
            );
            // A start spends its budget on what holds now and only lists the old note.
            let start = super::session_start(&store, &project(), 8_000, &BTreeSet::new(), None)
                .await
                .unwrap()
                .expect("a start");
            assert!(start.text.contains("kamal rollback"), "{}", start.text);
            let old_body = old.body.trim();
            assert!(!start.text.contains(old_body), "{}: {}", old.meta.title, start.text);
            assert!(start.text.contains("`project/ledger/deploy-old.md`"), "listed: {}", start.text);
        }
        assert!(!super::is_outdated(&current));
        let legacy =
            titled("project/ledger/legacy.md", "The legacy billing importer", None, "- runs nightly\n");
        assert!(!super::is_outdated(&legacy), "a note about an old system is current");
    }

    fn project() -> crate::project::Project {
        crate::project::Project {
            id: "ledger-1".to_owned(),
            name: "ledger".to_owned(),
            root: std::path::PathBuf::from("/src/ledger"),
        }
    }

    #[test]
    fn a_session_start_says_each_fact_once_and_shares_the_budget_among_the_notes() {
        let here = Scope::Project("ledger-1".to_owned());
        let conventions = note(
            here.clone(),
            "project/ledger/conventions.md",
            NoteKind::Convention,
            0,
            "Conventions of this project.\n\n- run the suite with `cargo nextest run` (2×, last 2026-12-01)\n- errors via thiserror\n",
        );
        let commands = note(
            here.clone(),
            "project/ledger/commands.md",
            NoteKind::Tool,
            0,
            "Commands run here.\n- `cargo nextest run` (5×, last 2026-12-01)\n- `cargo fmt --all`\n",
        );
        let project = project();
        let mut said = super::Said::new(8_000);
        let entries = super::entries(&[&conventions, &commands], &project, &mut said, &|_| 1.0);
        let (text, shown) = super::fill(
            vec![vec![("## This project\n".to_owned(), entries)]],
            Vec::new(),
            &project,
            2_000,
            true,
        );
        assert_eq!(text.matches("cargo nextest run").count(), 1, "said once: {text}");
        assert!(!text.contains('×'), "no counts: {text}");
        assert!(text.contains("### project/ledger/conventions.md (`conventions.md`)"), "{text}");
        assert!(text.contains("- `cargo fmt --all`"), "{text}");
        assert_eq!(shown.len(), 2, "both whole: {shown:?}");

        // A list whose every item an earlier note said shows no heading over its introduction.
        let flags = note(
            here.clone(),
            "project/ledger/tools/cargo/test-flags.md",
            NoteKind::Tool,
            0,
            "Flags passed to `cargo test` here.\n\n- `cargo fmt --all` (1×)\n",
        );
        let mut said = super::Said::new(8_000);
        let entries = super::entries(&[&commands, &flags], &project, &mut said, &|_| 1.0);
        assert_eq!(
            entries.len(),
            1,
            "only the commands: {:?}",
            entries.iter().map(|e| &e.head).collect::<Vec<_>>()
        );

        // Forty notes of 500 characters in 9,000: each keeps its opening, none is left out.
        let many: Vec<Note> = (0..40)
            .map(|i| {
                let mut body = format!("Note {i} opens with what matters most about topic {i}.\n");
                for j in 0..6 {
                    body.push_str(&format!(
                        "- detail {j} of topic {i}, which says a little more than the last\n"
                    ));
                }
                note(here.clone(), &format!("project/ledger/topic-{i:02}.md"), NoteKind::Fact, 0, &body)
            })
            .collect();
        let refs: Vec<&Note> = many.iter().collect();
        let mut said = super::Said::new(8_000);
        let entries = super::entries(&refs, &project, &mut said, &|_| 1.0);
        let (text, shown) = super::fill(
            vec![vec![("## This project\n".to_owned(), entries)]],
            Vec::new(),
            &project,
            9_000,
            true,
        );
        assert!(text.chars().count() <= 9_000, "{}", text.chars().count());
        for i in 0..40 {
            assert!(text.contains(&format!("Note {i} opens with what matters most about topic {i}.")), "{i}");
        }
        assert!(shown.is_empty(), "notes cut short are still due whole on a prompt: {shown:?}");
        assert!(!text.contains("truncated"), "{text}");

        // Too many for a share worth reading: the least useful are listed by title instead.
        let mut said = super::Said::new(8_000);
        let entries = super::entries(&refs, &project, &mut said, &|n: &Note| {
            if n.path.as_str().ends_with("-00.md") { 2.0 } else { 1.0 }
        });
        let (text, _) = super::fill(
            vec![vec![("## This project\n".to_owned(), entries)]],
            Vec::new(),
            &project,
            3_000,
            true,
        );
        assert!(text.contains("Note 0 opens"), "the most useful is shown: {text}");
        assert!(!text.contains("Note 39 opens"), "left out, not cut to nothing: {text}");
        assert!(text.chars().count() <= 3_000);
    }

    #[test]
    fn a_line_that_introduces_what_follows_is_kept_in_every_note_that_has_it() {
        let here = Scope::Project("ledger-1".to_owned());
        let project = project();
        for intro in ["Setup:", "First-time setup:", "Before a release:", "When the build breaks:"] {
            let first = note(
                here.clone(),
                "project/ledger/a.md",
                NoteKind::Procedure,
                0,
                &format!("{intro}\n\n- `make deps`\n- `make check`\n"),
            );
            let second = note(
                here.clone(),
                "project/ledger/b.md",
                NoteKind::Procedure,
                0,
                &format!("{intro}\n\n- `make check`\n- `make release`\n"),
            );
            let mut said = super::Said::new(8_000);
            let entries = super::entries(&[&first, &second], &project, &mut said, &|_| 1.0);
            let lines: Vec<&Vec<String>> = entries.iter().map(|e| &e.lines).collect();
            assert_eq!(lines.len(), 2, "{intro}: {lines:?}");
            assert_eq!(lines[1].first().map(String::as_str), Some(intro), "{intro}: {lines:?}");
            // What the lists say is still said once.
            assert!(!lines[1].iter().any(|l| l.contains("make check")), "{intro}: {lines:?}");
        }
    }

    /// A user's note and `n` notes of the project, each a long list opened by a line naming it.
    async fn user_and_project_notes(store: &memory_core::InMemoryStore, users: usize, projects: usize) {
        use memory_core::MemoryStore as _;
        let here = Scope::Project("ledger-1".to_owned());
        let list = |what: &str| -> String {
            (0..7)
                .map(|j| format!("- step {j} of {what}, which says a little more than the last\n"))
                .collect()
        };
        for i in 0..projects {
            let body =
                format!("Project note {i} opens with what matters most.\n{}", list(&format!("part {i}")));
            let n =
                note(here.clone(), &format!("project/ledger/part-{i:02}.md"), NoteKind::Procedure, 0, &body);
            store.put_note(&n).await.unwrap();
        }
        for i in 0..users {
            let body = format!("User note {i} opens with what matters most.\n{}", list(&format!("tool {i}")));
            let n = note(Scope::User, &format!("tools/tool-{i:02}.md"), NoteKind::Tool, 0, &body);
            store.put_note(&n).await.unwrap();
        }
    }

    #[tokio::test]
    async fn a_start_keeps_within_its_budget_however_its_notes_are_cut() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        user_and_project_notes(&store, 8, 8).await;
        let rules: String = (0..8)
            .map(|i| format!("- rule {i} of the user, which the agent follows in every project\n"))
            .collect();
        store
            .put_note(&note(Scope::User, "profile/preferences.md", NoteKind::Preference, 0, &rules))
            .await
            .unwrap();
        let project = project();
        let none = BTreeSet::new();
        for budget in (3_000..=9_000).step_by(250) {
            let start = super::session_start(&store, &project, budget, &none, None).await.unwrap().unwrap();
            assert!(start.text.chars().count() <= budget, "{budget}: {}", start.text.chars().count());
            assert!(start.text.contains("rule 0 of the user"), "{budget}: {}", start.text);
            assert!(
                start.text.contains("Project note 7 opens with what matters most."),
                "{budget}: {}",
                start.text
            );
        }
    }

    #[tokio::test]
    async fn where_the_last_session_left_off_closes_the_start_block_within_the_budget() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let left_off = "## Where the last session here left off\n\nCodex session `codex:x`.\n\n";
        let none = BTreeSet::new();
        let alone =
            super::session_start(&store, &project, 2_000, &none, Some(left_off)).await.unwrap().unwrap();
        assert!(
            alone.text.contains(left_off) && alone.notes.is_empty(),
            "given with no notes: {}",
            alone.text
        );
        let body = "- a fact about the ledger that takes some room\n".repeat(80);
        let long =
            note(Scope::Project(project.id.clone()), "project/ledger/facts.md", NoteKind::Fact, 0, &body);
        store.put_note(&long).await.unwrap();
        let both =
            super::session_start(&store, &project, 2_000, &none, Some(left_off)).await.unwrap().unwrap();
        assert!(both.text.chars().count() <= 2_000, "{}", both.text.chars().count());
        let notes_at = both.text.find("a fact about the ledger").expect(&both.text);
        let left_at = both.text.find(left_off).expect(&both.text);
        assert!(
            notes_at < left_at && both.text.ends_with(&format!("{left_off}{}", super::CLOSE)),
            "{}",
            both.text
        );
    }

    #[test]
    fn a_long_note_gives_the_passages_that_match_not_its_first_characters() {
        let mut body = String::from("How releases are cut, step by step.\n\n");
        for i in 0..12 {
            body.push_str(&format!(
                "Paragraph {i} explains a stage of the pipeline in some depth, with enough words to take room.\n\n"
            ));
        }
        body.push_str(
            "Rolling back: redeploy the previous tag with `deploy --tag <previous>`; never revert on main.\n",
        );
        let terms = memory_core::search::expand("how do I roll back a bad deploy");
        let out = focused(&body, &terms, &[], None, 400, false);
        assert!(out.chars().count() <= 400, "{}", out.chars().count());
        assert!(out.contains("Rolling back: redeploy the previous tag"), "{out}");
        assert!(out.starts_with("How releases are cut"), "the opening, for context: {out}");
        assert!(out.contains('…'), "what was left out is marked: {out}");
        assert!(!out.contains("truncated"), "{out}");
        let by_meaning =
            focused(&body, &[], &[], Some("Paragraph 7 explains a stage of the pipeline"), 300, false);
        assert!(by_meaning.contains("Paragraph 7 explains"), "{by_meaning}");
        // However many passages match, a short opening leads them: it says what the note is about.
        let mut runbook = String::from("Deploys of the ledger, by stage.\n\n");
        for stage in ["canary", "staging", "production", "rollback"] {
            runbook.push_str(&format!(
                "- {stage}: a bad deploy is rolled back with `deploy --tag <previous>` and a note in #ledger-deploys.\n"
            ));
        }
        let out = focused(&runbook, &terms, &[], None, 330, false);
        assert!(out.starts_with("Deploys of the ledger, by stage."), "{out}");
        assert!(out.contains("rolled back"), "{out}");
        // One passage longer than the room: its start, cut at a word.
        let single = "word ".repeat(200);
        let cut = focused(&single, &[], &[], None, 100, false);
        assert!(cut.chars().count() <= 100 && cut.ends_with('…'), "{cut}");
    }

    /// The notes a fresh session is given for `prompt` by words alone, with the default settings.
    async fn asked(
        store: &dyn memory_core::MemoryStore,
        project: &crate::project::Project,
        prompt: &str,
    ) -> Vec<String> {
        let config = crate::config::HookConfig::default();
        injected(store, project, prompt, &config, 2_400).await.map(|i| i.notes).unwrap_or_default()
    }

    /// Asserts that each prompt of `cases` finds the note whose path ends with its second part.
    async fn finds_each(
        store: &dyn memory_core::MemoryStore,
        project: &crate::project::Project,
        cases: &[(&str, &str)],
    ) {
        for (prompt, wanted) in cases {
            let found = asked(store, project, prompt).await;
            assert!(found.iter().any(|k| k.ends_with(wanted)), "{prompt}: {found:?}");
        }
    }

    /// Asserts that what each prompt of `cases` gets, with the default settings, says its second
    /// part.
    async fn gives_each(
        store: &dyn memory_core::MemoryStore,
        project: &crate::project::Project,
        cases: &[(&str, &str)],
    ) {
        let config = crate::config::HookConfig::default();
        for (prompt, said) in cases {
            let text =
                injected(store, project, prompt, &config, 2_400).await.map(|i| i.text).unwrap_or_default();
            assert!(text.contains(said), "{prompt}:\n{text}");
        }
    }

    /// Asserts that none of `prompts` gets a note.
    async fn finds_nothing(
        store: &dyn memory_core::MemoryStore,
        project: &crate::project::Project,
        prompts: &[&str],
    ) {
        for prompt in prompts {
            assert_eq!(asked(store, project, prompt).await, Vec::<String>::new(), "{prompt}");
        }
    }

    /// Stores each `(path, body)` as a procedure of `project`.
    async fn procedures(
        store: &memory_core::InMemoryStore,
        project: &crate::project::Project,
        notes: &[(&str, &str)],
    ) {
        use memory_core::MemoryStore as _;
        let here = Scope::Project(project.id.clone());
        for (path, body) in notes {
            store.put_note(&note(here.clone(), path, NoteKind::Procedure, 0, body)).await.unwrap();
        }
    }

    /// Questions about computing in general, which no note of a project answers.
    const GENERAL_QUESTIONS: &[&str] =
        &["what is the difference between a thread and a process?", "write a short poem about the sea"];

    /// What a prompt in a fresh session gets, words only.
    async fn injected(
        store: &dyn memory_core::MemoryStore,
        project: &crate::project::Project,
        prompt: &str,
        config: &crate::config::HookConfig,
        budget: usize,
    ) -> Option<super::Injection> {
        super::for_prompt(store, project, prompt, &BTreeSet::new(), config, budget, None).await.unwrap()
    }

    #[tokio::test]
    async fn two_words_of_one_meaning_in_a_question_asked_in_general_count_once() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let mut queries = note(
            Scope::Project(project.id.clone()),
            "project/ledger/queries.md",
            NoteKind::Procedure,
            0,
            "Every read and write of the database goes through generated code.\n\n\
             - Write the query in `db/queries/<table>.sql` under a name comment; `make gen` turns it into Go.\n\
             - Nullable parameters use `narg`, lists of ids use `slice`.\n",
        );
        queries.meta.title = "Writing database queries".to_owned();
        store.put_note(&queries).await.unwrap();
        store
            .put_note(&note(
                Scope::User,
                "tools/psql.md",
                NoteKind::Tool,
                0,
                "psql habits.\n\n- Query plans: `EXPLAIN (ANALYZE, BUFFERS)`.\n\
                 - Slowest queries: `select query, calls from pg_stat_statements order by total_exec_time desc`.\n",
            ))
            .await
            .unwrap();
        let config = crate::config::HookConfig::default();
        // An exercise in SQL says "sql" and "query": one thing asked, shared with the note by chance.
        for prompt in [
            "write an SQL query returning each customer's order count from an orders table",
            "give me a sql query that picks rows with a null email from a customers table",
            "show me a query in SQL to get second highest salary from an employees table",
        ] {
            let given = injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.notes);
            assert_eq!(given, None, "{prompt}");
        }
        // The work here still gets it.
        let given =
            injected(&store, &project, "where do I put a new sql query for the ledger?", &config, 2_400)
                .await
                .map(|i| i.notes)
                .unwrap_or_default();
        assert_eq!(given.first().map(String::as_str), Some("project:ledger-1 project/ledger/queries.md"));
    }

    /// A runbook longer than a prompt's budget: sections of steps, their code in fenced blocks
    /// after a blank line, and the facts asked for far from its opening.
    fn runbook() -> String {
        let mut body = String::from("Operating the search cache.\n\n## Background\n\n");
        for i in 0..10 {
            body.push_str(&format!(
                "Paragraph {i} of the background explains how the search cache and its sync work, \
                 with enough words about the search cache to take room.\n\n"
            ));
        }
        body.push_str(
            "## Clearing the search cache\n\n\
             1. Find the search cache pod:\n\n    ```\n    kubectl get pods | grep search-cache\n    ```\n\n\
             2. Open a shell in the pod and wipe every key:\n\n    ```\n    redis-cli FLUSHALL\n    ```\n\n\
             ## Sync taking a long time\n\n\
             The nightly sync usually finishes within 4 hours; past 9 hours it pages the on-call developer.\n\n\
             ## Counting keys\n\n\
             `INFO keyspace` in redis-cli shows how many keys the cache holds.\n",
        );
        body
    }

    #[tokio::test]
    async fn a_long_document_gives_the_passage_that_answers_with_its_code_whatever_its_length() {
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let filler = |topic: &str| {
            let mut body = format!("About the {topic}.\n\n");
            for i in 0..30 {
                body.push_str(&format!(
                    "Section {i} on the {topic} and the search cache it feeds, at length.\n\n"
                ));
            }
            body
        };
        procedures(
            &store,
            &project,
            &[
                ("project/ledger/search-cache.md", &runbook()),
                ("project/ledger/indexer.md", &filler("indexer")),
                ("project/ledger/crawler.md", &filler("crawler")),
            ],
        )
        .await;
        let config = crate::config::HookConfig::default();
        for (prompt, fact) in [
            // The step asked for, and its code in the block after it.
            ("stale results in search, how do I wipe the search cache?", "redis-cli FLUSHALL"),
            ("which pod do I exec into to clear the search cache", "grep search-cache"),
            // A passage found by the heading of its section.
            ("the search cache sync is still running after six hours, is that a long time?", "9 hours"),
            // A word the rest of the document does not have tells the passage.
            ("how many keys are in the search cache right now?", "INFO keyspace"),
        ] {
            let text =
                injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.text).unwrap_or_default();
            assert!(text.contains(fact), "{prompt}:\n{text}");
            assert!(text.chars().count() <= 2_400, "{prompt}: {}", text.chars().count());
        }
    }

    #[test]
    fn a_passage_is_read_under_every_heading_it_sits_under() {
        let mut body = String::from("# Choosing a configuration language\n\n");
        for i in 0..8 {
            body.push_str(&format!(
                "Background {i}: what configuration we write today and where it lives, at length.\n\n"
            ));
        }
        body.push_str(
            "## Candidates\n\n- Cue, from its website\n- Dhall\n- Jsonnet\n\n\
             We dropped most candidates early and kept two for a trial.\n\n\
             ## Reasons for dropping candidates early\n\n\
             ### Cue\n\nIt lacks editor support, and its package ecosystem is thin.\n\n\
             ### Dhall\n\nIts imports need a bundler of their own.\n",
        );
        for prompt in
            ["why was cue dropped?", "what were the reasons we dropped cue", "cue got dropped early, why"]
        {
            let out = focused(&body, &memory_core::search::expand(prompt), &[], None, 130, true);
            assert!(out.contains("lacks editor support"), "{prompt}:\n{out}");
        }
    }

    #[test]
    fn the_room_a_note_does_not_need_goes_to_the_others_and_the_best_note_weighs_twice() {
        // Every note fits: each gets what it needs.
        assert_eq!(super::shares(2_000, &[300, 400, 500]), [300, 400, 500]);
        // Short notes beside a long document: the document gets what they leave.
        assert_eq!(super::shares(2_000, &[5_000, 200, 300]), [1_500, 200, 300]);
        assert_eq!(super::shares(2_000, &[300, 5_000, 200]), [300, 1_500, 200]);
        // Three long documents: the best has half the room, the others a quarter each.
        assert_eq!(super::shares(2_000, &[5_000, 5_000, 5_000]), [1_000, 500, 500]);
        // Never more than the room.
        for wanted in [[0, 0, 0], [2_001, 1, 1], [700, 700, 700]] {
            assert!(super::shares(2_000, &wanted).iter().sum::<usize>() <= 2_000, "{wanted:?}");
        }
    }

    #[test]
    fn among_passages_equal_by_words_the_closest_in_meaning_comes_first() {
        // Each case: a document whose passages all have the prompt's words from the heading they
        // sit under, the passage answering the prompt late in it, and how close in meaning each
        // passage is to the prompt (the answer second only to another).
        let cases = [
            (
                "## Restoring the orders database\n\n",
                (1..=9)
                    .map(|i| format!("{i}. Step {i} of the restore, described at some length here."))
                    .collect::<Vec<_>>(),
                "8. Compare the row counts with yesterday's report.",
                "restoring the orders database: how do I know it worked?",
            ),
            (
                "## Rotating the signing keys\n\n",
                (1..=9)
                    .map(|i| {
                        format!("Paragraph {i} of the rotation, at about the same length as the others.")
                    })
                    .collect(),
                "Old keys stay valid for a day, so tokens already issued keep working.",
                "when rotating the signing keys, do people get logged out?",
            ),
            (
                "## Paging\n\nThe pager is set up to:\n\n",
                (1..=9).map(|i| format!("- rule {i} of the paging setup, spelled out in full")).collect(),
                "- wake the secondary after fifteen minutes without an answer",
                "paging: what happens if I sleep through it?",
            ),
        ];
        for (heading, others, answer, prompt) in cases {
            let mut passages = others.clone();
            passages.insert(7, answer.to_owned());
            let body = format!("{heading}{}", passages.join("\n\n"));
            let text = |p: &str| p.trim_start_matches(['-', ' ']).to_owned();
            // Closest: the first passage; then the answer; the rest further off.
            let similar: Vec<(String, f32)> = passages
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    (
                        text(p),
                        if i == 0 {
                            0.6
                        } else if p == answer {
                            0.5
                        } else {
                            0.1
                        },
                    )
                })
                .collect();
            let terms = memory_core::search::expand(prompt);
            let read = super::Passages::read(&body, &terms, &[], &similar, false);
            let out = read.within(3 * 75, false);
            assert!(out.contains(answer.trim_start_matches("- ")), "{prompt}:\n{out}");
            // By words alone, the passages come in the document's order.
            let words_only = super::Passages::read(&body, &terms, &[], &[], false).within(3 * 75, false);
            assert!(!words_only.contains(answer.trim_start_matches("- ")), "{prompt}:\n{words_only}");
        }
    }

    #[test]
    fn a_link_is_shown_by_its_words_and_a_comment_inside_a_passage_never() {
        let mut body = String::from("Helm at the platform team.\n\n");
        for i in 0..10 {
            body.push_str(&format!(
                "Background paragraph {i} on charts and how they came to be, at some length.\n\n"
            ));
        }
        // As written, with where its links go, the passage is longer than the room given.
        body.push_str(
            "<!-- vale RedHat.PassiveVoice = NO -->\n\
             Helm keeps a [release history](https://helm.example.org/docs/helm/helm_history/#listing-every-revision) \
             and can [roll back](https://helm.example.org/docs/helm/helm_rollback/#rolling-back-to-a-revision) \
             to an earlier release, but take care with apps whose \
             [database migrations](https://wiki.example.org/platform/how-we-run-database-migrations) already ran.\n",
        );
        let passage = body.rsplit("\n\n").next().unwrap().chars().count();
        for prompt in [
            "is it safe to helm rollback an app to the previous release?",
            "can I roll back a release with helm, any catch?",
            "what should I watch out for when going back to an earlier helm release",
        ] {
            let out = focused(&body, &memory_core::search::expand(prompt), &[], None, 320, false);
            assert!(passage > 320, "the passage as written does not fit: {passage}");
            assert!(out.contains("already ran"), "{prompt}:\n{out}");
            assert!(out.contains("can roll back to an earlier release"), "a link reads as its words: {out}");
            assert!(!out.contains("example.org") && !out.contains("vale"), "{prompt}:\n{out}");
        }
    }

    #[test]
    fn a_paragraph_between_two_linter_directives_is_read_as_text() {
        let mut body = String::from("Choosing a deployment tool.\n\n");
        for i in 0..10 {
            body.push_str(&format!(
                "Background paragraph {i} on pipelines and how they came to be, at some length.\n\n"
            ));
        }
        // The paragraph opens and closes with a comment: as a whole it is text, not markup.
        body.push_str(
            "<!-- vale RedHat.SentenceLength = NO -->\n\
             We ruled out Kargo because promoting between clusters relies on sharding, which its \
             maintainers will not document.\n\
             <!-- vale RedHat.SentenceLength = YES -->\n\n\
             Background paragraph on pipelines and what came after, at some length.\n",
        );
        for prompt in [
            "why did we rule out kargo?",
            "what was wrong with Kargo for promoting builds between clusters",
            "kargo: the reason we dropped it",
        ] {
            let out = focused(&body, &memory_core::search::expand(prompt), &[], None, 320, false);
            assert!(out.contains("relies on sharding"), "{prompt}:\n{out}");
            assert!(!out.contains("vale"), "{prompt}:\n{out}");
        }
    }

    #[test]
    fn code_and_list_items_are_read_with_what_introduces_them_and_markup_never_shown() {
        let mut body = String::from("Running the council links service.\n\n");
        for i in 0..12 {
            body.push_str(&format!(
                "Background paragraph {i} about how the service came to be, at some length.\n\n"
            ));
        }
        body.push_str(
            "Then run the rake task that adds empty links for every council.\n\n\
             ```\nbundle exec rails import:gaps\n```\n\n\
             Uptime checks are configured to:\n\n- be considered down after 30 seconds\n- send an alert after 5 mins\n\n\
             [council-links-guide]: https://example.org/how-to-add-empty-links-for-every-council-and-check-uptime\n\n\
             <!-- vale off: council links, uptime checks and rake task names are spelled as they are -->\n",
        );
        for (prompt, shown) in [
            // Code is given with the paragraph that introduces it.
            ("how do I add empty links for every council?", "import:gaps"),
            ("create blank links for each council", "import:gaps"),
            ("which rake task fills in the council links", "import:gaps"),
            // The items of a list, with the line that introduces them.
            ("how are the uptime checks configured?", "after 5 mins"),
            ("what are the settings of our uptime checks", "after 5 mins"),
            ("tell me how uptime checks behave", "after 5 mins"),
        ] {
            let out = focused(&body, &memory_core::search::expand(prompt), &[], None, 400, true);
            assert!(out.contains(shown), "{prompt}:\n{out}");
            // Where a link goes, or a note to a linter, is nothing to show, whatever its words.
            assert!(!out.contains("example.org"), "{prompt}:\n{out}");
            assert!(!out.contains("vale off"), "{prompt}:\n{out}");
        }
    }

    #[tokio::test]
    async fn where_something_is_in_the_code_is_answered_by_what_the_files_were_edited_for() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let hot = note(
            here.clone(),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited and read most often in this project.\n\n- edited `src/ingest/csv_reader.rs` — bom, header, column, matching (3×, last 2026-12-01)\n- edited `src/sync/queue.ts` — retry, backoff, upload, photos (2×, last 2026-12-01)\n- edited `app/services/picker.rb` — stock, substitute, price (2×, last 2026-12-01)\n",
        );
        let conventions = note(
            here,
            "project/ledger/conventions.md",
            NoteKind::Convention,
            0,
            "- uploads go through the sync queue, never straight to the api\n",
        );
        for n in [&hot, &conventions] {
            store.put_note(n).await.unwrap();
        }
        let config = crate::config::HookConfig::default();
        for (prompt, file) in [
            ("where's the header parsing code?", "csv_reader.rs"),
            ("where is the upload retry logic?", "queue.ts"),
            ("where do we decide which substitute replaces an out of stock product?", "picker.rb"),
            ("which file has the backoff for photo uploads?", "queue.ts"),
        ] {
            let text =
                injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.text).unwrap_or_default();
            assert!(text.contains(file), "{prompt}: {text}");
        }
        // Asked anything else, and at a session start, the files are listed as they were edited.
        for prompt in
            ["add jitter to the upload retry", "the header row has a bom again", "bump the retry backoff"]
        {
            let text =
                injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.text).unwrap_or_default();
            assert!(!text.contains(" — "), "{prompt}: {text}");
        }
        let none = BTreeSet::new();
        let start = super::session_start(&store, &project, 4_000, &none, None).await.unwrap().unwrap();
        assert!(
            start.text.contains("csv_reader.rs") && !start.text.contains("bom, header"),
            "{}",
            start.text
        );
    }

    #[tokio::test]
    async fn a_note_that_alone_has_a_telling_word_of_the_prompt_answers_it_by_that_word() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        procedures(
            &store,
            &project,
            &[
                (
                    "project/ledger/translations.md",
                    "German and French pages are translated in Crowdin; never edit `docs/de/` by hand.\n",
                ),
                (
                    "project/ledger/on-call.md",
                    "Paged: acknowledge in PagerDuty within 5 minutes, then open an incident channel.\n",
                ),
                (
                    "project/ledger/vault.md",
                    "After a restart Vault is sealed: three of the five key holders unseal it.\n",
                ),
            ],
        )
        .await;
        // Many notes that share the prompts' other words, each word with dozens of them.
        for i in 0..80 {
            let (a, b, c) = (
                ["customer", "mistake", "copy"][i % 3],
                ["night", "first"][i % 2],
                ["locked", "reboot"][i % 2],
            );
            let body = format!("Part {i} of the handbook: the {a}, the {b} and the {c} of module {i}.\n");
            let n = note(here.clone(), &format!("project/ledger/part-{i:02}.md"), NoteKind::Fact, 0, &body);
            store.put_note(&n).await.unwrap();
        }
        for (prompt, wanted) in [
            (
                "a customer spotted a mistake in the non-English copy, may I correct it myself?",
                "translations.md",
            ),
            ("I just got paged in the night, what do I do?", "on-call.md"),
            ("the secrets store is locked after the reboot, what now?", "vault.md"),
        ] {
            let found = asked(&store, &project, prompt).await;
            assert!(found.first().is_some_and(|k| k.ends_with(wanted)), "{prompt}: {found:?}");
            // The words every part of the handbook has tell none of them apart.
            assert!(!found.iter().any(|k| k.contains("/part-")), "{prompt}: {found:?}");
        }
    }

    #[tokio::test]
    async fn general_questions_get_nothing_and_the_profile_comes_only_on_a_strong_match() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let bisect = note(
            Scope::User,
            "procedures/bisect.md",
            NoteKind::Procedure,
            0,
            "Finding the commit that broke something: `git bisect start`, mark good and bad commits, go back with `git bisect reset`.\n",
        );
        let profile = note(
            Scope::User,
            "profile/about.md",
            NoteKind::Profile,
            0,
            "Works mostly in Rust, on a laptop, in short sessions; likes small commits.\n",
        );
        let deploy = note(
            here,
            "project/ledger/deploy.md",
            NoteKind::Procedure,
            0,
            "Deploys go through the release pipeline: tag, push the tag, approve the rollout.\n",
        );
        for n in [&bisect, &profile, &deploy] {
            store.put_note(n).await.unwrap();
        }
        let ask = |prompt: &'static str| asked(&store, &project, prompt);
        for general in [
            "is it good to go back to running after a knee injury?",
            "what makes a good first sentence for a short story?",
            "explain why the sky looks darker on a winter evening",
        ] {
            assert_eq!(ask(general).await, Vec::<String>::new(), "{general}");
        }
        let found = ask("how do I find which commit broke the build with git bisect?").await;
        assert!(found.iter().any(|k| k.ends_with("procedures/bisect.md")), "{found:?}");
        let found = ask("push the release tag for the rollout").await;
        assert!(found.iter().any(|k| k.ends_with("deploy.md")), "{found:?}");
        assert!(!found.iter().any(|k| k.ends_with("profile/about.md")), "{found:?}");
        let found = ask("small commits in rust on my laptop").await;
        assert!(found.iter().any(|k| k.ends_with("profile/about.md")), "a strong match: {found:?}");
    }

    #[tokio::test]
    async fn a_word_many_notes_share_is_no_answer_to_a_general_question() {
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let notes = [
            (
                "project/ledger/setup.md",
                "Local database: `docker compose up -d db`, then `bin/setup` seeds it.\n",
            ),
            (
                "project/ledger/migrations.md",
                "Database migrations on the big tables run `algorithm: :concurrently`.\n",
            ),
            (
                "project/ledger/perf.md",
                "Slow pages: look at the database's query plan with `EXPLAIN ANALYZE`.\n",
            ),
            (
                "project/ledger/access.md",
                "Production database access goes through the bastion, ask #platform.\n",
            ),
            (
                "project/ledger/backups.md",
                "The database is backed up nightly to the `ledger-backups` bucket.\n",
            ),
            (
                "project/ledger/flyway.md",
                "Flyway checksum mismatch: run `flyway repair`, never edit an applied script.\n",
            ),
        ];
        procedures(&store, &project, &notes).await;
        let ask = |prompt: &'static str| asked(&store, &project, prompt);
        for general in [
            "explain database normalisation up to the third normal form",
            "how do database indexes speed up reads in general, with an analogy",
            "is a database or a spreadsheet better for a small bakery's orders",
        ] {
            assert_eq!(ask(general).await, Vec::<String>::new(), "{general}");
        }
        // A word few notes have is an answer on its own.
        let found = ask("the flyway checksum thing again, what was it").await;
        assert!(found.iter().any(|k| k.ends_with("flyway.md")), "{found:?}");
        let found = ask("where do the nightly backups of the database go").await;
        assert!(found.iter().any(|k| k.ends_with("backups.md")), "{found:?}");
    }

    #[tokio::test]
    async fn a_function_named_in_a_general_question_is_no_sign_of_the_users_code() {
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let notes = [
            (
                "project/ledger/backfill.md",
                "Backfilling partitions: run the model over each date partition, a week at a time.\n",
            ),
            (
                "project/ledger/auth.md",
                "Sessions time out after 30 minutes; the token refresh runs in a promise chain before \
                 each request.\n",
            ),
            (
                "project/ledger/frontend.md",
                "The dashboard is React with hooks; memoize the expensive table rows.\n",
            ),
            (
                "project/ledger/sync.md",
                "`sync_orders()` retries a failed page three times, then leaves it to the nightly run.\n",
            ),
        ];
        procedures(&store, &project, &notes).await;
        let ask = |prompt: &'static str| asked(&store, &project, prompt);
        for general in [
            "how does row_number() over (partition by date) work",
            "how does the javascript event loop order promises and setTimeout?",
            "what's the difference between useMemo and useCallback in react?",
        ] {
            assert_eq!(ask(general).await, Vec::<String>::new(), "{general}");
        }
        // Code the notes name is the user's.
        let found = ask("how does sync_orders() handle a failed page").await;
        assert!(found.iter().any(|k| k.ends_with("sync.md")), "{found:?}");
    }

    #[tokio::test]
    async fn saying_when_makes_a_short_prompt_no_less_about_its_note() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let here = Scope::Project(project.id.clone());
        let backfill = note(
            here.clone(),
            "project/ledger/backfill.md",
            NoteKind::Procedure,
            0,
            "Recomputing past days: `airflow dags backfill ledger_daily -s <from> -e <to>`, a week at most.\n",
        );
        let rotate = note(
            here,
            "project/ledger/certificates.md",
            NoteKind::Procedure,
            0,
            "Certificates are rotated with `make rotate-certs`; the old ones stay valid for a day.\n",
        );
        for n in [&backfill, &rotate] {
            store.put_note(n).await.unwrap();
        }
        let config = crate::config::HookConfig::default();
        for (prompt, wanted) in [
            ("backfill last week", "backfill.md"),
            ("rerun the backfill from last night", "backfill.md"),
            ("backfill yesterday and the day before", "backfill.md"),
            ("rotate the certs tomorrow morning", "certificates.md"),
        ] {
            let found = super::for_prompt(&store, &project, prompt, &BTreeSet::new(), &config, 2_400, None)
                .await
                .unwrap()
                .map(|i| i.notes)
                .unwrap_or_default();
            assert!(found.iter().any(|k| k.ends_with(wanted)), "{prompt}: {found:?}");
        }
        // Saying when alone is about nothing.
        for vague in ["what did we do yesterday", "plans for next week"] {
            let found = super::for_prompt(&store, &project, vague, &BTreeSet::new(), &config, 2_400, None)
                .await
                .unwrap();
            assert!(found.is_none(), "{vague}: {found:?}");
        }
    }

    #[test]
    fn a_file_is_named_by_the_words_it_is_made_of() {
        assert_eq!(
            super::identifier_parts("src/render/vk_swapchain.cpp"),
            ["src", "render", "vk", "swapchain", "cpp"]
        );
        assert_eq!(super::identifier_parts("CheckoutFlowView.swift"), ["checkout", "flow", "view", "swift"]);
        assert_eq!(super::identifier_parts("./gradlew ktlintFormat"), ["gradlew", "ktlint", "format"]);
        let project = project();
        let hot = note(
            Scope::Project(project.id.clone()),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- `src/render/vk_swapchain.cpp` (7×)\n- `config/scheduler.toml` (3×)\n- `Sources/App/CheckoutFlowView.swift` (2×)\n",
        );
        for (prompt, named) in [
            ("where's the swapchain recreation code?", true),
            ("bump the retry count in the scheduler config", true),
            ("the checkout screen flickers on rotation", true),
            // Short parts of file names are common words, and a user's note names files of every
            // project.
            ("give me five names for a team", false),
            ("what is a swift closure?", false),
        ] {
            let terms = memory_core::search::expand(prompt);
            assert_eq!(super::names_file(&hot, &super::file_words(&terms)), named, "{prompt}");
        }
        let mut users = hot.clone();
        users.meta.scope = Scope::User;
        let terms = memory_core::search::expand("where's the swapchain code?");
        assert!(!super::names_file(&users, &super::file_words(&terms)));
    }

    #[tokio::test]
    async fn a_task_that_names_a_thing_of_work_gets_the_short_fact_about_it() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let preferences = note(
            Scope::User,
            "profile/preferences.md",
            NoteKind::Preference,
            0,
            "Preferences the user stated.\n\n- new branches with git switch -c, never git checkout -b\n             - leave TODOs as TODO(sam): with the reason\n- long flags in scripts, `--recursive` not `-r`\n",
        );
        let conventions = note(
            Scope::Project(project.id.clone()),
            "project/ledger/conventions.md",
            NoteKind::Convention,
            0,
            "Conventions of ledger.\n\n- warnings are errors in CI, never silence them with pragmas\n             - amounts are integer cents, never floats\n",
        );
        let files = note(
            Scope::Project(project.id.clone()),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- edited `scripts/release.sh` (4×)\n- edited `src/branch_rules.rs` (2×)\n",
        );
        for n in [&preferences, &conventions, &files] {
            store.put_note(n).await.unwrap();
        }
        let config = crate::config::HookConfig::default();
        let ask = |prompt: &'static str| {
            let (store, project, config) = (&store, &project, &config);
            async move {
                super::for_prompt(store, project, prompt, &BTreeSet::new(), config, 2_400, None)
                    .await
                    .unwrap()
                    .map(|i| (i.notes, i.text))
                    .unwrap_or_default()
            }
        };
        for (prompt, fact) in [
            ("make a branch for the retry work", "git switch"),
            ("start a new branch off main for the invoice export", "git switch"),
            ("leave a todo in the parser about the edge case", "TODO(sam)"),
            ("write me a script that cleans the build folder", "--recursive"),
            ("there's a warning in the renderer, can I silence it?", "pragmas"),
        ] {
            let (notes, text) = ask(prompt).await;
            assert!(text.contains(fact), "{prompt}: {notes:?}\n{text}");
            // The rule the user stated comes before a list of files that shares the word.
            let first = notes.first().map(String::as_str).unwrap_or_default();
            assert!(!first.ends_with("hot-files.md"), "{prompt}: {notes:?}");
        }
        // Concepts of computing asked about in general, and tasks with no work word, get nothing.
        for general in [
            "explain how a hash map handles collisions",
            "what is the difference between a thread and a process?",
            "write a short poem about the sea",
        ] {
            assert_eq!(ask(general).await.0, Vec::<String>::new(), "{general}");
        }
    }

    #[tokio::test]
    async fn commands_that_run_the_topic_do_not_hide_the_rule_about_it() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let scope = Scope::Project(project.id.clone());
        let notes = [
            note(
                scope.clone(),
                "project/ledger/conventions.md",
                NoteKind::Convention,
                0,
                "Conventions of ledger.\n\n- new tests are table-driven, one case a row\n- keep the CHANGELOG current\n",
            ),
            note(
                scope.clone(),
                "project/ledger/commands.md",
                NoteKind::Procedure,
                0,
                "Commands run.\n\n- `go test ./...` (6×)\n- `go test -run TestImport ./importer` (2×)\n",
            ),
            note(
                scope,
                "project/ledger/errors.md",
                NoteKind::Procedure,
                0,
                "Errors and fixes.\n\n- `go test ./...` failed with \"missing go.sum entry\"; it passed after `go mod tidy`\n",
            ),
            note(
                Scope::User,
                "profile/preferences.md",
                NoteKind::Preference,
                0,
                "Preferences.\n\n- integration tests never hit the network\n- keep PRs small\n",
            ),
        ];
        for n in &notes {
            store.put_note(n).await.unwrap();
        }
        for prompt in [
            "write tests for the recurrence parser",
            "add a test for the retry backoff",
            "the csv importer needs tests",
        ] {
            let notes = asked(&store, &project, prompt).await;
            assert!(notes.iter().any(|n| n.ends_with("conventions.md")), "{prompt}: {notes:?}");
        }
    }

    #[tokio::test]
    async fn a_task_asked_without_naming_its_topic_gets_the_rule_about_the_topic() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let conventions = note(
            Scope::Project(project.id.clone()),
            "project/ledger/conventions.md",
            NoteKind::Convention,
            0,
            "Conventions of ledger.\n\n- errors in the public api are typed throws, not Result return types\n\
             - money is integer cents everywhere, never floats\n- releases go out with kamal from main\n",
        );
        let files = note(
            Scope::Project(project.id.clone()),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- edited `src/parser.rs` (4×)\n- edited `src/webhook.rs` (2×)\n",
        );
        for n in [&conventions, &files] {
            store.put_note(n).await.unwrap();
        }
        gives_each(
            &store,
            &project,
            &[
                ("how should the new RecurrenceParser report bad input?", "typed throws"),
                ("the mesh loader should tell the caller when the file is missing", "typed throws"),
                ("what should the importer do on invalid input?", "typed throws"),
                ("add a refund amount to the webhook payload", "integer cents"),
                ("show the prices on the cart page", "integer cents"),
                ("the invoice total needs a currency next to it", "integer cents"),
                ("ship current main to staging", "kamal"),
                ("how do we get the new version onto staging?", "kamal"),
                ("deploy the fix", "kamal"),
                ("how do I get my change out to customers?", "kamal"),
                ("when does the new pricing page go live?", "kamal"),
                ("the onboarding flow goes live this afternoon, get it ready", "kamal"),
            ],
        )
        .await;
        // A question about computing in general is not a task of this project's.
        finds_nothing(&store, &project, GENERAL_QUESTIONS).await;
    }

    #[tokio::test]
    async fn a_passage_about_the_asked_topic_counts_as_a_word_of_the_prompt() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let scope = Scope::Project(project.id.clone());
        let mut conventions = String::from("Conventions of ledger.\n\n");
        for i in 0..14 {
            conventions.push_str(&format!(
                "- module {i} keeps its fixtures beside its code, never in a shared folder\n"
            ));
        }
        conventions
            .push_str("- the forecast import runs hourly\n- we do calver here, YYYY.MM.patch in app.json\n");
        let notes = [
            note(scope.clone(), "project/ledger/conventions.md", NoteKind::Convention, 0, &conventions),
            note(
                scope.clone(),
                "project/ledger/errors.md",
                NoteKind::Procedure,
                0,
                "Errors and fixes.\n\n- `deno task forecast` failed with \"timeout\"; it passed with `--allow-net`\n",
            ),
            note(
                scope,
                "project/ledger/hot-files.md",
                NoteKind::Fact,
                0,
                "Files edited most.\n\n- edited `src/forecast.ts` (4×)\n",
            ),
            note(
                Scope::User,
                "profile/preferences.md",
                NoteKind::Preference,
                0,
                "Preferences.\n\n- when you give me timings, the median of at least 5 runs\n- keep PRs small\n",
            ),
        ];
        for n in &notes {
            store.put_note(n).await.unwrap();
        }
        for prompt in [
            "how fast is the forecast endpoint now?",
            "what's the latency of the forecast endpoint these days",
            "give me timings for the forecast endpoint",
        ] {
            // The rule about timings comes before a list of files that shares a word of the prompt.
            let config = crate::config::HookConfig { prompt_max_notes: 1, ..Default::default() };
            let notes =
                injected(&store, &project, prompt, &config, 2_400).await.map(|i| i.notes).unwrap_or_default();
            assert_eq!(notes, ["user profile/preferences.md"], "{prompt}");
        }
        // Within a long note, the passage about the topic is the one shown.
        let config = crate::config::HookConfig::default();
        for prompt in [
            "bump the version for the december release",
            "cut a release from main",
            "what's the next version?",
        ] {
            let text =
                injected(&store, &project, prompt, &config, 900).await.map(|i| i.text).unwrap_or_default();
            assert!(text.contains("calver"), "{prompt}:\n{text}");
        }
    }

    #[tokio::test]
    async fn a_folder_or_a_quoted_message_naming_the_topic_does_not_hide_the_rule_about_it() {
        use memory_core::MemoryStore as _;
        let store = memory_core::InMemoryStore::new();
        let project = project();
        let project_scope = Scope::Project(project.id.clone());
        let preferences = note(
            Scope::User,
            "profile/preferences.md",
            NoteKind::Preference,
            0,
            "Preferences the user stated.\n\n- i like table-driven tests over copy pasted cases\n\
             - keep PRs small\n- answer with the command first\n",
        );
        let commands = note(
            project_scope.clone(),
            "project/ledger/commands.md",
            NoteKind::Procedure,
            0,
            "Commands run.\n\n- `uv run pytest tests/ledger -q` (5×)\n- `uv run ruff check` (2×)\n\
             - `uv run pytest tests/importer -k csv` (1×)\n",
        );
        let files = note(
            project_scope.clone(),
            "project/ledger/hot-files.md",
            NoteKind::Fact,
            0,
            "Files edited most.\n\n- edited `tests/ledger/retry_test.go` (4×)\n- edited `tests/fixtures/invoices.csv` (2×)\n",
        );
        let errors = note(
            project_scope.clone(),
            "project/ledger/errors.md",
            NoteKind::Procedure,
            0,
            "Errors and fixes.\n\n- `uv run pytest -q` failed with \"database \\\"ledger_test\\\" does not exist\"; it \
             passed with `--create-db` added\n",
        );
        let docs = note(
            project_scope,
            "project/ledger/docs.md",
            NoteKind::Fact,
            0,
            "Docs.\n\n- the test matrix runs against postgres 15 and 16\n",
        );
        for n in [&preferences, &commands, &files, &errors, &docs] {
            store.put_note(n).await.unwrap();
        }
        for prompt in [
            "write tests for the bulk discount thresholds: 9, 10 and 25 units",
            "add a test for the retry backoff",
            "cover the csv importer with tests before we touch it",
        ] {
            let notes = asked(&store, &project, prompt).await;
            assert!(notes.iter().any(|n| n.ends_with("profile/preferences.md")), "{prompt}: {notes:?}");
        }
    }

    #[test]
    fn a_long_list_keeps_the_items_the_prompt_is_about() {
        let mut body = String::from("Preferences the user stated.\n\n");
        for i in 0..30 {
            body.push_str(&format!("- keep functions under {i}0 lines in module number {i}\n"));
        }
        body.push_str("- give me a short summary of what changed\n");
        let terms = memory_core::search::expand("when done give me a short summary");
        let out = focused(&body, &terms, &[], None, 300, false);
        assert!(out.starts_with("Preferences the user stated."), "{out}");
        assert!(out.contains("- give me a short summary of what changed"), "{out}");
        assert!(out.chars().count() <= 300, "{} chars", out.chars().count());
        assert!(out.contains("\n…\n"), "{out}");
        let short = "- one\n- two";
        assert_eq!(focused(short, &terms, &[], None, 300, false), short);
        let chosen = focused(&body, &[], &[], Some("keep functions under 70 lines"), 300, false);
        assert!(chosen.contains("- keep functions under 70 lines in module number 7"), "{chosen}");
    }
}
