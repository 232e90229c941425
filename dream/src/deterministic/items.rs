//! The bullet-list format of deterministic notes: `- <text> (<count>×, last <date>)`, parsed back on
//! the next run so a note accumulates its evidence.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;

/// Most items a deterministic note keeps (the most frequent ones).
pub(crate) const MAX_ITEMS: usize = 30;

pub(crate) static ITEM_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^- (?P<text>.+?) \((?P<count>\d+)×(?:, last (?P<last>\d{4}-\d{2}-\d{2}))?\)$")
        .expect("the item pattern compiles")
});

/// One observation with how often and when it was last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    pub(crate) text: String,
    pub(crate) count: u64,
    pub(crate) last: Option<NaiveDate>,
}

/// Items keyed by their lowercase text.
pub(crate) type Items = BTreeMap<String, Item>;

/// The item key of a text: the item without the words of what it was for
/// ([`super::purpose`]), lowercase.
pub(crate) fn key(text: &str) -> String {
    super::purpose::bare(text).to_lowercase()
}

/// Adds one sighting of `text` on `date`.
pub(crate) fn observe(items: &mut Items, text: &str, date: NaiveDate) {
    let entry =
        items.entry(key(text)).or_insert_with(|| Item { text: text.to_owned(), count: 0, last: None });
    entry.count += 1;
    entry.text = super::purpose::merged(&entry.text, text);
    entry.last = entry.last.max(Some(date));
}

/// Reads the items of a note body: every `- ` line, with its count and date when present. A line
/// carrying a credential or a redaction marker (written by hand, or before such lines were left
/// out) is dropped, so the note is rewritten without it.
pub(crate) fn parse(body: &str) -> Items {
    let mut items = Items::new();
    for line in body.lines().map(str::trim_end).filter(|l| !crate::statements::carries_secret(l)) {
        if let Some(captures) = ITEM_LINE.captures(line) {
            let text = captures["text"].to_owned();
            let count = captures["count"].parse().unwrap_or(1);
            let last =
                captures.name("last").and_then(|d| NaiveDate::parse_from_str(d.as_str(), "%Y-%m-%d").ok());
            items.insert(key(&text), Item { text, count, last });
        } else if let Some(text) = line.strip_prefix("- ").map(str::trim).filter(|t| !t.is_empty()) {
            items.insert(key(text), Item { text: text.to_owned(), count: 1, last: None });
        }
    }
    items
}

/// Folds `new` into `existing`: counts add up, the later date and the newer spelling win, with the
/// words of what both were for.
pub(crate) fn merge(existing: &mut Items, new: Items) {
    for (key, item) in new {
        match existing.get_mut(&key) {
            Some(current) => {
                current.count += item.count;
                current.last = current.last.max(item.last);
                current.text = super::purpose::merged(&current.text, &item.text);
            }
            None => {
                existing.insert(key, item);
            }
        }
    }
}

/// The latest date any item was seen.
pub(crate) fn newest(items: &Items) -> Option<NaiveDate> {
    items.values().filter_map(|i| i.last).max()
}

/// The text of an item line without its count and date (`- text (2×, last …)` → `text`), or the
/// line itself when it is not an item.
pub(crate) fn text_of(line: &str) -> &str {
    let line = line.trim_end();
    match ITEM_LINE.captures(line) {
        Some(captures) => captures.name("text").map_or(line, |m| m.as_str()),
        None => line.strip_prefix("- ").unwrap_or(line).trim(),
    }
}

/// Renders a line for an item.
pub(crate) fn line(item: &Item) -> String {
    match item.last {
        Some(last) => format!("- {} ({}×, last {})", item.text, item.count, last.format("%Y-%m-%d")),
        None => format!("- {} ({}×)", item.text, item.count),
    }
}

/// Renders a body: the intro, a blank line, then the items, most frequent first (then most recent,
/// then alphabetical), at most [`MAX_ITEMS`].
pub(crate) fn render(intro: &str, items: &Items) -> String {
    let mut sorted: Vec<&Item> = items.values().collect();
    sorted.sort_by(|a, b| {
        b.count.cmp(&a.count).then_with(|| b.last.cmp(&a.last)).then_with(|| a.text.cmp(&b.text))
    });
    let mut out = format!("{intro}\n\n");
    for item in sorted.into_iter().take(MAX_ITEMS) {
        out.push_str(&line(item));
        out.push('\n');
    }
    out
}
