//! Full-text search over notes with FTS5 and BM25.
//!
//! The FTS query is built only from [`memory_core::search::terms`]: each term is wrapped in
//! double quotes (a quote inside is doubled) and the terms are joined with `OR`, so nothing the
//! user typed is ever FTS syntax.

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

/// The terms worth asking the index for: all of them, less the very common ones when a rarer
/// term is there to rank by.
fn selective_terms(conn: &Connection, terms: &[String]) -> Result<Vec<String>, StoreError> {
    // The highest id is the number of notes ever stored: a cheap bound on how many there are.
    let stored: i64 =
        conn.prepare_cached("SELECT coalesce(max(id), 0) FROM notes")?.query_row([], |row| row.get(0))?;
    let common = (stored / COMMON_TERM_SHARE).clamp(COMMON_TERM_MIN, COMMON_TERM_NOTES);
    let mut stmt = conn.prepare_cached("SELECT doc FROM notes_vocab WHERE term = ?1")?;
    let mut counted = Vec::with_capacity(terms.len());
    for term in terms {
        let notes: i64 = stmt.query_row([term], |row| row.get(0)).optional()?.unwrap_or(0);
        counted.push((term, notes));
    }
    if counted.iter().all(|(_, notes)| *notes > common) {
        let rarest = counted.iter().min_by_key(|(_, notes)| *notes).map(|(t, _)| (*t).clone());
        return Ok(rarest.into_iter().collect());
    }
    Ok(counted.into_iter().filter(|(_, notes)| *notes <= common).map(|(t, _)| t.clone()).collect())
}

/// The FTS5 query matching any of the terms.
fn fts_query(terms: &[String]) -> String {
    terms.iter().map(|t| format!("\"{}\"", t.replace('"', "\"\""))).collect::<Vec<_>>().join(" OR ")
}

/// Notes in `scopes` (every scope when empty) matching any form of any term, best first.
pub(crate) fn search(
    conn: &Connection,
    terms: &[Term],
    scopes: &[Scope],
    limit: usize,
) -> Result<Vec<SearchHit>, StoreError> {
    let query = fts_query(&selective_terms(conn, &memory_core::search::forms(terms))?);
    let scopes: Vec<String> = scopes.iter().map(Scope::to_string).collect();
    let scope_json = serde_json::to_string(&scopes)?;
    // Rank inside the FTS index first and read only the winners' rows: reading every matching
    // note's body just to sort it would dominate the cost on large stores. The scope filter is
    // checked per matching row, never by listing every note of a scope, in the narrow index of
    // notes' scopes (the planner would read the notes' rows for it).
    let sql = format!(
        "WITH top AS (
             SELECT notes_fts.rowid AS id, bm25(notes_fts, {WEIGHTS}) AS rank
             FROM notes_fts JOIN notes scoped INDEXED BY notes_scope_of ON scoped.id = notes_fts.rowid
             WHERE notes_fts MATCH ?1
               AND (?2 = '[]' OR scoped.scope IN (SELECT value FROM json_each(?2)))
             ORDER BY rank
             LIMIT ?3)
         SELECT n.path, n.meta, n.body, -top.rank AS score
         FROM top JOIN notes n ON n.id = top.id
         ORDER BY top.rank, n.scope_rank, n.scope_key, n.path"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt
        .query_map(params![query, scope_json, to_sql(limit)], |row| {
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
