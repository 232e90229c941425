//! Notes already in the memory before the dream, imported as a Markdown tree: the user's tool
//! notes and profile, notes of ten other projects (with their own package managers, ports,
//! database versions and test commands), and hand-written notes in the scenario's projects. They
//! state none of the planted facts; they are there for retrieval to get wrong.

/// Where a note lives: the user scope or a project, by repository name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Home {
    User,
    Project(&'static str),
}

/// One imported note.
#[derive(Debug, Clone)]
pub(crate) struct Distractor {
    pub(crate) home: Home,
    pub(crate) path: String,
    pub(crate) title: String,
    pub(crate) kind: &'static str,
    pub(crate) body: String,
}

/// Another project of the user's, described by what differs from the scenario's projects.
struct Other {
    name: &'static str,
    stack: &'static str,
    install: &'static str,
    test: &'static str,
    dev: &'static str,
    style: &'static str,
    gotcha: &'static str,
    deploy: &'static str,
}

const OTHERS: &[Other] = &[
    Other {
        name: "legacy-shop",
        stack: "Express 4 + EJS templates, Postgres 14, Node 16",
        install: "npm ci",
        test: "npm test (mocha, needs the db from `docker compose up -d`)",
        dev: "npm run dev, app on localhost:3000",
        style: "2 spaces, semicolons, CommonJS requires",
        gotcha: "`npm test` hangs when the db container is down: the pool retries forever; start the db first",
        deploy: "Heroku, `git push heroku main`; migrations run in the release phase",
    },
    Other {
        name: "mobile-app",
        stack: "React Native 0.74, Expo, TypeScript",
        install: "yarn install (yarn 1, Expo pins it)",
        test: "yarn jest --ci",
        dev: "yarn expo start, Metro on 8081",
        style: "prettier with singleQuote, 2 spaces",
        gotcha: "Pods out of date after upgrading: `cd ios && pod install --repo-update`",
        deploy: "EAS build, `eas submit -p ios`",
    },
    Other {
        name: "infra",
        stack: "Terraform 1.9 with modules per environment, AWS",
        install: "tfenv install",
        test: "make plan ENV=staging (plan only; never apply from a laptop)",
        dev: "no dev server",
        style: "terraform fmt, one resource type per file",
        gotcha: "state lock stuck after a cancelled plan: `terraform force-unlock <id>` once nobody else runs",
        deploy: "applied by CI on merge to main",
    },
    Other {
        name: "ml-experiments",
        stack: "Python 3.11, poetry, PyTorch, notebooks",
        install: "poetry install --with dev",
        test: "poetry run pytest -x",
        dev: "jupyter lab on localhost:8888",
        style: "black, isort, 88 columns",
        gotcha: "CUDA out of memory on the shared box: set CUDA_VISIBLE_DEVICES to a free GPU first",
        deploy: "nothing deployed; results go to the team wiki",
    },
    Other {
        name: "dotfiles",
        stack: "zsh, neovim (lua config), tmux, GNU stow",
        install: "stow -t ~ zsh nvim tmux",
        test: "shellcheck scripts/*.sh",
        dev: "no dev server",
        style: "shell scripts with `set -euo pipefail`, 2 spaces",
        gotcha: "stow refuses when a real file exists: move it away, then re-run stow",
        deploy: "git pull on each machine",
    },
    Other {
        name: "blog",
        stack: "Hugo with the PaperMod theme",
        install: "git submodule update --init",
        test: "hugo --panicOnWarning",
        dev: "hugo server -D on localhost:1313",
        style: "one post per folder with its images",
        gotcha: "theme submodule detached after a fresh clone: `git submodule update --remote`",
        deploy: "Netlify on push to main",
    },
    Other {
        name: "payments-gateway",
        stack: "Go 1.22, chi router, Postgres 15",
        install: "go mod download",
        test: "go test ./... -race",
        dev: "go run ./cmd/gateway, listens on :9090",
        style: "gofmt (tabs), errors wrapped with fmt.Errorf and %w",
        gotcha: "race detector flags the metrics map: guard it with the registry mutex",
        deploy: "Kubernetes via Argo CD, image tag from the git sha",
    },
    Other {
        name: "docs-site",
        stack: "Docusaurus 3, npm",
        install: "npm install",
        test: "npm run build (broken links fail the build)",
        dev: "npm start on localhost:3000",
        style: "one sentence per line in Markdown",
        gotcha: "broken anchor warnings after renaming a heading: update the links or add an explicit id",
        deploy: "GitHub Pages from the gh-pages branch",
    },
    Other {
        name: "data-pipeline",
        stack: "Python 3.12, Airflow 2.9, pip-tools",
        install: "pip install -r requirements.txt in the venv",
        test: "pytest tests/dags -q",
        dev: "airflow standalone on localhost:8080",
        style: "black, 88 columns, type hints optional",
        gotcha: "DAG import errors only show in the scheduler log: `airflow dags list-import-errors`",
        deploy: "MWAA, DAGs synced from S3",
    },
    Other {
        name: "cli-tools",
        stack: "Rust 2021 workspace of small CLIs, clap 4",
        install: "cargo build --release",
        test: "cargo test --workspace",
        dev: "no dev server",
        style: "rustfmt defaults, anyhow in binaries",
        gotcha: "cross-compiling for aarch64 needs `cross build --target aarch64-unknown-linux-gnu`",
        deploy: "GitHub releases built by cargo-dist",
    },
];

/// The user's own notes on tools, kept across projects.
const USER_TOOLS: &[(&str, &str, &str)] = &[
    (
        "tools/git/rebase.md",
        "Interactive rebase",
        "- `git rebase -i --autosquash origin/main` folds fixup commits.\n- `git rebase --abort` when it gets messy.\n- `git rerere` remembers conflict resolutions; enabled globally.",
    ),
    (
        "tools/git/bisect.md",
        "git bisect",
        "- `git bisect start HEAD v1.2.0`, then `git bisect run <script>`.\n- The script must exit 125 for commits that cannot be tested.",
    ),
    (
        "tools/git/worktrees.md",
        "Git worktrees",
        "- `git worktree add ../x-review origin/pr-branch` to review without stashing.\n- `git worktree prune` after deleting folders.",
    ),
    (
        "tools/docker/cleanup.md",
        "Docker disk cleanup",
        "- `docker system df` to see what takes space.\n- `docker builder prune -af` frees build cache (often 20+ GB).",
    ),
    (
        "tools/docker/compose-notes.md",
        "docker compose notes",
        "- `docker compose logs -f db` to follow one service.\n- `docker compose exec db psql -U postgres` for a shell in the db.\n- Profiles: `docker compose --profile tools up`.",
    ),
    (
        "tools/kubectl/contexts.md",
        "kubectl contexts",
        "- `kubectl config use-context staging` before anything else.\n- `kubectl get pods -A | rg -v Running` finds broken pods.",
    ),
    (
        "tools/psql/tips.md",
        "psql tips",
        "- `\\timing on` shows query times.\n- `\\x auto` for wide rows.\n- `EXPLAIN (ANALYZE, BUFFERS)` before blaming the index.",
    ),
    (
        "tools/jq/recipes.md",
        "jq recipes",
        "- `jq -r '.items[] | [.id, .name] | @tsv'` for quick tables.\n- `jq -s 'group_by(.k) | map({k: .[0].k, n: length})'` to count.",
    ),
    (
        "tools/ssh/config.md",
        "SSH config",
        "- Jump hosts with `ProxyJump bastion`.\n- `ControlMaster auto` + `ControlPersist 10m` speeds up repeated connections.",
    ),
    (
        "tools/tmux/keys.md",
        "tmux keys",
        "- Prefix is C-a.\n- `prefix |` and `prefix -` split panes; `prefix z` zooms.",
    ),
    (
        "tools/npm/scripts.md",
        "npm scripts",
        "- `npm test -- --watch` passes flags through to the test runner.\n- `npm run` lists the scripts of a package.\n- `npm ci` for clean installs in CI.",
    ),
    (
        "tools/node/nvm.md",
        "Node versions",
        "- nvm reads `.nvmrc`; `nvm use` in each project.\n- Node 20 LTS by default, Node 16 only for legacy-shop.",
    ),
    (
        "tools/pytest/flags.md",
        "pytest flags I use",
        "- `-x` stop at the first failure, `--lf` rerun last failures.\n- `-k expr` to select tests, `-vv` for full diffs.\n- `--pdb` drops into the debugger on failure.",
    ),
    (
        "tools/cargo/features.md",
        "cargo features",
        "- `cargo tree -e features -i serde` shows who turns a feature on.\n- `cargo hack check --feature-powerset` for crates with many features.",
    ),
    (
        "tools/rustup/toolchains.md",
        "Rust toolchains",
        "- `rustup override set nightly` for one folder only.\n- `rustup component add llvm-tools` for coverage.",
    ),
    (
        "tools/rg/usage.md",
        "rg usage",
        "- `rg -uu` also searches ignored and hidden files.\n- `rg -t py foo` restricts to Python files.\n- `rg --files | rg test` lists matching paths.",
    ),
    (
        "tools/black/config.md",
        "black",
        "- Default line length 88; `--check --diff` in CI.\n- `# fmt: off` / `# fmt: on` around generated tables.",
    ),
    (
        "tools/eslint/rules.md",
        "ESLint",
        "- `eslint --fix .` before committing.\n- `no-unused-vars` off in favour of the TypeScript rule.",
    ),
    (
        "tools/prettier/config.md",
        "Prettier config",
        "- `printWidth: 100`, `singleQuote: true` in most JS projects.\n- `prettier --check .` in CI.",
    ),
    (
        "tools/uv/basics.md",
        "uv basics",
        "- `uv sync` installs from the lockfile.\n- `uv lock --upgrade-package X` bumps one package.\n- `uvx ruff` runs a tool without installing it.",
    ),
    (
        "tools/alembic/tips.md",
        "alembic tips",
        "- `alembic downgrade -1` undoes the last revision.\n- `alembic history --verbose` shows the chain.\n- Autogenerate misses server defaults: check the diff.",
    ),
    (
        "tools/jest/tips.md",
        "Jest tips",
        "- `--runInBand` when tests share a port.\n- `--detectOpenHandles` finds what keeps the process alive.",
    ),
    (
        "tools/playwright/setup.md",
        "Playwright",
        "- `npx playwright install --with-deps chromium` once per machine.\n- `--ui` mode for debugging selectors.",
    ),
    (
        "tools/mypy/config.md",
        "mypy",
        "- `reveal_type(x)` to see what mypy infers.\n- Per-module `ignore_missing_imports` for untyped libraries.",
    ),
    (
        "tools/rust/errors.md",
        "Rust error crates",
        "- Libraries usually expose an error enum; binaries often use a catch-all error type.\n- `#[from]` converts source errors; `#[source]` keeps the chain.",
    ),
    (
        "tools/vite/notes.md",
        "Vite notes",
        "- `vite --host` to test from a phone on the LAN.\n- `vite preview` serves the production build.",
    ),
    (
        "tools/gh/cli.md",
        "GitHub CLI",
        "- `gh pr checkout 123` to review locally.\n- `gh run watch` follows the CI run of the current branch.",
    ),
    (
        "tools/curl/snippets.md",
        "curl snippets",
        "- `curl -sS -D - -o /dev/null URL` prints only headers.\n- `--retry 5 --retry-connrefused` while a server boots.",
    ),
    (
        "tools/make/patterns.md",
        "Make patterns",
        "- `.PHONY` every target that is not a file.\n- `make -n` prints what would run.",
    ),
    (
        "tools/postgres/docker.md",
        "Postgres in Docker",
        "- Data lives in the named volume; `docker compose down -v` wipes it.\n- `pg_dump -Fc` for backups, `pg_restore -j4` to load them.",
    ),
];

/// Profile notes the user wrote by hand.
const USER_PROFILE: &[(&str, &str, &str)] = &[
    (
        "profile/about.md",
        "About me",
        "Sam: full-stack developer, mostly Rust, Python and TypeScript. Works on a Linux desktop and a MacBook.\nUses neovim; reads diffs in the terminal.",
    ),
    (
        "profile/review.md",
        "How I review",
        "When I review a change I read the tests first, then the public API, then the rest. Small PRs get reviewed the same day.",
    ),
    (
        "profile/working-hours.md",
        "Working hours",
        "Mostly 9 to 5 CET. Long-running jobs can be started before I leave; I read the results in the morning.",
    ),
    (
        "profile/languages.md",
        "Languages I know",
        "Fluent in Rust, Python, TypeScript and SQL; some Go. Not much Java; explain JVM specifics when they come up.",
    ),
];

/// Hand-written notes in the scenario's own projects.
const IN_PROJECTS: &[(&str, &str, &str, &str)] = &[
    (
        "ledger",
        "architecture.md",
        "ledger architecture",
        "- `balance.rs` sums postings; `parse.rs` turns text into cents; `export.rs` builds monthly statements.\n- Amounts are integer cents everywhere, never floats at the edges.",
    ),
    (
        "ledger",
        "release.md",
        "Releasing ledger",
        "- Bump the version in Cargo.toml, update CHANGELOG.md, tag `vX.Y.Z`.\n- `cargo publish --dry-run` first.",
    ),
    (
        "ledger",
        "glossary.md",
        "Ledger glossary",
        "- Posting: one side of a transaction.\n- Statement: the postings of one account for one month.",
    ),
    (
        "billing-api",
        "runbook.md",
        "billing-api runbook",
        "- Stripe webhooks land on /webhooks/stripe; replay them from the Stripe dashboard.\n- Invoices are numbered per year: INV-2026-00042.",
    ),
    (
        "billing-api",
        "architecture.md",
        "billing-api architecture",
        "- FastAPI app in app/, SQLAlchemy models in app/models.py.\n- Background jobs run on a cron container, not in the web process.",
    ),
    (
        "billing-api",
        "invoices.md",
        "Invoice rules",
        "- Due date is 30 days after issue unless the customer has custom terms.\n- Credit notes never change the original invoice.",
    ),
    (
        "storefront",
        "architecture.md",
        "storefront architecture",
        "- React + TypeScript; state in zustand stores under src/stores.\n- Pages in src/pages, one route each; data through src/lib/api.ts.",
    ),
    (
        "storefront",
        "design-tokens.md",
        "Design tokens",
        "- Colours and spacing come from src/styles/tokens.css.\n- Never hard-code a hex colour in a component.",
    ),
    (
        "storefront",
        "deploy.md",
        "Deploying storefront",
        "- Preview deploys on every PR; production on tag.\n- Environment variables live in the hosting dashboard, not in the repo.",
    ),
    (
        "admin-dashboard",
        "architecture.md",
        "admin-dashboard architecture",
        "- Create React App, class components in the older screens.\n- UsersTable and RolesTable are the main screens.",
    ),
    (
        "admin-dashboard",
        "permissions.md",
        "Admin roles",
        "- Roles: admin, editor, viewer.\n- Only admins see the billing tab.",
    ),
    (
        "admin-dashboard",
        "deploy.md",
        "Deploying admin-dashboard",
        "- Built by CI and served behind the company VPN.\n- `yarn build` output goes to the static bucket.",
    ),
];

/// The names of the other projects (each gets a checkout so the product knows it).
pub(crate) fn other_projects() -> Vec<&'static str> {
    OTHERS.iter().map(|o| o.name).collect()
}

/// Every distractor note.
pub(crate) fn all() -> Vec<Distractor> {
    let mut out = Vec::new();
    let mut note = |home: Home, path: String, title: String, kind: &'static str, body: String| {
        out.push(Distractor { home, path, title, kind, body });
    };
    for o in OTHERS {
        let home = Home::Project(o.name);
        let p = |file: &str| format!("project/{}/{file}", o.name);
        note(
            home,
            p("overview.md"),
            format!("{} overview", o.name),
            "fact",
            format!("- Stack: {}.\n- Dev: {}.\n", o.stack, o.dev),
        );
        note(
            home,
            p("commands.md"),
            format!("Commands for {}", o.name),
            "tool",
            format!("- Install: `{}`.\n- Tests: {}.\n- Dev: {}.\n", o.install, o.test, o.dev),
        );
        note(
            home,
            p("conventions.md"),
            format!("{} conventions", o.name),
            "convention",
            format!("- Style: {}.\n", o.style),
        );
        note(
            home,
            p("errors.md"),
            format!("Known problems in {}", o.name),
            "procedure",
            format!("- {}.\n", o.gotcha),
        );
        note(home, p("deploy.md"), format!("Deploying {}", o.name), "fact", format!("- {}.\n", o.deploy));
    }
    for (path, title, body) in USER_TOOLS {
        note(Home::User, (*path).to_owned(), (*title).to_owned(), "tool", format!("{body}\n"));
    }
    for (path, title, body) in USER_PROFILE {
        note(Home::User, (*path).to_owned(), (*title).to_owned(), "profile", format!("{body}\n"));
    }
    for (project, file, title, body) in IN_PROJECTS {
        note(
            Home::Project(project),
            format!("notes/{file}"),
            (*title).to_owned(),
            "fact",
            format!("{body}\n"),
        );
    }
    out
}
