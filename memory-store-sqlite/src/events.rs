//! Events and sessions: appending with per-session seqs, timelines, listings and cursors.

use chrono::{DateTime, Utc};
use memory_core::{Appended, EventId, HookEvent, SessionInfo, SessionKey, StoredEvent};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::StoreError;

/// A count or cursor as SQLite's signed integer; values past `i64::MAX` saturate.
pub(crate) fn to_sql(value: impl TryInto<i64>) -> i64 {
    value.try_into().unwrap_or(i64::MAX)
}

fn split_time(at: DateTime<Utc>) -> (i64, i64) {
    (at.timestamp(), i64::from(at.timestamp_subsec_nanos()))
}

fn join_time(secs: i64, nanos: i64) -> Result<DateTime<Utc>, StoreError> {
    u32::try_from(nanos)
        .ok()
        .and_then(|n| DateTime::from_timestamp(secs, n))
        .ok_or_else(|| StoreError::Corrupt(format!("session time {secs}.{nanos} out of range")))
}

/// What the `sessions` table holds for one session.
struct SessionRow {
    harness: String,
    project: Option<String>,
    owner: Option<String>,
    started: (i64, i64),
    last: (i64, i64),
    events: i64,
}

/// Appends events inside the caller's write transaction.
pub(crate) fn append(conn: &Connection, events: &[HookEvent]) -> Result<Vec<Appended>, StoreError> {
    let mut find = conn.prepare_cached("SELECT session, seq FROM events WHERE id = ?1")?;
    let mut session_row = conn.prepare_cached(
        "SELECT harness, project, owner, started_s, started_ns, last_s, last_ns, events FROM sessions WHERE key = ?1",
    )?;
    let mut insert =
        conn.prepare_cached("INSERT INTO events (id, session, seq, event) VALUES (?1, ?2, ?3, ?4)")?;
    let mut upsert = conn.prepare_cached(
        "INSERT INTO sessions (key, harness, project, owner, started_s, started_ns, last_s, last_ns, events)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (key) DO UPDATE SET project = excluded.project, owner = excluded.owner,
             started_s = excluded.started_s,
             started_ns = excluded.started_ns, last_s = excluded.last_s, last_ns = excluded.last_ns,
             events = excluded.events",
    )?;
    let mut out = Vec::with_capacity(events.len());
    for event in events {
        let existing = find
            .query_row([event.id.as_str()], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)))
            .optional()?;
        if let Some((session, seq)) = existing {
            out.push(Appended {
                id: event.id.clone(),
                session: SessionKey(session),
                seq: seq as u64,
                inserted: false,
            });
            continue;
        }
        let at = split_time(event.occurred_at);
        let row = session_row
            .query_row([event.session.as_str()], |row| {
                Ok(SessionRow {
                    harness: row.get(0)?,
                    project: row.get(1)?,
                    owner: row.get(2)?,
                    started: (row.get(3)?, row.get(4)?),
                    last: (row.get(5)?, row.get(6)?),
                    events: row.get(7)?,
                })
            })
            .optional()?;
        let row = match row {
            Some(mut row) => {
                row.project = row.project.or_else(|| event.project.clone());
                row.owner = row.owner.or_else(|| event.owner.clone());
                row.started = row.started.min(at);
                row.last = row.last.max(at);
                row.events += 1;
                row
            }
            None => SessionRow {
                harness: event.harness.name.clone(),
                project: event.project.clone(),
                owner: event.owner.clone(),
                started: at,
                last: at,
                events: 1,
            },
        };
        let json = serde_json::to_string(event)?;
        insert.execute(params![event.id.as_str(), event.session.as_str(), row.events, json])?;
        upsert.execute(params![
            event.session.as_str(),
            row.harness,
            row.project,
            row.owner,
            row.started.0,
            row.started.1,
            row.last.0,
            row.last.1,
            row.events
        ])?;
        out.push(Appended {
            id: event.id.clone(),
            session: event.session.clone(),
            seq: row.events as u64,
            inserted: true,
        });
    }
    Ok(out)
}

fn stored(row: &Row<'_>) -> rusqlite::Result<(i64, i64, String)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
}

fn decode(rows: Vec<(i64, i64, String)>) -> Result<Vec<StoredEvent>, StoreError> {
    rows.into_iter()
        .map(|(position, seq, json)| {
            Ok(StoredEvent {
                seq: seq as u64,
                position: position as u64,
                event: serde_json::from_str(&json)?,
            })
        })
        .collect()
}

/// A session's events after `after_seq`, in seq order.
pub(crate) fn timeline(
    conn: &Connection,
    session: &SessionKey,
    after_seq: u64,
    limit: usize,
) -> Result<Vec<StoredEvent>, StoreError> {
    if after_seq > i64::MAX as u64 || limit == 0 {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT position, seq, event FROM events WHERE session = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
    )?;
    let rows = stmt
        .query_map(params![session.as_str(), to_sql(after_seq), to_sql(limit)], stored)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    decode(rows)
}

/// Events after a store position, in position order.
pub(crate) fn after(conn: &Connection, after: u64, limit: usize) -> Result<Vec<StoredEvent>, StoreError> {
    if after > i64::MAX as u64 || limit == 0 {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT position, seq, event FROM events WHERE position > ?1 ORDER BY position LIMIT ?2",
    )?;
    let rows = stmt
        .query_map(params![to_sql(after), to_sql(limit)], stored)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    decode(rows)
}

/// The stored events among `ids`, in the order asked.
pub(crate) fn by_id(conn: &Connection, ids: &[EventId]) -> Result<Vec<StoredEvent>, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT position, seq, event FROM events WHERE id = ?1")?;
    let mut rows = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(row) = stmt.query_row([id.as_str()], stored).optional()? {
            rows.push(row);
        }
    }
    decode(rows)
}

/// Every session, most recently active first.
pub(crate) fn sessions(conn: &Connection) -> Result<Vec<SessionInfo>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT key, harness, project, owner, started_s, started_ns, last_s, last_ns, events FROM sessions
         ORDER BY last_s DESC, last_ns DESC, key",
    )?;
    let rows = stmt.query_map([], listed_session)?.collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(session_info).collect()
}

const PROJECT_SESSIONS: &str =
    "SELECT key, harness, project, owner, started_s, started_ns, last_s, last_ns, events FROM sessions
     WHERE project = ?1 ORDER BY last_s DESC, last_ns DESC, key LIMIT ?2";

/// The sessions of one project, most recently active first, at most `limit`: the first `limit`
/// entries of the project's index, whatever the number of other sessions.
pub(crate) fn project_sessions(
    conn: &Connection,
    project: &str,
    limit: usize,
) -> Result<Vec<SessionInfo>, StoreError> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(PROJECT_SESSIONS)?;
    let rows = stmt
        .query_map(params![project, to_sql(limit)], listed_session)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(session_info).collect()
}

/// A row of `sessions` as read: key, harness, project, owner, start and last times, event count.
type ListedSession = (String, String, Option<String>, Option<String>, (i64, i64), (i64, i64), i64);

fn listed_session(row: &rusqlite::Row<'_>) -> rusqlite::Result<ListedSession> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        (row.get(4)?, row.get(5)?),
        (row.get(6)?, row.get(7)?),
        row.get(8)?,
    ))
}

fn session_info(
    (key, harness, project, owner, started, last, events): ListedSession,
) -> Result<SessionInfo, StoreError> {
    Ok(SessionInfo {
        key: SessionKey(key),
        harness,
        project,
        owner,
        started_at: join_time(started.0, started.1)?,
        last_at: join_time(last.0, last.1)?,
        events: events as u64,
    })
}

#[cfg(test)]
mod project_sessions_tests {
    use super::*;

    #[test]
    fn a_projects_sessions_are_read_from_its_own_index_in_order() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::schema::migrate(&mut conn).unwrap();
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {PROJECT_SESSIONS}"))
            .unwrap()
            .query_map(params!["p", 5], |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let plan = plan.join("\n");
        assert!(plan.contains("sessions_project"), "{plan}");
        assert!(!plan.contains("TEMP B-TREE"), "no sort: {plan}");
    }
}
