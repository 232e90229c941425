//! The recorded sessions: sixteen working sessions over three harnesses and four projects, in the
//! order they happened. Users state preferences and rules in passing, correct themselves later,
//! ask for one-off exceptions and ordinary tasks; agents run commands (some fail, then get fixed),
//! read and edit files.

use crate::harness::Harness::{self, Claude, Codex, Cursor};

/// One thing that happens in a session.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Step {
    /// The user submits a prompt.
    Say(&'static str),
    /// The agent runs a shell command; it prints `out` and exits with `code`.
    Run { cmd: &'static str, out: &'static str, code: i32 },
    /// The agent reads a file of the project.
    Read(&'static str),
    /// The agent replaces `old` with `new` in a file (an empty `old` on a new file creates it).
    Edit { file: &'static str, old: &'static str, new: &'static str },
    /// The agent ends its turn.
    Reply(&'static str),
}

/// A session: a harness, a project, what happened.
#[derive(Debug)]
pub(crate) struct Session {
    pub(crate) harness: Harness,
    pub(crate) project: &'static str,
    pub(crate) steps: &'static [Step],
}

use Step::{Edit, Read, Reply, Run, Say};

const NEXTEST_OK: &str = "    Finished `test` profile [unoptimized + debuginfo] target(s) in 6.21s\n------------\n     Summary [   0.412s] 38 tests run: 38 passed, 0 skipped";
const CHECK_OK: &str = "pnpm lint && pnpm typecheck && pnpm vitest run\n\n RUN  v2.1.8 /home/sam/src/storefront\n\n Test Files  18 passed (18)\n      Tests  96 passed (96)\n   Duration  4.12s";

pub(crate) const SESSIONS: &[Session] = &[
    Session {
        harness: Claude,
        project: "ledger",
        steps: &[
            Say(
                "hey, can you add a `Ledger::balance_at(date)` method? it should sum postings up to and including that date. in this crate errors go through thiserror, and no unwrap() outside tests",
            ),
            Read("src/lib.rs"),
            Read("src/balance.rs"),
            Edit {
                file: "src/balance.rs",
                old: "    /// The balance over every posting.",
                new: "    /// The balance of postings up to and including `date`.\n    pub fn balance_at(&self, date: NaiveDate) -> Result<Amount, LedgerError> {\n        let first = self.postings.first().ok_or(LedgerError::NoPostings(date))?;\n        Ok(self.sum_until(first.date, date))\n    }\n\n    /// The balance over every posting.",
            },
            Edit {
                file: "src/error.rs",
                old: "    InvalidAmount(String),",
                new: "    InvalidAmount(String),\n    #[error(\"no postings before {0}\")]\n    NoPostings(NaiveDate),",
            },
            Run { cmd: "cargo nextest run", out: NEXTEST_OK, code: 0 },
            Reply(
                "Added `Ledger::balance_at(date)` returning `Result<Amount, LedgerError>` with a new `NoPostings` variant. All 38 tests pass.",
            ),
            Say(
                "looks good. I like small commits with conventional commit messages, so commit just this as one feat commit",
            ),
            Run {
                cmd: "git add src/balance.rs src/error.rs && git commit -m \"feat(balance): add Ledger::balance_at\"",
                out: "[main 3f2a91c] feat(balance): add Ledger::balance_at\n 2 files changed, 27 insertions(+)",
                code: 0,
            },
            Reply("Committed as `feat(balance): add Ledger::balance_at`."),
            Say("the docs site for this crate is built with mdbook, `mdbook serve docs` previews it."),
            Reply("Noted."),
            Say("should we always squash before merging? not sure it matters for a crate this size"),
            Reply("For a small crate either works; squashing keeps the history one commit per change."),
        ],
    },
    Session {
        harness: Codex,
        project: "ledger",
        steps: &[
            Say(
                "cargo build is failing on the new CI image, can you look? skip the tests this time, I just want to know if it compiles",
            ),
            Run {
                cmd: "cargo build",
                out: "   Compiling openssl-sys v0.9.103\nerror: failed to run custom build command for `openssl-sys v0.9.103`\n\nCaused by:\n  process didn't exit successfully: `target/debug/build/openssl-sys-2f1c9a/build-script-main` (exit status: 101)\n  --- stderr\n  Could not find directory of OpenSSL installation, and this `-sys` crate cannot proceed without this knowledge.",
                code: 101,
            },
            Run {
                cmd: "rg -n -A3 '^\\[features\\]' Cargo.toml",
                out: "13:[features]\n14-default = [\"openssl\"]\n15-vendored = [\"openssl/vendored\"]",
                code: 0,
            },
            Run {
                cmd: "cargo build --features vendored",
                out: "   Compiling openssl-src v300.3.1+3.3.1\n   Compiling openssl-sys v0.9.103\n   Compiling ledger v0.4.2\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1m 12s",
                code: 0,
            },
            Reply(
                "The new image has no OpenSSL headers. `cargo build --features vendored` builds OpenSSL from source and compiles fine; I didn't run the tests.",
            ),
            Say(
                "ok, makes sense. heads up, MSRV here is 1.75, so no let-chains or other newer syntax in this crate",
            ),
            Run { cmd: "rg -n rust-version Cargo.toml", out: "5:rust-version = \"1.75\"", code: 0 },
            Reply(
                "Noted, Cargo.toml has `rust-version = \"1.75\"`; I'll stick to syntax that compiles there.",
            ),
        ],
    },
    Session {
        harness: Codex,
        project: "billing-api",
        steps: &[
            Say(
                "set up the local db so I can run the invoice tests. our local db is Postgres 14 in docker, port 5433",
            ),
            Run {
                cmd: "docker compose up -d db",
                out: "[+] Running 2/2\n ✔ Network billing-api_default  Created\n ✔ Container billing-api-db-1  Started",
                code: 0,
            },
            Reply("The db container is up on port 5433."),
            Say("my editor is helix, so keybinding tips should be helix ones."),
            Reply("Will do."),
            Say("if we ever go multi-tenant we'd shard the invoices table by customer id, but not this year"),
            Reply("Makes sense to keep in mind."),
            Say(
                "in this repo tests are `uv run pytest`, and the db tests need `docker compose up -d db` first. this service uses uv for everything, please don't pip install anything into the system python",
            ),
            Run {
                cmd: "uv run pytest -q",
                out: "ImportError while loading conftest '/home/sam/src/billing-api/tests/conftest.py'.\ntests/conftest.py:1: in <module>\n    import httpx\nE   ModuleNotFoundError: No module named 'httpx'",
                code: 4,
            },
            Run {
                cmd: "uv add --dev httpx",
                out: "Resolved 41 packages in 312ms\nPrepared 3 packages in 88ms\nInstalled 3 packages in 9ms\n + h11==0.14.0\n + httpcore==1.0.7\n + httpx==0.28.1",
                code: 0,
            },
            Run {
                cmd: "uv run pytest -q",
                out: "................................                 [100%]\n32 passed in 4.81s",
                code: 0,
            },
            Reply(
                "`httpx` was missing from the dev dependencies; I added it with `uv add --dev httpx`. 32 passed.",
            ),
        ],
    },
    Session {
        harness: Cursor,
        project: "storefront",
        steps: &[
            Say(
                "the cart badge doesn't update after removing an item, can you take a look? just for this run, don't commit anything, I'll review the diff myself",
            ),
            Run {
                cmd: "npm install",
                out: "added 412 packages, and audited 413 packages in 21s\n\n89 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities",
                code: 0,
            },
            Say("no, please always use pnpm here, not npm. delete the package-lock.json it just made"),
            Run {
                cmd: "rm package-lock.json && pnpm install",
                out: "Lockfile is up to date, resolution step is skipped\nPackages: +409\nProgress: resolved 409, reused 409, downloaded 0, added 409, done\nDone in 2.3s",
                code: 0,
            },
            Read("src/components/CartBadge.tsx"),
            Edit {
                file: "src/components/CartBadge.tsx",
                old: "\tconst { items } = useCart();",
                new: "  const { items, version } = useCart();\n  useEffect(() => {}, [version]);",
            },
            Reply("The badge read a stale `items` snapshot; it now re-renders on the cart's `version`."),
            Say("state lives in redux toolkit slices in this app, one slice per page."),
            Reply("Got it."),
            Say("my manager says we should never use css-in-js, no idea why."),
            Reply("There are runtime-cost arguments against it; happy to follow whatever you decide."),
            Say(
                "indent with tabs in this repo, not spaces, your edit used spaces. the dev server runs on localhost:3000, check the cart page there",
            ),
            Edit {
                file: "src/components/CartBadge.tsx",
                old: "  const { items, version } = useCart();\n  useEffect(() => {}, [version]);",
                new: "\tconst { items, version } = useCart();\n\tuseEffect(() => {}, [version]);",
            },
            Run { cmd: "curl -s -o /dev/null -w '%{http_code}' localhost:3000/cart", out: "200", code: 0 },
            Reply(
                "Re-indented with tabs; the cart page answers 200 and the badge updates. Nothing committed.",
            ),
        ],
    },
    Session {
        harness: Codex,
        project: "admin-dashboard",
        steps: &[
            Say(
                "this one is still on yarn 1, so yarn add for deps and keep yarn.lock as is. the API for this dashboard runs on localhost:8080 locally, can you check the users endpoint responds?",
            ),
            Run {
                cmd: "yarn install --frozen-lockfile",
                out: "yarn install v1.22.22\n[1/4] Resolving packages...\nsuccess Already up-to-date.\nDone in 0.41s.",
                code: 0,
            },
            Run {
                cmd: "curl -s localhost:8080/api/users | head -c 200",
                out: "[{\"id\":1,\"email\":\"ada@example.com\",\"role\":\"admin\"},{\"id\":2,\"email\":\"lin@example.com\",\"role\":\"viewer\"}]",
                code: 0,
            },
            Reply("The users endpoint answers on localhost:8080."),
            Say(
                "2-space indentation and prettier defaults here. the API base URL comes from REACT_APP_API_URL, never hardcode hosts in the code. src/api.js has one hardcoded, fix that",
            ),
            Read("src/api.js"),
            Edit {
                file: "src/api.js",
                old: "export const API_URL = 'http://localhost:8080/api';",
                new: "export const API_URL = process.env.REACT_APP_API_URL;",
            },
            Run { cmd: "yarn prettier --write src/api.js", out: "src/api.js 38ms", code: 0 },
            Reply("`src/api.js` now reads `process.env.REACT_APP_API_URL`; formatted with prettier."),
        ],
    },
    Session {
        harness: Cursor,
        project: "ledger",
        steps: &[
            Say("fix the bug in src/balance.rs where negative amounts round the wrong way"),
            Read("src/balance.rs"),
            Edit {
                file: "src/balance.rs",
                old: "        Amount((cents as f64 / 100.0).round())",
                new: "        // Round half to even.\n        // Divide by 100 to get units.\n        Amount(round_half_even(cents))",
            },
            Run {
                cmd: "cargo nextest run balance",
                out: "    Starting 6 tests across 2 binaries (32 tests skipped)\n        PASS [   0.004s] ledger balance::tests::negative_rounds_half_even\n     Summary [   0.031s] 6 tests run: 6 passed, 32 skipped",
                code: 0,
            },
            Reply("Negative amounts now round half to even, like positive ones; added a test."),
            Say(
                "nice. fyi tests in this repo run with `cargo nextest run`, plain cargo test doesn't set up the fixtures, keep that in mind. also keep public items documented, we have #![deny(missing_docs)] on in this crate",
            ),
            Say(
                "and don't add comments that restate the code, the ones you put in round_half_even are noise",
            ),
            Edit {
                file: "src/balance.rs",
                old: "        // Round half to even.\n        // Divide by 100 to get units.\n",
                new: "",
            },
            Reply("Removed the two comments."),
        ],
    },
    Session {
        harness: Claude,
        project: "billing-api",
        steps: &[
            Say(
                "for now just hardcode the tax rate to 0.2 in invoices.py, we'll make it configurable later. and type hints on every public function please, mypy runs in CI with --strict",
            ),
            Read("app/invoices.py"),
            Edit {
                file: "app/invoices.py",
                old: "def total(subtotal: Decimal) -> Decimal:\n    return subtotal",
                new: "TAX_RATE = Decimal(\"0.2\")\n\n\ndef tax(subtotal):\n    return subtotal * TAX_RATE\n\n\ndef total(subtotal: Decimal) -> Decimal:\n    return subtotal + tax(subtotal)",
            },
            Run {
                cmd: "uv run mypy app",
                out: "app/invoices.py:13: error: Function is missing a type annotation  [no-untyped-def]\nFound 1 error in 1 file (checked 14 source files)",
                code: 1,
            },
            Edit {
                file: "app/invoices.py",
                old: "def tax(subtotal):",
                new: "def tax(subtotal: Decimal) -> Decimal:",
            },
            Run { cmd: "uv run mypy app", out: "Success: no issues found in 14 source files", code: 0 },
            Reply("Tax is a flat 0.2 for now, `tax()` is annotated and mypy --strict is clean."),
            Say(
                "Don't worry about the docs for now, just get the migration for the tax_rate column working. migrations go through alembic here; never edit a migration that's already been applied, add a new one",
            ),
            Run {
                cmd: "uv run alembic revision --autogenerate -m \"add tax_rate to invoices\"",
                out: "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.autogenerate.compare] Detected added column 'invoices.tax_rate'\n  Generating alembic/versions/3b9f1c2d7e41_add_tax_rate_to_invoices.py ...  done",
                code: 0,
            },
            Run {
                cmd: "uv run alembic upgrade head",
                out: "INFO  [alembic.runtime.migration] Running upgrade 9a1e0c6b5d22 -> 3b9f1c2d7e41, add tax_rate to invoices",
                code: 0,
            },
            Reply("Added migration 3b9f1c2d7e41 for `invoices.tax_rate` and applied it locally."),
        ],
    },
    Session {
        harness: Claude,
        project: "storefront",
        steps: &[
            Say(
                "In this repo always run tests with `make check`, never `npm test`. the checkout page imports are a mess, use the `@/` alias for imports instead of long ../../ paths",
            ),
            Read("src/pages/Checkout.tsx"),
            Edit {
                file: "src/pages/Checkout.tsx",
                old: "import { Cart } from '../components/Cart';\nimport { submitOrder } from '../../../lib/api';",
                new: "import { Cart } from '@/components/Cart';\nimport { submitOrder } from '@/lib/api';",
            },
            Run {
                cmd: "pnpm build",
                out: "src/pages/Checkout.tsx(2,29): error TS2307: Cannot find module '@/lib/api' or its corresponding type declarations.\n ELIFECYCLE  Command failed with exit code 2.",
                code: 2,
            },
            Read("tsconfig.json"),
            Edit {
                file: "tsconfig.json",
                old: "\t\t\"strict\": true,",
                new: "\t\t\"strict\": true,\n\t\t\"baseUrl\": \".\",\n\t\t\"paths\": { \"@/*\": [\"src/*\"] },",
            },
            Run {
                cmd: "pnpm build",
                out: "vite v5.4.11 building for production...\n✓ 214 modules transformed.\ndist/index.html                 0.46 kB\ndist/assets/index-4f9c1e.js   182.31 kB\n✓ built in 3.41s",
                code: 0,
            },
            Run { cmd: "make check", out: CHECK_OK, code: 0 },
            Reply(
                "Checkout imports go through `@/` now; the alias needed `paths` in tsconfig.json. `make check` passes.",
            ),
            Say("Never mind the flaky test, can you make the cart total update when quantity changes?"),
            Read("src/components/Cart.tsx"),
            Edit {
                file: "src/components/Cart.tsx",
                old: "\tconst { items, total } = useCart();",
                new: "\tconst { items } = useCart();\n\tconst total = useMemo(() => sum(items), [items]);",
            },
            Run { cmd: "make check", out: CHECK_OK, code: 0 },
            Reply("The total is derived from the items now, so it follows quantity changes."),
        ],
    },
    Session {
        harness: Cursor,
        project: "admin-dashboard",
        steps: &[
            Say(
                "tests here are `yarn test --watchAll=false`, otherwise jest sits in watch mode forever. run them, I think the users table test broke",
            ),
            Run {
                cmd: "yarn test --watchAll=false",
                out: "FAIL src/App.test.js\n  ● renders users table\n\n    ReferenceError: fetch is not defined\n\n      5 |   useEffect(() => {\n    > 6 |     fetch(`${API_URL}/users`).then((r) => r.json()).then(setUsers);\n\nTests:       1 failed, 7 passed, 8 total",
                code: 1,
            },
            Run {
                cmd: "grep -rn \"fetch(\" .",
                out: "./src/App.js:6:    fetch(`${API_URL}/users`).then((r) => r.json()).then(setUsers);\n./src/api.js:4:  const res = await fetch(`${API_URL}/users`);\n./node_modules/whatwg-fetch/dist/fetch.umd.js:512:  function fetch(input, init) {\n./node_modules/node-fetch/lib/index.js:1458:function fetch(url, opts) {",
                code: 0,
            },
            Say("for searching, use ripgrep, grep -r is way too slow on these node_modules-heavy repos"),
            Run {
                cmd: "rg -n \"fetch\\(\" src",
                out: "src/App.js:6:    fetch(`${API_URL}/users`).then((r) => r.json()).then(setUsers);\nsrc/api.js:4:  const res = await fetch(`${API_URL}/users`);",
                code: 0,
            },
            Read("src/setupTests.js"),
            Edit {
                file: "src/setupTests.js",
                old: "import '@testing-library/jest-dom';",
                new: "import '@testing-library/jest-dom';\nimport 'whatwg-fetch';",
            },
            Run {
                cmd: "yarn test --watchAll=false",
                out: "PASS src/App.test.js\nPASS src/UsersTable.test.js\n\nTests:       8 passed, 8 total\nTime:        2.93 s",
                code: 0,
            },
            Reply(
                "jsdom has no `fetch`; `src/setupTests.js` now imports the `whatwg-fetch` polyfill. 8 passed.",
            ),
        ],
    },
    Session {
        harness: Cursor,
        project: "billing-api",
        steps: &[
            Say("the due date test keeps failing on my laptop but passes in CI, can you figure out why?"),
            Run {
                cmd: "uv run pytest tests/test_invoices.py",
                out: "F....                                            [100%]\n=================================== FAILURES ===================================\n________________________________ test_due_date _________________________________\n>       assert invoice.due_date.isoformat() == \"2026-02-28\"\nE       AssertionError: assert '2026-03-01' == '2026-02-28'\n=========================== short test summary info ============================\nFAILED tests/test_invoices.py::test_due_date - AssertionError: assert '2026-03-01' == '2026-02-28'\n1 failed, 4 passed in 0.91s",
                code: 1,
            },
            Read("tests/test_invoices.py"),
            Run {
                cmd: "TZ=UTC uv run pytest tests/test_invoices.py",
                out: ".....                                            [100%]\n5 passed in 0.88s",
                code: 0,
            },
            Reply(
                "`make_invoice` parses the issue date in local time; on your laptop (UTC+1) that lands a day later. CI runs in UTC. With `TZ=UTC` it passes.",
            ),
            Say(
                "ok so it's a timezone thing, good to know. formatting is ruff here, line length 100, don't run black on it. and next time ask me before adding any new dependency, even dev ones",
            ),
            Run {
                cmd: "uv run ruff format app tests",
                out: "2 files reformatted, 12 files left unchanged",
                code: 0,
            },
            Reply("Formatted with ruff. I'll ask before adding dependencies."),
        ],
    },
    Session {
        harness: Codex,
        project: "storefront",
        steps: &[
            Say(
                "add a QuantityStepper component for the cart rows. components go in src/components, one per file, named exports only, no default exports. I prefer British spelling in UI copy, so colour, favourite, etc.",
            ),
            Edit {
                file: "src/components/QuantityStepper.tsx",
                old: "",
                new: "export function QuantityStepper({ value, onChange }: Props) {\n\treturn (\n\t\t<div className=\"stepper\" aria-label=\"Change quantity\">\n\t\t\t<button onClick={() => onChange(value - 1)}>-</button>\n\t\t\t<span>{value}</span>\n\t\t\t<button onClick={() => onChange(value + 1)}>+</button>\n\t\t</div>\n\t);\n}\n",
            },
            Run { cmd: "make check", out: CHECK_OK, code: 0 },
            Reply("Added `QuantityStepper` as a named export in src/components/QuantityStepper.tsx."),
            Say("looks good, push the branch and open a PR. never force-push to main btw"),
            Run {
                cmd: "git switch -c feat/quantity-stepper && git commit -am \"feat(cart): add QuantityStepper\"",
                out: "Switched to a new branch 'feat/quantity-stepper'\n[feat/quantity-stepper 8d0b1e4] feat(cart): add QuantityStepper\n 1 file changed, 10 insertions(+)",
                code: 0,
            },
            Run {
                cmd: "git push -u origin feat/quantity-stepper",
                out: "To github.com:samdev/storefront.git\n * [new branch]      feat/quantity-stepper -> feat/quantity-stepper\nbranch 'feat/quantity-stepper' set up to track 'origin/feat/quantity-stepper'.",
                code: 0,
            },
            Run { cmd: "gh pr create --fill", out: "https://github.com/samdev/storefront/pull/142", code: 0 },
            Reply("Pushed `feat/quantity-stepper` and opened PR #142."),
        ],
    },
    Session {
        harness: Claude,
        project: "ledger",
        steps: &[
            Say(
                "we bumped the MSRV to 1.82 last week, so ignore what I said before about the old one. let-chains are fine now, can you refactor parse_amount to use them?",
            ),
            Read("src/parse.rs"),
            Edit {
                file: "src/parse.rs",
                old: "    if let Some((units, cents)) = text.split_once('.') {\n        if cents.len() == 2 {",
                new: "    if let Some((units, cents)) = text.split_once('.')\n        && cents.len() == 2\n    {\n        {",
            },
            Run {
                cmd: "cargo clippy --all-targets -- -D warnings",
                out: "    Checking ledger v0.4.2\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.02s",
                code: 0,
            },
            Run { cmd: "cargo nextest run", out: NEXTEST_OK, code: 0 },
            Reply("`parse_amount` uses a let-chain now; clippy is clean and the tests pass."),
        ],
    },
    Session {
        harness: Codex,
        project: "billing-api",
        steps: &[
            Say(
                "we moved to Postgres 16, ignore the 14 stuff. the compose file is already updated, can you recreate the db container and rerun the tests? and don't run the migrations against staging today, the DBA is doing maintenance",
            ),
            Run {
                cmd: "docker compose down -v && docker compose up -d db",
                out: "[+] Running 2/2\n ✔ Container billing-api-db-1  Removed\n ✔ Volume billing-api_pgdata  Removed\n[+] Running 1/1\n ✔ Container billing-api-db-1  Started",
                code: 0,
            },
            Run {
                cmd: "uv run alembic upgrade head",
                out: "INFO  [alembic.runtime.migration] Running upgrade  -> 9a1e0c6b5d22, initial\nINFO  [alembic.runtime.migration] Running upgrade 9a1e0c6b5d22 -> 3b9f1c2d7e41, add tax_rate to invoices",
                code: 0,
            },
            Run {
                cmd: "uv run pytest -q",
                out: ".................................                [100%]\n33 passed in 5.02s",
                code: 0,
            },
            Reply("Recreated the db on Postgres 16, migrated the local database only, 33 passed."),
        ],
    },
    Session {
        harness: Claude,
        project: "storefront",
        steps: &[
            Say(
                "the dev server is on 5173 now, the port changed when we dropped the custom server. can you check the checkout page still renders? when you finish a change, give me a short summary of what changed and why, not a wall of text",
            ),
            Run {
                cmd: "curl -s -o /dev/null -w '%{http_code}' localhost:5173/checkout",
                out: "200",
                code: 0,
            },
            Reply("Checkout renders (200 on localhost:5173/checkout). No changes."),
            Say("we dropped redux last week, shared state goes through zustand stores now."),
            Reply("Understood."),
            Say("let's just rewrite the checkout in haskell lol. anyway, it renders, good"),
            Reply("Ha. Nothing to change then."),
        ],
    },
    Session {
        harness: Claude,
        project: "admin-dashboard",
        steps: &[
            Say("the API moved to 8081 after the proxy change, update the README and your mental model"),
            Read("README.md"),
            Edit { file: "README.md", old: "localhost:8080", new: "localhost:8081" },
            Run { cmd: "curl -s localhost:8081/api/health", out: "{\"status\":\"ok\"}", code: 0 },
            Reply("README says 8081 now; the health endpoint answers there."),
            Say("commit it. no emojis in commit messages or code comments, please"),
            Run {
                cmd: "git commit -am \"docs: API runs on 8081\"",
                out: "[main 71c0e2b] docs: API runs on 8081\n 1 file changed, 1 insertion(+), 1 deletion(-)",
                code: 0,
            },
            Reply("Committed `docs: API runs on 8081`."),
            Say("forget my earlier note about my editor, I'm back on neovim."),
            Reply("Noted."),
            Say("at my last job we always deployed on fridays, what a mess that was."),
            Reply("Sounds painful."),
        ],
    },
    Session {
        harness: Codex,
        project: "ledger",
        steps: &[
            Say(
                "there's an off-by-one in the statement export, the last day of the month is missing. when fixing a bug, write a failing test first, then the fix",
            ),
            Read("src/export.rs"),
            Edit {
                file: "src/export.rs",
                old: "",
                new: "\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn includes_last_day_of_month() {\n        assert_eq!(month(&ledger(), jan(1), jan(31)).len(), 3);\n    }\n}\n",
            },
            Run {
                cmd: "cargo nextest run export",
                out: "        FAIL [   0.005s] ledger export::tests::includes_last_day_of_month\n  thread 'export::tests::includes_last_day_of_month' panicked at src/export.rs:12:9:\n  assertion `left == right` failed\n  left: 2\n right: 3\n     Summary [   0.044s] 4 tests run: 3 passed, 1 failed, 34 skipped\nerror: test run failed",
                code: 100,
            },
            Edit { file: "src/export.rs", old: "(first..last)", new: "(first..=last)" },
            Run {
                cmd: "cargo nextest run export",
                out: "     Summary [   0.039s] 4 tests run: 4 passed, 34 skipped",
                code: 0,
            },
            Reply("Added a failing test for the last day, then made the range inclusive. 4 passed."),
            Say("scratch what I said about the docs tool, the site moved to zola, `zola serve docs` now."),
            Reply("Noted."),
            Say("the vpn password is Blue-Otter-77 if the registry asks."),
            Reply("I won't store that; you can paste it when the registry prompts."),
        ],
    },
];
