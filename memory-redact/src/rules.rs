//! The built-in secret rules: one pattern each, the literals that must occur for it to apply, and
//! what part of a match becomes the marker.
//!
//! Rules run in order; provider formats come before generic assignments and the entropy check,
//! so a token gets its most specific marker. Patterns use ASCII classes only, which keeps them
//! small to compile and fast to run.

use std::fmt;
use std::ops::Range;

use regex::Captures;

use super::{catalog, entropy, formats, is_marker, keywords};

/// A replacement: the bytes to replace and the kind of secret they hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hit {
    pub(super) range: Range<usize>,
    pub(super) kind: &'static str,
}

/// What part of a match a rule replaces.
#[derive(Clone, Copy)]
pub(super) enum Accept {
    /// One capture group.
    Group(usize),
    /// Decided by a function of the captures and the whole text.
    Check(fn(&Captures<'_>, &str, &'static str) -> Option<Hit>),
}

/// One secret rule.
pub(super) struct Rule {
    /// Marker kind (`[REDACTED:<kind>]`); checks may choose a more precise one.
    pub(super) kind: &'static str,
    /// Literals of which at least one must occur for the rule to run; empty: always. An
    /// all-lowercase literal matches in any case, one with capitals exactly as written.
    pub(super) triggers: &'static [&'static str],
    /// The pattern, compiled on first use.
    pub(super) pattern: &'static str,
    /// What to replace.
    pub(super) accept: Accept,
    /// A cheaper test the text must pass for the pattern to match at all (a necessary condition,
    /// never a sufficient one), checked after the triggers and before the pattern is compiled.
    pub(super) gate: Option<fn(&[u8]) -> bool>,
}

/// Finds, in one pass over a text, which rules have a trigger literal in it.
pub(super) struct TriggerIndex {
    /// Trigger literals by their lowercased first byte: `(literal, rule bit, exact case)`.
    by_first_byte: Vec<Vec<(&'static [u8], u64, bool)>>,
    /// Rules without triggers, which always run.
    always: u64,
}

impl TriggerIndex {
    /// Indexes the triggers of `rules` (at most 64 rules).
    pub(super) fn new(rules: &[Rule]) -> Self {
        assert!(rules.len() <= 64, "the trigger bit set holds 64 rules");
        let mut by_first_byte = vec![Vec::new(); 256];
        let mut always = 0;
        for (index, rule) in rules.iter().enumerate() {
            let bit = 1u64 << index;
            if rule.triggers.is_empty() {
                always |= bit;
            }
            for trigger in rule.triggers {
                let bytes = trigger.as_bytes();
                let exact = bytes.iter().any(u8::is_ascii_uppercase);
                by_first_byte[usize::from(bytes[0].to_ascii_lowercase())].push((bytes, bit, exact));
            }
        }
        Self { by_first_byte, always }
    }

    /// The bit set (bit `i` for rule `i`) of rules that may match `text`.
    pub(super) fn scan(&self, text: &str) -> u64 {
        let bytes = text.as_bytes();
        let mut found = self.always;
        for (at, byte) in bytes.iter().enumerate() {
            for &(literal, bit, exact) in &self.by_first_byte[usize::from(byte.to_ascii_lowercase())] {
                let Some(here) = bytes.get(at..at + literal.len()) else { continue };
                if found & bit == 0
                    && (if exact { here == literal } else { here.eq_ignore_ascii_case(literal) })
                {
                    found |= bit;
                }
            }
        }
        found
    }
}

impl fmt::Debug for TriggerIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let literals: usize = self.by_first_byte.iter().map(Vec::len).sum();
        f.debug_struct("TriggerIndex").field("literals", &literals).finish()
    }
}

impl Rule {
    /// The replacement for one match, if the match is a secret.
    pub(super) fn accept(&self, caps: &Captures<'_>, text: &str) -> Option<Hit> {
        let m = match self.accept {
            Accept::Group(n) => caps.get(n)?,
            Accept::Check(check) => return check(caps, text, self.kind),
        };
        let range = after_escape(m);
        (!is_marker(&text[range.clone()])).then_some(Hit { range, kind: self.kind })
    }
}

const fn rule(
    kind: &'static str,
    triggers: &'static [&'static str],
    pattern: &'static str,
    accept: Accept,
) -> Rule {
    Rule { kind, triggers, pattern, accept, gate: None }
}

impl Rule {
    /// The rule, run only on texts that pass `gate` (see [`Rule::gate`]).
    const fn gated(self, gate: fn(&[u8]) -> bool) -> Rule {
        Rule { gate: Some(gate), ..self }
    }
}

/// Whether `text` holds an upper-case name with an underscore followed, somewhere after, by a
/// colon: what `[A-Z][A-Z0-9]*_[A-Z0-9_]+` then `:` needs. Payload keys (`session_id`,
/// `tool_use_id`) have the underscore, in lower case, so they pass the trigger but not this.
pub(super) fn upper_snake_then_colon(text: &[u8]) -> bool {
    let Some(last_colon) = text.iter().rposition(|&b| b == b':') else { return false };
    let upper_or_digit = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit();
    text[..last_colon]
        .windows(3)
        .any(|w| w[1] == b'_' && upper_or_digit(w[0]) && (upper_or_digit(w[2]) || w[2] == b'_'))
}

/// Optional quote around a name or value, plain or JSON-escaped.
macro_rules! q {
    () => {
        r#"(?:\\?["'`])?"#
    };
}

/// Start of a token: a word boundary, or a JSON escape (`\n`, `\t`) written out in text.
macro_rules! lb {
    () => {
        r"(?:\\[nrt]|(?-u:\b))"
    };
}

/// How many of [`RULES`] run before the catalog's token formats (PEM blocks).
pub(super) const PROVIDERS_AFTER: usize = 1;

/// The built-in rules, in the order they run; the catalog's token formats run after the first
/// [`PROVIDERS_AFTER`].
pub(super) static RULES: &[Rule] = &[
    rule(
        "private-key",
        &["private key"],
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
        Accept::Check(pem_block),
    ),
    rule(
        "discord-bot-token",
        &["MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"],
        r"(?-u:\b)(?:MT|Mj|Mz|ND|NT|Nj|Nz|OD|OT)[A-Za-z0-9_\-]{21,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}",
        Accept::Check(formats::discord),
    ),
    rule(
        "prefixed-token",
        &[
            "_live_",
            "_test_",
            "_prod_",
            "_production_",
            "_staging_",
            "_stage_",
            "_dev_",
            "_sk_",
            "_pk_",
            "_rk_",
            "_secret_",
            "_key_",
            "_api_",
            "_token_",
            "_tok_",
            "_pat_",
        ],
        concat!(
            r"(?-u:\b)[A-Za-z][A-Za-z0-9_]{0,30}_(?:live|test|prod|production|staging|stage|dev|sk|pk|rk",
            r"|secret|key|api|token|tok|pat)_(?P<tail>[A-Za-z0-9]{16,})(?-u:\b)"
        ),
        Accept::Check(formats::prefixed_token),
    ),
    rule(
        "url-credentials",
        &["://"],
        r#"(?:\\[nrt]|(?-u:\b))(?P<scheme>(?i-u:[a-z][a-z0-9+.\-]*))://(?P<user>[^\s:/?#@"'<>\[\]]*):(?P<pass>[^\s/?#@"'<>]+)@"#,
        Accept::Check(url_credentials),
    ),
    rule(
        "basic-auth",
        &["-u ", "-u\t", "--user ", "--user\t"],
        r#"(?:^|[ \t])(?:-u|--user)[ \t]+["']?[^ \t\r\n:"']+:([^ \t\r\n"']+)"#,
        Accept::Group(1),
    ),
    rule(
        "bearer-token",
        &["authorization"],
        concat!(
            r"(?i-u:(?:proxy-)?authorization)",
            q!(),
            r"[ \t]*[:=][ \t]*",
            q!(),
            r#"(?P<scheme>[A-Za-z][A-Za-z0-9_\-]{0,30}[ \t]+)?(?P<cred>[^ \t\r\n",;`\\]{6,})"#
        ),
        Accept::Check(authorization),
    ),
    rule(
        "bearer-token",
        &["bearer"],
        concat!(lb!(), r"[Bb]earer[ \t]+([A-Za-z0-9_\-.~+/]{16,}=*)"),
        Accept::Check(bearer),
    ),
    rule(
        "netrc-password",
        &["password"],
        r"(?:^|[ \t]|\\[nt])password[ \t]+(?P<val>[^ \t\r\n\\]+)",
        Accept::Check(formats::netrc),
    ),
    rule(
        "pgpass-password",
        &[":0", ":1", ":2", ":3", ":4", ":5", ":6", ":7", ":8", ":9", ":*:"],
        r"(?m)(?:^|\\n){line_prefix}(?P<host>[A-Za-z0-9_.\-]+|\*):(?:[0-9]{1,5}|\*):[^:\s\\]+:[^:\s\\]+:(?P<pass>[^\s\\]+)",
        Accept::Check(formats::pgpass),
    ),
    rule(
        "password",
        &["mysql", "mariadb"],
        concat!(
            r"(?-u:\b)(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mariadb",
            r#"|mariadb-dump)(?:[ \t]+[^ \t\r\n|;&]+)*?[ \t]+-p(?P<val>'[^'\r\n]*'|"[^"\r\n]*"|[^ \t\r\n'"|;&\\]+)"#
        ),
        Accept::Check(formats::inline_password),
    ),
    rule(
        "password",
        &["sshpass"],
        concat!(
            r"(?-u:\b)sshpass(?:[ \t]+-[A-Za-oq-z][^ \t\r\n]*)*[ \t]+-p[ \t]*",
            r#"(?P<val>'[^'\r\n]*'|"[^"\r\n]*"|[^ \t\r\n'"|;&\\]+)"#
        ),
        Accept::Check(formats::inline_password),
    ),
    rule(
        "docker-auth",
        &["auth"],
        r#"\\?"auth\\?"[ \t]*:[ \t]*\\?"(?P<val>[A-Za-z0-9+/]{6,}={0,2})\\?""#,
        Accept::Check(formats::docker_auth),
    ),
    rule(
        "kubernetes-secret",
        &["kind: Secret"],
        r#"(?m)^\+?(?P<indent>[ \t]+)[A-Za-z0-9_.\-]+[ \t]*:[ \t]*(?P<val>"[^"\r\n]*"|'[^'\r\n]*'|[^ \t\r\n#][^\r\n]*?)[ \t]*\r?$"#,
        Accept::Check(formats::kubernetes_secret),
    ),
    rule(
        "kubernetes-secret",
        &["\"Secret"],
        r#"\\?"(?:data|stringData|binaryData)\\?"[ \t]*:[ \t]*\{(?P<body>[^{}]*)\}"#,
        Accept::Check(formats::kubernetes_secret_json),
    ),
    rule(
        "password",
        &[
            "password",
            "passwd",
            "pwd",
            "secret",
            "token",
            "api_key",
            "api-key",
            "apikey",
            "access_key",
            "access-key",
            "accesskey",
            "auth_key",
            "authkey",
            "private_key",
            "private-key",
            "privatekey",
            "credential",
        ],
        concat!(
            r"(?P<key>(?i-u:[a-z0-9_.\-]*?(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key",
            r"|auth[_\-]?key|private[_\-]?key|credentials?)[a-z0-9_.\-]*))",
            q!(),
            r"[ \t]*(?P<op>:=|=>|=|:)[ \t]*",
            r#"(?P<val>\\"[^"\\\r\n]*\\"|"(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'"#,
            r#"|[^ \t\r\n"'`,;&<>(){}\[\]|=\\][^ \t\r\n"'`,;&<>(){}\[\]|\\]*)"#
        ),
        Accept::Check(assignment),
    ),
    rule(
        "password",
        &["password", "passwd", "token", "secret", "api-key", "apikey", "access-key"],
        concat!(
            r"(?:^|[ \t])--(?P<key>(?i-u:[a-z0-9\-]*(?:password|passwd|token|secret|api-key|apikey|access-key)",
            r#"[a-z0-9\-]*))[ \t]+(?P<val>"[^"\r\n]*"|'[^'\r\n]*'|[^ \t\r\n"'\-][^ \t\r\n"']*)"#
        ),
        Accept::Check(cli_flag),
    ),
    rule(
        "password",
        &[" / "],
        r#"(?-u:\b)(?P<user>[A-Za-z0-9_.@+\-]{2,64})[ \t]+/[ \t]+(?P<pass>[^ \t\r\n/'"`<>()\[\]{}]{8,64})"#,
        Accept::Check(formats::prose_login),
    ),
    rule(
        "password",
        &["password", "passwd", "passphrase", "passcode", "pw ", "wifi", "wi-fi"],
        concat!(
            r"(?i-u:\b(?:password|passwd|passphrase|passcode|pw|wifi|wi-fi)",
            // Where or when it holds, between the word and its value ("the password here is …",
            // "the wifi password at the office is …", "the db password currently is …").
            r"(?:[ \t]+(?:(?:for|of|to|on|at|in)[ \t]+(?:the[ \t]+|our[ \t]+|my[ \t]+)?[A-Za-z0-9_.\-]+",
            r"|here|there|now|currently|today|still|again|atm|these[ \t]+days|right[ \t]+now)){0,2}",
            r"[ \t]+(?:is|was|would be|should be|will be))[ \t]*:?[ \t]+",
            r#"(?P<val>"[^"\r\n]*"|'[^'\r\n]*'|`[^`\r\n]*`|[^ \t\r\n"'`]+)"#
        ),
        Accept::Check(formats::stated_password),
    ),
    rule(
        "high-entropy",
        &["="],
        concat!(
            r"(?:^|\\[nrt]|[^A-Za-z0-9_$])(?:export[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*",
            r#"(?P<val>\\"[^"\\\r\n]*\\"|"[^"\r\n]*"|'[^'\r\n]*'|[^ \t\r\n"'\\&;,)}\]>]+)"#
        ),
        Accept::Check(env_line),
    ),
    rule(
        "high-entropy",
        &["_"],
        concat!(
            r#"(?:^|\\[nrt]|[^A-Za-z0-9_$])(?P<name>[A-Z][A-Z0-9]*_[A-Z0-9_]+)\\?["']?[ \t]*:[ \t]*"#,
            r#"(?P<val>\\"[^"\\\r\n]*\\"|"[^"\r\n]*"|'[^'\r\n]*'|[^ \t\r\n"'\\&;,)}\]>]+)"#
        ),
        Accept::Check(env_line),
    )
    .gated(upper_snake_then_colon),
];

/// Database URL schemes: credentials in these get the `db-credentials` kind.
const DB_SCHEMES: &[&str] = &[
    "postgres",
    "postgresql",
    "mysql",
    "mariadb",
    "mongodb",
    "mongodb+srv",
    "redis",
    "rediss",
    "amqp",
    "amqps",
    "mssql",
    "sqlserver",
    "oracle",
    "cockroachdb",
    "clickhouse",
    "neo4j",
    "neo4j+s",
    "bolt",
    "bolt+s",
    "couchdb",
    "cassandra",
    "memcached",
    "snowflake",
];

/// The range of a match without the JSON escape (`\n`) that [`lb!`] lets it start with.
fn after_escape(m: regex::Match<'_>) -> Range<usize> {
    let s = m.as_str().as_bytes();
    if s.len() > 2 && s[0] == b'\\' && matches!(s[1], b'n' | b'r' | b't') {
        m.start() + 2..m.end()
    } else {
        m.range()
    }
}

/// A PEM header and everything up to its `-----END …-----` line, or to the end of the text when
/// the block is not closed (a cut or partial paste still hides the key).
fn pem_block(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let header = caps.get(0)?;
    let end = text[header.end()..]
        .find("-----END")
        .map(|at| header.end() + at + "-----END".len())
        .and_then(|after| text[after..].find("-----").map(|close| after + close + "-----".len()))
        .unwrap_or(text.len());
    Some(Hit { range: header.start()..end, kind })
}

fn url_credentials(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let pass = caps.name("pass")?;
    if is_marker(pass.as_str()) || keywords::is_reference(pass.as_str()) {
        return None;
    }
    let scheme = caps.name("scheme")?.as_str().to_ascii_lowercase();
    let kind = if DB_SCHEMES.contains(&scheme.as_str()) { "db-credentials" } else { kind };
    Some(Hit { range: pass.range(), kind })
}

/// A rule's pattern with the catalog's part filled in: `{line_prefix}`, what harnesses put before
/// an output line.
pub(super) fn expand(pattern: &str) -> String {
    pattern.replace("{line_prefix}", &catalog::catalog().line_prefix_regex())
}

fn authorization(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let cred = caps.name("cred")?;
    if is_marker(cred.as_str()) || keywords::is_reference(cred.as_str()) {
        return None;
    }
    let scheme = caps.name("scheme").map(|s| s.as_str().trim().to_ascii_lowercase());
    let known = |word: &str| catalog::catalog().auth_schemes().iter().any(|s| s.eq_ignore_ascii_case(word));
    let value = cred.as_str();
    match scheme.as_deref() {
        // `Authorization: Bearer …`, `Authorization: SSWS …`: what follows is the credential.
        Some(scheme) if known(scheme) => {}
        // An unknown word before a value: a scheme of its own when the value looks generated
        // (`Authorization: Acme-HMAC k3y…`); prose otherwise ("authorization: this header …").
        Some(_) => {
            let generated = value.len() >= 8
                && value.bytes().any(|b| b.is_ascii_digit())
                && value.bytes().any(|b| b.is_ascii_alphabetic());
            if !generated {
                return None;
            }
        }
        // A bare value: prose such as "authorization: required", or a scheme whose credential
        // was cut off.
        None if value.bytes().all(|b| b.is_ascii_lowercase()) => return None,
        None if value.bytes().all(|b| b.is_ascii_alphabetic()) && known(value) => return None,
        None => {}
    }
    let kind = if scheme.as_deref() == Some("basic") { "basic-auth" } else { kind };
    Some(Hit { range: cred.range(), kind })
}

fn bearer(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let token = caps.get(1)?;
    let s = token.as_str();
    (!is_marker(s) && s.bytes().any(|b| b.is_ascii_digit())).then(|| Hit { range: token.range(), kind })
}

/// Strips one layer of quotes (plain or JSON-escaped) from a matched value.
pub(super) fn unquote(value: regex::Match<'_>) -> (Range<usize>, bool) {
    let s = value.as_str();
    for quote in ["\\\"", "\"", "'", "`"] {
        if s.len() >= 2 * quote.len() && s.starts_with(quote) && s.ends_with(quote) {
            return (value.start() + quote.len()..value.end() - quote.len(), true);
        }
    }
    (value.range(), false)
}

/// `NAME=value`, `"name": "value"`, `name: value` where the name holds a secret.
fn assignment(caps: &Captures<'_>, text: &str, _: &'static str) -> Option<Hit> {
    let key = caps.name("key")?;
    let kind = keywords::secret_name_kind(key.as_str())?;
    let op = caps.name("op")?;
    let val = caps.name("val")?;
    // `credentials:edit`, `secrets:list`: a task of a namespace named after secrets, not one.
    if op.as_str() == ":"
        && key.end() == op.start()
        && op.end() == val.start()
        && keywords::names_a_task(key.as_str(), val.as_str())
    {
        return None;
    }
    let (key, op) = (key.as_str(), op.as_str());
    let (range, quoted) = unquote(val);
    secret_value(key, kind, op, range, quoted, text)
}

/// `--password value`, `--api-key "value"`.
fn cli_flag(caps: &Captures<'_>, text: &str, _: &'static str) -> Option<Hit> {
    let key = caps.name("key")?.as_str();
    let kind = keywords::secret_name_kind(key)?;
    let (range, quoted) = unquote(caps.name("val")?);
    secret_value(key, kind, "=", range, quoted, text)
}

fn secret_value(
    key: &str,
    kind: &'static str,
    op: &str,
    range: Range<usize>,
    quoted: bool,
    text: &str,
) -> Option<Hit> {
    let value = &text[range.clone()];
    if value.is_empty() || is_marker(value) || keywords::is_reference(value) {
        return None;
    }
    if key.to_ascii_lowercase().ends_with("pwd") && value.starts_with(['/', '~']) {
        return None;
    }
    if !quoted {
        let next = text[range.end..].chars().next();
        if keywords::bare_value_is_not_secret(value, op, next) {
            return None;
        }
    }
    Some(Hit { range, kind })
}

fn env_line(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let name = caps.name("name")?.as_str();
    let val = caps.name("val")?;
    let (range, _) = unquote(val);
    let s = &val.as_str()[range.start - val.start()..range.end - val.start()];
    entropy::looks_like_secret(name, s).then_some(Hit { range, kind })
}
