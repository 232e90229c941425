//! The SQLite store against the conformance suite, the model, hostile queries and many
//! processes, on real database files.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use memory_core::{MemoryStore, NoteFilter, Scope, SearchQuery};
use memory_store_sqlite::{SCHEMA_VERSION, SqliteConfig, SqliteStore};
use memory_testkit::fixtures::{event, note, project_scope, session};
use memory_testkit::multi_process::{AppendChild, AppendProcesses, run_append_processes_blocking};
use memory_testkit::{hostile_search, model_check, run_conformance};

const DB_ENV: &str = "SQLITE_STORE_TEST_DB";

fn open(path: &Path) -> SqliteStore {
    SqliteStore::open(&SqliteConfig::new(path)).unwrap_or_else(|e| panic!("open {}: {e}", path.display()))
}

fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("memory.db");
    (dir, path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_on_a_file() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    run_conformance(&store).await;
    // Again on the same file: the suite tolerates data already there.
    run_conformance(&store).await;
}

#[test]
fn conformance_inline_needs_no_runtime() {
    let (_dir, path) = temp_db();
    let store = SqliteStore::open(&SqliteConfig::new(&path).with_inline(true)).expect("open");
    // No Tokio runtime at all: a call that went to the blocking pool would panic, and one that
    // waited would stay pending.
    let mut suite = std::pin::pin!(run_conformance(&store));
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    assert!(suite.as_mut().poll(&mut context).is_ready(), "an inline store call waited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_queries_are_searched_as_words() {
    let (_dir, path) = temp_db();
    hostile_search(&open(&path)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unicode_words_are_found() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("unicode");
    let n = note(&scope, "notes/unicode.md", "Unicode", &[], "日本語のメモ, café crème, שלום, Ωmega 🦀.\n");
    let other = note(&scope, "notes/plain.md", "Plain", &[], "cafe creme without accents\n");
    store.put_note(&n).await.expect("put");
    store.put_note(&other).await.expect("put");
    for query in ["日本語のメモ", "café", "CAFÉ", "שלום", "ωmega"] {
        let hits =
            store.search_notes(&SearchQuery::new(query, vec![scope.clone()], 10)).await.expect("search");
        let paths: Vec<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
        assert_eq!(paths, ["notes/unicode.md"], "query {query:?}: diacritics are kept, case is folded");
    }
    let hits = store.search_notes(&SearchQuery::new("cafe", vec![scope], 10)).await.expect("search");
    assert_eq!(hits.len(), 1, "an unaccented query finds only the unaccented word");
    assert_eq!(hits[0].note, other);
}

#[test]
fn model_check_against_the_in_memory_store() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let counter = AtomicUsize::new(0);
    let base = dir.path().to_owned();
    model_check(
        || {
            let path = base.join(format!("case-{}.db", counter.fetch_add(1, Ordering::Relaxed)));
            async move { Arc::new(open(&path)) as Arc<dyn MemoryStore> }
        },
        256,
    );
}

#[test]
fn model_check_on_one_shared_file() {
    // Every case in the same database: the model check must not depend on an empty store.
    let (_dir, path) = temp_db();
    let store: Arc<dyn MemoryStore> = Arc::new(open(&path));
    model_check(|| std::future::ready(Arc::clone(&store)), 32);
}

#[test]
fn processes_append_to_one_session_exactly_once() {
    if let Some(child) = AppendChild::from_env() {
        let path = std::env::var(DB_ENV).expect("the parent passes the database path");
        child.run_blocking(&open(Path::new(&path)));
        return;
    }
    let (_dir, path) = temp_db();
    let store = open(&path);
    let plan = AppendProcesses::new("processes_append_to_one_session_exactly_once", 32, 8)
        .env(DB_ENV, path.to_string_lossy());
    let report = run_append_processes_blocking(&store, &plan);
    assert_eq!(report.stored, 32 * 8 + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_preserves_everything() {
    let (_dir, path) = temp_db();
    let key = session("reopen");
    let scope = project_scope("reopen");
    let n = note(&scope, "facts/kept.md", "Kept", &["x1"], "kept body\n");
    let mut n2 = n.clone();
    n2.body = "second body\n".to_owned();
    {
        let store = open(&path);
        store.append(&[event(&key, "a", 0), event(&key, "b", 1)]).await.expect("append");
        store.put_note(&n).await.expect("put");
        store.put_note(&n2).await.expect("put");
        store.set_watermark("dream:test", 2).await.expect("watermark");
    }
    let store = open(&path);
    let timeline = store.timeline(&key, 0, 10).await.expect("timeline");
    assert_eq!(timeline.iter().map(|s| s.seq).collect::<Vec<_>>(), [1, 2]);
    let appended = store.append(&[event(&key, "c", 2), event(&key, "a", 0)]).await.expect("append");
    assert_eq!(appended.iter().map(|a| (a.seq, a.inserted)).collect::<Vec<_>>(), [(3, true), (1, false)]);
    assert_eq!(store.get_note(&scope, &n.path).await.expect("get"), Some(n2.clone()));
    assert_eq!(store.note_history(&scope, &n.path).await.expect("history"), vec![n.clone()]);
    assert_eq!(store.watermark("dream:test").await.expect("watermark"), Some(2));
    let hits = store.search_notes(&SearchQuery::new("second", vec![scope], 5)).await.expect("search");
    assert_eq!(hits.len(), 1, "the search index survives reopening");
}

#[test]
fn files_are_private() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let nested = dir.path().join("data").join("agent-memory");
    let path = nested.join("memory.db");
    let store = open(&path);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(store.append(&[event(&session("mode"), "a", 0)])).expect("append");
    let mode = |p: &Path| std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600, "the database file is private");
    assert_eq!(mode(&nested), 0o700, "a directory the store creates is private");
    assert_eq!(mode(&dir.path().join("data")), 0o700, "every directory the store creates is private");
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    assert!(wal.exists(), "the database runs in WAL mode");
    assert_eq!(mode(&wal), 0o600, "the WAL file is private too");
}

/// Set in the processes [`processes_opening_a_new_database_at_once_all_open_it`] starts.
const OPEN_CHILD: &str = "AGENT_MEMORY_TEST_OPEN_CHILD";

/// Hooks of a first session fire together on a machine with no database yet: every process
/// opens it (SQLite answers some "busy" at once while another sets the journal mode and schema).
#[test]
fn processes_opening_a_new_database_at_once_all_open_it() {
    if let Ok(path) = std::env::var(OPEN_CHILD) {
        drop(open(Path::new(&path)));
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = std::env::current_exe().expect("the test binary");
    for round in 0..4 {
        let path = dir.path().join(format!("fresh-{round}.db"));
        let children: Vec<std::process::Child> = (0..12)
            .map(|_| {
                std::process::Command::new(&exe)
                    .args(["--exact", "processes_opening_a_new_database_at_once_all_open_it", "--nocapture"])
                    .env(OPEN_CHILD, &path)
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("spawn")
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().expect("wait");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "a process failed to open {}: {stderr}", path.display());
        }
        assert_eq!(header_user_version(&path), SCHEMA_VERSION);
    }
}

#[test]
fn opening_twice_is_idempotent_and_cheap() {
    let (_dir, path) = temp_db();
    drop(open(&path));
    assert_eq!(header_user_version(&path), SCHEMA_VERSION);
    for _ in 0..20 {
        drop(open(&path));
    }
    assert_eq!(header_user_version(&path), SCHEMA_VERSION, "reopening leaves the schema version alone");
    let conn = rusqlite::Connection::open(&path).expect("open");
    let applied: i64 =
        conn.query_row("SELECT count(*) FROM schema_version", [], |row| row.get(0)).expect("count");
    assert_eq!(applied, SCHEMA_VERSION, "each migration ran once");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let store = open(&path);
    let notes = runtime.block_on(store.list_notes(&NoteFilter::scope(Scope::User))).expect("list");
    assert!(notes.is_empty(), "a fresh database has no notes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_stored_before_owners_were_kept_read_without_one_and_new_ones_keep_theirs() {
    let (_dir, path) = temp_db();
    let (old, new) = (session("before-owners"), session("with-owner"));
    open(&path).append(&[event(&old, "a", 1)]).await.expect("append");
    // The database as the release before owners left it.
    let conn = rusqlite::Connection::open(&path).expect("open");
    conn.execute_batch(
        "ALTER TABLE sessions DROP COLUMN owner; DELETE FROM schema_version WHERE version >= 13; PRAGMA user_version = 12;",
    )
    .expect("downgrade");
    drop(conn);
    let store = open(&path);
    assert_eq!(header_user_version(&path), SCHEMA_VERSION);
    let mut owned = event(&new, "b", 2);
    owned.owner = Some("sam@example.com".to_owned());
    store.append(&[owned.clone(), event(&old, "c", 3)]).await.expect("append");
    let sessions = store.sessions().await.expect("sessions");
    let owner = |key| sessions.iter().find(|s| s.key == key).map(|s| s.owner.clone());
    assert_eq!(owner(old), Some(None), "a session of events without an owner has none");
    assert_eq!(owner(new.clone()), Some(Some("sam@example.com".to_owned())));
    assert_eq!(store.timeline(&new, 0, 1).await.expect("timeline")[0].event, owned);
}

/// Reads `PRAGMA user_version` through a separate connection (the WAL included).
fn header_user_version(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.query_row("PRAGMA user_version", [], |row| row.get(0)).expect("user_version")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_env_honours_the_override() {
    let config = SqliteConfig::new("/tmp/x.db");
    assert_eq!(config.busy_timeout, SqliteConfig::DEFAULT_BUSY_TIMEOUT);
    let default = SqliteConfig::default_path().expect("a home directory in tests");
    assert!(default.ends_with("agent-memory/memory.db"), "{}", default.display());
}

/// Pseudo-random unit vectors of the model's length.
fn unit_vectors(count: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    (0..count)
        .map(|_| {
            let v: Vec<f32> = (0..384).map(|_| next()).collect();
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.into_iter().map(|x| x / norm).collect()
        })
        .collect()
}

fn vector_query(vector: Vec<f32>, scope: &Scope, limit: usize) -> memory_core::VectorQuery {
    memory_core::VectorQuery { model: "test-model".to_owned(), vector, scopes: vec![scope.clone()], limit }
}

/// `count` notes `facts/n<i>.md` of `scope`, each stored with the next `per_note` of `vectors`.
async fn notes_with_vectors(
    store: &SqliteStore,
    scope: &Scope,
    count: usize,
    per_note: usize,
    vectors: &[Vec<f32>],
) -> Vec<memory_core::Note> {
    let notes: Vec<_> = (0..count)
        .map(|i| note(scope, &format!("facts/n{i}.md"), &format!("Note {i}"), &[], "- a\n- b\n"))
        .collect();
    for (i, n) in notes.iter().enumerate() {
        store.put_note(n).await.expect("put");
        let mine = &vectors[i * per_note..(i + 1) * per_note];
        assert!(store.put_embeddings(n, "test-model", mine).await.expect("embed"));
    }
    notes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_by_meaning_over_many_notes_ranks_as_exact_cosine_does() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("many");
    let vectors = unit_vectors(1_200, 0x9e37_79b9_7f4a_7c15);
    let notes = notes_with_vectors(&store, &scope, 400, 3, &vectors).await;
    for (probe, target) in [(0usize, 17usize), (1, 250), (2, 399)] {
        // A query near one passage of the target, with noise as large as the signal.
        let noise = &unit_vectors(1, 77 + probe as u64)[0];
        let query: Vec<f32> = vectors[target * 3 + 1].iter().zip(noise).map(|(a, b)| a + 0.9 * b).collect();
        let hits = store.search_embeddings(&vector_query(query.clone(), &scope, 5)).await.expect("search");
        let mut exact: Vec<(f32, usize)> = (0..notes.len())
            .map(|i| {
                let best =
                    (0..3).map(|p| memory_core::cosine(&query, &vectors[i * 3 + p])).fold(-1.0, f32::max);
                (best, i)
            })
            .collect();
        exact.sort_by(|a, b| b.0.total_cmp(&a.0));
        assert_eq!(hits[0].note.path, notes[target].path, "the target comes first");
        assert_eq!(hits[0].passage, 1, "through the passage the query is near");
        let found: Vec<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
        let expected: Vec<&str> = exact.iter().take(5).map(|&(_, i)| notes[i].path.as_str()).collect();
        let shared = expected.iter().filter(|p| found.contains(p)).count();
        assert!(shared >= 4, "the top five match exact cosine: {found:?} vs {expected:?}");
        assert!((hits[0].similarity - exact[0].0).abs() < 0.02, "{} vs {}", hits[0].similarity, exact[0].0);
    }
}

/// Every code the blocks hold, in the blocks' order: its model, scope, note id and bytes.
fn stored_codes(conn: &rusqlite::Connection) -> Vec<(String, String, i64, Vec<u8>)> {
    let mut stmt = conn.prepare("SELECT model, scope, block, entries FROM code_blocks").expect("prepare");
    let blocks: Vec<(String, String, i64, Vec<u8>)> = stmt
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut codes = Vec::new();
    for (model, scope, block, bytes) in blocks {
        let code_len = u32::from_le_bytes(bytes[..4].try_into().expect("header")) as usize;
        for entry in bytes[4..].chunks_exact(1 + code_len) {
            codes.push((model.clone(), scope.clone(), block * 64 + i64::from(entry[0]), entry[1..].to_vec()));
        }
    }
    codes
}

/// How many vectors' codes the blocks of `path` hold for notes of `scope`, by note id.
fn codes_per_note(path: &Path, scope: &Scope) -> std::collections::BTreeMap<i64, usize> {
    let conn = rusqlite::Connection::open(path).expect("open");
    let mut counts = std::collections::BTreeMap::new();
    for (_, of, id, _) in stored_codes(&conn) {
        if of == scope.to_string() {
            *counts.entry(id).or_insert(0) += 1;
        }
    }
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codes_of_a_rewritten_or_deleted_note_leave_its_block_at_once() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("blocks");
    let vectors = unit_vectors(8, 0x51);
    let notes = notes_with_vectors(&store, &scope, 3, 2, &vectors).await;
    assert_eq!(codes_per_note(&path, &scope).values().copied().collect::<Vec<_>>(), [2, 2, 2]);
    // Embedded again with three passages: its two earlier codes are replaced, not kept beside.
    assert!(store.put_embeddings(&notes[0], "test-model", &vectors[5..8]).await.expect("embed"));
    assert_eq!(codes_per_note(&path, &scope).values().copied().collect::<Vec<_>>(), [3, 2, 2]);
    // A rewritten note's codes go with its vectors; a deleted note's too.
    let mut changed = notes[1].clone();
    changed.body = "- c\n".to_owned();
    store.put_note(&changed).await.expect("rewrite");
    assert!(store.delete_note(&scope, &notes[2].path).await.expect("delete"));
    assert_eq!(codes_per_note(&path, &scope).values().copied().collect::<Vec<_>>(), [3]);
    let hits = store.search_embeddings(&vector_query(vectors[3].clone(), &scope, 5)).await.expect("search");
    let found: Vec<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
    assert_eq!(found, ["facts/n0.md"], "only the note that still has vectors is found");
    let mut twice = vector_query(vectors[3].clone(), &scope, 5);
    twice.scopes.push(scope.clone());
    let hits = store.search_embeddings(&twice).await.expect("search");
    assert_eq!(hits.len(), 1, "a scope asked twice finds each note once");
    // Embedded anew, the rewritten note is found by its new vector.
    assert!(store.put_embeddings(&changed, "test-model", &vectors[4..5]).await.expect("embed"));
    let hits = store.search_embeddings(&vector_query(vectors[4].clone(), &scope, 1)).await.expect("search");
    assert_eq!((hits[0].note.path.as_str(), hits[0].passage), ("facts/n1.md", 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vectors_stored_before_the_codes_existed_are_found() {
    let (_dir, path) = temp_db();
    let scope = project_scope("older");
    let n = note(&scope, "facts/old.md", "Old", &[], "- kept\n");
    let vectors = unit_vectors(2, 5);
    {
        let store = open(&path);
        store.put_note(&n).await.expect("put");
        assert!(store.put_embeddings(&n, "test-model", &vectors).await.expect("embed"));
    }
    // The database as the release before the codes left it.
    let conn = rusqlite::Connection::open(&path).expect("open");
    before_blocks(&conn);
    conn.execute_batch(BEFORE_CONCEPTS).expect("downgrade");
    conn.execute_batch(
        "DROP TABLE events_fts; DROP TABLE events_fts_indexed; DROP TRIGGER note_codes_follow; DROP TABLE note_codes;\n         DELETE FROM schema_version WHERE version >= 4; PRAGMA user_version = 3;",
    )
    .expect("downgrade");
    drop(conn);
    let store = open(&path);
    assert_eq!(header_user_version(&path), SCHEMA_VERSION);
    let hits = store.search_embeddings(&vector_query(vectors[1].clone(), &scope, 3)).await.expect("search");
    assert_eq!(hits.len(), 1, "the migration computed the stored vectors' codes");
    assert_eq!((hits[0].note.path.as_str(), hits[0].passage), ("facts/old.md", 1));
    assert!(hits[0].similarity > 0.99);
}

/// Takes a database back to the schema before the codes were kept in blocks (version 6), without
/// the index of notes' scopes: a row of codes per note, as that release wrote them.
fn before_blocks(conn: &rusqlite::Connection) {
    let mut per_note: std::collections::BTreeMap<i64, (String, String, Vec<u8>)> = Default::default();
    for (model, scope, id, code) in stored_codes(conn) {
        per_note.entry(id).or_insert((model, scope, Vec::new())).2.extend_from_slice(&code);
    }
    conn.execute_batch(BEFORE_BLOCKS).expect("downgrade");
    for (id, (model, scope, codes)) in per_note {
        conn.execute(
            "INSERT INTO note_codes (note_id, scope, model, codes) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![id, scope, model, codes],
        )
        .expect("insert");
    }
}

const BEFORE_BLOCKS: &str = "
DROP INDEX notes_scope_of; DROP TRIGGER code_blocks_follow; DROP TABLE code_blocks;
CREATE TABLE note_codes (note_id INTEGER PRIMARY KEY, scope TEXT NOT NULL, model TEXT NOT NULL,
    codes BLOB NOT NULL);
CREATE INDEX note_codes_model ON note_codes (model, scope);
CREATE TRIGGER note_codes_follow AFTER DELETE ON note_embeddings BEGIN
    DELETE FROM note_codes WHERE note_id = old.note_id;
END;
DELETE FROM schema_version WHERE version >= 7; PRAGMA user_version = 6;
";

/// Takes a database back to the schema before notes had their topics indexed (version 5).
const BEFORE_CONCEPTS: &str = "
DROP TRIGGER notes_fts_insert; DROP TRIGGER notes_fts_delete; DROP TRIGGER notes_fts_update;
DROP TABLE notes_vocab; DROP TABLE notes_fts;
ALTER TABLE notes DROP COLUMN concepts;
CREATE VIRTUAL TABLE notes_fts USING fts5(path, title, description, tags, body,
    content = 'notes', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 0');
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
INSERT INTO notes_fts (notes_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, 'row');
DELETE FROM schema_version WHERE version >= 6; PRAGMA user_version = 5;
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_stored_before_topics_were_indexed_are_found_by_their_topic_and_keep_their_vectors() {
    let (_dir, path) = temp_db();
    let scope = project_scope("older");
    let pnpm = note(&scope, "conventions.md", "Conventions", &[], "- always use pnpm here, not npm\n");
    let port = note(&scope, "commands.md", "Commands", &[], "- `curl localhost:5173/checkout`\n");
    let vectors = unit_vectors(2, 7);
    {
        let store = open(&path);
        store.put_note(&pnpm).await.expect("put");
        store.put_note(&port).await.expect("put");
        assert!(store.put_embeddings(&pnpm, "test-model", &vectors).await.expect("embed"));
    }
    let conn = rusqlite::Connection::open(&path).expect("open");
    before_blocks(&conn);
    conn.execute_batch(BEFORE_CONCEPTS).expect("downgrade");
    drop(conn);
    let store = open(&path);
    assert_eq!(header_user_version(&path), SCHEMA_VERSION);
    let search = |text: &str| SearchQuery::new(text, vec![scope.clone()], 5);
    let hits = store.search_notes(&search("which package manager?")).await.expect("search");
    let paths: Vec<&str> = hits.iter().map(|h| h.note.path.as_str()).collect();
    assert_eq!(paths, ["conventions.md"], "found by the topic pnpm names");
    assert_eq!(hits[0].matched_terms, 2, "both words of the topic count");
    let hits = store.search_notes(&search("what port")).await.expect("search");
    assert_eq!(hits.iter().map(|h| h.note.path.as_str()).collect::<Vec<_>>(), ["commands.md"]);
    let hits = store.search_embeddings(&vector_query(vectors[0].clone(), &scope, 3)).await.expect("search");
    assert_eq!(hits.len(), 1, "the migration left the note's vectors alone");
    // A note written after the migration is indexed by its topics as it is written.
    let db = note(&scope, "db.md", "Database", &[], "- we moved to Postgres 16\n");
    store.put_note(&db).await.expect("put");
    let hits = store.search_notes(&search("database server")).await.expect("search");
    assert_eq!(hits.first().map(|h| h.note.path.as_str()), Some("db.md"));
}

/// Whether any file of `dir` holds `needle`, in any letter case.
fn any_file_holds(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase().into_bytes();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("list the folder") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("read a file").to_ascii_lowercase();
        if bytes.windows(needle.len()).any(|w| w == needle.as_slice()) {
            found.push(path.display().to_string());
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_leaves_no_copy_in_the_file_its_wal_or_its_indexes() {
    use memory_core::{EventFilter, EventQuery, ForgetSet};
    let (dir, path) = temp_db();
    let store = open(&path);
    let secret = "Qx7vWombatPlinth93";
    let key = session("forget-bytes");
    let mut events: Vec<_> = (0..40).map(|i| event(&key, &format!("filler {i}"), i)).collect();
    let mut typed = event(&key, "typed", 100);
    typed.prompt = Some(format!("the staging password is {secret} do not share"));
    typed.raw = serde_json::json!({ "prompt": typed.prompt });
    events.push(typed.clone());
    store.append(&events).await.expect("append");
    // Indexed for history search, and copied into a note and an older version of it.
    let found =
        store.search_events(&EventQuery::phrase(secret, EventFilter::all(), 10)).await.expect("search");
    assert_eq!(found.len(), 1, "the event is found by its words");
    let scope = project_scope("forget-bytes");
    let mut n = note(&scope, "facts/staging.md", "Staging", &["secret"], &format!("password: {secret}\n"));
    store.put_note(&n).await.expect("put_note");
    n.body = format!("the password is still {secret}\n");
    store.put_note(&n).await.expect("put_note");
    let kept = note(&scope, "facts/kept.md", "Kept", &[], "staging runs on port 8443\n");
    store.put_note(&kept).await.expect("put_note");
    assert!(!any_file_holds(dir.path(), secret).is_empty(), "the secret is on disk before forget");

    let forgotten = store
        .forget(&ForgetSet {
            events: vec![typed.id.clone()],
            notes: vec![(scope.clone(), n.path.clone())],
            ..ForgetSet::default()
        })
        .await
        .expect("forget");
    assert_eq!((forgotten.events, forgotten.notes), (1, 1));
    let left = any_file_holds(dir.path(), secret);
    assert!(left.is_empty(), "no file keeps a copy after forget: {left:?}");
    let wal = std::fs::metadata(dir.path().join("memory.db-wal")).map_or(0, |m| m.len());
    assert_eq!(wal, 0, "the write-ahead log is emptied");

    // The store carries on: the rest is there and searchable, from this and a fresh connection.
    let hits =
        store.search_events(&EventQuery::search("filler", EventFilter::all(), 100)).await.expect("search");
    assert_eq!(hits.len(), 40, "other events are still found");
    drop(store);
    let again = open(&path);
    assert_eq!(again.timeline(&key, 0, 100).await.expect("timeline").len(), 40);
    let notes = again.search_notes(&SearchQuery::new("staging port", vec![scope], 10)).await.expect("search");
    assert_eq!(notes.len(), 1, "the other note is still found");
    assert!(again.search_notes(&SearchQuery::new(secret, vec![], 10)).await.expect("search").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_says_so_when_a_reader_keeps_the_wal_and_succeeds_once_it_is_gone() {
    use memory_core::ForgetSet;
    let (_dir, path) = temp_db();
    let config = SqliteConfig::new(&path).with_busy_timeout(std::time::Duration::from_millis(200));
    let store = SqliteStore::open(&config).expect("open");
    let key = session("forget-busy");
    let typed = event(&key, "typed", 1);
    store.append(std::slice::from_ref(&typed)).await.expect("append");
    // Another process reading an older snapshot.
    let reader = rusqlite::Connection::open(&path).expect("reader");
    reader.execute_batch("BEGIN; SELECT count(*) FROM events;").expect("a read transaction");
    let what = ForgetSet { events: vec![typed.id.clone()], ..ForgetSet::default() };
    let started = std::time::Instant::now();
    let error = store.forget(&what).await.expect_err("the log cannot be emptied while it is read");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "it gives up in bounded time");
    let said = error.to_string();
    assert!(said.contains("write-ahead log") && said.contains("forget runs again"), "{said}");
    assert!(error.is_transient(), "worth trying again");
    assert!(store.events_by_id(std::slice::from_ref(&typed.id)).await.expect("by id").is_empty(), "deleted");
    reader.execute_batch("COMMIT").expect("the reader finishes");
    drop(reader);
    store.forget(&ForgetSet::default()).await.expect("a forget succeeds once nobody reads, even of nothing");
    let wal = std::fs::metadata(path.with_file_name("memory.db-wal")).map_or(0, |m| m.len());
    assert_eq!(wal, 0, "and empties the log");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_optimized_note_index_finds_and_ranks_as_before() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("optimize");
    // Many commits, one segment of the full-text index each.
    for batch in 0..12 {
        let notes: Vec<memory_core::NoteChange> = (0..40)
            .map(|i| {
                let n = batch * 40 + i;
                let body = format!(
                    "- retry the flaky {} step {n}\n- cache {}\n",
                    ["build", "deploy", "test"][n % 3],
                    n % 7
                );
                memory_core::NoteChange::Put(note(
                    &scope,
                    &format!("notes/n{n}.md"),
                    &format!("Note {n}"),
                    &[],
                    &body,
                ))
            })
            .collect();
        store.commit(&notes, None).await.expect("commit");
    }
    let queries = ["retry the flaky deploy", "cache 3", "build step 17", "nothing matches zebra"];
    let search = |q: &'static str| {
        let store = &store;
        let scope = scope.clone();
        async move {
            let hits = store.search_notes(&SearchQuery::new(q, vec![scope], 12)).await.expect("search");
            hits.into_iter().map(|h| (h.note.path.to_string(), h.score, h.matched_terms)).collect::<Vec<_>>()
        }
    };
    let mut before = Vec::new();
    for q in queries {
        before.push(search(q).await);
    }
    assert!(before[0].len() == 12, "the queries find notes: {:?}", before[0]);
    store.optimize_note_search().await.expect("optimize");
    for (q, expected) in queries.into_iter().zip(&before) {
        assert_eq!(&search(q).await, expected, "{q}");
    }
    // Notes written after it are found as ever.
    let late = note(&scope, "notes/late.md", "Late", &[], "- retry the flaky deploy late\n");
    store.put_note(&late).await.expect("put");
    assert!(search("late").await.iter().any(|(path, ..)| path == "notes/late.md"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_word_in_many_notes_finds_a_note_only_beside_another_word_of_the_query() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("broad");
    // "cargo" in 120 notes, "clippy" in 60 of them: both in more than the 50 notes that make a
    // word broad, neither in so many that it is left out.
    let mut notes: Vec<memory_core::NoteChange> = (0..120)
        .map(|n| {
            let lint = if n < 60 { "\n- clippy runs with -D warnings" } else { "" };
            let body = format!("- run cargo build for crate {n}{lint}\n");
            memory_core::NoteChange::Put(note(
                &scope,
                &format!("crates/c{n}.md"),
                &format!("Crate {n}"),
                &[],
                &body,
            ))
        })
        .collect();
    for (path, body) in [
        ("tools/kalomix.md", "- kalomix is built with cargo xtask\n"),
        ("tools/kalomix-docs.md", "- kalomix docs live on the wiki\n"),
    ] {
        notes.push(memory_core::NoteChange::Put(note(&scope, path, "Kalomix", &[], body)));
    }
    store.commit(&notes, None).await.expect("commit");
    let search = |q: &'static str| {
        let (store, scope) = (&store, scope.clone());
        async move {
            let hits = store.search_notes(&SearchQuery::new(q, vec![scope], 12)).await.expect("search");
            hits.into_iter().map(|h| h.note.path.to_string()).collect::<Vec<_>>()
        }
    };
    // The rare word finds its notes; the broad one ranks them and finds none alone.
    assert_eq!(search("kalomix with cargo").await, ["tools/kalomix.md", "tools/kalomix-docs.md"]);
    // Two broad words find the notes that have both.
    let both = search("kalomix cargo clippy").await;
    assert_eq!(&both[..2], ["tools/kalomix.md", "tools/kalomix-docs.md"]);
    assert_eq!(both.len(), 12);
    assert!(
        both[2..].iter().all(|p| p
            .trim_start_matches("crates/c")
            .trim_end_matches(".md")
            .parse::<u32>()
            .unwrap()
            < 60),
        "{both:?}"
    );
    // Without a rarer word, a broad word alone finds notes as ever.
    assert_eq!(search("cargo").await.len(), 12);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_writes_leave_the_note_index_in_a_few_segments() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("segments");
    let segments = || {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.query_row("SELECT count(DISTINCT segid) FROM notes_fts_idx", [], |row| row.get::<_, i64>(0))
            .expect("segments")
    };
    let mut most = 0;
    for n in 0..40 {
        let body = format!("- deploy step {n} runs wharfcheck\n");
        store
            .put_note(&note(&scope, &format!("steps/s{n}.md"), &format!("Step {n}"), &[], &body))
            .await
            .expect("put");
        if n % 3 == 0 {
            store
                .delete_note(&scope, &memory_testkit::fixtures::path(&format!("steps/s{}.md", n / 3)))
                .await
                .expect("delete");
        }
        most = most.max(segments());
    }
    assert!(most <= 4, "at most four segments after any write, found {most}");
    // Every note still there is found, and none deleted.
    let hits = store.search_notes(&SearchQuery::new("wharfcheck", vec![scope], 100)).await.expect("search");
    let deleted: std::collections::BTreeSet<usize> = (0..40).filter(|n| n % 3 == 0).map(|n| n / 3).collect();
    assert_eq!(hits.len(), 40 - deleted.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_note_moved_in_one_commit_keeps_its_embeddings() {
    let (_dir, path) = temp_db();
    let store = open(&path);
    let scope = project_scope("moving");
    let vectors = unit_vectors(3, 41);
    let old = note(&scope, "project/old-name/deploy.md", "Deploying", &[], "- tag, then push the tag\n");
    let other = note(&scope, "project/old-name/style.md", "Style", &[], "- tabs\n");
    for n in [&old, &other] {
        store.put_note(n).await.expect("put");
    }
    assert!(store.put_embeddings(&old, "test-model", &vectors[..2]).await.expect("embed"));
    assert!(store.put_embeddings(&other, "test-model", &vectors[2..]).await.expect("embed"));
    let mut moved = old.clone();
    moved.path = memory_core::NotePath::new("project/new-name/deploy.md").unwrap();
    let mut edited = other.clone();
    edited.path = memory_core::NotePath::new("project/new-name/style.md").unwrap();
    edited.body = "- two spaces\n".to_owned();
    let changes = [
        memory_core::NoteChange::Put(moved.clone()),
        memory_core::NoteChange::Delete { scope: scope.clone(), path: old.path.clone() },
        memory_core::NoteChange::Put(edited.clone()),
        memory_core::NoteChange::Delete { scope: scope.clone(), path: other.path.clone() },
    ];
    store.commit(&changes, None).await.expect("commit");
    let hits = store.search_embeddings(&vector_query(vectors[1].clone(), &scope, 5)).await.expect("search");
    assert_eq!(hits.len(), 1, "only the note whose text stayed the same keeps vectors: {hits:?}");
    assert_eq!(hits[0].note.path, moved.path);
    assert_eq!(hits[0].passage, 1);
    assert!(hits[0].similarity > 0.95, "{}", hits[0].similarity);
    let waiting = store.notes_without_embeddings("test-model", 10).await.expect("missing");
    let waiting: Vec<&str> = waiting.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(waiting, ["project/new-name/style.md"], "a changed note is embedded again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_written_before_the_topics_grew_are_found_by_the_new_topics() {
    let (_dir, path) = temp_db();
    let scope = project_scope("grown");
    let tracker = note(&scope, "conventions.md", "Conventions", &[], "- exceptions go to Sentry\n");
    let shell = note(&scope, "setup.md", "Setup", &[], "- my prompt runs in zsh\n");
    {
        let store = open(&path);
        store.put_note(&tracker).await.expect("put");
        store.put_note(&shell).await.expect("put");
    }
    // The database as the release with the smaller table left it: no topic for either note.
    let conn = rusqlite::Connection::open(&path).expect("open");
    conn.execute_batch(
        "UPDATE notes SET concepts = '';
         DELETE FROM schema_version WHERE version >= 14; PRAGMA user_version = 13;",
    )
    .expect("downgrade");
    drop(conn);
    let search = |text: &str| SearchQuery::new(text, vec![scope.clone()], 5);
    let store = open(&path);
    assert_eq!(header_user_version(&path), SCHEMA_VERSION);
    for (question, path) in [("error tracking", "conventions.md"), ("which terminal shell", "setup.md")] {
        let hits = store.search_notes(&search(question)).await.expect("search");
        assert_eq!(hits.first().map(|h| h.note.path.as_str()), Some(path), "{question:?}");
    }
}
