//! The agent-memory web viewer: a small HTTP server over a [`memory_core::MemoryStore`] that shows
//! the sessions of every harness as a timeline (updated live while hooks record), one session's
//! events in order, the notes tree with each note's history and provenance, search over notes and
//! history, and what an injection would carry now; and that edits and deletes notes and forgets
//! sessions through the same library calls as the command line ([`memory_hook::notes`],
//! [`memory_hook::forget`]).
//!
//! Security: the caller chooses the listener (loopback unless told otherwise); every request,
//! assets and the live stream included, needs the token ([`Viewer::token`]: fresh per launch, or
//! the one [`token::kept`] keeps for the user with [`Viewer::with_token`]; handed over
//! in the URL [`Viewer::url`] gives, then kept in an `HttpOnly`, `SameSite=Strict` cookie); the
//! `Host` header must name the server (no DNS rebinding); a write must come from the viewer's own
//! origin and carry the per-launch form key. Everything shown comes from the store, which holds
//! redacted text, and notes edited here are redacted again before they are stored.
//!
//! Pages are built in Rust, with one stylesheet and one small script compiled into the crate; no
//! build step.

mod actions;
mod assets;
mod error;
mod guard;
mod html;
mod live;
mod pages;
pub mod token;

use std::future::{Future, IntoFuture as _};
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};
use memory_core::MemoryStore;
use memory_hook::{Config, Env};

pub use error::{Error, Result};

/// How long open connections may take to finish once the server is asked to stop.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// What every handler shares.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) store: Arc<dyn MemoryStore>,
    pub(crate) config: Config,
    pub(crate) env: Env,
    pub(crate) token: String,
    /// The per-launch key every form carries.
    pub(crate) form_key: String,
    pub(crate) hosts: guard::Hosts,
    /// How hooks open their stores, to bring the local copy of a server store's notes level after
    /// a change here (forward mode); `None` when the caller keeps no copy.
    pub(crate) stores: Option<Stores>,
}

/// How hooks open their stores ([`memory_hook::OpenStore`]).
#[derive(Clone)]
pub(crate) struct Stores(Arc<dyn memory_hook::OpenStore>);

impl std::fmt::Debug for Stores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stores")
    }
}

impl State {
    /// After a change to the notes: with a server store in forward mode, the local copy hooks
    /// read is brought level at once (else it would catch up within minutes).
    pub(crate) async fn changed(&self) -> Result<()> {
        if let Some(Stores(stores)) = self.stores.as_ref().filter(|_| self.config.forwards()) {
            memory_hook::forward::refresh_replica(&self.config, stores.as_ref(), self.store.as_ref()).await?;
        }
        Ok(())
    }

    /// After a forget: the local copy is brought level and purged, as the store was.
    pub(crate) async fn purged(&self, plan: &memory_hook::forget::Plan) -> Result<()> {
        if let Some(Stores(stores)) = self.stores.as_ref() {
            memory_hook::forward::purge_replica(&self.config, stores.as_ref(), self.store.as_ref(), plan)
                .await?;
        }
        Ok(())
    }
}

pub(crate) type Shared = Arc<State>;

/// The viewer over one store, with its per-launch secrets.
#[derive(Debug)]
pub struct Viewer {
    store: Arc<dyn MemoryStore>,
    config: Config,
    env: Env,
    token: String,
    form_key: String,
    stores: Option<Stores>,
}

/// 32 random bytes as hexadecimal.
fn secret() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| Error::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl Viewer {
    /// A viewer of `store`, configured by `config` (budgets, data folder) and `env` (the paths a
    /// forget cleans), with fresh random secrets.
    pub fn new(store: Arc<dyn MemoryStore>, config: Config, env: Env) -> Result<Self> {
        Ok(Self { store, config, env, token: secret()?, form_key: secret()?, stores: None })
    }

    /// This viewer with `token` (the one [`token::kept`] keeps for the user, so a bookmarked
    /// address keeps working) instead of a fresh one.
    #[must_use]
    pub fn with_token(mut self, token: String) -> Self {
        self.token = token;
        self
    }

    /// How hooks open their stores: with a server store in forward mode, notes changed in the
    /// viewer reach the local copy hooks inject from at once.
    pub fn with_stores(mut self, stores: Arc<dyn memory_hook::OpenStore>) -> Self {
        self.stores = Some(Stores(stores));
        self
    }

    /// The token every request must carry.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The address to open for a server listening on `addr`: the first page, with the token.
    /// A server on every address is opened through loopback.
    pub fn url(&self, addr: SocketAddr) -> String {
        let host =
            if addr.ip().is_unspecified() { format!("127.0.0.1:{}", addr.port()) } else { addr.to_string() };
        format!("http://{host}/?token={}", self.token)
    }

    /// Serves the viewer on `listener` until `shutdown` completes.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<()> {
        let addr = listener.local_addr()?;
        let state: Shared = Arc::new(State {
            store: self.store,
            config: self.config,
            env: self.env,
            token: self.token,
            form_key: self.form_key,
            hosts: guard::Hosts::new(addr),
            stores: self.stores,
        });
        let app = Router::new()
            .route("/", get(pages::sessions))
            .route("/session", get(pages::session))
            .route("/notes", get(pages::notes))
            .route("/note", get(pages::note))
            .route("/search", get(pages::search))
            .route("/preview", get(pages::preview))
            .route("/live", get(live::stream))
            .route("/note/edit", post(actions::edit_note))
            .route("/note/delete", post(actions::delete_note))
            .route("/session/forget", post(actions::forget_session))
            .route("/assets/{file}", get(assets::serve))
            .layer(axum::middleware::from_fn_with_state(state.clone(), guard::check))
            .with_state(state);
        // Live streams never end by themselves: once `shutdown` completes, open connections get
        // a moment to finish, then the server stops regardless.
        let (stop, stopped) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown.await;
            let _ = stop.send(true);
        });
        let mut graceful = stopped.clone();
        let server = axum::serve(listener, app).with_graceful_shutdown(async move {
            let _ = graceful.wait_for(|s| *s).await;
        });
        let mut waited = stopped;
        tokio::select! {
            served = server.into_future() => served?,
            () = async move {
                let _ = waited.wait_for(|s| *s).await;
                tokio::time::sleep(SHUTDOWN_GRACE).await;
            } => {}
        }
        Ok(())
    }
}
