//! Properties: redaction never panics and is idempotent.

use proptest::prelude::*;
use serde_json::json;

use std::sync::LazyLock;

use super::super::Redactor;
use super::tool_event;

/// Fragments that exercise the rules: names, operators, quotes, prefixes, tags and noise.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("password".to_owned()),
        Just("TOKEN".to_owned()),
        Just("api_key".to_owned()),
        Just("export ".to_owned()),
        Just("=".to_owned()),
        Just(": ".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("\\\"".to_owned()),
        Just("\n".to_owned()),
        Just("\\n".to_owned()),
        Just(" ".to_owned()),
        Just("<private>".to_owned()),
        Just("</PRIVATE>".to_owned()),
        Just("[REDACTED:".to_owned()),
        Just("]".to_owned()),
        Just("https://".to_owned()),
        Just("@".to_owned()),
        Just("Bearer ".to_owned()),
        Just("Authorization: ".to_owned()),
        Just("-----BEGIN RSA PRIVATE KEY-----".to_owned()),
        Just("-----END RSA PRIVATE KEY-----".to_owned()),
        Just(["gh", "p_"].concat()),
        Just(["AK", "IA"].concat()),
        Just(["s", "k-"].concat()),
        Just(["ey", "J"].concat()),
        Just(".".to_owned()),
        Just("[agent-memory: output truncated, 12 bytes omitted]".to_owned()),
        "[A-Za-z0-9]{1,40}",
        "[a-f0-9]{32,40}",
        "\\PC{0,8}",
    ]
}

/// One redactor for every case, as a hook process would use it.
static REDACTOR: LazyLock<Redactor> = LazyLock::new(Redactor::new);

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..24).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn redacting_twice_equals_redacting_once(input in text()) {
        let r = &*REDACTOR;
        let once = r.redact_text(&input).into_owned();
        let twice = r.redact_text(&once).into_owned();
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn arbitrary_strings_never_panic(input in "\\PC*") {
        let r = &*REDACTOR;
        let once = r.redact_text(&input).into_owned();
        prop_assert_eq!(r.redact_text(&once).into_owned(), once);
    }

    #[test]
    fn events_are_idempotent_too(input in text(), max in 0usize..400) {
        let r = &*REDACTOR;
        let mut event = tool_event(&input, json!({"stdout": input.clone(), "stderr": input.clone()}), Some(&input));
        r.redact_event(&mut event, max);
        let once = event.clone();
        r.redact_event(&mut event, max);
        prop_assert_eq!(event, once);
    }
}

/// Texts built from what the gated rules look for: upper- and lower-case names with
/// underscores, colons, quotes, escapes and spaces.
fn gated_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("_".to_owned()),
        Just(":".to_owned()),
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        Just("\"".to_owned()),
        Just("\\".to_owned()),
        Just("\\n".to_owned()),
        Just("'".to_owned()),
        Just("é".to_owned()),
        "[A-Z]{1,3}".prop_map(|s| s),
        "[a-z]{1,3}".prop_map(|s| s),
        "[0-9]{1,2}".prop_map(|s| s),
        "[A-Za-z0-9_:=\\\\\"' ]{1,6}".prop_map(|s| s),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// A gate is a necessary condition: a text it turns away is one the rule's pattern never
    /// matches, so gating changes what is redacted in no case.
    #[test]
    fn a_gate_turns_away_only_texts_its_pattern_cannot_match(text in gated_text()) {
        for rule in super::super::rules::RULES.iter() {
            let Some(gate) = rule.gate else { continue };
            if !gate(text.as_bytes()) {
                let regex = regex::Regex::new(rule.pattern).unwrap();
                prop_assert!(regex.find(&text).is_none(), "{} matches {text:?}", rule.kind);
            }
        }
    }
}

#[test]
fn payload_keys_pass_the_trigger_but_not_the_gate_and_upper_case_names_pass_both() {
    use super::super::rules::upper_snake_then_colon as gate;
    assert!(!gate(br#"session_id"#) && !gate(b"tool_use_id") && !gate(b"hook_event_name"));
    assert!(!gate(b"AWS_SECRET_ACCESS_KEY"), "no colon after it");
    assert!(gate(br#""AWS_SECRET_ACCESS_KEY": "x""#));
    assert!(gate(b"DB_PASS: hunter2"));
    let secret = super::Fake::new(17).chars(super::ALNUM, 40);
    let text = format!("MY_SERVICE_VALUE: {secret}");
    let redacted = Redactor::new().redact_text(&text);
    assert!(!redacted.contains(&secret), "still redacted behind the gate: {redacted}");
}
