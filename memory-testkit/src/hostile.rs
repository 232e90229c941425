//! Search queries that break naive query builders, and the check that a store survives them.

use std::collections::BTreeSet;

use memory_core::search::terms;
use memory_core::{MemoryStore, Note, SearchQuery};

use crate::fixtures::{note, project_scope};

const fn repeat<const N: usize>(pattern: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = pattern[i % pattern.len()];
        i += 1;
    }
    out
}

const fn as_str(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => panic!("pattern must be ASCII"),
    }
}

const LONG_SYNTAX: [u8; 10_000] = repeat(b"(cargo OR \"x\" AND y*) NEAR/2 -z ^w ");
const LONG_TOKEN: [u8; 10_000] = repeat(b"a");

/// Queries that are query syntax in FTS5, Lucene or SQL, odd Unicode, empty and very long text.
///
/// A store must answer every one with `Ok` (usually with hits for the ordinary words in it).
pub const HOSTILE_QUERIES: &[&str] = &[
    "\"cargo\" test:flags (NEAR)",
    "\"",
    "\"\"",
    "\"unbalanced quote",
    "it's a 'single' quote",
    "col:value",
    "title:cargo",
    ":",
    "::",
    "(",
    ")",
    "(cargo",
    "cargo)",
    "((nested (parens)))",
    "*",
    "cargo*",
    "*cargo",
    "NEAR",
    "NEAR(a b)",
    "NEAR(cargo flags, 3)",
    "cargo NEAR/3 flags",
    "AND",
    "OR",
    "NOT",
    "cargo AND",
    "OR cargo",
    "NOT cargo",
    "cargo AND NOT flags OR test",
    "-",
    "-cargo",
    "--",
    "^",
    "^cargo",
    "+cargo +test",
    "src/main.rs",
    "C:\\Users\\x",
    "\\",
    "\\\\",
    "title:foo~2",
    "cargo~",
    "[a TO b]",
    "{a TO b}",
    "{}",
    "&&",
    "||",
    "cargo && test || flags",
    "!",
    "!cargo",
    "?",
    "carg?",
    "/regex.*/",
    "'; DROP TABLE notes; --",
    "\"; DROP TABLE notes; --",
    "1=1 OR 'a'='a'",
    "%",
    "_",
    "cargo%",
    "MATCH 'x'",
    "$1 ?1 :name @p",
    "日本語のメモ",
    "テスト",
    "🦀 rust 🚀",
    "🦀",
    "café crème brûlée",
    "שלום עולם",
    "مرحبا",
    "ﬁle",
    "\u{200b}\u{200d}\u{feff}",
    "\u{0}",
    "\t\r\n",
    "",
    " ",
    "     \n  ",
    as_str(&LONG_SYNTAX),
    as_str(&LONG_TOKEN),
];

/// The words of a note as search sees them when every term is ASCII.
fn ascii_words(note: &Note) -> BTreeSet<String> {
    memory_core::search::indexed_text(note)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Stores a few notes in a fresh scope and runs every [`HOSTILE_QUERIES`] entry against it.
///
/// Every query must return `Ok`. When the store does full-text search, a query whose searchable
/// terms (see [`memory_core::search::terms`]) are ASCII must find every note that contains one
/// of them, and nothing else.
pub async fn hostile_search(store: &dyn MemoryStore) {
    let scope = project_scope("hostile");
    let notes = [
        note(&scope, "tools/cargo/test-flags.md", "Cargo test flags", &["cargo"], "cargo test --workspace\n"),
        note(&scope, "notes/paths.md", "Paths", &[], "Edit src/main.rs; on Windows C:\\Users\\x.\n"),
        note(&scope, "notes/sql.md", "SQL", &[], "DROP TABLE notes is dangerous; title foo.\n"),
        note(&scope, "notes/unicode.md", "Unicode", &[], "日本語のメモ, café, שלום, 🦀 rust.\n"),
    ];
    for n in &notes {
        store.put_note(n).await.unwrap_or_else(|e| panic!("put_note failed: {e}"));
    }
    let fts = store.capabilities().full_text_search;
    for query in HOSTILE_QUERIES {
        let shown: String = query.chars().take(60).collect();
        let result = store.search_notes(&SearchQuery::new(*query, vec![scope.clone()], 50)).await;
        let hits = match result {
            Ok(hits) => hits,
            Err(memory_core::Error::Unsupported { .. }) if !fts => continue,
            Err(e) => panic!("hostile query {shown:?} failed: {e}"),
        };
        let wanted = terms(query);
        assert!(!wanted.is_empty() || hits.is_empty(), "query {shown:?} has no terms but found notes");
        if !fts || !wanted.iter().all(|t| t.is_ascii()) {
            continue;
        }
        let expected: BTreeSet<&str> = notes
            .iter()
            .filter(|n| {
                let words = ascii_words(n);
                wanted.iter().any(|t| words.contains(t))
            })
            .map(|n| n.path.as_str())
            .collect();
        let found: BTreeSet<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
        assert_eq!(
            found, expected,
            "query {shown:?} (terms {wanted:?}) must find the notes holding its words"
        );
    }
}
