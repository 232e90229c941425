//! The operations schema is strict-mode friendly.

use serde_json::Value;

fn check_strict(schema: &Value, at: &str) {
    match schema {
        Value::Object(map) => {
            for keyword in [
                "pattern",
                "maxLength",
                "minLength",
                "minimum",
                "maximum",
                "format",
                "$ref",
                "oneOf",
                "anyOf",
            ] {
                assert!(!map.contains_key(keyword), "{at} has `{keyword}`");
            }
            if let Some(Value::Object(properties)) = map.get("properties") {
                let mut names: Vec<&String> = properties.keys().collect();
                names.sort();
                let mut required: Vec<&String> = map["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| match v {
                        Value::String(s) => s,
                        _ => panic!("{at}: required holds a non-string"),
                    })
                    .collect();
                required.sort();
                assert_eq!(names, required, "{at}: every property must be required");
                assert_eq!(map["additionalProperties"], Value::Bool(false), "{at}");
                for (name, child) in properties {
                    check_strict(child, &format!("{at}.{name}"));
                }
            }
            for (key, child) in map {
                if key != "properties" {
                    check_strict(child, &format!("{at}/{key}"));
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| check_strict(item, at)),
        _ => (),
    }
}

#[test]
fn operations_schema_is_strict_and_stable() {
    let schema = dream::operations_schema();
    check_strict(&schema, "$");
    let op = &schema["properties"]["operations"]["items"];
    assert_eq!(op["properties"]["title"]["type"], serde_json::json!(["string", "null"]));
    insta::assert_json_snapshot!("operations_schema", schema);
}
