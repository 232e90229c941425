//! Installer tests over real files in a temporary home and project folder (never the real HOME):
//! snapshots of the written configurations, the install/uninstall round trip as a property, and
//! symlinks, unparsable files, permissions and failing writes.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tempfile::TempDir;

use super::codex::Version;
use super::entries;
use super::json::Json;
use super::plan::{self, Action, Context, Harness, Plan, Scope, Status};
use super::{doctor, file};

/// The binary path written into snapshots (it does not need to exist to plan and write).
const BIN: &str = "/opt/agent memory/bin/agent-memory";

struct Sandbox {
    dir: TempDir,
    ctx: Context,
}

impl Sandbox {
    fn new() -> Self {
        Self::with_binary(PathBuf::from(BIN))
    }

    fn with_binary(binary: PathBuf) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let project = dir.path().join("work").join("proj");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let ctx = Context {
            codex_home: home.join(".codex"),
            copilot_home: home.join(".copilot"),
            opencode_home: home.join(".config").join("opencode"),
            home,
            project: Some(project),
            binary,
            on_path: false,
            codex_version: Some(Version(0, 171, 0)),
            mcp: true,
        };
        Self { dir, ctx }
    }

    fn path(&self, harness: Harness, scope: Scope) -> PathBuf {
        self.ctx.hooks_file(harness, scope).unwrap()
    }

    fn put(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn run(&self, harnesses: &[Harness], scope: Scope, action: Action) -> anyhow::Result<Plan> {
        let mut plan = plan::plan(&self.ctx, harnesses, scope, action)?;
        plan::apply(&mut plan)?;
        Ok(plan)
    }

    fn read(&self, path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    /// A path relative to the sandbox, for snapshots.
    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(self.dir.path()).unwrap().display().to_string()
    }
}

/// The harnesses whose hooks live in a JSON document (all but OpenCode's plugin and Cline's hook
/// files, which have tests of their own below).
const JSON_HOOKS: [Harness; 7] = [
    Harness::Claude,
    Harness::Codex,
    Harness::Cursor,
    Harness::Gemini,
    Harness::Copilot,
    Harness::Qwen,
    Harness::Droid,
];

fn harness_of(name: &str) -> Harness {
    match name {
        "claude" => Harness::Claude,
        "codex" => Harness::Codex,
        "cursor" => Harness::Cursor,
        "gemini" => Harness::Gemini,
        "copilot" => Harness::Copilot,
        "qwen" => Harness::Qwen,
        "droid" => Harness::Droid,
        other => panic!("no harness {other}"),
    }
}

#[test]
fn fresh_install_writes_every_event_for_each_harness_and_scope() {
    for harness in JSON_HOOKS {
        for scope in [Scope::User, Scope::Project] {
            let sandbox = Sandbox::new();
            let plan = sandbox.run(&[harness], scope, Action::Install).unwrap();
            assert_eq!(plan.files[0].status, Status::Create);
            let path = sandbox.path(harness, scope);
            let text = sandbox.read(&path);
            assert_eq!(plan.files[0].changes.len(), harness.spec().events().len());
            assert!(!file::backup_path(&path).exists(), "no backup for a file that did not exist");
            let name = format!("fresh_{}_{:?}", harness.name(), scope).to_lowercase();
            insta::assert_snapshot!(name, format!("{}\n\n{text}", sandbox.shown(&path)));
        }
    }
}

#[test]
fn install_over_existing_configs_keeps_everything_foreign() {
    insta::glob!("fixtures/*/*.json", |fixture| {
        let harness = harness_of(fixture.parent().unwrap().file_name().unwrap().to_str().unwrap());
        let original = std::fs::read_to_string(fixture).unwrap();
        for scope in [Scope::User, Scope::Project] {
            let sandbox = Sandbox::new();
            let path = sandbox.path(harness, scope);
            sandbox.put(&path, &original);
            let plan = sandbox.run(&[harness], scope, Action::Install).unwrap();
            let installed = sandbox.read(&path);
            assert_eq!(sandbox.read(&file::backup_path(&path)), original, "the backup holds the old bytes");
            let changes: Vec<String> = plan.files[0].changes.iter().map(ToString::to_string).collect();
            insta::assert_snapshot!(
                format!("install_{:?}", scope).to_lowercase(),
                format!("{}\n{}\n\n{installed}", sandbox.shown(&path), changes.join("\n"))
            );
            // A second install changes nothing, not even the file's bytes or the backup.
            std::fs::write(file::backup_path(&path), "old backup").unwrap();
            let again = sandbox.run(&[harness], scope, Action::Install).unwrap();
            assert_eq!(again.files[0].status, Status::Unchanged);
            assert!(again.files[0].changes.is_empty());
            assert_eq!(sandbox.read(&path), installed);
            assert_eq!(sandbox.read(&file::backup_path(&path)), "old backup");
        }
    });
}

#[test]
fn uninstall_removes_ours_and_only_ours() {
    insta::glob!("fixtures/*/*.json", |fixture| {
        let harness = harness_of(fixture.parent().unwrap().file_name().unwrap().to_str().unwrap());
        let sandbox = Sandbox::new();
        let path = sandbox.path(harness, Scope::User);
        sandbox.put(&path, &std::fs::read_to_string(fixture).unwrap());
        sandbox.run(&[harness], Scope::User, Action::Install).unwrap();
        sandbox.run(&[harness], Scope::User, Action::Uninstall).unwrap();
        let left = sandbox.read(&path);
        let doc = Json::parse(&left).unwrap();
        let found = super::merge::find(&doc, harness.spec(), &sandbox.ctx.binary).unwrap();
        assert!(found.is_empty(), "left behind: {found:?}");
        insta::assert_snapshot!(left);
    });
}

#[test]
fn uninstall_of_a_missing_file_creates_nothing() {
    let sandbox = Sandbox::new();
    let plan = sandbox.run(&Harness::ALL, Scope::User, Action::Uninstall).unwrap();
    assert!(plan.files.iter().all(|f| f.status == Status::Absent));
    for harness in Harness::ALL {
        assert!(!sandbox.path(harness, Scope::User).exists());
    }
}

#[test]
fn install_then_uninstall_deletes_the_files_install_created_and_restores_the_others() {
    for scope in [Scope::User, Scope::Project] {
        let mut sandbox = Sandbox::new();
        // One file of the user's, formatted their way, beside files install creates.
        let claude = sandbox.path(Harness::Claude, scope);
        let theirs = "{ \"model\": \"opus\",\n\t\"hooks\": {} }";
        sandbox.put(&claude, theirs);
        sandbox.run(&Harness::ALL, scope, Action::Install).unwrap();
        assert!(file::backup_path(&claude).exists());
        // Installed again from elsewhere: the backup still holds the file from before the first.
        sandbox.ctx.binary = PathBuf::from("/usr/local/bin/agent-memory");
        let again = sandbox.run(&Harness::ALL, scope, Action::Install).unwrap();
        assert!(again.files.iter().any(|f| f.path == claude && f.status == Status::Update));
        assert_eq!(sandbox.read(&file::backup_path(&claude)), theirs);
        let plan = sandbox.run(&Harness::ALL, scope, Action::Uninstall).unwrap();
        assert_eq!(sandbox.read(&claude), theirs, "restored byte for byte");
        assert!(plan.files.iter().any(|f| f.restored));
        let mut left = Vec::new();
        for entry in walkdir(sandbox.dir.path()) {
            if entry.is_file() {
                left.push(sandbox.shown(&entry));
            }
        }
        let claude_shown = sandbox.shown(&claude);
        assert_eq!(left, [claude_shown], "{scope:?}: only the user's own file is left");
        let text = super::report::render(&plan, false);
        assert!(text.contains("restored byte for byte"), "{text}");
        assert!(text.contains("deleted: agent-memory had created it"), "{text}");
    }
}

/// Every path under `dir`, depth first, sorted.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        out.push(path.clone());
        if path.is_dir() && !path.is_symlink() {
            out.extend(walkdir(&path));
        }
    }
    out
}

#[test]
fn a_symlinked_config_is_written_through_and_the_link_kept() {
    let sandbox = Sandbox::new();
    let dotfiles = sandbox.dir.path().join("dotfiles");
    let real = dotfiles.join("claude-settings.json");
    sandbox.put(&real, "{\n  \"model\": \"opus\"\n}\n");
    let link = sandbox.path(Harness::Claude, Scope::User);
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("../../dotfiles/claude-settings.json", &link).unwrap();
    let plan = sandbox.run(&[Harness::Claude], Scope::User, Action::Install).unwrap();
    assert_eq!(
        plan.files[0].symlink_target.as_deref(),
        Some(link.parent().unwrap().join("../../dotfiles/claude-settings.json").as_path())
    );
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
    let written = sandbox.read(&real);
    assert!(written.starts_with("{\n  \"model\": \"opus\",\n  \"hooks\": {"), "{written}");
    assert!(written.contains("hook claude"));
    assert!(file::backup_path(&link.parent().unwrap().join("../../dotfiles/claude-settings.json")).exists());
    assert!(!file::backup_path(&link).exists(), "the backup sits next to the real file");
}

#[test]
fn an_unparsable_file_is_refused_with_its_name_and_line_and_nothing_changes() {
    let sandbox = Sandbox::new();
    let claude = sandbox.path(Harness::Claude, Scope::User);
    let broken = "{\n  \"model\": \"opus\",\n  \"hooks\": {,}\n}\n";
    sandbox.put(&claude, broken);
    let err = plan::plan(&sandbox.ctx, &Harness::ALL, Scope::User, Action::Install).unwrap_err().to_string();
    assert!(err.contains(&claude.display().to_string()), "{err}");
    assert!(err.contains("line 3 column"), "{err}");
    assert!(err.contains("nothing was changed"), "{err}");
    assert_eq!(sandbox.read(&claude), broken);
    assert!(!file::backup_path(&claude).exists());
    assert!(!sandbox.path(Harness::Codex, Scope::User).exists(), "no other harness was written either");
    assert!(!sandbox.path(Harness::Cursor, Scope::User).exists());
}

#[test]
fn a_file_of_the_wrong_shape_is_refused() {
    let sandbox = Sandbox::new();
    let cursor = sandbox.path(Harness::Cursor, Scope::User);
    for (text, expected) in [
        ("[]\n", "the top level is an array"),
        ("{\"hooks\": []}\n", "`hooks` is an array"),
        ("{\"hooks\": {\"stop\": {\"command\": \"x\"}}}\n", "`hooks.stop` is an object"),
    ] {
        sandbox.put(&cursor, text);
        let err = plan::plan(&sandbox.ctx, &[Harness::Cursor], Scope::User, Action::Install).unwrap_err();
        assert!(err.to_string().contains(expected), "{err}");
        assert_eq!(sandbox.read(&cursor), text);
    }
}

#[test]
fn the_file_mode_is_kept_and_a_read_only_file_is_refused() {
    use std::os::unix::fs::PermissionsExt as _;
    let sandbox = Sandbox::new();
    let path = sandbox.path(Harness::Codex, Scope::User);
    sandbox.put(&path, "{}\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    sandbox.run(&[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::metadata(file::backup_path(&path)).unwrap().permissions().mode() & 0o777, 0o600);

    let installed = sandbox.read(&path);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = plan::plan(&sandbox.ctx, &[Harness::Codex], Scope::User, Action::Uninstall).unwrap_err();
    assert!(err.to_string().contains("is read-only (mode 444)"), "{err}");
    assert_eq!(sandbox.read(&path), installed);
    // Reading a read-only file that needs no change is fine.
    let plan = plan::plan(&sandbox.ctx, &[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(plan.files[0].status, Status::Unchanged);
}

#[test]
fn a_failed_write_leaves_the_original_intact() {
    let sandbox = Sandbox::new();
    let path = sandbox.path(Harness::Claude, Scope::Project);
    let original = "{\n  \"model\": \"opus\"\n}\n";
    sandbox.put(&path, original);
    // The backup cannot be written: its path is a folder that is not empty.
    let blocker = file::backup_path(&path);
    std::fs::create_dir_all(blocker.join("keep")).unwrap();
    let err = sandbox.run(&[Harness::Claude], Scope::Project, Action::Install).unwrap_err();
    assert!(format!("{err:#}").contains("cannot back up"), "{err:#}");
    assert_eq!(sandbox.read(&path), original);
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    // The config path itself is a folder: the rename fails and nothing else is touched.
    std::fs::remove_dir_all(&blocker).unwrap();
    let cursor = sandbox.path(Harness::Cursor, Scope::Project);
    std::fs::create_dir_all(cursor.parent().unwrap()).unwrap();
    sandbox.put(&cursor.parent().unwrap().join("unrelated.txt"), "x");
    let current = file::Current { target: cursor.parent().unwrap().to_path_buf(), text: None, mode: None };
    assert!(file::replace(&current, "{}\n").is_err());
    assert_eq!(sandbox.read(&cursor.parent().unwrap().join("unrelated.txt")), "x");
}

#[test]
fn dry_run_writes_nothing_and_shows_a_diff() {
    let sandbox = Sandbox::new();
    let path = sandbox.path(Harness::Cursor, Scope::User);
    sandbox.put(&path, "{\n  \"version\": 1\n}\n");
    let mut plan = plan::plan(&sandbox.ctx, &Harness::ALL, Scope::User, Action::Install).unwrap();
    plan.dry_run = true;
    let text = super::report::render(&plan, false);
    assert!(text.contains("would update"), "{text}");
    assert!(text.contains("would create"), "{text}");
    assert!(text.contains("+    \"sessionStart\": ["), "{text}");
    assert!(text.contains("codex-cli 0.171.0 runs hooks by default"), "{text}");
    assert!(text.contains("--dangerously-bypass-hook-trust"), "{text}");
    assert!(text.contains("installing both is safe"), "{text}");
    assert_eq!(sandbox.read(&path), "{\n  \"version\": 1\n}\n");
    assert!(!sandbox.path(Harness::Claude, Scope::User).exists());
    assert!(!sandbox.path(Harness::Codex, Scope::User).exists());
}

#[test]
fn project_scope_needs_a_project() {
    let mut sandbox = Sandbox::new();
    sandbox.ctx.project = None;
    let err = plan::plan(&sandbox.ctx, &[Harness::Claude], Scope::Project, Action::Install).unwrap_err();
    assert!(err.to_string().contains("--project DIR"), "{err}");
}

#[test]
fn codex_feature_flag_follows_the_installed_version() {
    // The MCP server lives in the same file; it is checked on its own below.
    let mut sandbox = Sandbox::new();
    sandbox.ctx.mcp = false;
    let config = sandbox.ctx.codex_config(Scope::User).unwrap();
    let original = "# my settings\nmodel = \"o4\"   # keep this comment\n\n[features]\nweb_search = true\n";
    sandbox.put(&config, original);

    // A current Codex needs nothing.
    sandbox.run(&[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(sandbox.read(&config), original);

    // 0.120 needs `codex_hooks = true`; the rest of the file keeps its formatting.
    let mut old = Sandbox::new();
    old.ctx.mcp = false;
    old.ctx.codex_version = Some(Version(0, 120, 3));
    let config = old.ctx.codex_config(Scope::User).unwrap();
    old.put(&config, original);
    let plan = old.run(&[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(sandbox_text(&old, &config), format!("{original}codex_hooks = true\n"));
    assert_eq!(plan.files.len(), 2);
    assert_eq!(old.read(&file::backup_path(&config)), original);
    // Installing again changes nothing.
    let again = old.run(&[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(again.files.len(), 1);

    // An explicit `hooks = false` is the user's choice: reported, not overridden.
    old.put(&config, "[features]\nhooks = false\n");
    let plan = old.run(&[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(old.read(&config), "[features]\nhooks = false\n");
    assert!(
        plan.notes.iter().any(|n| n.problem && n.text.contains("hooks are turned off")),
        "{:?}",
        plan.notes
    );

    // A config.toml that does not parse is never written.
    old.put(&config, "[features\ncodex_hooks = \n");
    let plan = old.run(&[Harness::Codex], Scope::User, Action::Install).unwrap();
    assert_eq!(old.read(&config), "[features\ncodex_hooks = \n");
    assert!(plan.notes.iter().any(|n| n.problem && n.text.contains("cannot parse")), "{:?}", plan.notes);
}

fn sandbox_text(sandbox: &Sandbox, path: &Path) -> String {
    sandbox.read(path)
}

#[test]
fn our_command_is_recognised_and_others_are_not() {
    let binary = Path::new("/weird $dir/\"q\"/a`b`\\c/agent-memory");
    let command = entries::command_for(binary, "codex");
    assert_eq!(entries::ours(&command, "codex", Path::new("/x")).as_deref(), Some(binary));
    assert!(entries::ours(&command, "claude", Path::new("/x")).is_none());
    for (command, harness, ours) in [
        ("agent-memory hook claude", "claude", true),
        ("/usr/local/bin/agent-memory hook claude", "claude", true),
        ("'/opt/my tools/agent-memory' hook cursor", "cursor", true),
        ("\"/opt/bin/agent-memory-dev\" hook codex", "codex", true),
        ("agent-memory hook claude --verbose", "claude", false),
        ("agent-memory hook claude && rm -rf /", "claude", false),
        ("my-agent-memory hook claude", "claude", false),
        ("agent-memory dream", "claude", false),
        ("$HOME/bin/agent-memory hook claude", "claude", false),
        ("\"/opt/bin/agent-memory hook claude", "claude", false),
    ] {
        assert_eq!(entries::ours(command, harness, Path::new("/x")).is_some(), ours, "{command}");
    }
    // Any path counts when it is the binary being installed.
    assert!(entries::ours("/usr/bin/am hook claude", "claude", Path::new("/usr/bin/am")).is_some());
}

#[test]
fn json_keeps_key_order_and_duplicates() {
    let text = "{\n  \"z\": 1,\n  \"a\": [\n    true,\n    null,\n    0.5\n  ],\n  \"z\": \"é\\n\\u0001\",\n  \"m\": {}\n}\n";
    let doc = Json::parse(text).unwrap();
    assert_eq!(doc.to_pretty(), text);
    assert_eq!(doc.get("z"), Some(&Json::string("é\n\u{1}")));
    let err = Json::parse("{\n  \"a\": 1,\n}").unwrap_err();
    assert_eq!((err.line, err.column), (3, 1), "{err}");
}

#[tokio::test]
async fn doctor_reports_and_fixes_drift() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("bin").join("agent-memory");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::write(&binary, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let sandbox = Sandbox::with_binary(binary.clone());
    sandbox.run(&[Harness::Claude, Harness::Codex], Scope::User, Action::Install).unwrap();
    // Codex's file drifts: one event goes, one points at an old binary.
    let codex = sandbox.path(Harness::Codex, Scope::User);
    let text = sandbox.read(&codex).replace(&binary.display().to_string(), "/gone/agent-memory");
    sandbox.put(&codex, &text);
    let mut doc = Json::parse(&text).unwrap();
    if let Some(Json::Object(events)) = doc.get_mut("hooks") {
        events.retain(|(k, _)| k != "Stop");
    }
    sandbox.put(&codex, &doc.to_pretty());
    let log_dir = dir.path().join("data").join("logs");
    std::fs::create_dir_all(&log_dir).unwrap();
    std::fs::write(
        log_dir.join("hook.log"),
        "2026-11-30T10:00:00.000Z hook claude SessionStart claude:s1 e1 stored 900us\n\
         2026-11-30T10:00:01.000Z hook codex error: payload is not JSON 120us\n\
         2026-11-30T10:00:02.000Z hook claude Stop claude:s1 e2 stored 800us\n",
    )
    .unwrap();
    let config =
        || memory_hook::config::Config { data_dir: Some(dir.path().join("data")), ..Default::default() };

    let report = doctor::check(&sandbox.ctx, &Harness::ALL, false, Ok(config())).await;
    let state = |r: &doctor::Report, h: Harness, s: Scope| {
        r.files.iter().find(|f| f.harness == h && f.scope == s).map(|f| f.state)
    };
    assert_eq!(state(&report, Harness::Claude, Scope::User), Some(doctor::State::Installed));
    assert_eq!(state(&report, Harness::Codex, Scope::User), Some(doctor::State::Drifted));
    assert_eq!(state(&report, Harness::Cursor, Scope::User), Some(doctor::State::Absent));
    assert_eq!(state(&report, Harness::Claude, Scope::Project), Some(doctor::State::Absent));
    let codex_details = &report.files.iter().find(|f| f.harness == Harness::Codex).unwrap().details;
    assert!(codex_details.iter().any(|d| d == "Stop: missing"), "{codex_details:?}");
    assert!(
        codex_details.iter().any(|d| d.contains("runs /gone/agent-memory instead of")),
        "{codex_details:?}"
    );
    assert!(codex_details.iter().any(|d| d == "/gone/agent-memory is missing"), "{codex_details:?}");
    assert!(report.store.reachable, "{:?}", report.store);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    let last: Vec<(&str, &str)> =
        report.last_hooks.iter().map(|h| (h.harness.as_str(), h.summary.as_str())).collect();
    assert_eq!(last, [("claude", "Stop claude:s1 e2 stored"), ("codex", "error: payload is not JSON")]);
    assert!(report.warnings.iter().any(|w| w.contains("last Codex hook run")), "{:?}", report.warnings);
    let text = doctor::render(&report);
    assert!(text.contains("drifted"), "{text}");

    let fixed = doctor::check(&sandbox.ctx, &Harness::ALL, true, Ok(config())).await;
    assert_eq!(state(&fixed, Harness::Codex, Scope::User), Some(doctor::State::Installed));
    assert!(fixed.files.iter().any(|f| f.fixed));
    assert!(fixed.problems.is_empty(), "{:?}", fixed.problems);

    // A missing binary and a configuration that does not load are problems.
    let mut broken = sandbox.ctx.clone();
    broken.binary = dir.path().join("nowhere").join("agent-memory");
    let report =
        doctor::check(&broken, &[Harness::Claude], false, Err(anyhow::format_err!("bad config"))).await;
    assert_eq!(report.binary_state, doctor::BinaryState::Missing);
    assert!(!report.store.reachable);
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.starts_with("bad config; until it is fixed, hooks run with the default")),
        "{:?}",
        report.problems
    );
}

/// A JSON value a user might keep in a config file (no keys or events of ours).
fn value(depth: u32) -> BoxedStrategy<Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(|n| Json::Number(n.into())),
        (-1000i32..1000)
            .prop_map(|n| Json::Number(serde_json::Number::from_f64(f64::from(n) / 8.0).unwrap())),
        "\\PC{0,12}".prop_map(Json::String),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        3 => leaf,
        1 => prop::collection::vec(value(depth - 1), 0..3).prop_map(Json::Array),
        1 => prop::collection::vec(("[a-zA-Z$_ -]{0,8}", value(depth - 1)), 0..3).prop_map(Json::Object),
    ]
    .boxed()
}

/// A foreign command: another program, or our binary for another harness.
fn foreign_command() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z./~ -]{1,20}",
        Just("agent-memory hook kiro".to_owned()),
        Just("agent-memory dream".to_owned()),
        Just("/usr/bin/agent-memory-wrapper.sh --harness claude".to_owned()),
    ]
}

fn foreign_handler(nested: bool) -> impl Strategy<Value = Json> {
    (
        foreign_command(),
        proptest::option::of(1u64..100),
        prop::collection::vec(("x[a-z]{0,5}", value(1)), 0..2),
    )
        .prop_map(move |(command, timeout, extra)| {
            let mut members = Vec::new();
            if nested {
                members.push(("type".to_owned(), Json::string("command")));
            }
            members.push(("command".to_owned(), Json::String(command)));
            if let Some(t) = timeout {
                members.push(("timeout".to_owned(), Json::int(t)));
            }
            members.extend(extra);
            Json::Object(members)
        })
}

fn foreign_entry(nested: bool) -> BoxedStrategy<Json> {
    if nested {
        (proptest::option::of("[A-Za-z|*]{0,10}"), prop::collection::vec(foreign_handler(true), 0..3))
            .prop_map(|(matcher, handlers)| {
                let mut members = Vec::new();
                if let Some(m) = matcher {
                    members.push(("matcher".to_owned(), Json::String(m)));
                }
                members.push(("hooks".to_owned(), Json::Array(handlers)));
                Json::Object(members)
            })
            .boxed()
    } else {
        foreign_handler(false).boxed()
    }
}

/// A pre-existing configuration for `harness`, printed by the formatting rule.
fn existing_config(harness: Harness) -> impl Strategy<Value = String> {
    let nested = !matches!(harness, Harness::Cursor | Harness::Copilot);
    let mut names: Vec<String> = harness.spec().events().iter().map(|e| e.name.to_owned()).collect();
    names.extend(["Notification", "beforeReadFile", "WorktreeCreate", "custom"].map(str::to_owned));
    let event = (prop::sample::select(names), prop::collection::vec(foreign_entry(nested), 1..3));
    let hooks = proptest::option::of(prop::collection::vec(event, 1..5));
    let others =
        prop::collection::vec(("[a-z$]{1,10}".prop_filter("not hooks", |k| k != "hooks"), value(2)), 0..4);
    (others, hooks, 0..5usize, any::<bool>()).prop_map(move |(mut members, hooks, at, version)| {
        if let Some(events) = hooks {
            members.insert(
                at.min(members.len()),
                (
                    "hooks".to_owned(),
                    Json::Object(events.into_iter().map(|(k, v)| (k, Json::Array(v))).collect()),
                ),
            );
        }
        if version && matches!(harness, Harness::Cursor | Harness::Copilot) {
            members.insert(0, ("version".to_owned(), Json::int(1)));
        }
        Json::Object(members).to_pretty()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn install_is_idempotent_and_uninstall_restores_the_bytes(
        (harness, original) in prop::sample::select(JSON_HOOKS.to_vec())
            .prop_flat_map(|h| (Just(h), existing_config(h))),
        scope in prop::sample::select(vec![Scope::User, Scope::Project]),
    ) {
        let sandbox = Sandbox::new();
        let path = sandbox.path(harness, scope);
        sandbox.put(&path, &original);
        sandbox.run(&[harness], scope, Action::Install).unwrap();
        let once = sandbox.read(&path);
        let doc = Json::parse(&once).unwrap();
        let found = super::merge::find(&doc, harness.spec(), &sandbox.ctx.binary).unwrap();
        prop_assert_eq!(found.len(), harness.spec().events().len());
        sandbox.run(&[harness], scope, Action::Install).unwrap();
        prop_assert_eq!(&sandbox.read(&path), &once);
        sandbox.run(&[harness], scope, Action::Uninstall).unwrap();
        prop_assert_eq!(sandbox.read(&path), original);
    }
}

#[test]
fn doctor_calls_a_backlog_that_no_dream_will_take_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let findings = |toml: &str, waiting: (u64, bool)| {
        let mut config = memory_hook::config::Config::parse(toml).unwrap();
        config.data_dir = Some(dir.path().to_path_buf());
        let (mut warnings, mut problems) = (Vec::new(), Vec::new());
        let check = doctor::dream_findings(&config, Some(waiting), &mut warnings, &mut problems);
        (check, warnings, problems)
    };
    let (check, warnings, problems) = findings("", (500, false));
    assert!(check.auto && warnings.is_empty() && problems.is_empty(), "{warnings:?} {problems:?}");

    let (check, _, problems) = findings("[dream]\nauto = false\n", (10_000, true));
    assert!(!check.auto);
    assert!(problems.iter().any(|p| p.starts_with("10000+ events wait for the dream")), "{problems:?}");
    let (_, _, problems) = findings("[dream]\nauto = false\n", (199, false));
    assert!(problems.is_empty(), "a small backlog is no problem: {problems:?}");

    let uncapped = "[dream]\nprovider = \"anthropic\"\n";
    let (check, _, problems) = findings(uncapped, (250, false));
    assert!(!check.auto, "an LLM without a cap does not dream by itself");
    assert!(problems.iter().any(|p| p.contains("has no spending cap")), "{problems:?}");
    let (_, warnings, problems) = findings(uncapped, (3, false));
    assert!(
        problems.is_empty() && warnings.iter().any(|w| w.contains("has no spending cap")),
        "{warnings:?}"
    );
    let (check, _, problems) =
        findings("[dream]\nprovider = \"anthropic\"\nmax_cost_usd = 0.5\n", (250, false));
    assert!(check.auto && problems.is_empty(), "{problems:?}");
}

#[test]
fn install_registers_the_mcp_server_in_every_harness_and_uninstall_takes_it_out() {
    use super::mcp;
    for scope in [Scope::User, Scope::Project] {
        let sandbox = Sandbox::new();
        // Existing MCP files with a server of the user's keep it, and get their bytes back.
        let mut originals = Vec::new();
        for harness in Harness::ALL {
            let Some((path, format)) = mcp::file(&sandbox.ctx, harness, scope) else { continue };
            let text = match format {
                mcp::Format::Toml => "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n".to_owned(),
                mcp::Format::Json(_) => {
                    "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"docs\": {\n      \"command\": \"docs-mcp\"\n    }\n  }\n}\n"
                        .to_owned()
                }
                mcp::Format::OpenCode => {
                    "{\n  \"theme\": \"dark\",\n  \"mcp\": {\n    \"docs\": {\n      \"type\": \"local\",\n      \"command\": [\n        \"docs-mcp\"\n      ]\n    }\n  }\n}\n"
                        .to_owned()
                }
            };
            if harness != Harness::Gemini {
                sandbox.put(&path, &text);
                originals.push((path, text));
            }
        }
        let plan = sandbox.run(&Harness::ALL, scope, Action::Install).unwrap();
        let mut written = Vec::new();
        for harness in Harness::ALL {
            let Some((path, format)) = mcp::file(&sandbox.ctx, harness, scope) else {
                assert!(
                    [Harness::Copilot, Harness::Cline].contains(&harness) && scope == Scope::Project,
                    "{harness:?} {scope:?}"
                );
                continue;
            };
            let text = sandbox.read(&path);
            assert_eq!(
                mcp::state(format, Some(&text), &sandbox.ctx.binary),
                Ok(mcp::State::Registered),
                "{}",
                path.display()
            );
            assert!(
                text.contains("docs-mcp") || harness == Harness::Gemini,
                "the user's server stays: {text}"
            );
            written.push(format!("{}\n{text}", sandbox.shown(&path)));
        }
        assert!(plan.files.iter().any(|f| f.edits.iter().any(|e| e == "mcp server agent-memory: added")));
        insta::assert_snapshot!(format!("mcp_{scope:?}").to_lowercase(), written.join("\n"));

        let again = sandbox.run(&Harness::ALL, scope, Action::Install).unwrap();
        assert!(
            again.files.iter().all(|f| f.status == Status::Unchanged),
            "a second install changes nothing"
        );
        sandbox.run(&Harness::ALL, scope, Action::Uninstall).unwrap();
        for (path, text) in &originals {
            assert_eq!(&sandbox.read(path), text, "uninstall gives back {}", path.display());
        }
    }
}

#[test]
fn the_mcp_server_is_optional_and_a_server_of_the_users_under_its_name_is_left_alone() {
    use super::mcp;
    let mut sandbox = Sandbox::new();
    sandbox.ctx.mcp = false;
    sandbox.run(&Harness::ALL, Scope::User, Action::Install).unwrap();
    assert!(!sandbox.ctx.home.join(".claude.json").exists(), "--no-mcp writes no MCP file");
    let gemini = sandbox.read(&sandbox.path(Harness::Gemini, Scope::User));
    assert!(!gemini.contains("mcpServers"), "{gemini}");

    sandbox.ctx.mcp = true;
    let cursor = sandbox.ctx.home.join(".cursor/mcp.json");
    let theirs = "{\n  \"mcpServers\": {\n    \"agent-memory\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"some-other-memory\"\n      ]\n    }\n  }\n}\n";
    sandbox.put(&cursor, theirs);
    let plan = sandbox.run(&[Harness::Cursor], Scope::User, Action::Install).unwrap();
    assert_eq!(sandbox.read(&cursor), theirs);
    assert!(plan.notes.iter().any(|n| n.text.contains("not ours")), "{:?}", plan.notes);
    sandbox.run(&[Harness::Cursor], Scope::User, Action::Uninstall).unwrap();
    assert_eq!(sandbox.read(&cursor), theirs, "uninstall leaves it too");
    assert_eq!(
        mcp::state(mcp::Format::Json(&[]), Some(theirs), &sandbox.ctx.binary),
        Ok(mcp::State::Foreign)
    );
}

#[tokio::test]
async fn doctor_checks_the_mcp_server_and_fixes_an_old_binary_path() {
    use super::mcp;
    let sandbox = Sandbox::new();
    sandbox.run(&[Harness::Gemini], Scope::User, Action::Install).unwrap();
    let settings = sandbox.path(Harness::Gemini, Scope::User);
    let moved = sandbox.read(&settings).replace(BIN, "/old/bin/agent-memory");
    std::fs::write(&settings, &moved).unwrap();
    let config = || {
        let mut config = memory_hook::config::Config::parse("").unwrap();
        config.data_dir = Some(sandbox.dir.path().join("data"));
        config
    };
    let report = doctor::check(&sandbox.ctx, &[Harness::Gemini], false, Ok(config())).await;
    let found = report.mcp.iter().find(|m| m.scope == Scope::User).unwrap();
    assert_eq!(found.state, mcp::State::Drifted { command: "/old/bin/agent-memory".to_owned() });
    assert!(report.problems.iter().any(|p| p.contains("MCP server")), "{:?}", report.problems);
    let fixed = doctor::check(&sandbox.ctx, &[Harness::Gemini], true, Ok(config())).await;
    let found = fixed.mcp.iter().find(|m| m.scope == Scope::User).unwrap();
    assert_eq!((found.state.clone(), found.fixed), (mcp::State::Registered, true));
    let text = doctor::render(&fixed);
    assert!(text.contains("MCP server registered in the same file, updated by --fix"), "{text}");
}

#[tokio::test]
async fn gemini_settings_that_turn_hooks_off_are_a_problem() {
    let sandbox = Sandbox::new();
    let path = sandbox.path(Harness::Gemini, Scope::User);
    sandbox.put(&path, "{\n  \"hooksConfig\": {\n    \"enabled\": false\n  }\n}\n");
    let plan = sandbox.run(&[Harness::Gemini], Scope::User, Action::Install).unwrap();
    assert!(
        plan.notes.iter().any(|n| n.problem && n.text.contains("hooksConfig.enabled: false")),
        "{:?}",
        plan.notes
    );
    let mut config = memory_hook::config::Config::parse("").unwrap();
    config.data_dir = Some(sandbox.dir.path().join("data"));
    let report = doctor::check(&sandbox.ctx, &[Harness::Gemini], false, Ok(config)).await;
    assert!(report.problems.iter().any(|p| p.contains("Gemini CLI runs no hooks")), "{:?}", report.problems);
}

#[tokio::test]
async fn qwen_settings_that_turn_hooks_off_are_a_problem() {
    let sandbox = Sandbox::new();
    let path = sandbox.path(Harness::Qwen, Scope::User);
    sandbox.put(&path, "{\n  \"disableAllHooks\": true\n}\n");
    let plan = sandbox.run(&[Harness::Qwen], Scope::User, Action::Install).unwrap();
    assert!(
        plan.notes.iter().any(|n| n.problem && n.text.contains("disableAllHooks: true")),
        "{:?}",
        plan.notes
    );
    let text = sandbox.read(&path);
    assert!(text.contains("\"UserPromptSubmit\"") && text.contains("\"mcpServers\""), "{text}");
    let mut config = memory_hook::config::Config::parse("").unwrap();
    config.data_dir = Some(sandbox.dir.path().join("data"));
    let report = doctor::check(&sandbox.ctx, &[Harness::Qwen], false, Ok(config)).await;
    assert!(report.problems.iter().any(|p| p.contains("Qwen Code runs no hooks")), "{:?}", report.problems);
}

/// The sandbox's folder shown as `<tmp>`, for snapshots.
fn placeholder(sandbox: &Sandbox, text: &str) -> String {
    text.replace(&sandbox.dir.path().display().to_string(), "<tmp>")
}

#[test]
fn install_says_one_line_per_harness_and_the_details_with_verbose() {
    let sandbox = Sandbox::new();
    let gemini = sandbox.path(Harness::Gemini, Scope::User);
    sandbox.put(&gemini, "{\n  \"theme\": \"dark\"\n}\n");
    let mut plan = sandbox
        .run(&[Harness::Claude, Harness::Codex, Harness::Gemini], Scope::User, Action::Install)
        .unwrap();
    plan.not_found = vec![Harness::Cursor, Harness::Copilot, Harness::Qwen];
    plan.model = Some(plan::ModelOutcome::Installed {
        model: "all-MiniLM-L6-v2".to_owned(),
        dir: sandbox.dir.path().join("data/models/all-MiniLM-L6-v2"),
        notes: 3,
    });
    let summary = super::report::render(&plan, false);
    assert!(summary.lines().count() < 15, "{summary}");
    insta::assert_snapshot!("install_summary", placeholder(&sandbox, &summary));
    insta::assert_snapshot!("install_verbose", placeholder(&sandbox, &super::report::render(&plan, true)));

    // Offline: the model is one line, and the install stands.
    plan.model = Some(plan::ModelOutcome::Failed {
        reason: "cannot download https://files.pythonhosted.org/…: connection refused".to_owned(),
    });
    let offline = super::report::render(&plan, false);
    let line: Vec<&str> = offline.lines().filter(|l| l.starts_with("Embedding model")).collect();
    assert_eq!(
        line,
        [
            "Embedding model: not installed (cannot download https://files.pythonhosted.org/…: connection refused); prompts find notes by their words alone until `agent-memory model install` adds it"
        ]
    );
}

#[test]
fn uninstall_says_what_went_and_where_the_memory_stays() {
    let sandbox = Sandbox::new();
    let claude = sandbox.path(Harness::Claude, Scope::User);
    sandbox.put(&claude, "{\n  \"model\": \"opus\"\n}\n");
    sandbox.run(&[Harness::Claude, Harness::Gemini], Scope::User, Action::Install).unwrap();
    let mut plan = sandbox.run(&Harness::ALL, Scope::User, Action::Uninstall).unwrap();
    plan.data_dir = Some(sandbox.dir.path().join("data"));
    insta::assert_snapshot!("uninstall_summary", placeholder(&sandbox, &super::report::render(&plan, false)));
    assert!(!file::backup_path(&claude).exists(), "the backup went with the restore");
}

#[tokio::test]
async fn doctor_speaks_in_sentences_with_local_times() {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = tempfile::tempdir().unwrap();
    let binary = bin.path().join("agent-memory");
    std::fs::write(&binary, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let sandbox = Sandbox::with_binary(binary.clone());
    sandbox.run(&[Harness::Claude, Harness::Cursor], Scope::User, Action::Install).unwrap();
    let data = sandbox.dir.path().join("data");
    std::fs::create_dir_all(data.join("logs")).unwrap();
    std::fs::write(
        data.join("logs").join("hook.log"),
        "2026-12-01T12:58:40.000Z hook cursor SessionStart cursor:u1 a1 redacted:none stored 3100us\n\
         2026-12-01T13:02:03.120Z hook claude UserPromptSubmit claude:s2 950093b7f5b0e9aac58fd56aa591faa1 \
         redacted:none stored; injected 1 notes, 704 chars 21516us\n",
    )
    .unwrap();
    let mut config = memory_hook::config::Config::parse("").unwrap();
    config.data_dir = Some(data);
    let report = doctor::check(&sandbox.ctx, &Harness::ALL, false, Ok(config)).await;
    let now = chrono::DateTime::parse_from_rfc3339("2026-12-01T13:04:00Z").unwrap().to_utc();
    let text = doctor::render_at(&report, now, &crate::output::Clock::named("Europe/Berlin"));
    assert!(
        text.contains(
            "last hook 1 minute ago (14:02): stored a prompt; injected 1 note (704 characters) in 22 ms"
        ),
        "{text}"
    );
    let text = text.replace(&bin.path().display().to_string(), "<bin>");
    insta::assert_snapshot!("doctor", placeholder(&sandbox, &text));
}

#[tokio::test]
async fn droid_settings_that_turn_hooks_off_are_a_problem_and_mcp_goes_beside_them() {
    let sandbox = Sandbox::new();
    let path = sandbox.path(Harness::Droid, Scope::User);
    sandbox.put(&path, "{\n  \"hooksDisabled\": true\n}\n");
    let plan = sandbox.run(&[Harness::Droid], Scope::User, Action::Install).unwrap();
    assert!(
        plan.notes.iter().any(|n| n.problem && n.text.contains("hooksDisabled: true")),
        "{:?}",
        plan.notes
    );
    let text = sandbox.read(&path);
    assert!(text.contains("\"UserPromptSubmit\"") && text.contains("hook droid"), "{text}");
    let mcp = sandbox.read(&path.with_file_name("mcp.json"));
    assert!(mcp.contains("\"agent-memory\"") && mcp.contains("\"stdio\""), "{mcp}");
    let mut config = memory_hook::config::Config::parse("").unwrap();
    config.data_dir = Some(sandbox.dir.path().join("data"));
    let report = doctor::check(&sandbox.ctx, &[Harness::Droid], false, Ok(config)).await;
    assert!(report.problems.iter().any(|p| p.contains("droid runs no hooks")), "{:?}", report.problems);
}

/// OpenCode takes a plugin file of ours, written whole: install writes it for this binary (the
/// project's for `agent-memory` by name when that runs this binary), a second install changes
/// nothing, a plugin written for another binary is rewritten, a file of the user's under our name
/// is never touched, doctor reports drift and fixes it, and uninstall deletes the file.
#[test]
fn opencode_gets_a_plugin_file_of_ours_and_loses_it_on_uninstall() {
    for scope in [Scope::User, Scope::Project] {
        let mut sandbox = Sandbox::new();
        sandbox.ctx.mcp = false;
        let path = sandbox.path(Harness::Opencode, scope);
        let plan = sandbox.run(&[Harness::Opencode], scope, Action::Install).unwrap();
        assert_eq!(plan.files[0].status, Status::Create);
        assert_eq!(plan.files[0].edits, ["plugin agent-memory.js: added"]);
        let text = sandbox.read(&path);
        assert_eq!(text, adapter_opencode::plugin_source(BIN));
        let name = format!("fresh_opencode_{scope:?}").to_lowercase();
        insta::assert_snapshot!(name, sandbox.shown(&path));
        let again = sandbox.run(&[Harness::Opencode], scope, Action::Install).unwrap();
        assert_eq!(again.files[0].status, Status::Unchanged);
        assert_eq!(
            super::doctor::check_file(&sandbox.ctx, Harness::Opencode, scope).state,
            super::doctor::State::Drifted,
            "{BIN} does not run here"
        );

        std::fs::write(&path, adapter_opencode::plugin_source("/old/agent-memory")).unwrap();
        let moved = sandbox.run(&[Harness::Opencode], scope, Action::Install).unwrap();
        assert_eq!(moved.files[0].status, Status::Update);
        assert_eq!(sandbox.read(&path), text);

        let plan = sandbox.run(&[Harness::Opencode], scope, Action::Uninstall).unwrap();
        assert_eq!(plan.files[0].status, Status::Remove);
        assert!(!path.exists(), "uninstall deletes the plugin");
        let absent = sandbox.run(&[Harness::Opencode], scope, Action::Uninstall).unwrap();
        assert_eq!(absent.files[0].status, Status::Absent);

        let mine = "export const Mine = async () => ({})\n";
        sandbox.put(&path, mine);
        let error = sandbox.run(&[Harness::Opencode], scope, Action::Install).unwrap_err();
        assert!(error.to_string().contains("is not agent-memory's plugin"), "{error}");
        assert!(sandbox.run(&[Harness::Opencode], scope, Action::Uninstall).is_err());
        assert_eq!(sandbox.read(&path), mine, "a file of the user's is never touched");
    }
}

#[test]
fn cline_gets_one_hook_file_per_event_and_uninstall_takes_only_ours() {
    use memory_core::HarnessAdapter as _;
    for scope in [Scope::User, Scope::Project] {
        let sandbox = Sandbox::new();
        let dir = sandbox.path(Harness::Cline, scope);
        // A hook of the user's for an event we do not register stays as it is.
        let theirs = dir.join("PreCompact");
        sandbox.put(&theirs, "#!/bin/sh\necho theirs\n");
        let plan = sandbox.run(&[Harness::Cline], scope, Action::Install).unwrap();
        let events = crate::cmd::CLINE.hook_events();
        let hooks: Vec<_> = plan.files.iter().filter(|f| f.path.starts_with(&dir)).collect();
        assert_eq!(hooks.len(), events.len());
        assert!(hooks.iter().all(|f| f.status == Status::Create && f.changes.len() == 1));
        let start = sandbox.read(&dir.join("TaskStart"));
        let name = format!("fresh_cline_{scope:?}").to_lowercase();
        insta::assert_snapshot!(name, format!("{}\n\n{start}", sandbox.shown(&dir.join("TaskStart"))));
        for event in events {
            assert_eq!(sandbox.read(&dir.join(event.name)), start, "{}", event.name);
        }
        let again = sandbox.run(&[Harness::Cline], scope, Action::Install).unwrap();
        assert!(
            again.files.iter().filter(|f| f.path.starts_with(&dir)).all(|f| f.status == Status::Unchanged)
        );
        let report = doctor::check_file(&sandbox.ctx.in_scope(scope), Harness::Cline, scope);
        assert_eq!(report.state, doctor::State::Installed, "{:?}", report.details);

        sandbox.run(&[Harness::Cline], scope, Action::Uninstall).unwrap();
        for event in events {
            assert!(!dir.join(event.name).exists(), "{} removed", event.name);
        }
        assert_eq!(sandbox.read(&theirs), "#!/bin/sh\necho theirs\n");
        let report = doctor::check_file(&sandbox.ctx.in_scope(scope), Harness::Cline, scope);
        assert_eq!(report.state, doctor::State::Absent);
    }
}

#[test]
fn a_cline_hook_of_the_users_under_our_name_is_refused_and_nothing_changes() {
    let sandbox = Sandbox::new();
    let dir = sandbox.path(Harness::Cline, Scope::User);
    sandbox.put(&dir.join("PreToolUse"), "#!/bin/bash\n./check.sh\n");
    let err =
        plan::plan(&sandbox.ctx, &[Harness::Cline], Scope::User, Action::Install).unwrap_err().to_string();
    assert!(err.contains("PreToolUse") && err.contains("not agent-memory's"), "{err}");
    assert!(!dir.join("TaskStart").exists());
    // Uninstall leaves it alone too.
    sandbox.run(&[Harness::Cline], Scope::User, Action::Uninstall).unwrap();
    assert_eq!(sandbox.read(&dir.join("PreToolUse")), "#!/bin/bash\n./check.sh\n");
}

#[tokio::test]
async fn doctor_reports_and_fixes_a_cline_hook_file_that_drifted() {
    let sandbox = Sandbox::new();
    sandbox.run(&[Harness::Cline], Scope::User, Action::Install).unwrap();
    let dir = sandbox.path(Harness::Cline, Scope::User);
    std::fs::remove_file(dir.join("TaskComplete")).unwrap();
    let old = super::cline::script(&entries::command_for(Path::new("/old/agent-memory"), "cline"));
    std::fs::write(dir.join("PreToolUse"), old).unwrap();
    let checked = doctor::check_file(&sandbox.ctx, Harness::Cline, Scope::User);
    assert_eq!(checked.state, doctor::State::Drifted);
    assert!(checked.details.iter().any(|d| d == "TaskComplete: missing"), "{:?}", checked.details);
    assert!(
        checked.details.iter().any(|d| d.starts_with("PreToolUse: runs \"/old/agent-memory\"")),
        "{:?}",
        checked.details
    );
    let config =
        memory_hook::config::Config { data_dir: Some(sandbox.dir.path().join("data")), ..Default::default() };
    let report = doctor::check(&sandbox.ctx, &[Harness::Cline], true, Ok(config)).await;
    let fixed = report.files.iter().find(|f| f.scope == Scope::User).unwrap();
    assert!(fixed.fixed && fixed.state == doctor::State::Installed, "{:?}", fixed.details);
    let mcp = sandbox.ctx.home.join(".cline/data/settings/cline_mcp_settings.json");
    assert!(sandbox.read(&mcp).contains("\"mcp\""), "MCP registered beside the hooks");
}

#[tokio::test]
async fn doctor_names_the_machines_writing_to_the_store_and_whose_dream_holds_it() {
    let sandbox = Sandbox::new();
    let data = sandbox.dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let store = memory_store_sqlite::SqliteStore::open(&memory_store_sqlite::SqliteConfig::new(
        data.join("memory.db"),
    ))
    .unwrap();
    let now = chrono::Utc::now();
    let lease = memory_core::MemoryStore::take_lease(
        &store,
        memory_hook::dream_lease::NAME,
        "desk-7#4242",
        now + chrono::Duration::minutes(4),
        now,
    )
    .await
    .unwrap();
    assert_eq!(lease.holder, "desk-7#4242");
    memory_core::MemoryStore::note_machine(&store, "desk-7", now - chrono::Duration::hours(3)).await.unwrap();
    memory_core::MemoryStore::note_machine(&store, "laptop", now - chrono::Duration::minutes(2))
        .await
        .unwrap();
    drop(store);
    let mut config = memory_hook::config::Config::parse("").unwrap();
    config.data_dir = Some(data);
    let report = doctor::check(&sandbox.ctx, &[Harness::Claude], false, Ok(config)).await;
    let text = doctor::render(&report);
    assert!(text.contains("distilling now: a dream running on desk-7 (pid 4242)"), "{text}");
    assert!(
        text.contains("machines writing to it: laptop, last 2 minutes ago")
            && text.contains("; desk-7, last 3 hours ago"),
        "the most recent first: {text}"
    );
}
