//! JSON Schemas of the formats others depend on (`HookEvent`, `Note`, the config file), committed
//! under `schemas/` and checked for drift by a test. Regenerate with
//! `UPDATE_SCHEMAS=1 cargo test -p agent-memory-cli schemas`.

/// Every schema, by file name.
pub(crate) fn all() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("hook-event.schema.json", schemars::schema_for!(memory_core::HookEvent).to_value()),
        ("note.schema.json", schemars::schema_for!(memory_core::Note).to_value()),
        ("config.schema.json", schemars::schema_for!(memory_hook::config::Config).to_value()),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn committed_schemas_match_the_code() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
        let update = std::env::var_os("UPDATE_SCHEMAS").is_some();
        let mut stale = Vec::new();
        for (name, schema) in super::all() {
            let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
            let path = dir.join(name);
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                if update {
                    std::fs::write(&path, &text).unwrap();
                } else {
                    stale.push(name);
                }
            }
        }
        assert!(
            stale.is_empty(),
            "schemas/{stale:?} differ from the code; run `UPDATE_SCHEMAS=1 cargo test -p agent-memory-cli schemas` and commit"
        );
    }
}
