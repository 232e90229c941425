//! Keeping a store's events embedded, for history search by meaning: each event past a
//! watermark, in order, by its words (what was asked, said, run or changed); the session's
//! bookkeeping and events of a word or three get an empty vector, so they are passed over for
//! good and never found.

use memory_core::search::{event_text, says_something, words};
use memory_core::{MemoryStore, StoredEvent};

use crate::error::{Error, Result};
use crate::model::{Embedder, MODEL_NAME};

/// How much of an event's text is embedded, in tokens: a prompt or a reply whole, a long tool
/// output by its start.
pub const EVENT_TOKENS: usize = 128;
/// Events read and embedded per batch.
const BATCH_EVENTS: usize = 64;
/// The watermark past which events wait to be embedded by [`MODEL_NAME`].
pub const EVENTS_WATERMARK: &str = "embedded-events:all-MiniLM-L6-v2";

/// What is embedded for an event: its text, when it says something; `None` for bookkeeping.
fn embedded_text(event: &StoredEvent) -> Option<String> {
    let text = event_text(&event.event);
    says_something(&event.event, &words(&text)).then_some(text)
}

/// Embeds the events of `store` past [`EVENTS_WATERMARK`], in order, at most `limit` of them,
/// and moves the watermark past them. Returns how many were read. A store without vector search
/// is left alone.
pub async fn refresh_events(store: &dyn MemoryStore, embedder: &Embedder, limit: usize) -> Result<usize> {
    if limit == 0 || !store.capabilities().vector_search {
        return Ok(0);
    }
    let store_error = |e: memory_core::Error| Error::Store(e.to_string());
    let mut after = store.watermark(EVENTS_WATERMARK).await.map_err(store_error)?.unwrap_or(0);
    let mut read = 0;
    while read < limit {
        let batch = store.events_after(after, BATCH_EVENTS.min(limit - read)).await.map_err(store_error)?;
        let Some(last) = batch.last().map(|e| e.position) else { break };
        let texts: Vec<Option<String>> = batch.iter().map(embedded_text).collect();
        let said: Vec<&str> = texts.iter().flatten().map(String::as_str).collect();
        let mut made = embedder.embed_all(&said, EVENT_TOKENS)?.into_iter();
        let vectors: Vec<(u64, Vec<f32>)> = batch
            .iter()
            .zip(&texts)
            .map(|(event, text)| {
                (event.position, text.as_ref().and_then(|_| made.next()).unwrap_or_default())
            })
            .collect();
        store.put_event_embeddings(MODEL_NAME, &vectors).await.map_err(store_error)?;
        store.set_watermark(EVENTS_WATERMARK, last).await.map_err(store_error)?;
        read += batch.len();
        after = last;
    }
    Ok(read)
}
