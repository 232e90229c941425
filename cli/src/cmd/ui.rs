//! `agent-memory ui`: the web viewer ([`memory_viewer`]) on a loopback port (`[viewer] port`,
//! 7767 by default), opened in the browser with the token kept for the user, served until Ctrl-C.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use anyhow::Context as _;
use memory_hook::{Config, Env};
use serde_json::json;

use crate::output;

/// Arguments of `ui`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct UiArgs {
    /// The port to listen on (default: `[viewer] port` in the config, else 7767); 0 picks a
    /// free one.
    #[arg(long)]
    port: Option<u16>,
    /// Replace the viewer's token first: addresses opened or bookmarked before stop working.
    #[arg(long)]
    rotate_token: bool,
    /// Print the address to open, and open no browser.
    #[arg(long)]
    no_open: bool,
    /// Listen on this address instead of 127.0.0.1. Any address but a loopback one lets other
    /// machines reach the viewer (its token still guards every request).
    #[arg(long, value_name = "ADDR")]
    bind: Option<IpAddr>,
}

/// `agent-memory ui`.
pub(crate) async fn run(args: &UiArgs, json: bool) -> anyhow::Result<ExitCode> {
    let config = Config::load()?;
    let store = crate::store::open(&config).await?;
    let ip = args.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let port = args.port.unwrap_or(config.viewer.port);
    let listener = match tokio::net::TcpListener::bind(SocketAddr::new(ip, port)).await {
        Ok(listener) => listener,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => anyhow::bail!(
            "port {port} on {ip} is in use (another `agent-memory ui`?); open the viewer already \
             running there, or choose another port with --port N or `[viewer] port` in the config"
        ),
        Err(e) => return Err(e).with_context(|| format!("cannot listen on {ip} port {port}")),
    };
    let addr = listener.local_addr()?;
    if !ip.is_loopback() {
        output::error(&format!(
            "agent-memory: warning: the viewer listens on {addr}, reachable from other machines; \
             anyone with its address and token can read and change your memory"
        ));
    }
    let data = config.data_dir();
    let token = if args.rotate_token {
        memory_viewer::token::rotate(&data)?
    } else {
        memory_viewer::token::kept(&data)?
    };
    let viewer = memory_viewer::Viewer::new(store, config, Env::process())?
        .with_token(token)
        .with_stores(std::sync::Arc::new(crate::store::HookStores));
    let url = viewer.url(addr);
    if json {
        output::json(&json!({ "url": url, "address": addr.to_string() }))?;
    } else {
        output::print(&format!("agent-memory viewer: {url}\n(Ctrl-C stops it)"));
    }
    if !args.no_open {
        open_browser(&url);
    }
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    viewer.serve(listener, shutdown).await?;
    Ok(ExitCode::SUCCESS)
}

/// Opens `url` in the desktop's browser; without one, the printed address is there to open.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}
