//! Reading a harness's hook payload from stdin bytes, with one-line errors that name the harness.
//!
//! Every harness sends one JSON object per hook. [`parse_payload`] accepts a UTF-8 byte-order mark
//! and surrounding whitespace, and turns every way the bytes can be wrong (empty, not UTF-8,
//! truncated JSON, not JSON, not an object, a field of the wrong type, a missing field) into an
//! [`Error::InvalidInput`] whose message starts with `<harness> hook payload`.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{Error, Result};

/// Longest message kept from an underlying parser, so an error stays one readable line.
const MAX_DETAIL: usize = 200;

/// Reads stdin bytes into the raw JSON object and the typed payload `T`.
///
/// `harness` names the harness in error messages (`claude hook payload is empty`).
pub fn parse_payload<T: DeserializeOwned>(harness: &str, bytes: &[u8]) -> Result<(Value, T)> {
    let fail = |what: String| Error::InvalidInput(format!("{harness} hook payload {what}"));
    let text = std::str::from_utf8(bytes)
        .map_err(|e| fail(format!("is not valid UTF-8 (bad byte at offset {})", e.valid_up_to())))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(fail("is empty".to_owned()));
    }
    let raw: Value = serde_json::from_str(text).map_err(|e| fail(not_json(&e)))?;
    if !raw.is_object() {
        return Err(fail(format!("is a JSON {}, not an object", json_type(&raw))));
    }
    let typed: T = serde_path_to_error::deserialize(&raw).map_err(|e| fail(wrong_shape(&e)))?;
    Ok((raw, typed))
}

/// The error for a field the harness always sends that is missing or empty.
///
/// Its message reads ``<harness> hook payload has no `<field>` ``.
pub fn missing_field(harness: &str, field: &str) -> Error {
    Error::InvalidInput(format!("{harness} hook payload has no `{field}`"))
}

/// What is wrong with JSON text that did not parse.
fn not_json(error: &serde_json::Error) -> String {
    let (line, column) = (error.line(), error.column());
    if error.classify() == serde_json::error::Category::Eof {
        return format!("is truncated JSON: it ends at line {line} column {column}");
    }
    format!("is not valid JSON at line {line} column {column}: {}", detail(error))
}

/// What is wrong with a parsed object that does not fit the payload type.
fn wrong_shape(error: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let field = error.path().to_string();
    let detail = detail(error.inner());
    if field == "." {
        if let Some(name) = detail.strip_prefix("missing field `").and_then(|r| r.strip_suffix('`')) {
            return format!("has no `{name}`");
        }
        return format!("field `(payload)` has the wrong type: {detail}");
    }
    format!("field `{field}` has the wrong type: {detail}")
}

/// The parser's message without its position suffix, on one line and bounded in length.
fn detail(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" at line ") {
        Some(at) if error.line() > 0 => &text[..at],
        _ => text.as_str(),
    };
    let mut out: String =
        text.chars().map(|c| if c.is_control() { ' ' } else { c }).take(MAX_DETAIL).collect();
    if text.chars().count() > MAX_DETAIL {
        out.push('…');
    }
    out
}

/// The JSON type of a value, in words.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Input {
        session_id: String,
        #[serde(default)]
        duration_ms: Option<f64>,
    }

    fn error(bytes: &[u8]) -> String {
        parse_payload::<Input>("demo", bytes).unwrap_err().to_string()
    }

    #[test]
    fn reads_an_object_after_a_byte_order_mark() {
        let (raw, input) =
            parse_payload::<Input>("demo", "\u{feff} {\"session_id\":\"s\"}\n".as_bytes()).unwrap();
        assert_eq!(input.session_id, "s");
        assert_eq!(input.duration_ms, None);
        assert_eq!(raw, serde_json::json!({ "session_id": "s" }));
    }

    #[test]
    fn every_failure_is_one_line_naming_the_harness() {
        assert_eq!(error(b" \n"), "invalid input: demo hook payload is empty");
        assert_eq!(
            error(b"\xff{}"),
            "invalid input: demo hook payload is not valid UTF-8 (bad byte at offset 0)"
        );
        assert_eq!(
            error(b"{\"session_id\":"),
            "invalid input: demo hook payload is truncated JSON: it ends at line 1 column 14"
        );
        assert!(
            error(b"{nope}")
                .starts_with("invalid input: demo hook payload is not valid JSON at line 1 column 2: ")
        );
        assert_eq!(error(b"[1]"), "invalid input: demo hook payload is a JSON array, not an object");
        assert_eq!(error(b"{}"), "invalid input: demo hook payload has no `session_id`");
        assert_eq!(
            error(br#"{"session_id":"s","duration_ms":"1"}"#),
            "invalid input: demo hook payload field `duration_ms` has the wrong type: invalid type: string \"1\", expected f64"
        );
        assert_eq!(missing_field("demo", "cwd").to_string(), "invalid input: demo hook payload has no `cwd`");
    }
}
