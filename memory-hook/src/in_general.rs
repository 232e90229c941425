//! Whether a prompt asks about computing in general ("what's the difference between a buffered
//! and an unbuffered channel?", "css grid vs flexbox, when to use which", "implement binary search
//! in python") rather than about the user's own work: such a prompt shares a word with a note by
//! chance, so a note answers it only when it has several of its words together.

/// How a question about a concept in general opens, or what it says anywhere in it.
const OPENINGS: &[&str] = &[
    "what's the difference",
    "what is the difference",
    "whats the difference",
    "difference between",
    "explain",
    "how does",
    "how do you",
    "how would you",
    "when would i",
    "when would you",
    "when should i",
    "when should you",
    "when to use",
    "why does",
    "why do",
    "why is",
    "why are",
    "what does it mean",
    "what is a ",
    "what is an ",
    "what's a ",
    "what's an ",
    "what are the pros",
    "tips for",
    "best practices for",
    "is it better to",
    "should i use",
];
const ANYWHERE: &[&str] = &[
    " vs ",
    " vs. ",
    " versus ",
    "in general",
    "generally",
    "in theory",
    "pros and cons",
    "the better ",
    "when to use which",
    "what's the best way to",
];

/// Words that point at the user's own work: a prompt with one is not asked in general.
const OWN: &[&str] = &[
    "we",
    "we're",
    "we've",
    "we'd",
    "our",
    "ours",
    "us",
    "my",
    "mine",
    "i'm",
    "i've",
    "here",
    "repo",
    "repository",
    "project",
    "codebase",
    "team",
    "prod",
    "production",
    "staging",
    "ci",
    "your",
];
/// What asks the user's own way ("how do you want commit messages written?").
const OWN_WAY: &[&str] = &["you want", "you like", "you prefer", "for you", "you'd like", "you usually"];

/// Whether `prompt` asks about computing in general: it opens like a question about a concept
/// ("explain …", "how does …", "X vs Y"), or asks for a textbook piece of code ("implement binary
/// search in python", "write a query that finds duplicate emails"), and names nothing of the
/// user's own work (we, our, my, here, the repo, a path, a code identifier).
pub fn asked_in_general(prompt: &str) -> bool {
    let lower = format!(" {} ", prompt.to_lowercase().replace(['’', '‘'], "'"));
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| OWN.contains(w))
        || OWN_WAY.iter().any(|p| lower.contains(p))
        || names_code(prompt)
    {
        return false;
    }
    let opens = |phrase: &str| {
        lower.trim_start().starts_with(phrase.trim_end()) || lower.contains(&format!(". {phrase}"))
    };
    OPENINGS.iter().any(|p| opens(p) || (p.len() > 12 && lower.contains(p)))
        || ANYWHERE.iter().any(|p| lower.contains(p))
        || how_things_work(&words)
        || textbook_code(&words)
}

/// "how do python decorators that take arguments work", "how do green threads work, roughly": how
/// a kind of thing works ("how do I get the build to work" is the asker's own).
fn how_things_work(words: &[&str]) -> bool {
    words.starts_with(&["how", "do"])
        && !matches!(words.get(2), Some(&("i" | "we" | "you")))
        && words.iter().rev().take(2).any(|w| *w == "work")
}

/// "implement binary search in python", "implement an LRU cache": a piece of code asked for as
/// an exercise, of no thing of the work ("implement the retry in the webhook sender" names one).
fn textbook_code(words: &[&str]) -> bool {
    const DEFINITE: &[&str] = &["the", "this", "that", "these", "those", "it", "them", "its"];
    words.first() == Some(&"implement") && !words.iter().any(|w| DEFINITE.contains(w))
}

/// Whether a prompt names something of code: a path, a file, a code span, an identifier
/// (`snake_case`, `camelCase`, `pkg.Func`).
fn names_code(prompt: &str) -> bool {
    prompt.contains('`')
        || prompt.split_whitespace().any(|token| {
            let token = token.trim_matches(|c: char| !c.is_alphanumeric());
            token.contains('/')
                || token.contains('_')
                || token.chars().skip(1).any(|c| c.is_uppercase()) && token.chars().any(|c| c.is_lowercase())
                || token.split('.').filter(|part| !part.is_empty()).count() > 1
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_about_concepts_and_textbook_code_are_asked_in_general() {
        for prompt in [
            "what's the difference between a buffered and an unbuffered channel in Go?",
            "when would I embed a struct instead of using a named field?",
            "is 422 or 400 the better status for a validation error in a REST api, generally?",
            "explain how context cancellation propagates through goroutines",
            "css grid vs flexbox, when to use which",
            "how does consistent hashing spread keys across servers",
            "implement binary search in python",
            "implement an LRU cache with O(1) eviction",
            "tips for writing a good README for an open source command line tool",
            "what does it mean for an http PUT to be idempotent?",
            "how do python decorators that take arguments work",
            "how do green threads work?",
            "How do bloom filters work, roughly",
        ] {
            assert!(asked_in_general(prompt), "{prompt:?}");
        }
    }

    #[test]
    fn a_prompt_about_the_users_own_work_is_not() {
        for prompt in [
            "how do we deploy the worker?",
            "explain the retry logic in internal/webhooks/send.go",
            "what's the difference between our staging and prod configs?",
            "how does the deploy work here?",
            "implement the retry in the webhook sender",
            "write a query that counts shipments per status",
            "implement pagination for the shipments list",
            "how do you want commit messages written?",
            "why does CI fail on the lint step?",
            "which package manager does this repo use?",
            "explain what `sync_orders` does",
            "why is my PR blocked?",
            "how do the retries in `send.go` work?",
            "how do our feature flags work?",
            "how do I get the build to work",
        ] {
            assert!(!asked_in_general(prompt), "{prompt:?}");
        }
    }
}
