//! The one error type of redaction: a custom rule that cannot be used.

/// Why a custom redaction rule was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The name is not a lowercase slug (it is shown in markers).
    #[error(
        "redaction rule name `{name}` must be a lowercase slug such as `acme-token` (at most 40 characters)"
    )]
    Name {
        /// The name, escaped.
        name: String,
    },
    /// The pattern is not a valid regular expression, or matches empty text.
    #[error("redaction rule `{name}`: the pattern is not usable: {message}")]
    Pattern {
        /// The rule.
        name: String,
        /// What the regex parser said.
        message: String,
    },
    /// A literal value too short to redact without hiding ordinary words.
    #[error("redaction rule `{name}`: the value must be at least {min} characters")]
    ShortValue {
        /// The rule.
        name: String,
        /// The shortest value accepted.
        min: usize,
    },
}
