//! The plugin OpenCode loads: one JavaScript module, no build step and no dependency.

/// The plugin's file name in OpenCode's plugin folder (`~/.config/opencode/plugins/` or a
/// project's `.opencode/plugins/`).
pub const PLUGIN_FILE: &str = "agent-memory.js";

/// The plugin's source with `@BINARY@` where the hook binary goes.
const TEMPLATE: &str = include_str!("plugin.js");

/// The line every version of our plugin opens with.
const FIRST_LINE: &str = "// agent-memory plugin for OpenCode";

/// The plugin that runs `binary hook opencode` (an absolute path, or `agent-memory` to look it up
/// on `PATH`).
pub fn plugin_source(binary: &str) -> String {
    let literal = serde_json::Value::String(binary.to_owned()).to_string();
    TEMPLATE.replacen("@BINARY@", &literal, 1)
}

/// Whether a file's text is a plugin of ours (any version, any binary), so install may replace it
/// and uninstall remove it.
pub fn is_ours(text: &str) -> bool {
    text.starts_with(FIRST_LINE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_is_a_javascript_string() {
        let source = plugin_source("/opt/a \"b\"/agent-memory");
        assert!(source.contains(r#"const BINARY = "/opt/a \"b\"/agent-memory""#));
        assert!(!source.contains("@BINARY@"));
        assert!(is_ours(&source));
        assert!(!is_ours("export const Mine = async () => ({})\n"));
    }
}
