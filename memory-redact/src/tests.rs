//! Tests of the redaction engine, and the helpers they share: a deterministic generator of fake
//! secrets (assembled at run time, so the repository holds no token-shaped literals) and an event
//! builder that mirrors what the harness adapters produce.

mod capping;
mod corpus;
mod negative;
mod private_tags;
mod props;
mod values;

use chrono::{TimeZone, Utc};
use memory_core::{EventId, EventKind, Harness, HookEvent, SessionKey, ToolCall};
use serde_json::{Value, json};

/// Deterministic pseudo-random characters for fake secrets (SplitMix64).
pub(super) struct Fake(u64);

pub(super) const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
pub(super) const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub(super) const UPPER_ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
pub(super) const HEX: &str = "0123456789abcdef";
pub(super) const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub(super) const B64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
pub(super) const DIGITS: &str = "0123456789";

impl Fake {
    pub(super) fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `n` characters drawn from `alphabet`, with at least one digit when the alphabet has digits
    /// (so generated tokens look like the real ones).
    pub(super) fn chars(&mut self, alphabet: &str, n: usize) -> String {
        let bytes = alphabet.as_bytes();
        let mut out: Vec<u8> =
            (0..n).map(|_| bytes[usize::try_from(self.next() % bytes.len() as u64).unwrap()]).collect();
        if n > 2 && alphabet.contains('7') && !out.iter().any(u8::is_ascii_digit) {
            out[n / 2] = b'7';
        }
        String::from_utf8(out).unwrap()
    }

    /// A UUID-shaped hex string.
    pub(super) fn uuid(&mut self) -> String {
        format!(
            "{}-{}-{}-{}-{}",
            self.chars(HEX, 8),
            self.chars(HEX, 4),
            self.chars(HEX, 4),
            self.chars(HEX, 4),
            self.chars(HEX, 12)
        )
    }
}

/// Joins parts; used to spell token prefixes so no scanner mistakes the sources for secrets.
pub(super) fn cat(parts: &[&str]) -> String {
    parts.concat()
}

/// A PostToolUse event shaped like the Claude adapter's output, with the raw payload mirroring the
/// typed fields.
pub(super) fn tool_event(command: &str, output: Value, prompt: Option<&str>) -> HookEvent {
    let raw = json!({
        "session_id": "c3b4152b-2fde-4e5c-aca4-4191a32b8622",
        "transcript_path": "/home/alice/.claude/projects/-home-alice-src-acme/c3b4152b.jsonl",
        "cwd": "/home/alice/src/acme",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
        "tool_response": output.clone(),
        "prompt": prompt,
        "tool_use_id": "toolu_49e74179098b4fc9bb8bedcb",
    });
    let mut event = HookEvent::new(
        EventId("0123456789abcdef0123456789abcdef".to_owned()),
        Harness::named("claude"),
        SessionKey::new("claude", "c3b4152b-2fde-4e5c-aca4-4191a32b8622"),
        EventKind::PostToolUse,
        Utc.with_ymd_and_hms(2026, 8, 13, 13, 49, 56).unwrap(),
        raw,
    );
    event.cwd = Some("/home/alice/src/acme".to_owned());
    event.prompt = prompt.map(str::to_owned);
    event.tool = Some(ToolCall {
        name: "Bash".to_owned(),
        use_id: Some("toolu_49e74179098b4fc9bb8bedcb".to_owned()),
        input: Some(json!({"command": command, "description": "Run it"})),
        output: Some(output),
        error: None,
        duration_ms: Some(29),
        // As an adapter describes a shell call: the command is copied out of the input.
        shell: Some(memory_core::ShellCall::new(command)),
        ..ToolCall::default()
    });
    event
}

/// Every string of a JSON value (keys included), joined by newlines: the unescaped text a reader
/// of the stored event could see.
pub(super) fn all_strings(value: &Value) -> String {
    fn walk(value: &Value, out: &mut String) {
        match value {
            Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, out)),
            Value::Object(map) => {
                for (key, item) in map {
                    out.push_str(key);
                    out.push('\n');
                    walk(item, out);
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    walk(value, &mut out);
    out
}

/// Asserts that neither `secret` nor any 12-character piece of it occurs in the serialized event
/// or in any of its strings.
pub(super) fn assert_no_leak(event: &HookEvent, secret: &str, label: &str) {
    let serialized = serde_json::to_string(event).unwrap();
    let strings = all_strings(&serde_json::to_value(event).unwrap());
    let chars: Vec<char> = secret.chars().collect();
    let mut pieces = vec![secret.to_owned()];
    if chars.len() >= 12 {
        pieces.extend(chars.windows(12).map(|w| w.iter().collect::<String>()));
    }
    for piece in pieces.iter().filter(|p| !p.contains(['\n', '"', '\\'])) {
        assert!(!serialized.contains(piece.as_str()), "{label}: `{piece}` survived in {serialized}");
        assert!(!strings.contains(piece.as_str()), "{label}: `{piece}` survived in {strings}");
    }
    assert!(!strings.contains(secret), "{label}: secret survived in {strings}");
}
