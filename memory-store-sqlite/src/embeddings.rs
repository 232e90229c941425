//! Notes' embeddings, in the same database file: one row per note holding all its vectors (one
//! per passage), dropped by triggers when the note changes or goes. Vectors are kept as signed
//! bytes with their length, a quarter of `f32`s: ranking by them differs from exact cosine by
//! far less than the gap between a relevant note and the next. Beside them, in `code_blocks`,
//! each vector's signs as bits, the codes of a scope's notes with neighbouring ids in one row.
//! Search scans the codes of the asked scopes (the number of differing signs tracks the angle
//! between two vectors), keeps the [`SHORTLIST`] closest notes, ranks those by their signed-byte
//! vectors, and reads only the winners' notes.

use std::collections::{BTreeMap, BTreeSet};

use memory_core::{Note, PendingVector, Scope, VectorHit, VectorQuery};
use rusqlite::{Connection, OptionalExtension as _, params};

use crate::error::StoreError;
use crate::events::to_sql;
use crate::notes::decode;

/// A vector scaled to signed bytes (its largest value to ±127), and the length of that.
pub(crate) fn quantize(vector: &[f32]) -> (Vec<i8>, f32) {
    let max = vector.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let scale = if max > 0.0 { 127.0 / max } else { 0.0 };
    let quantized: Vec<i8> = vector.iter().map(|x| (x * scale).round().clamp(-127.0, 127.0) as i8).collect();
    let norm = quantized.iter().map(|&q| f32::from(q) * f32::from(q)).sum::<f32>().sqrt();
    (quantized, norm)
}

/// Every vector of a note, after their common length (`u32`), each as its length (`f32`) and its
/// values scaled to `i8`; little-endian.
pub(crate) fn pack(vectors: &[Vec<f32>]) -> Vec<u8> {
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

/// Notes whose full vectors are compared with the query, after the scan of the codes: far more
/// than a search asks for, so the best notes are in it even where signs mislead.
const SHORTLIST: usize = 160;

/// The signs of a vector's values as bits, eight to a byte, first value in the lowest bit.
fn signs(values: impl Iterator<Item = bool>) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, positive) in values.enumerate() {
        if i % 8 == 0 {
            out.push(0);
        }
        if positive && let Some(last) = out.last_mut() {
            *last |= 1 << (i % 8);
        }
    }
    out
}

/// The codes of packed vectors ([`pack`]): the length of one code in bytes, and each vector's
/// signs, one after another.
fn codes(packed: &[u8]) -> Option<(usize, Vec<u8>)> {
    let dims = usize::try_from(u32::from_le_bytes(packed.get(..4)?.try_into().ok()?)).ok()?;
    let mut out = Vec::new();
    if dims > 0 {
        for vector in packed[4..].chunks_exact(4 + dims) {
            out.extend(signs(vector[4..].iter().map(|&b| (b as i8) > 0)));
        }
    }
    Some((dims.div_ceil(8), out))
}

/// How many signs two codes differ in: the bits of their exclusive or, counted a word of eight
/// bytes at a time. A search runs this under [`pulp`]'s dispatch ([`offer_block`]), which enables
/// the CPU's population count instruction where it has one (in a profile of a search over
/// 100,000 notes, the comparison's share fell from 8 % of the samples, counting with shifts and
/// masks, to 2 %). Codes of the shipped model's length take a path the compiler unrolls.
#[inline(always)]
fn distance(code: &[u8], query: &[u8]) -> u32 {
    if let (Ok(code), Ok(query)) = (<&[u8; MODEL_CODE]>::try_from(code), <&[u8; MODEL_CODE]>::try_from(query))
    {
        return words_apart(code, query);
    }
    words_apart(code, query)
}

/// The length of a code of the shipped model's vectors (384 values).
const MODEL_CODE: usize = 48;

/// [`distance`]'s count, for codes of one length.
#[inline(always)]
fn words_apart(code: &[u8], query: &[u8]) -> u32 {
    let whole = code.len().min(query.len()) / 8 * 8;
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap_or_default());
    let words: u32 = code[..whole]
        .chunks_exact(8)
        .zip(query[..whole].chunks_exact(8))
        .map(|(a, b)| (word(a) ^ word(b)).count_ones())
        .sum();
    words + code[whole..].iter().zip(&query[whole..]).map(|(a, b)| (a ^ b).count_ones()).sum::<u32>()
}

/// A block (a row of `code_blocks`) holds the codes of the notes of one scope whose ids differ
/// only in their last `BLOCK_BITS` bits; the schema's `code_blocks_follow` trigger computes the
/// same block.
const BLOCK_BITS: u32 = 6;

/// A block's bytes: the length of one code (`u32`, little-endian), then an entry per vector, a
/// note's vectors one after another: the last `BLOCK_BITS` bits of its note's id (one byte; the
/// block number holds the rest), then its code.
fn block_entries(block: i64, bytes: &[u8]) -> Option<(usize, impl Iterator<Item = (i64, &[u8])>)> {
    let code_len = usize::try_from(u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?)).ok()?;
    if code_len == 0 {
        return None;
    }
    let entries = bytes[4..]
        .chunks_exact(1 + code_len)
        .map(move |entry| ((block << BLOCK_BITS) | i64::from(entry[0]), &entry[1..]));
    Some((code_len, entries))
}

/// Appends note `id`'s entry for one code to a block's entries.
fn push_entry(entries: &mut Vec<u8>, id: i64, code: &[u8]) {
    entries.push((id & ((1 << BLOCK_BITS) - 1)) as u8);
    entries.extend_from_slice(code);
}

/// Offers every note of a block to the shortlist, at the fewest signs any of its codes differs in
/// from the query's.
fn offer_block(block: i64, bytes: &[u8], query: &[u8], shortlist: &mut Best<u32>) {
    pulp::Arch::new().dispatch(OfferBlock { block, bytes, query, shortlist });
}

/// [`offer_block`]'s work, compiled for each instruction set the dispatch may pick.
struct OfferBlock<'a> {
    block: i64,
    bytes: &'a [u8],
    query: &'a [u8],
    shortlist: &'a mut Best<u32>,
}

impl pulp::WithSimd for OfferBlock<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        let Self { block, bytes, query, shortlist } = self;
        let Some((code_len, entries)) = block_entries(block, bytes) else { return };
        if code_len != query.len() {
            return;
        }
        let nearer = |a: u32, b: u32| a < b;
        let mut current: Option<(i64, u32)> = None;
        for (id, code) in entries {
            let d = distance(code, query);
            current = match current {
                Some((note, best)) if note == id => Some((note, best.min(d))),
                Some((note, best)) => {
                    shortlist.offer(note, best, nearer);
                    Some((id, d))
                }
                None => Some((id, d)),
            };
        }
        if let Some((note, best)) = current {
            shortlist.offer(note, best, nearer);
        }
    }
}

/// Whether note `id` has vectors by `model`.
fn has_vectors(conn: &Connection, id: i64, model: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM note_embeddings WHERE note_id = ?1 AND model = ?2")?
        .query_row(params![id, model], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Writes a block's entries (dropping the row when none are left).
fn write_block(
    conn: &Connection,
    model: &str,
    scope: &str,
    block: i64,
    code_len: usize,
    entries: &[u8],
) -> Result<(), StoreError> {
    if entries.is_empty() {
        conn.prepare_cached("DELETE FROM code_blocks WHERE model = ?1 AND scope = ?2 AND block = ?3")?
            .execute(params![model, scope, block])?;
        return Ok(());
    }
    let mut bytes = Vec::with_capacity(4 + entries.len());
    bytes.extend_from_slice(&u32::try_from(code_len).unwrap_or(0).to_le_bytes());
    bytes.extend_from_slice(entries);
    conn.prepare_cached(
        "INSERT OR REPLACE INTO code_blocks (model, scope, block, stale, entries) VALUES (?1, ?2, ?3, 0, ?4)",
    )?
    .execute(params![model, scope, block, bytes])?;
    Ok(())
}

/// The entries of a stored block that stay: not of note `replaced`, and, when the block is stale,
/// only of notes that still have vectors. `None` when the block's codes are of another length.
fn kept_entries(
    conn: &Connection,
    model: &str,
    (block, bytes): (i64, &[u8]),
    stale: bool,
    replaced: Option<i64>,
) -> Result<Option<(usize, Vec<u8>)>, StoreError> {
    let Some((code_len, entries)) = block_entries(block, bytes) else { return Ok(None) };
    let mut kept = Vec::new();
    let mut alive: Option<(i64, bool)> = None;
    for (id, code) in entries {
        if Some(id) == replaced {
            continue;
        }
        if stale {
            let live = match alive {
                Some((note, live)) if note == id => live,
                _ => has_vectors(conn, id, model)?,
            };
            alive = Some((id, live));
            if !live {
                continue;
            }
        }
        push_entry(&mut kept, id, code);
    }
    Ok(Some((code_len, kept)))
}

/// Puts note `id`'s codes in its block, in place of any it had there; inside the caller's write
/// transaction.
fn put_codes(conn: &Connection, id: i64, scope: &str, model: &str, packed: &[u8]) -> Result<(), StoreError> {
    let block = id >> BLOCK_BITS;
    let (code_len, codes) = codes(packed).unwrap_or_default();
    let stored: Option<(Vec<u8>, bool)> = conn
        .prepare_cached(
            "SELECT entries, stale FROM code_blocks WHERE model = ?1 AND scope = ?2 AND block = ?3",
        )?
        .query_row(params![model, scope, block], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let mut entries = Vec::new();
    let mut length = code_len;
    if let Some((stored, stale)) = stored
        && let Some((stored_len, kept)) = kept_entries(conn, model, (block, &stored), stale, Some(id))?
        && (stored_len == code_len || codes.is_empty())
    {
        entries = kept;
        length = stored_len;
    }
    if code_len > 0 && length == code_len {
        for code in codes.chunks_exact(code_len) {
            push_entry(&mut entries, id, code);
        }
    }
    write_block(conn, model, scope, block, length, &entries)
}

/// Drops from stale blocks the codes of notes whose vectors went; inside the caller's write
/// transaction. Cheap when no block is stale (an index holds the stale ones).
pub(crate) fn compact_stale(conn: &Connection) -> Result<(), StoreError> {
    let stale: Vec<(String, String, i64, Vec<u8>)> = conn
        .prepare_cached("SELECT model, scope, block, entries FROM code_blocks WHERE stale = 1")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (model, scope, block, stored) in stale {
        let (code_len, kept) = kept_entries(conn, &model, (block, &stored), true, None)?.unwrap_or_default();
        write_block(conn, &model, &scope, block, code_len, &kept)?;
    }
    Ok(())
}

/// A block's model, scope and number.
type BlockKey = (String, String, i64);

/// Computes the codes of every stored vector, once, when `note_codes` is added (a row per note,
/// its vectors' codes one after another; [`fill_blocks`] later moves them into blocks).
pub(crate) fn fill_codes(conn: &Connection) -> Result<(), StoreError> {
    let rows: Vec<(i64, String, String, Vec<u8>)> = conn
        .prepare("SELECT note_id, scope, model, vectors FROM note_embeddings")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut insert = conn.prepare(
        "INSERT OR REPLACE INTO note_codes (note_id, scope, model, codes) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (id, scope, model, packed) in rows {
        if let Some((_, codes)) = codes(&packed) {
            insert.execute(params![id, scope, model, codes])?;
        }
    }
    Ok(())
}

/// Moves the per-note codes of `note_codes` into their blocks and drops that table, once, when
/// `code_blocks` is added: it reads the codes (a few megabytes at 100,000 notes), not the vectors
/// they were computed from (eight times as many bytes).
pub(crate) fn fill_blocks(conn: &Connection) -> Result<(), StoreError> {
    // The length of one code of each model, from the length of its vectors.
    let mut lengths: BTreeMap<String, usize> = BTreeMap::new();
    {
        let mut dims =
            conn.prepare("SELECT substr(vectors, 1, 4) FROM note_embeddings WHERE model = ?1 LIMIT 1")?;
        let mut read = conn
            .prepare("SELECT note_id, scope, model, codes FROM note_codes ORDER BY model, scope, note_id")?;
        let mut rows = read.query([])?;
        // The block being filled: its key, the length of its codes, its entries.
        let mut open: Option<(BlockKey, usize, Vec<u8>)> = None;
        while let Some(row) = rows.next()? {
            let (id, scope, model, codes): (i64, String, String, Vec<u8>) =
                (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
            if !lengths.contains_key(&model) {
                let header: Option<Vec<u8>> = dims.query_row([&model], |row| row.get(0)).optional()?;
                let dims = header.and_then(|h| Some(u32::from_le_bytes(h.get(..4)?.try_into().ok()?)));
                lengths.insert(model.clone(), dims.map_or(0, |d| (d as usize).div_ceil(8)));
            }
            let code_len = lengths[&model];
            if code_len == 0 || codes.is_empty() || codes.len() % code_len != 0 {
                continue;
            }
            let key = (model, scope, id >> BLOCK_BITS);
            if open.as_ref().is_some_and(|(k, len, _)| *k != key || *len != code_len)
                && let Some(((model, scope, block), len, entries)) = open.take()
            {
                write_block(conn, &model, &scope, block, len, &entries)?;
            }
            let (_, _, entries) = open.get_or_insert_with(|| (key, code_len, Vec::new()));
            for code in codes.chunks_exact(code_len) {
                push_entry(entries, id, code);
            }
        }
        if let Some(((model, scope, block), len, entries)) = open {
            write_block(conn, &model, &scope, block, len, &entries)?;
        }
    }
    conn.execute_batch("DROP TABLE note_codes")?;
    Ok(())
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
pub(crate) fn best(packed: &[u8], query: &[i8], query_norm: f32) -> Option<(f32, usize)> {
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
    let packed = pack(vectors);
    conn.prepare_cached(
        "INSERT OR REPLACE INTO note_embeddings (note_id, scope, model, vectors) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, scope, model, packed])?;
    put_codes(conn, id, &scope, model, &packed)?;
    Ok(true)
}

/// Before the note at `path` is deleted: when one of `put` (the notes written earlier in the same
/// commit) says the same as it at another path of its scope and has no embeddings, the deleted
/// note's embeddings, and their codes, go to it. A note moved keeps what was computed for its text.
pub(crate) fn carry_moved(
    conn: &Connection,
    scope: &memory_core::Scope,
    path: &memory_core::NotePath,
    put: &[&Note],
) -> Result<(), StoreError> {
    let scope_text = scope.to_string();
    if put.is_empty() {
        return Ok(());
    }
    let from: Option<(i64, String, Option<String>, String, String)> = conn
        .prepare_cached(
            "SELECT id, title, description, tags, body FROM notes WHERE scope = ?1 AND path = ?2",
        )?
        .query_row(params![scope_text, path.as_str()], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?))
        })
        .optional()?;
    let Some((from, title, description, tags, body)) = from else { return Ok(()) };
    let moved = put.iter().rev().find(|n| {
        n.meta.scope == *scope
            && n.path != *path
            && n.meta.title == title
            && n.meta.description == description
            && n.meta.tags.join(" ") == tags
            && n.body == body
    });
    let Some(moved) = moved else { return Ok(()) };
    let to: Option<i64> = conn
        .prepare_cached("SELECT id FROM notes WHERE scope = ?1 AND path = ?2 AND body = ?3")?
        .query_row(params![scope_text, moved.path.as_str(), moved.body], |row| row.get(0))
        .optional()?;
    let Some(to) = to else { return Ok(()) };
    let rows: Vec<(String, Vec<u8>)> = conn
        .prepare_cached("SELECT model, vectors FROM note_embeddings WHERE note_id = ?1")?
        .query_map([from], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (model, packed) in rows {
        if has_vectors(conn, to, &model)? {
            continue;
        }
        conn.prepare_cached(
            "INSERT OR IGNORE INTO note_embeddings (note_id, scope, model, vectors) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![to, scope_text, model, packed])?;
        put_codes(conn, to, &scope_text, &model, &packed)?;
    }
    Ok(())
}

/// Packed vectors ([`pack`]) back as `f32`s of unit length: the directions that were stored.
fn unpack(packed: &[u8]) -> Vec<Vec<f32>> {
    let Some(dims) = packed.get(..4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes) else {
        return Vec::new();
    };
    let dims = usize::try_from(dims).unwrap_or(0);
    if dims == 0 {
        return Vec::new();
    }
    packed[4..]
        .chunks_exact(4 + dims)
        .map(|chunk| {
            let norm = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            let scale = if norm > 0.0 { 1.0 / norm } else { 0.0 };
            chunk[4..].iter().map(|&b| f32::from(i8::from_le_bytes([b])) * scale).collect()
        })
        .collect()
}

/// The vectors by `model` of each of `notes` (current versions, by scope and path).
pub(crate) fn of_notes(
    conn: &Connection,
    model: &str,
    notes: &[Note],
) -> Result<Vec<Vec<Vec<f32>>>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT e.vectors FROM notes n JOIN note_embeddings e ON e.note_id = n.id AND e.model = ?3
         WHERE n.scope = ?1 AND n.path = ?2",
    )?;
    let mut out = Vec::with_capacity(notes.len());
    for note in notes {
        let packed: Option<Vec<u8>> = stmt
            .query_row(params![note.meta.scope.to_string(), note.path.as_str(), model], |row| row.get(0))
            .optional()?;
        out.push(packed.map(|p| unpack(&p)).unwrap_or_default());
    }
    Ok(out)
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

/// The best `limit` of `(id, score)` pairs seen so far, best first; ties go to the lower id.
struct Best<T> {
    limit: usize,
    items: Vec<(i64, T)>,
}

impl<T: Copy + PartialOrd> Best<T> {
    fn new(limit: usize) -> Self {
        Self { limit, items: Vec::with_capacity(limit + 1) }
    }

    /// Offers a pair; `better(a, b)` says whether score `a` ranks above `b`. What is kept does not
    /// depend on the order pairs are offered in. Inlined: nearly every pair of a large search is
    /// turned away by its first comparison.
    #[inline(always)]
    fn offer(&mut self, id: i64, score: T, better: impl Fn(T, T) -> bool) {
        let before_last = |&(other, s): &(i64, T)| better(score, s) || (s == score && id < other);
        if self.limit == 0 || (self.items.len() == self.limit && !self.items.last().is_some_and(before_last))
        {
            return;
        }
        self.insert(id, score, better);
    }

    /// Puts a pair that ranks among the kept in its place.
    #[inline(never)]
    fn insert(&mut self, id: i64, score: T, better: impl Fn(T, T) -> bool) {
        let at = self.items.partition_point(|&(other, s)| better(s, score) || (s == score && other < id));
        self.items.insert(at, (id, score));
        self.items.truncate(self.limit);
    }
}

/// A query vector as it is compared: scaled to signed bytes, its length, and its signs.
struct Prepared {
    quantized: Vec<i8>,
    norm: f32,
    code: Vec<u8>,
}

impl Prepared {
    fn new(vector: &[f32]) -> Self {
        let (quantized, norm) = quantize(vector);
        let code = signs(quantized.iter().map(|&q| q > 0));
        Self { quantized, norm, code }
    }
}

/// Notes by their best vector's similarity to the query's, best first.
pub(crate) fn search(conn: &Connection, query: &VectorQuery) -> Result<Vec<VectorHit>, StoreError> {
    search_pending(conn, query, Box::new(Given(Some(query.vector.clone()))))
}

/// A vector that is already there.
struct Given(Option<Vec<f32>>);

impl PendingVector for Given {
    fn ready(&self) -> bool {
        true
    }

    fn wait(self: Box<Self>) -> Option<Vec<f32>> {
        self.0
    }
}

/// [`search`] for a vector still being made: the codes of the asked scopes are read meanwhile,
/// and those read before it is there are kept until it is.
pub(crate) fn search_pending(
    conn: &Connection,
    query: &VectorQuery,
    vector: Box<dyn PendingVector>,
) -> Result<Vec<VectorHit>, StoreError> {
    if query.limit == 0 {
        return Ok(Vec::new());
    }
    // Every asked scope's blocks (each scope once), or every block when no scope is asked.
    let scopes: Vec<Option<String>> = if query.scopes.is_empty() {
        vec![None]
    } else {
        let named: BTreeSet<String> = query.scopes.iter().map(Scope::to_string).collect();
        named.into_iter().map(Some).collect()
    };
    // The notes whose signs are closest to the query's.
    let mut shortlist = Best::new(SHORTLIST.max(query.limit));
    let mut of_scope =
        conn.prepare_cached("SELECT block, entries FROM code_blocks WHERE model = ?1 AND scope = ?2")?;
    let mut of_all = conn.prepare_cached("SELECT block, entries FROM code_blocks WHERE model = ?1")?;
    // Blocks read before the vector is made, kept until it is.
    let mut early: Vec<(i64, Vec<u8>)> = Vec::new();
    let take = |pending: Box<dyn PendingVector>| pending.wait().map(|vector| Prepared::new(&vector));
    let mut pending = Some(vector);
    let mut prepared: Option<Prepared> = None;
    for scope in &scopes {
        let mut rows = match scope {
            Some(scope) => of_scope.query(params![query.model, scope])?,
            None => of_all.query([&query.model])?,
        };
        while let Some(row) = rows.next()? {
            let block: i64 = row.get(0)?;
            let rusqlite::types::ValueRef::Blob(bytes) = row.get_ref(1)? else { continue };
            if prepared.is_none() && pending.as_ref().is_some_and(|p| p.ready()) {
                prepared = pending.take().and_then(take);
                if prepared.is_none() {
                    return Ok(Vec::new());
                }
            }
            match &prepared {
                Some(q) => offer_block(block, bytes, &q.code, &mut shortlist),
                None => early.push((block, bytes.to_vec())),
            }
        }
    }
    let Some(query_vector) = prepared.or_else(|| pending.and_then(take)) else { return Ok(Vec::new()) };
    for (block, bytes) in &early {
        offer_block(*block, bytes, &query_vector.code, &mut shortlist);
    }
    // Those ranked by their full vectors.
    let mut top: Best<(f32, usize)> = Best::new(query.limit);
    let mut vectors = conn.prepare_cached("SELECT vectors FROM note_embeddings WHERE note_id = ?1")?;
    for (id, _) in shortlist.items {
        let packed: Option<Vec<u8>> = vectors.query_row([id], |row| row.get(0)).optional()?;
        if let Some(found) =
            packed.and_then(|packed| best(&packed, &query_vector.quantized, query_vector.norm))
        {
            top.offer(id, found, |a, b| a.0 > b.0);
        }
    }
    let mut read = conn.prepare_cached("SELECT path, meta, body FROM notes WHERE id = ?1")?;
    let mut hits = Vec::with_capacity(top.items.len());
    for (id, (similarity, passage)) in top.items {
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
    use super::{best, codes, distance, offer_block, pack, push_entry, quantize, signs};

    #[test]
    fn the_best_kept_are_the_same_in_any_order() {
        let pairs = [(5, 2u32), (1, 3), (3, 2), (2, 2), (4, 1), (6, 3)];
        let kept = |order: &[(i64, u32)]| {
            let mut best = super::Best::new(3);
            for &(id, score) in order {
                best.offer(id, score, |a, b| a < b);
            }
            best.items
        };
        let forward = kept(&pairs);
        assert_eq!(forward, vec![(4, 1), (2, 2), (3, 2)], "lowest scores, ties to the lower id");
        let mut backward = pairs;
        backward.reverse();
        assert_eq!(kept(&backward), forward);
    }

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

    #[test]
    fn codes_count_the_signs_two_vectors_differ_in() {
        let packed = pack(&[vec![0.5f32, -0.5, 0.1, -0.1, 0.3, 0.3, -0.2, 0.9, -0.4], vec![-1.0f32; 9]]);
        let (code_len, codes) = codes(&packed).unwrap();
        assert_eq!(code_len, 2);
        assert_eq!(codes, [0b1011_0101, 0, 0, 0], "two bytes per 9-value vector, signs in order");
        let query = signs([true, false, true, false, true, true, false, true, false].into_iter());
        assert_eq!(distance(&codes[..2], &query), 0, "the first vector has the query's signs");
        let flipped = signs([false, true, true, false, true, true, false, true, false].into_iter());
        assert_eq!(distance(&codes[..2], &flipped), 2);
        assert_eq!(distance(&codes[2..], &flipped), 5, "all-negative: the five positive signs differ");
    }

    #[test]
    fn distance_counts_every_differing_bit_of_long_and_odd_codes() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[3]
        };
        for len in [1usize, 7, 8, 48, 131, 300] {
            let a: Vec<u8> = (0..len).map(|_| next()).collect();
            let b: Vec<u8> = (0..len).map(|_| next()).collect();
            let expected: u32 = a.iter().zip(&b).map(|(x, y)| (x ^ y).count_ones()).sum();
            assert_eq!(distance(&a, &b), expected, "{len} bytes");
        }
        assert_eq!(distance(&[0xff; 300], &[0; 300]), 2400, "every bit differs");
    }

    #[test]
    fn a_block_offers_each_note_once_at_its_nearest_code() {
        let code = |bits: [bool; 9]| signs(bits.into_iter());
        let query = code([true; 9]);
        let mut block = 2u32.to_le_bytes().to_vec();
        let entries: [(i64, [bool; 9]); 4] = [
            (135, [false; 9]),
            (135, [true, true, true, true, true, true, true, true, false]),
            (137, [false, false, true, true, true, true, true, true, true]),
            (191, [false; 9]),
        ];
        for (id, bits) in entries {
            push_entry(&mut block, id, &code(bits));
        }
        assert_eq!(block.len(), 4 + 4 * 3, "a byte of the id and two of code an entry");
        let mut shortlist = super::Best::new(2);
        offer_block(2, &block, &query, &mut shortlist);
        assert_eq!(shortlist.items, vec![(135, 1), (137, 2)], "note 135 by its second vector, 191 left out");
        let mut other = super::Best::new(2);
        offer_block(2, &block, &[0xff; 3], &mut other);
        assert!(other.items.is_empty(), "codes of another length compare with nothing");
    }
}
