//! `docs/redaction.md` lists exactly what the catalog holds: every token format (provider, what it
//! is, its marker), every harness line prefix and every `Authorization` scheme. The lists are
//! rendered from the catalog here and must appear in the page as written; on a mismatch the test
//! prints the section to paste.

use memory_redact::catalog::catalog;

/// A table cell: pipes escaped, backticks kept.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The formats table: one row per format, in the order they run.
fn formats_table() -> String {
    let mut out = String::from("| Provider | Format | Marker |\n|---|---|---|\n");
    for format in catalog().formats() {
        out.push_str(&format!("| {} | {} | `{}` |\n", cell(format.provider), cell(format.name), format.kind));
    }
    out
}

/// The line prefixes table.
fn prefixes_table() -> String {
    let mut out = String::from("| Harness | Where | Example |\n|---|---|---|\n");
    for prefix in catalog().line_prefixes() {
        out.push_str(&format!(
            "| {} | {} | `{}` |\n",
            cell(prefix.harness),
            cell(prefix.carrier),
            prefix.sample.trim_end()
        ));
    }
    out
}

/// The `Authorization` schemes, as one line of code spans.
fn schemes_line() -> String {
    let schemes: Vec<String> = catalog().auth_schemes().iter().map(|s| format!("`{s}`")).collect();
    format!("{}.\n", schemes.join(", "))
}

#[test]
fn the_redaction_page_lists_every_format_prefix_and_scheme() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/redaction.md");
    let page = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let count = format!("{} token formats", catalog().formats().len());
    assert!(page.contains(&count), "docs/redaction.md should say \"{count}\"");
    for (what, section) in
        [("formats", formats_table()), ("line prefixes", prefixes_table()), ("schemes", schemes_line())]
    {
        assert!(
            page.contains(&section),
            "docs/redaction.md does not list the catalog's {what} as they are; the section is:\n\n{section}"
        );
    }
}
