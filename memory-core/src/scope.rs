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

impl FromStr for Scope {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            Error::InvalidInput(format!("scope `{s}` is not one of `user`, `project:<id>`, `session:<key>`"))
        };
        if s == "user" {
            return Ok(Self::User);
        }
        let (kind, rest) = s.split_once(':').ok_or_else(bad)?;
        if rest.is_empty() || rest.chars().any(char::is_control) {
            return Err(bad());
        }
        match kind {
            "project" => Ok(Self::Project(rest.to_owned())),
            "session" => Ok(Self::Session(rest.to_owned())),
            _ => Err(bad()),
        }
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
