//! Search over recorded events, and forgetting: events, sessions and notes deleted with every copy
//! the database file and its write-ahead log hold.
//!
//! Events are indexed lazily: `events_fts` holds the words of every event up to the position in
//! `events_fts_indexed`, and each search first indexes the events appended since, in its own write
//! transaction. Appends never touch the index, so a hook's append costs what it did.

use memory_core::search::{Term, event_matched, expand, words};
use memory_core::{EventHit, EventQuery, ForgetSet, Forgotten, HookEvent, StoredEvent, TextMatch};
use rusqlite::{Connection, OptionalExtension as _, TransactionBehavior, params};

use crate::error::StoreError;
use crate::notes;

/// Events indexed per read of the `events` table.
const INDEX_BATCH: i64 = 2_000;

/// How long a forget waits, at most, for other connections to finish reading before it truncates
/// the write-ahead log (each try also waits up to the busy timeout).
const CHECKPOINT_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);
const CHECKPOINT_STEP: std::time::Duration = std::time::Duration::from_millis(25);

fn indexed_up_to(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("SELECT position FROM events_fts_indexed WHERE id = 1", [], |r| r.get(0))?)
}

/// Indexes the events appended since the last search, inside the caller's write transaction.
pub(crate) fn catch_up(conn: &Connection) -> Result<(), StoreError> {
    let start = indexed_up_to(conn)?;
    let mut mark = start;
    let mut select = conn.prepare_cached(
        "SELECT position, event FROM events WHERE position > ?1 ORDER BY position LIMIT ?2",
    )?;
    let mut insert = conn.prepare_cached("INSERT INTO events_fts (rowid, text) VALUES (?1, ?2)")?;
    loop {
        let rows = select
            .query_map(params![mark, INDEX_BATCH], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let Some(&(last, _)) = rows.last() else { break };
        for (position, json) in &rows {
            let event: HookEvent = serde_json::from_str(json)?;
            insert.execute(params![position, memory_core::search::event_index_text(&event)])?;
        }
        mark = last;
    }
    if mark != start {
        conn.execute("UPDATE events_fts_indexed SET position = ?1 WHERE id = 1", [mark])?;
    }
    Ok(())
}

/// The FTS5 query: each form quoted (a phrase for a form of several words), joined by `OR`.
fn any_of(terms: &[Term]) -> String {
    memory_core::search::forms(terms)
        .iter()
        .map(|f| format!("\"{}\"", f.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" OR ")
}

fn decode(position: i64, seq: i64, json: &str) -> Result<StoredEvent, StoreError> {
    Ok(StoredEvent { seq: seq as u64, position: position as u64, event: serde_json::from_str(json)? })
}

/// Events matching the query (see [`memory_core::MemoryStore::search_events`]); indexes first.
pub(crate) fn search(conn: &mut Connection, query: &EventQuery) -> Result<Vec<EventHit>, StoreError> {
    if query.limit == 0 {
        return Ok(Vec::new());
    }
    let session = query.filter.session.as_ref().map(|s| s.as_str().to_owned());
    let mut hits = Vec::new();
    let Some(text) = &query.text else {
        let mut stmt = conn.prepare_cached(
            "SELECT position, seq, event FROM events WHERE ?1 IS NULL OR session = ?1 ORDER BY position DESC",
        )?;
        let mut rows = stmt.query(params![session])?;
        while let Some(row) = rows.next()? {
            let stored = decode(row.get(0)?, row.get(1)?, &row.get::<_, String>(2)?)?;
            if query.filter.matches(&stored.event) {
                hits.push(EventHit { event: stored, score: 0.0, matched_terms: 0 });
                if hits.len() == query.limit {
                    break;
                }
            }
        }
        return Ok(hits);
    };
    let (fts, order, terms, phrase) = match query.matching {
        TextMatch::Any => {
            let terms = expand(text);
            (any_of(&terms), "rank, e.position DESC", terms, Vec::new())
        }
        TextMatch::Phrase => {
            let phrase = words(text);
            (format!("\"{}\"", phrase.join(" ")), "e.position DESC", Vec::new(), phrase)
        }
    };
    if terms.is_empty() && phrase.is_empty() {
        return Ok(Vec::new());
    }
    // A ranked search picks among the best matches by relevance those holding the most terms.
    let window = if phrase.is_empty() {
        query.limit.saturating_mul(memory_core::EVENT_SEARCH_WINDOW).max(memory_core::EVENT_SEARCH_MIN)
    } else {
        query.limit
    };
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    catch_up(&tx)?;
    {
        let sql = format!(
            "SELECT e.position, e.seq, e.event, bm25(events_fts) AS rank
             FROM events_fts JOIN events e ON e.position = events_fts.rowid
             WHERE events_fts MATCH ?1 AND (?2 IS NULL OR e.session = ?2)
             ORDER BY {order}"
        );
        let mut stmt = tx.prepare_cached(&sql)?;
        let mut rows = stmt.query(params![fts, session])?;
        while let Some(row) = rows.next()? {
            let stored = decode(row.get(0)?, row.get(1)?, &row.get::<_, String>(2)?)?;
            if !query.filter.matches(&stored.event) {
                continue;
            }
            let score = -row.get::<_, f64>(3)?;
            let matched = event_matched(&stored.event, &terms, &phrase);
            if matched > 0 {
                hits.push(EventHit {
                    event: stored,
                    score: score.max(f64::MIN_POSITIVE),
                    matched_terms: matched,
                });
                if hits.len() == window {
                    break;
                }
            }
        }
    }
    tx.commit()?;
    if phrase.is_empty() {
        memory_core::rank_event_hits(&mut hits);
    }
    hits.truncate(query.limit);
    Ok(hits)
}

/// Deletes what `what` names with `secure_delete` on, merges the full-text indexes (so no deleted
/// term stays in an old segment), rebuilds the file (`VACUUM`: no free page keeps an older copy)
/// and truncates the write-ahead log.
/// With nothing to delete it still rebuilds the file and empties the log: what an earlier forget
/// could not finish (another process kept reading) is finished.
pub(crate) fn forget(conn: &mut Connection, what: &ForgetSet) -> Result<Forgotten, StoreError> {
    conn.pragma_update(None, "secure_delete", true)?;
    let result = delete_and_purge(conn, what);
    let reset = conn.pragma_update(None, "secure_delete", false);
    let forgotten = result?;
    reset?;
    Ok(forgotten)
}

fn delete_and_purge(conn: &mut Connection, what: &ForgetSet) -> Result<Forgotten, StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut forgotten = Forgotten::default();
    let mut positions: Vec<i64> = Vec::new();
    {
        let mut by_id = tx.prepare_cached("SELECT position FROM events WHERE id = ?1")?;
        for id in &what.events {
            if let Some(position) = by_id.query_row([id.as_str()], |r| r.get::<_, i64>(0)).optional()? {
                positions.push(position);
            }
        }
        let mut of_session = tx.prepare_cached("SELECT position FROM events WHERE session = ?1")?;
        let mut drop_session = tx.prepare_cached("DELETE FROM sessions WHERE key = ?1")?;
        for key in &what.sessions {
            let rows = of_session
                .query_map([key.as_str()], |r| r.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            positions.extend(rows);
            forgotten.sessions += drop_session.execute([key.as_str()])? as u64;
        }
        positions.sort_unstable();
        positions.dedup();
        let indexed = indexed_up_to(&tx)?;
        let mut unindex = tx.prepare_cached("DELETE FROM events_fts WHERE rowid = ?1")?;
        let mut delete = tx.prepare_cached("DELETE FROM events WHERE position = ?1")?;
        for &position in &positions {
            if position <= indexed {
                unindex.execute([position])?;
            }
            forgotten.events += delete.execute([position])? as u64;
        }
        for (scope, path) in &what.notes {
            if notes::delete(&tx, scope, path)? {
                forgotten.notes += 1;
            }
        }
        // A delete leaves the old terms in the segment that held them until segments merge.
        tx.execute("INSERT INTO events_fts (events_fts) VALUES ('optimize')", [])?;
        tx.execute("INSERT INTO notes_fts (notes_fts) VALUES ('optimize')", [])?;
    }
    tx.commit()?;
    conn.execute_batch("VACUUM")?;
    truncate_wal(conn)?;
    Ok(forgotten)
}

/// Checkpoints the whole write-ahead log into the database and truncates it to nothing, waiting
/// for readers of older snapshots to finish.
pub(crate) fn truncate_wal(conn: &Connection) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    loop {
        let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        if busy == 0 {
            return Ok(());
        }
        if started.elapsed() >= CHECKPOINT_PATIENCE {
            return Err(StoreError::WalBusy);
        }
        std::thread::sleep(CHECKPOINT_STEP);
    }
}
