//! What several app servers on one PostgreSQL database agree on through the database itself:
//! claims (an `x-requestid` being carried out by some server) and the one server that does the
//! background work. Both are PostgreSQL session-level advisory locks held by connections of each
//! server's own, kept outside the pool: a server that dies, or loses such a connection, drops its
//! locks with it, so a claim never outlives whoever was carrying it out and another server takes
//! over the background work at its next round. The leader's lock is held by the first of them;
//! a claim is taken on the one its name falls to ([`CLAIMING_CONNECTIONS`]) and released there:
//! every idempotent request takes and releases one, and on a single connection their round trips
//! queued behind each other. A name always falls to the same connection, so a retry claiming a
//! request whose abandoned run's release is still on its way is granted, as a session's locks
//! stack, where another connection would see it held.
//!
//! On SQLite there is one server: every claim is granted (the server's own memory tells its
//! requests apart) and the server always leads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use super::lock;
use super::sql::{Connection, Reconnecting};
use crate::core::error::AppResult;

/// The advisory lock of the server that does the background work (an arbitrary constant beside
/// the migrations' 7245031616 and the count fold's 7245031617).
const LEADER_LOCK: i64 = 7_245_031_618;
/// How each server's first locking connection names itself to PostgreSQL, so the servers can be
/// counted; the others name themselves [`CLAIMS_NAME`].
const SERVER_NAME: &str = "perkdesk-server";
const CLAIMS_NAME: &str = "perkdesk-claims";
/// Locking connections per server. A claim and its release are a round trip each on one of them,
/// so together they carry this many at a time: four carried the inbound writes of one server at
/// 32 connections without a queue, within PostgreSQL's default of 100 connections for four
/// servers with their pools.
const CLAIMING_CONNECTIONS: usize = 4;

pub struct Cluster {
    /// The locking connections, the first also the leader's; none on SQLite.
    held: Vec<Arc<Mutex<Held>>>,
    /// The app servers sharing the database when last counted (see [`Cluster::count_servers`]).
    servers: AtomicUsize,
}

/// The locking connection (a lock taken on an earlier generation of it went with that
/// connection, and is not released on its successor) and the generation that took the leader's
/// lock.
struct Held {
    conn: Reconnecting,
    leading: Option<u64>,
}

/// A claim across servers, released when dropped.
pub struct Claim {
    release: Option<(Arc<Mutex<Held>>, i64, u64)>,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let Some((held, key, generation)) = self.release.take() else { return };
        let unlock = move || {
            let held = lock(&held);
            if let Some(conn) = held.conn.of_generation(generation)
                && let Err(error) = conn
                    .prepare_cached("SELECT pg_advisory_unlock(?1)")
                    .and_then(|mut unlock| unlock.query_row([key], |_| Ok(())))
            {
                tracing::warn!(error = %error, "cannot release a claim (the connection's end releases it)");
            }
        };
        // The release is a round trip to the server: off the async threads when there are any.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(move || super::sql::driving_here(unlock))),
            Err(_) => unlock(),
        }
    }
}

impl Cluster {
    pub fn sqlite() -> Cluster {
        Cluster { held: Vec::new(), servers: AtomicUsize::new(1) }
    }

    /// Nothing is opened until first used.
    pub fn postgres(url: &str) -> Cluster {
        let held = (0..CLAIMING_CONNECTIONS)
            .map(|index| {
                let name = if index == 0 { SERVER_NAME } else { CLAIMS_NAME };
                let conn = Reconnecting::new(url, format!("SET application_name = '{name}'"));
                Arc::new(Mutex::new(Held { conn, leading: None }))
            })
            .collect();
        Cluster { held, servers: AtomicUsize::new(1) }
    }

    /// The app servers sharing the database, as last counted: each enforces its share of a
    /// rate limit, so N servers together allow the limit once, not N times. At least 1.
    pub fn servers(&self) -> usize {
        self.servers.load(Ordering::Relaxed).max(1)
    }

    /// Counts the app servers now connected to the database (each by its locking connection,
    /// opened here when needed) and remembers the count; 1 on SQLite.
    pub async fn count_servers(&self) -> AppResult<usize> {
        let servers = match self.first() {
            None => 1,
            Some(first) => {
                let counted = on_locking_connection(first, |conn, _, _| {
                    Ok(conn.query_row(
                        "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?1",
                        [SERVER_NAME],
                        |r| r.get::<i64>(0),
                    )?)
                })
                .await?;
                usize::try_from(counted).unwrap_or(1).max(1)
            }
        };
        self.servers.store(servers, Ordering::Relaxed);
        Ok(servers)
    }

    /// Claims `name` for this server: `None` while another server holds it. A server's own
    /// requests are told apart in its memory first (a session's locks stack). Names are hashed
    /// to the lock's 64 bits; the same name is the same lock on every server and every version.
    pub async fn claim(&self, name: &str) -> AppResult<Option<Claim>> {
        // On SQLite every claim is granted: the one server's memory tells its requests apart.
        let key = lock_key(name);
        let Some(held) = self.claiming_connection(key) else { return Ok(Some(Claim { release: None })) };
        let taken =
            on_locking_connection(held.clone(), move |conn, generation, _| try_lock(conn, generation, key)).await?;
        Ok(taken.map(|generation| Claim { release: Some((held, key, generation)) }))
    }

    /// [`Cluster::claim`], then `look` on the claiming connection in the same exchange: the
    /// lock's statement is sent ahead of `look`'s first, which runs after the lock was taken (its
    /// own snapshot, outside a transaction), so it sees whatever the claim's last holder committed
    /// before releasing it. The claim is `None` while another server holds it; `Err(look)` back on
    /// SQLite, which has no claiming connection.
    pub async fn claim_then<T, F>(&self, name: &str, look: F) -> AppResult<Result<(Option<Claim>, T), F>>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let key = lock_key(name);
        let Some(held) = self.claiming_connection(key) else { return Ok(Err(look)) };
        let claimed = on_locking_connection(held.clone(), move |conn, generation, _| {
            let lock = conn.read_ahead(TRY_LOCK, [key])?;
            let found = look(conn);
            let taken: bool = lock.query_row(|r| r.get(0))?;
            let claim = taken.then_some(Claim { release: Some((held, key, generation)) });
            // A claim taken whose look failed is released as it drops, here.
            Ok((claim, found?))
        })
        .await?;
        Ok(Ok(claimed))
    }

    /// Whether this server does the background work: on PostgreSQL, the one whose locking
    /// connection holds the leader's lock (taken at the first round after the last leader went).
    pub async fn leads(&self) -> AppResult<bool> {
        let Some(first) = self.first() else { return Ok(true) };
        on_locking_connection(first, |conn, generation, leading| {
            // A session's locks stack: the leader's is taken once per connection.
            if *leading != Some(generation) {
                *leading = try_lock(conn, generation, LEADER_LOCK)?;
            }
            Ok(leading.is_some())
        })
        .await
    }

    /// The first locking connection, the leader's and the one the servers are counted by; `None`
    /// on SQLite.
    fn first(&self) -> Option<Arc<Mutex<Held>>> {
        self.held.first().cloned()
    }

    /// The locking connection the claim of lock `key` is taken on: always the same for a key
    /// (see the module's note); `None` on SQLite.
    fn claiming_connection(&self, key: i64) -> Option<Arc<Mutex<Held>>> {
        let index = (key as u64 % self.held.len().max(1) as u64) as usize;
        self.held.get(index).cloned()
    }
}

/// Runs `work` on the blocking threads with the locking connection `held` (opened anew when
/// there is none or the server closed it), its generation and the generation that leads.
async fn on_locking_connection<T: Send + 'static>(
    held: Arc<Mutex<Held>>,
    work: impl FnOnce(&Connection, u64, &mut Option<u64>) -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    crate::db::spawn_blocking(move || {
        let mut held = lock(&held);
        let Held { conn, leading } = &mut *held;
        let (conn, generation) = conn.get()?;
        work(conn, generation, leading)
    })
    .await?
}

/// Takes a lock when it is free, answering whether it did.
const TRY_LOCK: &str = "SELECT pg_try_advisory_lock(?1)";

/// Takes the lock `key` on the locking connection of `generation`; answers that generation when
/// the lock was free.
fn try_lock(conn: &Connection, generation: u64, key: i64) -> AppResult<Option<u64>> {
    let taken: bool = conn.prepare_cached(TRY_LOCK)?.query_row([key], |r| r.get(0))?;
    Ok(taken.then_some(generation))
}

/// The first eight bytes of the name's SHA-256, as PostgreSQL's bigint lock key.
fn lock_key(name: &str) -> i64 {
    let digest = Sha256::digest(name.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_the_same_lock_everywhere_and_names_differ() {
        assert_eq!(lock_key("x-requestid:a"), lock_key("x-requestid:a"));
        assert_ne!(lock_key("x-requestid:a"), lock_key("x-requestid:b"));
        // Fixed by SHA-256, not by this build's hasher: servers of two versions agree.
        assert_eq!(lock_key(""), i64::from_be_bytes([0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14]));
    }

    /// Two servers' clusters on one PostgreSQL server: a claim is one server's until released
    /// (or its connection ends), and one of them leads until its connection ends.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
    async fn postgres_claims_and_the_leader_are_one_servers_at_a_time() {
        let url = std::env::var("PERKDESK_TEST_POSTGRES").expect("PERKDESK_TEST_POSTGRES names the test server");
        let (first, second) = (Cluster::postgres(&url), Cluster::postgres(&url));
        let name = format!("claim-test-{}", std::process::id());
        let claim = first.claim(&name).await.unwrap();
        assert!(claim.is_some());
        assert!(second.claim(&name).await.unwrap().is_none(), "held by the first server");
        assert!(second.claim(&format!("{name}-other")).await.unwrap().is_some(), "another name is free");
        drop(claim);
        // The release is a round trip of its own, on the blocking threads.
        assert!(
            within_a_second(|| async { second.claim(&name).await.unwrap().is_some() }).await,
            "released when dropped"
        );

        // Leadership is one server's and stays with it; when its connection ends, the other
        // takes over at its next round. (Advisory locks are per database, and no app server runs
        // on the test server's maintenance database.)
        assert!(first.leads().await.unwrap(), "the first to ask leads");
        assert!(!second.leads().await.unwrap(), "never both");
        assert!(first.leads().await.unwrap(), "a leader stays one");
        lock(&first.held[0]).conn.forget();
        // PostgreSQL frees a closed connection's locks when its backend sees the socket close,
        // a moment after the client let go: the other server takes over at one of its next rounds.
        assert!(within_a_second(|| async { second.leads().await.unwrap() }).await, "the other takes over");
        assert!(!first.leads().await.unwrap(), "and keeps it");
    }

    /// Whether `check` holds within about a second, asked every 10 ms.
    async fn within_a_second<F: std::future::Future<Output = bool>>(check: impl Fn() -> F) -> bool {
        for _ in 0..100 {
            if check().await {
                return true;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        false
    }

    #[tokio::test]
    async fn on_sqlite_every_claim_is_granted_and_the_server_leads() {
        let cluster = Cluster::sqlite();
        let (first, second) = (cluster.claim("k").await.unwrap(), cluster.claim("k").await.unwrap());
        assert!(first.is_some() && second.is_some());
        assert!(cluster.leads().await.unwrap());
    }
}
