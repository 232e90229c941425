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

/// Who this process is to the other machines: the machine's name, the process id and a hash of
/// the data folder (`laptop#4242#1a2b3c4d`): two data folders on one machine are two dreamers.
pub fn holder(data_dir: &std::path::Path) -> String {
    let folder = crate::project::short_hash(&data_dir.display().to_string());
    format!("{}#{}#{folder}", machine_name(), std::process::id())
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

/// A holder's parts: the machine, the process id and the data folder's hash (`laptop`, `4242`,
/// `1a2b3c4d` of `laptop#4242#1a2b3c4d`); what a holder leaves out is empty.
fn parts(holder: &str) -> (&str, &str, &str) {
    let mut parts = holder.split('#');
    (parts.next().unwrap_or_default(), parts.next().unwrap_or_default(), parts.next().unwrap_or_default())
}

/// The machine and data folder of a holder: who dreams, whichever process.
fn machine_of(holder: &str) -> (&str, &str) {
    let (machine, _, folder) = parts(holder);
    (machine, folder)
}

/// The lease while a dream holds it; given back when dropped through [`Held::release`].
#[derive(Debug)]
pub struct Held {
    store: Arc<dyn MemoryStore>,
    holder: String,
    renewal: Option<tokio::task::JoinHandle<()>>,
}

/// Takes the dream's lease for `holder`, which holds this machine's dream lock: `Ok(Held)` when
/// taken (or when the store keeps no leases), `Err(lease)` with the other holder's lease
/// otherwise. A lease another process of this machine holds is stale (that process held the
/// dream lock, and no longer does: it was killed) and is taken over at once.
pub async fn take(store: &Arc<dyn MemoryStore>, holder: &str) -> memory_core::Result<Result<Held, Lease>> {
    let now = Utc::now();
    let mut lease = match store.take_lease(NAME, holder, now + LEASE_TIME, now).await {
        Ok(lease) => lease,
        Err(memory_core::Error::Unsupported { .. }) => {
            return Ok(Ok(Held { store: Arc::clone(store), holder: holder.to_owned(), renewal: None }));
        }
        Err(e) => return Err(e),
    };
    if lease.holder != holder && machine_of(&lease.holder) == machine_of(holder) {
        // Taken as though it had lapsed: should another machine take it meanwhile, its lease
        // outlasts that moment and stands.
        let lapsed = lease.until + chrono::Duration::nanoseconds(1);
        lease = store.take_lease(NAME, holder, now + LEASE_TIME, lapsed).await?;
    }
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
    let (machine, pid, _) = parts(&lease.holder);
    let pid = if pid.is_empty() { "?" } else { pid };
    format!(
        "a dream running on {machine} (pid {pid}), its lease held until {} UTC",
        lease.until.format("%H:%M:%S")
    )
}
