//! Credentials recognised by the file or command they sit in rather than by a provider prefix:
//! `.netrc` and `.pgpass` entries, `mysql -p…` and `sshpass -p …`, Docker `auth` values,
//! Kubernetes Secret data, bot tokens, prefixed in-house tokens, and passwords written in prose
//! (`admin / Tr0ub4dor-and-3`, "the password is …").
//!
//! Each function is the check of one rule in [`super::rules::RULES`]: it gets the rule's captures
//! and the whole text, and returns the bytes to replace when the match is a secret.

use std::ops::Range;

use regex::Captures;

use super::rules::{Hit, unquote};
use super::{base64, catalog, entropy, is_marker, keywords};

/// A value that can stand for a secret: not empty, not a marker, not a reference (`$TOKEN`).
fn usable(value: &str) -> bool {
    !value.is_empty() && !is_marker(value) && !keywords::is_reference(value)
}

/// Whether `word` occurs in `text` as a whole whitespace-separated word (a JSON-escaped `\n`
/// before it counts as whitespace).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = &text.as_bytes()[..at];
        let starts = match before {
            [] => true,
            [.., b'\\', b'n' | b't' | b'r'] => true,
            [.., b] => b.is_ascii_whitespace() || matches!(b, b'"' | b'+'),
        };
        let after = text.as_bytes().get(at + word.len());
        starts && after.is_none_or(|b| b.is_ascii_whitespace() || *b == b'\\')
    })
}

/// The line of `text` that holds byte `at`.
fn line_around(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    &text[start..end]
}

/// The words a `.netrc` line starts with.
const NETRC_WORDS: &[&str] = &["machine", "default", "login", "password", "account"];

/// `password <value>` in a `.netrc` (`machine host login user password value`, on one line or
/// several): only on a line that starts with a `.netrc` word, in a text that has a `machine` or
/// `default` entry.
pub(super) fn netrc(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let value = caps.name("val")?;
    let line = line_around(text, value.start());
    let first = catalog::strip_line_prefixes(line).split([' ', '\t']).next().unwrap_or("");
    (usable(value.as_str())
        && NETRC_WORDS.contains(&first)
        && (has_word(text, "machine") || has_word(text, "default") || has_netrc_entry(text)))
    .then(|| Hit { range: value.range(), kind })
}

/// Whether a line of `text`, after a harness's line prefix (`Output: `, `  12→`), starts a
/// `.netrc` entry.
fn has_netrc_entry(text: &str) -> bool {
    text.lines().any(|line| {
        let content = catalog::strip_line_prefixes(line);
        content.starts_with("machine ") || content.starts_with("default ")
    })
}

/// The password field of a `.pgpass` line, `host:port:database:user:password`.
pub(super) fn pgpass(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let host = caps.name("host")?.as_str();
    let pass = caps.name("pass")?;
    let value = pass.as_str();
    if host.bytes().all(|b| b.is_ascii_digit()) || value.bytes().all(|b| b.is_ascii_digit()) || !usable(value)
    {
        return None;
    }
    // The password is the last field: only spaces may follow it on its line.
    let rest = text[pass.end()..].trim_start_matches([' ', '\t']);
    let line_ends = rest.is_empty()
        || rest.starts_with(['\n', '\r'])
        || rest.starts_with("\\n")
        || rest.starts_with("\\r");
    line_ends.then(|| Hit { range: pass.range(), kind })
}

/// A password given inline to a command (`mysql -pSECRET`, `sshpass -p 'SECRET'`).
pub(super) fn inline_password(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let (range, _) = unquote(caps.name("val")?);
    usable(&text[range.clone()]).then_some(Hit { range, kind })
}

/// A Docker `config.json` `auth` value: base64 of `user:password`.
pub(super) fn docker_auth(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let value = caps.name("val")?;
    is_user_password_base64(value.as_str()).then(|| Hit { range: value.range(), kind })
}

/// Whether `value` is base64 of printable `user:password`.
pub(super) fn is_user_password_base64(value: &str) -> bool {
    let Some(bytes) = base64::decode(value) else { return false };
    let printable = bytes.iter().all(|b| (0x20..0x7f).contains(b));
    printable && bytes.iter().position(|&b| b == b':').is_some_and(|at| at + 1 < bytes.len())
}

/// A value under `data:`, `binaryData:` or `stringData:` of a Kubernetes Secret manifest.
pub(super) fn kubernetes_secret(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let line = caps.get(0)?;
    let indent = caps.name("indent")?.as_str().len();
    let (range, _) = unquote(caps.name("val")?);
    let value = &text[range.clone()];
    if !usable(value) || value.starts_with(['|', '>', '&', '*', '#']) {
        return None;
    }
    let encoded = match enclosing_key(&text[..line.start()], indent)? {
        "data" | "binaryData" => true,
        "stringData" => false,
        _ => return None,
    };
    if encoded && (value.len() < 4 || base64::decode(value).is_none()) {
        return None;
    }
    Some(Hit { range, kind })
}

/// The `data` or `stringData` object of a Kubernetes Secret written as JSON text (a manifest in
/// a patch or a file): everything between its braces.
pub(super) fn kubernetes_secret_json(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let body = caps.name("body")?;
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let secret = compact.contains(r#""kind":"Secret""#) || compact.contains(r#"\"kind\":\"Secret\""#);
    (secret && !body.as_str().trim().is_empty() && !is_marker(body.as_str().trim()))
        .then(|| Hit { range: body.range(), kind })
}

/// The key of the nearest line above `before`'s end that is indented less than `indent`: the
/// mapping an indented line belongs to (`data` for `  password: …` below `data:`). A leading `+`
/// (a line a patch adds) is not indentation.
fn enclosing_key(before: &str, indent: usize) -> Option<&str> {
    for line in before.lines().rev() {
        let line = line.strip_prefix('+').unwrap_or(line);
        let body = line.trim_start_matches([' ', '\t']);
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        if line.len() - body.len() < indent {
            return body.trim_end().strip_suffix(':');
        }
    }
    None
}

/// A Discord bot token: its first part is the bot's numeric id in base64.
pub(super) fn discord(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let token = caps.get(0)?;
    let id = token.as_str().split('.').next()?;
    let digits = base64::decode(id)?;
    ((17..=20).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit))
        .then(|| Hit { range: token.range(), kind })
}

/// A token with a company prefix and an environment or kind word (`acme_live_…`, `corp_sk_…`)
/// whose tail is random: letters and digits mixed, not a word.
pub(super) fn prefixed_token(caps: &Captures<'_>, _: &str, kind: &'static str) -> Option<Hit> {
    let token = caps.get(0)?;
    let tail = caps.name("tail")?.as_str();
    let mixed = tail.bytes().any(|b| b.is_ascii_digit()) && tail.bytes().any(|b| b.is_ascii_alphabetic());
    (mixed && entropy::bits_per_char(tail) >= 3.0).then(|| Hit { range: token.range(), kind })
}

/// Words near a `user / password` pair that say it is a login.
const LOGIN_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "login",
    "log in",
    "sign in",
    "signin",
    "credential",
    "creds",
    "username",
    "user name",
    "account",
];

/// User names that make a `name / value` pair a login by themselves.
const LOGIN_USERS: &[&str] =
    &["admin", "administrator", "root", "postgres", "sa", "user", "guest", "test", "demo", "ubuntu"];

/// Trailing punctuation of a value written in a sentence.
const SENTENCE_END: &[char] = &['.', ',', ';', ':', '!', '?', ')'];

/// Letters, digits and symbols of a value: how many of lower, upper, digit and other it mixes.
fn classes(value: &str) -> (bool, bool, usize) {
    let lower = value.bytes().any(|b| b.is_ascii_lowercase());
    let upper = value.bytes().any(|b| b.is_ascii_uppercase());
    let digit = value.bytes().any(|b| b.is_ascii_digit());
    let other = value.bytes().any(|b| !b.is_ascii_alphanumeric());
    (lower || upper, digit, [lower, upper, digit, other].iter().filter(|&&c| c).count())
}

/// `admin / Tr0ub4dor-and-3` in prose: a user and a password separated by a spaced slash. The
/// password must mix letters and digits, and either mix all four kinds of character or sit on a
/// line that speaks of logging in.
pub(super) fn prose_login(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let user = caps.name("user")?.as_str();
    let pass = caps.name("pass")?;
    let value = pass.as_str().trim_end_matches(SENTENCE_END);
    if value.len() < 8 || user.bytes().all(|b| b.is_ascii_digit()) || !usable(value) {
        return None;
    }
    let (letter, digit, mixed) = classes(value);
    if !(letter && digit) {
        return None;
    }
    let line = line_around(text, pass.start()).to_ascii_lowercase();
    let about_login = LOGIN_WORDS.iter().any(|w| line.contains(w))
        || LOGIN_USERS.iter().any(|u| user.eq_ignore_ascii_case(u));
    (mixed == 4 || about_login).then(|| Hit { range: pass.start()..pass.start() + value.len(), kind })
}

/// "the password is hunter2!": a stated password that is not a plain word.
pub(super) fn stated_password(caps: &Captures<'_>, text: &str, kind: &'static str) -> Option<Hit> {
    let (range, quoted) = unquote(caps.name("val")?);
    let raw = &text[range.clone()];
    let value = if quoted { raw } else { raw.trim_end_matches(SENTENCE_END) };
    let range: Range<usize> = range.start..range.start + value.len();
    if value.len() < 6 || !usable(value) || keywords::bare_value_is_not_secret(value, "=", None) {
        return None;
    }
    let (letter, digit, mixed) = classes(value);
    (letter && (digit || mixed >= 3)).then_some(Hit { range, kind })
}

#[cfg(test)]
mod tests {
    use super::{enclosing_key, has_word, is_user_password_base64};

    #[test]
    fn words_and_sections() {
        assert!(has_word("machine a.example.com login x", "machine"));
        assert!(has_word("x\\nmachine a", "machine"));
        assert!(!has_word("machinery is loud", "machine"));
        let yaml = "kind: Secret\ndata:\n  user: YWRtaW4=\n";
        assert_eq!(enclosing_key(yaml, 2), Some("data"));
        assert_eq!(enclosing_key("metadata:\n  name: x\n", 2), Some("metadata"));
        assert!(is_user_password_base64("dXNlcjpwYXNz"));
        assert!(!is_user_password_base64("dXNlcjo="), "no password after the colon");
        assert!(!is_user_password_base64("required"));
    }
}
