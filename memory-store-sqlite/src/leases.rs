//! Leases (single flight across the processes and machines that share the store) and the
//! machines that write to it. Times are stored as RFC 3339 text in UTC with nanoseconds, whose text
//! order is time order, so SQL compares them as text.

use chrono::{DateTime, SecondsFormat, Utc};
use memory_core::Lease;
use rusqlite::{Connection, OptionalExtension as _, TransactionBehavior};

use crate::error::StoreError;

/// Takes the lease `name` for `holder` when free, lapsed at `now` or `holder`'s already, in one
/// immediate transaction; returns it as it stands.
pub(crate) fn take(
    conn: &mut Connection,
    name: &str,
    holder: &str,
    until: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<Lease, StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute(
        "INSERT INTO leases (name, holder, until) VALUES (?1, ?2, ?3)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE leases.holder = excluded.holder OR leases.until < ?4",
        [name, holder, &stored(until), &stored(now)],
    )?;
    let lease =
        get(&tx, name)?.ok_or_else(|| StoreError::Corrupt(format!("lease {name} missing once taken")))?;
    tx.commit()?;
    Ok(lease)
}

/// Gives the lease `name` back when `holder` holds it.
pub(crate) fn release(conn: &Connection, name: &str, holder: &str) -> Result<(), StoreError> {
    conn.execute("DELETE FROM leases WHERE name = ?1 AND holder = ?2", [name, holder])?;
    Ok(())
}

/// The lease `name` as stored.
pub(crate) fn get(conn: &Connection, name: &str) -> Result<Option<Lease>, StoreError> {
    let row: Option<(String, String)> = conn
        .query_row("SELECT holder, until FROM leases WHERE name = ?1", [name], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?;
    row.map(|(holder, until)| Ok(Lease { name: name.to_owned(), holder, until: read(&until)? })).transpose()
}

/// Records that `machine` wrote at `at`, keeping its latest time.
pub(crate) fn note_machine(conn: &Connection, machine: &str, at: DateTime<Utc>) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO machines (name, last) VALUES (?1, ?2)
         ON CONFLICT (name) DO UPDATE SET last = max(last, excluded.last)",
        [machine, &stored(at)],
    )?;
    Ok(())
}

/// Every machine with its latest write, the most recent first.
pub(crate) fn machines(conn: &Connection) -> Result<Vec<(String, DateTime<Utc>)>, StoreError> {
    let mut statement = conn.prepare("SELECT name, last FROM machines ORDER BY last DESC, name")?;
    let rows = statement.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)))?;
    rows.map(|row| {
        let (name, last) = row?;
        Ok((name, read(&last)?))
    })
    .collect()
}

fn stored(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Nanos, true)
}

fn read(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.to_utc())
        .map_err(|e| StoreError::Corrupt(format!("stored time {text}: {e}")))
}
