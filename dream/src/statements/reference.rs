//! Corrections that point at what was said before instead of restating it: "scratch what I said
//! about my shell", "forget the minSdk number I told you", "the region thing from before is
//! outdated", "that vulkan note is outdated", "not anymore re the compiler", "we dropped the e2
//! machines". What they point at is read as topic words; the items of the user's notes that
//! speak of that topic most are the ones the correction retires.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::re;
use memory_core::search;

/// What a correction points at.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Reference {
    /// The referent's topic words, stemmed ("the image library" → `image`, `library`).
    pub(crate) words: BTreeSet<String>,
    /// The referent's words as said, for matching the programs and tools it names (`celery`).
    pub(crate) names: Vec<String>,
    /// Where the pointing clause starts and ends in the sentence: what is around it is the new
    /// value, if any.
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// "scratch/forget/ignore … X": a retraction, which must point back ("what I said about", "from
/// before", "the … rule") so that a request like "ignore the warnings" is not one.
static RETRACT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:]\s*|\b(?:and|so|also|oh|btw|pls|please|ok|okay)\s+)
        (?:you\ can\ |just\ |please\ )?
        (?P<verb>scratch|forget(?:\ about)?|ignore|disregard|drop|scrap|strike|nix|toss|ditch|bin|never\ ?mind|throw\ out|undo|cancel)
        \s+(?P<x>[^,.;:!?()]+)
    ")
});
/// What marks a retraction's object as something said before.
static POINTS_BACK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \bwhat\ (?:i|we)\ (?:said|told|wrote|mentioned|asked|gave)
      | \b(?:i|we)\ (?:said|told\ you|gave\ you|mentioned|wrote|set|asked\ for|gave)\b
      | \bfrom\ (?:before|earlier|last\ time|the\ other\ day|yesterday|last\ week)\b
      | \b(?:earlier|before|previous|previously|old)\b
      | \b(?:rule|note|advice|instruction|instructions|thing|bit|stuff)\b
    ")
});
/// "X (I gave you / from before) is outdated".
static OUTDATED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:^|[,;:]\s*|\b(?:and|so|also|oh|btw)\s+)
        (?P<x>(?:the|that|this|those|these|my|our)\s[^,.;:!?()]{1,60}?)\s
        (?:is|are|was|were)\s(?:now\s|totally\s|completely\s|kind\ of\s|a\ bit\s)?
        (?:outdated|out\ of\ date|dead|wrong|gone|stale|obsolete|deprecated|old\ news|history
          |no\ longer\ (?:true|valid|right|correct|accurate|a\ thing|needed|the\ case|used)
          |not\ (?:true|right|valid|accurate|correct|used)\ any\ ?more|not\ a\ thing\ any\ ?more)
        (?:\s*(?:[,.;:!]|$)|\s(?:now|btw|anyway|since|because|so|and|as)\b)
    ")
});
/// "not anymore re X", "X: not anymore", "not using X anymore", "X is gone", "X -> Y now".
static NOT_ANYMORE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \bnot\ any\ ?more\s(?:re|regarding|about|on|for|with|wrt)\s(?P<x>[^,.;:!?()]+)
      | ^(?P<y>[^,.;:!?()]{2,40}?):?\s+not\ any\ ?more\b
      | \bnot\ (?:using|on|with|running|deploying\ to|deploying\ on)\ (?P<z>[^,.;:!?()]{2,40}?)\ any\ ?more\b
      | ^(?P<w>[\w.+\#-]+(?:\ [\w.+\#-]+)?)\ (?:is|are)\ (?:gone|dead|history|outdated|deprecated|obsolete)
        (?:\s*(?:[,.;:!]|$)|\s(?:now|btw|anyway|since|because|so|and|as|everything|it's)\b)
      | ^(?P<v>[\w.+\#/-]+(?:\ [\w.+\#/-]+)?)\s*(?:->|→|=>)\s*[\w.+\#/-]+
    ")
});
/// "we dropped / moved off / got rid of X".
static DROPPED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:we|i|they|the\ team|the\ org|product|we've|we\ have|i've|i\ have)\s
        (?:\w+\s)?
        (?:dropped|ditched|removed|got\ rid\ of|retired|killed|stopped\ using|moved\ off|moved\ away\ from
          |switched\ away\ from|migrated\ off|migrated\ away\ from|abandoned|sunset|no\ longer\ use)
        \s(?P<x>[^,.;:!?()]+)
    ")
});
/// Words around a referent that say it was said before, not what it is about.
static FRAME: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ^(?:about\ |re\ |regarding\ )?
        (?:what\ (?:i|we)\ (?:said|told\ you|wrote|mentioned|asked\ for|gave\ you)(?:\ earlier|\ before)?\ (?:about|re|regarding|on|for)\ )?
        (?:(?:my|our|the|that|this|those|these|any|all\ the|all)\ (?:(?:earlier|previous|old|last|other|first|whole)\ )?
           (?:notes?|rules?|comments?|instructions?|advice|info|bits?|things?|stuff)\ (?:about|re|regarding|on|for)\ )?
        (?:everything\ (?:i\ said\ )?about\ )?
    ")
});
static FRAME_TAIL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        (?:\s(?:i|we)\ (?:gave|told|mentioned|said|set|wrote|asked\ for)(?:\ you)?(?:\ earlier|\ before)?)?
        (?:\s(?:rule|thing|stuff|bit|note|one|part|info|advice|business))?
        (?:\s(?:from\ (?:before|earlier|last\ time|the\ other\ day|yesterday|last\ week)|earlier|before))?
        \s*$
    ")
});
/// Words that say nothing of the topic of a referent.
const GENERIC: &[&str] = &[
    "the",
    "a",
    "an",
    "my",
    "our",
    "that",
    "this",
    "those",
    "these",
    "what",
    "i",
    "we",
    "you",
    "said",
    "told",
    "gave",
    "about",
    "re",
    "rule",
    "rules",
    "thing",
    "things",
    "stuff",
    "bit",
    "bits",
    "note",
    "notes",
    "part",
    "one",
    "info",
    "advice",
    "instruction",
    "instructions",
    "earlier",
    "before",
    "previous",
    "old",
    "whole",
    "entire",
    "number",
    "value",
    "external",
    "from",
    "all",
    "any",
    "to",
    "of",
    "for",
    "in",
    "on",
    "with",
    "last",
    "first",
    "other",
    "it",
    "is",
    "are",
    "was",
    "were",
    "and",
    "or",
    "new",
    "current",
    "business",
    "setup",
    "off",
    "by",
    "month",
    "week",
    "year",
    "sprint",
    "day",
    "today",
    "yesterday",
    "ago",
    "since",
    "now",
];

/// The correction by reference a sentence (normalised) makes, if it makes one.
pub(crate) fn reference(sentence: &str) -> Option<Reference> {
    fn pick<'h>(c: regex::Captures<'h>, names: &[&str]) -> Option<(usize, regex::Match<'h>)> {
        let whole = c.get(0).expect("a match has its whole").start();
        names.iter().find_map(|n| c.name(n)).map(|x| (whole, x))
    }
    let (start, found) = RETRACT
        .captures_iter(sentence)
        .filter(|c| POINTS_BACK.is_match(&c["x"]) || c["verb"].starts_with("forget about"))
        .find_map(|c| pick(c, &["x"]))
        .or_else(|| OUTDATED.captures(sentence).and_then(|c| pick(c, &["x"])))
        .or_else(|| NOT_ANYMORE.captures(sentence).and_then(|c| pick(c, &["x", "y", "z", "w", "v"])))
        .or_else(|| DROPPED.captures(sentence).and_then(|c| pick(c, &["x"])))?;
    let phrase = FRAME.replace(found.as_str().trim(), "");
    let phrase = FRAME_TAIL.replace(phrase.trim(), "");
    let words = topic_words(&phrase);
    if words.is_empty() {
        return None;
    }
    let names = phrase
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_owned())
        .filter(|w| w.len() >= 2 && !GENERIC.contains(&w.as_str()))
        .collect();
    let end =
        sentence[found.end()..].find([',', ';', ':', '.']).map_or(sentence.len(), |at| found.end() + at + 1);
    Some(Reference { words, names, start, end })
}

/// A word reduced to what its inflections share, so that both forms meet ("images" and "image",
/// "libraries" and "library", "signed" and "sign").
pub(crate) fn stem(word: &str) -> String {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    let mut base = w.to_owned();
    for suffix in ["ings", "ing", "ies", "es", "ed", "s"] {
        if suffix == "s" && w.ends_with("ss") {
            break;
        }
        if let Some(b) = w.strip_suffix(suffix)
            && b.len() >= 3
        {
            base = if suffix == "ies" { format!("{b}i") } else { b.to_owned() };
            break;
        }
    }
    if let Some(b) = base.strip_suffix('y').filter(|b| b.len() >= 3) {
        base = format!("{b}i");
    }
    if let Some(b) = base.strip_suffix('e').filter(|b| b.len() >= 3) {
        base = b.to_owned();
    }
    base
}

/// The stemmed topic words of a text, compound tokens also split at `-`, `_`, `.` and `/`
/// (`e2-standard-4` → `e2`, `standard`), plus the topics of the tools it names.
pub(crate) fn topic_words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for token in text
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\''))
    {
        let token = token.trim_matches(|c: char| !c.is_alphanumeric());
        if token.is_empty() {
            continue;
        }
        let parts: Vec<&str> =
            token.split(['-', '_', '.', '/', ':', '=', '+']).filter(|p| !p.is_empty()).collect();
        for part in std::iter::once(token).chain(parts) {
            if part.chars().all(|c| c.is_ascii_digit() || c == '.')
                || GENERIC.contains(&part)
                || part.len() < 2
            {
                continue;
            }
            out.insert(stem(part));
        }
    }
    out
}

/// The topics (as stemmed words) of the tools a text names: `gcc` → compiler, `glide` → image.
pub(crate) fn concept_words(text: &str) -> BTreeSet<String> {
    search::concepts(text).into_iter().flat_map(topic_words).collect()
}

/// How strongly an item speaks of what a reference points at: its topic words shared, and the
/// topics of the tools it names.
pub(crate) fn affinity(reference: &Reference, item: &str) -> usize {
    let words = topic_words(item);
    let direct = reference.words.intersection(&words).count();
    let topical = reference.words.intersection(&concept_words(item)).count();
    direct * 2 + topical
}

/// Values with a shape of their own (`europe-west3`, `America/Vancouver`, `g++-13`,
/// `https://…`): the characters' classes, runs collapsed. Plain words have none.
pub(crate) fn shapes(text: &str) -> BTreeSet<(String, String)> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\''))
        .map(|t| t.trim_end_matches(['.', ':', '!', '?']))
        .filter(|t| t.len() >= 4 && t.chars().any(char::is_alphabetic))
        .filter(|t| {
            t.chars().any(|c| matches!(c, '/' | '-' | '.' | '_' | ':' | '+'))
                || t.chars().any(|c| c.is_ascii_digit())
        })
        .filter_map(|t| {
            let mut shape = String::new();
            for c in t.chars() {
                let class = if c.is_ascii_uppercase() {
                    'A'
                } else if c.is_alphabetic() {
                    'a'
                } else if c.is_ascii_digit() {
                    '9'
                } else {
                    c
                };
                if !shape.ends_with(class) || !matches!(class, 'A' | 'a' | '9') {
                    shape.push(class);
                }
            }
            let shape = if t.contains("://") { "url".to_owned() } else { shape };
            // A shape that is only letters and digits ("v2", "e2") says too little.
            shape.chars().any(|c| !matches!(c, 'A' | 'a' | '9')).then(|| (shape, t.to_lowercase()))
        })
        .collect()
}

/// The values with a shape of their own in `retired` that `correction` does not repeat: what
/// commands depending on the retired item name (`g++-13`, `europe-west1`).
pub(crate) fn shaped_values(retired: &str, correction: &str) -> Vec<String> {
    let kept: BTreeSet<String> = shapes(correction).into_iter().map(|(_, v)| v).collect();
    shapes(retired).into_iter().map(|(_, v)| v).filter(|v| !kept.contains(v) && !v.contains("://")).collect()
}

/// Whether an item holds a value of the same shape as one the correction gives, but another
/// value: "europe-west1" when the correction says "europe-west3".
pub(crate) fn same_shape_other_value(correction: &str, item: &str) -> bool {
    let new = shapes(correction);
    let old = shapes(item);
    old.iter().any(|(shape, value)| {
        new.iter().any(|(s, v)| s == shape && v != value) && !new.iter().any(|(_, v)| v == value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(sentence: &str) -> BTreeSet<String> {
        reference(&sentence.to_lowercase()).map(|r| r.words).unwrap_or_default()
    }

    fn topic(text: &str) -> BTreeSet<String> {
        topic_words(text)
    }

    #[test]
    fn retractions_point_back_at_a_topic() {
        assert_eq!(
            words("scratch what I said about the package manager, we're on bun now"),
            topic("package manager")
        );
        assert_eq!(words("ok forget the port number I gave you earlier"), topic("port"));
        assert_eq!(words("please ignore my earlier note about the CI provider"), topic("ci provider"));
        assert_eq!(
            words("drop the changelog rule from before, release-please writes it now"),
            topic("changelog")
        );
        // Requests that ignore or drop something of the work are not corrections.
        assert!(words("ignore the deprecation warnings for now").is_empty());
        assert!(words("drop the users table in the test database").is_empty());
    }

    #[test]
    fn outdated_and_no_longer_point_at_a_topic() {
        assert_eq!(
            words("the deploy target I gave you is outdated, we ship to render now"),
            topic("deploy target")
        );
        assert_eq!(words("that node version note is stale. we're on 22"), topic("node version"));
        assert_eq!(words("the linter thing from before is wrong, we use biome"), topic("linter"));
        assert_eq!(words("not anymore re the formatter: everything goes through dprint"), topic("formatter"));
        assert!(words("the build is dead slow today").is_empty());
    }

    #[test]
    fn dropping_a_thing_points_at_it() {
        assert_eq!(words("we dropped redux, state lives in zustand stores"), topic("redux"));
        assert_eq!(words("we got rid of the t3 instances last month"), topic("t3 instances"));
        assert_eq!(words("the team moved off jenkins, pipelines are in github actions"), topic("jenkins"));
    }

    #[test]
    fn gone_no_longer_and_arrows_point_at_what_was() {
        assert_eq!(words("mysql is gone, everything is on postgres"), topic("mysql"));
        assert_eq!(words("not using docker compose anymore, it's all tilt"), topic("docker compose"));
        assert_eq!(words("python 3.11 -> 3.12 now"), topic("python"));
        assert_eq!(words("forget about the staging db, we share the qa one now"), topic("staging db"));
        assert!(words("the build is dead slow today").is_empty());
    }

    #[test]
    fn the_new_value_follows_the_pointing_clause() {
        let sentence = "scratch what i said about my editor, i'm on helix now";
        let found = reference(sentence).expect("a reference");
        assert_eq!(sentence[found.end..].trim(), "i'm on helix now");
    }

    #[test]
    fn values_of_one_shape_replace_each_other() {
        assert!(same_shape_other_value("new buckets go in us-east2 now", "everything runs in us-west1"));
        assert!(same_shape_other_value("use Asia/Tokyo for times", "assume Europe/Berlin for cron"));
        assert!(!same_shape_other_value("new buckets go in us-east2 now", "tests run with pytest -q"));
        assert!(!same_shape_other_value("use us-east2", "everything runs in us-east2"));
    }

    #[test]
    fn stems_join_inflections() {
        for (a, b) in [
            ("images", "image"),
            ("signed", "sign"),
            ("libraries", "library"),
            ("caches", "cache"),
            ("boxes", "box"),
            ("classes", "class"),
            ("tests", "testing"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_ne!(stem("class"), stem("clap"));
    }
}
