//! The writes: edit a note, delete a note, forget a session. Each goes through the library call
//! the command line uses ([`memory_hook::notes`] for `notes edit`, [`memory_hook::forget`] for
//! `forget`); deleting and forgetting show what would go and ask before anything is removed.

use std::fmt::Write as _;

use axum::Form;
use axum::extract::State;
use axum::response::{Html, IntoResponse, Redirect, Response};
use memory_core::SessionKey;
use memory_hook::forget::{self, Plan, Target};
use serde::Deserialize;

use crate::html::{enc, esc, note_href, page, session_href};
use crate::pages::{catalog, note_place};
use crate::{Error, Result, Shared};

/// Refuses a form that does not carry this launch's key.
fn checked(state: &Shared, key: &str) -> Result<()> {
    if key.len() == state.form_key.len() && key == state.form_key {
        Ok(())
    } else {
        Err(Error::BadRequest("this form is from another launch of the viewer: reload the page".to_owned()))
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct EditForm {
    form_key: String,
    scope: String,
    path: String,
    markdown: String,
}

/// `POST /note/edit`: the note as edited, checked, redacted and stored by hand.
pub(crate) async fn edit_note(State(state): State<Shared>, Form(f): Form<EditForm>) -> Result<Response> {
    checked(&state, &f.form_key)?;
    let catalog = catalog(&state).await?;
    let (scope, path) = note_place(&catalog, &f.scope, &f.path)?;
    let Some(current) = state.store.get_note(&scope, &path).await? else {
        return Err(Error::NotFound(format!("no note {path} in {}", catalog.label(&scope))));
    };
    let names = catalog.naming();
    // Browsers send line breaks as CRLF.
    let markdown = f.markdown.replace("\r\n", "\n");
    if markdown != names.markdown(&current) {
        let note = memory_hook::notes::edited(&current, &markdown, &names)?;
        memory_hook::notes::save(&state.config, state.store.as_ref(), note).await?;
        state.changed().await?;
    }
    Ok(Redirect::to(&format!("{}&saved=true", note_href(&f.scope, &f.path))).into_response())
}

#[derive(Debug, Deserialize)]
pub(crate) struct DeleteForm {
    form_key: String,
    scope: String,
    path: String,
    #[serde(default)]
    confirm: bool,
}

/// `POST /note/delete`: asks, then forgets the note with its history.
pub(crate) async fn delete_note(State(state): State<Shared>, Form(f): Form<DeleteForm>) -> Result<Response> {
    checked(&state, &f.form_key)?;
    let (scope, path) = note_place(&catalog(&state).await?, &f.scope, &f.path)?;
    let target = Target::Note { scope, path: path.clone() };
    let plan = forget::plan(state.store.as_ref(), &state.config, &state.env, &target).await?;
    if !f.confirm {
        let hidden = format!(
            "<input type=\"hidden\" name=\"scope\" value=\"{}\"><input type=\"hidden\" name=\"path\" value=\"{}\">",
            esc(&f.scope),
            esc(&f.path)
        );
        return Ok(confirm(
            &state,
            &format!("Delete note {path}?"),
            &plan,
            "/note/delete",
            &hidden,
            &note_href(&f.scope, &f.path),
        ));
    }
    forget::apply(state.store.as_ref(), &plan).await?;
    state.purged(&plan).await?;
    Ok(Redirect::to(&format!("/notes?deleted={}", enc(&format!("{} {}", f.scope, f.path)))).into_response())
}

#[derive(Debug, Deserialize)]
pub(crate) struct ForgetForm {
    form_key: String,
    key: String,
    #[serde(default)]
    confirm: bool,
}

/// `POST /session/forget`: asks, then forgets the session everywhere `forget session` does.
pub(crate) async fn forget_session(
    State(state): State<Shared>,
    Form(f): Form<ForgetForm>,
) -> Result<Response> {
    checked(&state, &f.form_key)?;
    let target = Target::Session(SessionKey(f.key.trim().to_owned()));
    let plan = forget::plan(state.store.as_ref(), &state.config, &state.env, &target).await?;
    if !f.confirm {
        let hidden = format!("<input type=\"hidden\" name=\"key\" value=\"{}\">", esc(&f.key));
        return Ok(confirm(
            &state,
            &format!("Forget session {}?", f.key),
            &plan,
            "/session/forget",
            &hidden,
            &session_href(&f.key),
        ));
    }
    forget::apply(state.store.as_ref(), &plan).await?;
    state.purged(&plan).await?;
    Ok(Redirect::to(&format!("/?forgot={}", enc(&f.key))).into_response())
}

/// The question before a forget: what it deletes for good, and the button that does it.
fn confirm(state: &Shared, title: &str, plan: &Plan, action: &str, hidden: &str, back: &str) -> Response {
    let mut body = format!(
        "<h1>{}</h1><p>This deletes for good, from the store, its indexes, the journal and the logs:</p><ul class=\"plan\">",
        esc(title)
    );
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if !plan.events.is_empty() {
        let _ = write!(body, "<li>{} event{}</li>", plan.events.len(), plural(plan.events.len()));
    }
    for key in &plan.sessions {
        let _ = write!(body, "<li>session {}</li>", esc(key.as_str()));
    }
    for n in &plan.notes {
        let _ = write!(
            body,
            "<li>note {} {} ({}), with its history</li>",
            esc(&n.scope.to_string()),
            esc(n.path.as_str()),
            esc(&n.title)
        );
    }
    for n in &plan.edited {
        let _ = write!(
            body,
            "<li>note {} {} keeps everything else; these lines go from it and its history:<ul>",
            esc(&n.scope.to_string()),
            esc(n.path.as_str())
        );
        for line in &n.lines {
            let _ = write!(body, "<li><code>{}</code></li>", esc(line));
        }
        body.push_str("</ul></li>");
    }
    for n in &plan.rederived {
        let _ = write!(
            body,
            "<li>note {} {} keeps its other sources and loses the forgotten ones</li>",
            esc(&n.scope.to_string()),
            esc(n.path.as_str())
        );
    }
    if !plan.journal.is_empty() {
        let _ = write!(body, "<li>{} journal file{}</li>", plan.journal.len(), plural(plan.journal.len()));
    }
    let lines: usize = plan.lines.iter().map(|l| l.lines).sum();
    if lines > 0 {
        let _ = write!(body, "<li>{lines} log line{}</li>", plural(lines));
    }
    if !plan.ledgers.is_empty() {
        let _ = write!(body, "<li>{} ledger{}</li>", plan.ledgers.len(), plural(plan.ledgers.len()));
    }
    if plan.is_empty() {
        body.push_str("<li>nothing: nothing recorded matches</li>");
    }
    let _ = write!(
        body,
        "</ul><form class=\"danger\" method=\"post\" action=\"{action}\"><input type=\"hidden\" name=\"form_key\" value=\"{}\">{hidden}\
         <input type=\"hidden\" name=\"confirm\" value=\"true\"><button id=\"confirm\">Delete for good</button> <a href=\"{}\">Cancel</a></form>",
        esc(&state.form_key),
        esc(back)
    );
    Html(page(title, "", &body).0).into_response()
}
