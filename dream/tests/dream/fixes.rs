//! Errors and their fixes, distilled by the deterministic dream: failures a harness reports
//! without an exit code, a fix run earlier on the line that passed, a variable set from a command
//! substitution, and the lines an edit added.

use dream::{DeterministicProvider, NoProgress, run};
use memory_core::{HookEvent, MemoryStore};
use serde_json::json;

use crate::support::{Story, options, store_with};

const ROOT: &str = "/home/dana/src/quarry";

/// The `errors.md` items the dream writes for `events`, or an empty string.
async fn errors(events: &[HookEvent]) -> String {
    let store = store_with(events).await;
    run(&store, &DeterministicProvider::new(), &options(), &NoProgress).await.unwrap();
    let notes = store.list_notes(&memory_core::NoteFilter::all()).await.unwrap();
    notes
        .iter()
        .filter(|n| n.path.as_str().ends_with("/errors.md"))
        .map(|n| n.body.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Removes what a harness that reports neither an exit code nor a failure leaves out.
fn without_exit_codes(events: &mut [HookEvent]) {
    for event in events {
        if let Some(tool) = event.tool.as_mut()
            && let Some(shell) = tool.shell.as_mut()
        {
            shell.exit_code = None;
            tool.failed = None;
            tool.error = None;
        }
    }
}

/// Gives the last edit of `events` (the last event that touched a file) the text it replaced and the text it wrote.
fn last_edit_replaces(events: &mut [HookEvent], old: &str, new: &str) {
    let edit = events.iter_mut().rev().find_map(|e| e.tool.as_mut().filter(|t| !t.files.is_empty())).unwrap();
    match edit.patch.as_mut() {
        Some(patch) => {
            let file = patch.lines().find_map(|l| l.strip_prefix("*** Update File: ")).unwrap().to_owned();
            let minus: String = old.lines().map(|l| format!("-{l}\n")).collect();
            let plus: String = new.lines().map(|l| format!("+{l}\n")).collect();
            *patch = format!("*** Begin Patch\n*** Update File: {file}\n@@\n{minus}{plus}*** End Patch\n");
        }
        None => {
            let input = edit.input.as_mut().unwrap();
            input["old_string"] = json!(old);
            input["new_string"] = json!(new);
        }
    }
}

#[tokio::test]
async fn a_failure_reported_without_an_exit_code_is_read_from_its_output() {
    let mut story = Story::new();
    story
        .session("codex", "c-1", Some("quarry"), ROOT)
        .shell("tox -e lint", 0, "lint: commands[0]> flake8 src\nsrc/quarry/io.py:88:101: E501 line too long\nERROR: InvocationError for command flake8 (exited with code 1)\n")
        .edit("setup.cfg")
        .shell("tox -e lint", 0, "lint: OK (3.12 seconds)\n");
    let mut events = story.events();
    last_edit_replaces(&mut events, "[flake8]\nmax-line-length = 88\n", "[flake8]\nmax-line-length = 120\n");
    without_exit_codes(&mut events);
    let found = errors(&events).await;
    assert!(found.contains("`tox -e lint` failed with \"ERROR: InvocationError"), "{found}");
    assert!(found.contains("after editing `setup.cfg` (adding `max-line-length = 120`)"), "{found}");
    assert!(!found.contains("[flake8]"), "a line the edit kept is not what it added: {found}");
}

#[tokio::test]
async fn a_tool_saying_what_it_needs_or_a_failed_test_is_a_failure_without_an_exit_code() {
    for (failed, output, fixed) in [
        (
            "go test -race ./...",
            "go: -race requires cgo; enable cgo by setting CGO_ENABLED=1\n",
            "CGO_ENABLED=1 go test -race ./...",
        ),
        (
            "go test ./internal/eta/...",
            "--- FAIL: TestETA (0.00s)\n    eta_test.go:12: got 3, want 4\nFAIL\n",
            "go test ./internal/eta/... -count=1",
        ),
        (
            "dbt build --select fct_deliveries",
            "dbt: invalid target 'dev2' in profiles.yml\n",
            "dbt build --select fct_deliveries --target dev",
        ),
        (
            "pnpm turbo run build --filter=web",
            "turbo 2.3.3\n\n  x Could not resolve workspaces.\n  `-> Missing `packageManager` field in package.json\n",
            "pnpm turbo run build --filter=web --continue",
        ),
        (
            "npx biome check src",
            "src/cart.ts:3:7 lint/style/useConst\n  × This let declares a variable that is only assigned once.\n",
            "npx biome check --write src",
        ),
        (
            "npx cypress run --spec cypress/e2e/cart.cy.ts",
            "  cart\n    1) opens the drawer\n\n  0 passing (5s)\n  1 failing\n",
            "npx cypress run --spec cypress/e2e/cart.cy.ts --browser chrome",
        ),
    ] {
        let mut story = Story::new();
        story.session("codex", "c-3", Some("quarry"), ROOT).shell(failed, 0, output).shell(fixed, 0, "ok\n");
        let mut events = story.events();
        without_exit_codes(&mut events);
        let found = errors(&events).await;
        assert!(found.contains(&format!("`{failed}` failed")), "{failed:?}: {found}");
    }
    // A line naming a tool with no trouble in it says nothing failed.
    let mut story = Story::new();
    story
        .session("codex", "c-4", Some("quarry"), ROOT)
        .shell("go version", 0, "go: version go1.23.1 linux/amd64\n")
        .shell("go build ./...", 0, "go: downloading github.com/oklog/ulid/v2 v2.1.0\n")
        .shell("go build ./...", 0, "");
    let mut events = story.events();
    without_exit_codes(&mut events);
    assert_eq!(errors(&events).await, "", "nothing failed");
}

#[tokio::test]
async fn output_without_a_failure_in_it_stays_a_success() {
    let mut story = Story::new();
    story
        .session("codex", "c-2", Some("quarry"), ROOT)
        .shell(
            "cargo test -p parser",
            0,
            "running 12 tests\ntest error_recovery ... ok\ntest result: ok. 12 passed; 0 failed\n",
        )
        .shell("cargo test -p parser", 0, "running 12 tests\ntest result: ok. 12 passed; 0 failed\n");
    let mut events = story.events();
    without_exit_codes(&mut events);
    assert_eq!(errors(&events).await, "", "nothing failed");
}

#[tokio::test]
async fn a_fix_run_earlier_on_the_line_that_passed_is_named() {
    let mut story = Story::new();
    story
        .session("claude", "k-1", Some("quarry"), ROOT)
        .bash_fail(
            "bazel test //services/ledger/...",
            "Exit code 1\nERROR: no such package '@maven//': repository not fetched",
        )
        .bash_ok("cd services && bazel fetch //... && bazel test //services/ledger/...")
        .bash_fail(
            "dotnet build Quarry.sln",
            "Exit code 1\nerror MSB4236: The SDK 'Microsoft.NET.Sdk' specified could not be found.",
        )
        .bash_ok("export DOTNET_ROOT=$HOME/.dotnet && dotnet build Quarry.sln")
        .bash_fail(
            "make dagster",
            "Exit code 2\nDagsterInvariantViolationError: $DAGSTER_HOME \"/src/quarry/.dagster_home\" is not a directory or does not exist.",
        )
        .bash_ok("mkdir -p .dagster_home && make dagster")
        .bash_fail("rails server", "Exit code 1\nError: tmp/restart.txt: No such file or directory")
        .bash_ok("touch tmp/restart.txt; rails server");
    let found = errors(&story.events()).await;
    assert!(found.contains("it passed after running `bazel fetch //...`"), "{found}");
    assert!(found.contains("it passed after running `export DOTNET_ROOT=$HOME/.dotnet`"), "{found}");
    // What a run needed made on the line: a folder, a file.
    assert!(found.contains("it passed after running `mkdir -p .dagster_home`"), "{found}");
    assert!(found.contains("it passed after running `touch tmp/restart.txt`"), "{found}");
    assert!(!found.contains("after running `cd services`"), "moving around is no fix: {found}");
}

#[tokio::test]
async fn a_variable_set_from_a_command_substitution_is_the_fix() {
    let mut story = Story::new();
    story
        .session("cursor", "u-1", Some("quarry"), ROOT)
        .bash_fail(
            "cargo build -p bindings",
            "Exit code 101\nerror: failed to run custom build command for 'clang-sys v1.8.1'",
        )
        .bash_ok("LIBCLANG_PATH=$(llvm-config --libdir) cargo build -p bindings");
    let found = errors(&story.events()).await;
    assert!(found.contains("with `LIBCLANG_PATH=$(llvm-config --libdir)` set"), "{found}");
}

#[tokio::test]
async fn an_edit_is_described_by_the_lines_it_added() {
    let mut story = Story::new();
    story
        .session("claude", "k-2", Some("quarry"), ROOT)
        .bash_fail("./gradlew :api:compileKotlin", "Exit code 1\ne: Unresolved reference: serialization")
        .edit("api/build.gradle.kts")
        .bash_ok("./gradlew compileKotlin --offline");
    let mut events = story.events();
    last_edit_replaces(
        &mut events,
        "plugins {\n    kotlin(\"jvm\")\n}\n",
        "plugins {\n    kotlin(\"jvm\")\n    kotlin(\"plugin.serialization\") version \"2.0.21\"\n}\n",
    );
    let found = errors(&events).await;
    assert!(
        found.contains("after editing `api/build.gradle.kts` (adding `kotlin(\"plugin.serialization\") version \"2.0.21\"`)"),
        "another spelling of the same task passes it: {found}"
    );
}

#[tokio::test]
async fn another_tool_run_with_the_same_arguments_stands_in_for_the_one_that_failed() {
    for (failed, error, passed) in [
        (
            "rustup target add aarch64-unknown-linux-gnu && cargo build --release --target aarch64-unknown-linux-gnu",
            "Exit code 101\nerror: linking with `cc` failed: exit status: 1",
            "cross build --release --target aarch64-unknown-linux-gnu",
        ),
        (
            "docker compose up -d db",
            "Exit code 1\nCannot connect to the Docker daemon at unix:///var/run/docker.sock",
            "podman compose up -d db",
        ),
        (
            "npx tsc --noEmit -p tsconfig.build.json",
            "Exit code 2\nerror TS2307: Cannot find module 'zod'",
            "bunx tsc --noEmit -p tsconfig.build.json",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "x-1", Some("quarry"), ROOT)
            .bash_fail(failed, error)
            .bash_ok("ls")
            .bash_ok(passed);
        let found = errors(&story.events()).await;
        assert!(found.contains(&format!("it passed as `{passed}`")), "{passed:?}: {found}");
    }
}

#[tokio::test]
async fn a_version_asked_in_between_is_no_fix_and_a_tools_own_error_mark_names_the_failure() {
    for (failed, error, asked, edited, named) in [
        (
            "pnpm turbo run build --filter=web",
            "Exit code 1\nturbo 2.3.3\n\n  x Could not resolve workspaces.\n  `-> Missing `packageManager` field in package.json",
            "pnpm --version",
            "package.json",
            "Could not resolve workspaces",
        ),
        (
            "npx biome check src",
            "Exit code 1\nChecked 41 files in 12ms\nsrc/cart.ts:3:7 lint/style/useConst\n  × This let declares a variable that is only assigned once.",
            "npx biome --version",
            "biome.json",
            "This let declares a variable",
        ),
        (
            "deno task build",
            "Exit code 1\nTask build deno run -A build.ts\nbuild.ts could not resolve the import map entry for \"@std/path\"",
            "deno --version",
            "deno.json",
            "could not resolve the import map",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "v-1", Some("quarry"), ROOT)
            .bash_fail(failed, error)
            .bash_ok(asked)
            .edit(edited)
            .bash_ok(failed);
        let found = errors(&story.events()).await;
        assert!(found.contains(named), "{failed:?} is named by its error: {found}");
        assert!(!found.contains(&format!("after running `{asked}`")), "{asked:?} is no fix: {found}");
        assert!(found.contains(&format!("after editing `{edited}`")), "{found}");
    }
}

#[tokio::test]
async fn an_edit_is_described_by_what_it_does_before_the_names_it_brings_in() {
    for (failed, error, file, old, new, does) in [
        (
            "deno task test",
            "error: Leaking async ops:\n  - 1 async operation to receive a message from a socket was started in this test",
            "tests/orders_test.ts",
            "describe(\"orders\", () => {\n",
            "import { afterAll, describe, it } from \"jsr:@std/testing/bdd\";\nimport { pool } from \"../src/database/connection_pool.ts\";\ndescribe(\"orders\", () => {\n  afterAll(() => pool.end());\n",
            "afterAll(() => pool.end());",
        ),
        (
            "uv run pytest -q tests/test_export.py",
            "Exit code 1\nE   sqlite3.ProgrammingError: Cannot operate on a closed database.",
            "tests/conftest.py",
            "def db():\n    conn = connect()\n",
            "from contextlib import closing as close_when_finished_with_it\nfrom quarry.storage.sqlite_backend import connect_readonly\ndef db():\n    conn = connect()\n    yield conn; conn.close()\n",
            "yield conn; conn.close()",
        ),
        (
            "cargo test -p quarry-io",
            "Exit code 101\nthread 'reads_header' panicked at src/reader.rs:40:9:\nassertion failed: buffer.is_empty()",
            "src/reader.rs",
            "let mut buffer = Vec::new();\n",
            "use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};\nuse crate::encoding::detect_byte_order_mark;\nlet mut buffer = Vec::new();\nbuffer.clear();\n",
            "buffer.clear();",
        ),
    ] {
        let mut story = Story::new();
        story
            .session("claude", "k-9", Some("quarry"), ROOT)
            .bash_fail(failed, error)
            .edit(file)
            .bash_ok(failed);
        let mut events = story.events();
        last_edit_replaces(&mut events, old, new);
        let found = errors(&events).await;
        assert!(found.contains(&format!("`{does}`")), "what the edit did is quoted: {found}");
    }
}
