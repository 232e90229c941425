//! The stylesheet and the script, compiled into the crate.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

const STYLE: &str = include_str!("../assets/style.css");
const SCRIPT: &str = include_str!("../assets/app.js");

/// `/assets/<file>`.
pub(crate) async fn serve(Path(file): Path<String>) -> Response {
    match file.as_str() {
        "style.css" => ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response(),
        "app.js" => ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}
