//! A TCP proxy on loopback that holds every chunk of bytes for a fixed time in each direction, as
//! a distant server's network would (latency only: what it reads it forwards in order, at once
//! after the delay, however much there is).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A proxy running on its own thread until the process ends.
pub(crate) struct DelayProxy {
    /// Where clients connect.
    pub(crate) addr: SocketAddr,
}

impl DelayProxy {
    /// Forwards connections on a new loopback port to `upstream`, `delay` each way.
    pub(crate) fn start(upstream: SocketAddr, delay: Duration) -> anyhow::Result<Self> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        std::thread::Builder::new().name("delay-proxy".to_owned()).spawn(move || {
            let runtime =
                tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("listener");
                while let Ok((client, _)) = listener.accept().await {
                    tokio::spawn(async move {
                        if let Ok(server) = TcpStream::connect(upstream).await {
                            let _ = client.set_nodelay(true);
                            let _ = server.set_nodelay(true);
                            let (client_read, client_write) = client.into_split();
                            let (server_read, server_write) = server.into_split();
                            tokio::spawn(pipe(client_read, server_write, delay));
                            tokio::spawn(pipe(server_read, client_write, delay));
                        }
                    });
                }
            });
        })?;
        Ok(Self { addr })
    }
}

/// Copies `from` to `to`, each chunk `delay` after it was read.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            if to.write_all(&bytes).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if tx.send((Instant::now() + delay, buf[..n].to_vec())).is_err() {
                    break;
                }
            }
        }
    }
    drop(tx);
    let _ = writer.await;
}
