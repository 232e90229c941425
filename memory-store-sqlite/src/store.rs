//! [`SqliteStore`]: opening the database and the [`MemoryStore`] implementation.

use std::fs::{DirBuilder, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use memory_core::{
    Appended, Capabilities, EventHit, EventId, EventQuery, EventVectorHit, EventVectorQuery, ForgetSet,
    Forgotten, HookEvent, MemoryStore, Note, NoteChange, NoteFilter, NotePath, PendingVector, Scope,
    SearchHit, SearchQuery, SessionInfo, SessionKey, StoredEvent, VectorHit, VectorQuery, WatermarkAdvance,
};
use rusqlite::{Connection, TransactionBehavior};

use crate::config::SqliteConfig;
use crate::error::StoreError;
use crate::leases;
use crate::{embeddings, event_embeddings, events, history, notes, schema, search};

/// A [`MemoryStore`] on one SQLite database file, safe to use from many processes at once.
///
/// Each value holds one connection; calls run on Tokio's blocking pool, so they must be made
/// from inside a Tokio runtime, unless the store was opened with [`SqliteConfig::inline`].
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
    inline: bool,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").field("path", &self.path).finish_non_exhaustive()
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io { path: path.to_owned(), source }
}

/// Creates the directory (mode `0700`) and an empty database file (mode `0600`) when missing.
fn prepare_file(path: &Path) -> Result<(), StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
        let mut builder = DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(io_error(dir))?;
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io_error(path)(e)),
    }
}

/// WAL size past which opening the database checkpoints and truncates it. Every process that opens
/// the database alone reads and checksums the whole WAL, so a small bound keeps hooks fast; the
/// checkpoint it costs one hook in every few dozen is cheap at this size.
const WAL_TRUNCATE_BYTES: u64 = 256 * 1024;

fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

fn open_connection(config: &SqliteConfig) -> Result<Connection, StoreError> {
    prepare_file(&config.path)?;
    let mut conn = Connection::open(&config.path)?;
    conn.busy_timeout(config.busy_timeout)?;
    conn.set_prepared_statement_cache_capacity(64);
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Corrupt(format!("cannot switch the journal to WAL (got {mode})")));
        }
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // Hooks open the database, append one event and exit. Without this, the last connection to
    // close checkpoints and deletes the WAL (four fsyncs), and the next hook recreates it (one
    // more): the WAL is checkpointed by the automatic size trigger instead.
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
    // A process that opens the database alone rebuilds the WAL index by reading the whole WAL,
    // and forgets how much of it was already checkpointed. So the WAL must not grow: once it
    // passes a small size, fold it into the database and truncate it (busy is fine: the next
    // opener tries again).
    let wal = std::fs::metadata(wal_path(&config.path)).map(|m| m.len()).unwrap_or(0);
    if wal > WAL_TRUNCATE_BYTES {
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    }
    schema::migrate(&mut conn)?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating when missing) the database at `config.path` and brings its schema up to
    /// date. Cheap when the schema is current: no migration work is done.
    pub fn open(config: &SqliteConfig) -> memory_core::Result<Self> {
        // Processes opening a new database at once race to set its journal mode and schema, and
        // SQLite answers some of them "busy" at once rather than wait (a lock it cannot wait for
        // without risking a deadlock): they try again, within the busy timeout.
        let started = std::time::Instant::now();
        let mut pause = std::time::Duration::from_millis(2);
        let conn = loop {
            match open_connection(config) {
                Ok(conn) => break conn,
                Err(e) if e.is_transient() && started.elapsed() + pause < config.busy_timeout => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(50));
                }
                Err(e) => return Err(e.into()),
            }
        };
        Ok(Self { conn: Arc::new(Mutex::new(conn)), path: config.path.clone(), inline: config.inline })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Merges the notes' full-text index into one segment (FTS5 `optimize`), so a search seeks
    /// each term once instead of once per segment. What a search finds and how it ranks it stay
    /// the same. Costs a rewrite of the index (then folded from the WAL into the file): for a copy
    /// of notes written in many commits and then searched by many processes, each opening it
    /// afresh.
    pub async fn optimize_note_search(&self) -> memory_core::Result<()> {
        self.with(|conn| notes::optimize_index(conn)).await
    }

    /// Runs `work` on the connection, on Tokio's blocking pool or, inline, on this thread.
    async fn with<T, F>(&self, work: F) -> memory_core::Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        if self.inline {
            let mut guard = self.conn.lock().map_err(|_| StoreError::Poisoned)?;
            return Ok(work(&mut guard)?);
        }
        let conn = Arc::clone(&self.conn);
        let joined = tokio::task::spawn_blocking(move || {
            let mut guard = conn.lock().map_err(|_| StoreError::Poisoned)?;
            work(&mut guard)
        })
        .await;
        Ok(joined.map_err(|e| StoreError::Worker(e.to_string()))??)
    }
}

#[memory_core::async_trait]
impl MemoryStore for SqliteStore {
    fn name(&self) -> &'static str {
        "sqlite"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::new(true, true, false, true).with_vector_search()
    }

    async fn append(&self, events: &[HookEvent]) -> memory_core::Result<Vec<Appended>> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let events = events.to_vec();
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let appended = events::append(&tx, &events)?;
            tx.commit()?;
            Ok(appended)
        })
        .await
    }

    async fn timeline(
        &self,
        session: &SessionKey,
        after_seq: u64,
        limit: usize,
    ) -> memory_core::Result<Vec<StoredEvent>> {
        let session = session.clone();
        self.with(move |conn| events::timeline(conn, &session, after_seq, limit)).await
    }

    async fn sessions(&self) -> memory_core::Result<Vec<SessionInfo>> {
        self.with(|conn| events::sessions(conn)).await
    }

    async fn project_sessions(&self, project: &str, limit: usize) -> memory_core::Result<Vec<SessionInfo>> {
        let project = project.to_owned();
        self.with(move |conn| events::project_sessions(conn, &project, limit)).await
    }

    async fn events_after(&self, after: u64, limit: usize) -> memory_core::Result<Vec<StoredEvent>> {
        self.with(move |conn| events::after(conn, after, limit)).await
    }

    async fn events_by_id(&self, ids: &[EventId]) -> memory_core::Result<Vec<StoredEvent>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = ids.to_vec();
        self.with(move |conn| events::by_id(conn, &ids)).await
    }

    async fn get_note(&self, scope: &Scope, path: &NotePath) -> memory_core::Result<Option<Note>> {
        let (scope, path) = (scope.clone(), path.clone());
        self.with(move |conn| notes::get(conn, &scope, &path)).await
    }

    async fn note_history(&self, scope: &Scope, path: &NotePath) -> memory_core::Result<Vec<Note>> {
        let (scope, path) = (scope.clone(), path.clone());
        self.with(move |conn| notes::history(conn, &scope, &path)).await
    }

    async fn list_notes(&self, filter: &NoteFilter) -> memory_core::Result<Vec<Note>> {
        let filter = filter.clone();
        self.with(move |conn| notes::list(conn, &filter)).await
    }

    async fn delete_note(&self, scope: &Scope, path: &NotePath) -> memory_core::Result<bool> {
        let (scope, path) = (scope.clone(), path.clone());
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let existed = notes::delete(&tx, &scope, &path)?;
            tx.commit()?;
            if existed {
                let _ = notes::tidy_index(conn);
            }
            Ok(existed)
        })
        .await
    }

    async fn search_notes(&self, query: &SearchQuery) -> memory_core::Result<Vec<SearchHit>> {
        let terms = memory_core::search::expand(&query.text);
        if terms.is_empty() || query.limit == 0 {
            return Ok(Vec::new());
        }
        let (scopes, limit) = (query.scopes.clone(), query.limit);
        self.with(move |conn| search::search(conn, &terms, &scopes, limit)).await
    }

    async fn watermark(&self, name: &str) -> memory_core::Result<Option<u64>> {
        let name = name.to_owned();
        self.with(move |conn| notes::watermark(conn, &name)).await
    }

    async fn watermarks(&self) -> memory_core::Result<Vec<(String, u64)>> {
        self.with(|conn| notes::watermarks(conn)).await
    }

    async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        until: chrono::DateTime<chrono::Utc>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> memory_core::Result<memory_core::Lease> {
        let (name, holder) = (name.to_owned(), holder.to_owned());
        self.with(move |conn| leases::take(conn, &name, &holder, until, now)).await
    }

    async fn release_lease(&self, name: &str, holder: &str) -> memory_core::Result<()> {
        let (name, holder) = (name.to_owned(), holder.to_owned());
        self.with(move |conn| leases::release(conn, &name, &holder)).await
    }

    async fn lease(&self, name: &str) -> memory_core::Result<Option<memory_core::Lease>> {
        let name = name.to_owned();
        self.with(move |conn| leases::get(conn, &name)).await
    }

    async fn note_machine(
        &self,
        machine: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> memory_core::Result<()> {
        let machine = machine.to_owned();
        self.with(move |conn| leases::note_machine(conn, &machine, at)).await
    }

    async fn machines(&self) -> memory_core::Result<Vec<(String, chrono::DateTime<chrono::Utc>)>> {
        self.with(|conn| leases::machines(conn)).await
    }

    async fn commit(
        &self,
        changes: &[NoteChange],
        watermark: Option<&WatermarkAdvance>,
    ) -> memory_core::Result<()> {
        let (changes, watermark) = (changes.to_vec(), watermark.cloned());
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut put: Vec<&memory_core::Note> = Vec::new();
            for change in &changes {
                match change {
                    NoteChange::Put(note) => {
                        notes::put(&tx, note)?;
                        put.push(note);
                    }
                    NoteChange::Delete { scope, path } => {
                        // A note moved (written at a new path, the old one deleted, in one commit)
                        // keeps its embeddings: its text is the same.
                        embeddings::carry_moved(&tx, scope, path, &put)?;
                        notes::delete(&tx, scope, path)?;
                    }
                }
            }
            if let Some(mark) = &watermark {
                notes::set_watermark(&tx, &mark.name, mark.position)?;
            }
            tx.commit()?;
            // The notes are written; a merge that fails (another writer holds the lock past the
            // busy timeout) is left to the next commit.
            if !changes.is_empty() {
                let _ = notes::tidy_index(conn);
            }
            Ok(())
        })
        .await
    }

    async fn put_embeddings(
        &self,
        note: &Note,
        model: &str,
        vectors: &[Vec<f32>],
    ) -> memory_core::Result<bool> {
        let (note, model, vectors) = (note.clone(), model.to_owned(), vectors.to_vec());
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let kept = embeddings::put(&tx, &note, &model, &vectors)?;
            tx.commit()?;
            Ok(kept)
        })
        .await
    }

    async fn note_embeddings(&self, model: &str, notes: &[Note]) -> memory_core::Result<Vec<Vec<Vec<f32>>>> {
        let (model, notes) = (model.to_owned(), notes.to_vec());
        self.with(move |conn| embeddings::of_notes(conn, &model, &notes)).await
    }

    async fn notes_without_embeddings(&self, model: &str, limit: usize) -> memory_core::Result<Vec<Note>> {
        let model = model.to_owned();
        self.with(move |conn| embeddings::missing(conn, &model, limit)).await
    }

    async fn search_embeddings(&self, query: &VectorQuery) -> memory_core::Result<Vec<VectorHit>> {
        let query = query.clone();
        self.with(move |conn| embeddings::search(conn, &query)).await
    }

    async fn search_embeddings_pending(
        &self,
        query: &VectorQuery,
        vector: Box<dyn PendingVector>,
    ) -> memory_core::Result<Vec<VectorHit>> {
        let query = query.clone();
        self.with(move |conn| embeddings::search_pending(conn, &query, vector)).await
    }

    async fn put_event_embeddings(
        &self,
        model: &str,
        vectors: &[(u64, Vec<f32>)],
    ) -> memory_core::Result<usize> {
        let (model, vectors) = (model.to_owned(), vectors.to_vec());
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let kept = event_embeddings::put(&tx, &model, &vectors)?;
            tx.commit()?;
            Ok(kept)
        })
        .await
    }

    async fn search_event_embeddings(
        &self,
        query: &EventVectorQuery,
    ) -> memory_core::Result<Vec<EventVectorHit>> {
        let query = query.clone();
        self.with(move |conn| event_embeddings::search(conn, &query)).await
    }

    async fn search_events(&self, query: &EventQuery) -> memory_core::Result<Vec<EventHit>> {
        let query = query.clone();
        self.with(move |conn| history::search(conn, &query)).await
    }

    async fn forget(&self, what: &ForgetSet) -> memory_core::Result<Forgotten> {
        let what = what.clone();
        self.with(move |conn| history::forget(conn, &what)).await
    }
}
