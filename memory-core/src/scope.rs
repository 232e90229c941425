//! Where a note applies: to the user everywhere, to one project, or to one session.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Error;

/// The reach of a note or a search.
///
/// Written as `user`, `project:<id>` or `session:<key>` in frontmatter, config and on the command line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Applies to the user in every project and harness (their profile, their tools).
    User,
    /// Applies inside one project, identified by its project id.
    Project(String),
    /// Applies to one session only.
    Session(String),
}

impl Scope {
    /// The scope's kind as a word: `user`, `project` or `session`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Project(_) => "project",
            Self::Session(_) => "session",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::User => f.write_str("user"),
            Self::Project(id) => write!(f, "project:{id}"),
            Self::Session(key) => write!(f, "session:{key}"),
        }
    }
}

/// Longest project id or session key a scope accepts, in bytes.
pub const MAX_SCOPE_ID_LEN: usize = 256;

/// Why a project id or session key cannot name a scope, or `None` when it can: it must be
/// non-empty, at most [`MAX_SCOPE_ID_LEN`] bytes, free of control, bidirectional and invisible
/// characters (which make one id look like another), and free of path syntax (`/`, `\`, a `.` or
/// `..` id), since ids become folder names in exported trees.
pub fn scope_id_problem(id: &str) -> Option<&'static str> {
    if id.is_empty() {
        return Some("is empty");
    }
    if id.len() > MAX_SCOPE_ID_LEN {
        return Some("is too long");
    }
    if id.chars().any(|c| c.is_control() || is_invisible(c)) {
        return Some("contains control, bidirectional or invisible characters");
    }
    if id.contains(['/', '\\']) || id == "." || id == ".." {
        return Some("contains path syntax (`/`, `\\`, `.` or `..`)");
    }
    None
}

/// Characters that change how text around them is displayed without showing themselves:
/// bidirectional embeddings, overrides, isolates and marks, zero-width characters, the BOM.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
    )
}

impl Scope {
    /// Checks the project id or session key (see [`scope_id_problem`]).
    pub fn validate(&self) -> Result<(), Error> {
        let (Self::Project(id) | Self::Session(id)) = self else { return Ok(()) };
        match scope_id_problem(id) {
            None => Ok(()),
            Some(why) => {
                Err(Error::InvalidInput(format!("scope {}: the {} id {why}", self.kind(), self.kind())))
            }
        }
    }
}

impl FromStr for Scope {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            Error::InvalidInput(format!(
                "scope `{}` is not one of `user`, `project:<id>`, `session:<key>`",
                s.escape_debug()
            ))
        };
        if s == "user" {
            return Ok(Self::User);
        }
        let (kind, rest) = s.split_once(':').ok_or_else(bad)?;
        let scope = match kind {
            "project" => Self::Project(rest.to_owned()),
            "session" => Self::Session(rest.to_owned()),
            _ => return Err(bad()),
        };
        if rest.is_empty() {
            return Err(bad());
        }
        scope.validate()?;
        Ok(scope)
    }
}

impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Scope {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Scope {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Scope".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "`user`, `project:<id>` or `session:<key>`",
            "pattern": "^(user|project:.+|session:.+)$"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Scope;

    #[test]
    fn ordinary_scopes_parse() {
        for s in [
            "user",
            "project:acme-1a2b3c4d",
            "project:My App-1a2b",
            "session:claude:S-1",
            "session:codex:019f",
        ] {
            let scope: Scope = s.parse().unwrap();
            assert_eq!(scope.to_string(), s);
        }
    }

    #[test]
    fn path_syntax_and_hidden_characters_are_rejected_with_a_clear_error() {
        for s in [
            "project:../../etc",
            "project:..",
            "project:.",
            "project:a/b",
            "project:a\\b",
            "session:claude:../x",
            "project:acme\u{202e}gpj.exe",
            "project:acme\u{2066}x",
            "project:ac\u{200b}me",
            "project:a\u{7}b",
            "project:",
        ] {
            let err = s.parse::<Scope>().unwrap_err().to_string();
            assert!(err.contains("scope"), "{s:?}: {err}");
            assert!(
                !err.contains('\u{202e}') && !err.contains('\u{2066}'),
                "the error shows no bidi control: {err}"
            );
        }
        let long = format!("project:{}", "a".repeat(300));
        assert!(long.parse::<Scope>().unwrap_err().to_string().contains("too long"));
        assert!(Scope::Project("../../etc".into()).validate().is_err());
        assert!(Scope::User.validate().is_ok());
    }
}
