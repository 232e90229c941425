//! Turns off Nagle's algorithm on the store's Bolt connections.
//!
//! neo4rs writes a large message (a batch of events, a note with a long body) in several pieces
//! and leaves `TCP_NODELAY` off, so the last piece waits for the server to acknowledge the first
//! one, which a Linux peer delays by ~40 ms. Every batch and every large event then costs 40 ms or
//! more: batched appends ran at ~4k events/s instead of ~11k (docs/benchmarks.md).
//!
//! The driver does not expose its sockets, so on Linux the store finds its own process's TCP
//! connections to the server's addresses and sets the option on them: it lists `/proc/self/fd`,
//! takes a duplicate of each socket descriptor through a pidfd (the duplicate shares the socket,
//! so the option applies to the driver's connection) and checks the peer address first. This runs
//! whenever the store opens a transaction (every write, the large messages, goes through one),
//! which is when the pool may have made a new connection; it costs a few system calls per open
//! socket. Anything that fails is
//! skipped: the option only changes latency, never results. Elsewhere it does nothing.

use std::net::SocketAddr;

/// The addresses the server's uri names, with the Bolt default port when it has none.
pub(crate) async fn server_addresses(uri: &str) -> Vec<SocketAddr> {
    let Some(authority) = authority(uri) else { return Vec::new() };
    match tokio::net::lookup_host(authority).await {
        Ok(addresses) => addresses.collect(),
        Err(_) => Vec::new(),
    }
}

/// `host:port` from a `scheme://user@host:port/path?query` uri, with port 7687 when none is given.
fn authority(uri: &str) -> Option<String> {
    let rest = uri.split_once("://").map_or(uri, |(_, rest)| rest);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host_port = rest[..end].rsplit_once('@').map_or(&rest[..end], |(_, host)| host);
    if host_port.is_empty() {
        return None;
    }
    let has_port = match host_port.rfind(']') {
        Some(bracket) => host_port[bracket..].contains(':'),
        None => host_port.contains(':'),
    };
    Some(if has_port { host_port.to_owned() } else { format!("{host_port}:7687") })
}

/// Sets `TCP_NODELAY` on every socket of this process connected to one of `servers`.
#[cfg(target_os = "linux")]
pub(crate) fn apply(servers: &[SocketAddr]) {
    use rustix::net::sockopt;
    use rustix::process::{PidfdFlags, PidfdGetfdFlags, getpid, pidfd_getfd, pidfd_open};

    if servers.is_empty() {
        return;
    }
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else { return };
    let Ok(me) = pidfd_open(getpid(), PidfdFlags::empty()) else { return };
    for entry in entries.flatten() {
        let is_socket = std::fs::read_link(entry.path())
            .is_ok_and(|target| target.to_string_lossy().starts_with("socket:"));
        let Some(fd) = entry.file_name().to_str().and_then(|name| name.parse().ok()) else { continue };
        if !is_socket {
            continue;
        }
        let Ok(socket) = pidfd_getfd(&me, fd, PidfdGetfdFlags::empty()) else { continue };
        let peer =
            rustix::net::getpeername(&socket).ok().flatten().and_then(|a| SocketAddr::try_from(a).ok());
        if peer.is_some_and(|peer| servers.contains(&peer))
            && sockopt::tcp_nodelay(&socket).is_ok_and(|on| !on)
        {
            let _ = sockopt::set_tcp_nodelay(&socket, true);
        }
    }
}

/// Nothing to do off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) fn apply(_servers: &[SocketAddr]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authority_takes_host_and_port_from_every_uri_shape() {
        assert_eq!(authority("bolt://127.0.0.1:7999").as_deref(), Some("127.0.0.1:7999"));
        assert_eq!(authority("neo4j+s://db.example.com").as_deref(), Some("db.example.com:7687"));
        assert_eq!(authority("bolt://user@db:1234/neo4j?x=1").as_deref(), Some("db:1234"));
        assert_eq!(authority("bolt://[::1]:7688").as_deref(), Some("[::1]:7688"));
        assert_eq!(authority("bolt://[::1]").as_deref(), Some("[::1]:7687"));
        assert_eq!(authority("bolt://"), None);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn sockets_to_the_server_get_nodelay_and_others_keep_their_setting() {
        use rustix::net::sockopt;

        let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let to_server =
            tokio::net::TcpStream::connect(server.local_addr().expect("addr")).await.expect("connect");
        let to_other =
            tokio::net::TcpStream::connect(other.local_addr().expect("addr")).await.expect("connect");
        assert!(!sockopt::tcp_nodelay(&to_server).expect("read option"), "off by default");

        let servers = server_addresses(&format!("bolt://{}", server.local_addr().expect("addr"))).await;
        assert_eq!(servers, vec![server.local_addr().expect("addr")]);
        apply(&servers);

        assert!(sockopt::tcp_nodelay(&to_server).expect("read option"), "the server's connection");
        assert!(!sockopt::tcp_nodelay(&to_other).expect("read option"), "another connection is left alone");
    }
}
