//! The layering ARCHITECTURE.md promises, checked against `cargo metadata`: which workspace crates
//! each library may depend on, and that `memory-core` pulls in no IO crate, directly or not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Crates that do IO (async runtimes, databases, HTTP, sockets): none may reach `memory-core`.
const IO_CRATES: &[&str] = &[
    "tokio",
    "mio",
    "rusqlite",
    "libsqlite3-sys",
    "neo4rs",
    "reqwest",
    "hyper",
    "socket2",
    "rustls",
    "rmcp",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--manifest-path"])
        .arg(workspace_root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The folder a workspace package lives in: ARCHITECTURE.md names crates by folder.
fn folder(package: &Value) -> String {
    let manifest = Path::new(package["manifest_path"].as_str().unwrap());
    manifest.parent().and_then(Path::file_name).unwrap().to_string_lossy().into_owned()
}

/// The table under "## Layering" in ARCHITECTURE.md: crate folder → the crate folders it may use.
fn allowed() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = text.split("\n## Layering").nth(1).expect("ARCHITECTURE.md has a Layering section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
            let [name, deps] = cells.as_slice() else { return None };
            let name = name.strip_prefix('`')?.strip_suffix('`')?;
            let deps = deps
                .split(',')
                .filter_map(|d| d.trim().strip_prefix('`')?.strip_suffix('`'))
                .map(str::to_owned);
            Some((name.to_owned(), deps.collect()))
        })
        .collect()
}

#[test]
fn libraries_depend_only_on_what_architecture_md_allows() {
    let meta = metadata();
    let members: BTreeSet<String> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let packages: Vec<&Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| members.contains(p["id"].as_str().unwrap()))
        .collect();
    let ours: BTreeMap<&str, String> =
        packages.iter().map(|p| (p["name"].as_str().unwrap(), folder(p))).collect();
    let allowed = allowed();
    let mut wrong = Vec::new();
    for package in &packages {
        let name = folder(package);
        let Some(may) = allowed.get(&name) else {
            wrong.push(format!("{name} is not in ARCHITECTURE.md's Layering table"));
            continue;
        };
        for dep in package["dependencies"].as_array().unwrap() {
            let Some(dep_folder) = ours.get(dep["name"].as_str().unwrap()) else { continue };
            let normal = dep["kind"].is_null() || dep["kind"] == "build";
            if normal && !may.contains(dep_folder) && !may.contains("*") {
                wrong.push(format!("{name} depends on {dep_folder}, which ARCHITECTURE.md does not allow"));
            }
        }
    }
    let folders: BTreeSet<&String> = ours.values().collect();
    for name in allowed.keys() {
        if !folders.contains(name) {
            wrong.push(format!("ARCHITECTURE.md lists {name}, which is not a workspace crate"));
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn memory_core_reaches_no_io_crate() {
    let meta = metadata();
    let nodes: BTreeMap<&str, &Value> =
        meta["resolve"]["nodes"].as_array().unwrap().iter().map(|n| (n["id"].as_str().unwrap(), n)).collect();
    let name_of: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let core =
        name_of.iter().find(|(_, n)| **n == "agent-memory-core").map(|(id, _)| *id).expect("memory-core");
    let mut seen = BTreeSet::new();
    let mut todo = vec![core];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null());
            if normal {
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    let reached: Vec<&str> = seen.iter().map(|id| name_of[id]).filter(|n| IO_CRATES.contains(n)).collect();
    assert!(reached.is_empty(), "memory-core reaches IO crates: {reached:?}");
    assert!(seen.len() > 5, "the walk found memory-core's dependencies ({} crates)", seen.len());
}
