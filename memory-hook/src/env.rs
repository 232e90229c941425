//! The environment a hook runs in, read once and passed down, so the runtime never reads the
//! process environment behind its caller's back (and tests can run many hooks in one process).

/// Environment variables as name/value pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    vars: Vec<(String, String)>,
}

impl Env {
    /// The process's environment (variables that are not valid UTF-8 are left out).
    pub fn process() -> Self {
        Self { vars: std::env::vars().collect() }
    }

    /// An environment holding exactly these variables.
    pub fn from_pairs<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        Self { vars: pairs.into_iter().map(|(k, v)| (k.into(), v.into())).collect() }
    }

    /// This environment with `name` set to `value`.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl Into<String>) -> Self {
        self.vars.retain(|(k, _)| k != name);
        self.vars.push((name.to_owned(), value.into()));
        self
    }

    /// A variable's value; an empty value counts as unset.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
    }

    /// Every variable, as a harness adapter's [`memory_core::Delivery`] takes them.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.vars
    }
}
