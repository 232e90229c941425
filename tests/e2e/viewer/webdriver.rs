//! A real headless Chromium driven over WebDriver: Debian's `chromedriver` started on a free
//! port, one browser session with a fresh profile, and the few commands the viewer's tests use.

use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::http;

/// The key WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A browser session; the driver and the browser end when it is dropped.
pub(crate) struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    _profile: tempfile::TempDir,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Browser {
    /// Starts chromedriver and a headless Chromium that makes no connection of its own.
    pub(crate) fn start() -> Self {
        let port = free_port();
        let mut driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (scripts/test installs Debian's chromium-driver)");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let started = Instant::now();
        while http::request(addr, "GET", "/status", &[], "").is_err() {
            if started.elapsed() > Duration::from_secs(30) {
                let _ = driver.kill();
                let _ = driver.wait();
                panic!("chromedriver did not start");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let binary =
            ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].into_iter().find(|p| Path::new(p).exists());
        let mut options = json!({ "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1280,900",
            format!("--user-data-dir={}", profile.path().display()),
        ]});
        if let Some(binary) = binary {
            options["binary"] = json!(binary);
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options,
        }}});
        let mut browser = Self { driver, addr, session: String::new(), _profile: profile };
        let created = browser.call("POST", "/session", &caps);
        browser.session = created["sessionId"].as_str().expect("a browser session").to_owned();
        browser
    }

    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        let body = if method == "GET" { String::new() } else { body.to_string() };
        let answer = http::request(self.addr, method, path, &[("Content-Type", "application/json")], &body)
            .unwrap_or_else(|e| panic!("webdriver {method} {path}: {e}"));
        let value: Value = serde_json::from_str(&answer.body).unwrap_or(Value::Null);
        assert!(answer.status < 300, "webdriver {method} {path} answered {}: {}", answer.status, answer.body);
        value["value"].clone()
    }

    fn at(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    /// Opens a URL and waits for the page to load.
    pub(crate) fn goto(&self, url: &str) {
        self.call("POST", &self.at("/url"), &json!({ "url": url }));
    }

    /// The current URL.
    pub(crate) fn url(&self) -> String {
        self.call("GET", &self.at("/url"), &Value::Null).as_str().unwrap_or_default().to_owned()
    }

    /// Runs a script in the page and returns its value.
    pub(crate) fn script(&self, script: &str) -> Value {
        self.call("POST", &self.at("/execute/sync"), &json!({ "script": script, "args": [] }))
    }

    /// The visible text of the page.
    pub(crate) fn text(&self) -> String {
        self.script("return document.body.innerText;").as_str().unwrap_or_default().to_owned()
    }

    /// The page's HTML.
    pub(crate) fn html(&self) -> String {
        self.script("return document.documentElement.outerHTML;").as_str().unwrap_or_default().to_owned()
    }

    fn element(&self, css: &str) -> String {
        let found =
            self.call("POST", &self.at("/element"), &json!({ "using": "css selector", "value": css }));
        found[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {css}")).to_owned()
    }

    /// Clicks the first element `css` selects.
    pub(crate) fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &self.at(&format!("/element/{id}/click")), &json!({}));
    }

    /// Types `text` into the first element `css` selects, after clearing it.
    pub(crate) fn fill(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.call("POST", &self.at(&format!("/element/{id}/clear")), &json!({}));
        self.call("POST", &self.at(&format!("/element/{id}/value")), &json!({ "text": text }));
    }

    /// Waits until `script` returns true in the page.
    pub(crate) fn wait_for(&self, what: &str, script: &str) {
        let started = Instant::now();
        while self.script(script) != Value::Bool(true) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what}:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A PNG of the window.
    pub(crate) fn screenshot(&self) -> Vec<u8> {
        let encoded = self.call("GET", &self.at("/screenshot"), &Value::Null);
        base64(encoded.as_str().expect("a screenshot"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http::request(self.addr, "DELETE", &self.at(""), &[], "");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
