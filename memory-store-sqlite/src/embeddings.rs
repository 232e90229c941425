//! Notes' embeddings, in the same database file: one row per vector (a note has several, one per
//! passage), dropped by triggers when the note changes or goes. Search reads the vectors of the
//! asked scopes once, keeps each note's best similarity, and reads only the winners' notes.

use memory_core::{Note, Scope, VectorHit, VectorQuery, cosine};
use rusqlite::{Connection, OptionalExtension as _, params};

use crate::error::StoreError;
use crate::events::to_sql;
use crate::notes::decode;

fn to_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn from_blob(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Replaces the note's vectors when `note` is its current version; inside the caller's write
/// transaction.
pub(crate) fn put(
    conn: &Connection,
    note: &Note,
    model: &str,
    vectors: &[Vec<f32>],
) -> Result<bool, StoreError> {
    let id: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM notes WHERE scope = ?1 AND path = ?2 AND title = ?3 AND description IS ?4
               AND tags = ?5 AND body = ?6",
        )?
        .query_row(
            params![
                note.meta.scope.to_string(),
                note.path.as_str(),
                note.meta.title,
                note.meta.description.as_deref(),
                note.meta.tags.join(" "),
                note.body
            ],
            |row| row.get(0),
        )
        .optional()?;
    let Some(id) = id else { return Ok(false) };
    conn.prepare_cached("DELETE FROM note_embeddings WHERE note_id = ?1")?.execute([id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO note_embeddings (note_id, chunk, model, vector) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (chunk, vector) in vectors.iter().enumerate() {
        insert.execute(params![id, to_sql(chunk), model, to_blob(vector)])?;
    }
    Ok(true)
}

/// Current notes without vectors by `model`, in scope and path order.
pub(crate) fn missing(conn: &Connection, model: &str, limit: usize) -> Result<Vec<Note>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT n.path, n.meta, n.body FROM notes n
         WHERE NOT EXISTS (SELECT 1 FROM note_embeddings e WHERE e.note_id = n.id AND e.model = ?1)
         ORDER BY n.scope_rank, n.scope_key, n.path LIMIT ?2",
    )?;
    let rows = stmt
        .query_map(params![model, to_sql(limit)], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(|(path, meta, body)| decode(path, &meta, body)).collect()
}

/// Notes by their best vector's similarity to the query's, best first.
pub(crate) fn search(conn: &Connection, query: &VectorQuery) -> Result<Vec<VectorHit>, StoreError> {
    if query.limit == 0 {
        return Ok(Vec::new());
    }
    let scopes: Vec<String> = query.scopes.iter().map(Scope::to_string).collect();
    let scope_json = serde_json::to_string(&scopes)?;
    let mut stmt = conn.prepare_cached(
        "SELECT e.note_id, e.chunk, e.vector FROM note_embeddings e JOIN notes n ON n.id = e.note_id
         WHERE e.model = ?1 AND (?2 = '[]' OR n.scope IN (SELECT value FROM json_each(?2)))",
    )?;
    let mut best: std::collections::HashMap<i64, (f32, usize)> = std::collections::HashMap::new();
    let mut rows = stmt.query(params![query.model, scope_json])?;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let chunk = usize::try_from(row.get::<_, i64>(1)?).unwrap_or(0);
        let similarity = match row.get_ref(2)? {
            rusqlite::types::ValueRef::Blob(bytes) => cosine(&from_blob(bytes), &query.vector),
            _ => continue,
        };
        let entry = best.entry(id).or_insert((f32::NEG_INFINITY, chunk));
        if similarity > entry.0 || (similarity == entry.0 && chunk < entry.1) {
            *entry = (similarity, chunk);
        }
    }
    let mut ranked: Vec<(i64, (f32, usize))> = best.into_iter().collect();
    ranked.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.0.cmp(&b.0)));
    ranked.truncate(query.limit);
    let mut read = conn.prepare_cached("SELECT path, meta, body FROM notes WHERE id = ?1")?;
    let mut hits = Vec::with_capacity(ranked.len());
    for (id, (similarity, passage)) in ranked {
        let row = read
            .query_row([id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?))
            })
            .optional()?;
        if let Some((path, meta, body)) = row {
            hits.push(VectorHit { note: decode(path, &meta, body)?, similarity, passage });
        }
    }
    Ok(hits)
}
