//! Notes' embeddings, in the same database file: one row per note holding all its vectors (one
//! per passage), dropped by triggers when the note changes or goes. Vectors are kept as signed
//! bytes with their length, a quarter of `f32`s: ranking by them differs from exact cosine by
//! far less than the gap between a relevant note and the next. Search reads the rows of the
//! asked scopes once, keeps each note's best passage, and reads only the winners' notes.

use memory_core::{Note, Scope, VectorHit, VectorQuery};
use rusqlite::{Connection, OptionalExtension as _, params};

use crate::error::StoreError;
use crate::events::to_sql;
use crate::notes::decode;

/// A vector scaled to signed bytes (its largest value to ±127), and the length of that.
fn quantize(vector: &[f32]) -> (Vec<i8>, f32) {
    let max = vector.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let scale = if max > 0.0 { 127.0 / max } else { 0.0 };
    let quantized: Vec<i8> = vector.iter().map(|x| (x * scale).round().clamp(-127.0, 127.0) as i8).collect();
    let norm = quantized.iter().map(|&q| f32::from(q) * f32::from(q)).sum::<f32>().sqrt();
    (quantized, norm)
}

/// Every vector of a note, after their common length (`u32`), each as its length (`f32`) and its
/// values scaled to `i8`; little-endian.
fn pack(vectors: &[Vec<f32>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vectors.iter().map(|v| 4 + v.len()).sum::<usize>() + 4);
    let dims = vectors.first().map_or(0, Vec::len);
    out.extend_from_slice(&u32::try_from(dims).unwrap_or(0).to_le_bytes());
    for vector in vectors.iter().filter(|v| v.len() == dims) {
        let (quantized, norm) = quantize(vector);
        out.extend_from_slice(&norm.to_le_bytes());
        out.extend(quantized.iter().map(|&q| q.to_le_bytes()[0]));
    }
    out
}

/// The dot product of a stored byte vector and a quantized one, in integers (which the compiler
/// vectorises).
fn dot(stored: &[u8], query: &[i8]) -> i32 {
    const LANES: usize = 16;
    let mut lanes = [0i32; LANES];
    let (mut a, mut b) = (stored.chunks_exact(LANES), query.chunks_exact(LANES));
    for (x, y) in (&mut a).zip(&mut b) {
        for i in 0..LANES {
            lanes[i] += i32::from(x[i] as i8) * i32::from(y[i]);
        }
    }
    let rest: i32 =
        a.remainder().iter().zip(b.remainder()).map(|(&x, &y)| i32::from(x as i8) * i32::from(y)).sum();
    lanes.iter().sum::<i32>() + rest
}

/// The best cosine similarity of a packed note's vectors to a quantized query ([`quantize`]),
/// and which vector it is.
fn best(packed: &[u8], query: &[i8], query_norm: f32) -> Option<(f32, usize)> {
    let dims = usize::try_from(u32::from_le_bytes(packed.get(..4)?.try_into().ok()?)).ok()?;
    if dims != query.len() || query_norm == 0.0 {
        return None;
    }
    let mut found: Option<(f32, usize)> = None;
    for (index, vector) in packed[4..].chunks_exact(4 + dims).enumerate() {
        let norm = f32::from_le_bytes(vector[..4].try_into().ok()?);
        if norm == 0.0 {
            continue;
        }
        let similarity = dot(&vector[4..], query) as f32 / (norm * query_norm);
        if found.is_none_or(|(s, _)| similarity > s) {
            found = Some((similarity, index));
        }
    }
    found
}

/// Replaces the note's vectors when `note` is its current version; inside the caller's write
/// transaction.
pub(crate) fn put(
    conn: &Connection,
    note: &Note,
    model: &str,
    vectors: &[Vec<f32>],
) -> Result<bool, StoreError> {
    let scope = note.meta.scope.to_string();
    let id: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM notes WHERE scope = ?1 AND path = ?2 AND title = ?3 AND description IS ?4
               AND tags = ?5 AND body = ?6",
        )?
        .query_row(
            params![
                scope,
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
    conn.prepare_cached(
        "INSERT OR REPLACE INTO note_embeddings (note_id, scope, model, vectors) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, scope, model, pack(vectors)])?;
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
    let (quantized, query_norm) = quantize(&query.vector);
    let scopes: Vec<String> = query.scopes.iter().map(Scope::to_string).collect();
    let scope_json = serde_json::to_string(&scopes)?;
    let mut stmt = conn.prepare_cached(
        "SELECT note_id, vectors FROM note_embeddings
         WHERE model = ?1 AND (?2 = '[]' OR scope IN (SELECT value FROM json_each(?2)))",
    )?;
    // The best `limit` so far, worst last.
    let mut top: Vec<(i64, f32, usize)> = Vec::with_capacity(query.limit + 1);
    let mut rows = stmt.query(params![query.model, scope_json])?;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let rusqlite::types::ValueRef::Blob(packed) = row.get_ref(1)? else { continue };
        let Some((similarity, passage)) = best(packed, &quantized, query_norm) else { continue };
        if top.len() == query.limit && top.last().is_some_and(|&(_, s, _)| similarity <= s) {
            continue;
        }
        let at = top.partition_point(|&(other, s, _)| s > similarity || (s == similarity && other < id));
        top.insert(at, (id, similarity, passage));
        top.truncate(query.limit);
    }
    let mut read = conn.prepare_cached("SELECT path, meta, body FROM notes WHERE id = ?1")?;
    let mut hits = Vec::with_capacity(top.len());
    for (id, similarity, passage) in top {
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

#[cfg(test)]
mod tests {
    use super::{best, pack, quantize};

    #[test]
    fn packed_vectors_rank_as_the_originals_do() {
        let a = vec![0.6f32, 0.8, 0.0];
        let b = vec![0.0f32, 0.28, 0.96];
        let packed = pack(&[a, b.clone()]);
        assert_eq!(packed.len(), 4 + 2 * (4 + 3));
        let (query, norm) = quantize(&[0.0, 0.3, 0.9]);
        let (similarity, passage) = best(&packed, &query, norm).unwrap();
        assert_eq!(passage, 1);
        let exact = memory_core::cosine(&b, &[0.0, 0.3, 0.9]);
        assert!((similarity - exact).abs() < 0.01, "{similarity} vs {exact}");
        let (other, norm) = quantize(&[1.0, 0.0]);
        assert!(best(&packed, &other, norm).is_none(), "another length compares with nothing");
    }
}
