//! What the sessions planted, and how it is asked for later: durable facts with the strings that
//! show them, the stale values corrections replaced, one-offs and task requests that must not come
//! back as rules, and the probes.

/// A durable fact the user stated (or an error and the fix that made it pass).
#[derive(Debug)]
pub(crate) struct Fact {
    pub(crate) id: &'static str,
    /// The project it belongs to; `None` for something about the user, valid everywhere.
    pub(crate) project: Option<&'static str>,
    /// Words of the prompt that states it, or of the fixing command: finds the session (and so
    /// the harness) it came from.
    pub(crate) quote: &'static str,
    /// Strings one note must all contain to show the fact; `a|b` accepts either.
    pub(crate) keys: &'static [&'static str],
    /// For a correction: strings that together show the superseded value.
    pub(crate) stale: &'static [&'static str],
    /// Lexical (shares rare words with the fact), paraphrased (same meaning, other words), short.
    pub(crate) probes: [&'static str; 3],
}

/// Something said that must not become a rule: a one-off instruction or a task request.
#[derive(Debug)]
pub(crate) struct OneOff {
    pub(crate) id: &'static str,
    /// Words of the prompt that says it, and what would show it kept as a rule.
    pub(crate) phrase: &'static str,
}

pub(crate) const FACTS: &[Fact] = &[
    // About the user.
    Fact {
        id: "commits",
        project: None,
        quote: "I like small commits with conventional commit messages",
        keys: &["conventional commit|conventional commits"],
        stale: &[],
        probes: [
            "write the commit message for this change, conventional commit style",
            "how should I word the message when I check this in?",
            "commit message",
        ],
    },
    Fact {
        id: "comments",
        project: None,
        quote: "don't add comments that restate the code",
        keys: &["restate|restates|restating"],
        stale: &[],
        probes: [
            "should the comments in the new function restate what each line does?",
            "how much inline explanation do you want inside function bodies?",
            "code comments",
        ],
    },
    Fact {
        id: "ripgrep",
        project: None,
        quote: "for searching, use ripgrep",
        keys: &["ripgrep"],
        stale: &[],
        probes: [
            "search the repo for every call to formatPrice, ripgrep or grep?",
            "what's the quickest way to find every place we call this function?",
            "search codebase",
        ],
    },
    Fact {
        id: "summary",
        project: None,
        quote: "give me a short summary of what changed and why",
        keys: &["short summary|brief summary"],
        stale: &[],
        probes: [
            "when you're done give me a short summary of what changed",
            "how should you report back once you've finished?",
            "final summary",
        ],
    },
    Fact {
        id: "force-push",
        project: None,
        quote: "never force-push to main",
        keys: &["force-push|force push|force-pushing"],
        stale: &[],
        probes: [
            "can I force-push the rebased branch to main?",
            "main has a bad commit on top, can we just rewrite its history?",
            "push main",
        ],
    },
    Fact {
        id: "british",
        project: None,
        quote: "I prefer British spelling in UI copy",
        keys: &["british"],
        stale: &[],
        probes: [
            "should the checkout copy use British or American spelling?",
            "which variant of English do we write labels and messages in?",
            "UI spelling",
        ],
    },
    Fact {
        id: "test-first",
        project: None,
        quote: "when fixing a bug, write a failing test first",
        keys: &["failing test"],
        stale: &[],
        probes: [
            "there's a bug in the discount code, should I start with a failing test?",
            "what's my usual workflow when I repair a defect?",
            "bug fix workflow",
        ],
    },
    Fact {
        id: "ask-deps",
        project: None,
        quote: "ask me before adding any new dependency",
        keys: &["ask", "dependency|dependencies"],
        stale: &[],
        probes: [
            "can you just add a dependency for date parsing?",
            "is it ok to pull in a third-party library to parse dates?",
            "adding packages",
        ],
    },
    Fact {
        id: "emoji",
        project: None,
        quote: "no emojis in commit messages or code comments",
        keys: &["emoji|emojis"],
        stale: &[],
        probes: [
            "are emojis ok in commit messages?",
            "can I put a little rocket icon in the release commit?",
            "commit emojis",
        ],
    },
    // ledger: a Rust crate.
    Fact {
        id: "ledger-errors",
        project: Some("ledger"),
        quote: "in this crate errors go through thiserror, and no unwrap() outside tests",
        keys: &["thiserror", "unwrap"],
        stale: &[],
        probes: [
            "should errors in this crate use thiserror or anyhow, and is unwrap ok?",
            "what's the right way to report failures from library functions here?",
            "error handling",
        ],
    },
    Fact {
        id: "ledger-msrv",
        project: Some("ledger"),
        quote: "we bumped the MSRV to 1.82",
        keys: &["1.82"],
        stale: &["1.75"],
        probes: [
            "what's the MSRV of this crate, can I use let-chains?",
            "which compiler release do we have to stay compatible with?",
            "minimum rust version",
        ],
    },
    Fact {
        id: "ledger-nextest",
        project: Some("ledger"),
        quote: "tests in this repo run with `cargo nextest run`",
        keys: &["nextest"],
        stale: &[],
        probes: ["run the tests with nextest", "how do I run the test suite of this crate?", "run tests"],
    },
    Fact {
        id: "ledger-docs",
        project: Some("ledger"),
        quote: "we have #![deny(missing_docs)] on in this crate",
        keys: &["missing_docs"],
        stale: &[],
        probes: [
            "does missing_docs mean every public item needs docs?",
            "does each exported function need a doc comment?",
            "public docs",
        ],
    },
    Fact {
        id: "ledger-openssl",
        project: Some("ledger"),
        quote: "cargo build --features vendored",
        keys: &["openssl", "vendored"],
        stale: &[],
        probes: [
            "cargo build fails with an openssl-sys build script error again",
            "the build breaks on the new CI machine complaining about missing SSL headers, what fixed it last time?",
            "openssl build error",
        ],
    },
    // billing-api: a Python service on uv.
    Fact {
        id: "billing-uv",
        project: Some("billing-api"),
        quote: "this service uses uv for everything",
        keys: &["uv", "pip"],
        stale: &[],
        probes: [
            "should I pip install requests for this script?",
            "how do I add a package to this service's environment?",
            "install packages",
        ],
    },
    Fact {
        id: "billing-db-tests",
        project: Some("billing-api"),
        quote: "the db tests need `docker compose up -d db` first",
        keys: &["docker compose up"],
        stale: &[],
        probes: [
            "the db tests fail to connect, do I need docker compose up first?",
            "what has to be running before the integration tests work?",
            "database tests",
        ],
    },
    Fact {
        id: "billing-postgres",
        project: Some("billing-api"),
        quote: "we moved to Postgres 16",
        keys: &["postgres 16|postgresql 16|postgres:16"],
        stale: &["postgres 14|postgresql 14|postgres:14"],
        probes: [
            "which Postgres version does the local db run?",
            "what database server release are we on locally?",
            "postgres version",
        ],
    },
    Fact {
        id: "billing-ruff",
        project: Some("billing-api"),
        quote: "formatting is ruff here, line length 100, don't run black on it",
        keys: &["ruff"],
        stale: &[],
        probes: [
            "should I run black or ruff on this file?",
            "how do we format the Python code in this service?",
            "python formatting",
        ],
    },
    Fact {
        id: "billing-httpx",
        project: Some("billing-api"),
        quote: "uv add --dev httpx",
        keys: &["ImportError|ModuleNotFoundError|No module named", "uv add"],
        stale: &[],
        probes: [
            "pytest fails with ModuleNotFoundError: No module named httpx",
            "the test run can't import the HTTP client library, how did we sort that out?",
            "missing module",
        ],
    },
    Fact {
        id: "billing-mypy",
        project: Some("billing-api"),
        quote: "mypy runs in CI with --strict",
        keys: &["mypy"],
        stale: &[],
        probes: [
            "does mypy run in strict mode here?",
            "do all public functions need type annotations?",
            "type hints",
        ],
    },
    Fact {
        id: "billing-alembic",
        project: Some("billing-api"),
        quote: "migrations go through alembic here",
        keys: &["alembic"],
        stale: &[],
        probes: [
            "how do I add an alembic migration for the new column?",
            "I need to change the invoices table schema, what's the process?",
            "schema migration",
        ],
    },
    Fact {
        id: "billing-tz",
        project: Some("billing-api"),
        quote: "TZ=UTC uv run pytest",
        keys: &["TZ=UTC", "test_due_date|due date|due_date|timezone"],
        stale: &[],
        probes: [
            "test_due_date fails on my laptop but passes in CI",
            "a date assertion breaks only on my machine, what was the trick?",
            "flaky date test",
        ],
    },
    // storefront: a pnpm web app.
    Fact {
        id: "store-pnpm",
        project: Some("storefront"),
        quote: "please always use pnpm here, not npm",
        keys: &["pnpm"],
        stale: &[],
        probes: [
            "add zod to the app, pnpm or npm?",
            "how do I install a new library in this app?",
            "package manager",
        ],
    },
    Fact {
        id: "store-tabs",
        project: Some("storefront"),
        quote: "indent with tabs in this repo, not spaces",
        keys: &["tabs"],
        stale: &[],
        probes: [
            "tabs or spaces for the new component?",
            "what indentation does this codebase use?",
            "indentation",
        ],
    },
    Fact {
        id: "store-make-check",
        project: Some("storefront"),
        quote: "In this repo always run tests with `make check`, never `npm test`",
        keys: &["make check"],
        stale: &[],
        probes: [
            "should I run npm test or make check before pushing?",
            "what's the command to verify everything passes before I push?",
            "run tests",
        ],
    },
    Fact {
        id: "store-port",
        project: Some("storefront"),
        quote: "the dev server is on 5173 now",
        keys: &["5173"],
        stale: &["3000"],
        probes: [
            "which port is the dev server on?",
            "what URL do I open locally to see the app while developing?",
            "dev server",
        ],
    },
    Fact {
        id: "store-exports",
        project: Some("storefront"),
        quote: "named exports only, no default exports",
        keys: &["default export|default exports"],
        stale: &[],
        probes: [
            "should the new component use a default export?",
            "how should I expose the new component from its file?",
            "component exports",
        ],
    },
    Fact {
        id: "store-alias",
        project: Some("storefront"),
        quote: "use the `@/` alias for imports",
        keys: &["@/", "alias"],
        stale: &[],
        probes: [
            "use the @/ alias or a relative path for the api import?",
            "the ../../../ imports are ugly, what do we do instead?",
            "import paths",
        ],
    },
    Fact {
        id: "store-tsconfig",
        project: Some("storefront"),
        quote: "tsconfig.json",
        keys: &["tsconfig", "TS2307|Cannot find module|@/lib/api"],
        stale: &[],
        probes: [
            "pnpm build says TS2307 Cannot find module '@/lib/api'",
            "the production build can't resolve our path shortcut, how did we fix it?",
            "build error",
        ],
    },
    // admin-dashboard: an older yarn app.
    Fact {
        id: "admin-yarn",
        project: Some("admin-dashboard"),
        quote: "this one is still on yarn 1",
        keys: &["yarn"],
        stale: &[],
        probes: [
            "yarn add or npm install for axios?",
            "how do I add a library to the dashboard?",
            "package manager",
        ],
    },
    Fact {
        id: "admin-prettier",
        project: Some("admin-dashboard"),
        quote: "2-space indentation and prettier defaults here",
        keys: &["prettier"],
        stale: &[],
        probes: [
            "run prettier on the files I changed",
            "what code style do we follow for the JavaScript here?",
            "code formatting",
        ],
    },
    Fact {
        id: "admin-watch",
        project: Some("admin-dashboard"),
        quote: "tests here are `yarn test --watchAll=false`",
        keys: &["watchAll"],
        stale: &[],
        probes: [
            "yarn test hangs in watch mode, what flag do I need?",
            "how do I run the unit tests once without them waiting for file changes?",
            "run tests",
        ],
    },
    Fact {
        id: "admin-api-url",
        project: Some("admin-dashboard"),
        quote: "the API base URL comes from REACT_APP_API_URL",
        keys: &["REACT_APP_API_URL"],
        stale: &[],
        probes: [
            "where does REACT_APP_API_URL get set?",
            "how does the dashboard know which backend host to call?",
            "api url",
        ],
    },
    Fact {
        id: "admin-port",
        project: Some("admin-dashboard"),
        quote: "the API moved to 8081",
        keys: &["8081"],
        stale: &["8080"],
        probes: [
            "curl the API health endpoint, which port?",
            "where is the backend listening on my machine?",
            "api port",
        ],
    },
    Fact {
        id: "admin-fetch",
        project: Some("admin-dashboard"),
        quote: "src/setupTests.js",
        keys: &["setupTests", "fetch is not defined|ReferenceError"],
        stale: &[],
        probes: [
            "jest says ReferenceError: fetch is not defined",
            "the component tests crash because the browser networking function is missing in the test environment, what did we do?",
            "jest fetch error",
        ],
    },
    // Corrections that point back at what they replace instead of restating it.
    Fact {
        id: "ledger-docs-site",
        project: Some("ledger"),
        quote: "scratch what I said about the docs tool",
        keys: &["zola"],
        stale: &["mdbook"],
        probes: [
            "preview the docs site with zola",
            "what builds the crate's website, and how do I look at it locally?",
            "docs site preview",
        ],
    },
    Fact {
        id: "storefront-state",
        project: Some("storefront"),
        quote: "we dropped redux last week",
        keys: &["zustand"],
        stale: &["redux toolkit"],
        probes: [
            "add a zustand store for the wishlist",
            "where should shared client-side state for a new page live?",
            "state management",
        ],
    },
    Fact {
        id: "editor",
        project: None,
        quote: "I'm back on neovim",
        keys: &["neovim"],
        stale: &["helix"],
        probes: [
            "give me neovim keybindings to jump between diagnostics",
            "which text editor am I using these days?",
            "my editor",
        ],
    },
];

/// One-off instructions and task requests, said in the sessions above.
pub(crate) const ONE_OFFS: &[OneOff] = &[
    OneOff { id: "no-commit-this-run", phrase: "don't commit anything" },
    OneOff { id: "skip-tests-once", phrase: "skip the tests this time" },
    OneOff { id: "hardcode-tax-for-now", phrase: "hardcode the tax rate" },
    OneOff { id: "no-staging-today", phrase: "against staging today" },
    OneOff { id: "task-rounding", phrase: "round the wrong way" },
    OneOff { id: "task-flaky", phrase: "never mind the flaky test" },
    OneOff { id: "task-docs", phrase: "worry about the docs" },
    OneOff { id: "task-export", phrase: "off-by-one in the statement export" },
    OneOff { id: "task-badge", phrase: "the cart badge doesn't update" },
    // Said with rule words, but not rules: a question, somebody else's words, a hypothetical, a
    // story about the past, a joke, and a credential.
    OneOff { id: "question-squash", phrase: "always squash before merging" },
    OneOff { id: "reported-css", phrase: "never use css-in-js" },
    OneOff { id: "hypothetical-shard", phrase: "shard the invoices table" },
    OneOff { id: "past-fridays", phrase: "deployed on fridays" },
    OneOff { id: "joke-haskell", phrase: "in haskell" },
    OneOff { id: "secret-vpn", phrase: "blue-otter-77" },
];

/// Prompts nothing in the memory is about: any injection on them is noise.
pub(crate) const IRRELEVANT: &[&str] = &[
    "what's the difference between a mutex and a rwlock?",
    "explain the CAP theorem in two sentences",
    "write a regex that matches ISO 8601 week dates",
    "how many bytes are in a kibibyte?",
    "translate 'good morning' into Japanese",
    "what does HTTP status 418 mean?",
    "summarise the plot of Hamlet in one line",
    "is quicksort a stable sort?",
    "convert 72 fahrenheit to celsius",
    "suggest a name for a pet hedgehog",
    "what is the big-O of binary search and why?",
    "how do I center a div with flexbox?",
    "what's the capital of Australia?",
    "give me a haiku about rain on a tin roof",
    "why is the sky blue?",
    "what is a monad, briefly?",
    "how does the TLS 1.3 handshake differ from 1.2?",
    "recommend a book about distributed systems",
    "what time zone is Tokyo in?",
    "explain what a bloom filter is good for",
    "draft a polite email declining a meeting invite",
    "what's the difference between TCP and UDP?",
    "calculate 17% of 240",
    "who wrote the original Unix kernel?",
    "what's a good naming convention for boolean variables?",
    "how does garbage collection work in the JVM?",
    "explain the difference between a process and a thread",
    "what does a 502 from a load balancer usually mean?",
    "any tips for keeping a fern alive through a dry winter?",
    "what's a kind way to turn down a wedding invitation?",
    "how long should I rest between sets when lifting weights?",
];
