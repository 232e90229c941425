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
