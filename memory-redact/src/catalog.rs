//! The secret formats recognised by their shape, the prefixes harnesses put before output lines
//! and the `Authorization` schemes, as data: `catalog.toml`, turned into Rust statics by the build
//! script, so a process has it without parsing anything.
//!
//! Each [`Format`] has a provider, a name, the marker kind it becomes, the keywords that must occur
//! for its pattern to run, the pattern, and templates of synthetic samples
//! ([`Format::samples`]) that tests fill with random characters to check every carrier.

use std::sync::OnceLock;

use regex::Regex;

/// The catalog as Rust statics, generated from `catalog.toml` by the build script.
mod generated {
    use super::{Format, LinePrefix};
    include!(concat!(env!("OUT_DIR"), "/catalog.rs"));
}

/// Every data-defined format, line prefix and `Authorization` scheme.
#[derive(Debug)]
pub struct Catalog {
    formats: &'static [Format],
    line_prefixes: &'static [LinePrefix],
    auth_schemes: &'static [&'static str],
}

/// One token format.
#[derive(Debug)]
pub struct Format {
    /// Who issues it (`HashiCorp Vault`).
    pub provider: &'static str,
    /// What it is (`service token`).
    pub name: &'static str,
    /// The marker kind: `[REDACTED:<kind>]`.
    pub kind: &'static str,
    /// Literals of which one must occur for the pattern to run: all-lowercase ones in any case,
    /// ones with capitals exactly as written.
    pub keywords: &'static [&'static str],
    /// The pattern as written in the catalog (`\b` a word boundary; group `s` what is replaced).
    pub pattern: &'static str,
    /// Whether the replaced text must hold a digit.
    pub digit: bool,
    /// Templates of synthetic strings in the format (see [`crate::synthetic`]).
    pub samples: &'static [&'static str],
}

/// A prefix a harness puts before the lines of a tool's output or a file's contents.
#[derive(Debug)]
pub struct LinePrefix {
    /// The harnesses that write it.
    pub harness: &'static str,
    /// Where it appears.
    pub carrier: &'static str,
    /// The prefix as a regex.
    pub pattern: &'static str,
    /// A literal instance of the prefix.
    pub sample: &'static str,
}

impl Catalog {
    /// The token formats, in the order they run.
    pub fn formats(&self) -> &'static [Format] {
        self.formats
    }

    /// The line prefixes of harness output.
    pub fn line_prefixes(&self) -> &'static [LinePrefix] {
        self.line_prefixes
    }

    /// The `Authorization` schemes (lowercase) whose credential is redacted.
    pub fn auth_schemes(&self) -> &'static [&'static str] {
        self.auth_schemes
    }

    /// One regex alternation of every line prefix, repeated: what may precede a line's content.
    pub(crate) fn line_prefix_regex(&self) -> String {
        let alternatives: Vec<&str> = self.line_prefixes.iter().map(|p| p.pattern).collect();
        format!("(?:[ \\t]*(?:{}))*[ \\t]*", alternatives.join("|"))
    }
}

/// The catalog.
pub fn catalog() -> &'static Catalog {
    static CATALOG: Catalog = Catalog {
        formats: generated::FORMATS,
        line_prefixes: generated::LINE_PREFIXES,
        auth_schemes: generated::AUTH_SCHEMES,
    };
    &CATALOG
}

/// The content of `line` after any run of harness line prefixes (`Output: `, `  12→`, `+`).
pub(crate) fn strip_line_prefixes(line: &str) -> &str {
    static PREFIX: OnceLock<Regex> = OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        Regex::new(&format!("^{}", catalog().line_prefix_regex())).expect("line prefixes are valid")
    });
    prefix.find(line).map_or(line, |m| &line[m.end()..])
}

/// A catalog pattern as the engine compiles it: `\b` becomes an ASCII word boundary, and a
/// leading one also accepts a JSON escape (`\n`, `\t`) written out in text.
pub(crate) fn engine_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 32);
    let mut chars = pattern.chars();
    let mut first = true;
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('b') if first => out.push_str(r"(?:\\[nrt]|(?-u:\b))"),
                Some('b') => out.push_str(r"(?-u:\b)"),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
        first = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{catalog, engine_pattern, strip_line_prefixes};

    #[test]
    fn the_catalog_reads_and_its_patterns_compile() {
        let catalog = catalog();
        assert!(catalog.formats().len() >= 150, "{} formats", catalog.formats().len());
        for format in catalog.formats() {
            let pattern = engine_pattern(format.pattern);
            regex::Regex::new(&pattern).unwrap_or_else(|e| panic!("{}: {e}", format.name));
            assert!(!format.keywords.is_empty() && !format.samples.is_empty(), "{}", format.name);
            assert!(format.keywords.iter().all(|k| k.len() >= 2 && k.is_ascii()), "{}", format.name);
            assert!(
                format.kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                format.kind
            );
        }
    }

    #[test]
    fn a_key_spread_over_lines_ends_where_its_lines_end() {
        let npm = format!("npm_{}", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3gH5");
        let lines = format!("{}\n{}", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "AbCdEfGhIjKlMnOp");
        let text = format!("PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 2\n{lines}\n{npm}\nDone.");
        let out = crate::Redactor::new().redact_text(&text);
        assert_eq!(
            out,
            "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 2[REDACTED:private-key]\n[REDACTED:npm-token]\nDone."
        );
    }

    #[test]
    fn boundaries_and_prefixes() {
        assert_eq!(engine_pattern(r"\bab\b\\b"), r"(?:\\[nrt]|(?-u:\b))ab(?-u:\b)\\b");
        assert_eq!(strip_line_prefixes("Output: machine x"), "machine x");
        assert_eq!(strip_line_prefixes("    12→machine x"), "machine x");
        assert_eq!(strip_line_prefixes("+machine x"), "machine x");
        assert_eq!(strip_line_prefixes("machine x"), "machine x");
    }
}
