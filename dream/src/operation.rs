//! The operations a provider returns, and their JSON schema.
//!
//! The schema is generated from these Rust types and then made "strict-mode friendly": every object
//! lists all of its properties as required and forbids others, optional values are nullable through
//! type unions, and no `pattern`/length/range keywords remain (hosted APIs reject them, and a `pattern`
//! makes small local models loop). Everything those keywords would have said is checked in Rust.

use memory_core::NoteKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What an operation does to a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Write a note that does not exist yet.
    Create,
    /// Rewrite an existing note as a whole (the body replaces the old body; it is not a patch).
    Update,
    /// Delete an existing note.
    Delete,
}

impl Action {
    /// The action as its lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Create => "create",
            Self::Update => "update",
            Self::Delete => "delete",
        }
    }
}

/// One change a provider proposes. Frontmatter fields are filled here; the dream renders the YAML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteOperation {
    /// `create`, `update` or `delete`.
    pub action: Action,
    /// The note's scope: `user`, or `project:<id>` for the project the events belong to.
    pub scope: String,
    /// The note's path, for example `profile/preferences.md` or `project/acme/commands.md`.
    pub path: String,
    /// A short one-line title (required for create and update, null for delete).
    #[serde(default)]
    pub title: Option<String>,
    /// One line saying when the note is useful, or null.
    #[serde(default)]
    pub description: Option<String>,
    /// What sort of knowledge the note holds (required for create and update, null for delete).
    #[serde(default)]
    pub kind: Option<NoteKind>,
    /// Lowercase tags such as `cargo` or `testing`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The whole Markdown body without frontmatter (required for create and update, null for delete).
    #[serde(default)]
    pub body: Option<String>,
    /// Why this change is made, in one sentence.
    #[serde(default)]
    pub reason: String,
    /// Ids of the events this change is based on.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// A provider's whole answer for one chunk of events.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Operations {
    /// The changes, in the order they apply; empty when nothing is worth writing.
    pub operations: Vec<NoteOperation>,
}

/// The name under which the schema is sent (tool name, `json_schema.name`).
pub const SCHEMA_NAME: &str = "write_notes";

/// The JSON schema of [`Operations`], strict-mode friendly (see the module docs).
pub fn operations_schema() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let schema = settings.into_generator().into_root_schema_for::<Operations>();
    let mut value = schema.to_value();
    strictify(&mut value);
    value
}

/// Keywords removed from schemas sent to providers.
const DROPPED_KEYWORDS: &[&str] = &[
    "$schema",
    "title",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "default",
];

fn strictify(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for keyword in DROPPED_KEYWORDS {
                map.remove(*keyword);
            }
            if let Some(Value::Object(properties)) = map.get("properties") {
                let names: Vec<Value> = properties.keys().map(|k| Value::String(k.clone())).collect();
                map.insert("required".to_owned(), Value::Array(names));
                map.insert("additionalProperties".to_owned(), Value::Bool(false));
            }
            for (key, child) in map.iter_mut() {
                match (key.as_str(), child) {
                    ("enum" | "const", _) => (),
                    // A map from property names to schemas: its keys are names, not keywords.
                    ("properties" | "$defs" | "definitions", Value::Object(schemas)) => {
                        schemas.values_mut().for_each(strictify);
                    }
                    (_, child) => strictify(child),
                }
            }
            simplify_enums(map);
        }
        Value::Array(items) => items.iter_mut().for_each(strictify),
        _ => (),
    }
}

/// Rewrites `oneOf` alternatives that are all string constants as one `enum`, and a nullable `enum`
/// (`anyOf: [enum, null]`) as an `enum` with a `["string", "null"]` type: the forms every strict mode
/// accepts.
fn simplify_enums(map: &mut serde_json::Map<String, Value>) {
    if let Some(Value::Array(alternatives)) = map.get("oneOf") {
        let constants: Option<Vec<Value>> = alternatives.iter().map(|a| a.get("const").cloned()).collect();
        if let Some(constants) = constants.filter(|c| c.iter().all(Value::is_string)) {
            map.remove("oneOf");
            map.insert("type".to_owned(), Value::from("string"));
            map.insert("enum".to_owned(), Value::Array(constants));
        }
    }
    if let Some(Value::Array(alternatives)) = map.get("anyOf") {
        let is_null = |v: &Value| v.get("type") == Some(&Value::from("null"));
        let values = match alternatives.as_slice() {
            [a, b] if is_null(b) => a.get("enum").cloned(),
            [a, b] if is_null(a) => b.get("enum").cloned(),
            _ => None,
        };
        if let Some(Value::Array(mut values)) = values {
            values.push(Value::Null);
            map.remove("anyOf");
            map.insert("type".to_owned(), serde_json::json!(["string", "null"]));
            map.insert("enum".to_owned(), Value::Array(values));
        }
    }
}
