//! `redact --check FILE|-`: what a text would become once redacted (the built-in rules and the
//! configured ones), and what was redacted, by rule.

use std::io::Read as _;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::output;

/// Prints `source` (a file, or `-` for stdin) redacted on stdout, and a summary by rule on stderr
/// (or both as JSON with `--json`).
pub(crate) fn check(json: bool, source: &str) -> anyhow::Result<ExitCode> {
    let config = memory_hook::Config::load()?;
    let text = if source == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("cannot read stdin")?;
        text
    } else {
        std::fs::read_to_string(source).with_context(|| format!("cannot read {source}"))?
    };
    let redactor = config.redactor();
    let mut counts = memory_redact::RedactionCounts::default();
    let redacted = redactor.redact_text_counted(&text, &mut counts);
    if json {
        let by_rule: std::collections::BTreeMap<&str, usize> = counts.iter().collect();
        output::json(&serde_json::json!({ "text": redacted, "redacted": by_rule, "total": counts.total() }))?;
    } else {
        output::print(redacted.trim_end_matches('\n'));
        output::error(&format!("redacted: {counts}"));
    }
    Ok(ExitCode::SUCCESS)
}
