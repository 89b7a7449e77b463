//! What several app servers on one PostgreSQL database agree on through the database itself: the
//! one server that does the background work, and how many servers there are. The leader holds a
//! PostgreSQL session-level advisory lock on a connection of its own, kept outside the pool: a
//! server that dies, or loses that connection, drops the lock with it, and another server takes
//! over the background work at its next round. Claims of an `x-requestid` are advisory locks too,
//! but held by the request's own transaction (see [`claim_key`], [`CLAIM_FIRST`] and
//! `Db::claim_then_look_up`).
//!
//! On SQLite there is one server: it always leads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use super::lock;
use super::sql::{Connection, Reconnecting};
use crate::core::error::AppResult;

/// The advisory lock of the server that does the background work (an arbitrary constant beside
/// the migrations' 7245031616 and the count fold's 7245031617).
const LEADER_LOCK: i64 = 7_245_031_618;
/// How each server's locking connection names itself to PostgreSQL, so the servers can be
/// counted.
const SERVER_NAME: &str = "perkdesk-server";

pub struct Cluster {
    /// The locking connection, the leader's; none on SQLite.
    held: Option<Arc<Mutex<Held>>>,
    /// The app servers sharing the database when last counted (see [`Cluster::count_servers`]).
    servers: AtomicUsize,
}

/// The locking connection (a lock taken on an earlier generation of it went with that
/// connection) and the generation that took the leader's lock.
struct Held {
    conn: Reconnecting,
    leading: Option<u64>,
}

impl Cluster {
    pub fn sqlite() -> Cluster {
        Cluster { held: None, servers: AtomicUsize::new(1) }
    }

    /// Nothing is opened until first used.
    pub fn postgres(url: &str) -> Cluster {
        let conn = Reconnecting::new(url, format!("SET application_name = '{SERVER_NAME}'"));
        Cluster { held: Some(Arc::new(Mutex::new(Held { conn, leading: None }))), servers: AtomicUsize::new(1) }
    }

    /// The app servers sharing the database, as last counted: each enforces its share of a
    /// rate limit, so N servers together allow the limit once, not N times. At least 1.
    pub fn servers(&self) -> usize {
        self.servers.load(Ordering::Relaxed).max(1)
    }

    /// Counts the app servers now connected to the database (each by its locking connection,
    /// opened here when needed) and remembers the count; 1 on SQLite.
    pub async fn count_servers(&self) -> AppResult<usize> {
        let servers = match self.held.clone() {
            None => 1,
            Some(held) => {
                let counted = on_locking_connection(held, |conn, _, _| {
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

    /// Whether this server does the background work: on PostgreSQL, the one whose locking
    /// connection holds the leader's lock (taken at the first round after the last leader went).
    pub async fn leads(&self) -> AppResult<bool> {
        let Some(held) = self.held.clone() else { return Ok(true) };
        on_locking_connection(held, |conn, generation, leading| {
            // A session's locks stack: the leader's is taken once per connection.
            if *leading != Some(generation) {
                let taken: bool = conn.prepare_cached(TRY_LOCK)?.query_row([LEADER_LOCK], |r| r.get(0))?;
                *leading = taken.then_some(generation);
            }
            Ok(leading.is_some())
        })
        .await
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

/// Takes a session's lock when it is free, answering whether it did.
const TRY_LOCK: &str = "SELECT pg_try_advisory_lock(?1)";

/// A claim's first step, sent before its transaction begins: the session's lock, when it is free.
/// Taken outside the transaction, so the snapshot of a serializable transaction begun after it
/// (taken by its first statement) sees whatever the claim's last holder committed: a holder's
/// commit is visible before its locks are released.
pub(super) const CLAIM_FIRST: &str = "SELECT pg_try_advisory_lock(?1)";

/// A claim's second step, the transaction's first statement: the transaction's own lock on the
/// same key (granted at once to the session that holds the first, and only then, short of the
/// lock being let go between the two statements), then the session's let go, so the transaction
/// alone holds the claim and its end releases it. Answers whether the claim is taken. (In that
/// rare gap the session's let-go finds no lock of its own: PostgreSQL warns, answers false, and
/// the claim counts as held by another, which the claim's next ask settles.)
pub(super) const CLAIM_SECOND: &str =
    "SELECT CASE WHEN pg_try_advisory_xact_lock(?1) THEN pg_advisory_unlock(?1) ELSE false END";

/// The setting whose absence fails a claim taken ahead ([`claim_ahead_sql`]): its name says
/// why in the error, and nothing ever sets it.
pub(super) const CLAIMED_OR_ANSWERED: &str = "perkdesk.request_claimed_elsewhere_or_answered";

/// A claim's second step for a request whose handler's statements follow it in the same
/// exchange (`Db::claim_ahead`): as [`CLAIM_SECOND`], but a request `answered` already (a
/// condition on `?2` and after), a claim not taken, or one taken in the rare gap where the
/// session's lock was not this session's (see [`CLAIM_SECOND`]), fails the statement, and with
/// it the transaction, so nothing the handler sent after it runs; the session's lock is let go on
/// every path (it outlives a transaction). The branches are tried in order (a `CASE`, unlike an
/// `AND`, fixes the order): the answer, then the transaction's lock, then the session's let go.
/// PostgreSQL raises nothing outside PL/pgSQL, so the failure is the read of a setting that does
/// not exist ([`CLAIMED_OR_ANSWERED`]), whose second argument calls a volatile function: the
/// planner never evaluates it ahead, so it fails only when its branch is reached.
pub(super) fn claim_ahead_sql(answered: &str) -> String {
    let refuse = format!("current_setting('{CLAIMED_OR_ANSWERED}', pg_advisory_unlock(?1) IS NULL)::boolean");
    format!(
        "SELECT CASE WHEN {answered} THEN {refuse}
                     WHEN NOT pg_try_advisory_xact_lock(?1) THEN {refuse}
                     WHEN pg_advisory_unlock(?1) THEN true
                     ELSE {refuse} END"
    )
}

/// The lock a claim of `name` takes: the first eight bytes of the name's SHA-256, as PostgreSQL's
/// bigint lock key. The same name is the same lock on every server and every version.
pub(super) fn claim_key(name: &str) -> i64 {
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
        assert_eq!(claim_key("x-requestid:a"), claim_key("x-requestid:a"));
        assert_ne!(claim_key("x-requestid:a"), claim_key("x-requestid:b"));
        // Fixed by SHA-256, not by this build's hasher: servers of two versions agree.
        assert_eq!(claim_key(""), i64::from_be_bytes([0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14]));
    }

    /// Two servers' clusters on one PostgreSQL server: one of them leads until its connection
    /// ends, and then the other.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
    async fn postgres_the_leader_is_one_server_at_a_time() {
        let url = std::env::var("PERKDESK_TEST_POSTGRES").expect("PERKDESK_TEST_POSTGRES names the test server");
        let (first, second) = (Cluster::postgres(&url), Cluster::postgres(&url));
        // Advisory locks are per database, and no app server runs on the test server's
        // maintenance database.
        assert!(first.leads().await.unwrap(), "the first to ask leads");
        assert!(!second.leads().await.unwrap(), "never both");
        assert!(first.leads().await.unwrap(), "a leader stays one");
        if let Some(held) = &first.held {
            lock(held).conn.forget();
        }
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
    async fn on_sqlite_the_server_leads() {
        assert!(Cluster::sqlite().leads().await.unwrap());
    }
}
