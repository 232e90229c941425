//! Tool-time probes: after the dream, an agent in a fresh session is about to run a command.
//! Commands like one that failed before in the same project should come with what made it pass;
//! unrelated commands, a command that already carries its fix, and a command that failed in
//! another project should come with nothing.

use crate::harness::Harness;

/// A command about to run.
pub(crate) struct ToolProbe {
    pub(crate) project: &'static str,
    pub(crate) harness: Harness,
    pub(crate) command: &'static str,
    /// Words the injection must all contain (case-insensitive); `None`: nothing may be injected.
    pub(crate) expect: Option<&'static [&'static str]>,
}

const fn fix(
    project: &'static str,
    harness: Harness,
    command: &'static str,
    words: &'static [&'static str],
) -> ToolProbe {
    ToolProbe { project, harness, command, expect: Some(words) }
}

const fn quiet(project: &'static str, harness: Harness, command: &'static str) -> ToolProbe {
    ToolProbe { project, harness, command, expect: None }
}

pub(crate) const TOOL_PROBES: &[ToolProbe] = &[
    // The same command again, or the same program and subcommand with other flags or a runner.
    fix("ledger", Harness::Codex, "cargo build", &["--features vendored"]),
    fix("ledger", Harness::Claude, "cargo build --release 2>&1 | tail -20", &["--features vendored"]),
    fix("ledger", Harness::Codex, "cargo nextest run export", &["src/export.rs"]),
    fix("billing-api", Harness::Codex, "uv run pytest -q", &["httpx"]),
    fix("billing-api", Harness::Claude, "python -m pytest -q tests/", &["httpx"]),
    fix("billing-api", Harness::Claude, "uv run pytest tests/test_invoices.py -x", &["TZ=UTC"]),
    fix("billing-api", Harness::Codex, "uv run mypy app", &["app/invoices.py"]),
    fix("storefront", Harness::Claude, "pnpm build", &["tsconfig.json"]),
    fix("storefront", Harness::Codex, "cd storefront && pnpm build --mode production", &["tsconfig.json"]),
    fix("admin-dashboard", Harness::Codex, "yarn test --watchAll=false", &["setupTests"]),
    fix(
        "admin-dashboard",
        Harness::Claude,
        "CI=true yarn test --watchAll=false src/UsersTable.test.js",
        &["setupTests"],
    ),
    // Unrelated commands.
    quiet("ledger", Harness::Claude, "git status"),
    quiet("ledger", Harness::Codex, "cargo fmt --check"),
    quiet("ledger", Harness::Claude, "cargo clippy --all-targets -- -D warnings"),
    quiet("billing-api", Harness::Codex, "uv run ruff check ."),
    quiet("billing-api", Harness::Claude, "uv run alembic upgrade head"),
    quiet("storefront", Harness::Codex, "pnpm lint"),
    quiet("storefront", Harness::Claude, "ls -la src/pages"),
    quiet("admin-dashboard", Harness::Codex, "yarn build"),
    quiet("admin-dashboard", Harness::Claude, "git log --oneline -5"),
    // The fix already in the command.
    quiet("ledger", Harness::Claude, "cargo build --features vendored"),
    // A command that failed in another project.
    quiet("storefront", Harness::Claude, "cargo build"),
    quiet("admin-dashboard", Harness::Codex, "pnpm build"),
    quiet("ledger", Harness::Codex, "uv run mypy app"),
];
