//! The positive corpus: fake secrets of many formats, each embedded in realistic contexts, must
//! not survive anywhere in a redacted event, and must leave the right marker.

use serde_json::{Value, json};

use super::super::Redactor;
use super::{ALNUM, B64, B64URL, DIGITS, Fake, HEX, UPPER, UPPER_ALNUM, assert_no_leak, cat, tool_event};

/// One secret format: the marker kind expected, the secret, and the snippet that carries it.
struct Case {
    kind: &'static str,
    secret: String,
    snippet: String,
    /// Whether the snippet reads naturally inside a one-line shell command or prose sentence.
    inline: bool,
    /// Whether the snippet can ride in a URL query string.
    url: bool,
}

fn case(kind: &'static str, secret: String, snippet: String) -> Case {
    let url = !snippet_has_space(&snippet);
    Case { kind, secret, snippet, inline: true, url }
}

fn snippet_has_space(s: &str) -> bool {
    s.contains([' ', '\n', '"', '\''])
}

/// A token whose snippet is the token itself.
fn token(kind: &'static str, secret: String) -> Case {
    case(kind, secret.clone(), secret)
}

/// A secret that only a line-oriented rule can see (PEM blocks, env lines).
fn block(kind: &'static str, secret: String, snippet: String) -> Case {
    Case { kind, secret, snippet, inline: false, url: false }
}

fn pem(label: &str, f: &mut Fake) -> Case {
    let body: Vec<String> = (0..6).map(|_| f.chars(B64, 64)).collect();
    let body = body.join("\n");
    let key = cat(&["PRIV", "ATE KEY"]);
    let suffix = if label == "PGP" { " BLOCK" } else { "" };
    let head = if label.is_empty() { String::new() } else { format!("{label} ") };
    let snippet = format!("-----BEGIN {head}{key}{suffix}-----\n{body}\n-----END {head}{key}{suffix}-----");
    block("private-key", body, snippet)
}

#[allow(clippy::too_many_lines)]
fn cases() -> Vec<Case> {
    let mut f = Fake::new(0x5eed_1234);
    let aws_id = cat(&["AK", "IA"]) + &f.chars(UPPER_ALNUM, 16);
    let sts_id = cat(&["AS", "IA"]) + &f.chars(UPPER_ALNUM, 16);
    let aws_secret = f.chars(B64, 40);
    let aws_secret_json = f.chars(B64, 40);
    let pem_json_body = f.chars(B64, 64);
    let jwt = format!(
        "{}{}.{}{}.{}",
        cat(&["ey", "J"]),
        f.chars(B64URL, 30),
        cat(&["ey", "J"]),
        f.chars(B64URL, 60),
        f.chars(B64URL, 43)
    );
    let basic = f.chars(B64, 28) + "==";
    let mut out = vec![
        token("aws-access-key", aws_id),
        token("aws-access-key", sts_id),
        case("aws-secret-key", aws_secret.clone(), format!("AWS_SECRET_ACCESS_KEY={aws_secret}")),
        case(
            "aws-secret-key",
            aws_secret_json.clone(),
            format!("\"aws_secret_access_key\": \"{aws_secret_json}\""),
        ),
        token("gcp-api-key", cat(&["AI", "za"]) + &f.chars(B64URL, 35)),
        {
            let id = f.chars(HEX, 40);
            case("gcp-service-account-key", id.clone(), format!("\"private_key_id\": \"{id}\""))
        },
        block(
            "private-key",
            pem_json_body.clone(),
            format!(
                "{{\"type\": \"service_account\", \"private_key\": \"-----BEGIN {k}-----\\n{pem_json_body}\\n-----END {k}-----\\n\"}}",
                k = cat(&["PRIV", "ATE KEY"])
            ),
        ),
        pem("RSA", &mut f),
        pem("EC", &mut f),
        pem("OPENSSH", &mut f),
        pem("PGP", &mut f),
        pem("ENCRYPTED", &mut f),
        pem("", &mut f),
        {
            let key = f.chars(B64, 86) + "==";
            case(
                "azure-storage-key",
                key.clone(),
                format!(
                    "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey={key};EndpointSuffix=core.windows.net"
                ),
            )
        },
        {
            let sig = f.chars(ALNUM, 43) + "%3D";
            case(
                "azure-sas-token",
                sig.clone(),
                format!("https://acmestore.blob.core.windows.net/logs/app.log?sv=2022-11-02&sp=r&sig={sig}"),
            )
        },
        token("github-token", cat(&["gh", "p_"]) + &f.chars(ALNUM, 36)),
        token("github-token", cat(&["gh", "o_"]) + &f.chars(ALNUM, 36)),
        token("github-token", cat(&["gh", "u_"]) + &f.chars(ALNUM, 36)),
        token("github-token", cat(&["gh", "s_"]) + &f.chars(ALNUM, 36)),
        token("github-token", cat(&["gh", "r_"]) + &f.chars(ALNUM, 36)),
        token("github-token", cat(&["github", "_pat_"]) + &f.chars(ALNUM, 22) + "_" + &f.chars(ALNUM, 59)),
        token("gitlab-token", cat(&["gl", "pat-"]) + &f.chars(B64URL, 20)),
        token(
            "slack-token",
            format!(
                "{}{}-{}-{}",
                cat(&["xo", "xb-"]),
                f.chars(DIGITS, 12),
                f.chars(DIGITS, 13),
                f.chars(ALNUM, 24)
            ),
        ),
        token(
            "slack-token",
            format!(
                "{}{}-{}-{}",
                cat(&["xo", "xp-"]),
                f.chars(DIGITS, 12),
                f.chars(DIGITS, 13),
                f.chars(ALNUM, 32)
            ),
        ),
        token(
            "slack-webhook",
            format!(
                "https://{}/services/T{}/B{}/{}",
                cat(&["hooks.", "slack.com"]),
                f.chars(UPPER_ALNUM, 10),
                f.chars(UPPER_ALNUM, 10),
                f.chars(ALNUM, 24)
            ),
        ),
        token("openai-api-key", cat(&["s", "k-"]) + &f.chars(ALNUM, 48)),
        token("openai-api-key", cat(&["s", "k-proj-"]) + &f.chars(B64URL, 120)),
        token("anthropic-api-key", cat(&["s", "k-ant-api03-"]) + &f.chars(B64URL, 93) + "AA"),
        token("stripe-key", cat(&["s", "k_live_"]) + &f.chars(ALNUM, 24)),
        token("stripe-key", cat(&["r", "k_live_"]) + &f.chars(ALNUM, 24)),
        token("stripe-key", cat(&["p", "k_live_"]) + &f.chars(ALNUM, 24)),
        token("twilio-key", cat(&["S", "K"]) + &f.chars(HEX, 32)),
        token(
            "sendgrid-api-key",
            format!("{}{}.{}", cat(&["S", "G."]), f.chars(B64URL, 22), f.chars(B64URL, 43)),
        ),
        token("npm-token", cat(&["np", "m_"]) + &f.chars(ALNUM, 36)),
        token("pypi-token", cat(&["py", "pi-AgEIcHlwaS5vcmc"]) + &f.chars(B64URL, 70)),
        token("docker-hub-token", cat(&["dckr", "_pat_"]) + &f.chars(B64URL, 27)),
        token("huggingface-token", cat(&["h", "f_"]) + &f.chars(ALNUM, 34)),
        token("google-oauth-token", cat(&["ya", "29."]) + &f.chars(B64URL, 60)),
        token("google-oauth-client-secret", cat(&["GOC", "SPX-"]) + &f.chars(B64URL, 28)),
        token("heroku-api-key", cat(&["HR", "KU-"]) + "AA" + &f.chars(B64URL, 58)),
        {
            let key = f.uuid();
            case("heroku-api-key", key.clone(), format!("HEROKU_API_KEY={key}"))
        },
        token("mailgun-api-key", cat(&["ke", "y-"]) + &f.chars(HEX, 32)),
        token("digitalocean-token", cat(&["do", "p_v1_"]) + &f.chars(HEX, 64)),
        token("shopify-token", cat(&["shp", "at_"]) + &f.chars(HEX, 32)),
        token("databricks-token", cat(&["da", "pi"]) + &f.chars(HEX, 32)),
        token("linear-api-key", cat(&["lin", "_api_"]) + &f.chars(ALNUM, 40)),
        token("doppler-token", cat(&["dp", ".st.prd."]) + &f.chars(ALNUM, 43)),
        token("stripe-key", cat(&["wh", "sec_"]) + &f.chars(ALNUM, 32)),
        token("jwt", jwt),
        {
            let t = f.chars(B64URL, 40);
            case("bearer-token", t.clone(), format!("Authorization: Bearer {t}"))
        },
        case("basic-auth", basic.clone(), format!("Authorization: Basic {basic}")),
        {
            let p = f.chars(ALNUM, 20);
            case("url-credentials", p.clone(), format!("https://deploy:{p}@git.example.com/acme/api.git"))
        },
        {
            let p = f.chars(ALNUM, 18);
            case("db-credentials", p.clone(), format!("postgres://app:{p}@db.internal:5432/app"))
        },
        {
            let p = f.chars(ALNUM, 18);
            case("db-credentials", p.clone(), format!("mongodb+srv://svc:{p}@cluster0.example.net/prod"))
        },
        {
            let p = f.chars(ALNUM, 18);
            case("db-credentials", p.clone(), format!("redis://:{p}@cache.internal:6379/0"))
        },
        {
            let p = f.chars(ALNUM, 16);
            case("basic-auth", p.clone(), format!("curl -u admin:{p} https://jenkins.example.com/api/json"))
        },
    ];
    out.extend(assignments(&mut f));
    for c in &mut out {
        if c.kind == "private-key" {
            c.inline = false;
        }
    }
    out
}

/// Secrets recognised by the name they are assigned to.
fn assignments(f: &mut Fake) -> Vec<Case> {
    let mut v = Vec::new();
    let mut add = |kind: &'static str, template: &str, secret: String| {
        v.push(case(kind, secret.clone(), template.replace("{}", &secret)));
    };
    add("password", "password={}", f.chars(ALNUM, 14));
    add("password", "DB_PASSWORD=\"{}\"", f.chars(ALNUM, 14) + "!#");
    add("password", "passwd: {}", f.chars(ALNUM, 14));
    add("password", "MYSQL_PWD={}", f.chars(ALNUM, 14));
    add("password", "\"password\": \"{}\"", f.chars(ALNUM, 12));
    add("password", "{'password': '{}'}", f.chars(ALNUM, 12));
    add("password", "Server=db;Database=app;User Id=sa;Password={};", f.chars(ALNUM, 16));
    add("password", "jdbc:mysql://db:3306/app?user=app&password={}", f.chars(ALNUM, 16));
    add("password", "mysqladmin --password {} status", f.chars(ALNUM, 16));
    add("secret", "secret={}", f.chars(ALNUM, 24));
    add("secret", "client_secret={}", f.chars(B64URL, 32));
    add("secret", "\"clientSecret\": \"{}\"", f.chars(ALNUM, 32));
    add("token", "token={}", f.chars(ALNUM, 32));
    add("token", "export DEPLOY_TOKEN={}", f.chars(ALNUM, 32));
    add("token", "refresh_token: {}", f.chars(B64URL, 40));
    add("api-key", "api_key={}", f.chars(ALNUM, 32));
    add("api-key", "\"apikey\": \"{}\"", f.chars(ALNUM, 32));
    add("api-key", "X_API_KEY = '{}'", f.chars(ALNUM, 32));
    add("access-key", "access_key={}", f.chars(ALNUM, 32));
    add("credentials", "credentials={}", f.chars(ALNUM, 32));
    let high = f.chars(ALNUM, 20) + &f.chars(UPPER, 4) + &f.chars(DIGITS, 4);
    v.push(block("high-entropy", high.clone(), format!("NEXT_PUBLIC_ANALYTICS_ID={high}")));
    let high = f.chars(ALNUM, 32);
    v.push(block("high-entropy", high.clone(), format!("export SENTRY_DSN_PART=\"{high}\"")));
    v
}

/// The contexts a snippet is embedded in; each yields one event.
fn contexts(c: &Case) -> Vec<(&'static str, memory_core::HookEvent)> {
    let s = &c.snippet;
    let mut out = vec![
        (
            "shell script",
            tool_event(
                &format!("set -euo pipefail\ncat > .env <<'EOF'\n{s}\nEOF\n./scripts/deploy.sh --env prod"),
                json!({"stdout": "deployed", "stderr": ""}),
                None,
            ),
        ),
        (
            "json tool output",
            tool_event(
                "./scripts/show-config.sh",
                json!({"stdout": format!("Loaded configuration:\n{s}\nListening on 0.0.0.0:8080"), "stderr": "", "interrupted": false}),
                None,
            ),
        ),
        (
            "json text in a string",
            tool_event(
                "./scripts/show-config.sh",
                Value::String(
                    serde_json::to_string(&json!({"exitCode": 0, "stdout": format!("config:\n{s}\n")}))
                        .unwrap(),
                ),
                None,
            ),
        ),
        (
            "env file",
            tool_event(
                "cat .env.production",
                Value::String(format!("# production\nRUST_LOG=info\n{s}\nPORT=8080\n")),
                None,
            ),
        ),
        (
            "prompt prose",
            tool_event(
                "ls",
                json!("README.md"),
                Some(&format!("The deploy broke after I changed this:\n{s}\nCan you see why?")),
            ),
        ),
    ];
    if c.inline {
        out.push((
            "shell one-liner",
            tool_event(
                &format!("curl -fsS https://api.example.com/v1/ping -d '{s}' -o /dev/null"),
                json!({"stdout": ""}),
                None,
            ),
        ));
        out.push((
            "prompt sentence",
            tool_event(
                "ls",
                json!("README.md"),
                Some(&format!("why does {s} fail with a 401 when I run the job?")),
            ),
        ));
    }
    if c.url {
        out.push((
            "url",
            tool_event(
                "open-browser",
                json!({"stdout": format!("Opening https://ci.example.com/run?ref=main&t={s}&retry=1")}),
                None,
            ),
        ));
    }
    out
}

#[test]
fn the_corpus_covers_at_least_forty_formats() {
    let cases = cases();
    let mut formats: Vec<String> = cases
        .iter()
        .map(|c| format!("{}:{}", c.kind, c.snippet.chars().take(6).collect::<String>()))
        .collect();
    formats.sort();
    formats.dedup();
    assert!(formats.len() >= 40, "only {} formats", formats.len());
    let mut kinds: Vec<&str> = cases.iter().map(|c| c.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert!(kinds.len() >= 35, "only {} kinds: {kinds:?}", kinds.len());
}

#[test]
fn no_secret_survives_in_any_context() {
    let redactor = Redactor::new();
    for c in cases() {
        for (label, mut event) in contexts(&c) {
            let counts = redactor.redact_event(&mut event, 64 * 1024);
            let label = format!("{} in {label} ({})", c.kind, c.snippet);
            assert_no_leak(&event, &c.secret, &label);
            let json = serde_json::to_string(&event).unwrap();
            let marker = format!("[REDACTED:{}]", c.kind);
            assert!(json.contains(&marker), "{label}: no {marker} in {json}");
            assert!(counts.get(c.kind) > 0, "{label}: not counted in {counts}");
            assert!(!counts.to_string().contains(&c.secret), "{label}: the count line leaks the secret");
        }
    }
}

#[test]
fn redacting_text_alone_leaves_markers_of_the_right_kind() {
    let redactor = Redactor::new();
    for c in cases() {
        let out = redactor.redact_text(&c.snippet);
        assert!(!out.contains(&c.secret), "{}: {out}", c.kind);
        assert!(out.contains(&format!("[REDACTED:{}]", c.kind)), "{}: {out}", c.kind);
    }
    assert!(redactor.totals().total() >= 40);
}
