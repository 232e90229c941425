//! What every request passes before a page is served: the Host it names (against DNS
//! rebinding), the per-launch token (in the URL the viewer opens, then a cookie), and for writes
//! the Origin (against cross-site requests); and the headers every answer carries.

use std::net::{IpAddr, SocketAddr};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::Shared;

/// The cookie the token is kept in once the opened URL has handed it over.
pub(crate) const COOKIE: &str = "agent_memory_token";
/// The header a script may send the token in instead.
pub(crate) const TOKEN_HEADER: &str = "x-agent-memory-token";

/// The hosts a request may name: the loopback names and the bound address, at the served port.
#[derive(Debug, Clone)]
pub(crate) struct Hosts {
    port: u16,
    bound: IpAddr,
}

impl Hosts {
    pub(crate) fn new(addr: SocketAddr) -> Self {
        Self { port: addr.port(), bound: addr.ip() }
    }

    /// Whether a `Host` header names this server: `localhost`, a loopback address or the bound
    /// one (any address when bound to all of them), with the served port. A name other than
    /// `localhost` is what a rebinding page sends, and is refused.
    pub(crate) fn allows(&self, host: &str) -> bool {
        let Some((name, port)) = host.rsplit_once(':') else { return false };
        if port.parse::<u16>().ok() != Some(self.port) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let name = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
        let Ok(ip) = name.parse::<IpAddr>() else { return false };
        ip.is_loopback() || ip == self.bound || self.bound.is_unspecified()
    }
}

/// Two secrets compared in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A value of the query string, undecoded (the token is hexadecimal).
pub(crate) fn query_value<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(name)?.strip_prefix('='))
}

fn refused(status: StatusCode, why: &str) -> Response {
    let mut response = (status, format!("{why}\n")).into_response();
    secure_headers(response.headers_mut());
    response
}

/// The middleware: Host, then the token, then (for anything but a read) the Origin.
pub(crate) async fn check(State(shared): State<Shared>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !shared.hosts.allows(host) {
        return refused(StatusCode::MISDIRECTED_REQUEST, "this server answers to localhost only");
    }
    let query = request.uri().query().unwrap_or("");
    let from_query = query_value(query, "token").is_some_and(|t| same_secret(t, &shared.token));
    let from_cookie = cookie_value(headers, COOKIE).is_some_and(|t| same_secret(t, &shared.token));
    let from_header = headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| same_secret(t, &shared.token));
    if !(from_query || from_cookie || from_header) {
        return refused(
            StatusCode::UNAUTHORIZED,
            "this viewer needs its token: open the URL `agent-memory ui` printed",
        );
    }
    let reading = matches!(*request.method(), Method::GET | Method::HEAD);
    if !reading {
        // A write comes from one of the viewer's own pages, and nowhere else.
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
        let ours = origin.is_some_and(|o| o == format!("http://{host}"));
        let cross = headers.get("sec-fetch-site").is_some_and(|s| s != "same-origin" && s != "none");
        if !ours || cross {
            return refused(StatusCode::FORBIDDEN, "writes are accepted from the viewer's own pages only");
        }
    }
    if from_query && reading && !from_cookie {
        // Hand the token over to a cookie, and take it out of the address bar and history.
        let rest: Vec<&str> = query.split('&').filter(|p| !p.starts_with("token=")).collect();
        let mut location = request.uri().path().to_owned();
        if !rest.is_empty() {
            location.push('?');
            location.push_str(&rest.join("&"));
        }
        let mut response = Response::builder()
            .status(StatusCode::SEE_OTHER)
            .header(header::LOCATION, location)
            .header(
                header::SET_COOKIE,
                format!("{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/", shared.token),
            )
            .body(Body::empty())
            .unwrap_or_default();
        secure_headers(response.headers_mut());
        return response;
    }
    let mut response = next.run(request).await;
    secure_headers(response.headers_mut());
    response
}

/// What every answer carries: no framing, no sniffing, no referrer to other sites (with
/// `no-referrer`, browsers send a form's `Origin` as `null`), nothing cached, and scripts,
/// styles and images from the viewer itself only.
fn secure_headers(headers: &mut HeaderMap) {
    let set = [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; \
             form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_and_the_bound_address_at_the_served_port_are_hosts() {
        let hosts = Hosts::new("127.0.0.1:4000".parse().unwrap());
        for ok in ["127.0.0.1:4000", "localhost:4000", "LOCALHOST:4000", "[::1]:4000", "127.0.0.2:4000"] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for bad in
            ["evil.example:4000", "127.0.0.1:4001", "127.0.0.1", "", "10.0.0.5:4000", "localhost.evil:4000"]
        {
            assert!(!hosts.allows(bad), "{bad}");
        }
        let everywhere = Hosts::new("0.0.0.0:4000".parse().unwrap());
        assert!(everywhere.allows("10.0.0.5:4000"));
        assert!(!everywhere.allows("evil.example:4000"));
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
        assert_eq!(query_value("a=1&token=ff&b=2", "token"), Some("ff"));
        assert_eq!(query_value("xtoken=ff", "token"), None);
    }
}
