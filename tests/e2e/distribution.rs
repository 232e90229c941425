//! The prebuilt distribution as a new user meets it: the Linux archive `scripts/release` packs from
//! this tree's binary, installed by `install.sh` from a local folder into a fresh home whose `PATH`
//! has no Rust toolchain, then the npm packages made from the same archive, installed offline.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use super::support;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The workspace version, as the release script reads it.
fn version() -> String {
    let out = Command::new(root().join("scripts/release")).arg("version").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The archive folder: this tree's binary packed once per test run. The test build's binary is
/// packed without its debug information (a tenth of its size), as the release build is.
fn dist() -> &'static Path {
    static DIST: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIST
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let binary = dir.path().join("agent-memory");
            let strip = Command::new("strip").arg("-o").arg(&binary).arg(support::binary()).output().unwrap();
            assert!(strip.status.success(), "strip: {}", String::from_utf8_lossy(&strip.stderr));
            let out = dir.path().join("dist");
            let run = Command::new(root().join("scripts/release"))
                .args(["archive", "--target", "x86_64-unknown-linux-gnu", "--binary"])
                .arg(&binary)
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            assert!(
                run.status.success(),
                "scripts/release archive: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            (dir, out)
        })
        .1
}

fn archive_name() -> String {
    format!("agent-memory-{}-x86_64-unknown-linux-gnu.tar.gz", version())
}

/// A user's machine with no Rust toolchain: a fresh home, and a `PATH` of the system folders plus
/// the folder the binary is installed into.
struct FreshHome {
    dir: tempfile::TempDir,
}

impl FreshHome {
    fn new() -> Self {
        let home = Self { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir_all(home.home()).unwrap();
        home
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn bin(&self) -> PathBuf {
        self.home().join(".local/bin")
    }

    fn path(&self) -> String {
        format!("{}:/usr/bin:/bin", self.bin().display())
    }

    /// A command with only this home's environment.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("HOME", self.home())
            .env("PATH", self.path())
            .env("TMPDIR", self.dir.path())
            // Offline as far as the embedding model goes: `install` must stand without it.
            .env("AGENT_MEMORY_MODEL_URL", crate::support::NO_MODEL_URL)
            .current_dir(self.home());
        cmd
    }

    fn install_sh(&self, from: &Path) -> Output {
        self.command("/bin/sh").arg(root().join("install.sh")).arg("--from").arg(from).output().unwrap()
    }

    /// `agent-memory ARGS`, found through `PATH` as a user's shell would.
    fn agent_memory(&self, args: &[&str]) -> Output {
        self.command("/bin/sh").arg("-c").arg("agent-memory \"$@\"").arg("sh").args(args).output().unwrap()
    }
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_archive_holds_the_binary_readme_and_licences_with_its_checksum_beside_it() {
    let archive = dist().join(archive_name());
    let sum = std::fs::read_to_string(archive.with_extension("gz.sha256")).unwrap();
    let listing = Command::new("tar").arg("-tzf").arg(&archive).output().unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    let folder = archive_name().trim_end_matches(".tar.gz").to_owned();
    let mut entries: Vec<&str> = listing.lines().filter(|l| !l.ends_with('/')).collect();
    entries.sort();
    assert_eq!(
        entries,
        ["LICENSE-APACHE", "LICENSE-MIT", "README.md", "agent-memory"]
            .iter()
            .map(|f| format!("{folder}/{f}"))
            .collect::<Vec<_>>()
    );
    let check = Command::new("sha256sum")
        .arg("--check")
        .arg(archive.with_extension("gz.sha256"))
        .current_dir(dist())
        .output()
        .unwrap();
    assert!(check.status.success(), "{sum}: {}", text(&check));
    assert!(sum.ends_with(&format!("  {}\n", archive_name())), "{sum}");
}

#[test]
fn install_sh_from_a_local_folder_gives_a_working_binary_without_a_rust_toolchain() {
    let user = FreshHome::new();
    let toolchain =
        user.command("/bin/sh").args(["-c", "command -v cargo || command -v rustc"]).output().unwrap();
    assert!(!toolchain.status.success(), "the fresh PATH has a Rust toolchain: {}", text(&toolchain));
    // The user has used Claude Code and Gemini CLI on this machine, nothing else.
    std::fs::create_dir_all(user.home().join(".claude")).unwrap();
    std::fs::create_dir_all(user.home().join(".gemini")).unwrap();

    let installed = user.install_sh(dist());
    let said = text(&installed);
    assert!(installed.status.success(), "{said}");
    let binary = user.bin().join("agent-memory");
    assert!(said.contains(&format!("installed agent-memory {}", version())), "{said}");
    assert!(said.contains(&format!("to {}", binary.display())), "{said}");
    assert!(said.contains("next: `agent-memory install`"), "{said}");

    let shown = user.agent_memory(&["--version"]);
    assert!(shown.status.success(), "{}", text(&shown));
    assert_eq!(String::from_utf8_lossy(&shown.stdout).trim(), format!("agent-memory {}", version()));

    let install = user.agent_memory(&["install"]);
    let said = text(&install);
    assert!(install.status.success(), "{said}");
    for found in [
        "Claude Code: ",
        "Gemini CLI: ",
        " events hooked in ",
        "left out: Codex, Cursor, Copilot CLI, Qwen Code",
        "Embedding model: not installed (cannot reach 127.0.0.1: offline?)",
        "`agent-memory model install` adds it",
    ] {
        assert!(said.contains(found), "`{found}` missing from:\n{said}");
    }
    let settings = std::fs::read_to_string(user.home().join(".claude/settings.json")).unwrap();
    assert!(settings.contains(&format!("\\\"{}\\\" hook claude", binary.display())), "{settings}");
    assert!(
        std::fs::read_to_string(user.home().join(".gemini/settings.json")).unwrap().contains("hook gemini")
    );
    assert!(!user.home().join(".codex").exists() && !user.home().join(".cursor").exists());

    let doctor = user.agent_memory(&["doctor"]);
    assert!(doctor.status.success(), "{}", text(&doctor));

    let demo = user.agent_memory(&["demo"]);
    let said = text(&demo);
    assert!(demo.status.success(), "{said}");
    assert!(said.contains("Codex was given on the prompt"), "{said}");
}

#[test]
fn a_project_scope_install_runs_the_binary_by_name_only_when_path_finds_it() {
    let user = FreshHome::new();
    assert!(user.install_sh(dist()).status.success());
    let project = user.home().join("team-project");
    std::fs::create_dir_all(project.join(".git")).unwrap();

    // Found through PATH: the committed file names the program, as on every teammate's machine.
    let by_name = user
        .command("/bin/sh")
        .args(["-c", "agent-memory install --scope project --harness claude,codex"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert!(by_name.status.success(), "{}", text(&by_name));
    let settings = std::fs::read_to_string(project.join(".claude/settings.json")).unwrap();
    assert!(settings.contains(r#""command": "\"agent-memory\" hook claude""#), "{settings}");
    let mcp = std::fs::read_to_string(project.join(".mcp.json")).unwrap();
    assert!(mcp.contains(r#""command": "agent-memory""#), "{mcp}");
    let doctor =
        user.command("/bin/sh").args(["-c", "agent-memory doctor"]).current_dir(&project).output().unwrap();
    assert!(doctor.status.success(), "{}", text(&doctor));

    // Run by its path while PATH does not lead to it: the file names the path, and says why.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(elsewhere.path().join(".git")).unwrap();
    let by_path = user
        .command(user.bin().join("agent-memory"))
        .args(["install", "--scope", "project", "--harness", "cursor"])
        .env("PATH", "/usr/bin:/bin")
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    let said = text(&by_path);
    assert!(by_path.status.success(), "{said}");
    assert!(said.contains("by its full path"), "{said}");
    let hooks = std::fs::read_to_string(elsewhere.path().join(".cursor/hooks.json")).unwrap();
    let expected = format!("\\\"{}\\\" hook cursor", user.bin().join("agent-memory").display());
    assert!(hooks.contains(&expected), "{hooks}");
}

#[test]
fn install_without_flags_on_a_machine_with_no_harness_names_what_it_looked_for() {
    let user = FreshHome::new();
    assert!(user.install_sh(dist()).status.success());
    let install = user.agent_memory(&["install"]);
    let said = text(&install);
    assert!(!install.status.success(), "{said}");
    assert!(said.contains("no harness found"), "{said}");
    assert!(said.contains(&format!("{}", user.home().join(".claude").display())), "{said}");
    assert!(said.contains("--harness"), "{said}");
}

/// A damaged copy of the archive folder: `damage` changes the archive's bytes, the `.sha256` stays.
fn damaged(damage: impl Fn(&mut Vec<u8>)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let name = archive_name();
    let mut bytes = std::fs::read(dist().join(&name)).unwrap();
    damage(&mut bytes);
    std::fs::write(dir.path().join(&name), bytes).unwrap();
    std::fs::copy(dist().join(format!("{name}.sha256")), dir.path().join(format!("{name}.sha256"))).unwrap();
    dir
}

#[test]
fn a_damaged_archive_is_refused_by_its_checksum_and_nothing_is_installed() {
    let flipped = damaged(|b| {
        let middle = b.len() / 2;
        b[middle] ^= 0x01;
    });
    let truncated = damaged(|b| b.truncate(b.len() - 1024));
    let appended = damaged(|b| b.extend_from_slice(b"#!/bin/sh\necho owned\n"));
    for (what, folder) in
        [("one flipped bit", &flipped), ("truncated", &truncated), ("bytes appended", &appended)]
    {
        let user = FreshHome::new();
        let out = user.install_sh(folder.path());
        let said = text(&out);
        assert!(!out.status.success(), "{what}: {said}");
        assert!(said.contains("not the published") && said.contains("nothing installed"), "{what}: {said}");
        assert!(!user.bin().exists(), "{what}: {} was created", user.bin().display());
    }

    // Over an existing install, the binary in place stays as it was.
    let user = FreshHome::new();
    assert!(user.install_sh(dist()).status.success());
    let before = std::fs::read(user.bin().join("agent-memory")).unwrap();
    let out = user.install_sh(flipped.path());
    assert!(!out.status.success(), "{}", text(&out));
    assert!(std::fs::read(user.bin().join("agent-memory")).unwrap() == before);
    let entries: Vec<_> = std::fs::read_dir(user.bin()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(entries, ["agent-memory"]);
}

#[test]
fn install_sh_installs_the_version_the_workspace_releases() {
    let script = std::fs::read_to_string(root().join("install.sh")).unwrap();
    assert!(
        script.contains(&format!("VERSION=\"${{AGENT_MEMORY_VERSION:-{}}}\"", version())),
        "install.sh's default version is not the workspace's {}",
        version()
    );
}

#[test]
fn the_npm_packages_install_offline_from_their_tarballs_and_run_the_binary() {
    let user = FreshHome::new();
    let work = user.dir.path();
    let made = Command::new(root().join("scripts/release"))
        .args(["npm", "--from"])
        .arg(dist())
        .arg("--out")
        .arg(work.join("npm"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made));
    let tarballs = work.join("tarballs");
    std::fs::create_dir_all(&tarballs).unwrap();
    let mut packed = Vec::new();
    for package in ["agent-memory", "agent-memory-linux-x64"] {
        let out = user
            .command("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(&tarballs)
            .current_dir(work.join("npm").join(package))
            .output()
            .unwrap();
        assert!(out.status.success(), "npm pack {package}: {}", text(&out));
        packed.push(tarballs.join(String::from_utf8_lossy(&out.stdout).trim()));
    }
    let app = work.join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(app.join("package.json"), r#"{"name":"app","version":"1.0.0","private":true}"#).unwrap();
    let installed = user
        .command("npm")
        .args(["install", "--offline", "--no-audit", "--no-fund"])
        .args(&packed)
        .current_dir(&app)
        .output()
        .unwrap();
    assert!(installed.status.success(), "npm install: {}", text(&installed));
    let platform_binary = app.join("node_modules/agent-memory-linux-x64/bin/agent-memory");
    assert!(platform_binary.is_file(), "{} missing", platform_binary.display());

    let shown = user
        .command("npx")
        .args(["--offline", "agent-memory", "--version"])
        .current_dir(&app)
        .output()
        .unwrap();
    assert!(shown.status.success(), "{}", text(&shown));
    assert_eq!(String::from_utf8_lossy(&shown.stdout).trim(), format!("agent-memory {}", version()));
    let demo =
        user.command("npx").args(["--offline", "agent-memory", "demo"]).current_dir(&app).output().unwrap();
    assert!(demo.status.success(), "{}", text(&demo));
    assert!(
        String::from_utf8_lossy(&demo.stdout).contains("Codex was given on the prompt"),
        "{}",
        text(&demo)
    );
    // The binary's exit status comes through the shim.
    let failed = user
        .command("npx")
        .args(["--offline", "agent-memory", "no-such-command"])
        .current_dir(&app)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(2), "{}", text(&failed));
}

/// The workspace's packages from `cargo metadata`: name, whether it is published, its
/// `[package.metadata]`.
fn packages() -> Vec<(String, bool, serde_json::Value)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo metadata: {}", text(&out));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["publish"] != serde_json::json!([]),
                p["metadata"].clone(),
            )
        })
        .collect()
}

/// One `## ` section of the README, without its heading.
fn readme_section(heading: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find(&format!("\n## {heading}\n")).unwrap_or_else(|| panic!("no ## {heading}"));
    let rest = &readme[start + heading.len() + 5..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_owned()
}

/// The commands of a section's code blocks, block by block, comments and blank lines left out.
fn commands(section: &str) -> Vec<Vec<String>> {
    section
        .split("```")
        .skip(1)
        .step_by(2)
        .map(|block| {
            block
                .lines()
                .skip(1)
                .map(|l| l.split(" # ").next().unwrap().trim().to_owned())
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect()
        })
        .collect()
}

#[test]
fn every_published_crate_is_named_agent_memory_and_the_readme_installs_it_three_ways() {
    let packages = packages();
    let published: Vec<&str> = packages.iter().filter(|(_, p, _)| *p).map(|(n, _, _)| n.as_str()).collect();
    assert!(published.contains(&"agent-memory-cli") && published.len() >= 15, "{published:?}");
    for name in &published {
        assert!(
            name.starts_with("agent-memory-"),
            "the published crate {name} lacks the agent-memory- prefix"
        );
    }

    // Set up: the same two commands, the first naming the binary's package as the workspace does.
    assert_eq!(
        commands(&readme_section("Set up")),
        [vec!["cargo run --release -p agent-memory-cli -- demo".to_owned()], vec!["scripts/test".to_owned()]]
    );

    // Install: the script, npm and cargo, each naming what this tree publishes.
    let install = commands(&readme_section("Install")).concat();
    let script = "https://github.com/agent-memory/agent-memory/releases/latest/download/install.sh | sh";
    assert!(install.iter().any(|c| c.starts_with("curl ") && c.ends_with(script)), "{install:?}");
    assert!(install.contains(&"npx agent-memory install".to_owned()), "{install:?}");
    assert!(install.contains(&"cargo binstall agent-memory-cli".to_owned()), "{install:?}");
    let npm = std::fs::read_to_string(root().join("npm/agent-memory/bin/agent-memory.js")).unwrap();
    assert!(npm.contains("agent-memory-${process.platform}-${process.arch}"));
    // cargo-binstall's template, filled in for this platform, names the archive and the binary in it.
    let (_, _, cli) = packages.iter().find(|(n, _, _)| n == "agent-memory-cli").unwrap();
    let binstall = &cli["binstall"];
    let fill = |template: &str| {
        template
            .replace("{ repo }", "https://github.com/agent-memory/agent-memory")
            .replace("{ version }", &version())
            .replace("{ target }", "x86_64-unknown-linux-gnu")
            .replace("{ archive-suffix }", ".tar.gz")
            .replace("{ bin }", "agent-memory")
            .replace("{ binary-ext }", "")
    };
    assert_eq!(binstall["pkg-fmt"].as_str(), Some("tgz"));
    assert_eq!(
        fill(binstall["pkg-url"].as_str().unwrap()),
        format!(
            "https://github.com/agent-memory/agent-memory/releases/download/v{}/{}",
            version(),
            archive_name()
        )
    );
    let listing = Command::new("tar").arg("-tzf").arg(dist().join(archive_name())).output().unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    let bin = fill(binstall["bin-dir"].as_str().unwrap());
    assert!(listing.lines().any(|l| l == bin), "{bin} is not in the archive:\n{listing}");
}
