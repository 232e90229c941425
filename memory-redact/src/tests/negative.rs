//! The negative corpus: ordinary code, ids, paths and prose pass through unchanged.

use serde_json::json;

use super::super::Redactor;
use super::tool_event;

const RUST_LOGIN: &str = r#"fn login(user: &str, password: &str) -> Result<Session, Error> {
    let password = password.trim();
    if password.is_empty() {
        return Err(Error::EmptyPassword);
    }
    let token = self.issue_token(user)?;
    let api_key: Option<String> = None;
    let secret = match vault.get("db") { Some(s) => s, None => return Err(Error::NoSecret) };
    verify(user, &password, token, secret)
}
struct Config {
    api_token: Option<String>,
    password_file: PathBuf,
}
"#;

const GIT_LOG: &str = "commit 9fceb02d0ae598e95dc970b74767f19372d61af8
Author: Alice Example <alice@example.com>
Date:   Tue Aug 11 14:03:22 2026 +0200

    retry: stop doubling the backoff twice

commit e83c5163316f89bfbde7d9ab23ca2e25604af290
Merge: 1b2c3d4 5e6f7a8
Author: Bob Example <bob@example.com>

    Merge pull request #42 from acme/fix-tokenizer
";

const CARGO: &str = "   Compiling serde v1.0.219
   Compiling agent-memory v0.1.0 (/home/alice/src/agent-memory/cli)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.21s
     Running unittests src/main.rs (target/debug/deps/agent_memory-5f0c2d9a8b7e6f41)
test redact::tests::corpus ... ok
";

const PROSE: &str = "The tokenizer splits text into tokens; set max_tokens=1024 for longer answers. \
Reset your password at https://example.com/account/password-reset before Friday. \
token: the bearer token used for auth is rotated daily. Authorization: required for every endpoint. \
We keep the secret sauce in the README, and the password policy asks for 12 characters.";

const TYPESCRIPT: &str = "const token = await getToken();
const headers = { Authorization: `Bearer ${token}` };
const password = process.env.DB_PASSWORD;
export const secretName = 'prod/db';
";

const PYTHON: &str = r#"password = getpass.getpass("Password: ")
token = os.environ["GITHUB_TOKEN"]
client = Client(api_key=settings.api_key, password=None)
"#;

const CONFIG: &str = "PWD=/home/alice/src/acme-api
OLDPWD=/home/alice
PATH=/usr/local/bin:/usr/bin:/bin
RUST_LOG=agent_memory=debug,info
CARGO_PKG_VERSION=0.1.0
GIT_COMMIT=9fceb02d0ae598e95dc970b74767f19372d61af8
token_type: Bearer
password_file = \"/run/secrets/db\"
secretName: db-creds
token: \"\"
";

const IDS: &str =
    "session 3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b started in /Users/alice/src/acme-api/src/http/retry.rs
image ghcr.io/acme/api@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
\"integrity\": \"sha512-Q9pLmYxG3oVnJz7Kb1Z0qXwT5uRsD8eF2hA4cB6nM1kL9jH3gE5dC7bA0zY2xW4vU6tS8rQ0pO\"
git clone git@github.com:acme/api.git && kubectl get secret db-creds -o yaml
C:\\Users\\alice\\AppData\\Local\\acme\\config.toml
";

const NEGATIVE: &[&str] = &[RUST_LOGIN, GIT_LOG, CARGO, PROSE, TYPESCRIPT, PYTHON, CONFIG, IDS];

#[test]
fn ordinary_text_is_returned_borrowed_and_unchanged() {
    let redactor = Redactor::new();
    for text in NEGATIVE {
        let out = redactor.redact_text(text);
        assert_eq!(out.as_ref(), *text);
        assert!(matches!(out, std::borrow::Cow::Borrowed(_)), "copied although unchanged");
    }
    assert!(redactor.totals().is_empty(), "{}", redactor.totals());
}

#[test]
fn ordinary_events_are_unchanged() {
    let redactor = Redactor::new();
    for text in NEGATIVE {
        let mut event = tool_event(text, json!({"stdout": text, "stderr": ""}), Some(text));
        let before = event.clone();
        let counts = redactor.redact_event(&mut event, 64 * 1024);
        assert_eq!(event, before);
        assert!(counts.is_empty(), "{counts}");
    }
}

#[test]
fn a_commit_id_after_commit_survives() {
    let redactor = Redactor::new();
    let text = "fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8, see the log";
    assert_eq!(redactor.redact_text(text), text);
}

#[test]
fn a_task_named_after_secrets_is_no_secret() {
    let redactor = Redactor::new();
    for text in [
        "we keep secrets in `bin/rails credentials:edit --environment staging`, nothing in .env files",
        "the nightly job runs `bundle exec rake secrets:rotate` on the bastion",
        "clean up with `mix tokens:prune --older-than 30d` before the release",
    ] {
        assert_eq!(redactor.redact_text(text), text);
    }
    // A value a secret could be, or a key that names one secret, is still taken out.
    for text in ["credentials:hunter2", "password:letmein", "credentials:S3cretValue"] {
        assert_ne!(redactor.redact_text(text), text, "{text}");
    }
}
