//! Building pages: escaping, query strings, the layout every page shares, and Markdown rendered
//! with every raw HTML of a note shown as text.

use std::fmt::Write as _;

use axum::response::Html;
use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag};

/// `text` safe inside HTML text and quoted attributes.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` percent-encoded for a query string value.
pub(crate) fn enc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The viewer's own page links.
pub(crate) fn note_href(scope: &str, path: &str) -> String {
    format!("/note?scope={}&path={}", enc(scope), enc(path))
}

/// A link to one session's page.
pub(crate) fn session_href(key: &str) -> String {
    format!("/session?key={}", enc(key))
}

/// The navigation entries: path and label.
const NAV: &[(&str, &str)] =
    &[("/", "Sessions"), ("/notes", "Notes"), ("/search", "Search"), ("/preview", "Injection preview")];

/// A whole page: the layout, the navigation with `active` marked, and `body`.
pub(crate) fn page(title: &str, active: &str, body: &str) -> Html<String> {
    page_with(title, active, body, "")
}

/// A whole page whose `<body>` carries `attributes` (the live updates' starting point).
pub(crate) fn page_with(title: &str, active: &str, body: &str, attributes: &str) -> Html<String> {
    let mut nav = String::new();
    for (href, label) in NAV {
        let current = if *href == active { " aria-current=\"page\"" } else { "" };
        let _ = write!(nav, "<a href=\"{href}\"{current}>{label}</a>");
    }
    Html(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · agent-memory</title><link rel=\"stylesheet\" href=\"/assets/style.css\">\
         <script src=\"/assets/app.js\" defer></script></head>\
         <body{attributes}><header><span class=\"brand\">agent-memory</span><nav>{nav}</nav>\
         <span id=\"live\" class=\"live\" hidden>live</span></header><main>{body}</main></body></html>\n",
        esc(title)
    ))
}

/// Whether a link in a note may be followed: the web, mail, and anchors within the page.
fn safe_link(dest: &str) -> bool {
    let lower = dest.trim().to_ascii_lowercase();
    lower.starts_with("https://")
        || lower.starts_with("http://")
        || lower.starts_with("mailto:")
        || lower.starts_with('#')
}

/// A note's Markdown body as HTML. Raw HTML in the note is shown as text, links to anything but
/// the web, mail and anchors lead nowhere, and images become links (nothing is fetched).
pub(crate) fn markdown(body: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let events = Parser::new_ext(body, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            Event::Start(Tag::Link { link_type, dest_url: checked(dest_url), title, id })
        }
        Event::Start(Tag::Image { dest_url, title, id, .. }) => {
            Event::Start(Tag::Link { link_type: LinkType::Inline, dest_url: checked(dest_url), title, id })
        }
        Event::End(pulldown_cmark::TagEnd::Image) => Event::End(pulldown_cmark::TagEnd::Link),
        other => other,
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

fn checked(dest: CowStr<'_>) -> CowStr<'_> {
    if safe_link(&dest) { dest } else { CowStr::Borrowed("#") }
}

/// At most `max` characters of `text`, with an ellipsis when cut.
pub(crate) fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_and_script_links_in_a_note_stay_inert() {
        let html = markdown(
            "# Title\n\n<script>alert(1)</script>\n\nsee <b onclick=x>this</b> and [x](javascript:alert(1)) ![i](http://e/x.png)\n",
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<b "), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("<h1>Title</h1>"), "{html}");
    }

    #[test]
    fn text_and_query_values_are_escaped() {
        assert_eq!(esc("<a href=\"x\">'&"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;");
        assert_eq!(enc("project:a b/c.md"), "project%3Aa%20b%2Fc.md");
    }
}
