//! File views whose lines carry their numbers, as harnesses show a file to the model: Claude
//! Code's `     1→…`, Copilot CLI's `1. …`, `cat -n`'s `     1\t…`. Line rules (`.netrc`,
//! `.pgpass`, Kubernetes Secrets, PuTTY keys, env lines) need a line's own start, so a view is
//! redacted without its numbers, which are then put back.

/// What separates a line number from the line.
const SEPARATORS: &[&str] = &["→", "\t", ". ", ": ", " | ", "| ", "|"];

/// A numbered view split into each line's number prefix and its content.
pub(super) struct View<'t> {
    prefixes: Vec<&'t str>,
    contents: Vec<&'t str>,
    trailing_newline: bool,
}

/// The view `text` is, when it has at least two lines and every line starts with the next number
/// of one run (`7→`, `8→`, `9→`).
pub(super) fn split(text: &str) -> Option<View<'_>> {
    let mut prefixes = Vec::new();
    let mut contents = Vec::new();
    let mut expected: Option<u64> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let rest = &line[indent..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 7 {
            return None;
        }
        let number: u64 = rest[..digits].parse().ok()?;
        if expected.is_some_and(|e| e != number) {
            return None;
        }
        expected = Some(number + 1);
        let after = &rest[digits..];
        let separator = if after.is_empty() || after == "." || after == ":" {
            after
        } else {
            SEPARATORS.iter().find(|s| after.starts_with(**s))?
        };
        let end = indent + digits + separator.len();
        prefixes.push(&line[..end]);
        contents.push(&line[end..]);
    }
    (prefixes.len() >= 2).then(|| View { prefixes, contents, trailing_newline: text.ends_with('\n') })
}

impl View<'_> {
    /// The lines without their numbers.
    pub(super) fn body(&self) -> String {
        self.contents.join("\n")
    }

    /// The view again around `redacted`, the body after redaction. When redaction joined or
    /// split lines (a private key block became one marker), the numbers no longer fit and the
    /// redacted body is returned as it is.
    pub(super) fn rebuild(&self, redacted: &str) -> String {
        let lines: Vec<&str> = redacted.split('\n').collect();
        if lines.len() != self.prefixes.len() {
            return redacted.to_owned();
        }
        let mut out = String::with_capacity(redacted.len() + self.prefixes.len() * 8);
        for (i, (prefix, line)) in self.prefixes.iter().zip(lines).enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(prefix);
            out.push_str(line);
        }
        if self.trailing_newline {
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn numbered_views_split_and_rebuild() {
        let view = split("     7→machine a\n     8→  password b\n").expect("a view");
        assert_eq!(view.body(), "machine a\n  password b");
        assert_eq!(view.rebuild("machine a\n  password X"), "     7→machine a\n     8→  password X\n");
        assert_eq!(split("1. one\n2. two").map(|v| v.body()).as_deref(), Some("one\ntwo"));
        assert!(split("1. one\n3. three").is_none(), "numbers must follow each other");
        assert!(split("404: not found").is_none(), "one line is not a view");
        assert!(split("2024 was a year\n2025 too").is_none(), "a number then a space is prose");
    }
}
