//! `agent-memory export DIR` and `agent-memory import DIR`: the memory as a folder of Markdown
//! files (`memory_tree`), and the reports of both as text or JSON.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use memory_core::MemoryStore;
use memory_tree::{ExportReport, ImportReport, Naming};
use serde_json::json;

/// Project folders named after the projects' readable names.
async fn naming(config: &memory_hook::Config, store: &dyn MemoryStore) -> anyhow::Result<Naming> {
    let registry = memory_hook::project::Registry::new(&config.data_dir());
    let catalog = memory_hook::project::Catalog::load_settled(&registry, store).await?;
    Ok(Naming::new(catalog.names()))
}

/// Exports every note to `dir` and reports what was written.
pub(crate) async fn export(
    config: &memory_hook::Config,
    store: &dyn MemoryStore,
    dir: &Path,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let naming = naming(config, store).await?;
    let report = memory_tree::export_tree_named(store, dir, &naming).await.map_err(command_error)?;
    if json {
        crate::output::json(&report)?;
    } else {
        crate::output::print(&export_text(&report));
    }
    Ok(ExitCode::SUCCESS)
}

/// Imports the tree at `dir`; exits 1 when some files were invalid (the others are imported).
pub(crate) async fn import(
    config: &memory_hook::Config,
    store: &dyn MemoryStore,
    dir: &Path,
    delete_missing: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let naming = naming(config, store).await?;
    let report = memory_tree::import_tree_redacted(store, dir, delete_missing, &naming, &config.redactor())
        .await
        .map_err(command_error)?;
    memory_hook::dream_run::embed(config, store, 0).await?;
    crate::store::refresh_replica(config, store).await?;
    if json {
        let mut value = serde_json::to_value(&report)?;
        value["counts"] = json!({
            "created": report.created.len(),
            "updated": report.updated.len(),
            "unchanged": report.unchanged.len(),
            "invalid": report.invalid.len(),
            "deleted": report.deleted.len(),
            "kept": report.kept.len(),
        });
        crate::output::json(&value)?;
    } else {
        crate::output::print(&import_text(&report, delete_missing));
    }
    Ok(if report.invalid.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A tree error, with the advice that names a command or a flag in their command-line spelling.
fn command_error(error: memory_tree::Error) -> anyhow::Error {
    match error {
        memory_tree::Error::Unimported { dir, files } => anyhow::format_err!(
            "{} has files changed or added since the last export, which exporting would overwrite: {}; \
             run `agent-memory import {}` first (or export into another folder)",
            dir.display(),
            files.join(", "),
            dir.display()
        ),
        memory_tree::Error::NoManifest { dir } => anyhow::format_err!(
            "--delete-missing needs the manifest of an export ({} in {}), which is missing",
            memory_tree::MANIFEST,
            dir.display()
        ),
        other => other.into(),
    }
}

fn export_text(report: &ExportReport) -> String {
    let mut out = format!("exported {} notes to {}\n", report.files.len(), report.dir);
    if !report.removed.is_empty() {
        let _ = writeln!(out, "removed {} files of notes that no longer exist", report.removed.len());
    }
    let _ = writeln!(out, "index: {}", report.index);
    let _ = write!(out, "edit any note, then run `agent-memory import {}`", report.dir);
    out
}

fn import_text(report: &ImportReport, delete_missing: bool) -> String {
    let mut out = format!(
        "imported {}: {} created, {} updated, {} unchanged, {} invalid",
        report.dir,
        report.created.len(),
        report.updated.len(),
        report.unchanged.len(),
        report.invalid.len()
    );
    if delete_missing {
        let _ = write!(out, ", {} deleted", report.deleted.len());
    }
    out.push('\n');
    for (label, files) in
        [("created", &report.created), ("updated", &report.updated), ("deleted", &report.deleted)]
    {
        for file in files {
            let _ = writeln!(out, "  {label:<8} {file}");
        }
    }
    for invalid in &report.invalid {
        let _ = writeln!(out, "  invalid  {}: {}", invalid.file, invalid.reason);
    }
    if !report.kept.is_empty() {
        if delete_missing {
            let _ = writeln!(
                out,
                "kept {} notes whose files were removed, because they changed in the store since the export:",
                report.kept.len()
            );
        } else {
            let _ = writeln!(
                out,
                "{} notes whose files were removed stay in the store; pass --delete-missing to delete them:",
                report.kept.len()
            );
        }
        for file in &report.kept {
            let _ = writeln!(out, "  kept     {file}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use memory_core::InMemoryStore;

    use super::*;

    #[tokio::test]
    async fn advice_names_the_command_and_the_flag() {
        let store = InMemoryStore::new();
        let dir = tempfile::tempdir().unwrap();
        let error =
            memory_tree::import_tree(&store, dir.path(), true).await.map_err(command_error).unwrap_err();
        assert!(error.to_string().starts_with("--delete-missing needs the manifest"), "{error}");

        memory_tree::export_tree(&store, dir.path()).await.unwrap();
        std::fs::create_dir_all(dir.path().join("user")).unwrap();
        std::fs::write(dir.path().join("user/new.md"), "mine").unwrap();
        let error = memory_tree::export_tree(&store, dir.path()).await.map_err(command_error).unwrap_err();
        let expected = format!("run `agent-memory import {}` first", dir.path().display());
        assert!(error.to_string().contains(&expected), "{error}");
    }
}
