//! The user's repositories: real git checkouts with a remote, each with the files its sessions
//! read and edit.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A repository of the scenario.
#[derive(Debug)]
pub(crate) struct Repo {
    pub(crate) name: &'static str,
    pub(crate) files: &'static [(&'static str, &'static str)],
}

/// The four projects the sessions work in: a Rust crate, a Python service on uv, a pnpm web app
/// and an older yarn dashboard.
pub(crate) const REPOS: &[Repo] = &[
    Repo {
        name: "ledger",
        files: &[
            (
                "Cargo.toml",
                "[package]\nname = \"ledger\"\nversion = \"0.4.2\"\nedition = \"2021\"\nrust-version = \"1.75\"\n\n[dependencies]\nchrono = \"0.4\"\nthiserror = \"1\"\nopenssl = { version = \"0.10\", optional = true }\n\n[features]\ndefault = [\"openssl\"]\nvendored = [\"openssl/vendored\"]\n",
            ),
            (
                "src/lib.rs",
                "#![deny(missing_docs)]\n//! Double-entry ledger.\n\nmod balance;\nmod error;\nmod export;\nmod parse;\n\npub use balance::Ledger;\npub use error::LedgerError;\n",
            ),
            (
                "src/balance.rs",
                "use crate::error::LedgerError;\n\n/// A ledger of postings.\npub struct Ledger {\n    postings: Vec<Posting>,\n}\n\nimpl Ledger {\n    /// The balance over every posting.\n    pub fn balance(&self) -> Amount {\n        let cents: i64 = self.postings.iter().map(|p| p.cents).sum();\n        Amount((cents as f64 / 100.0).round())\n    }\n}\n",
            ),
            (
                "src/error.rs",
                "/// What can go wrong.\n#[derive(Debug, thiserror::Error)]\npub enum LedgerError {\n    #[error(\"invalid amount: {0}\")]\n    InvalidAmount(String),\n}\n",
            ),
            (
                "src/export.rs",
                "/// Postings of one month, for the statement.\npub fn month(ledger: &Ledger, first: NaiveDate, last: NaiveDate) -> Vec<&Posting> {\n    ledger.postings.iter().filter(|p| (first..last).contains(&p.date)).collect()\n}\n",
            ),
            (
                "src/parse.rs",
                "/// Parses `12.34` into cents.\npub fn parse_amount(text: &str) -> Result<i64, LedgerError> {\n    if let Some((units, cents)) = text.split_once('.') {\n        if cents.len() == 2 {\n            return Ok(units.parse::<i64>()? * 100 + cents.parse::<i64>()?);\n        }\n    }\n    Err(LedgerError::InvalidAmount(text.to_owned()))\n}\n",
            ),
            (
                "README.md",
                "# ledger\n\nDouble-entry bookkeeping in Rust. `cargo nextest run` runs the tests.\n",
            ),
        ],
    },
    Repo {
        name: "billing-api",
        files: &[
            (
                "pyproject.toml",
                "[project]\nname = \"billing-api\"\nversion = \"1.8.0\"\nrequires-python = \">=3.12\"\ndependencies = [\"fastapi\", \"sqlalchemy\", \"alembic\", \"psycopg[binary]\"]\n\n[tool.ruff]\nline-length = 100\n\n[tool.mypy]\nstrict = true\n",
            ),
            ("uv.lock", "version = 1\nrequires-python = \">=3.12\"\n"),
            ("app/__init__.py", ""),
            (
                "app/invoices.py",
                "from datetime import date, timedelta\nfrom decimal import Decimal\n\n\ndef due_date(issued: date, days: int = 30) -> date:\n    return issued + timedelta(days=days)\n\n\ndef total(subtotal: Decimal) -> Decimal:\n    return subtotal\n",
            ),
            ("tests/conftest.py", "import httpx\nimport pytest\n"),
            (
                "tests/test_invoices.py",
                "from app.invoices import due_date\n\n\ndef test_due_date():\n    invoice = make_invoice(issued=\"2026-01-29\")\n    assert invoice.due_date.isoformat() == \"2026-02-28\"\n",
            ),
            (
                "docker-compose.yml",
                "services:\n  db:\n    image: postgres:14\n    ports:\n      - \"5433:5432\"\n",
            ),
            ("alembic.ini", "[alembic]\nscript_location = alembic\n"),
        ],
    },
    Repo {
        name: "storefront",
        files: &[
            (
                "package.json",
                "{\n\t\"name\": \"storefront\",\n\t\"private\": true,\n\t\"packageManager\": \"pnpm@9.12.0\",\n\t\"scripts\": {\n\t\t\"dev\": \"vite\",\n\t\t\"build\": \"tsc -b && vite build\",\n\t\t\"lint\": \"eslint .\",\n\t\t\"typecheck\": \"tsc --noEmit\"\n\t}\n}\n",
            ),
            ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
            ("Makefile", "check:\n\tpnpm lint && pnpm typecheck && pnpm vitest run\n"),
            (
                "tsconfig.json",
                "{\n\t\"compilerOptions\": {\n\t\t\"strict\": true,\n\t\t\"jsx\": \"react-jsx\"\n\t}\n}\n",
            ),
            (
                "vite.config.ts",
                "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\n\nexport default defineConfig({ plugins: [react()] });\n",
            ),
            (
                "src/components/CartBadge.tsx",
                "import { useCart } from '../../hooks/useCart';\n\nexport function CartBadge() {\n\tconst { items } = useCart();\n\treturn <span className=\"badge\">{items.length}</span>;\n}\n",
            ),
            (
                "src/components/Cart.tsx",
                "import { useCart } from '../../hooks/useCart';\n\nexport function Cart() {\n\tconst { items, total } = useCart();\n\treturn <CartRows items={items} total={total} />;\n}\n",
            ),
            (
                "src/pages/Checkout.tsx",
                "import { Cart } from '../components/Cart';\nimport { submitOrder } from '../../../lib/api';\n\nexport function Checkout() {\n\treturn <Cart onSubmit={submitOrder} />;\n}\n",
            ),
        ],
    },
    Repo {
        name: "admin-dashboard",
        files: &[
            (
                "package.json",
                "{\n  \"name\": \"admin-dashboard\",\n  \"private\": true,\n  \"scripts\": {\n    \"start\": \"react-scripts start\",\n    \"test\": \"react-scripts test\"\n  }\n}\n",
            ),
            (
                "yarn.lock",
                "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n",
            ),
            (".prettierrc", "{}\n"),
            (
                "src/App.js",
                "import { useEffect, useState } from 'react';\nimport { API_URL } from './api';\n\nexport default function App() {\n  const [users, setUsers] = useState([]);\n  useEffect(() => {\n    fetch(`${API_URL}/users`).then((r) => r.json()).then(setUsers);\n  }, []);\n  return <UsersTable users={users} />;\n}\n",
            ),
            (
                "src/api.js",
                "export const API_URL = 'http://localhost:8080/api';\n\nexport async function listUsers() {\n  const res = await fetch(`${API_URL}/users`);\n  return res.json();\n}\n",
            ),
            ("src/setupTests.js", "import '@testing-library/jest-dom';\n"),
            ("README.md", "# admin-dashboard\n\nStart the API on localhost:8080, then `yarn start`.\n"),
        ],
    },
];

/// Creates every repository under `src` as a git checkout with one commit and an `origin`.
pub(crate) fn create(src: &Path, home: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut roots = Vec::new();
    for repo in REPOS {
        let root = src.join(repo.name);
        for (file, text) in repo.files {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("files sit in a folder"))?;
            std::fs::write(path, text)?;
        }
        init(&root, home, repo.name)?;
        roots.push(root);
    }
    Ok(roots)
}

/// Makes `root` a git repository with one commit and a GitHub `origin`.
pub(crate) fn init(root: &Path, home: &Path, name: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(root)?;
    let remote = format!("git@github.com:samdev/{name}.git");
    for args in [
        vec!["init", "-q", "-b", "main"],
        vec!["add", "-A"],
        vec!["commit", "-q", "--allow-empty", "-m", "initial import"],
        vec!["remote", "add", "origin", remote.as_str()],
    ] {
        let status = Command::new("git")
            .args(["-c", "user.name=Sam", "-c", "user.email=sam@example.com", "-c", "commit.gpgsign=false"])
            .args(&args)
            .current_dir(root)
            .env("HOME", home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .status()?;
        anyhow::ensure!(status.success(), "git {args:?} failed in {}", root.display());
    }
    Ok(())
}
