//! Error messages made safe to print and log.
//!
//! Parser messages quote the value they could not use (`invalid type: string "hunter2", expected
//! a boolean`); a wrongly typed field can hold a secret no redaction rule recognises, so quoted
//! values are replaced by their length.

/// Words after which parser messages quote a value.
const QUOTING: &[&str] = &["string ", "variant ", "value "];

/// Replaces each `"…"` or `` `…` `` quoted after one of [`QUOTING`] with `<N chars>`.
pub(crate) fn elide_quoted_values(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some((at, word)) = QUOTING.iter().filter_map(|w| rest.find(w).map(|i| (i, *w))).min() {
        let after = at + word.len();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '`')) else { continue };
        let Some(end) = closing(&rest[1..], quote) else { continue };
        let inner = &rest[1..1 + end];
        out.push_str(&format!("<{} chars>", inner.chars().count()));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// Index of the unescaped closing quote in `text`.
fn closing(text: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            c if c == quote && !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::elide_quoted_values;

    #[test]
    fn quoted_values_become_their_length() {
        let message =
            r#"field `cwd`: invalid type: string "hunter2 \"x\"", expected a boolean at line 1 column 9"#;
        assert_eq!(
            elide_quoted_values(message),
            "field `cwd`: invalid type: string <13 chars>, expected a boolean at line 1 column 9"
        );
        assert_eq!(elide_quoted_values("unknown variant `prod`"), "unknown variant <4 chars>");
        assert_eq!(elide_quoted_values("no quotes here"), "no quotes here");
        assert_eq!(elide_quoted_values("a string \"unterminated"), "a string \"unterminated");
    }
}
