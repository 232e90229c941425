//! The dream's lease on the store: one dream at a time over one store, whichever machine runs it.
//!
//! The dream lock ([`crate::DreamLock`]) keeps a second dream of this machine from starting; the
//! lease, held in the store itself, does the same for every machine that writes to one Neo4j
//! server (or one SQLite file on a shared disk). A run takes it once its store is open, keeps it
//! while it runs (taken again every [`RENEW_EVERY`], lapsing [`LEASE_TIME`] after its holder stops
//! doing so, should its machine go away), and gives it back at the end. A store without leases
//! (a custom one) runs the dream under the lock alone.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use memory_core::{Lease, MemoryStore};

/// The lease's name in the store.
pub const NAME: &str = "dream";
/// How long a lease lasts unless its holder takes it again.
pub const LEASE_TIME: Duration = Duration::from_secs(300);
/// How often a running dream takes its lease again.
pub const RENEW_EVERY: Duration = Duration::from_secs(60);
/// How often a dream typed by hand asks again for a lease another machine holds.
pub const WAIT_STEP: Duration = Duration::from_secs(2);

/// Who this process is to the other machines: the machine's name and the process id
/// (`laptop#4242`).
pub fn holder() -> String {
    format!("{}#{}", machine_name(), std::process::id())
}

/// This machine's name: `HOSTNAME`, else the kernel's host name, else `unknown`.
pub fn machine_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The lease while a dream holds it; given back when dropped through [`Held::release`].
#[derive(Debug)]
pub struct Held {
    store: Arc<dyn MemoryStore>,
    holder: String,
    renewal: Option<tokio::task::JoinHandle<()>>,
}

/// Takes the dream's lease for `holder`: `Ok(Held)` when taken (or when the store keeps no
/// leases), `Err(lease)` with the other holder's lease otherwise.
pub async fn take(store: &Arc<dyn MemoryStore>, holder: &str) -> memory_core::Result<Result<Held, Lease>> {
    let now = Utc::now();
    let lease = match store.take_lease(NAME, holder, now + LEASE_TIME, now).await {
        Ok(lease) => lease,
        Err(memory_core::Error::Unsupported { .. }) => {
            return Ok(Ok(Held { store: Arc::clone(store), holder: holder.to_owned(), renewal: None }));
        }
        Err(e) => return Err(e),
    };
    if lease.holder != holder {
        return Ok(Err(lease));
    }
    let renewal = {
        let (store, holder) = (Arc::clone(store), holder.to_owned());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(RENEW_EVERY).await;
                let now = Utc::now();
                // A failed renewal is tried again at the next step; the lease lasts past it.
                let _ = store.take_lease(NAME, &holder, now + LEASE_TIME, now).await;
            }
        })
    };
    Ok(Ok(Held { store: Arc::clone(store), holder: holder.to_owned(), renewal: Some(renewal) }))
}

impl Held {
    /// Stops renewing and gives the lease back (it lapses on its own should that fail).
    pub async fn release(mut self) {
        if let Some(renewal) = self.renewal.take() {
            renewal.abort();
            let _ = self.store.release_lease(NAME, &self.holder).await;
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(renewal) = self.renewal.take() {
            renewal.abort();
        }
    }
}

/// How another machine's lease reads in a message: `dream running on laptop (pid 4242) until
/// 10:05 UTC`.
pub fn describe(lease: &Lease) -> String {
    let (machine, pid) = lease.holder.rsplit_once('#').unwrap_or((lease.holder.as_str(), "?"));
    format!(
        "a dream running on {machine} (pid {pid}), its lease held until {} UTC",
        lease.until.format("%H:%M:%S")
    )
}
