//! Which language's ecosystem a developer tool belongs to: `cargo` and `clippy` are Rust's, `uv`
//! and `mypy` Python's, `pnpm` and `prettier` JavaScript's. A project whose notes show it runs
//! `cargo` is a Rust project, so the user's notes about `rust` concern it and their notes about
//! `mypy` most likely do not. Tools of no one language (`git`, `docker`, `ripgrep`) belong to none.
//!
//! The table is general developer knowledge, not a list of any user's facts.

/// Each ecosystem and the tools (as note folders and command names spell them) that belong to it.
const ECOSYSTEMS: &[(&str, &[&str])] = &[
    (
        "rust",
        &[
            "rust",
            "cargo",
            "rustc",
            "rustup",
            "clippy",
            "rustfmt",
            "nextest",
            "cargo-nextest",
            "miri",
            "rust-analyzer",
        ],
    ),
    (
        "python",
        &[
            "python", "python3", "pip", "pip3", "pipx", "uv", "uvx", "poetry", "pipenv", "conda", "pyenv",
            "pytest", "tox", "nox", "mypy", "pyright", "black", "ruff", "flake8", "isort", "pylint",
            "alembic", "django", "flask", "fastapi", "uvicorn", "gunicorn", "jupyter",
        ],
    ),
    (
        "javascript",
        &[
            "node",
            "nodejs",
            "npm",
            "npx",
            "pnpm",
            "yarn",
            "bun",
            "deno",
            "tsc",
            "typescript",
            "ts-node",
            "tsx",
            "jest",
            "vitest",
            "mocha",
            "eslint",
            "prettier",
            "biome",
            "playwright",
            "cypress",
            "webpack",
            "vite",
            "rollup",
            "esbuild",
            "next",
            "nextjs",
            "react",
            "vue",
            "svelte",
            "storybook",
        ],
    ),
    ("go", &["go", "gofmt", "goimports", "golangci-lint", "gopls"]),
    ("jvm", &["java", "javac", "mvn", "maven", "gradle", "gradlew", "kotlin", "kotlinc", "sbt", "scala"]),
    ("ruby", &["ruby", "gem", "bundle", "bundler", "rake", "rails", "rspec", "rubocop"]),
    ("dotnet", &["dotnet", "nuget", "csharp"]),
    ("php", &["php", "composer", "phpunit", "artisan"]),
    ("elixir", &["elixir", "mix", "iex"]),
];

/// The ecosystem `tool` belongs to (lowercase, as a note folder or a command names it), if any.
pub fn ecosystem(tool: &str) -> Option<&'static str> {
    let tool = tool.to_ascii_lowercase();
    ECOSYSTEMS.iter().find(|(_, tools)| tools.contains(&tool.as_str())).map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::ecosystem;

    #[test]
    fn tools_of_one_language_share_its_ecosystem_and_general_tools_have_none() {
        assert_eq!(ecosystem("cargo"), ecosystem("rust"));
        assert_eq!(ecosystem("Clippy"), Some("rust"));
        assert_eq!(ecosystem("uv"), ecosystem("mypy"));
        assert_eq!(ecosystem("pnpm"), ecosystem("prettier"));
        assert_ne!(ecosystem("pnpm"), ecosystem("uv"));
        for general in ["git", "docker", "ripgrep", "make", "curl", "gh"] {
            assert_eq!(ecosystem(general), None, "{general}");
        }
    }
}
