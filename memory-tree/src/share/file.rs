//! One shared note file: sealed when agent-memory writes it, read back leniently.
//!
//! A file agent-memory writes carries, as the first line of its frontmatter, a YAML comment with
//! the SHA-256 of the rest of the file ([`seal`]). A file whose seal still matches is exactly as
//! agent-memory wrote it, in whichever clone; any other file was edited by a person or merged by
//! git, and is read as a person's note.
//!
//! A union merge (`merge=union`) keeps both sides' lines of a changed region, so a merged file can
//! hold a frontmatter key twice (`updated`, `generator`), a list's items after another key, and
//! the same item line twice. [`read`] takes what such a merge leaves: one value per key (the
//! latest `updated`, else the last), every list item once, every Markdown item line once.

use chrono::{DateTime, Utc};
use memory_core::{GENERATOR_HUMAN, Note, NoteDefaults, NoteKind, NotePath};

use crate::layout::sha256_hex;

/// How the seal line starts.
const SEAL: &str = "# agent-memory sha256:";
/// What follows the hash on the seal line, for whoever reads the file.
const SEAL_NOTE: &str = " (an edit makes this note a person's: the dream keeps its lines)";
/// Frontmatter keys holding lists.
const LISTS: [&str; 2] = ["tags", "sources"];

/// `markdown` (a note as [`memory_core::ProjectNames::markdown`] renders it) with its seal.
pub(crate) fn seal(markdown: &str) -> String {
    let hash = sha256_hex(markdown.as_bytes());
    let rest = markdown.strip_prefix("---\n").unwrap_or(markdown);
    format!("---\n{SEAL}{hash}{SEAL_NOTE}\n{rest}")
}

/// The text without its seal lines, and whether it holds exactly one seal that matches it.
pub(crate) fn unseal(text: &str) -> (String, bool) {
    let mut hashes = Vec::new();
    let mut rest = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line.strip_prefix(SEAL) {
            Some(after) => hashes.push(after.get(..64).unwrap_or_default().to_owned()),
            None => rest.push_str(line),
        }
    }
    let intact = matches!(hashes.as_slice(), [hash] if *hash == sha256_hex(rest.as_bytes()));
    (rest, intact)
}

/// A shared file read as a note at `path`: the scope, kind and time in `defaults` fill what its
/// frontmatter leaves out, and its `scope` line is ignored (the folder's project is the scope). A
/// file whose seal no longer matches is a person's: `generator: human`, its duplicated lines
/// folded. The flag says whether the seal was intact.
pub(crate) fn read(path: NotePath, text: &str, defaults: &NoteDefaults) -> Result<(Note, bool), String> {
    let (text, intact) = unseal(text);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).replace("\r\n", "\n");
    let (yaml, body) = match text.strip_prefix("---\n").and_then(|rest| split_at_fence(rest)) {
        Some(parts) => parts,
        None => ("", text.as_str()),
    };
    let yaml = fold_frontmatter(yaml);
    let body = if intact { body.to_owned() } else { fold_items(body) };
    let rebuilt = format!("---\n{yaml}---\n{body}");
    let mut note = Note::from_markdown_or(path, &rebuilt, defaults).map_err(|e| e.to_string())?;
    note.meta.scope = defaults.scope.clone().unwrap_or(note.meta.scope);
    if !intact {
        note.meta.generator = GENERATOR_HUMAN.to_owned();
    }
    note.validate().map_err(|e| e.to_string())?;
    Ok((note, intact))
}

/// `from_file` with every line of `from_store`'s body it lacks added at its end, as a person's
/// note: what two sides changed since they last agreed, both kept.
pub(crate) fn joined(mut from_file: Note, from_store: &Note) -> Note {
    let present: std::collections::BTreeSet<&str> = from_file.body.lines().map(str::trim_end).collect();
    let missing: Vec<&str> = from_store
        .body
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.trim().is_empty() && !present.contains(line))
        .collect();
    if !missing.is_empty() {
        let mut body = from_file.body.trim_end().to_owned();
        body.push('\n');
        for line in missing {
            body.push_str(line);
            body.push('\n');
        }
        from_file.body = body;
    }
    from_file.meta.generator = GENERATOR_HUMAN.to_owned();
    from_file
}

/// The defaults of a shared file: the project's scope, a fact, written `now` by a person.
pub(crate) fn defaults(scope: memory_core::Scope, now: DateTime<Utc>) -> NoteDefaults {
    NoteDefaults {
        scope: Some(scope),
        kind: NoteKind::Fact,
        updated: now,
        generator: GENERATOR_HUMAN.to_owned(),
        // A file names its owner, or names nobody.
        owner: None,
    }
}

/// The frontmatter and the body after the closing `---` line.
fn split_at_fence(rest: &str) -> Option<(&str, &str)> {
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

/// One top-level frontmatter entry: its key and its lines.
struct Entry {
    key: String,
    lines: Vec<String>,
}

/// The frontmatter with each key once: a list's items gathered under it (whatever key a merge put
/// them after), each item once; of a repeated value, the latest `updated` and the last of any
/// other key. `scope` is left out (the folder says it) and so are comments.
fn fold_frontmatter(yaml: &str) -> String {
    let mut entries: Vec<Entry> = Vec::new();
    let mut lists: Vec<(String, Vec<String>)> = Vec::new();
    let mut list: Option<usize> = None;
    let mut current: Option<usize> = None;
    let mut skipping = false;
    for line in yaml.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(item) = trimmed.strip_prefix("- ").or_else(|| (trimmed == "-").then_some(""))
            && (line.starts_with('-') || current.is_none())
        {
            if let Some(i) = list {
                let item = item.trim().to_owned();
                if !lists[i].1.contains(&item) {
                    lists[i].1.push(item);
                }
            }
            continue;
        }
        let top = !line.starts_with([' ', '\t']);
        match (top, line.split_once(':')) {
            (true, Some((key, value))) => {
                let key = key.trim().to_owned();
                skipping = key == "scope";
                if skipping {
                    current = None;
                    continue;
                }
                if LISTS.contains(&key.as_str()) && value.trim().is_empty() {
                    let at = lists.iter().position(|(k, _)| *k == key).unwrap_or_else(|| {
                        lists.push((key.clone(), Vec::new()));
                        lists.len() - 1
                    });
                    list = Some(at);
                    current = None;
                    continue;
                }
                let fresh = Entry { key: key.clone(), lines: vec![line.to_owned()] };
                match entries.iter().position(|e| e.key == key) {
                    Some(at) if key == "updated" && !later(&fresh.lines[0], &entries[at].lines[0]) => {
                        current = None;
                        skipping = true;
                    }
                    Some(at) => {
                        entries[at] = fresh;
                        current = Some(at);
                    }
                    None => {
                        entries.push(fresh);
                        current = Some(entries.len() - 1);
                    }
                }
            }
            // A value continued on the next lines (a long or multi-line string).
            _ if !skipping => {
                if let Some(at) = current {
                    entries[at].lines.push(line.to_owned());
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    for entry in &entries {
        for line in &entry.lines {
            out.push_str(line);
            out.push('\n');
        }
    }
    for (key, items) in lists.iter().filter(|(_, items)| !items.is_empty()) {
        out.push_str(key);
        out.push_str(":\n");
        for item in items {
            out.push_str("- ");
            out.push_str(item);
            out.push('\n');
        }
    }
    out
}

/// Whether an `updated:` line names a later time than another.
fn later(line: &str, than: &str) -> bool {
    let at = |line: &str| {
        let value = line.split_once(':').map(|(_, v)| v.trim().trim_matches(['\'', '"'])).unwrap_or_default();
        DateTime::parse_from_rfc3339(value).ok()
    };
    match (at(line), at(than)) {
        (Some(a), Some(b)) => a > b,
        (Some(_), None) => true,
        _ => false,
    }
}

/// The body with each Markdown item line (`- `, `* `) once, the first kept where it was.
fn fold_items(body: &str) -> String {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        let item = line.trim();
        if (item.starts_with("- ") || item.starts_with("* ")) && !seen.insert(item.to_owned()) {
            continue;
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use memory_core::Scope;

    use super::*;

    fn path() -> NotePath {
        NotePath::new("project/app/tools/cargo.md").unwrap()
    }

    fn scope() -> Scope {
        Scope::Project("app-1a2b3c4d".to_owned())
    }

    const WRITTEN: &str = "---\ntitle: Cargo\ntags:\n- cargo\nscope: project:app\nkind: tool\nsources:\n- e1\nupdated: 2026-01-02T00:00:00Z\ngenerator: deterministic\n---\n- run `cargo test`\n";

    #[test]
    fn a_sealed_file_is_agent_memorys_until_edited() {
        let sealed = seal(WRITTEN);
        assert!(sealed.starts_with("---\n# agent-memory sha256:"), "{sealed}");
        assert_eq!(unseal(&sealed), (WRITTEN.to_owned(), true));
        let now = Utc::now();
        let (note, intact) = read(path(), &sealed, &defaults(scope(), now)).unwrap();
        assert!(intact);
        assert_eq!((note.meta.generator.as_str(), note.meta.scope.clone()), ("deterministic", scope()));
        assert_eq!(note.meta.sources.len(), 1);

        let edited = sealed.replace("cargo test", "cargo nextest run");
        assert!(!unseal(&edited).1);
        let (note, intact) = read(path(), &edited, &defaults(scope(), now)).unwrap();
        assert!(!intact);
        assert_eq!(note.meta.generator, GENERATOR_HUMAN);
        assert_eq!(note.body, "- run `cargo nextest run`\n");
        assert_eq!(note.meta.updated.to_rfc3339(), "2026-01-02T00:00:00+00:00", "the file's own time");
    }

    #[test]
    fn what_a_union_merge_leaves_is_read_as_one_note_with_both_sides() {
        // Two branches each added a source, an item and a time; `merge=union` kept both sides.
        let ours = seal(WRITTEN);
        let merged = format!(
            "{}\n",
            [
                ours.lines().next().unwrap(),
                "# agent-memory sha256:0000000000000000000000000000000000000000000000000000000000000000",
                "title: Cargo",
                "tags:",
                "- cargo",
                "scope: project:app",
                "kind: tool",
                "sources:",
                "- e1",
                "- e2",
                "updated: 2026-01-03T00:00:00Z",
                "generator: deterministic",
                "- e3",
                "- e1",
                "updated: 2026-01-05T00:00:00Z",
                "generator: deterministic",
                "---",
                "- run `cargo test`",
                "- pass `--locked` in CI",
                "- run `cargo test`",
                "- use `cargo nextest run` locally",
            ]
            .join("\n")
        );
        let note = read(path(), &merged, &defaults(scope(), Utc::now())).unwrap().0;
        assert_eq!(note.meta.generator, GENERATOR_HUMAN, "a merge is a person's");
        assert_eq!(note.meta.sources.len(), 3, "{:?}", note.meta.sources);
        assert_eq!(note.meta.updated.to_rfc3339(), "2026-01-05T00:00:00+00:00", "the latest time");
        assert_eq!(
            note.body,
            "- run `cargo test`\n- pass `--locked` in CI\n- use `cargo nextest run` locally\n"
        );
        assert_eq!(note.meta.scope, scope());
    }

    #[test]
    fn a_file_written_by_hand_takes_the_folders_project_whatever_it_says() {
        let now = Utc::now();
        let note =
            read(path(), "---\nscope: user\ntitle: Deploy\n---\n- `make deploy`\n", &defaults(scope(), now))
                .unwrap()
                .0;
        assert_eq!((note.meta.scope, note.meta.generator.as_str()), (scope(), GENERATOR_HUMAN));
        let plain = read(path(), "Just text.\n", &defaults(scope(), now)).unwrap().0;
        assert_eq!((plain.meta.title.as_str(), plain.body.as_str()), ("Cargo", "Just text.\n"));
        assert!(read(path(), "---\ncolour: red\n---\n", &defaults(scope(), now)).is_err());
    }
}
