//! `agent-memory ui`: the real binary serving a store filled through the real hook binary, read
//! and changed in a real headless Chromium, and attacked with plain HTTP requests.

pub(crate) mod http;
mod webdriver;

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::json;

use self::webdriver::Browser;
use crate::support::{Machine, claude, codex, cursor};

/// A secret typed into a prompt: redaction keeps it out of the store, so out of every page.
const SECRET: &str = "ghp_8fQ2mZr4Tn6Yw1Kc3Vb5Xh7Jd9Lp0Sa2Ge4U";

/// A running `agent-memory ui`; stopped when dropped.
pub(crate) struct Ui {
    child: Child,
    url: String,
    pub(crate) addr: SocketAddr,
    token: String,
    stderr: String,
}

impl Ui {
    pub(crate) fn start(m: &Machine, extra: &[&str]) -> Self {
        Self::launch(m, &["--port", "0"], extra)
    }

    /// `ui` with `port` (its `--port` and more), and `extra`, whose warning is read first.
    fn launch(m: &Machine, port: &[&str], extra: &[&str]) -> Self {
        let mut args = vec!["ui", "--no-open"];
        args.extend_from_slice(port);
        args.extend_from_slice(extra);
        let mut cmd: Command = m.command(&args);
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim().rsplit(' ').next().unwrap_or_default().to_owned();
        assert!(url.starts_with("http://"), "ui prints the address to open: {line:?}");
        let rest = url.trim_start_matches("http://");
        let (host, query) = rest.split_once('/').unwrap();
        let addr: SocketAddr = host.parse().unwrap();
        let token = query.rsplit_once("token=").unwrap().1.to_owned();
        // The warning, if any, is written before the address.
        let stderr = child.stderr.take().map(|s| {
            let mut text = String::new();
            let mut reader = BufReader::new(s);
            if !extra.is_empty() {
                let _ = reader.read_line(&mut text);
            }
            text
        });
        Self { child, url, addr, token, stderr: stderr.unwrap_or_default() }
    }

    pub(crate) fn get(&self, target: &str, headers: &[(&str, &str)]) -> http::Answer {
        http::request(self.addr, "GET", target, headers, "").unwrap()
    }

    pub(crate) fn cookie(&self) -> String {
        format!("agent_memory_token={}", self.token)
    }
}

impl Drop for Ui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Claude Code session that teaches, runs a failing then a passing command; a Codex and a
/// Cursor session in the same project.
fn record(m: &Machine, dir: &Path) {
    let s = "7a1c0e52-0000-4000-8000-00000000c1a0";
    m.hook("claude", dir, &claude(s, dir, "SessionStart", json!({ "source": "startup" })));
    m.hook("claude", dir, &claude(s, dir, "UserPromptSubmit", json!({ "prompt": format!(
        "I prefer small focused commits. In this project we use thiserror for library errors, never anyhow. My token is {SECRET}") })));
    for (i, ok) in [(1, false), (2, true)] {
        let id = format!("toolu_{i}");
        let input = json!({ "command": "cargo test --workspace" });
        m.hook(
            "claude",
            dir,
            &claude(
                s,
                dir,
                "PreToolUse",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input }),
            ),
        );
        let post = if ok {
            claude(
                s,
                dir,
                "PostToolUse",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                "tool_response": { "stdout": "test result: ok. 12 passed", "stderr": "", "interrupted": false, "isImage": false } }),
            )
        } else {
            claude(
                s,
                dir,
                "PostToolUseFailure",
                json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": input,
                "error": "error[E0432]: unresolved import `crate::store`" }),
            )
        };
        m.hook("claude", dir, &post);
    }
    m.hook("claude", dir, &claude(s, dir, "Stop", json!({ "stop_hook_active": false })));
    m.hook(
        "codex",
        dir,
        &codex(
            "codex-v1",
            dir,
            "UserPromptSubmit",
            json!({ "turn_id": "t1", "prompt": "add a retry to the upload client" }),
        ),
    );
    m.hook(
        "cursor",
        dir,
        &cursor("cursor-v1", dir, "beforeSubmitPrompt", json!({ "prompt": "rename the config loader" })),
    );
    m.run_json(&["dream"]);
    // A session start after the dream: an injection with the notes it carried.
    m.hook("codex", dir, &codex("codex-v2", dir, "SessionStart", json!({ "source": "startup" })));
}

fn shot(browser: &Browser, name: &str) {
    if std::env::var_os("UPDATE_SCREENSHOTS").is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), browser.screenshot()).unwrap();
}

#[test]
fn the_viewer_shows_and_changes_memory_in_a_real_browser() {
    let m = Machine::new();
    let dir = m.project("acme-api");
    record(&m, &dir);
    let ui = Ui::start(&m, &[]);
    let browser = Browser::start();

    // The opened URL hands the token to a cookie and leaves the address bar.
    browser.goto(&ui.url);
    assert!(!browser.url().contains("token="), "{}", browser.url());
    let text = browser.text();
    for key in [
        "claude:7a1c0e52-0000-4000-8000-00000000c1a0",
        "codex:codex-v1",
        "cursor:cursor-v1",
        "codex:codex-v2",
    ] {
        assert!(text.contains(key), "the timeline lists {key}:\n{text}");
    }
    for harness in ["claude", "codex", "cursor"] {
        assert!(browser.html().contains(&format!("harness-{harness}")), "a {harness} badge");
    }
    shot(&browser, "sessions");

    // One session, in order: the prompt (redacted), the failing and the passing command.
    browser.click("li.session[data-key^=\"claude:\"] a");
    browser.wait_for("the session page", "return document.body.dataset.view === 'session';");
    let text = browser.text();
    assert!(text.contains("thiserror for library errors"), "{text}");
    assert!(text.contains("cargo test --workspace"), "{text}");
    assert!(text.contains("unresolved import"), "{text}");
    assert!(browser.html().contains("badge-failed"), "the failure is marked");
    assert!(!browser.html().contains(SECRET), "no secret is shown");
    assert!(text.contains("[REDACTED:"), "the redaction marker is shown instead: {text}");
    let order =
        browser.script("return [...document.querySelectorAll('li.event .kind')].map(e => e.textContent);");
    let kinds: Vec<&str> = order.as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert_eq!(kinds.first(), Some(&"SessionStart"), "{kinds:?}");
    assert!(
        kinds.iter().position(|k| *k == "PostToolUseFailure")
            < kinds.iter().position(|k| *k == "PostToolUse"),
        "{kinds:?}"
    );
    shot(&browser, "session");

    // The injection of a later session start, with the notes it carried, linked.
    browser.goto(&format!("http://{}/session?key=codex%3Acodex-v2", ui.addr));
    assert!(browser.text().contains("Given at SessionStart"), "{}", browser.text());
    browser.click(".injection a[href*=\"conventions\"]");
    browser.wait_for("the note page", "return !!document.getElementById('note-title');");
    assert!(browser.text().contains("thiserror"), "{}", browser.text());
    assert!(browser.text().contains("Came from"), "{}", browser.text());
    let note_url = browser.url();

    // Edit the note: the change is saved by hand, kept in the history as a diff, and reaches
    // the next session start.
    let edited =
        browser.script("return document.getElementById('note-markdown').value;").as_str().unwrap().to_owned();
    browser.fill(
        "#note-markdown",
        &format!("{edited}- Release builds go through `just release`, never by hand.\n"),
    );
    browser.click("#save-note");
    browser.wait_for("the saved note", "return !!document.querySelector('p.notice');");
    let text = browser.text();
    assert!(text.contains("just release"), "{text}");
    assert!(text.contains("version 2"), "the history holds both versions: {text}");
    assert!(
        browser.html().contains("<span class=\"ins\">+ - Release builds"),
        "the diff shows the added line"
    );
    shot(&browser, "note");
    let start =
        m.hook("claude", &dir, &claude("after-edit", &dir, "SessionStart", json!({ "source": "startup" })));
    let context = start.context("claude").expect("notes at session start");
    assert!(context.contains("just release"), "the edit reaches the next session start: {context}");

    // Search over notes and history, filtered by harness.
    browser.goto(&format!("http://{}/search", ui.addr));
    browser.fill("#search-q", "thiserror");
    browser.click("#search-go");
    browser.wait_for("search results", "return !!document.getElementById('note-hits');");
    let notes = browser.script("return document.getElementById('note-hits').innerText;");
    let events = browser.script("return document.getElementById('event-hits').innerText;");
    assert!(notes.as_str().unwrap().contains("Conventions"), "{notes}");
    assert!(events.as_str().unwrap().contains("claude:7a1c0e52"), "{events}");
    shot(&browser, "search");
    browser.goto(&format!("http://{}/search?q=rename+config&harness=cursor", ui.addr));
    let events = browser.script("return document.getElementById('event-hits').innerText;");
    assert!(events.as_str().unwrap().contains("cursor:cursor-v1"), "{events}");
    assert!(!events.as_str().unwrap().contains("claude:"), "filtered to cursor: {events}");

    // What a session start would be given now, against the budget, and what a prompt would.
    browser.goto(&format!("http://{}/preview", ui.addr));
    browser.fill("#preview-prompt", "which errors crate do we use for library errors, thiserror or anyhow?");
    browser.click("#preview-go");
    browser.wait_for("the prompt preview", "return !!document.getElementById('preview-prompt-result');");
    let start = browser.script("return document.getElementById('preview-start').innerText;");
    let start = start.as_str().unwrap();
    assert!(start.contains("of 8000 characters"), "{start}");
    assert!(start.contains("just release"), "the preview is what a session start gets now: {start}");
    let prompt = browser.script("return document.getElementById('preview-prompt-result').innerText;");
    assert!(prompt.as_str().unwrap().contains("conventions"), "{prompt}");
    assert!(prompt.as_str().unwrap().contains("of 2400 characters"), "{prompt}");
    shot(&browser, "preview");

    // A hook event appears on the open timeline without a reload.
    browser.goto(&format!("http://{}/", ui.addr));
    browser.wait_for("the live stream", "return document.body.dataset.live === 'on';");
    browser.script("window.notReloaded = true; return true;");
    m.hook(
        "cursor",
        &dir,
        &cursor("cursor-live", &dir, "beforeSubmitPrompt", json!({ "prompt": "live one" })),
    );
    browser.wait_for(
        "the live session",
        "return !!document.querySelector('li.session[data-key=\"cursor:cursor-live\"]') && window.notReloaded === true;",
    );
    // And on the open session, the next event is appended.
    browser.click("li.session[data-key=\"cursor:cursor-live\"] a");
    browser.wait_for("the live stream", "return document.body.dataset.live === 'on';");
    browser.script("window.notReloaded = true; return true;");
    m.hook(
        "cursor",
        &dir,
        &cursor("cursor-live", &dir, "beforeSubmitPrompt", json!({ "prompt": "and a second one" })),
    );
    browser.wait_for(
        "the live event",
        "return [...document.querySelectorAll('#events li.event')].some(e => e.innerText.includes('and a second one')) \
         && window.notReloaded === true;",
    );

    // Forget a session: asked first, then gone from the store.
    browser.goto(&format!("http://{}/session?key=codex%3Acodex-v1", ui.addr));
    browser.click("#forget-session");
    browser.wait_for("the question", "return !!document.getElementById('confirm');");
    assert!(browser.text().contains("session codex:codex-v1"), "{}", browser.text());
    browser.click("#confirm");
    browser.wait_for("the timeline", "return document.body.dataset.view === 'sessions';");
    assert!(browser.text().contains("Forgot session codex:codex-v1"), "{}", browser.text());
    let listed =
        browser.script("return !!document.querySelector('li.session[data-key=\"codex:codex-v1\"]');");
    assert_eq!(listed, json!(false), "no longer listed");
    let sessions = m.run_json(&["sessions"]);
    assert!(
        !sessions.as_array().unwrap().iter().any(|s| s["key"] == "codex:codex-v1"),
        "forgotten in the store: {sessions}"
    );

    // Delete the note: asked first, then gone with its history.
    browser.goto(&note_url);
    browser.click("#delete-note");
    browser.wait_for("the question", "return !!document.getElementById('confirm');");
    browser.click("#confirm");
    browser.wait_for("the notes", "return !!document.querySelector('p.notice');");
    let notes = m.run_json(&["notes", "list"]);
    assert!(
        !notes.as_array().unwrap().iter().any(|n| n["path"].as_str().unwrap_or("").contains("conventions")),
        "{notes}"
    );
}

/// The listening socket of `port` as the kernel lists it (`/proc/net/tcp`): its local address.
fn listening_address(port: u16) -> Option<String> {
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let wanted = format!(":{port:04X}");
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let local = fields.get(1)?;
        (local.ends_with(&wanted) && fields.get(3) == Some(&"0A")).then(|| local.to_string())
    })
}

#[test]
fn the_viewer_refuses_requests_without_its_token_from_other_hosts_and_foreign_origins() {
    let m = Machine::new();
    let dir = m.project("acme-api");
    m.hook("claude", &dir, &claude("s-sec", &dir, "UserPromptSubmit", json!({ "prompt": "hello there" })));
    let ui = Ui::start(&m, &[]);
    let cookie = ui.cookie();
    let host = ui.addr.to_string();

    // Bound to loopback only.
    assert_eq!(ui.addr.ip().to_string(), "127.0.0.1", "{}", ui.url);
    assert_eq!(
        listening_address(ui.addr.port()).as_deref(),
        Some(format!("0100007F:{:04X}", ui.addr.port()).as_str()),
        "the kernel lists the socket on 127.0.0.1 only"
    );

    // No token, a wrong token: refused, pages, assets and the live stream alike.
    for target in ["/", "/notes", "/assets/app.js", "/live", "/session?key=claude%3As-sec"] {
        assert_eq!(ui.get(target, &[]).status, 401, "{target} without a token");
        assert_eq!(
            ui.get(target, &[("Cookie", "agent_memory_token=0000")]).status,
            401,
            "{target} with a wrong token"
        );
    }
    assert_eq!(ui.get("/?token=deadbeef", &[]).status, 401);
    let ok = ui.get("/", &[("Cookie", &cookie)]);
    assert_eq!(ok.status, 200);
    assert!(ok.body.contains("claude:s-sec"));
    assert!(ok.header("content-security-policy").unwrap_or("").contains("script-src 'self'"));
    let handed = ui.get(&format!("/?token={}", ui.token), &[]);
    assert_eq!(handed.status, 303);
    let set = handed.header("set-cookie").unwrap_or("");
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"), "{set}");

    // A rebinding page's name, or another port: refused even with the token.
    for wrong in
        [format!("attacker.example:{}", ui.addr.port()), "127.0.0.1:1".to_owned(), "localhost".to_owned()]
    {
        let answer = ui.get("/", &[("Host", &wrong), ("Cookie", &cookie)]);
        assert_eq!(answer.status, 421, "Host {wrong}");
    }
    assert_eq!(
        ui.get("/", &[("Host", &format!("localhost:{}", ui.addr.port())), ("Cookie", &cookie)]).status,
        200
    );

    // Writes need the viewer's own origin (and its form key).
    let form = "form_key=x&key=claude%3As-sec";
    let post = |headers: &[(&str, &str)]| {
        let mut all =
            vec![("Cookie", cookie.as_str()), ("Content-Type", "application/x-www-form-urlencoded")];
        all.extend_from_slice(headers);
        http::request(ui.addr, "POST", "/session/forget", &all, form).unwrap().status
    };
    assert_eq!(post(&[]), 403, "a write without an Origin");
    assert_eq!(post(&[("Origin", "http://attacker.example")]), 403, "a cross-site write");
    assert_eq!(post(&[("Origin", &format!("http://{host}")), ("Sec-Fetch-Site", "cross-site")]), 403);
    assert_eq!(post(&[("Origin", &format!("http://{host}"))]), 400, "a form of another launch");
    let no_token = http::request(
        ui.addr,
        "POST",
        "/session/forget",
        &[("Origin", &format!("http://{host}")), ("Content-Type", "application/x-www-form-urlencoded")],
        form,
    )
    .unwrap();
    assert_eq!(no_token.status, 401, "nothing is writable without the token");
    let sessions = m.run_json(&["sessions"]);
    assert_eq!(sessions.as_array().unwrap().len(), 1, "nothing was forgotten: {sessions}");
}

#[test]
fn another_address_than_loopback_is_taken_only_when_asked_for_with_a_warning() {
    let m = Machine::new();
    let ui = Ui::start(&m, &["--bind", "0.0.0.0"]);
    assert!(ui.stderr.contains("warning") && ui.stderr.contains("other machines"), "{}", ui.stderr);
    assert_eq!(
        listening_address(ui.addr.port()).as_deref(),
        Some(format!("00000000:{:04X}", ui.addr.port()).as_str()),
        "bound to every address as asked"
    );
    // Still only for its own names and with its token.
    assert_eq!(ui.get("/", &[]).status, 401);
    let cookie = ui.cookie();
    assert_eq!(
        ui.get("/", &[("Host", &format!("attacker.example:{}", ui.addr.port())), ("Cookie", &cookie)]).status,
        421
    );
    assert_eq!(ui.get("/", &[("Cookie", &cookie)]).status, 200);
}

#[test]
fn a_bookmarked_address_opens_the_viewer_at_its_next_launch() {
    let m = Machine::new();
    let dir = m.project("acme-api");
    let prompt = json!({ "prompt": "tidy the release notes before the tag" });
    m.hook("claude", &dir, &claude("bookmark-1", &dir, "UserPromptSubmit", prompt));
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    let bookmark = Ui::launch(&m, &["--port", &port], &[]).url.clone();
    assert!(bookmark.starts_with(&format!("http://127.0.0.1:{port}/?token=")), "{bookmark}");

    // The next launch: the same address, and the bookmark opens it in a browser.
    let ui = Ui::launch(&m, &["--port", &port], &[]);
    assert_eq!(ui.url, bookmark, "a second launch keeps the address");
    let browser = Browser::start();
    browser.goto(&bookmark);
    let text = browser.text();
    assert!(text.contains("tidy the release notes before the tag"), "the session and its title: {text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let kept = std::fs::metadata(m.home().join("viewer-token")).unwrap();
        assert_eq!(kept.permissions().mode() & 0o777, 0o600, "the token is its owner's alone");
    }

    // The port taken: a clear message, and no second server.
    let busy = m.command(&["ui", "--no-open", "--port", &port]).stdin(Stdio::null()).output().unwrap();
    let said = String::from_utf8_lossy(&busy.stderr);
    assert!(
        !busy.status.success() && said.contains(&format!("port {port}")) && said.contains("in use"),
        "{said}"
    );

    // A rotated token: the bookmark no longer opens the viewer.
    drop(ui);
    let ui = Ui::launch(&m, &["--port", &port, "--rotate-token"], &[]);
    assert_ne!(ui.url, bookmark);
    let old = bookmark.rsplit_once('/').unwrap().1;
    assert_eq!(ui.get(&format!("/{old}"), &[]).status, 401, "the old token is refused");
    assert_eq!(ui.get(&format!("/?token={}", ui.token), &[]).status, 303, "the new one opens it");
}

#[test]
fn the_viewer_names_projects_by_name_and_takes_them_in_its_addresses() {
    let m = Machine::new();
    let dir = m.project("webshop");
    m.hook("claude", &dir, &claude("s-name", &dir, "SessionStart", json!({ "source": "startup" })));
    let added = m
        .command(&["notes", "add", "Deploy", "--kind", "procedure", "--body", "Deploys go out on Tuesdays."])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(added.status.success(), "{}", String::from_utf8_lossy(&added.stderr));
    let projects = m.run_json(&["projects"]);
    let id = projects[0]["id"].as_str().unwrap().to_owned();
    let hash = id.rsplit_once('-').unwrap().1.to_owned();
    let ui = Ui::start(&m, &[]);
    let cookie = ui.cookie();
    let get = |target: &str| {
        let answer = ui.get(target, &[("Cookie", &cookie)]);
        assert_eq!(answer.status, 200, "{target}: {}", answer.body);
        assert!(!answer.body.contains(&hash), "{target} shows the project's id: {}", answer.body);
        answer.body
    };

    let note = get("/note?scope=project%3Awebshop&path=procedures%2Fdeploy.md");
    assert!(note.contains("Tuesdays") && note.contains("scope: project:webshop"), "{note}");
    let by_id = ui.get(
        &format!("/note?scope=project%3A{id}&path=project%2Fwebshop%2Fprocedures%2Fdeploy.md"),
        &[("Cookie", &cookie)],
    );
    assert_eq!(by_id.status, 200, "the id keeps working");
    let notes = get("/notes");
    assert!(notes.contains("project:webshop") && notes.contains("scope=project%3Awebshop"), "{notes}");
    let sessions = get("/?project=webshop");
    assert!(sessions.contains("claude:s-name"), "filtered by the project's name: {sessions}");
    let preview = get("/preview?project=webshop");
    assert!(preview.contains("Tuesdays") && preview.contains("project:webshop"), "{preview}");
    get("/search?q=tuesdays&project=webshop");
}
