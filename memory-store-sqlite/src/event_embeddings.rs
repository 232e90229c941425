//! Events' embeddings, for history search by meaning: one row per event and model holding its
//! vector packed as the notes' are ([`crate::embeddings::pack`]: signed bytes and a length), or
//! nothing for an event with nothing to embed. A trigger drops an event's rows with the event.
//! Search compares every vector of the model among the events of the asked session or project
//! (a scan: a few milliseconds for ten thousand events), then reads the closest events in order
//! until enough pass the rest of the filter.

use memory_core::{EventVectorHit, EventVectorQuery, StoredEvent};
use rusqlite::{Connection, params};

use crate::embeddings::{best, pack, quantize};
use crate::error::StoreError;
use crate::events::to_sql;

/// Keeps each vector as the embedding by `model` of the event at its position, when that event
/// is stored; inside the caller's write transaction. Returns how many were kept.
pub(crate) fn put(conn: &Connection, model: &str, vectors: &[(u64, Vec<f32>)]) -> Result<usize, StoreError> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO event_embeddings (position, model, vector)
         SELECT position, ?2, ?3 FROM events WHERE position = ?1
         ON CONFLICT (position, model) DO UPDATE SET vector = excluded.vector",
    )?;
    let mut kept = 0;
    for (position, vector) in vectors {
        let packed = if vector.is_empty() { Vec::new() } else { pack(std::slice::from_ref(vector)) };
        kept += stmt.execute(params![to_sql(*position), model, packed])?;
    }
    Ok(kept)
}

/// The events the query's filter passes, closest to its vector first (see
/// [`memory_core::MemoryStore::search_event_embeddings`]).
pub(crate) fn search(conn: &Connection, query: &EventVectorQuery) -> Result<Vec<EventVectorHit>, StoreError> {
    if query.limit == 0 {
        return Ok(Vec::new());
    }
    let (quantized, norm) = quantize(&query.vector);
    let session = query.filter.session.as_ref().map(|s| s.as_str().to_owned());
    let mut stmt = conn.prepare_cached(
        "SELECT v.position, v.vector FROM event_embeddings v
         JOIN events e ON e.position = v.position
         JOIN sessions s ON s.key = e.session
         WHERE v.model = ?1 AND length(v.vector) > 0
           AND (?2 IS NULL OR e.session = ?2) AND (?3 IS NULL OR s.project = ?3)",
    )?;
    let mut scored: Vec<(f32, i64)> = Vec::new();
    let mut rows = stmt.query(params![query.model, session, query.filter.project])?;
    while let Some(row) = rows.next()? {
        let position: i64 = row.get(0)?;
        let packed: Vec<u8> = row.get(1)?;
        if let Some((similarity, _)) = best(&packed, &quantized, norm) {
            scored.push((similarity, position));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut read = conn.prepare_cached("SELECT seq, event FROM events WHERE position = ?1")?;
    let mut hits = Vec::new();
    for (similarity, position) in scored {
        let (seq, json): (i64, String) = read.query_row([position], |row| Ok((row.get(0)?, row.get(1)?)))?;
        let event =
            StoredEvent { seq: seq as u64, position: position as u64, event: serde_json::from_str(&json)? };
        if query.filter.matches(&event.event) {
            hits.push(EventVectorHit { event, similarity });
            if hits.len() == query.limit {
                break;
            }
        }
    }
    Ok(hits)
}
