//! Values in what users say and commands print: words for matching values, and port numbers.

/// Words of a text for matching values: lowercase runs of letters, digits, `.`, `_` and `-`,
/// trimmed of `.` and `-` at their ends (`postgres:14` → `postgres`, `14`).
pub(crate) fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '+' | '#')))
        .map(|t| t.trim_matches(|c| matches!(c, '.' | '-')))
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The port numbers a text names: `localhost:5173`, `127.0.0.1:8080`, `--port 3000`, `port 8000`,
/// `moved to 8081`.
pub(crate) fn ports(text: &str) -> Vec<String> {
    static PORT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?ix)
              \b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):(\d{2,5})\b
            | --port[=\ ](\d{2,5})\b
            | \bport\b[^\d\n]{0,12}?\b(\d{2,5})\b
            | \b(?:on|at|to)\ :?(\d{4,5})\b
            ",
        )
        .expect("the port pattern compiles")
    });
    // A bare number after "on", "at" or "to" is a port unless it reads as a year ("to 2025").
    let year = |m: &regex::Match<'_>| m.as_str().parse::<u32>().is_ok_and(|n| (1900..=2100).contains(&n));
    let mut out: Vec<String> = PORT
        .captures_iter(text)
        .filter_map(|c| (1..=3).find_map(|i| c.get(i)).or_else(|| c.get(4).filter(|m| !year(m))))
        .map(|m| m.as_str().to_owned())
        .collect();
    out.dedup();
    out
}
