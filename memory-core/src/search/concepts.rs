//! What a line is about when it names a tool but not the topic: `please always use pnpm here`
//! is about the project's package manager, `the dev server is on 5173 now` about where the app is
//! served. People ask by the topic ("which package manager?", "what URL do I open?"), so search
//! also indexes the topics of what a note names, and embeds a passage with them.
//!
//! Each concept is a short description and the words (or phrases) that name an instance of it.
//! The table is general developer knowledge, not a list of any user's facts.

use super::words;

/// A topic and the words that name an instance of it.
struct Concept {
    /// What the topic is called, as a person asking about it would say.
    topic: &'static str,
    /// Words or phrases (matched as whole, consecutive words, case-insensitively) that name it.
    named_by: &'static [&'static str],
}

const CONCEPTS: &[Concept] = &[
    Concept {
        topic: "package manager, installing dependencies",
        named_by: &[
            "npm",
            "pnpm",
            "yarn",
            "bun",
            "pip",
            "pipx",
            "uv",
            "poetry",
            "pdm",
            "conda",
            "mamba",
            "gem",
            "bundler",
            "composer",
            "nuget",
            "brew",
            "homebrew",
            "apt",
            "apt-get",
            "cargo add",
            "go get",
            "mix deps.get",
            "pub get",
            "flutter pub",
            "cocoapods",
            "pod install",
            "swiftpm",
            "conan",
            "vcpkg",
        ],
    },
    Concept {
        topic: "test runner, running the tests",
        named_by: &[
            "jest",
            "vitest",
            "mocha",
            "jasmine",
            "pytest",
            "nextest",
            "cargo test",
            "go test",
            "rspec",
            "minitest",
            "junit",
            "testng",
            "unittest",
            "tox",
            "nox",
            "make check",
            "make test",
            "npm test",
            "yarn test",
            "pnpm test",
            "phpunit",
            "ctest",
            "gradle test",
            "mvn test",
            "mix test",
            "exunit",
            "xctest",
            "swift test",
            "flutter test",
            "dart test",
            "sbt test",
            "scalatest",
            "kotest",
            "espresso",
            "robolectric",
            "googletest",
            "gtest",
            "catch2",
        ],
    },
    Concept {
        topic: "end-to-end (e2e) browser tests",
        named_by: &["playwright", "cypress", "selenium", "puppeteer", "webdriver", "chromedriver"],
    },
    Concept {
        topic: "code formatting, code style",
        named_by: &[
            "prettier",
            "black",
            "rustfmt",
            "cargo fmt",
            "gofmt",
            "goimports",
            "clang-format",
            "ruff format",
            "autopep8",
            "yapf",
            "isort",
            "indent",
            "indentation",
            "tabs",
            "line length",
            "printwidth",
            "editorconfig",
            "ktlint",
            "ktlintformat",
            "spotless",
            "spotlessapply",
            "swiftformat",
            "swift-format",
            "dart format",
            "mix format",
            "scalafmt",
            "google-java-format",
            "shfmt",
            "gofumpt",
            "stylua",
        ],
    },
    Concept {
        topic: "code structure and readability: nesting, early returns",
        named_by: &[
            "early return",
            "early returns",
            "return early",
            "guard clause",
            "guard clauses",
            "nested if",
            "nested ifs",
            "deep nesting",
            "deeply nested",
        ],
    },
    Concept {
        topic: "changes that touch many files",
        named_by: &[
            "more than two files",
            "more than 2 files",
            "more than three files",
            "more than 3 files",
            "several files",
            "many files",
            "multiple files",
            "lots of files",
        ],
    },
    Concept {
        topic: "linter, static analysis",
        named_by: &[
            "eslint",
            "ruff",
            "clippy",
            "flake8",
            "pylint",
            "golangci-lint",
            "stylelint",
            "rubocop",
            "shellcheck",
            "hadolint",
            "biome",
            "detekt",
            "ktlintcheck",
            "swiftlint",
            "credo",
            "dialyzer",
            "scalafix",
            "dart analyze",
            "flutter analyze",
            "checkstyle",
            "spotbugs",
            "clang-tidy",
            "cppcheck",
            "phpstan",
            "psalm",
            "ansible-lint",
            "tflint",
            "standardrb",
        ],
    },
    Concept {
        topic: "type checking, type annotations",
        named_by: &["mypy", "pyright", "tsc", "type hints", "typecheck", "type annotations"],
    },
    Concept {
        topic: "database server",
        named_by: &[
            "postgres",
            "postgresql",
            "psql",
            "mysql",
            "mariadb",
            "sqlite",
            "mongodb",
            "mongo",
            "redis",
            "cockroachdb",
            "dynamodb",
            "cassandra",
            "clickhouse",
            "oracle",
            "mssql",
        ],
    },
    Concept {
        topic: "database schema migrations",
        named_by: &["alembic", "flyway", "liquibase", "prisma migrate", "knex", "migration", "migrations"],
    },
    Concept {
        topic: "error handling",
        named_by: &["thiserror", "anyhow", "eyre", "snafu", "unwrap", "exception", "exceptions", "panic"],
    },
    Concept {
        topic: "local server: the address, URL and port it listens on",
        named_by: &["localhost", "127.0.0.1", "0.0.0.0", "port", "dev server", "listens", "listening"],
    },
    Concept {
        topic: "minimum supported compiler and language version",
        named_by: &[
            "msrv",
            "rust-version",
            "rustc",
            "rustup",
            "toolchain",
            "nvm",
            "nvmrc",
            "pyenv",
            "python-version",
            "requires-python",
        ],
    },
    Concept {
        topic: "documentation comments on public items",
        named_by: &[
            "missing_docs",
            "rustdoc",
            "docstring",
            "docstrings",
            "jsdoc",
            "tsdoc",
            "doc comment",
            "doc comments",
        ],
    },
    Concept { topic: "code comments", named_by: &["comment", "comments"] },
    Concept { topic: "searching code and files", named_by: &["ripgrep", "rg", "grep", "ag", "ack", "fzf"] },
    Concept {
        topic: "versioning: version numbers and release tags",
        named_by: &["semver", "calver", "semantic versioning", "version number", "version numbers"],
    },
    Concept {
        topic: "commits, commit messages",
        named_by: &[
            "commit",
            "commits",
            "conventional commits",
            "conventional commit",
            "git add",
            "git commit",
            "staging area",
            "stage files",
            "unstaged",
            "sign-off",
            "signed-off-by",
        ],
    },
    Concept {
        topic: "git history, branches",
        named_by: &[
            "force-push",
            "force push",
            "push --force",
            "force-with-lease",
            "rebase",
            "squash",
            "amend",
        ],
    },
    Concept {
        topic: "third-party dependencies: libraries and packages",
        named_by: &["dependency", "dependencies", "deps", "crate", "crates", "library", "libraries"],
    },
    Concept {
        topic: "environment variables, settings",
        named_by: &["dotenv", ".env", "env var", "env vars", "environment variable", "environment variables"],
    },
    Concept {
        topic: "imports, module paths",
        named_by: &["import", "imports", "alias", "tsconfig", "module resolution"],
    },
    Concept {
        topic: "browser APIs in tests, polyfills",
        named_by: &["jsdom", "happy-dom", "fetch", "polyfill", "whatwg-fetch", "msw"],
    },
    Concept { topic: "time zones, dates", named_by: &["tz", "timezone", "time zone", "utc"] },
    Concept {
        topic: "containers",
        named_by: &["docker", "docker compose", "docker-compose", "podman", "dockerfile"],
    },
    Concept {
        topic: "deployment, Kubernetes",
        named_by: &["kubernetes", "k8s", "kubectl", "helm", "terraform", "ansible", "kamal", "capistrano"],
    },
    Concept {
        topic: "continuous integration pipeline",
        named_by: &["github actions", "gitlab-ci", "jenkins", "circleci", "buildkite"],
    },
    Concept {
        topic: "build tool, building the project",
        named_by: &[
            "makefile",
            "cmake",
            "webpack",
            "vite",
            "esbuild",
            "rollup",
            "cargo build",
            "gradle",
            "maven",
            "bazel",
            "turbo",
            "nx",
            "gradlew",
            "sbt",
            "xcodebuild",
            "melos",
            "ninja",
            "meson",
            "mix compile",
            "dotnet build",
        ],
    },
    Concept {
        topic: "HTTP client library",
        named_by: &[
            "httpx",
            "axios",
            "reqwest",
            "aiohttp",
            "urllib3",
            "okhttp",
            "httpoison",
            "tesla",
            "finch",
            "faraday",
            "guzzle",
            "alamofire",
            "retrofit",
        ],
    },
    Concept {
        topic: "compiler, C and C++ toolchain",
        named_by: &["gcc", "g++", "clang", "clang++", "msvc", "mingw", "icc", "icx", "tcc"],
    },
    Concept {
        topic: "image loading library",
        named_by: &["glide", "coil", "picasso", "fresco", "kingfisher", "sdwebimage", "nuke"],
    },
    Concept {
        topic: "JSON encoding and decoding library",
        named_by: &["jason", "poison", "serde_json", "gson", "moshi", "jackson", "simplejson", "orjson"],
    },
    Concept {
        topic: "pull requests, code review, who approves a change",
        named_by: &["gh pr", "pull request", "pull requests", "codeowners", "code owners", "approvals"],
    },
    Concept {
        topic: "error tracking, crash reporting",
        named_by: &["sentry", "bugsnag", "rollbar", "crashlytics", "honeybadger", "raygun", "glitchtip"],
    },
    Concept {
        topic: "monitoring: metrics, dashboards and alerts",
        named_by: &[
            "datadog",
            "grafana",
            "prometheus",
            "new relic",
            "honeycomb",
            "opentelemetry",
            "otel",
            "statsd",
            "cloudwatch",
            "alertmanager",
        ],
    },
    Concept {
        topic: "on-call rotation, paging, incidents",
        named_by: &[
            "pagerduty",
            "opsgenie",
            "on-call",
            "oncall",
            "runbook",
            "runbooks",
            "incident",
            "incidents",
        ],
    },
    Concept {
        topic: "hosting: where the site or app is deployed and served",
        named_by: &[
            "vercel",
            "netlify",
            "heroku",
            "fly.io",
            "flyctl",
            "railway",
            "cloudflare pages",
            "github pages",
            "app engine",
            "cloud run",
            "elastic beanstalk",
        ],
    },
    Concept {
        topic: "message queues, background jobs and event streams",
        named_by: &[
            "kafka",
            "rabbitmq",
            "sqs",
            "sns",
            "nats",
            "pubsub",
            "celery",
            "sidekiq",
            "oban",
            "bullmq",
            "resque",
            "kinesis",
            "outbox",
            "event bus",
        ],
    },
    Concept { topic: "caching", named_by: &["redis", "memcached", "varnish", "cache", "caching"] },
    Concept {
        topic: "CDN: serving assets and pages from the edge",
        named_by: &["cdn", "cloudfront", "fastly", "akamai", "cloudflare"],
    },
    Concept {
        topic: "feature flags: turning features on and off, gradual rollout",
        named_by: &["launchdarkly", "unleash", "flagsmith", "growthbook", "feature flag", "feature flags"],
    },
    Concept {
        topic: "authentication: login, sign-in, sessions and user accounts",
        named_by: &["auth0", "okta", "keycloak", "cognito", "oauth", "oidc", "saml", "sso", "jwt"],
    },
    Concept {
        topic: "secrets management: passwords, keys, credentials",
        named_by: &["vault", "sops", "1password", "secrets manager", "doppler", "sealed secrets", "kms"],
    },
    Concept {
        topic: "provisioning servers and cloud resources, infrastructure as code",
        named_by: &[
            "terraform",
            "opentofu",
            "pulumi",
            "ansible",
            "cloudformation",
            "cdk",
            "chef",
            "puppet",
            "packer",
        ],
    },
    Concept {
        topic: "site search: the search index and its results",
        named_by: &[
            "elasticsearch",
            "opensearch",
            "meilisearch",
            "algolia",
            "typesense",
            "solr",
            "pagefind",
            "lunr",
        ],
    },
    Concept {
        topic: "analytics: traffic, page views, tracking usage",
        named_by: &["google analytics", "ga4", "plausible", "mixpanel", "amplitude", "posthog", "matomo"],
    },
    Concept {
        topic: "payments: card charges, refunds, billing",
        named_by: &["stripe", "adyen", "braintree", "paypal", "mollie", "pci", "pci dss", "psp"],
    },
    Concept {
        topic: "money: amounts, prices and currencies",
        named_by: &["cents", "currency", "currencies", "money"],
    },
    Concept {
        topic: "idempotency: a retried or repeated request handled once",
        named_by: &[
            "idempotency",
            "idempotent",
            "idempotency key",
            "idempotency-key",
            "dedupe",
            "deduplication",
            "exactly-once",
        ],
    },
    Concept {
        topic: "scheduled jobs, periodic tasks, timers",
        named_by: &[
            "cron",
            "crontab",
            "cronjob",
            "airflow",
            "dagster",
            "prefect",
            "systemd timer",
            "cloud scheduler",
        ],
    },
    Concept {
        topic: "code editor, IDE",
        named_by: &[
            "neovim",
            "nvim",
            "vim",
            "emacs",
            "vscode",
            "vs code",
            "zed",
            "helix",
            "intellij",
            "android studio",
            "xcode",
            "pycharm",
            "sublime",
        ],
    },
    Concept {
        topic: "shell",
        named_by: &["bash", "zsh", "fish shell", "powershell", "nushell", "oh-my-zsh"],
    },
    Concept {
        topic: "terminal and multiplexer",
        named_by: &["tmux", "zellij", "kitty terminal", "iterm2", "wezterm", "ghostty", "alacritty"],
    },
    Concept {
        topic: "frontend framework, UI components",
        named_by: &[
            "react",
            "vue",
            "svelte",
            "angular",
            "solidjs",
            "next.js",
            "nextjs",
            "nuxt",
            "remix",
            "sveltekit",
        ],
    },
    Concept {
        topic: "state management in the UI",
        named_by: &["redux", "zustand", "mobx", "pinia", "vuex", "recoil", "jotai", "riverpod", "bloc"],
    },
    Concept {
        topic: "CSS, styling",
        named_by: &["tailwind", "tailwindcss", "styled-components", "sass", "scss", "css modules", "postcss"],
    },
    Concept {
        topic: "remote access: SSH into servers, hosts and boxes",
        named_by: &[
            "ssh",
            "bastion",
            "jump host",
            "jumphost",
            "mosh",
            "teleport",
            "tailscale",
            "wireguard",
            "vpn",
        ],
    },
    Concept {
        topic: "service discovery, service registry",
        named_by: &["consul", "service discovery", "etcd", "eureka", "coredns"],
    },
    Concept {
        topic: "firewall rules, network ports",
        named_by: &[
            "iptables",
            "nftables",
            "ufw",
            "firewalld",
            "firewall",
            "security group",
            "security groups",
        ],
    },
    Concept {
        topic: "domains, DNS records and TLS certificates",
        named_by: &[
            "letsencrypt",
            "let's encrypt",
            "certbot",
            "caddy",
            "cert-manager",
            "route53",
            "cname",
            "dns",
        ],
    },
    Concept {
        topic: "logs: where log lines go and what they may contain",
        named_by: &[
            "loki",
            "logstash",
            "fluentd",
            "fluent bit",
            "papertrail",
            "splunk",
            "structlog",
            "slf4j",
            "logback",
            "log4j",
            "winston",
            "pino",
        ],
    },
    Concept {
        topic: "API schema and generated clients",
        named_by: &[
            "openapi",
            "swagger",
            "openapi-generator",
            "graphql",
            "protobuf",
            "grpc",
            "json schema",
            "codegen",
        ],
    },
    Concept {
        topic: "mobile app releases and store listings",
        named_by: &[
            "app store",
            "play store",
            "testflight",
            "fastlane",
            "app store connect",
            "google play",
            "play console",
        ],
    },
    Concept {
        topic: "localization, translations, languages",
        named_by: &["i18n", "l10n", "crowdin", "lokalise", "transifex", "gettext", "translations", "locales"],
    },
    Concept {
        topic: "the language the agent answers in",
        named_by: &[
            "english",
            "inglés",
            "ingles",
            "englisch",
            "anglais",
            "inglês",
            "inglese",
            "spanish",
            "español",
            "german",
            "deutsch",
            "french",
            "français",
        ],
    },
    Concept {
        topic: "data pipelines and the warehouse",
        named_by: &["spark", "databricks", "dbt", "snowflake", "bigquery", "redshift", "delta lake", "etl"],
    },
    Concept {
        topic: "profiling: finding where a slow program spends its time",
        named_by: &[
            "profiler",
            "profilers",
            "profiling",
            "pprof",
            "flamegraph",
            "flamegraphs",
            "flame graph",
            "flame graphs",
            "py-spy",
            "stackprof",
            "rack-mini-profiler",
            "async-profiler",
            "perf record",
            "cpu profile",
            "heap profile",
            "speedscope",
            "spark ui",
            "explain analyze",
            "slow query log",
        ],
    },
    Concept {
        topic: "load testing, benchmarks and performance",
        named_by: &["gatling", "k6", "locust", "jmeter", "hyperfine", "criterion", "benchmark", "benchmarks"],
    },
    Concept {
        topic: "downloads: large files, model weights, datasets and images",
        named_by: &["wget", "aria2c", "huggingface-cli", "hf_hub_download", "git lfs"],
    },
    Concept {
        topic: "software licenses of dependencies",
        named_by: &["gpl", "agpl", "lgpl", "copyleft", "spdx", "cargo-deny", "license", "licence"],
    },
    Concept {
        topic: "documentation site generator",
        named_by: &[
            "mkdocs",
            "docusaurus",
            "sphinx",
            "starlight",
            "vitepress",
            "hugo",
            "jekyll",
            "mdbook",
            "readthedocs",
        ],
    },
    Concept {
        topic: "installing the right language version, version managers",
        named_by: &["mise", "asdf", "sdkman", "nvm", "fnm", "pyenv", "rbenv", "rustup", "volta", "jenv"],
    },
    Concept {
        topic: "experiment tracking: logging training runs, metrics and models",
        named_by: &[
            "mlflow",
            "wandb",
            "weights & biases",
            "weights and biases",
            "neptune.ai",
            "clearml",
            "tensorboard",
            "comet ml",
        ],
    },
    Concept {
        topic: "end-to-end (e2e) tests of a mobile app",
        named_by: &["detox", "maestro", "appium", "xcuitest"],
    },
    Concept {
        topic: "property-based tests, generated inputs",
        named_by: &["quickcheck", "hedgehog", "proptest", "fast-check", "jqwik", "scalacheck"],
    },
    Concept {
        topic: "on-device storage of a mobile app",
        named_by: &[
            "async-storage",
            "asyncstorage",
            "mmkv",
            "react-native-mmkv",
            "watermelondb",
            "userdefaults",
            "sharedpreferences",
        ],
    },
    Concept {
        topic: "GitOps: what syncs the cluster from git",
        named_by: &["argo cd", "argocd", "fluxcd", "flux cd"],
    },
    Concept {
        topic: "dependency update bots: automated version bump PRs",
        named_by: &["renovate", "renovatebot", "dependabot"],
    },
    Concept {
        topic: "cluster storage: storage classes and persistent volumes",
        named_by: &[
            "longhorn",
            "local-path",
            "rook",
            "ceph",
            "openebs",
            "storageclass",
            "storage class",
            "pvc",
            "pvcs",
        ],
    },
];

/// The words a request is asked with that say which topic it is about when it names no tool of
/// it: "lint the crate" is about the linter, "report bad input" about error handling, "ship main to
/// staging" about deploying. Each topic is one of [`CONCEPTS`]; general developer knowledge, like
/// the concepts themselves.
const CUES: &[(&str, &[&str])] = &[
    (
        "searching code and files",
        &[
            "every place",
            "all the places",
            "find all",
            "find every",
            "usages",
            "call sites",
            "callers",
            "search the code",
        ],
    ),
    (
        "versioning: version numbers and release tags",
        &[
            "bump the version",
            "version bump",
            "new version",
            "next version",
            "tag the release",
            "cut a release",
        ],
    ),
    (
        "code formatting, code style",
        &["format", "formatting", "formatter", "reformat", "reflow", "long lines"],
    ),
    (
        "code structure and readability: nesting, early returns",
        &[
            "clean up",
            "clean it up",
            "tidy up",
            "tidy it up",
            "hard to read",
            "hard to follow",
            "readable",
            "readability",
            "simplify",
        ],
    ),
    (
        "changes that touch many files",
        &[
            "everywhere",
            "all the",
            "all of the",
            "every file",
            "all files",
            "across the codebase",
            "across the repo",
            "throughout the codebase",
        ],
    ),
    (
        "terminal and multiplexer",
        &[
            "watcher",
            "watchers",
            "watch mode",
            "long-running",
            "long running",
            "keep it running",
            "leave it running",
            "dev server",
            "in a pane",
        ],
    ),
    (
        "linter, static analysis",
        &["lint", "linting", "linter", "linters", "lints", "style issues", "style offenses"],
    ),
    (
        "error handling",
        &[
            "error handling",
            "handle errors",
            "handles errors",
            "report errors",
            "bad input",
            "invalid input",
            "tell the caller",
            "throw",
            "throws",
            "raise",
            "raises",
            "error type",
            "error types",
            "result type",
            "result types",
        ],
    ),
    (
        "time zones, dates",
        &["my time", "local time", "time of day", "days ago", "hours ago", "time ago", "dates"],
    ),
    (
        "deployment, Kubernetes",
        &[
            "deploy",
            "deploys",
            "deployed",
            "deploying",
            "deployment",
            "deployments",
            "ship",
            "shipping",
            "roll out",
            "onto staging",
            "to staging",
            "onto production",
            "to production",
            "to prod",
            "manifest",
            "manifests",
            "out to customers",
            "live for customers",
            "go live",
            "goes live",
            "going live",
            "put live",
        ],
    ),
    (
        "containers",
        &["spin up", "spin one up", "spin it up", "spin them up", "spun up", "container", "containers"],
    ),
    (
        "HTTP client library",
        &["http client", "http call", "http calls", "http request", "http requests", "timeout", "timeouts"],
    ),
    (
        "message queues, background jobs and event streams",
        &[
            "background job",
            "background jobs",
            "background work",
            "background task",
            "background tasks",
            "in the background",
            "job queue",
            "message bus",
            "message broker",
            "event bus",
            "reminder",
            "reminders",
            "hours before",
            "hours after",
        ],
    ),
    (
        "feature flags: turning features on and off, gradual rollout",
        &["on and off", "toggle", "toggles", "kill switch"],
    ),
    (
        "secrets management: passwords, keys, credentials",
        &[
            "secret",
            "secrets",
            "api key",
            "api keys",
            "credentials",
            "password",
            "passwords",
            "dsn",
            "access key",
            "access keys",
        ],
    ),
    ("load testing, benchmarks and performance", &["how fast", "timing", "timings", "latency"]),
    (
        "downloads: large files, model weights, datasets and images",
        &[
            "download",
            "downloads",
            "downloading",
            "downloaded",
            "huggingface",
            "hugging face",
            "weights from",
            "dataset from",
            "datasets from",
            "docker pull",
        ],
    ),
    (
        "profiling: finding where a slow program spends its time",
        &[
            "where the time goes",
            "where time goes",
            "where the time is spent",
            "spends its time",
            "got slow",
            "gotten slow",
            "slowed down",
            "takes forever",
            "bottleneck",
            "bottlenecks",
            "hot path",
            "hotspot",
            "hotspots",
            "what's slow",
            "what is slow",
        ],
    ),
    (
        "money: amounts, prices and currencies",
        &["amount", "amounts", "price", "prices", "pricing", "money", "cents", "currency", "currencies"],
    ),
];

/// The topics a request asks about by the words it is asked with alone ([`CUES`]), in their
/// order, each once.
pub fn asked_topics(text: &str) -> Vec<&'static str> {
    static CUED: std::sync::OnceLock<Vec<Named>> = std::sync::OnceLock::new();
    let named = CUED.get_or_init(|| CUES.iter().map(|(topic, cues)| split_names(topic, cues)).collect());
    let mut out = named_in(named, text);
    // Whatever a text in another language asks, it asks in that language: the user's rule of
    // which language to answer in is about it.
    if in_another_language(text) {
        out.push(REPLY_LANGUAGE_TOPIC);
    }
    out
}

/// The topic of which language the agent answers in.
const REPLY_LANGUAGE_TOPIC: &str = "the language the agent answers in";

/// Words that are common in Spanish, German, French, Portuguese or Italian and are not English
/// words: two of them, or an opening `¿` or `¡`, say a text is written in one of those.
const FOREIGN_FUNCTION_WORDS: &[&str] = &[
    "aber", "auf", "bitte", "como", "dans", "das", "del", "der", "des", "dies", "ein", "eine", "est", "está",
    "esta", "für", "ich", "isso", "kannst", "las", "los", "mit", "nicht", "não", "où", "para", "pas", "pero",
    "perché", "peux", "por", "pourquoi", "puedes", "puoi", "qué", "que", "sind", "tanto", "und", "une",
    "uno", "una", "você", "warum", "wie",
];

/// Whether `text` is written in one of the languages of [`FOREIGN_FUNCTION_WORDS`].
fn in_another_language(text: &str) -> bool {
    if text.trim_start().starts_with(['¿', '¡']) {
        return true;
    }
    let lower = text.to_lowercase();
    let mut found: Vec<&str> =
        lower.split(|c: char| !c.is_alphabetic()).filter(|w| FOREIGN_FUNCTION_WORDS.contains(w)).collect();
    found.sort_unstable();
    found.dedup();
    found.len() >= 2
}

/// Whether a name, split into its words, stands in a text whose words are `present`, joined by
/// single spaces as `joined`.
fn said(name: &[String], present: &std::collections::HashSet<&str>, joined: &str) -> bool {
    match name {
        [] => false,
        [one] => present.contains(one.as_str()),
        many => joined.contains(&format!(" {} ", many.join(" "))),
    }
}

/// The topics of work `text` is about: those it names an instance of ([`concepts`]) and those the
/// words it is asked with say ([`CUES`]), each once.
pub fn topics(text: &str) -> Vec<&'static str> {
    let mut out = concepts(text);
    for topic in asked_topics(text) {
        if !out.contains(&topic) {
            out.push(topic);
        }
    }
    out
}

/// Every name of `topic` and every word it is asked with, one after another: a query that finds
/// the notes about it whichever of them they use.
pub fn topic_query(topic: &str) -> String {
    let names = CONCEPTS.iter().filter(|c| c.topic == topic).flat_map(|c| c.named_by.iter());
    let cues = CUES.iter().filter(|(t, _)| *t == topic).flat_map(|(_, cues)| cues.iter());
    names.chain(cues).copied().collect::<Vec<_>>().join(" ")
}

/// A concept's topic, its one-word names, and its names of several words spelled as they stand
/// in a text's words joined by single spaces (with a space either side).
type Named = (&'static str, Vec<String>, Vec<String>);

/// Each concept's names as search words, split once.
fn named_words() -> &'static [Named] {
    static NAMES: std::sync::OnceLock<Vec<Named>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| CONCEPTS.iter().map(|c| split_names(c.topic, c.named_by)).collect())
}

/// A topic's names split into single words and phrases of several ([`Named`]).
fn split_names(topic: &'static str, names: &[&str]) -> Named {
    let (mut single, mut phrases) = (Vec::new(), Vec::new());
    for name in names.iter().map(|name| words(name)) {
        match name.as_slice() {
            [] => {}
            [one] => single.push(one.clone()),
            many => phrases.push(format!(" {} ", many.join(" "))),
        }
    }
    (topic, single, phrases)
}

/// The topics of `named` that `text` says one of the names of, in their order, each once.
fn named_in(named: &'static [Named], text: &str) -> Vec<&'static str> {
    let words = words(text);
    let present: std::collections::HashSet<&str> = words.iter().map(String::as_str).collect();
    let joined = format!(" {} ", words.join(" "));
    named
        .iter()
        .filter(|(_, single, phrases)| {
            single.iter().any(|w| present.contains(w.as_str()))
                || phrases.iter().any(|p| joined.contains(p.as_str()))
        })
        .map(|(topic, _, _)| *topic)
        .collect()
}

/// The topics `text` names an instance of, in the table's order, each once.
pub fn concepts(text: &str) -> Vec<&'static str> {
    named_in(named_words(), text)
}

/// The tools of the table `text` names, each once, as the table first spells them (`docker
/// compose`, `rubocop`).
pub fn tools(text: &str) -> Vec<&'static str> {
    let words = words(text);
    let present: std::collections::HashSet<&str> = words.iter().map(String::as_str).collect();
    let joined = format!(" {} ", words.join(" "));
    let mut out: Vec<&'static str> = Vec::new();
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for name in CONCEPTS.iter().flat_map(|c| c.named_by.iter().copied()) {
        // `docker-compose` and `docker compose` are one tool.
        let spelled = super::words(name);
        if said(&spelled, &present, &joined) && seen.insert(spelled.join(" ")) {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{concepts, tools};

    #[test]
    fn the_tools_a_text_names() {
        assert_eq!(
            tools("local db comes up with docker compose, lint with RuboCop"),
            ["rubocop", "docker", "docker compose"]
        );
        assert!(tools("the build is slow today").is_empty());
    }

    #[test]
    fn a_tool_names_its_topic() {
        assert_eq!(
            concepts("no, please always use pnpm here, not npm."),
            ["package manager, installing dependencies"]
        );
        assert_eq!(
            concepts("the dev server is on 5173 now"),
            ["local server: the address, URL and port it listens on"]
        );
        assert_eq!(concepts("we moved to Postgres 16"), ["database server"]);
    }

    #[test]
    fn phrases_match_as_consecutive_words_and_words_as_whole_words() {
        assert_eq!(concepts("never force-push to main"), ["git history, branches"]);
        assert!(concepts("push the branch, then force the rebuild").is_empty());
        // `ag` names the searcher only as a word of its own, never inside another.
        assert!(concepts("tag the release").is_empty());
        assert!(concepts("").is_empty());
    }

    #[test]
    fn services_and_tools_of_everyday_work_name_their_topics() {
        for (line, topic) in [
            ("crashes are reported to Sentry with the release tag", "error tracking, crash reporting"),
            ("we page through PagerDuty, the runbook is in the wiki", "on-call rotation, paging, incidents"),
            (
                "the marketing site is deployed on Netlify from main",
                "hosting: where the site or app is deployed and served",
            ),
            (
                "payments go through Stripe, never store the card number",
                "payments: card charges, refunds, billing",
            ),
            (
                "send an Idempotency-Key header with every POST",
                "idempotency: a retried or repeated request handled once",
            ),
            ("the nightly export is a cron entry on the worker", "scheduled jobs, periodic tasks, timers"),
            (
                "get onto the boxes through the bastion with ssh -J",
                "remote access: SSH into servers, hosts and boxes",
            ),
            (
                "training runs log their metrics to wandb",
                "experiment tracking: logging training runs, metrics and models",
            ),
            ("the smoke flows on the emulator are maestro yaml", "end-to-end (e2e) tests of a mobile app"),
            ("the parser's properties are checked with proptest", "property-based tests, generated inputs"),
            ("the drafts are kept in mmkv until the sync succeeds", "on-device storage of a mobile app"),
            (
                "new volumes go on longhorn with two replicas",
                "cluster storage: storage classes and persistent volumes",
            ),
            ("Argo CD picks up whatever lands on main", "GitOps: what syncs the cluster from git"),
            (
                "dependabot opens the bump PRs on mondays",
                "dependency update bots: automated version bump PRs",
            ),
        ] {
            assert!(concepts(line).contains(&topic), "{line:?} names {topic:?}: {:?}", concepts(line));
        }
        // Everyday words that are also a tool's name name nothing alone.
        for line in
            ["we fish for feedback on the draft", "the clerk checks the segment totals", "I can't fathom why"]
        {
            assert!(concepts(line).is_empty(), "{line:?}: {:?}", concepts(line));
        }
    }

    #[test]
    fn a_request_is_about_the_topic_its_words_ask_for() {
        use super::{CONCEPTS, CUES, asked_topics, topics};
        for (topic, _) in CUES {
            assert!(CONCEPTS.iter().any(|c| c.topic == *topic), "{topic} is a concept");
        }
        for (requests, topic) in [
            (
                [
                    "lint the crate the way CI does",
                    "fix the linting errors in app/jobs",
                    "tidy up the style issues",
                ],
                "linter, static analysis",
            ),
            (
                [
                    "how should the parser report bad input?",
                    "the loader should tell the caller when the file is missing",
                    "what does this function throw on a timeout of the socket?",
                ],
                "error handling",
            ),
            (
                [
                    "ship current main to staging",
                    "how do we get the new version onto staging?",
                    "deploy the api",
                ],
                "deployment, Kubernetes",
            ),
            (
                [
                    "grab the pretrained encoder weights from huggingface",
                    "download the 2024 census extract for the fixtures",
                    "fetch the ERA5 dataset from the climate data store",
                ],
                "downloads: large files, model weights, datasets and images",
            ),
            (
                [
                    "add a refund amount to the webhook payload",
                    "show prices on the cart page",
                    "store the fee in cents",
                ],
                "money: amounts, prices and currencies",
            ),
            (
                [
                    "where do I put the new sentry dsn?",
                    "the weather api key goes where?",
                    "rotate the secrets for staging",
                ],
                "secrets management: passwords, keys, credentials",
            ),
        ] {
            for request in requests {
                assert!(asked_topics(request).contains(&topic), "{request:?}: {:?}", asked_topics(request));
            }
        }
        for request in [
            "find every place we read the DISPATCH_RADIUS_KM setting",
            "list the call sites of InvoiceParser",
            "find all usages of the old retry helper",
        ] {
            assert!(asked_topics(request).contains(&"searching code and files"), "{request:?}");
        }
        for request in [
            "I want a throwaway local redis to try the caching idea, how do I spin one up?",
            "spin up a postgres for the integration tests",
            "the api container keeps restarting",
        ] {
            assert!(asked_topics(request).contains(&"containers"), "{request:?}");
        }
        for request in [
            "bump the version for the december release",
            "cut a release from main",
            "what's the next version going to be?",
        ] {
            assert!(
                asked_topics(request).contains(&"versioning: version numbers and release tags"),
                "{request:?}"
            );
        }
        // A fact is about the topics it names and the topics its words say.
        assert!(topics("errors in the public api are typed throws, not Result").contains(&"error handling"));
        assert!(topics("money is always integer cents").contains(&"money: amounts, prices and currencies"));
        // Words of no topic ask for none.
        for request in
            ["write a short poem about the sea", "rename the tone prop to variant", "explain this diff"]
        {
            assert!(asked_topics(request).is_empty(), "{request:?}: {:?}", asked_topics(request));
        }
    }

    #[test]
    fn a_line_naming_several_topics_gets_each_once() {
        let found = concepts("run `uv run pytest` and `uv run ruff check` before pushing, pytest first");
        assert_eq!(
            found,
            [
                "package manager, installing dependencies",
                "test runner, running the tests",
                "linter, static analysis"
            ]
        );
    }
}
