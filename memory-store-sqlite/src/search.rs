//! Full-text search over notes with FTS5 and BM25.
//!
//! The FTS queries are built only from [`memory_core::search::terms`]: each form is wrapped in
//! double quotes (a quote inside is doubled) and joined with `OR` and `AND` of our own, so nothing
//! the user typed is ever FTS syntax. How many notes hold each form decides which forms rank and
//! which may find a note alone ([`index_query`]).

use memory_core::search::Term;
use memory_core::{Scope, SearchHit};
use rusqlite::{Connection, OptionalExtension as _, params};

use crate::error::StoreError;
use crate::events::to_sql;
use crate::notes::decode;

/// BM25 column weights, in the FTS table's column order: path, title, description, tags, body,
/// concepts (the topics the note names, which say less than its own words).
const WEIGHTS: &str = "4.0, 10.0, 5.0, 10.0, 1.0, 1.0";

/// Terms found in more notes than this are left out of the index query while a rarer term
/// remains: they barely move BM25 ranking, yet would make it score most of a large store.
const COMMON_TERM_NOTES: i64 = 2_000;
/// In a smaller store, a term in more than this share of the notes is as common (but never one
/// in fewer than [`COMMON_TERM_MIN`] notes): a word of a topic many notes name, like "handling"
/// of error handling, would otherwise have a fifth of the store scored for it.
const COMMON_TERM_SHARE: i64 = 10;
/// See [`COMMON_TERM_SHARE`].
const COMMON_TERM_MIN: i64 = 200;
/// A term in more than this share of the notes (and in more than [`BROAD_TERM_MIN`]) is broad:
/// beside a rarer term of the query it still ranks the notes it is in, but finds a note only
/// together with another of the query's terms. A note that shares one everyday word with the
/// prompt and nothing else is no answer to it, and scoring every such note is what a search of a
/// large store spent its time on.
const BROAD_TERM_SHARE: i64 = 100;
/// See [`BROAD_TERM_SHARE`].
const BROAD_TERM_MIN: i64 = 50;

/// What to ask the index: the terms that rank the notes found, and, when some of them are broad,
/// which notes may be found at all.
#[derive(Debug, PartialEq)]
struct IndexQuery {
    /// Every form of the asked terms worth ranking by, as an FTS5 query matching any of them.
    rank: String,
    /// The notes that may be found, as an FTS5 query; `None` when every ranked note may be.
    found: Option<String>,
}

/// How many notes hold each of `forms`, as the index counts them.
fn notes_with(conn: &Connection, forms: &[String]) -> Result<Vec<i64>, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT doc FROM notes_vocab WHERE term = ?1")?;
    forms.iter().map(|form| Ok(stmt.query_row([form], |row| row.get(0)).optional()?.unwrap_or(0))).collect()
}

/// The index query for `terms` in a store of about `stored` notes, given how many notes hold each
/// of `forms` (the terms' forms, deduplicated, [`memory_core::search::forms`]).
fn index_query(terms: &[Term], forms: &[String], notes: &[i64], stored: i64) -> IndexQuery {
    let common = (stored / COMMON_TERM_SHARE).clamp(COMMON_TERM_MIN, COMMON_TERM_NOTES);
    // The very common forms are left out while a rarer one remains; with none, the rarest stays.
    let kept: Vec<(&String, i64)> = if notes.iter().all(|&n| n > common) {
        forms.iter().zip(notes.iter().copied()).min_by_key(|(_, n)| *n).into_iter().collect()
    } else {
        forms.iter().zip(notes.iter().copied()).filter(|(_, n)| *n <= common).collect()
    };
    let rank = any_of(kept.iter().map(|(form, _)| *form));
    let broad = (stored / BROAD_TERM_SHARE).max(BROAD_TERM_MIN);
    // By asked term, its forms kept. A term is narrow when a form of it is in a few notes (in at
    // least one, and in no more than `broad`), broad when its forms are only in more (forms in no
    // note count for nothing); a narrow term finds notes with any form of it, a broad one only
    // notes that have a form of another broad term too.
    let (mut narrow, mut groups) = (Vec::new(), Vec::new());
    for term in terms {
        let forms: Vec<&(&String, i64)> = kept.iter().filter(|(form, _)| term.forms.contains(form)).collect();
        if forms.iter().any(|(_, n)| (1..=broad).contains(n)) {
            narrow.extend(forms.iter().map(|(form, _)| *form));
        } else if forms.iter().any(|(_, n)| *n > broad) {
            groups.push(any_of(forms.iter().map(|(form, _)| *form)));
        }
    }
    if narrow.is_empty() || groups.is_empty() {
        return IndexQuery { rank, found: None };
    }
    let mut found = vec![any_of(narrow.into_iter())];
    for (i, group) in groups.iter().enumerate().take(groups.len() - 1) {
        found.push(format!("(({group}) AND ({}))", groups[i + 1..].join(" OR ")));
    }
    IndexQuery { rank, found: Some(found.join(" OR ")) }
}

/// An FTS5 query matching any of `forms`: each one quoted (a quote inside doubled), so nothing
/// the user typed is ever FTS syntax.
fn any_of<'a>(forms: impl Iterator<Item = &'a String>) -> String {
    forms.map(|t| format!("\"{}\"", t.replace('"', "\"\""))).collect::<Vec<_>>().join(" OR ")
}

/// Notes in `scopes` (every scope when empty) matching any form of any term, best first.
pub(crate) fn search(
    conn: &Connection,
    terms: &[Term],
    scopes: &[Scope],
    limit: usize,
) -> Result<Vec<SearchHit>, StoreError> {
    let forms = memory_core::search::forms(terms);
    // The highest id is the number of notes ever stored: a cheap bound on how many there are.
    let stored: i64 =
        conn.prepare_cached("SELECT coalesce(max(id), 0) FROM notes")?.query_row([], |row| row.get(0))?;
    let query = index_query(terms, &forms, &notes_with(conn, &forms)?, stored);
    let scopes: Vec<String> = scopes.iter().map(Scope::to_string).collect();
    let scope_json = serde_json::to_string(&scopes)?;
    // Rank inside the FTS index first and read only the winners' rows: reading every matching
    // note's body just to sort it would dominate the cost on large stores. The scope filter is
    // checked per matching row, never by listing every note of a scope, in the narrow index of
    // notes' scopes (the planner would read the notes' rows for it). The notes that may be found
    // are listed once and each ranked row is looked up in that list (`+` keeps the planner from
    // running the ranking query once per listed note instead), so only they are scored.
    let found = if query.found.is_some() {
        "AND +notes_fts.rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?4)"
    } else {
        "AND ?4 IS NULL"
    };
    let sql = format!(
        "WITH top AS (
             SELECT notes_fts.rowid AS id, bm25(notes_fts, {WEIGHTS}) AS rank
             FROM notes_fts JOIN notes scoped INDEXED BY notes_scope_of ON scoped.id = notes_fts.rowid
             WHERE notes_fts MATCH ?1 {found}
               AND (?2 = '[]' OR scoped.scope IN (SELECT value FROM json_each(?2)))
             ORDER BY rank
             LIMIT ?3)
         SELECT n.path, n.meta, n.body, -top.rank AS score
         FROM top JOIN notes n ON n.id = top.id
         ORDER BY top.rank, n.scope_rank, n.scope_key, n.path"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt
        .query_map(params![query.rank, scope_json, to_sql(limit), query.found], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?, row.get(3)?))
        })?
        .collect::<rusqlite::Result<Vec<(String, String, String, f64)>>>()?;
    rows.into_iter()
        .map(|(path, meta, body, score)| {
            let note = decode(path, &meta, body)?;
            let matched_terms = memory_core::search::matched_terms(&note, terms).max(1);
            Ok(SearchHit { note, score, matched_terms })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use memory_core::search::{Term, forms};

    use super::{IndexQuery, index_query};

    fn term(forms: &[&str]) -> Term {
        Term { asked: forms[0].to_owned(), forms: forms.iter().map(|f| (*f).to_owned()).collect() }
    }

    /// The index query for `terms` whose forms are held by `notes` notes each, in 10,000 notes.
    fn query(terms: &[Term], notes: &[i64]) -> IndexQuery {
        index_query(terms, &forms(terms), notes, 10_000)
    }

    #[test]
    fn without_a_broad_term_every_ranked_note_may_be_found() {
        let terms = [term(&["harbor"]), term(&["staging", "stage"])];
        let q = query(&terms, &[3, 40, 12]);
        assert_eq!(q, IndexQuery { rank: r#""harbor" OR "staging" OR "stage""#.to_owned(), found: None });
    }

    #[test]
    fn a_broad_term_ranks_the_notes_a_rarer_one_finds_and_finds_notes_only_beside_another() {
        let terms = [term(&["retry", "retries"]), term(&["kalomix3"]), term(&["cargo"]), term(&["deploy"])];
        let q = query(&terms, &[900, 150, 4, 1_000, 30]);
        assert_eq!(q.rank, r#""retry" OR "retries" OR "kalomix3" OR "cargo" OR "deploy""#);
        assert_eq!(
            q.found.as_deref(),
            Some(r#""kalomix3" OR "deploy" OR (("retry" OR "retries") AND ("cargo"))"#)
        );
    }

    #[test]
    fn with_only_broad_terms_any_of_them_finds_a_note() {
        let terms = [term(&["cargo"]), term(&["test"])];
        assert_eq!(query(&terms, &[1_000, 900]).found, None);
        // A word in no note is no rarer term.
        let terms = [term(&["cargo", "cargos"]), term(&["zzqqx"])];
        assert_eq!(query(&terms, &[1_000, 0, 0]).found, None);
    }

    #[test]
    fn a_term_with_a_form_in_a_few_notes_finds_notes_with_any_of_its_forms() {
        let terms = [term(&["tests", "test", "testing"]), term(&["flaky"]), term(&["cargo"])];
        let q = query(&terms, &[700, 1_000, 12, 500, 1_000]);
        assert_eq!(
            q.found.as_deref(),
            Some(r#""tests" OR "test" OR "testing" OR (("flaky") AND ("cargo"))"#)
        );
    }

    #[test]
    fn very_common_terms_neither_rank_nor_find_beside_a_rarer_one() {
        let terms = [term(&["the"]), term(&["cargo"]), term(&["kalomix3"])];
        let q = query(&terms, &[5_000, 1_000, 4]);
        assert_eq!(
            q,
            IndexQuery {
                rank: r#""cargo" OR "kalomix3""#.to_owned(),
                found: Some(r#""kalomix3""#.to_owned())
            }
        );
        // Only very common terms: the rarest of them, alone.
        let q = query(&terms[..2], &[5_000, 3_000]);
        assert_eq!(q, IndexQuery { rank: r#""cargo""#.to_owned(), found: None });
    }
}
