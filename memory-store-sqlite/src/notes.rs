//! Notes with their history, and watermarks.

use memory_core::{Note, NoteFilter, NoteMeta, NotePath, Scope};
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::StoreError;

/// The columns that order notes like [`Scope`]'s `Ord`: its kind, then its id.
fn scope_order(scope: &Scope) -> (i64, &str) {
    match scope {
        Scope::User => (0, ""),
        Scope::Project(id) => (1, id),
        Scope::Session(key) => (2, key),
    }
}

/// Builds a note from its stored path, frontmatter JSON and body.
pub(crate) fn decode(path: String, meta: &str, body: String) -> Result<Note, StoreError> {
    let path = NotePath::new(path).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let meta: NoteMeta = serde_json::from_str(meta)?;
    Ok(Note { path, meta, body })
}

fn read_notes(
    stmt: &mut rusqlite::CachedStatement<'_>,
    params: impl rusqlite::Params,
) -> Result<Vec<Note>, StoreError> {
    let rows = stmt
        .query_map(params, |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(|(path, meta, body)| decode(path, &meta, body)).collect()
}

/// The current version of a note.
pub(crate) fn get(conn: &Connection, scope: &Scope, path: &NotePath) -> Result<Option<Note>, StoreError> {
    let mut stmt =
        conn.prepare_cached("SELECT path, meta, body FROM notes WHERE scope = ?1 AND path = ?2")?;
    Ok(read_notes(&mut stmt, params![scope.to_string(), path.as_str()])?.pop())
}

/// Previous versions, oldest first.
pub(crate) fn history(conn: &Connection, scope: &Scope, path: &NotePath) -> Result<Vec<Note>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT path, meta, body FROM note_history WHERE scope = ?1 AND path = ?2 ORDER BY id",
    )?;
    read_notes(&mut stmt, params![scope.to_string(), path.as_str()])
}

/// Current notes passing the filter, by scope then path.
pub(crate) fn list(conn: &Connection, filter: &NoteFilter) -> Result<Vec<Note>, StoreError> {
    let prefix = filter.prefix.as_deref().unwrap_or("");
    let prefix_len = prefix.chars().count() as i64;
    match &filter.scope {
        Some(scope) => {
            let mut stmt = conn.prepare_cached(
                "SELECT path, meta, body FROM notes
                 WHERE scope = ?1 AND (?3 = 0 OR substr(path, 1, ?3) = ?2) ORDER BY path",
            )?;
            read_notes(&mut stmt, params![scope.to_string(), prefix, prefix_len])
        }
        None => {
            let mut stmt = conn.prepare_cached(
                "SELECT path, meta, body FROM notes
                 WHERE ?2 = 0 OR substr(path, 1, ?2) = ?1 ORDER BY scope_rank, scope_key, path",
            )?;
            read_notes(&mut stmt, params![prefix, prefix_len])
        }
    }
}

/// Creates or replaces a note inside the caller's write transaction, keeping the replaced version
/// as history. An identical note changes nothing.
pub(crate) fn put(conn: &Connection, note: &Note) -> Result<(), StoreError> {
    let scope = note.meta.scope.to_string();
    let meta = serde_json::to_string(&note.meta)?;
    let current = conn
        .prepare_cached("SELECT id, meta, body FROM notes WHERE scope = ?1 AND path = ?2")?
        .query_row(params![scope, note.path.as_str()], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?))
        })
        .optional()?;
    let description = note.meta.description.as_deref();
    let tags = note.meta.tags.join(" ");
    let concepts = memory_core::search::concept_text(note);
    match current {
        Some((_, old_meta, old_body)) if old_meta == meta && old_body == note.body => {}
        Some((id, old_meta, old_body)) => {
            conn.prepare_cached(
                "INSERT INTO note_history (scope, path, meta, body) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![scope, note.path.as_str(), old_meta, old_body])?;
            conn.prepare_cached(
                "UPDATE notes SET title = ?2, description = ?3, tags = ?4, body = ?5, meta = ?6, concepts = ?7
                 WHERE id = ?1",
            )?
            .execute(params![id, note.meta.title, description, tags, note.body, meta, concepts])?;
            // Codes of the note's earlier text go now, not at the next write to their block.
            crate::embeddings::compact_stale(conn)?;
        }
        None => {
            let (rank, key) = scope_order(&note.meta.scope);
            conn.prepare_cached(
                "INSERT INTO notes (scope, scope_rank, scope_key, path, title, description, tags, body, meta, concepts)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                scope,
                rank,
                key,
                note.path.as_str(),
                note.meta.title,
                description,
                tags,
                note.body,
                meta,
                concepts
            ])?;
        }
    }
    Ok(())
}

/// Fills in every note's topics ([`memory_core::search::concept_text`]) and rebuilds the
/// full-text index from the notes: the migration that adds the column.
pub(crate) fn fill_concepts(conn: &Connection) -> Result<(), StoreError> {
    let rows: Vec<(i64, String, String, String)> = conn
        .prepare("SELECT id, path, meta, body FROM notes")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut update = conn.prepare("UPDATE notes SET concepts = ?2 WHERE id = ?1")?;
    for (id, path, meta, body) in rows {
        let note = decode(path, &meta, body)?;
        update.execute(params![id, memory_core::search::concept_text(&note)])?;
    }
    conn.execute("INSERT INTO notes_fts (notes_fts) VALUES ('rebuild')", [])?;
    Ok(())
}

/// Segments of the notes' full-text index past which a write of notes merges it into one. Every
/// commit adds a segment and FTS5 merges them only level by level, so a store written by many
/// dreams is searched in up to a dozen; a search seeks each of its terms in each one.
const INDEX_SEGMENTS: i64 = 4;

/// Merges the notes' full-text index into one segment (FTS5 `optimize`) and folds the rewrite
/// from the WAL into the file, so the next process to open it need not.
pub(crate) fn optimize_index(conn: &Connection) -> Result<(), StoreError> {
    conn.execute("INSERT INTO notes_fts (notes_fts) VALUES ('optimize')", [])?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    Ok(())
}

/// [`optimize_index`] once writes have left the index in more than [`INDEX_SEGMENTS`] segments:
/// a rewrite of the index every few dozen commits (half a second at 100,000 notes), instead of a
/// dozen seeks per term in every search.
pub(crate) fn tidy_index(conn: &Connection) -> Result<(), StoreError> {
    let segments: i64 = conn
        .prepare_cached("SELECT count(DISTINCT segid) FROM notes_fts_idx")?
        .query_row([], |row| row.get(0))?;
    if segments > INDEX_SEGMENTS {
        optimize_index(conn)?;
    }
    Ok(())
}

/// Deletes a note and its history inside the caller's write transaction.
pub(crate) fn delete(conn: &Connection, scope: &Scope, path: &NotePath) -> Result<bool, StoreError> {
    let scope = scope.to_string();
    conn.prepare_cached("DELETE FROM note_history WHERE scope = ?1 AND path = ?2")?
        .execute(params![scope, path.as_str()])?;
    let deleted = conn
        .prepare_cached("DELETE FROM notes WHERE scope = ?1 AND path = ?2")?
        .execute(params![scope, path.as_str()])?;
    // The note's codes go with it, not at the next write to their block.
    crate::embeddings::compact_stale(conn)?;
    Ok(deleted > 0)
}

/// Watermarks are stored as the bit pattern of the `u64`, so every value round-trips.
fn from_bits(bits: i64) -> u64 {
    bits as u64
}

/// A watermark's position.
pub(crate) fn watermark(conn: &Connection, name: &str) -> Result<Option<u64>, StoreError> {
    let bits = conn
        .prepare_cached("SELECT position FROM watermarks WHERE name = ?1")?
        .query_row([name], |row| row.get::<_, i64>(0))
        .optional()?;
    Ok(bits.map(from_bits))
}

/// Every watermark, by name.
pub(crate) fn watermarks(conn: &Connection) -> Result<Vec<(String, u64)>, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT name, position FROM watermarks ORDER BY name")?;
    let rows = stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, from_bits(row.get(1)?))))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Sets a watermark inside the caller's write transaction.
pub(crate) fn set_watermark(conn: &Connection, name: &str, position: u64) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO watermarks (name, position) VALUES (?1, ?2)
         ON CONFLICT (name) DO UPDATE SET position = excluded.position",
    )?
    .execute(params![name, position as i64])?;
    Ok(())
}
