//! Why a Cursor hook payload could not be read.

/// Longest message kept from an underlying parser, so an error stays one readable line.
const MAX_DETAIL: usize = 200;

/// A payload that is not a JSON object of the Cursor hook shape.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ParseError {
    /// Nothing but whitespace arrived on stdin.
    #[error("cursor hook payload is empty")]
    Empty,
    /// The bytes are not UTF-8.
    #[error("cursor hook payload is not valid UTF-8 (bad byte at offset {0})")]
    NotUtf8(usize),
    /// The JSON stops before its end.
    #[error("cursor hook payload is truncated JSON: it ends at line {line} column {column}")]
    Truncated {
        /// Line where the input ended.
        line: usize,
        /// Column where the input ended.
        column: usize,
    },
    /// The text is not JSON.
    #[error("cursor hook payload is not valid JSON at line {line} column {column}: {detail}")]
    NotJson {
        /// Line of the first error.
        line: usize,
        /// Column of the first error.
        column: usize,
        /// What the JSON parser said.
        detail: String,
    },
    /// The JSON is not an object.
    #[error("cursor hook payload is a JSON {0}, not an object")]
    NotObject(&'static str),
    /// A known field has the wrong type.
    #[error("cursor hook payload field `{field}` has the wrong type: {detail}")]
    WrongType {
        /// Path of the field (`session_id`, `tool_input.command`).
        field: String,
        /// What was expected and found.
        detail: String,
    },
    /// A field the harness always sends is missing or empty.
    #[error("cursor hook payload has no `{0}`")]
    Missing(String),
}

impl ParseError {
    /// Builds the error for JSON text that did not parse.
    pub(crate) fn from_json(error: &serde_json::Error) -> Self {
        let (line, column) = (error.line(), error.column());
        if error.classify() == serde_json::error::Category::Eof {
            return Self::Truncated { line, column };
        }
        Self::NotJson { line, column, detail: detail(error) }
    }

    /// Builds the error for a parsed object that does not fit the payload types.
    pub(crate) fn from_shape(error: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let field = error.path().to_string();
        let detail = detail(error.inner());
        if field == "." {
            if let Some(name) = detail.strip_prefix("missing field `").and_then(|r| r.strip_suffix('`')) {
                return Self::Missing(name.to_owned());
            }
            return Self::WrongType { field: "(payload)".to_owned(), detail };
        }
        Self::WrongType { field, detail }
    }
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
pub(crate) fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

impl From<ParseError> for memory_core::Error {
    fn from(error: ParseError) -> Self {
        Self::InvalidInput(error.to_string())
    }
}
