//! Notes: small Markdown documents with YAML frontmatter, filed at semantic paths.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Error, EventId, Result, Scope};

/// Longest accepted note path, in bytes.
pub const MAX_PATH_LEN: usize = 200;
/// Longest accepted path segment, in bytes.
pub const MAX_SEGMENT_LEN: usize = 64;
/// Deepest accepted path, in segments.
pub const MAX_DEPTH: usize = 8;
/// Largest accepted note body, in bytes. Notes are meant to be read cold in a few seconds.
pub const MAX_BODY_LEN: usize = 16 * 1024;
/// Longest accepted title, in characters.
pub const MAX_TITLE_LEN: usize = 200;
/// Most tags a note may carry.
pub const MAX_TAGS: usize = 16;

/// A validated note path such as `profile/role.md` or `tools/cargo/test-flags.md`.
///
/// Relative, `/`-separated, ending in `.md`; each segment is lowercase ASCII letters, digits, `-`, `_`
/// or `.`, does not start with `.`, and is not empty. No `..`, no absolute paths, no backslashes, no
/// control characters, at most [`MAX_PATH_LEN`] bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NotePath(String);

impl NotePath {
    /// Validates a path.
    pub fn new(path: impl Into<String>) -> Result<Self> {
        let path = path.into();
        let reject = |why: &str| Err(Error::InvalidInput(format!("note path {path:?} {why}")));
        if path.is_empty() {
            return reject("is empty");
        }
        if path.len() > MAX_PATH_LEN {
            return reject(&format!("is longer than {MAX_PATH_LEN} bytes"));
        }
        if path.chars().any(char::is_control) {
            return reject("contains a control character");
        }
        if path.contains('\\') {
            return reject("contains a backslash (use `/`)");
        }
        if path.starts_with('/') {
            return reject("is absolute (note paths are relative, like `profile/role.md`)");
        }
        if !path.ends_with(".md") {
            return reject("does not end in `.md`");
        }
        let segments: Vec<&str> = path.split('/').collect();
        if segments.len() > MAX_DEPTH {
            return reject(&format!("is deeper than {MAX_DEPTH} segments"));
        }
        for segment in &segments {
            if segment.is_empty() {
                return reject("has an empty segment");
            }
            if *segment == ".." || *segment == "." {
                return reject("contains `.` or `..`");
            }
            if segment.starts_with('.') {
                return reject("has a segment starting with `.`");
            }
            if segment.len() > MAX_SEGMENT_LEN {
                return reject(&format!("has a segment longer than {MAX_SEGMENT_LEN} bytes"));
            }
            if !segment
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'))
            {
                return reject("has characters other than lowercase a-z, 0-9, `-`, `_`, `.`");
            }
        }
        if segments.last().is_some_and(|last| *last == ".md") {
            return reject("has an empty file name");
        }
        Ok(Self(path))
    }

    /// The path as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path's folder part (`tools/cargo` for `tools/cargo/test-flags.md`), empty at the top.
    pub fn parent(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(dir, _)| dir)
    }

    /// The file name without `.md` (`test-flags` for `tools/cargo/test-flags.md`).
    pub fn stem(&self) -> &str {
        let file = self.0.rsplit_once('/').map_or(self.0.as_str(), |(_, file)| file);
        file.strip_suffix(".md").unwrap_or(file)
    }
}

/// The text of a list item of a note's body (`- text` or `* text`), without the count a dream
/// appends ([`without_counts`]); `None` for a line that is not an item.
pub fn item_text(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let item = line.strip_prefix("- ").or_else(|| line.strip_prefix("* "))?;
    Some(without_counts(item.trim()))
}

/// A line's text without the count and date a dream appends (`… (2×, last 2026-12-01)` → `…`).
pub fn without_counts(text: &str) -> &str {
    match text.rfind(" (") {
        Some(at) if text.ends_with(')') && text[at..].contains('×') => text[..at].trim_end(),
        _ => text,
    }
}

/// What stands, in an item of the hot files the dream keeps, between the file and the words of
/// what it was edited for: `edited `src/csv_reader.rs` — bom, header (2×, last …)`.
pub const PURPOSE_SEPARATOR: &str = " — ";

/// An item of the hot files split into the file it names and the words of what it was edited
/// for ([`PURPOSE_SEPARATOR`]): `edited `a.rs` — bom, header` → (`edited `a.rs``, `bom, header`).
/// `None` for any other text, whatever dashes it has.
pub fn purpose_parts(text: &str) -> Option<(&str, &str)> {
    const EDITED: &str = "edited `";
    let path = text.strip_prefix(EDITED)?;
    let end = EDITED.len() + path.find('`')? + 1;
    let words = text[end..].strip_prefix(PURPOSE_SEPARATOR)?;
    Some((&text[..end], words))
}

/// `body` with its hot files' words of what they were edited for left out ([`purpose_parts`]),
/// their counts and dates kept: `- edited `a.rs` — bom, header (2×)` → `- edited `a.rs` (2×)`.
pub fn without_purposes(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        let indent = line.len() - line.trim_start().len();
        let item = line[indent..].strip_prefix("- ").and_then(purpose_parts);
        match item {
            Some((file, words)) => {
                out.push_str(&line[..indent]);
                out.push_str("- ");
                out.push_str(file);
                // What follows the words: the count and date, when there are any.
                out.push_str(&words[without_counts(words).len()..]);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    if !body.ends_with('\n') {
        out.pop();
    }
    out
}

/// The code spans of a Markdown text (what stands between backticks), in order, trimmed, empty
/// ones left out.
pub fn code_spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2).map(str::trim).filter(|s| !s.is_empty())
}

/// The folder a project's notes are filed under: `project/<slug of its readable name>`
/// (`project/webshop`). The scope says which project a note belongs to; the folder is for people.
pub fn project_folder(name: &str) -> String {
    format!("project/{}", slug(name))
}

/// Turns free text into a path segment: lowercase ASCII letters and digits joined by `-`.
///
/// `"Acme API (v2)"` becomes `acme-api-v2`. Returns `untitled` when nothing usable remains.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= MAX_SEGMENT_LEN - 3 {
            break;
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() { "untitled".to_owned() } else { trimmed.to_owned() }
}

impl fmt::Display for NotePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for NotePath {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Self::new(s)
    }
}

impl Serialize for NotePath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for NotePath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::new(String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for NotePath {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NotePath".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "Relative path ending in .md; lowercase segments of a-z, 0-9, '-', '_', '.'",
            "pattern": "^[a-z0-9_-][a-z0-9._-]*(/[a-z0-9_-][a-z0-9._-]*)*\\.md$",
            "maxLength": MAX_PATH_LEN
        })
    }
}

/// What sort of knowledge a note holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NoteKind {
    /// Who the user is: role, languages, ways of working.
    Profile,
    /// Something the user prefers or asked for.
    Preference,
    /// A rule of a project (layout, style, commands).
    Convention,
    /// How a tool is used: commands, flags, pitfalls.
    Tool,
    /// A procedure that worked: an error and its fix, a recipe.
    Procedure,
    /// A plain fact worth remembering.
    Fact,
}

impl NoteKind {
    /// The kind as its lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Profile => "profile",
            Self::Preference => "preference",
            Self::Convention => "convention",
            Self::Tool => "tool",
            Self::Procedure => "procedure",
            Self::Fact => "fact",
        }
    }
}

/// Who wrote a note's current version, when a person edited it (in an exported tree).
pub const GENERATOR_HUMAN: &str = "human";

/// Who wrote a note's current version, when a person wrote it with `notes add` or `notes edit`.
pub const GENERATOR_USER: &str = "user";

/// How the generator of a note from a team server begins: `team:<owner>`, the person whose notes
/// it was made from (their e-mail, or the name they set).
pub const GENERATOR_TEAM: &str = "team:";

/// A note's frontmatter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteMeta {
    /// A short human title.
    pub title: String,
    /// One line saying when the note is useful; shown in indexes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Lowercase tags for search and grouping.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Where the note applies.
    pub scope: Scope,
    /// What sort of knowledge it holds.
    pub kind: NoteKind,
    /// Ids of the events the note was distilled from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<EventId>,
    /// When this version was written.
    pub updated: DateTime<Utc>,
    /// What wrote this version: a dream provider (`deterministic`, `anthropic:<model>`), `mcp`, or
    /// [`GENERATOR_HUMAN`] for a note edited by a person.
    pub generator: String,
    /// Whose memory wrote this version: the person's configured owner (their e-mail, or the name
    /// they set), as their events record theirs ([`crate::HookEvent::owner`]); `None` for a note
    /// written before owners were recorded, or made of several people's notes (each item then
    /// says who noted it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// A note: a path, frontmatter and a Markdown body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Note {
    /// Where the note is filed within its scope.
    pub path: NotePath,
    /// Its frontmatter.
    pub meta: NoteMeta,
    /// The Markdown body, verbatim.
    pub body: String,
}

const FENCE: &str = "---\n";

impl Note {
    /// Whether a person wrote this version, by hand or in an edit (the dream must merge into it,
    /// not overwrite it).
    pub fn is_human_edited(&self) -> bool {
        self.meta.generator == GENERATOR_HUMAN || self.meta.generator == GENERATOR_USER
    }

    /// The person a note from a team server was made from, when it is one (its generator is
    /// [`GENERATOR_TEAM`]`<owner>`): other people's project notes, never the dream's to merge into
    /// nor this machine's to share.
    pub fn team_owner(&self) -> Option<&str> {
        self.meta.generator.strip_prefix(GENERATOR_TEAM).filter(|owner| !owner.is_empty())
    }

    /// Checks the limits every writer (dream, MCP, import) must respect.
    pub fn validate(&self) -> Result<()> {
        let bad = |why: String| Err(Error::InvalidInput(format!("note {}: {why}", self.path)));
        let title = self.meta.title.trim();
        if title.is_empty() {
            return bad("title is empty".to_owned());
        }
        if self.meta.title.chars().count() > MAX_TITLE_LEN || self.meta.title.contains('\n') {
            return bad(format!("title must be one line of at most {MAX_TITLE_LEN} characters"));
        }
        if self.body.len() > MAX_BODY_LEN {
            return bad(format!("body is {} bytes, over the {MAX_BODY_LEN}-byte limit", self.body.len()));
        }
        if self.meta.tags.len() > MAX_TAGS {
            return bad(format!("has {} tags, over the limit of {MAX_TAGS}", self.meta.tags.len()));
        }
        if let Some(tag) = self.meta.tags.iter().find(|t| t.is_empty() || *t != &slug(t)) {
            return bad(format!("tag {tag:?} is not a lowercase slug like `cargo` or `test-flags`"));
        }
        if self.meta.generator.trim().is_empty() {
            return bad("generator is empty".to_owned());
        }
        self.meta.scope.validate()
    }

    /// Renders the note as Markdown with YAML frontmatter. [`Note::from_markdown`] reads it back
    /// unchanged, given the path.
    pub fn to_markdown(&self) -> String {
        let yaml = yaml_serde::to_string(&self.meta).expect("note frontmatter always serialises");
        let mut out = String::with_capacity(yaml.len() + self.body.len() + 8);
        out.push_str(FENCE);
        out.push_str(&yaml);
        if !yaml.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(FENCE);
        out.push_str(&self.body);
        out
    }

    /// Parses Markdown with YAML frontmatter (as written by [`Note::to_markdown`] or by hand).
    ///
    /// Windows line endings in the fences are accepted; the body is kept byte for byte.
    pub fn from_markdown(path: NotePath, text: &str) -> Result<Self> {
        let (yaml, body) = split_frontmatter(&path, text)?;
        let meta: NoteMeta = yaml_serde::from_str(yaml)
            .map_err(|e| Error::InvalidNote(format!("{path}: frontmatter: {e}")))?;
        Ok(Self { path, meta, body: body.to_owned() })
    }

    /// Parses Markdown written by hand, filling the frontmatter fields it leaves out (or all of
    /// them, for a file without frontmatter) from `defaults` (the title from the path's file name). Fields it has must still be valid, and
    /// unknown fields are refused as by [`Note::from_markdown`].
    pub fn from_markdown_or(path: NotePath, text: &str, defaults: &NoteDefaults) -> Result<Self> {
        // Plain Markdown, without frontmatter, is all body.
        let bare = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (yaml, body) = if bare.starts_with("---\n") || bare.starts_with("---\r\n") {
            split_frontmatter(&path, text)?
        } else {
            ("", bare)
        };
        let loose: LooseMeta = if yaml.trim().is_empty() {
            LooseMeta::default()
        } else {
            yaml_serde::from_str(yaml).map_err(|e| Error::InvalidNote(format!("{path}: frontmatter: {e}")))?
        };
        let scope = match (loose.scope, &defaults.scope) {
            (Some(scope), _) => scope,
            (None, Some(scope)) => scope.clone(),
            (None, None) => {
                return Err(Error::InvalidNote(format!(
                    "{path}: frontmatter has no `scope` (user, project:<id> or session:<key>)"
                )));
            }
        };
        let meta = NoteMeta {
            title: loose.title.unwrap_or_else(|| title_of(&path)),
            description: loose.description,
            tags: loose.tags,
            scope,
            kind: loose.kind.unwrap_or(defaults.kind),
            sources: loose.sources,
            updated: loose.updated.unwrap_or(defaults.updated),
            generator: loose.generator.unwrap_or_else(|| defaults.generator.clone()),
            owner: loose.owner.or_else(|| defaults.owner.clone()),
        };
        Ok(Self { path, meta, body: body.to_owned() })
    }
}

/// What a note written by hand gets for the frontmatter fields it leaves out
/// ([`Note::from_markdown_or`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NoteDefaults {
    /// Its scope; `None` makes a missing `scope` an error.
    pub scope: Option<Scope>,
    /// Its kind.
    pub kind: NoteKind,
    /// When it was written.
    pub updated: DateTime<Utc>,
    /// Who wrote it.
    pub generator: String,
    /// Whose memory it is written in, when the frontmatter names nobody.
    pub owner: Option<String>,
}

/// Every frontmatter field, each optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LooseMeta {
    title: Option<String>,
    description: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    scope: Option<Scope>,
    kind: Option<NoteKind>,
    #[serde(default)]
    sources: Vec<EventId>,
    updated: Option<DateTime<Utc>>,
    generator: Option<String>,
    owner: Option<String>,
}

/// A title made from a path's file name: `deploy-to-staging.md` → `Deploy to staging`.
fn title_of(path: &NotePath) -> String {
    let words = path.stem().replace(['-', '_'], " ");
    let mut chars = words.chars();
    chars.next().map_or_else(|| "Untitled".to_owned(), |first| first.to_uppercase().chain(chars).collect())
}

impl NotePath {
    /// The rest of a project note's path below its folder (`commands.md` for
    /// `project/webshop/commands.md`), whichever name or id the folder carries; `None` for a path
    /// outside `project/<folder>/`.
    pub fn below_project_folder(&self) -> Option<&str> {
        let rest = self.as_str().strip_prefix("project/")?;
        let (folder, inner) = rest.split_once('/')?;
        (!folder.is_empty() && !inner.is_empty()).then_some(inner)
    }

    /// Where a note written by hand is filed by default: a folder for its kind and its title as a
    /// slug (`Deploy to staging`, a procedure → `procedures/deploy-to-staging.md`).
    pub fn for_title(kind: NoteKind, title: &str) -> Self {
        let folder = match kind {
            NoteKind::Profile | NoteKind::Preference => "profile",
            NoteKind::Convention => "conventions",
            NoteKind::Tool => "tools",
            NoteKind::Procedure => "procedures",
            NoteKind::Fact => "facts",
        };
        Self::new(format!("{folder}/{}.md", slug(title)))
            .unwrap_or_else(|_| Self(format!("{folder}/untitled.md")))
    }
}

/// The frontmatter and body of a Markdown note.
fn split_frontmatter<'a>(path: &NotePath, text: &'a str) -> Result<(&'a str, &'a str)> {
    let invalid = |why: String| Error::InvalidNote(format!("{path}: {why}"));
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| invalid("does not start with a `---` frontmatter line".to_owned()))?;
    let mut offset = 0;
    let (yaml, body) = loop {
        let line_end = rest[offset..].find('\n').map(|i| offset + i + 1);
        let line = &rest[offset..line_end.unwrap_or(rest.len())];
        if line.trim_end_matches(['\n', '\r']) == "---" {
            break (&rest[..offset], &rest[line_end.unwrap_or(rest.len())..]);
        }
        match line_end {
            Some(end) => offset = end,
            None => return Err(invalid("frontmatter has no closing `---` line".to_owned())),
        }
    };
    Ok((yaml, body))
}

/// One change to a note, as the dream, an import or the MCP server applies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum NoteChange {
    /// Create or replace a note (the previous version is kept as history).
    Put(Note),
    /// Delete a note and its history.
    Delete {
        /// The note's scope.
        scope: Scope,
        /// The note's path.
        path: NotePath,
    },
}

#[cfg(test)]
mod defaults_tests {
    use super::*;

    #[test]
    fn missing_fields_take_the_defaults_and_present_ones_stay() {
        let at = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        let defaults = NoteDefaults {
            scope: Some(Scope::User),
            kind: NoteKind::Fact,
            updated: at,
            generator: "user".to_owned(),
            owner: Some("sam@example.com".to_owned()),
        };
        let path = NotePath::new("facts/deploy-to-staging.md").unwrap();
        let note = Note::from_markdown_or(path.clone(), "---\n---\nbody\n", &defaults).unwrap();
        assert_eq!(note.meta.title, "Deploy to staging");
        assert_eq!(
            (note.meta.scope.clone(), note.meta.kind, note.meta.updated),
            (Scope::User, NoteKind::Fact, at)
        );
        assert_eq!((note.meta.generator.as_str(), note.body.as_str()), ("user", "body\n"));
        assert_eq!(note.meta.owner.as_deref(), Some("sam@example.com"));
        let written = "---\ntitle: Staging\nkind: procedure\nscope: project:acme\ngenerator: human\nowner: ann@example.com\n---\nx\n";
        let note = Note::from_markdown_or(path.clone(), written, &defaults).unwrap();
        assert_eq!((note.meta.title.as_str(), note.meta.kind), ("Staging", NoteKind::Procedure));
        assert_eq!(note.meta.owner.as_deref(), Some("ann@example.com"));
        // The owner is written back where there is one, and only then.
        assert!(note.to_markdown().contains("\nowner: ann@example.com\n"), "{}", note.to_markdown());
        let nobody = Note { meta: NoteMeta { owner: None, ..note.meta.clone() }, ..note.clone() };
        assert!(!nobody.to_markdown().contains("owner"), "{}", nobody.to_markdown());
        assert_eq!(Note::from_markdown(path.clone(), &note.to_markdown()).unwrap(), note);
        assert_eq!((note.meta.scope, note.meta.generator.as_str()), (Scope::Project("acme".into()), "human"));
        let plain = Note::from_markdown_or(path.clone(), "# Staging\n\nRun it.\n", &defaults).unwrap();
        assert_eq!(
            (plain.meta.title.as_str(), plain.body.as_str()),
            ("Deploy to staging", "# Staging\n\nRun it.\n")
        );
        let unknown = Note::from_markdown_or(path.clone(), "---\ncolour: red\n---\n", &defaults).unwrap_err();
        assert!(unknown.to_string().contains("colour"), "{unknown}");
        let no_scope = NoteDefaults { scope: None, ..defaults };
        assert!(
            Note::from_markdown_or(path, "---\ntitle: T\n---\n", &no_scope)
                .unwrap_err()
                .to_string()
                .contains("scope")
        );
        assert_eq!(
            NotePath::for_title(NoteKind::Procedure, "Deploy to Staging!").as_str(),
            "procedures/deploy-to-staging.md"
        );
    }
}

#[cfg(test)]
mod purposes_tests {
    #[test]
    fn the_words_of_what_items_were_for_leave_and_their_counts_stay() {
        let body = "Files edited most.\n\n- edited `src/csv_reader.rs` — bom, header (2×, last 2026-12-01)\n- edited `a.rs` — retry\n- read `b.rs` (1×)\n- correction on tests — use hedgehog, not quickcheck (1×)\nA line — not an item\n";
        assert_eq!(
            super::without_purposes(body),
            "Files edited most.\n\n- edited `src/csv_reader.rs` (2×, last 2026-12-01)\n- edited `a.rs`\n- read `b.rs` (1×)\n- correction on tests — use hedgehog, not quickcheck (1×)\nA line — not an item\n"
        );
        assert_eq!(super::purpose_parts("edited `a.rs` — x, y"), Some(("edited `a.rs`", "x, y")));
        assert_eq!(super::purpose_parts("edited `a — b.rs`"), None);
        assert_eq!(super::purpose_parts("run `make` — always"), None);
        assert_eq!(super::without_purposes("- edited `a.rs` — x (1×)"), "- edited `a.rs` (1×)");
        assert_eq!(super::without_purposes(""), "");
    }
}
