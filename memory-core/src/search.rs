//! How user text becomes search terms. Every store uses these functions, so a query means the same
//! thing whichever store answers it.

/// Most terms taken from one query; long prompts are cut to their first distinct terms.
pub const MAX_TERMS: usize = 32;

/// Words too common to say anything about relevance.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into",
    "is", "it", "its", "just", "me", "my", "no", "not", "now", "of", "on", "or", "our", "please", "should",
    "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
    "us", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "would",
    "you", "your",
];

/// Splits text into lowercase search terms.
///
/// A term is a run of Unicode letters and digits; everything else (quotes, colons, `*`,
/// parentheses, slashes) separates terms and is never query syntax. Terms are lowercased,
/// de-duplicated in order of first appearance, stop words and one-letter ASCII terms are dropped,
/// and at most [`MAX_TERMS`] are kept. `NEAR`, `AND` and `OR` are plain words.
pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in text.split(|c: char| !c.is_alphanumeric()) {
        if raw.is_empty() || (raw.len() == 1 && raw.is_ascii()) {
            continue;
        }
        let term = raw.to_lowercase();
        if STOP_WORDS.contains(&term.as_str()) || out.contains(&term) {
            continue;
        }
        out.push(term);
        if out.len() == MAX_TERMS {
            break;
        }
    }
    out
}

mod concepts;
mod ecosystems;
mod everyday;
mod software;

pub use concepts::{asked_topics, concepts, tools, topic_query, topics};
pub use ecosystems::ecosystem;
pub use everyday::{action, everyday, when};
pub use software::software;

/// The topics a note's title, description and body name an instance of ([`concepts`]), one a line:
/// what a store indexes beside the note's own text.
pub fn concept_text(note: &crate::Note) -> String {
    let meta = &note.meta;
    let text = format!("{}\n{}\n{}", meta.title, meta.description.as_deref().unwrap_or(""), note.body);
    concepts(&text).join("\n")
}

/// What search matches a note by: its text ([`note_text`]) and its topics ([`concept_text`]).
pub fn indexed_text(note: &crate::Note) -> String {
    format!("{}\n{}", note_text(note), concept_text(note))
}

/// The text of a note that search looks at: path words, title, description, tags and body.
pub fn note_text(note: &crate::Note) -> String {
    let meta = &note.meta;
    let mut text = String::with_capacity(note.body.len() + 128);
    for part in [note.path.as_str(), meta.title.as_str(), meta.description.as_deref().unwrap_or("")] {
        text.push_str(part);
        text.push('\n');
    }
    text.push_str(&meta.tags.join(" "));
    text.push('\n');
    text.push_str(&note.body);
    text
}

/// The text of an event that history search and `forget` look at: its prompt, its tool call
/// (name, shell command, files, patch, error, and every string of its input and output) and every
/// other string of its payload, each distinct string once. The working directory, the transcript
/// path, the ids and the model are left out: they are on every event of a session.
pub fn event_text(event: &crate::HookEvent) -> String {
    let session_id = event.session.as_str().split_once(':').map_or("", |(_, id)| id);
    let mut seen: std::collections::HashSet<String> = [
        event.cwd.as_deref(),
        event.transcript.as_ref().map(|t| t.path.as_str()),
        event.project.as_deref(),
        event.model.as_deref(),
        Some(event.id.as_str()),
        Some(event.session.as_str()),
        Some(session_id),
        Some(event.kind.as_str()),
        Some(event.harness.name.as_str()),
    ]
    .into_iter()
    .flatten()
    .map(str::to_owned)
    .collect();
    let mut out = String::new();
    let mut add = |text: &str| {
        if !text.trim().is_empty() && seen.insert(text.to_owned()) {
            out.push_str(text);
            out.push('\n');
        }
    };
    if let Some(prompt) = &event.prompt {
        add(prompt);
    }
    if let Some(tool) = &event.tool {
        add(&tool.name);
        if let Some(shell) = &tool.shell {
            add(&shell.command);
        }
        for file in &tool.files {
            add(&file.path);
        }
        if let Some(patch) = &tool.patch {
            add(patch);
        }
        if let Some(error) = &tool.error {
            add(error);
        }
        for value in tool.input.iter().chain(tool.output.iter()) {
            for_each_string(value, &mut add);
        }
    }
    for_each_string(&event.raw, &mut add);
    out
}

/// Calls `f` with every string of a JSON value, depth first.
fn for_each_string(value: &serde_json::Value, f: &mut impl FnMut(&str)) {
    match value {
        serde_json::Value::String(text) => f(text),
        serde_json::Value::Array(items) => items.iter().for_each(|v| for_each_string(v, f)),
        serde_json::Value::Object(map) => map.values().for_each(|v| for_each_string(v, f)),
        _ => {}
    }
}

/// The words of an event as a full-text index is given them: [`words`] of [`event_text`], joined
/// by single spaces, so every store's tokenizer splits them alike.
pub fn event_index_text(event: &crate::HookEvent) -> String {
    words(&event_text(event)).join(" ")
}

/// How many of the asked words an event covers: its phrase's words when `phrase` is given (and
/// the event holds it, else 0), else what [`matched_in`] counts of `terms`. The rule every store's
/// history search keeps a hit by.
pub fn event_matched(event: &crate::HookEvent, terms: &[Term], phrase: &[String]) -> usize {
    let seen = words(&event_text(event));
    if phrase.is_empty() {
        matched_in(&seen, terms)
    } else if holds_phrase(&seen, phrase) {
        phrase.len()
    } else {
        0
    }
}

/// Whether `haystack` (words) holds `phrase` (words) one after the other; an empty phrase is in
/// nothing.
pub fn holds_phrase(haystack: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && haystack.windows(phrase.len()).any(|w| w == phrase)
}

/// How many of the asked words `words` cover: a term counts when any of its forms occurs (phrases
/// as consecutive words), and a phrase of the thesaurus covers each of its words the query asks
/// for ("minimum rust version" is met by "MSRV" as fully as by the three words).
pub fn matched_in(words: &[String], query: &[Term]) -> usize {
    let present: std::collections::HashSet<&str> = words.iter().map(String::as_str).collect();
    let joined = format!(" {} ", words.join(" "));
    let mut covered: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for term in query {
        let found = term.forms.iter().any(|f| {
            if f.contains(' ') { joined.contains(&format!(" {f} ")) } else { present.contains(f.as_str()) }
        });
        if !found {
            continue;
        }
        // A phrase covers those of its words the query asks for on their own (not "in" of
        // "sign in"), and counts once at least.
        let asked: Vec<&str> =
            term.asked.split(' ').filter(|w| query.iter().any(|t| t.asked == *w)).collect();
        if asked.is_empty() {
            covered.insert(term.asked.as_str());
        } else {
            covered.extend(asked);
        }
    }
    covered.len()
}

/// A short excerpt of `text` around the first word that is a form of one of `query`'s terms (or
/// its beginning), on one line, at most about `width` characters, with `…` where it was cut.
pub fn excerpt(text: &str, query: &[Term], width: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let wanted: std::collections::HashSet<&str> =
        query.iter().flat_map(|t| t.forms.iter()).filter_map(|f| f.split(' ').next()).collect();
    let mut at = None;
    let mut start = None;
    for (i, c) in flat.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if wanted.contains(flat[s..i].to_lowercase().as_str()) {
                    at = Some(s);
                    break;
                }
                start = None;
            }
            _ => {}
        }
    }
    if at.is_none()
        && let Some(s) = start.filter(|s| wanted.contains(flat[*s..].to_lowercase().as_str()))
    {
        at = Some(s);
    }
    let chars: Vec<char> = flat.chars().collect();
    let hit = at.map_or(0, |byte| flat[..byte].chars().count());
    let from = hit.saturating_sub(width / 3);
    let to = (from + width).min(chars.len());
    let from = to.saturating_sub(width).min(from);
    let mut out: String = chars[from..to].iter().collect();
    if from > 0 {
        out.insert(0, '…');
    }
    if to < chars.len() {
        out.push('…');
    }
    out
}

/// BM25 relevance of each document (its words) to `query`, with how many terms it holds; `None`
/// for a document holding none. The same ranking the in-memory store gives notes.
pub fn bm25(docs: &[Vec<String>], query: &[Term]) -> Vec<Option<(f64, usize)>> {
    let docs: Vec<Vec<(&[String], f64)>> = docs.iter().map(|d| vec![(d.as_slice(), 1.0)]).collect();
    bm25_weighted(&docs, query)
}

/// [`bm25`] over documents made of weighted parts (a text's own words at 1, the words around it
/// at less): a part's occurrences of a term and its length count by its weight. `None` for a
/// document no part of which holds a term.
pub fn bm25_weighted(docs: &[Vec<(&[String], f64)>], query: &[Term]) -> Vec<Option<(f64, usize)>> {
    let occurrences = |tokens: &[String], term: &Term| -> usize {
        term.forms
            .iter()
            .map(|form| {
                let parts: Vec<&str> = form.split(' ').collect();
                tokens.windows(parts.len()).filter(|w| w.iter().zip(&parts).all(|(t, p)| t == p)).count()
            })
            .sum()
    };
    // Each document's weighted occurrences of each term, and its weighted length.
    let tfs: Vec<Vec<f64>> = docs
        .iter()
        .map(|doc| {
            query
                .iter()
                .map(|term| {
                    doc.iter().map(|(tokens, weight)| weight * occurrences(tokens, term) as f64).sum()
                })
                .collect()
        })
        .collect();
    let lengths: Vec<f64> =
        docs.iter().map(|doc| doc.iter().map(|(t, w)| w * t.len() as f64).sum()).collect();
    let total = docs.len() as f64;
    let avg_len = lengths.iter().sum::<f64>() / total.max(1.0);
    let doc_freq: Vec<f64> =
        (0..query.len()).map(|i| tfs.iter().filter(|tf| tf[i] > 0.0).count() as f64).collect();
    let (k1, b) = (1.2, 0.75);
    tfs.iter()
        .zip(&lengths)
        .map(|(doc_tfs, &len)| {
            let mut score = 0.0;
            let mut matched = 0;
            for (&tf, df) in doc_tfs.iter().zip(&doc_freq) {
                if tf <= 0.0 {
                    continue;
                }
                matched += 1;
                let idf = ((total - df + 0.5) / (df + 0.5) + 1.0).ln();
                score += idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * len / avg_len.max(1.0)));
            }
            (matched > 0).then_some((score, matched))
        })
        .collect()
}

/// Scores people can read for a list of hits (their texts, as search sees them), each in `(0, 1]`
/// for a hit holding a term: BM25 over these texts alone, whose idf stays positive however common
/// a term is (so a word found in most notes still counts), scaled so the best hit is 1. 0 for a
/// text holding none.
pub fn readable_relevance(texts: &[String], query: &[Term]) -> Vec<f64> {
    let docs: Vec<Vec<String>> = texts.iter().map(|t| words(t)).collect();
    let scores: Vec<f64> = bm25(&docs, query).into_iter().map(|r| r.map_or(0.0, |(s, _)| s)).collect();
    let best = scores.iter().copied().fold(0.0, f64::max);
    scores.into_iter().map(|s| if best > 0.0 { s / best } else { 0.0 }).collect()
}

/// One asked term and the words that count as it: the term itself, its inflections
/// (`listening` → `listen`, `listens`), and the usual developer abbreviation or expansion
/// (`db` ↔ `database`, `msrv` ↔ `minimum supported rust version`). A form may be a phrase of
/// several words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// The term as the query has it.
    pub asked: String,
    /// Every form that counts as it, the asked term first.
    pub forms: Vec<String>,
}

/// Abbreviations and their expansions, and words, that developers use interchangeably ("add a
/// library" is adding a dependency, "how do we report failures" asks how errors are reported); a
/// query naming one finds notes naming another.
const SYNONYMS: &[&[&str]] = &[
    &["db", "database", "databases"],
    &[
        "msrv",
        "minimum supported rust version",
        "minimal supported rust version",
        "minimum rust version",
        "rust-version",
    ],
    &["env", "environment"],
    &["envvar", "env var", "environment variable"],
    &["deps", "dep", "dependency", "dependencies", "library", "libraries"],
    &["error", "errors", "failure", "failures", "goes wrong", "went wrong", "go wrong"],
    &["repo", "repository"],
    &["config", "configuration", "conf", "cfg"],
    &["prod", "production"],
    &["dev", "development"],
    &["preprod", "pre-production", "pre-prod", "staging", "stg"],
    &["auth", "authentication", "authn", "authenticate"],
    &["authz", "authorization"],
    &["ci", "continuous integration"],
    &["pr", "pull request", "merge request", "mr"],
    &["k8s", "kubernetes"],
    &["cert", "certs", "certificate", "certificates"],
    &["prom", "prometheus"],
    &["pg", "postgres", "postgresql"],
    &["tf", "terraform"],
    &["gcp", "google cloud"],
    &["infra", "infrastructure"],
    &["js", "javascript"],
    &["ts", "typescript"],
    &["py", "python"],
    &["tz", "timezone", "time zone"],
    &["fmt", "format", "formatting", "formatter"],
    &["lint", "linter", "linting"],
    &["typecheck", "type check", "type-check", "type checking"],
    &["e2e", "end-to-end", "end to end"],
    &["url", "urls", "address"],
    &["dir", "directory", "folder"],
    &["docs", "documentation", "doc"],
    &["msg", "message"],
    &["pkg", "package"],
    &["perf", "performance"],
    &["ui", "user interface"],
    &["api", "endpoint", "endpoints"],
    &["version", "release"],
    &["login", "log in", "sign in", "signin"],
    &["regex", "regexp", "regular expression"],
    &["async", "asynchronous"],
    &["impl", "implementation"],
    &["arg", "args", "argument", "arguments"],
    &["param", "params", "parameter", "parameters"],
    &["src", "source"],
    // Kinds of value a codebase has rules for, by the words people use for their instances.
    &["money", "amount", "amounts", "price", "prices", "fee", "fees", "currency", "cents"],
    &["payment", "payments", "paying", "pay", "purchase", "purchases", "charge", "charges"],
    &["invoice", "invoices", "invoicing", "bill", "bills", "receipt", "receipts"],
    &["tax", "taxes", "vat", "sales tax", "gst"],
    &[
        "secret",
        "secrets",
        "password",
        "passwords",
        "credential",
        "credentials",
        "api key",
        "api keys",
        "token",
        "tokens",
        "creds",
    ],
    // Authenticating is presenting credentials: "how do I authenticate" asks where they come from.
    &["authenticate", "credential", "credentials", "creds"],
    &[
        "image",
        "images",
        "picture",
        "pictures",
        "photo",
        "photos",
        "screenshot",
        "screenshots",
        "avatar",
        "thumbnail",
    ],
    &["permission", "permissions", "access", "grant", "grants", "acl", "iam"],
    // What is recorded of how people use a product, and what the agent writes back.
    &["analytics", "tracking", "telemetry", "instrumentation", "visitors", "page views", "pageviews"],
    &["answer", "answers", "response", "responses", "reply", "replies"],
    // The everyday words for the situations of running software that notes and runbooks name by
    // their trade word: paged is on call, blew up is a crash, undoing a deploy is a rollback.
    &["oncall", "on-call", "on call", "pager", "paged", "pagerduty", "opsgenie"],
    &["rollback", "roll back", "rolled back", "revert", "reverted", "undo"],
    &["crash", "crashes", "crashed", "crashing", "blew up", "blows up", "blow up"],
    &["stuck", "hanging", "hangs", "hung", "frozen"],
    &["disk", "disks", "disk space", "out of space", "free space", "disk full"],
    &["host", "hosts", "server", "servers", "machine", "machines", "box", "boxes", "vm", "vms"],
    &["login", "log in", "log into", "logged into", "sign in", "signin"],
    &["local", "locally", "localhost", "laptop", "laptops", "my machine"],
    &["setup", "set up", "onboarding", "getting started", "new laptop", "fresh laptop", "fresh clone"],
    &[
        "layout",
        "laid out",
        "structure",
        "structured",
        "organised",
        "organized",
        "split up",
        "split into",
        "divided into",
        "broken up",
        "broken into",
    ],
    &["schedule", "scheduled", "scheduling", "cron", "hourly", "every hour", "nightly", "every night"],
    &["cost", "costs", "costing", "budget", "budgets", "spend", "spending", "overspend", "billing"],
    &["metrics", "metric", "dashboard", "dashboards", "monitoring", "observability"],
    &["duration", "durations", "how long", "elapsed"],
    &["duplicate", "duplicates", "duplicated", "twice", "dedupe", "deduplicate", "idempotency", "idempotent"],
    &["pending", "waiting", "queued"],
    &["handoff", "hand-off", "handover", "hand over", "hand off"],
    &[
        "instance type",
        "instance types",
        "machine type",
        "machine types",
        "node type",
        "node types",
        "machine size",
        "machine sizes",
        "vm size",
    ],
    &["id", "ids", "identifier", "identifiers", "uuid", "uuids", "ulid", "ulids", "guid", "guids"],
    &["sql", "query", "queries"],
    // Emptying a cache, a queue or a table, by whichever verb.
    &["wipe", "wiped", "clear", "cleared", "flush", "flushed", "purge", "purged", "erase", "erased"],
    &["blank", "empty"],
    // Recording something after it happened.
    &[
        "retrospectively",
        "retroactively",
        "after the fact",
        "backfill",
        "backfilling",
        "backfilled",
        "backdate",
    ],
    // Kinds of work on a codebase and its project, by the words people use for them.
    &[
        "naming",
        "what to call",
        "what should i call",
        "what should we call",
        "what do i call",
        "what do we call",
    ],
    &["review", "reviews", "reviewer", "reviewers", "approve", "approval", "approvals", "sign-off"],
    &["translation", "translations", "translated", "non-english", "i18n", "l10n", "localization", "locale"],
    &["license", "licenses", "licence", "licensing", "copyleft", "gpl", "agpl", "lgpl"],
    &["dns", "domain", "domains", "subdomain", "subdomains", "cname"],
    &["frontmatter", "front matter", "front-matter", "metadata"],
    &["java", "jdk", "jre", "openjdk"],
];

const INFLECT: bool = true;
/// Most forms one term brings into a query.
const MAX_FORMS: usize = 12;

/// The inflections of an English word worth looking for: `tests` → `test`, `testing`;
/// `listening` → `listen`, `listens`; `dependencies` → `dependency`. Words of three letters or
/// fewer, and ones with digits, are taken as they are.
fn inflections(word: &str) -> Vec<String> {
    if !word.chars().all(|c| c.is_alphabetic()) {
        return Vec::new();
    }
    if word.chars().count() <= 3 {
        return short_inflections(word);
    }
    let mut stems: Vec<String> = Vec::new();
    let strip = |suffix: &str| word.strip_suffix(suffix).filter(|s| s.chars().count() >= 3);
    // A noun made from a verb names the verb too: `indentation` → `indent`, `migration` →
    // `migrate`, `installation` → `install`.
    let noun = word.strip_suffix('s').unwrap_or(word);
    if let Some(s) = noun.strip_suffix("ation").filter(|s| s.chars().count() >= 4) {
        stems.push(s.to_owned());
    }
    if let Some(s) = noun.strip_suffix("ion").filter(|s| s.ends_with('t') && s.chars().count() >= 5) {
        stems.push(format!("{s}e"));
    }
    if let Some(s) = strip("ies") {
        stems.push(format!("{s}y"));
    } else if let Some(s) = strip("ing").or_else(|| strip("ed")) {
        stems.push(s.to_owned());
        // A word in -ing is often a noun too, with a plural: `warning` → `warnings`.
        if word.ends_with("ing") {
            stems.push(word.to_owned());
        }
        stems.push(format!("{s}e"));
        let mut chars: Vec<char> = s.chars().collect();
        if chars.len() >= 4 && chars[chars.len() - 1] == chars[chars.len() - 2] {
            chars.pop();
            stems.push(chars.into_iter().collect());
        }
    } else if let Some(s) =
        strip("es").filter(|s| s.ends_with(['s', 'x', 'z']) || s.ends_with("ch") || s.ends_with("sh"))
    {
        stems.push(s.to_owned());
    } else if let Some(s) = strip("s").filter(|s| !s.ends_with('s') && !s.ends_with('u') && !s.ends_with('i'))
    {
        stems.push(s.to_owned());
    } else if let Some(s) = word.strip_suffix("ly").filter(|s| s.chars().count() >= 4) {
        // An adverb names its adjective: `locally` → `local`, `weekly` → `week`.
        stems.push(s.to_owned());
        stems.push(word.to_owned());
    } else {
        stems.push(word.to_owned());
    }
    let mut out = Vec::new();
    for stem in stems {
        let plural = if stem.ends_with('y') && !stem.ends_with("ey") {
            format!("{}ies", &stem[..stem.len() - 1])
        } else if stem.ends_with(['s', 'x', 'z']) || stem.ends_with("ch") || stem.ends_with("sh") {
            format!("{stem}es")
        } else {
            format!("{stem}s")
        };
        // The noun in -ing has a plural only (`warnings`, not `warninging`).
        if stem == word && word.ends_with("ing") {
            if !out.contains(&plural) {
                out.push(plural);
            }
            continue;
        }
        let base = stem.strip_suffix('e').unwrap_or(&stem).to_owned();
        for form in [stem.clone(), plural, format!("{base}ing"), format!("{base}ed")] {
            if form != word && !out.contains(&form) {
                out.push(form);
            }
        }
    }
    out
}

/// The forms of a word of three letters: its plural (`tag` → `tags`, `fix` → `fixes`). Its forms
/// in -ing and -ed are left out: three letters are often an abbreviation (`env`, `var`, `cfg`),
/// which has none. A two-letter abbreviation has its plural in -s (`pr` and `prs`, `vm` and `vms`,
/// `id` and `ids`, both ways); two-letter words of everyday English (`go`, `do`, `us`) are taken as
/// they are.
fn short_inflections(word: &str) -> Vec<String> {
    if !word.is_ascii() {
        return Vec::new();
    }
    if let Some(one) = abbreviation_singular(word) {
        return vec![one.to_owned()];
    }
    match word.len() {
        2 if abbreviation(word) => vec![format!("{word}s")],
        3 if word.ends_with(['s', 'x', 'z']) => vec![format!("{word}es")],
        3 => vec![format!("{word}s")],
        _ => Vec::new(),
    }
}

/// Whether a two-letter word is an abbreviation (`pr`, `vm`), not everyday English (`go`, `us`).
fn abbreviation(word: &str) -> bool {
    word.len() == 2 && word.is_ascii() && !everyday(word) && !STOP_WORDS.contains(&word)
}

/// The two-letter abbreviation a word is the plural of: `prs` → `pr`, `ids` → `id`; `has` and
/// `its` are none.
pub fn abbreviation_singular(word: &str) -> Option<&str> {
    (word.len() == 3 && word.is_ascii() && word.ends_with('s') && abbreviation(&word[..2]))
        .then(|| &word[..2])
}

/// The words of the hyphenated compounds of `text` that the thesaurus knows as one term
/// (`pre-prod`, `end-to-end`, `type-check`) and that the text never says alone: a compound's parts
/// mean something else (`prod` is production, `pre-prod` staging).
fn parts_of_compounds(lower: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for compound in lower.split(|c: char| !(c.is_alphanumeric() || c == '-')).filter(|w| w.contains('-')) {
        let phrase = words(compound).join(" ");
        if SYNONYMS.iter().any(|group| group.iter().any(|form| words(form).join(" ") == phrase)) {
            parts.extend(words(compound));
        }
    }
    // A part said alone elsewhere in the text stays a term.
    let alone: Vec<String> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.contains('-'))
        .flat_map(words)
        .collect();
    parts.retain(|p| !alone.contains(p));
    parts
}

/// The terms of `text` ([`terms`]) with the forms that count as each.
pub fn expand(text: &str) -> Vec<Term> {
    let lower = text.to_lowercase();
    let compound_parts = parts_of_compounds(&lower);
    let asked: Vec<String> = terms(text).into_iter().filter(|t| !compound_parts.contains(t)).collect();
    let mut out: Vec<Term> = Vec::with_capacity(asked.len());
    for term in asked {
        let mut forms = vec![term.clone()];
        let mut add = |form: String| {
            if !forms.contains(&form) && forms.len() < MAX_FORMS {
                forms.push(form);
            }
        };
        if INFLECT {
            for form in inflections(&term) {
                add(form);
            }
        }
        let keys: Vec<String> = std::iter::once(term.clone()).chain(inflections(&term)).collect();
        for group in SYNONYMS {
            if keys.iter().any(|k| group.contains(&k.as_str())) {
                for form in group.iter() {
                    add(words(form).join(" "));
                }
            }
        }
        out.push(Term { asked: term, forms });
    }
    // A phrase of the thesaurus spelled out in the query ("minimum supported rust version") also
    // counts as its abbreviation.
    let spoken = words(&lower).join(" ");
    for group in SYNONYMS {
        for phrase in group.iter().filter(|p| words(p).len() > 1) {
            let phrase = words(phrase).join(" ");
            if format!(" {spoken} ").contains(&format!(" {phrase} ")) {
                let forms: Vec<String> = group.iter().map(|f| words(f).join(" ")).collect();
                if !out.iter().any(|t| t.asked == phrase) {
                    out.push(Term { asked: phrase, forms });
                }
            }
        }
    }
    out
}

/// `query` with one term for each thing it asks: a term that is a form of an earlier one ("query"
/// after "sql", "environment" after "env", "tests" after "test") is left out.
pub fn one_per_meaning(query: &[Term]) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::with_capacity(query.len());
    for term in query {
        if !out.iter().any(|t| t.forms.contains(&term.asked)) {
            out.push(term.clone());
        }
    }
    out
}

/// Every form of every term, each once: what a full-text index is asked for.
pub fn forms(query: &[Term]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for form in query.iter().flat_map(|t| t.forms.iter()) {
        if !out.contains(form) {
            out.push(form.clone());
        }
    }
    out
}

/// How many of the asked words a note covers ([`matched_in`]), as search sees it
/// ([`indexed_text`]).
pub fn matched_terms(note: &crate::Note, query: &[Term]) -> usize {
    matched_in(&words(&indexed_text(note)), query)
}

/// The fewest words an event must hold to count as something said.
pub const SAYS_SOMETHING: usize = 4;

/// Whether an event is something said or done in the session (a prompt, a reply, a tool call, an
/// edit) with words of its own, rather than the session's bookkeeping (its start and end, what
/// agent-memory injected, a permission asked for a call already recorded, a compaction).
pub fn says_something(event: &crate::HookEvent, words: &[String]) -> bool {
    let said = !matches!(
        event.kind,
        crate::EventKind::SessionStart
            | crate::EventKind::SessionEnd
            | crate::EventKind::Injection
            | crate::EventKind::PermissionRequest
            | crate::EventKind::Notification
            | crate::EventKind::SubagentStart
            | crate::EventKind::PreCompact
            | crate::EventKind::PostCompact
    );
    said && words.len() >= SAYS_SOMETHING
}

/// The words of a text as search sees them: runs of letters and digits, lowercased.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::{expand, inflections};

    #[test]
    fn two_words_of_one_meaning_are_one_thing_asked() {
        for (prompt, asked) in [
            ("write a sql query for duplicate emails", vec!["write", "sql", "duplicate", "emails"]),
            (
                "which env environment variables does staging need",
                vec!["env", "variables", "staging", "need"],
            ),
            ("run the test and the tests of the parser", vec!["run", "test", "parser"]),
        ] {
            let one = super::one_per_meaning(&expand(prompt));
            let got: Vec<&str> = one.iter().map(|t| t.asked.as_str()).collect();
            assert_eq!(got, asked, "{prompt}");
        }
    }

    #[test]
    fn inflections_cover_the_usual_endings() {
        assert!(inflections("listening").contains(&"listen".to_owned()));
        assert!(inflections("listening").contains(&"listens".to_owned()));
        assert!(inflections("tests").contains(&"test".to_owned()));
        for (word, plural) in [("warning", "warnings"), ("setting", "settings"), ("mapping", "mappings")] {
            assert!(inflections(word).contains(&plural.to_owned()), "{word}");
            // A noun in -ing is no verb: it has no form in -ing or -ed of its own.
            assert!(!inflections(word).contains(&format!("{word}ing")), "{word}");
            assert!(!inflections(word).contains(&format!("{word}ed")), "{word}");
        }
        assert!(inflections("tests").contains(&"testing".to_owned()));
        assert!(inflections("dependencies").contains(&"dependency".to_owned()));
        assert!(inflections("migrations").contains(&"migration".to_owned()));
        assert!(inflections("migration").contains(&"migrate".to_owned()));
        assert!(inflections("indentation").contains(&"indent".to_owned()));
        assert!(inflections("indentation").contains(&"indented".to_owned()));
        assert!(inflections("installation").contains(&"install".to_owned()));
        assert!(!inflections("station").iter().any(|f| f == "st" || f == "ste"));
        assert!(inflections("running").contains(&"run".to_owned()));
        assert!(inflections("locally").contains(&"local".to_owned()));
        assert!(inflections("weekly").contains(&"week".to_owned()));
        assert!(!inflections("reply").iter().any(|f| f == "rep"));
        assert!(inflections("status").is_empty() || !inflections("status").contains(&"statu".to_owned()));
        assert!(inflections("go").is_empty());
        // Two-letter abbreviations and their plurals, both ways.
        for (one, many) in [("pr", "prs"), ("vm", "vms"), ("id", "ids"), ("db", "dbs")] {
            assert_eq!(inflections(one), [many], "{one}");
            assert_eq!(inflections(many), [one], "{many}");
        }
        assert!(inflections("do").is_empty() && inflections("us").is_empty());
        for (word, form) in
            [("tag", "tags"), ("log", "logs"), ("bug", "bugs"), ("fix", "fixes"), ("app", "apps")]
        {
            assert!(inflections(word).contains(&form.to_owned()), "{word} → {form}");
        }
        assert_eq!(inflections("env"), ["envs"]);
        assert!(inflections("v16").is_empty());
    }

    #[test]
    fn abbreviations_and_expansions_count_as_each_other() {
        let query = expand("db tests");
        assert_eq!(query[0].asked, "db");
        assert!(query[0].forms.contains(&"database".to_owned()));
        let query = expand("what is the minimum supported rust version?");
        assert!(query.iter().any(|t| t.forms.contains(&"msrv".to_owned())), "{query:?}");
        let query = expand("msrv");
        assert!(query[0].forms.contains(&"minimum supported rust version".to_owned()));
        // The short names of the tools and things of operations.
        for (asked, form) in [
            ("certs", "certificate"),
            ("prom", "prometheus"),
            ("pg", "postgres"),
            ("tf", "terraform"),
            ("gcp", "google cloud"),
            ("infra", "infrastructure"),
        ] {
            assert!(expand(asked)[0].forms.contains(&form.to_owned()), "{asked}");
        }
    }

    #[test]
    fn the_words_of_emptying_something_and_of_after_the_event_count_as_each_other() {
        let finds = |prompt: &str, form: &str| {
            let query = expand(prompt);
            assert!(
                query.iter().any(|t| t.forms.contains(&form.to_owned())),
                "{prompt} -> {form}: {query:?}"
            );
        };
        // Emptying a cache, a queue or a table, whichever verb says it.
        finds("how do I wipe the version cache?", "clear");
        finds("flush the dead letter queue", "purge");
        finds("purge everything from the CDN", "flush");
        // Nothing in it.
        finds("create blank rows for every council", "empty");
        finds("the page comes back empty", "blank");
        finds("why is the form blank after saving", "empty");
        // Something recorded after it happened.
        finds("how do I add it after the fact?", "backfill");
        finds("can we backfill last week's numbers", "retrospectively");
        finds("posting the status update retroactively", "after the fact");
    }

    #[test]
    fn words_used_for_one_another_count_as_each_other() {
        let forms = |text: &str| expand(text).remove(0).forms;
        assert!(forms("failures").contains(&"errors".to_owned()), "{:?}", forms("failures"));
        assert!(forms("error").contains(&"failure".to_owned()));
        assert!(forms("library").contains(&"dependency".to_owned()));
        assert!(forms("dependencies").contains(&"libraries".to_owned()));
        assert!(!forms("errors").contains(&"library".to_owned()));
        // Kinds of value, whichever word names an instance of them.
        assert!(forms("fee").contains(&"money".to_owned()));
        assert!(forms("price").contains(&"amounts".to_owned()));
        assert!(forms("amount").contains(&"currency".to_owned()));
        assert!(forms("password").contains(&"secrets".to_owned()));
        assert!(forms("credentials").contains(&"secret".to_owned()));
        assert!(forms("avatar").contains(&"image".to_owned()));
        assert!(forms("pictures").contains(&"images".to_owned()));
        assert!(forms("access").contains(&"permissions".to_owned()));
        assert!(forms("grant").contains(&"iam".to_owned()));
        // Tracking what users do, however it is called.
        assert!(forms("track").contains(&"analytics".to_owned()), "{:?}", forms("track"));
        assert!(forms("telemetry").contains(&"tracking".to_owned()));
        assert!(forms("tracked").contains(&"telemetry".to_owned()));
        // What the agent writes back.
        assert!(forms("responses").contains(&"answers".to_owned()));
        assert!(forms("reply").contains(&"answer".to_owned()));
        assert!(forms("answers").contains(&"response".to_owned()));
    }

    #[test]
    fn a_hyphenated_compound_the_thesaurus_knows_is_one_term() {
        let asked = |text: &str| expand(text).into_iter().map(|t| t.asked).collect::<Vec<_>>();
        let forms = |text: &str| expand(text).into_iter().flat_map(|t| t.forms).collect::<Vec<_>>();
        for text in [
            "get my merged change onto the pre-prod environment",
            "is pre-prod down again?",
            "deploy the branch to Pre-Prod first",
        ] {
            assert!(!asked(text).contains(&"prod".to_owned()), "{text}: {:?}", asked(text));
            assert!(forms(text).contains(&"staging".to_owned()), "{text}");
            assert!(!forms(text).contains(&"production".to_owned()), "{text}");
        }
        assert!(!asked("run the end-to-end suite").contains(&"end".to_owned()));
        // A part the text also says alone stays a term.
        assert!(asked("pre-prod is fine, prod is down").contains(&"prod".to_owned()));
        // A compound the thesaurus does not know keeps its words.
        assert!(asked("the read-only replica").contains(&"replica".to_owned()));
        assert!(asked("the read-only replica").contains(&"read".to_owned()));
    }
}
