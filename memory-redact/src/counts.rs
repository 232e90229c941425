//! How many redactions of each kind happened, for the log line (never the secrets themselves).

use std::collections::BTreeMap;
use std::fmt;

/// Redactions by kind (`aws-access-key`, `password`, `private`, `truncated`, …).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedactionCounts {
    by_kind: BTreeMap<&'static str, usize>,
}

impl RedactionCounts {
    /// Adds `n` redactions of `kind`.
    pub fn add(&mut self, kind: &'static str, n: usize) {
        if n > 0 {
            *self.by_kind.entry(kind).or_default() += n;
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Self) {
        for (kind, n) in &other.by_kind {
            self.add(kind, *n);
        }
    }

    /// The count for one kind (0 when none).
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "redaction API beyond what the hook runtime calls so far")
    )]
    pub fn get(&self, kind: &str) -> usize {
        self.by_kind.get(kind).copied().unwrap_or(0)
    }

    /// Total redactions of every kind.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "redaction API beyond what the hook runtime calls so far")
    )]
    pub fn total(&self) -> usize {
        self.by_kind.values().sum()
    }

    /// Whether nothing was redacted.
    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }

    /// `(kind, count)` pairs in kind order.
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "redaction API beyond what the hook runtime calls so far")
    )]
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.by_kind.iter().map(|(kind, n)| (*kind, *n))
    }
}

/// `kind=count` pairs separated by spaces (`aws-access-key=1 password=2`), or `none`.
impl fmt::Display for RedactionCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.by_kind.is_empty() {
            return f.write_str("none");
        }
        for (i, (kind, n)) in self.by_kind.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{kind}={n}")?;
        }
        Ok(())
    }
}
