//! `notes add` and `notes edit`: memory written by hand, with a default for every frontmatter
//! field (the scope is this folder's project, else `user`; the path comes from the kind and the
//! title; `updated` is now; `generator` is `user`), checked and redacted like every other writer's
//! notes.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use chrono::Utc;
use memory_core::{GENERATOR_USER, MemoryStore, Note, NoteKind, NoteMeta, NotePath, Scope};
use memory_hook::Config;
use serde_json::json;

use super::projects::Scopes;
use crate::output::{json as print_json, print};

/// Arguments of `notes add`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct AddArgs {
    /// A short one-line title ("Deploy to staging").
    title: String,
    /// Where it applies: `user` (everywhere), `project` (this folder's, the default inside a
    /// known project), `project:<name or id>`, `session:<key>`.
    #[arg(long)]
    scope: Option<String>,
    /// Where to file it (default: a folder for its kind and the title as a slug, such as
    /// `procedures/deploy-to-staging.md`).
    #[arg(long)]
    path: Option<NotePath>,
    /// profile, preference, convention, tool, procedure or fact.
    #[arg(long, default_value = "fact")]
    kind: String,
    /// A tag (a lowercase slug); repeatable.
    #[arg(long = "tag")]
    tags: Vec<String>,
    /// One line saying when the note is useful.
    #[arg(long)]
    description: Option<String>,
    /// The Markdown body (else stdin when it is not a terminal, else $EDITOR).
    #[arg(long)]
    body: Option<String>,
}

fn kind(text: &str) -> anyhow::Result<NoteKind> {
    serde_json::from_value(json!(text.trim().to_ascii_lowercase())).map_err(|_| {
        anyhow::anyhow!("kind `{text}` is not one of profile, preference, convention, tool, procedure, fact")
    })
}

/// `notes add`.
pub(crate) async fn add(
    json: bool,
    args: &AddArgs,
    store: &dyn MemoryStore,
    scopes: &Scopes,
) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let scope = match &args.scope {
        Some(text) => scopes.scope(text)?,
        None => scopes.scope("project").unwrap_or(Scope::User),
    };
    let kind = kind(&args.kind)?;
    let path = args.path.clone().unwrap_or_else(|| NotePath::for_title(kind, &args.title));
    // A project's notes are in its folder, whoever writes them.
    let path = scopes.note_path(&scope, &path);
    if store.get_note(&scope, &path).await?.is_some() {
        anyhow::bail!(
            "a note already exists at {} {path}; `agent-memory notes edit {} {path}` changes it, or pass --path",
            scopes.label(&scope),
            scopes.label(&scope)
        );
    }
    let mut note = Note {
        path: path.clone(),
        meta: NoteMeta {
            title: args.title.trim().to_owned(),
            description: args.description.as_ref().map(|d| d.trim().to_owned()).filter(|d| !d.is_empty()),
            tags: args.tags.clone(),
            scope: scope.clone(),
            kind,
            sources: Vec::new(),
            updated: Utc::now(),
            generator: GENERATOR_USER.to_owned(),
            owner: None,
        },
        body: String::new(),
    };
    note.body = match &args.body {
        Some(body) => body.clone(),
        None if !std::io::IsTerminal::is_terminal(&std::io::stdin()) => {
            let mut body = String::new();
            std::io::stdin().read_to_string(&mut body)?;
            body
        }
        None => {
            let naming = scopes.naming();
            let edited = in_editor(&naming.markdown(&note), &path)?;
            let defaults = memory_hook::notes::defaults(&note);
            let mut parsed = Note::from_markdown_or(path.clone(), &edited.text, &defaults)?;
            parsed.meta.scope = naming.resolve(parsed.meta.scope);
            if parsed.meta.scope != scope {
                anyhow::bail!("the scope is chosen with --scope, not in the editor");
            }
            edited.done();
            note.meta = NoteMeta { updated: Utc::now(), generator: GENERATOR_USER.to_owned(), ..parsed.meta };
            parsed.body
        }
    };
    if !note.body.is_empty() && !note.body.ends_with('\n') {
        note.body.push('\n');
    }
    save(json, &config, store, scopes, note, true).await
}

/// `notes edit`.
pub(crate) async fn edit(
    json: bool,
    scope: &Scope,
    path: &NotePath,
    store: &dyn MemoryStore,
    scopes: &Scopes,
) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let Some(current) = store.get_note(scope, path).await? else {
        anyhow::bail!(
            "no note `{path}` in scope `{}`; `agent-memory notes add` writes a new one",
            scopes.label(scope)
        );
    };
    let naming = scopes.naming();
    let before = naming.markdown(&current);
    let edited = in_editor(&before, path)?;
    if edited.text == before {
        edited.done();
        print("no change");
        return Ok(ExitCode::SUCCESS);
    }
    let note = memory_hook::notes::edited(&current, &edited.text, &naming)
        .map_err(|e| anyhow::anyhow!("{e}; your edit is kept in {}", edited.path.display()))?;
    edited.done();
    save(json, &config, store, scopes, note, false).await
}

/// Stores a note written by hand ([`memory_hook::notes::save`]) and says so.
async fn save(
    json: bool,
    config: &Config,
    store: &dyn MemoryStore,
    scopes: &Scopes,
    note: Note,
    created: bool,
) -> anyhow::Result<ExitCode> {
    let note = memory_hook::notes::save(config, store, note).await?;
    if json {
        print_json(&json!({ "created": created, "note": scopes.naming().note(&note) }))?;
    } else if created {
        print(&format!("added {} {} ({})", scopes.label(&note.meta.scope), note.path, note.meta.title));
    } else {
        print(&format!(
            "updated {} {} (the previous version is kept: `notes show --history`)",
            scopes.label(&note.meta.scope),
            note.path
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the editor left in its file.
struct Edited {
    text: String,
    path: PathBuf,
}

impl Edited {
    /// The edit is used: its file goes.
    fn done(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Opens `$VISUAL`, else `$EDITOR`, else `vi` on a private temporary file holding `text`, and
/// reads it back once the editor exits.
fn in_editor(text: &str, path: &NotePath) -> anyhow::Result<Edited> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_owned());
    let file = private_temp(&format!("agent-memory-{}-{}.md", std::process::id(), path.stem()))?;
    std::fs::write(&file, text)?;
    // Through the shell, so `EDITOR="code --wait"` works as it does for git.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&file)
        .status()
        .map_err(|e| anyhow::anyhow!("cannot start the editor `{editor}`: {e}"))?;
    if !status.success() {
        let _ = std::fs::remove_file(&file);
        anyhow::bail!("the editor `{editor}` exited with {status}; nothing was saved");
    }
    let text = std::fs::read_to_string(&file)?;
    Ok(Edited { text, path: file })
}

fn private_temp(name: &str) -> anyhow::Result<PathBuf> {
    let path = std::env::temp_dir().join(name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(&path).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", Path::new(&path).display()))?;
    Ok(path)
}
