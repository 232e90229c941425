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
/// ("explain …", "how does …", "what is …", "X vs Y"), or asks for a textbook piece of code
/// ("implement binary search in python"), and names nothing of the user's own work (we, our, my,
/// here, the repo, a path, or code the memory knows: `known` says whether the notes name an
/// identifier). A function of a language or a library (`row_number()`, `setTimeout`) is named in
/// general questions about it too, so an identifier the notes never name is no sign of the
/// user's code.
pub fn asked_in_general(prompt: &str, known: impl Fn(&str) -> bool) -> bool {
    let lower = format!(" {} ", prompt.to_lowercase().replace(['’', '‘'], "'"));
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| OWN.contains(w))
        || OWN_WAY.iter().any(|p| lower.contains(p))
        || code_names(prompt).iter().any(|name| name.contains('/') || known(name))
    {
        return false;
    }
    let opens = |phrase: &str| {
        lower.trim_start().starts_with(phrase.trim_end()) || lower.contains(&format!(". {phrase}"))
    };
    OPENINGS.iter().any(|p| opens(p) || (p.len() > 12 && lower.contains(p)))
        || ANYWHERE.iter().any(|p| lower.contains(p))
        || how_things_work(&words)
        || what_a_thing_is(&words)
        || textbook_code(&words)
}

/// "how do python decorators that take arguments work", "how do green threads work, roughly": how
/// a kind of thing works ("how do I get the build to work" is the asker's own).
fn how_things_work(words: &[&str]) -> bool {
    words.starts_with(&["how", "do"])
        && !matches!(words.get(2), Some(&("i" | "we" | "you")))
        && words.iter().rev().take(2).any(|w| *w == "work")
}

/// Words that say a question is about a thing at hand, not a concept, where a concept's name would
/// stand: "what is *the* deploy command", "what's *wrong* with the build", "what's *in* this repo".
const AT_HAND: &[&str] = &[
    "the",
    "this",
    "that",
    "these",
    "those",
    "it",
    "its",
    "it's",
    "there",
    "left",
    "next",
    "new",
    "wrong",
    "up",
    "in",
    "on",
    "with",
    "for",
    "at",
    "to",
    "from",
    "missing",
    "broken",
    "failing",
    "happening",
    "going",
    "changed",
    "different",
    "slow",
    "done",
    "still",
    "so",
    "now",
    "causing",
    "taking",
];

/// "what is tail call optimisation", "what are green threads", "what does idempotent mean in
/// http": what a kind of thing is, named right after the question's opening ("what is the deploy
/// command", "what does this error mean" ask about a thing at hand, [`AT_HAND`]).
fn what_a_thing_is(words: &[&str]) -> bool {
    let named = match words {
        ["what", "is" | "are", next, ..] | ["what's" | "whats" | "what're", next, ..] => next,
        ["what", "does" | "do", next, rest @ ..] if rest.contains(&"mean") => next,
        _ => return false,
    };
    !AT_HAND.contains(named) && !named.ends_with("ing")
}

/// "implement binary search in python", "implement an LRU cache": a piece of code asked for as
/// an exercise, of no thing of the work ("implement the retry in the webhook sender" names one).
/// Asked to be written, an exercise sets up its own material, as any one of a kind: "write a SQL
/// query that finds duplicate emails in a users table", "write a function that reverses a linked
/// list" ("write a query that counts shipments per status" works on the user's own).
fn textbook_code(words: &[&str]) -> bool {
    // "that" also opens what the code is to do ("a query that finds …"), so it counts as pointing
    // at a thing only after "implement".
    const DEFINITE: &[&str] = &["the", "this", "these", "those", "it", "them", "its"];
    if words.iter().any(|w| DEFINITE.contains(w)) {
        return false;
    }
    let rest = match words {
        ["implement", ..] => return !words.contains(&"that"),
        ["write" | "code" | "give" | "show", "me" | "us", rest @ ..]
        | ["write" | "code" | "give" | "show", rest @ ..] => rest,
        _ => return false,
    };
    // Its own piece of code, then material of any kind ("a users table", "an ISO date").
    let material = |w: Option<&&str>| w.is_some_and(|w| MATERIAL.contains(&w.trim_end_matches('s')));
    matches!(rest.first(), Some(&("a" | "an")))
        && (1..rest.len()).any(|i| {
            matches!(rest[i], "a" | "an" | "any") && (material(rest.get(i + 1)) || material(rest.get(i + 2)))
        })
}

/// What an exercise works on, as any one of a kind: a table, a list, a string, a file …
const MATERIAL: &[&str] = &[
    "table",
    "list",
    "array",
    "string",
    "file",
    "folder",
    "directory",
    "column",
    "dataframe",
    "tree",
    "graph",
    "number",
    "integer",
    "map",
    "dict",
    "dictionary",
    "object",
    "json",
    "csv",
    "text",
    "sentence",
    "word",
    "date",
    "timestamp",
    "url",
    "email",
    "matrix",
    "stack",
    "queue",
    "image",
    "binary",
];

/// What a prompt names of code, lowercased: what it quotes as code, and its paths, files and
/// identifiers (`snake_case`, `camelCase`, `pkg.Func`), without the call's parentheses.
fn code_names(prompt: &str) -> Vec<String> {
    let quoted = memory_core::code_spans(prompt).flat_map(str::split_whitespace);
    let bare = prompt.split_whitespace().filter(|token| {
        let token = token.trim_matches(|c: char| !c.is_alphanumeric());
        token.contains('/')
            || token.contains('_')
            || token.chars().skip(1).any(|c| c.is_uppercase()) && token.chars().any(|c| c.is_lowercase())
            || token.split('.').filter(|part| !part.is_empty()).count() > 1
    });
    quoted
        .chain(bare)
        .map(|token| token.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_')).to_lowercase())
        .filter(|name| !name.is_empty())
        .collect()
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
            "write a SQL query that finds duplicate emails in a users table",
            "write a function that reverses a linked list in place",
            "give me a regex that matches an ISO date",
            "write me a bash one-liner that counts lines in every file of a folder",
            "show me a python script that reads a csv file and sums a column",
            "tips for writing a good README for an open source command line tool",
            "what does it mean for an http PUT to be idempotent?",
            "how do python decorators that take arguments work",
            "how do green threads work?",
            "How do bloom filters work, roughly",
            "what is tail call optimisation and does rust guarantee it",
            "what are green threads, roughly?",
            "what's memoization, in plain words",
            "what does idempotent mean in http?",
        ] {
            assert!(asked_in_general(prompt, |_| false), "{prompt:?}");
        }
    }

    /// The user's code the notes name.
    fn known(name: &str) -> bool {
        ["sync_orders", "send.go", "parsewaybill"].contains(&name)
    }

    #[test]
    fn a_function_of_a_language_or_a_library_is_named_in_general_questions_too() {
        for prompt in [
            "how does row_number() over (partition by ...) work",
            "how does the javascript event loop order promises and setTimeout?",
            "what's the difference between useMemo and useCallback?",
            "explain `Promise.allSettled` vs `Promise.all`",
            "when should you use Arc::clone instead of .clone()?",
        ] {
            assert!(asked_in_general(prompt, known), "{prompt:?}");
        }
        // The same questions about code the notes name are about the user's code.
        for prompt in [
            "how does sync_orders() handle a retry",
            "explain `parseWaybill` vs the old parser",
            "what's the difference between sync_orders and the nightly import?",
        ] {
            assert!(!asked_in_general(prompt, known), "{prompt:?}");
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
            "write a migration that adds an index on shipments.status",
            "give me a query for the refunds of last week",
            "write a test for the refund flow that covers a partial refund",
            "implement pagination for the shipments list",
            "how do you want commit messages written?",
            "why does CI fail on the lint step?",
            "which package manager does this repo use?",
            "explain what `sync_orders` does",
            "why is my PR blocked?",
            "how do the retries in `send.go` work?",
            "how do our feature flags work?",
            "how do I get the build to work",
            "what is the deploy command for the api",
            "what's wrong with the build today",
            "what's in this repo and how is it split up?",
            "what does this error mean",
            "what's left on the refunds work",
            "what is going on with the nightly import",
        ] {
            assert!(!asked_in_general(prompt, known), "{prompt:?}");
        }
    }
}
