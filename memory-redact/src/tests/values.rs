//! JSON values: secret-named keys, secret-looking keys, containers, and the counts.

use serde_json::json;

use super::super::Redactor;
use super::{ALNUM, Fake, cat};

#[test]
fn values_under_secret_named_keys_are_replaced_however_short() {
    let r = Redactor::new();
    let mut v = json!({
        "password": "hunter2",
        "db": {"PASSWORD": "x", "user": "app", "pin_code": "1234"},
        "auth": {"apiKey": "abc", "token_type": "Bearer", "expires_in": 3600},
        "client_secret": "s",
        "passcode_hint": "",
        "pwd": "/home/alice",
        "list": [{"token": "t0k"}],
    });
    r.redact_value(&mut v);
    assert_eq!(v["password"], json!("[REDACTED:password]"));
    assert_eq!(v["db"]["PASSWORD"], json!("[REDACTED:password]"));
    assert_eq!(v["db"]["user"], json!("app"));
    assert_eq!(v["auth"]["apiKey"], json!("[REDACTED:api-key]"));
    assert_eq!(v["auth"]["token_type"], json!("Bearer"));
    assert_eq!(v["auth"]["expires_in"], json!(3600));
    assert_eq!(v["client_secret"], json!("[REDACTED:secret]"));
    assert_eq!(v["pwd"], json!("/home/alice"));
    assert_eq!(v["list"][0]["token"], json!("[REDACTED:token]"));
    assert_eq!(r.totals().get("password"), 2);
}

#[test]
fn numeric_passwords_and_secret_containers_are_replaced() {
    let r = Redactor::new();
    let mut v = json!({"password": 123456, "max_tokens": 1024, "secrets": {"DB_PASS": "pw", "n": 3}});
    r.redact_value(&mut v);
    assert_eq!(v["password"], json!("[REDACTED:password]"));
    assert_eq!(v["max_tokens"], json!(1024));
    assert_eq!(v["secrets"]["DB_PASS"], json!("[REDACTED:secret]"));
    assert_eq!(v["secrets"]["n"], json!(3));
}

#[test]
fn object_keys_that_are_secrets_are_redacted() {
    let r = Redactor::new();
    let token = cat(&["gh", "p_"]) + &Fake::new(3).chars(ALNUM, 36);
    let mut v = json!({ token.clone(): {"scopes": ["repo"]}, "plain": "value" });
    r.redact_value(&mut v);
    let text = v.to_string();
    assert!(!text.contains(&token), "{text}");
    assert_eq!(v["[REDACTED:github-token]"], json!({"scopes": ["repo"]}));
    assert_eq!(v["plain"], json!("value"));
}

#[test]
fn counts_name_kinds_never_secrets() {
    let r = Redactor::new();
    let token = cat(&["gh", "p_"]) + &Fake::new(4).chars(ALNUM, 36);
    let text = format!("a {token} b password=hunter22 c <private>x</private>");
    let out = r.redact_text(&text);
    assert_eq!(out, "a [REDACTED:github-token] b password=[REDACTED:password] c [private]");
    let totals = r.totals();
    assert_eq!(totals.to_string(), "github-token=1 password=1 private=1");
    assert_eq!(totals.total(), 3);
    assert_eq!(totals.iter().count(), 3);
}

#[test]
fn every_built_in_pattern_compiles() {
    for rule in super::super::rules::RULES {
        let pattern = super::super::rules::expand(rule.pattern);
        assert!(regex::Regex::new(&pattern).is_ok(), "{pattern}");
        assert!(rule.triggers.iter().all(|t| !t.is_empty() && t.is_ascii()), "{}", rule.kind);
    }
}

#[test]
fn the_debug_form_shows_no_text() {
    let r = Redactor::new();
    let _ = r.redact_text("password=hunter22");
    let debug = format!("{r:?}");
    assert!(debug.contains("Redactor") && !debug.contains("hunter22"), "{debug}");
}

#[test]
fn everyday_tool_text_compiles_no_pattern() {
    let r = Redactor::new();
    let text =
        "cargo test --workspace -q\ntest result: ok. 42 passed; 0 failed\nback to the stack, task done";
    assert_eq!(r.redact_text(text), text);
    assert!(format!("{r:?}").contains("compiled: 0"), "{r:?}");
}

#[test]
fn capitalised_triggers_match_exactly_and_lowercase_ones_in_any_case() {
    use super::super::catalog::catalog;
    use super::super::providers::Providers;
    use super::super::rules::{RULES, TriggerIndex};
    let index = TriggerIndex::new(RULES);
    let bit = |kind: &str| {
        let at = RULES.iter().position(|r| r.kind == kind).expect("rule");
        1u64 << at
    };
    assert_eq!(index.scan("no secret here, discord later") & bit("discord-bot-token"), 0);
    assert_ne!(index.scan("token MTA0") & bit("discord-bot-token"), 0);
    let providers = Providers::new(catalog());
    let kinds = |text: &str| -> Vec<&str> {
        providers.triggered(text).into_iter().map(|i| catalog().formats()[i].kind).collect()
    };
    assert!(!kinds("back on track, ask the task").contains(&"twilio-key"));
    assert!(kinds("sid AC0123").contains(&"twilio-key"));
    assert!(kinds("GHP_ABC").contains(&"github-token"), "lowercase keywords ignore case");
    assert!(kinds("a qwerty SSWS header").contains(&"okta-api-token"));
}

#[test]
fn custom_rules_run_first_and_name_their_marker() {
    use super::super::{CustomRule, Error};
    let rules = vec![
        CustomRule::pattern("acme-token", r"acme_[a-z]+_[0-9a-f]{8,}").unwrap(),
        CustomRule::pattern("deploy-key", r"deploy-key: (\S+)").unwrap(),
        CustomRule::literal("wifi", "Tr0ub4dor-and-3").unwrap(),
    ];
    let r = Redactor::with_rules(rules);
    let out = r.redact_text("use acme_int_0a1b2c3d4e, deploy-key: k3y-v4lue and the wifi Tr0ub4dor-and-3");
    assert_eq!(
        out,
        "use [REDACTED:acme-token], deploy-key: [REDACTED:deploy-key] and the wifi [REDACTED:wifi]"
    );
    assert_eq!(r.totals().get("acme-token"), 1);
    assert_eq!(r.totals().get("wifi"), 1);
    assert!(!format!("{r:?}").contains("Tr0ub4dor"));
    assert!(!r.set_rules(Vec::new()), "the first rules stay");
    assert!(matches!(CustomRule::literal("wifi", "abc"), Err(Error::ShortValue { .. })));
    assert!(matches!(CustomRule::pattern("Bad Name", "x"), Err(Error::Name { .. })));
    assert!(matches!(CustomRule::pattern("empty", "a*"), Err(Error::Pattern { .. })));
    assert!(matches!(CustomRule::pattern("broken", "(unclosed"), Err(Error::Pattern { .. })));
}

#[test]
fn authorization_headers_lose_their_credential_whatever_the_scheme() {
    let r = Redactor::new();
    let okta = format!("00{}", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcD");
    let cases = [
        format!("Authorization: SSWS {okta}"),
        format!("curl -H \"authorization: ssws {okta}\" https://acme.okta.com/api/v1/users"),
        format!("{{\"headers\": {{\"Authorization\": \"SSWS {okta}\"}}}}"),
        format!("Authorization: Acme-HMAC {okta}"),
        format!("proxy-authorization: Negotiate {okta}"),
    ];
    for text in &cases {
        let out = r.redact_text(text);
        assert!(!out.contains(&okta[4..]), "{text} -> {out}");
    }
    for prose in [
        "authorization: this header carries the caller's credential",
        "Authorization: required for every endpoint",
        "authorization: Bearer",
    ] {
        assert_eq!(r.redact_text(prose), prose);
    }
}
