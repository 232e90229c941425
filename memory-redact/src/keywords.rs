//! Which names (variables, options, JSON keys) hold secrets, and which values are not secrets.

/// Secret-name keywords (lowercase) and the marker kind each implies. Longer spellings first, so
/// `client_secret` wins over `secret` when both start at the same place.
const KEYWORDS: &[(&str, &str)] = &[
    ("client_secret", "secret"),
    ("client-secret", "secret"),
    ("clientsecret", "secret"),
    ("credentials", "credentials"),
    ("credential", "credentials"),
    ("private_key", "private-key"),
    ("private-key", "private-key"),
    ("privatekey", "private-key"),
    ("access_key", "access-key"),
    ("access-key", "access-key"),
    ("accesskey", "access-key"),
    ("api_key", "api-key"),
    ("api-key", "api-key"),
    ("apikey", "api-key"),
    ("auth_key", "api-key"),
    ("authkey", "api-key"),
    ("password", "password"),
    ("passwd", "password"),
    ("secret", "secret"),
    ("token", "token"),
    ("pwd", "password"),
];

/// Words after the keyword that make the name describe a secret rather than hold one
/// (`token_type`, `password_file`, `secret_name`, `api_key_id`).
const NOT_SECRET_SUFFIXES: &[&str] = &[
    "path",
    "file",
    "dir",
    "name",
    "type",
    "len",
    "count",
    "size",
    "url",
    "uri",
    "endpoint",
    "expir",
    "ttl",
    "kind",
    "env",
    "var",
    "header",
    "field",
    "prefix",
    "id",
    "policy",
    "limit",
    "timeout",
    "source",
    "hint",
    "label",
    "pattern",
    "regex",
    "required",
    "enabled",
    "rotation",
    "version",
    "store",
    "provider",
    "format",
    "mode",
    "scope",
    "location",
    "manager",
    "helper",
    "prompt",
    "command",
    "cmd",
    "ref",
    "arn",
    "min",
    "max",
    "strength",
    "complexity",
    "attempt",
    "retr",
    "rule",
    "history",
    "changed",
];

/// The marker kind for a name that holds a secret (`DB_PASSWORD`, `apiKey`, `"client_secret"`),
/// or `None` for ordinary names (`tokenizer`, `max_tokens`, `token_type`, `password_file`).
pub(super) fn secret_name_kind(name: &str) -> Option<&'static str> {
    let trimmed = name.trim_matches(|c: char| c == '"' || c == '\'' || c == '\\' || c == '-');
    if trimmed.eq_ignore_ascii_case("private_key_id") {
        return Some("gcp-service-account-key");
    }
    let lower = trimmed.to_ascii_lowercase();
    let (at, keyword, kind) = leftmost_keyword(&lower)?;
    let after = &trimmed[at + keyword.len()..];
    let next = after.chars().next();
    if next.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        // `tokens`, `tokenizer`, `secretary`, `passwords`: a different word.
        return None;
    }
    if keyword == "pwd" && at > 0 && trimmed.as_bytes()[at - 1].is_ascii_alphabetic() {
        // `OLDPWD` and friends hold paths, `cwpwd` is not a word we know.
        return None;
    }
    let suffix = after.trim_start_matches(['_', '-', '.']).to_ascii_lowercase();
    if NOT_SECRET_SUFFIXES.iter().any(|s| suffix.starts_with(s)) {
        return None;
    }
    Some(kind)
}

/// Like [`secret_name_kind`], but also accepts plurals (`secrets`, `credentials`, `tokens`) for
/// JSON keys whose value is a whole object or array of secrets.
pub(super) fn secret_container_kind(name: &str) -> Option<&'static str> {
    secret_name_kind(name).or_else(|| {
        let singular = name.strip_suffix('s').or_else(|| name.strip_suffix('S'))?;
        let kind = secret_name_kind(singular)?;
        // `max_tokens`-style counters are scalars; containers are handled by the caller.
        Some(kind)
    })
}

fn leftmost_keyword(lower: &str) -> Option<(usize, &'static str, &'static str)> {
    let mut best: Option<(usize, &'static str, &'static str)> = None;
    for &(keyword, kind) in KEYWORDS {
        if let Some(at) = lower.find(keyword) {
            let better = match best {
                None => true,
                Some((best_at, best_kw, _)) => {
                    at < best_at || (at == best_at && keyword.len() > best_kw.len())
                }
            };
            if better {
                best = Some((at, keyword, kind));
            }
        }
    }
    best
}

/// Words that, as an unquoted value, are code or prose rather than a secret
/// (`password = None`, `token: string`, `let secret = match …`).
const NOT_SECRET_WORDS: &[&str] = &[
    "null",
    "none",
    "nil",
    "true",
    "false",
    "undefined",
    "str",
    "string",
    "bool",
    "boolean",
    "int",
    "integer",
    "number",
    "any",
    "object",
    "bytes",
    "optional",
    "required",
    "yes",
    "no",
    "env",
    "text",
    "match",
    "if",
    "await",
    "new",
    "self",
    "this",
    "async",
    "move",
    "ref",
    "mut",
    "let",
    "const",
    "return",
    "yield",
    "lambda",
    "function",
    "not",
    "and",
    "or",
    "the",
    "a",
    "an",
    "is",
    "be",
    "to",
    "of",
    "in",
    "on",
    "for",
    "with",
    "it",
    "that",
    "unset",
    "empty",
    "redacted",
    "hidden",
    "masked",
    "changeme",
    "xxx",
    "xxxx",
    "xxxxxx",
    "secret",
    "password",
    "token",
    "input",
    "prompt",
    "stdin",
];

/// Whether an unquoted value after `name` + `op` is code or a word rather than a secret.
/// `followed_by` is the character after the value.
pub(super) fn bare_value_is_not_secret(value: &str, op: &str, followed_by: Option<char>) -> bool {
    let lower = value.to_ascii_lowercase();
    if NOT_SECRET_WORDS.contains(&lower.as_str()) || is_reference(value) {
        return true;
    }
    if followed_by == Some('(') || value.contains("::") || value.starts_with('&') || value.starts_with('*') {
        return true;
    }
    let identifier = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    // `config.password`, `args.token`, `self.secret`: a field access.
    if value.contains('.') && value.split('.').all(identifier) && !value.ends_with('.') {
        let has_letters_only_head =
            value.split('.').next().is_some_and(|h| !h.chars().any(|c| c.is_ascii_digit()));
        if has_letters_only_head {
            return true;
        }
    }
    // `token = new_token`, `password = db_password`: another variable.
    if identifier(value)
        && (lower.contains("_token")
            || lower.contains("token_")
            || lower.contains("password_")
            || lower.contains("_password")
            || lower.contains("_secret")
            || lower.contains("secret_")
            || lower.contains("_key")
            || lower == "pw"
            || lower == "pwd"
            || lower == "passwd")
    {
        return true;
    }
    if op == ":" {
        // Type annotations and prose: `password: String`, `token: Option<…>`.
        let mut chars = value.chars();
        if chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_lowercase()) {
            return true;
        }
    }
    false
}

/// Whether `key:value`, written tight, names a task of a namespace rather than a secret: the key
/// is a plural (`credentials`, `secrets`, `tokens`) and the value a short lowercase word
/// (`credentials:edit`, `secrets:rotate`, `db-tokens:prune`), as task runners name their tasks.
pub(super) fn names_a_task(key: &str, value: &str) -> bool {
    let plural = key.to_ascii_lowercase().ends_with('s') && !key.to_ascii_lowercase().ends_with("ss");
    let word = value.len() <= 24
        && value.starts_with(|c: char| c.is_ascii_lowercase())
        && value.chars().all(|c| c.is_ascii_lowercase() || c == '-' || c == '_' || c == ':');
    plural && word
}

/// Whether a value refers to a secret held elsewhere (`$TOKEN`, `${{ secrets.X }}`, `%PASSWORD%`,
/// `<your-token>`) rather than being one.
pub(super) fn is_reference(value: &str) -> bool {
    value.starts_with('$')
        || (value.starts_with("{{") && value.ends_with("}}"))
        || (value.starts_with('%') && value.ends_with('%') && value.len() > 2)
        || (value.starts_with('<') && value.ends_with('>'))
}
