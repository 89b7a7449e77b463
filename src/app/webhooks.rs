//! Sends the webhooks' outbox (`crud::events`), outside any request. One worker per server claims
//! due messages (each claim is the server's for a lease; on PostgreSQL the rows another server is
//! claiming are skipped, so each message goes out from one server), sends each signed as the
//! Standard Webhooks specification says, and records every attempt with what follows it: a 2xx
//! within the time allowed is delivered; anything else is tried again on the retry schedule with
//! the same `webhook-id`, until the schedule is spent. A bound on deliveries in flight per
//! endpoint and in all keeps one receiver that hangs from delaying the others. A server that dies
//! mid-delivery leaves its claims to expire: the messages are sent again (at least once).

use std::collections::HashMap;
use std::error::Error as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use tokio::sync::mpsc;

use crate::core::error::AppResult;
use crate::core::targets;
use crate::crud::events::{self, Attempt, Due};
use crate::db::{Db, WriteLoad, format_iso, now_iso};
use crate::resources::webhooks::{self as endpoints, Target};

/// How deliveries are made (`serve --webhook-retries`, `--webhook-disable-after`,
/// `--webhooks-allow-private`).
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The waits before each retry of a failed attempt.
    pub retries: Vec<Duration>,
    /// An endpoint failing for this long is switched off.
    pub disable_after: Duration,
    /// Whether receivers on loopback, private and link-local addresses are allowed.
    pub allow_private: bool,
    /// Deliveries in flight to one endpoint at most.
    pub per_endpoint: usize,
    /// Deliveries in flight in all at most.
    pub in_all: usize,
    /// How long a receiver has to answer.
    pub timeout: Duration,
    /// How long a claim is this server's: longer than any attempt takes.
    pub lease: Duration,
    /// How often the worker looks for due messages when it has nothing to do.
    pub poll: Duration,
    /// Finished messages are kept this long, then deleted with their attempts.
    pub keep: Duration,
}

impl Delivery {
    /// The documented defaults (docs/operations.md "Webhooks").
    pub fn new(retries: Vec<Duration>, disable_after: Duration, allow_private: bool) -> Delivery {
        Delivery {
            retries,
            disable_after,
            allow_private,
            per_endpoint: 64,
            in_all: 256,
            timeout: Duration::from_secs(15),
            lease: Duration::from_secs(60),
            poll: Duration::from_millis(200),
            keep: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

/// The default retry schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (the Standard Webhooks
/// reference's), some 28 hours from the first attempt to the last.
pub const DEFAULT_RETRIES: &str = "5s,5m,30m,2h,5h,10h,10h";

/// The signature header's value for one secret: `v1,` and the base64 of HMAC-SHA256 over
/// `{id}.{timestamp}.{body}`, keyed with the secret's bytes (the base64 after `whsec_`). `None` for
/// a secret that is not such (none that perkdesk makes).
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = base64::engine::general_purpose::STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    Some(format!("v1,{}", base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())))
}

/// Resolves a receiver's name and keeps only the addresses a delivery may reach: a name that
/// points inside is refused when the connection is made, not only when the URL was saved.
struct CheckedResolver {
    allow_private: bool,
}

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let found = targets::resolve(name.as_str(), 0).await?;
            let allowed: Vec<SocketAddr> =
                found.into_iter().filter(|address| allow_private || !targets::forbidden(address.ip())).collect();
            if allowed.is_empty() {
                return Err(targets::URL_FORBIDDEN.into());
            }
            let addresses: reqwest::dns::Addrs = Box::new(allowed.into_iter());
            Ok(addresses)
        })
    }
}

/// The client every delivery goes through: no redirect followed, the time allowed, our resolver.
pub fn client(delivery: &Delivery) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(delivery.timeout)
        .connect_timeout(Duration::from_secs(5))
        .pool_max_idle_per_host(delivery.per_endpoint)
        .dns_resolver(Arc::new(CheckedResolver { allow_private: delivery.allow_private }))
        .user_agent(concat!("perkdesk-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// The sender's own thread, and how to stop it.
pub struct Worker {
    stop: tokio::sync::oneshot::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Worker {
    /// Stops the sender and waits for its thread to end. What it was sending is sent again later:
    /// on PostgreSQL when the claims' lease ends, on SQLite by the next sender.
    pub fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}

/// How much less of the processor the sender's thread asks for than the server's (the nice value
/// of the thread, on Linux). Delivery is off the request path: when the cores are busy with
/// requests, the sender gets what they leave and its queue waits in the outbox, which is what the
/// outbox is for; when they are not, it sends at full speed. At 10 its share under full load is
/// about a tenth of a request thread's, so it still moves, never starved.
const BACKGROUND_NICENESS: i32 = 10;

/// Starts the sender on a thread of its own, at a lower priority than the server's threads, with
/// its own runtime for its HTTP connections. Its database work runs on the server's runtime
/// (`on_server`), at the server's priority.
pub fn spawn(db: Db, delivery: Delivery) -> anyhow::Result<Worker> {
    let client = client(&delivery)?;
    let server = tokio::runtime::Handle::try_current()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new().name("webhooks".into()).spawn(move || {
        lower_this_threads_priority();
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(runtime) => runtime,
            Err(error) => {
                tracing::error!(error = %error, "cannot start the webhook sender");
                return;
            }
        };
        runtime.block_on(async move {
            tokio::select! {
                _ = run(Server { db, runtime: server }, delivery, client) => {}
                _ = stopped => {}
            }
        });
    })?;
    Ok(Worker { stop, thread })
}

#[cfg(target_os = "linux")]
fn lower_this_threads_priority() {
    // On Linux a nice value is a thread's: this one's, and the threads it starts.
    let thread = rustix::thread::gettid();
    if let Err(error) = rustix::process::setpriority_process(Some(thread), BACKGROUND_NICENESS) {
        tracing::warn!(error = %error, "the webhook sender runs at the server's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_this_threads_priority() {}

/// The database and the server's runtime, where the sender's database work runs.
#[derive(Clone)]
struct Server {
    db: Db,
    runtime: tokio::runtime::Handle,
}

impl Server {
    /// Runs database work of the sender's on the server's runtime, at the server's priority: a
    /// write holds the writers' shared transaction, and a read a reader's turn, which a thread the
    /// scheduler serves last would hold for every request.
    async fn on_server<T, F, W>(&self, work: W) -> AppResult<T>
    where
        T: Send + 'static,
        F: Future<Output = AppResult<T>> + Send + 'static,
        W: FnOnce(Db) -> F,
    {
        match self.runtime.spawn(work(self.db.clone())).await {
            Ok(done) => done,
            Err(error) => Err(anyhow::anyhow!("the webhook sender's database work ended: {error}").into()),
        }
    }
}

/// While requests keep the database busy, the sender holds back its next round (recording what
/// came back, claiming more), [`HOLD_STEP`] at a time. Busy: this server's shared transactions
/// held this many writes or more each, on average, since the last look. Writes share a
/// transaction only when they overlap (they queue while one commits), so the measure needs no
/// figure of the machine: on this 2-core host 500 uses/s average 1.1 a transaction, 870/s 1.9,
/// and a saturated server (3,000/s) 28.
const BUSY_AT: f64 = 4.0;
const HOLD_STEP: Duration = Duration::from_millis(10);
/// ...and never longer than this since its last round, so a server that is always busy still
/// delivers, a round (up to `in_all` messages) this often. At full load requests come first: the
/// messages wait in the outbox, in order, and go out at full speed as soon as the load eases.
const HOLD_AT_MOST: Duration = Duration::from_millis(500);

/// Whether requests keep the database busy, from readings of its writers' load.
struct Busy {
    since: WriteLoad,
    at: Instant,
    busy: bool,
}

/// A stretch with no transaction ended in it at least this long is a quiet database; a shorter one
/// keeps the verdict before it (a busy database commits every few milliseconds, not at each look).
const QUIET_AFTER: Duration = Duration::from_millis(50);

impl Busy {
    fn new(now: WriteLoad) -> Busy {
        Busy { since: now, at: Instant::now(), busy: false }
    }

    fn busy(&mut self, now: WriteLoad) -> bool {
        match now.writes_per_transaction_since(self.since) {
            Some(writes) => self.busy = writes >= BUSY_AT,
            None if self.at.elapsed() >= QUIET_AFTER => self.busy = false,
            None => return self.busy,
        }
        self.since = now;
        self.at = Instant::now();
        self.busy
    }
}

/// How long after the server's start the sender starts sending...
const SETTLE: Duration = Duration::from_secs(1);
/// ...and deleting finished messages past their keeping, then this often.
const PRUNE_FIRST_AFTER: Duration = Duration::from_secs(60);
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// How long the sender waits, once a send has ended, for more to end before recording them.
const GATHER: Duration = Duration::from_millis(2);

/// What came back from one send: the attempt and its endpoint.
type Finished = (Attempt, i64);

async fn run(server: Server, delivery: Delivery, client: reqwest::Client) {
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Finished>();
    // The messages on their way, by endpoint, and how many in all.
    let mut on_their_way: HashMap<i64, Vec<i64>> = HashMap::new();
    let mut sending = 0usize;
    // Nothing at the very start: the server's first requests come first (each database
    // connection the sender would take at once is one more to open beside them).
    tokio::time::sleep(SETTLE).await;
    let mut next_prune = Instant::now() + PRUNE_FIRST_AFTER;
    let mut last_round = Instant::now();
    let mut load = Busy::new(server.db.write_load());
    loop {
        if load.busy(server.db.write_load()) && last_round.elapsed() < HOLD_AT_MOST {
            tokio::time::sleep(HOLD_STEP).await;
            continue;
        }
        last_round = Instant::now();
        let mut finished = Vec::new();
        while let Ok(done) = done_rx.try_recv() {
            finished.push(done);
        }
        if !finished.is_empty() {
            for (attempt, webhook) in &finished {
                if let Some(ids) = on_their_way.get_mut(webhook) {
                    ids.retain(|id| *id != attempt.message);
                }
                sending = sending.saturating_sub(1);
            }
            on_their_way.retain(|_, ids| !ids.is_empty());
            if let Err(error) = record(&server, &delivery, finished).await {
                // The claims stay until their lease ends; the messages are sent again then.
                tracing::error!(error = %error, "cannot record webhook deliveries");
            }
        }
        let free = delivery.in_all.saturating_sub(sending);
        let mut claimed = 0;
        if free > 0 {
            match claim_and_send(&server, &delivery, &client, free, &mut on_their_way, &done_tx).await {
                Ok(sent) => {
                    claimed = sent;
                    sending += sent;
                }
                Err(error) => tracing::warn!(error = %error, "cannot claim webhook messages"),
            }
        }
        if Instant::now() >= next_prune {
            next_prune = Instant::now() + PRUNE_EVERY;
            prune(&server, &delivery).await;
        }
        // Straight on while there is more to claim and room for it; else until a send ends or
        // the next look. Sends that end close together are recorded together: one write, and one
        // claim after it, for all that ended within a few milliseconds, not one each.
        if claimed == 0 || sending >= delivery.in_all {
            tokio::select! {
                done = done_rx.recv() => if let Some(done) = done {
                    finished_early(&done_tx, done);
                    if sending > 1 {
                        tokio::time::sleep(GATHER).await;
                    }
                },
                _ = tokio::time::sleep(delivery.poll) => {}
            }
        }
    }
}

/// Puts a finished send that woke the loop back on the channel, for the loop's next round.
fn finished_early(done_tx: &mpsc::UnboundedSender<Finished>, done: Finished) {
    let _ = done_tx.send(done);
}

/// Claims, for each endpoint with a message due and room for more, as many as it has room for
/// (and the sender in all), and starts the sends; how many it started. On a database no other
/// server shares, what this server is sending is held in its memory alone (`sending`), which a
/// restart empties: no claim is written.
async fn claim_and_send(
    server: &Server,
    delivery: &Delivery,
    client: &reqwest::Client,
    free: usize,
    sending: &mut HashMap<i64, Vec<i64>>,
    done_tx: &mpsc::UnboundedSender<Finished>,
) -> AppResult<usize> {
    let busy: Vec<i64> =
        sending.iter().filter(|(_, ids)| ids.len() >= delivery.per_endpoint).map(|(id, _)| *id).collect();
    let shared = server.db.is_shared();
    let unclaimed: HashMap<i64, usize> =
        if shared { HashMap::new() } else { sending.iter().map(|(id, ids)| (*id, ids.len())).collect() };
    let due = server
        .on_server(|db| async move { db.run(move |conn| events::due_endpoints(conn, &busy, &unclaimed)).await })
        .await?;
    if due.is_empty() {
        return Ok(0);
    }
    let rooms: Vec<(i64, usize, Vec<i64>)> = due
        .into_iter()
        .map(|endpoint| {
            let ids = sending.get(&endpoint).cloned().unwrap_or_default();
            (endpoint, delivery.per_endpoint.saturating_sub(ids.len()), ids)
        })
        .collect();
    let lease_until = format_iso(time::OffsetDateTime::now_utc() + delivery.lease);
    let take = move |conn: &crate::db::sql::Connection| {
        let now = now_iso();
        let mut left = free;
        let mut taken = Vec::new();
        for (endpoint, room, on_their_way) in &rooms {
            if left == 0 {
                break;
            }
            let Some(target) = endpoints::target(conn, *endpoint, &now)? else { continue };
            let limit = (*room).min(left);
            let dues = if shared {
                events::claim(conn, *endpoint, &now, &lease_until, limit)?
            } else {
                events::due(conn, *endpoint, &now, limit, on_their_way)?
            };
            left -= dues.len();
            if !dues.is_empty() {
                taken.push((Arc::new(target), dues));
            }
        }
        Ok(taken)
    };
    let taken = server
        .on_server(|db| async move {
            if shared { write_again_if_contended(&db, take).await } else { db.run(move |conn| take(conn)).await }
        })
        .await?;
    let mut started = 0;
    for (target, dues) in taken {
        for due in dues {
            sending.entry(due.webhook_id).or_default().push(due.id);
            started += 1;
            let (client, target, done_tx, allow_private) =
                (client.clone(), target.clone(), done_tx.clone(), delivery.allow_private);
            tokio::spawn(async move {
                let webhook = due.webhook_id;
                let attempt = send(&client, &due, &target, allow_private).await;
                let _ = done_tx.send((attempt, webhook));
            });
        }
    }
    Ok(started)
}

/// One attempt: the signed POST and what came back.
async fn send(client: &reqwest::Client, due: &Due, target: &Target, allow_private: bool) -> Attempt {
    let started_at = now_iso();
    let start = Instant::now();
    let finish = |status: Option<u16>, error: Option<String>| Attempt {
        message: due.id,
        attempt: due.attempt,
        started_at: started_at.clone(),
        status,
        duration_ms: start.elapsed().as_millis().min(i64::MAX as u128) as i64,
        error,
    };
    let url = match targets::parse(&target.url) {
        Ok(url) if allow_private || !targets::names_forbidden_address(&url) => url,
        Ok(_) => return finish(None, Some(targets::URL_FORBIDDEN.into())),
        Err(message) => return finish(None, Some(message.into())),
    };
    let timestamp = time::OffsetDateTime::now_utc().unix_timestamp();
    let signatures: Vec<String> =
        target.secrets.iter().filter_map(|secret| sign(secret, &due.message_id, timestamp, &due.payload)).collect();
    let sent = client
        .post(url)
        .header("webhook-id", &due.message_id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signatures.join(" "))
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(due.payload.clone())
        .send()
        .await;
    match sent {
        Ok(mut answer) => {
            let status = answer.status().as_u16();
            // The answer's body is read (a little of it) so the connection can serve the next
            // delivery; what a receiver says beyond that is not kept.
            let mut read = 0usize;
            while read < 64 * 1024 {
                match answer.chunk().await {
                    Ok(Some(chunk)) => read += chunk.len(),
                    _ => break,
                }
            }
            let error = (!(200..300).contains(&status)).then(|| format!("HTTP {status}"));
            finish(Some(status), error)
        }
        Err(error) => finish(None, Some(describe(&error))),
    }
}

/// A failed send in a line: what went wrong, down to its cause (the URL left out: it is the
/// endpoint's, shown beside it).
fn describe(error: &reqwest::Error) -> String {
    let mut text = if error.is_timeout() {
        "timed out".to_string()
    } else if error.is_connect() {
        "could not connect".to_string()
    } else {
        "could not send".to_string()
    };
    let mut cause = error.source();
    let mut last = None;
    while let Some(inner) = cause {
        last = Some(inner.to_string());
        cause = inner.source();
    }
    if let Some(last) = last {
        text.push_str(": ");
        text.push_str(&last);
    }
    text.chars().take(500).collect()
}

/// Runs a write of the sender's, again while it loses to another server's concurrent write (on
/// PostgreSQL: the claims and records of two servers touch one endpoint's row), with short
/// jittered pauses, as the request retry does (`app::retry`).
async fn write_again_if_contended<T, F>(db: &Db, work: F) -> AppResult<T>
where
    T: Send + 'static,
    F: Fn(&crate::db::sql::Connection) -> AppResult<T> + Clone + Send + 'static,
{
    let mut pause = Duration::from_millis(5);
    for _ in 1..20 {
        match db.write(work.clone()).await {
            Err(crate::core::error::AppError::Contended) => {
                let jitter = rand::Rng::random_range(&mut rand::rng(), 0..=pause.as_millis() as u64);
                tokio::time::sleep(pause + Duration::from_millis(jitter)).await;
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            done => return done,
        }
    }
    db.write(work).await
}

/// Records finished attempts in one write: each message's outcome and its endpoint's.
async fn record(server: &Server, delivery: &Delivery, finished: Vec<Finished>) -> AppResult<()> {
    let (retries, disable_after) = (delivery.retries.clone(), delivery.disable_after);
    let finished = Arc::new(finished);
    let work = move |tx: &crate::db::sql::Connection| {
        let now = time::OffsetDateTime::now_utc();
        let now_text = format_iso(now);
        // Each endpoint's outcome of the batch, one update each: its last answer, and whether any
        // got through (then it is not failing).
        let mut outcomes: Vec<(i64, Option<u16>, bool)> = Vec::new();
        for (attempt, webhook) in finished.iter() {
            let retry_at = (!attempt.delivered())
                .then(|| retries.get(attempt.attempt as usize - 1))
                .flatten()
                .map(|wait| format_iso(now + *wait));
            events::record(tx, attempt, retry_at.as_deref(), &now_text)?;
            match outcomes.iter_mut().find(|(endpoint, _, _)| endpoint == webhook) {
                Some(outcome) => {
                    outcome.1 = attempt.status;
                    outcome.2 |= attempt.delivered();
                }
                None => outcomes.push((*webhook, attempt.status, attempt.delivered())),
            }
        }
        let mut switched_off = Vec::new();
        for (webhook, status, delivered) in outcomes {
            if endpoints::after_attempt(tx, webhook, status, delivered, &now_text, disable_after)? {
                switched_off.push(webhook);
            }
        }
        Ok(switched_off)
    };
    let switched_off = server.on_server(|db| async move { write_again_if_contended(&db, work).await }).await?;
    for webhook in switched_off {
        tracing::warn!(webhook, "webhook endpoint switched off: every delivery failed for too long");
    }
    Ok(())
}

async fn prune(server: &Server, delivery: &Delivery) {
    let before = format_iso(time::OffsetDateTime::now_utc() - delivery.keep);
    for _ in 0..100 {
        let before = before.clone();
        match server.on_server(|db| async move { db.write(move |tx| events::prune(tx, &before, 1000)).await }).await {
            Ok(1000) => continue,
            Ok(_) => break,
            Err(error) => {
                tracing::warn!(error = %error, "cannot delete old webhook deliveries");
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(transactions: u64, writes: u64) -> WriteLoad {
        WriteLoad { transactions, writes }
    }

    #[test]
    fn the_database_is_busy_while_its_transactions_hold_many_writes_each() {
        let mut load = Busy::new(reading(10, 10));
        assert!(!load.busy(reading(20, 21)), "one write a transaction: quiet");
        assert!(load.busy(reading(25, 61)), "eight a transaction: busy");
        // No transaction ended since: a busy database commits every few milliseconds, so a short
        // stretch keeps the verdict...
        assert!(load.busy(reading(25, 61)));
        // ...and a long one is a quiet database.
        load.at -= QUIET_AFTER;
        assert!(!load.busy(reading(25, 61)));
        assert!(!load.busy(reading(27, 64)), "1.5 a transaction: quiet");
    }

    /// The Standard Webhooks specification's own example (its README's "Signature scheme").
    #[test]
    fn signs_as_the_specification_example_does() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, id, 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn a_secret_that_is_not_base64_signs_nothing() {
        assert_eq!(sign("whsec_not base64!", "msg_1", 1, "{}"), None);
    }
}
