//! The secret formats recognised by their shape, the prefixes harnesses put before output lines
//! and the `Authorization` schemes, as data: `catalog.toml`, compiled into the binary and read
//! once per process.
//!
//! Each [`Format`] has a provider, a name, the marker kind it becomes, the keywords that must occur
//! for its pattern to run, the pattern, and templates of synthetic samples
//! ([`Format::samples`]) that tests fill with random characters to check every carrier.

use std::sync::OnceLock;

use regex::Regex;
use serde::Deserialize;

/// The catalog's source.
const SOURCE: &str = include_str!("catalog.toml");

/// Every data-defined format, line prefix and `Authorization` scheme.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    #[serde(rename = "format")]
    formats: Vec<Format>,
    #[serde(rename = "line_prefix")]
    line_prefixes: Vec<LinePrefix>,
    auth: Auth,
}

/// One token format.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Format {
    /// Who issues it (`HashiCorp Vault`).
    pub provider: String,
    /// What it is (`service token`).
    pub name: String,
    /// The marker kind: `[REDACTED:<kind>]`.
    pub kind: String,
    /// Literals of which one must occur for the pattern to run: all-lowercase ones in any case,
    /// ones with capitals exactly as written.
    pub keywords: Vec<String>,
    /// The pattern as written in the catalog (`\b` a word boundary; group `s` what is replaced).
    pub pattern: String,
    /// Whether the replaced text must hold a digit.
    #[serde(default)]
    pub digit: bool,
    /// Templates of synthetic strings in the format (see [`crate::synthetic`]).
    pub samples: Vec<String>,
}

/// A prefix a harness puts before the lines of a tool's output or a file's contents.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinePrefix {
    /// The harnesses that write it.
    pub harness: String,
    /// Where it appears.
    pub carrier: String,
    /// The prefix as a regex.
    pub pattern: String,
    /// A literal instance of the prefix.
    pub sample: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Auth {
    schemes: Vec<String>,
}

impl Catalog {
    /// The token formats, in the order they run.
    pub fn formats(&self) -> &[Format] {
        &self.formats
    }

    /// The line prefixes of harness output.
    pub fn line_prefixes(&self) -> &[LinePrefix] {
        &self.line_prefixes
    }

    /// The `Authorization` schemes (lowercase) whose credential is redacted.
    pub fn auth_schemes(&self) -> &[String] {
        &self.auth.schemes
    }

    /// One regex alternation of every line prefix, repeated: what may precede a line's content.
    pub(crate) fn line_prefix_regex(&self) -> String {
        let alternatives: Vec<&str> = self.line_prefixes.iter().map(|p| p.pattern.as_str()).collect();
        format!("(?:[ \\t]*(?:{}))*[ \\t]*", alternatives.join("|"))
    }

    /// One regex alternation of the `Authorization` schemes, longest first.
    pub(crate) fn auth_scheme_regex(&self) -> String {
        let mut schemes: Vec<&str> = self.auth.schemes.iter().map(String::as_str).collect();
        schemes.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let escaped: Vec<String> = schemes.iter().map(|s| regex::escape(s)).collect();
        format!("(?i-u:{})", escaped.join("|"))
    }
}

/// The catalog, read on first use.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| toml::from_str(SOURCE).expect("the built-in redaction catalog is valid"))
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
            let pattern = engine_pattern(&format.pattern);
            regex::Regex::new(&pattern).unwrap_or_else(|e| panic!("{}: {e}", format.name));
            assert!(!format.keywords.is_empty() && !format.samples.is_empty(), "{}", format.name);
            assert!(
                format.kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                format.kind
            );
        }
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
