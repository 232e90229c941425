//! Secret redaction for agent-memory, applied before anything persists: the store, the journal,
//! logs, error messages, notes written through MCP or `import`, and the dream's output.
//!
//! A [`Redactor`] removes `<private>…</private>` regions, replaces known secret formats and
//! credential assignments with typed markers such as `[REDACTED:aws-access-key]`, and works on
//! plain text ([`Redactor::redact_text`]), JSON values ([`Redactor::redact_value`]), whole hook
//! events ([`Redactor::redact_event`]), notes ([`Redactor::redact_note`]) and error messages
//! ([`Redactor::redact_message`]). For events it also enforces [`Limits`]: tool outputs and long
//! texts are capped with a visible marker, transcript copies are dropped and values nested deeper
//! than any store reader accepts are cut, so whatever the hook accepted every reader can read.
//!
//! A redactor is cheap to build: each pattern is compiled the first time a literal it needs
//! appears in the text, so a hook process only pays for the patterns its payload can match.
//!
//! ```
//! let redactor = memory_redact::Redactor::new();
//! let text = redactor.redact_text("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE");
//! assert!(!text.contains("AKIAIOSFODNN7EXAMPLE"));
//! ```

mod base64;
mod cap;
pub mod catalog;
mod counts;
mod custom;
mod entropy;
mod error;
mod event;
mod formats;
mod keywords;
mod limits;
mod listing;
mod message;
mod private;
mod providers;
mod rules;
pub mod synthetic;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;
use std::sync::{Mutex, OnceLock, PoisonError};

use regex::Regex;

pub use counts::RedactionCounts;
pub use custom::{CustomRule, MIN_LITERAL_LEN};
pub use error::Error;
pub use limits::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_TEXT, DEFAULT_MAX_TOOL_OUTPUT, Limits};

use rules::{Hit, RULES};

/// Kind recorded for a removed `<private>` region.
pub const PRIVATE_KIND: &str = "private";

/// Text that replaces a `<private>` region.
pub const PRIVATE_MARKER: &str = "[private]";

/// Start of every secret marker; a marker is `[REDACTED:<kind>]`.
pub const MARKER_PREFIX: &str = "[REDACTED:";

/// How many times a text is rescanned when a scan changed it (the result is a fixed point).
const MAX_PASSES: usize = 4;

/// Redacts secrets and private regions from text, JSON values and hook events.
///
/// Build one per process and reuse it; patterns compile lazily and are kept.
pub struct Redactor {
    custom: OnceLock<Vec<CustomRule>>,
    compiled: Vec<OnceLock<Regex>>,
    triggers: rules::TriggerIndex,
    providers: providers::Providers,
    totals: Mutex<RedactionCounts>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let compiled = self.compiled.iter().filter(|cell| cell.get().is_some()).count();
        f.debug_struct("Redactor")
            .field("rules", &self.compiled.len())
            .field("formats", &catalog::catalog().formats().len())
            .field("custom", &self.custom.get().map_or(0, Vec::len))
            .field("compiled", &(compiled + self.providers.compiled()))
            .field("totals", &self.totals())
            .finish()
    }
}

impl Default for Redactor {
    fn default() -> Self {
        Self::new()
    }
}

impl Redactor {
    /// A redactor with the built-in rules; no pattern is compiled yet.
    pub fn new() -> Self {
        Self {
            custom: OnceLock::new(),
            compiled: RULES.iter().map(|_| OnceLock::new()).collect(),
            triggers: rules::TriggerIndex::new(RULES),
            providers: providers::Providers::new(catalog::catalog()),
            totals: Mutex::new(RedactionCounts::default()),
        }
    }

    /// A redactor with the built-in rules and `rules` of the user's own, which run first.
    pub fn with_rules(rules: Vec<CustomRule>) -> Self {
        let redactor = Self::new();
        redactor.set_rules(rules);
        redactor
    }

    /// Gives a redactor built before its configuration was read the user's own rules; only the
    /// first call counts. Returns whether these rules are the ones in use.
    pub fn set_rules(&self, rules: Vec<CustomRule>) -> bool {
        self.custom.set(rules).is_ok()
    }

    /// Returns `text` with private regions and secrets replaced by markers; borrows when nothing
    /// had to change.
    pub fn redact_text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut counts = RedactionCounts::default();
        let out = self.redact_text_counted(text, &mut counts);
        self.record(&counts);
        out
    }

    /// Redacts every string of `value` in place, object keys included; values under secret-named
    /// keys (`"password": "hunter2"`) are replaced whole, however short.
    pub fn redact_value(&self, value: &mut serde_json::Value) {
        let mut counts = RedactionCounts::default();
        event::redact_value(self, value, &mut counts);
        self.record(&counts);
    }

    /// Redacts every text field of `event` (prompt, tool input, output and error, and the raw
    /// payload), drops transcript copies from the payload, and caps tool outputs at
    /// `max_tool_output` bytes, with the other [`Limits`] at their defaults. Returns what was
    /// redacted, by kind.
    pub fn redact_event(
        &self,
        event: &mut memory_core::HookEvent,
        max_tool_output: usize,
    ) -> RedactionCounts {
        self.redact_event_with(event, &Limits { max_tool_output, ..Limits::default() })
    }

    /// [`Redactor::redact_event`] with every limit given.
    pub fn redact_event_with(&self, event: &mut memory_core::HookEvent, limits: &Limits) -> RedactionCounts {
        let mut counts = RedactionCounts::default();
        event::redact_event(self, event, limits, &mut counts);
        self.record(&counts);
        counts
    }

    /// Redacts a note's title, description, tags and body in place. Returns what was redacted.
    pub fn redact_note(&self, note: &mut memory_core::Note) -> RedactionCounts {
        let mut counts = RedactionCounts::default();
        let meta = &mut note.meta;
        let fields = std::iter::once(&mut meta.title)
            .chain(meta.description.as_mut())
            .chain(meta.tags.iter_mut())
            .chain(std::iter::once(&mut note.body));
        for field in fields {
            if let Cow::Owned(redacted) = self.redact_text_counted(field, &mut counts) {
                *field = redacted;
            }
        }
        self.record(&counts);
        counts
    }

    /// An error message made safe for stderr and logs: secrets redacted, and the values that
    /// parser messages quote (`invalid type: string "…"`) replaced by their length, since a
    /// wrongly typed field may hold a secret no rule recognises.
    pub fn redact_message(&self, message: &str) -> String {
        message::elide_quoted_values(&self.redact_text(message))
    }

    /// Everything this redactor has redacted since it was built, by kind.
    pub fn totals(&self) -> RedactionCounts {
        self.totals.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    fn record(&self, counts: &RedactionCounts) {
        if !counts.is_empty() {
            self.totals.lock().unwrap_or_else(PoisonError::into_inner).merge(counts);
        }
    }

    /// [`Redactor::redact_text`] that adds to `counts` instead of the totals.
    pub fn redact_text_counted<'t>(&self, text: &'t str, counts: &mut RedactionCounts) -> Cow<'t, str> {
        // The truncation marker a string ends with is ours: redact what precedes it and keep it
        // intact. Only the last one: a text that looks like a marker before it came from the tool
        // (or a user) and is redacted like any other text.
        let tail = cap::trailing_marker_len(text);
        if tail > 0 {
            let (body, marker) = text.split_at(text.len() - tail);
            return match self.redact_body(body, counts) {
                Cow::Borrowed(_) => Cow::Borrowed(text),
                Cow::Owned(mut redacted) => {
                    redacted.push_str(marker);
                    Cow::Owned(redacted)
                }
            };
        }
        self.redact_body(text, counts)
    }

    /// A numbered file view is redacted without its line numbers (see [`listing`]); other texts
    /// as they are.
    fn redact_body<'t>(&self, text: &'t str, counts: &mut RedactionCounts) -> Cow<'t, str> {
        let Some(view) = listing::split(text) else { return self.redact_passes(text, counts) };
        match self.redact_passes(&view.body(), counts) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(redacted) => Cow::Owned(view.rebuild(&redacted)),
        }
    }

    /// Scans `text` again until nothing more changes (at most `MAX_PASSES` times).
    fn redact_passes<'t>(&self, text: &'t str, counts: &mut RedactionCounts) -> Cow<'t, str> {
        let mut current = Cow::Borrowed(text);
        for _ in 0..MAX_PASSES {
            match self.pass(&current, counts) {
                Cow::Borrowed(_) => break,
                Cow::Owned(next) => current = Cow::Owned(next),
            }
        }
        current
    }

    /// One scan: private regions first, then every rule whose trigger literals occur.
    fn pass<'t>(&self, text: &'t str, counts: &mut RedactionCounts) -> Cow<'t, str> {
        let mut current = private::strip(text, counts);
        for rule in self.custom.get().into_iter().flatten() {
            if let Some(next) = rule.apply(&current, counts) {
                current = Cow::Owned(next);
            }
        }
        let triggered = self.triggers.scan(&current);
        for (index, rule) in RULES.iter().enumerate() {
            if index == rules::PROVIDERS_AFTER {
                // The catalog's token formats, after PEM blocks and before the rules that
                // recognise credentials by where they sit.
                if let Some(next) = self.providers.apply(&current, counts) {
                    current = Cow::Owned(next);
                }
            }
            if triggered & (1 << index) == 0 || rule.gate.is_some_and(|gate| !gate(current.as_bytes())) {
                continue;
            }
            let regex = self.compiled[index].get_or_init(|| {
                Regex::new(&rules::expand(rule.pattern)).expect("built-in redaction pattern is valid")
            });
            if let Some(next) = apply(regex, rule, &current, counts) {
                current = Cow::Owned(next);
            }
        }
        current
    }
}

/// Runs one rule over `text`; `None` when it replaced nothing.
fn apply(regex: &Regex, rule: &rules::Rule, text: &str, counts: &mut RedactionCounts) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    for caps in regex.captures_iter(text) {
        if caps.get(0).is_none_or(|m| m.start() < last) {
            // Inside what an earlier match of this rule already replaced.
            continue;
        }
        let Some(Hit { range, kind }) = rule.accept(&caps, text) else { continue };
        if range.start < last || range.is_empty() {
            continue;
        }
        if out.is_empty() {
            out.reserve(text.len());
        }
        out.push_str(&text[last..range.start]);
        out.push_str(MARKER_PREFIX);
        out.push_str(kind);
        out.push(']');
        last = range.end;
        counts.add(kind, 1);
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// Whether `s` is (or starts with) a marker this module writes.
pub fn is_marker(s: &str) -> bool {
    s.starts_with(MARKER_PREFIX) || s.starts_with(PRIVATE_MARKER)
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
