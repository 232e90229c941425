//! The schema and its numbered migrations.
//!
//! `PRAGMA user_version` holds the applied version, so an up-to-date database is recognised with
//! one cheap read; the `schema_version` table keeps a record of when each migration ran. Pending
//! migrations run in one `BEGIN IMMEDIATE` transaction, so concurrent first opens apply them once.

use rusqlite::{Connection, TransactionBehavior};

use crate::error::StoreError;

/// The schema version this build creates and understands.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Migration `n` (1-based) brings the schema from version `n - 1` to `n`.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE schema_version (
    version    INTEGER PRIMARY KEY,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    id       TEXT NOT NULL UNIQUE,
    session  TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    event    TEXT NOT NULL,
    UNIQUE (session, seq)
);

CREATE TABLE sessions (
    key        TEXT PRIMARY KEY,
    harness    TEXT NOT NULL,
    project    TEXT,
    started_s  INTEGER NOT NULL,
    started_ns INTEGER NOT NULL,
    last_s     INTEGER NOT NULL,
    last_ns    INTEGER NOT NULL,
    events     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_recent ON sessions (last_s DESC, last_ns DESC, key);

CREATE TABLE notes (
    id          INTEGER PRIMARY KEY,
    scope       TEXT NOT NULL,
    scope_rank  INTEGER NOT NULL,
    scope_key   TEXT NOT NULL,
    path        TEXT NOT NULL,
    title       TEXT NOT NULL,
    description TEXT,
    tags        TEXT NOT NULL,
    body        TEXT NOT NULL,
    meta        TEXT NOT NULL,
    UNIQUE (scope, path)
);
CREATE INDEX notes_order ON notes (scope_rank, scope_key, path);

CREATE TABLE note_history (
    id    INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    path  TEXT NOT NULL,
    meta  TEXT NOT NULL,
    body  TEXT NOT NULL
);
CREATE INDEX note_history_key ON note_history (scope, path, id);

CREATE VIRTUAL TABLE notes_fts USING fts5(
    path, title, description, tags, body,
    content = 'notes', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, path, title, description, tags, body)
    VALUES (new.id, new.path, new.title, new.description, new.tags, new.body);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, path, title, description, tags, body)
    VALUES ('delete', old.id, old.path, old.title, old.description, old.tags, old.body);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, path, title, description, tags, body)
    VALUES ('delete', old.id, old.path, old.title, old.description, old.tags, old.body);
    INSERT INTO notes_fts (rowid, path, title, description, tags, body)
    VALUES (new.id, new.path, new.title, new.description, new.tags, new.body);
END;

CREATE TABLE watermarks (
    name     TEXT PRIMARY KEY,
    position INTEGER NOT NULL
) WITHOUT ROWID;
"#,
    r#"
CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, 'row');
"#,
    r#"
CREATE TABLE note_embeddings (
    note_id INTEGER PRIMARY KEY,
    scope   TEXT NOT NULL,
    model   TEXT NOT NULL,
    vectors BLOB NOT NULL
);
CREATE INDEX note_embeddings_model ON note_embeddings (model, scope);
CREATE TRIGGER note_embeddings_changed AFTER UPDATE OF title, description, tags, body ON notes
WHEN old.title IS NOT new.title OR old.description IS NOT new.description
  OR old.tags IS NOT new.tags OR old.body IS NOT new.body
BEGIN
    DELETE FROM note_embeddings WHERE note_id = old.id;
END;
CREATE TRIGGER note_embeddings_deleted AFTER DELETE ON notes BEGIN
    DELETE FROM note_embeddings WHERE note_id = old.id;
END;
"#,
    // One bit per dimension of every vector (its sign), scanned first: an eighth of the signed
    // bytes, so a search by meaning reads a few megabytes for 10,000 notes, then the full
    // vectors of the closest notes only. Filled in from the stored vectors on migration.
    r#"
CREATE TABLE note_codes (
    note_id INTEGER PRIMARY KEY,
    scope   TEXT NOT NULL,
    model   TEXT NOT NULL,
    codes   BLOB NOT NULL
);
CREATE INDEX note_codes_model ON note_codes (model, scope);
CREATE TRIGGER note_codes_follow AFTER DELETE ON note_embeddings BEGIN
    DELETE FROM note_codes WHERE note_id = old.note_id;
END;
"#,
    // History search: the words of each event (`memory_core::search::event_index_text`), keyed by
    // its position. Contentless (the text is the event's, in `events`), rows deletable. Filled
    // lazily by searches from `events_fts_indexed`, so an append costs what it did.
    r#"
CREATE VIRTUAL TABLE events_fts USING fts5(
    text,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE TABLE events_fts_indexed (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    position INTEGER NOT NULL
);
INSERT INTO events_fts_indexed (id, position) VALUES (1, 0);
"#,
    // The topics a note names (`memory_core::search::concept_text`), indexed as a column of its
    // own: `pnpm` in a note is found by "package manager". Filled in from every note on
    // migration, the index rebuilt from the notes, then [`CONCEPTS_TRIGGERS`] keep it level.
    r#"
ALTER TABLE notes ADD COLUMN concepts TEXT NOT NULL DEFAULT '';
DROP TRIGGER notes_fts_insert;
DROP TRIGGER notes_fts_delete;
DROP TRIGGER notes_fts_update;
DROP TABLE notes_vocab;
DROP TABLE notes_fts;
CREATE VIRTUAL TABLE notes_fts USING fts5(
    path, title, description, tags, body, concepts,
    content = 'notes', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, 'row');
"#,
    // The codes in blocks: one row holds the codes of a scope's notes whose ids share all but
    // their last few bits (`crate::embeddings::BLOCK_BITS`), kept in the order of those rows, so a
    // search by meaning steps through a row per block instead of a row per note (at 100,000 notes,
    // the steps cost more than comparing the codes). A note's vectors going mark its block stale;
    // the next write to that block, or the end of the write that removed the note, drops its
    // codes. Filled in from the per-note rows of migration 4 on migration, which then go.
    r#"
DROP TRIGGER note_codes_follow;
CREATE TABLE code_blocks (
    model   TEXT NOT NULL,
    scope   TEXT NOT NULL,
    block   INTEGER NOT NULL,
    stale   INTEGER NOT NULL DEFAULT 0,
    entries BLOB NOT NULL,
    PRIMARY KEY (model, scope, block)
) WITHOUT ROWID;
CREATE INDEX code_blocks_stale ON code_blocks (stale) WHERE stale = 1;
CREATE TRIGGER code_blocks_follow AFTER DELETE ON note_embeddings BEGIN
    UPDATE code_blocks SET stale = 1
    WHERE model = old.model AND scope = old.scope AND block = old.note_id >> 6;
END;
"#,
    // Each note's scope beside its id, a few bytes an entry: a search by words checks the scope
    // of every note that matches a term here (`INDEXED BY`), not in the notes' rows, whose text
    // fills a page with a few notes (at 10,000 notes, 130 page reads instead of 1,200).
    r#"
CREATE INDEX notes_scope_of ON notes (id, scope);
"#,
    // A project's latest sessions, read at every session start, without a walk of every
    // session of every project.
    r#"
CREATE INDEX IF NOT EXISTS sessions_project ON sessions (project, last_s DESC, last_ns DESC, key);
"#,
    // Leases that make work single-flight across the processes that share the store.
    r#"
CREATE TABLE IF NOT EXISTS leases (
    name   TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  TEXT NOT NULL
) WITHOUT ROWID;
"#,
    // The machines that write to the store, and when each last did.
    r#"
CREATE TABLE IF NOT EXISTS machines (
    name TEXT PRIMARY KEY,
    last TEXT NOT NULL
) WITHOUT ROWID;
"#,
    // Events' embeddings for history search by meaning (`crate::event_embeddings`), gone with
    // their event.
    r#"
CREATE TABLE IF NOT EXISTS event_embeddings (
    position INTEGER NOT NULL,
    model    TEXT NOT NULL,
    vector   BLOB NOT NULL,
    PRIMARY KEY (position, model)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS event_embeddings_follow AFTER DELETE ON events BEGIN
    DELETE FROM event_embeddings WHERE position = old.position;
END;
"#,
    // Whose each session is: the owner of its first event that had one (`sessions.owner`, added by
    // [`add_owners`]: a column cannot be added "if not exists"). Events recorded before events
    // carried an owner have none, so nothing is filled in.
    "",
    // The table of topics grew (`memory_core::search::concepts`): every note's topics are filled
    // in again ([`TOPICS_GREW_VERSION`]).
    "",
];

/// The migration after which every note's topics are filled in again, from a larger table.
const TOPICS_GREW_VERSION: i64 = 14;

/// The migration that adds `notes.concepts`, after which every note's topics are filled in.
const CONCEPTS_VERSION: i64 = 6;

/// The triggers that keep `notes_fts` level with `notes` from [`CONCEPTS_VERSION`] on, created
/// once the index is rebuilt (an update trigger firing on rows the new index lacks would break it).
const CONCEPTS_TRIGGERS: &str = r#"
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, path, title, description, tags, body, concepts)
    VALUES (new.id, new.path, new.title, new.description, new.tags, new.body, new.concepts);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, path, title, description, tags, body, concepts)
    VALUES ('delete', old.id, old.path, old.title, old.description, old.tags, old.body, old.concepts);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, path, title, description, tags, body, concepts)
    VALUES ('delete', old.id, old.path, old.title, old.description, old.tags, old.body, old.concepts);
    INSERT INTO notes_fts (rowid, path, title, description, tags, body, concepts)
    VALUES (new.id, new.path, new.title, new.description, new.tags, new.body, new.concepts);
END;
"#;

/// The migration that adds `sessions.owner`.
const OWNERS_VERSION: i64 = 13;

/// Adds `sessions.owner` unless the table has it.
fn add_owners(conn: &Connection) -> Result<(), StoreError> {
    let has: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info('sessions') WHERE name = 'owner')",
        [],
        |row| row.get(0),
    )?;
    if !has {
        conn.execute_batch("ALTER TABLE sessions ADD COLUMN owner TEXT;")?;
    }
    Ok(())
}

/// The migration that adds `note_codes`, after which the codes of stored vectors are computed.
const CODES_VERSION: i64 = 4;

/// The migration that keeps the codes in blocks, after which the per-note codes are moved there.
const BLOCKS_VERSION: i64 = 7;

fn user_version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
}

/// Brings the schema up to [`SCHEMA_VERSION`]; a single read when it already is.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let check = |found: i64| {
        if found > SCHEMA_VERSION {
            Err(StoreError::TooNew { found, supported: SCHEMA_VERSION })
        } else {
            Ok(found)
        }
    };
    if check(user_version(conn)?)? == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let current = check(user_version(&tx)?)?;
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let version = index as i64 + 1;
        tx.execute_batch(sql)?;
        if version == CODES_VERSION {
            crate::embeddings::fill_codes(&tx)?;
        }
        if version == BLOCKS_VERSION {
            crate::embeddings::fill_blocks(&tx)?;
        }
        if version == OWNERS_VERSION {
            add_owners(&tx)?;
        }
        if version == CONCEPTS_VERSION {
            crate::notes::fill_concepts(&tx)?;
            tx.execute_batch(CONCEPTS_TRIGGERS)?;
        }
        if version == TOPICS_GREW_VERSION {
            crate::notes::fill_concepts(&tx)?;
        }
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [version])?;
        tx.pragma_update(None, "user_version", version)?;
    }
    tx.commit()?;
    Ok(())
}
