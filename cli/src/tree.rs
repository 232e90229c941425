//! `agent-memory export DIR` and `agent-memory import DIR`: the memory as a folder of Markdown
//! files, one per note, that any editor (Obsidian included) can open, and reading hand edits back.
//!
//! Layout: `DIR/user/<path>`, `DIR/project/<project id>/<path>`, `DIR/session/<slugged key>/<path>`,
//! each file exactly as [`memory_core::Note::to_markdown`] renders it; `DIR/index.md` links every
//! note; `DIR/.agent-memory-export.json` records each file's SHA-256 so an import can tell which
//! files were edited by hand.

mod export;
mod import;
mod index;
mod layout;
mod manifest;

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use memory_core::MemoryStore;
use serde_json::json;

pub(crate) use export::{ExportReport, export_tree};
pub(crate) use import::{ImportReport, import_tree};

/// Exports every note to `dir` and reports what was written.
pub(crate) async fn export(store: &dyn MemoryStore, dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let report = export_tree(store, dir).await?;
    if json {
        crate::output::json(&report)?;
    } else {
        crate::output::print(&export_text(&report));
    }
    Ok(ExitCode::SUCCESS)
}

/// Imports the tree at `dir`; exits 1 when some files were invalid (the others are imported).
pub(crate) async fn import(
    store: &dyn MemoryStore,
    dir: &Path,
    delete_missing: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let report = import_tree(store, dir, delete_missing).await?;
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
mod tests;
