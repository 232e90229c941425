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

/// Abbreviations and their expansions that developers use interchangeably; a query naming one
/// finds notes naming another.
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
    &["deps", "dep", "dependency", "dependencies"],
    &["repo", "repository"],
    &["config", "configuration", "conf", "cfg"],
    &["prod", "production"],
    &["dev", "development"],
    &["preprod", "pre-production", "pre-prod", "staging"],
    &["auth", "authentication", "authn"],
    &["authz", "authorization"],
    &["ci", "continuous integration"],
    &["pr", "pull request", "merge request", "mr"],
    &["k8s", "kubernetes"],
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
];

const INFLECT: bool = true;
/// Most forms one term brings into a query.
const MAX_FORMS: usize = 12;

/// The inflections of an English word worth looking for: `tests` → `test`, `testing`;
/// `listening` → `listen`, `listens`; `dependencies` → `dependency`. Words of three letters or
/// fewer, and ones with digits, are taken as they are.
fn inflections(word: &str) -> Vec<String> {
    if word.chars().count() <= 3 || !word.chars().all(|c| c.is_alphabetic()) {
        return Vec::new();
    }
    let mut stems: Vec<String> = Vec::new();
    let strip = |suffix: &str| word.strip_suffix(suffix).filter(|s| s.chars().count() >= 3);
    if let Some(s) = strip("ies") {
        stems.push(format!("{s}y"));
    } else if let Some(s) = strip("ing").or_else(|| strip("ed")) {
        stems.push(s.to_owned());
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
        let base = stem.strip_suffix('e').unwrap_or(&stem).to_owned();
        for form in [stem.clone(), plural, format!("{base}ing"), format!("{base}ed")] {
            if form != word && !out.contains(&form) {
                out.push(form);
            }
        }
    }
    out
}

/// The terms of `text` ([`terms`]) with the forms that count as each.
pub fn expand(text: &str) -> Vec<Term> {
    let asked = terms(text);
    let lower = text.to_lowercase();
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
        for phrase in group.iter().filter(|p| p.contains(' ')) {
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

/// How many of the asked words a note covers, as search sees its text ([`note_text`]): a term
/// counts when any of its forms occurs (phrases as consecutive words), and a phrase of the
/// thesaurus covers each of its words the query asks for ("minimum rust version" is met by
/// "MSRV" as fully as by the three words).
pub fn matched_terms(note: &crate::Note, query: &[Term]) -> usize {
    let words = words(&note_text(note));
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

/// The words of a text as search sees them: runs of letters and digits, lowercased.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::{expand, inflections};

    #[test]
    fn inflections_cover_the_usual_endings() {
        assert!(inflections("listening").contains(&"listen".to_owned()));
        assert!(inflections("listening").contains(&"listens".to_owned()));
        assert!(inflections("tests").contains(&"test".to_owned()));
        assert!(inflections("tests").contains(&"testing".to_owned()));
        assert!(inflections("dependencies").contains(&"dependency".to_owned()));
        assert!(inflections("migrations").contains(&"migration".to_owned()));
        assert!(inflections("running").contains(&"run".to_owned()));
        assert!(inflections("status").is_empty() || !inflections("status").contains(&"statu".to_owned()));
        assert!(inflections("go").is_empty());
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
    }
}
