//! The installed model: where it lives, and turning text into vectors.

use std::path::{Path, PathBuf};

use crate::bert::{Bert, HIDDEN};
use crate::error::{Error, Result};
use crate::tokenizer::Tokenizer;
use crate::weights::Weights;

/// The model's name, recorded beside every stored vector.
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
/// Length of every embedding.
pub const DIMENSIONS: usize = HIDDEN;
/// Most tokens of a note that are embedded (the model was trained on 256).
pub const NOTE_TOKENS: usize = 256;
/// Most tokens of a prompt embedded on a hook's path: the cost grows with every token.
pub const PROMPT_TOKENS: usize = 64;

/// The files of an installed model, in its folder.
pub(crate) const WEIGHTS_FILE: &str = "model.safetensors";
/// The weights as the install leaves them: each layer's matrices quantized to bytes.
pub(crate) const QUANTIZED_FILE: &str = "model.q8.safetensors";
pub(crate) const VOCAB_FILE: &str = "vocab.txt";
pub(crate) const SORTED_VOCAB_FILE: &str = "vocab.sorted";
pub(crate) const MANIFEST_FILE: &str = "installed.json";

/// The folder the model is installed in under a data folder: `<data_dir>/models/all-MiniLM-L6-v2`.
pub fn model_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("models").join(MODEL_NAME)
}

/// Whether a complete model is installed in `dir`.
pub fn is_installed(dir: &Path) -> bool {
    installed_weights(dir).is_some()
}

/// Whether the model in `dir` has its layers' weights quantized, as an install writes them
/// today. A folder installed before holds the published `f32` weights only: it works, reading
/// four times the bytes for each prompt; installing again converts it.
pub fn is_quantized(dir: &Path) -> bool {
    dir.join(QUANTIZED_FILE).is_file()
}

/// The weights file of the model installed in `dir` (the quantized one when there is one), when
/// the folder holds a complete model.
fn installed_weights(dir: &Path) -> Option<PathBuf> {
    let weights = [QUANTIZED_FILE, WEIGHTS_FILE].iter().map(|f| dir.join(f)).find(|p| p.is_file())?;
    [SORTED_VOCAB_FILE, MANIFEST_FILE].iter().all(|f| dir.join(f).is_file()).then_some(weights)
}

/// An embedding model ready to use.
#[derive(Debug)]
pub struct Embedder {
    tokenizer: Tokenizer,
    bert: Bert,
}

impl Embedder {
    /// Opens the model installed in `dir` ([`model_dir`]). Cheap: the weights are read while
    /// embedding, not here.
    pub fn open(dir: &Path) -> Result<Self> {
        let weights_path =
            installed_weights(dir).ok_or_else(|| Error::NotInstalled { dir: dir.to_owned() })?;
        let vocab_path = dir.join(SORTED_VOCAB_FILE);
        let vocab = std::fs::read_to_string(&vocab_path).map_err(|e| Error::io(&vocab_path, e))?;
        let tokenizer = Tokenizer::from_sorted(vocab)?;
        let weights = Weights::open(&weights_path)?;
        let bert = Bert::new(weights, tokenizer.len())?;
        Ok(Self { tokenizer, bert })
    }

    /// At most `threads` threads for a forward pass (at least one). [`Embedder::open`] takes as
    /// many as the process may run at once, up to four; fewer leave cores to other work.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.bert.set_threads(threads);
        self
    }

    /// The unit-length embedding of `text`, from at most `max_tokens` of its tokens.
    pub fn embed(&self, text: &str, max_tokens: usize) -> Result<Vec<f32>> {
        Ok(self.embed_all(&[text], max_tokens)?.pop().unwrap_or_default())
    }

    /// The embeddings of several texts at once, in order: much cheaper than one at a time, as
    /// every weight is read once for all of them.
    pub fn embed_all(&self, texts: &[&str], max_tokens: usize) -> Result<Vec<Vec<f32>>> {
        let sequences: Vec<Vec<u32>> =
            texts.iter().map(|t| self.tokenizer.encode(t, max_tokens.clamp(2, 512))).collect();
        self.bert.embed(&sequences)
    }

    /// Opens the model installed in `dir` and embeds `text` on a thread of its own, returning at
    /// once: a caller with other work (opening a store, searching it by words) does it meanwhile
    /// and collects the vector with [`Pending::wait`]. The opening (the vocabulary, the weights'
    /// header: about a millisecond and a half) is off the caller's thread too.
    pub fn embed_in_background(dir: PathBuf, text: String, max_tokens: usize) -> Pending {
        let thread = std::thread::Builder::new()
            .name("agent-memory-embed".to_owned())
            .spawn(move || Self::open(&dir)?.embed(&text, max_tokens));
        match thread {
            Ok(handle) => Pending(Ok(handle)),
            Err(e) => Pending(Err(Error::Model(format!("cannot start the embedding thread: {e}")))),
        }
    }
}

/// An embedding being computed ([`Embedder::embed_in_background`]).
#[derive(Debug)]
pub struct Pending(Result<std::thread::JoinHandle<Result<Vec<f32>>>>);

impl Pending {
    /// Waits for the vector.
    pub fn wait(self) -> Result<Vec<f32>> {
        self.0?.join().map_err(|_| Error::Model("the embedding thread panicked".to_owned()))?
    }
}

/// A store searching by this vector reads what needs no vector while it is made.
impl memory_core::PendingVector for Pending {
    fn ready(&self) -> bool {
        match &self.0 {
            Ok(thread) => thread.is_finished(),
            Err(_) => true,
        }
    }

    fn wait(self: Box<Self>) -> Option<Vec<f32>> {
        Pending::wait(*self).ok()
    }
}
