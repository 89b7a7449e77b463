//! Outbound webhooks' outbox. A resource declares the events its writes raise ([`Events`]); its
//! writer raises one ([`raise`]) at the end of the write, in the write's own transaction, and this
//! module leaves a message for every endpoint that listens: the event's body, the record as the
//! back office's GET of it answers, ready to send. A write that is refused or rolled back leaves
//! none, and a committed one cannot lose its messages. The delivery worker (`app::webhooks`)
//! claims, records and replays them here too: this module is the one writer of
//! `webhook_messages` and `webhook_attempts` (the endpoints themselves are
//! `resources::webhooks`').

use rand::Rng;
use rand::distr::Alphanumeric;
use serde_json::json;

use super::{Language, Resource, fetch_detail};
use crate::core::error::{AppError, AppResult};
use crate::db::now_iso;
use crate::db::sql::{Connection, OptionalExtension, ReadAhead};

/// The events a resource's writes raise, and what ties its records to a partner or an asset (an
/// endpoint limited to one partner or one asset hears only of their records).
#[derive(Clone, Copy, Debug)]
pub struct Events {
    /// Raised when a record is made.
    pub created: Option<&'static str>,
    /// Raised when a record is edited (an active toggle included).
    pub updated: Option<&'static str>,
    /// Raised when a record is deleted (a use voided), before it leaves the lists.
    pub deleted: Option<&'static str>,
    /// Events the resource's own writers raise by name (an approval, a confirmation at the till).
    pub named: &'static [&'static str],
    /// The record's partner id, SQL over the resource's `from`; `None`: no partner's.
    pub partner: Option<&'static str>,
    /// The record's asset id (the client organisation), SQL over the resource's `from`.
    pub asset: Option<&'static str>,
}

impl Events {
    /// Every event the declaration names.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        [self.created, self.updated, self.deleted].into_iter().flatten().chain(self.named.iter().copied())
    }
}

/// Which generic change of a record happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Created,
    Updated,
    Deleted,
}

/// Raises the event the resource declares for `on` of its record `id`, if it declares one.
pub fn raise(tx: &Connection, resource: &'static Resource, on: On, id: i64) -> AppResult<()> {
    raise_heard(tx, resource, on, id, listen_ahead(tx, resource, on)?)
}

/// The endpoints' list for the event `resource` declares for `on`, sent ahead of the write's next
/// statements (see `ReadAhead`): a write that knows it will raise the event sends it before its
/// insert, where on PostgreSQL it rides along instead of costing a round trip of its own at the
/// end. Nothing is sent when the resource raises no such event.
pub fn listen_ahead<'c>(tx: &'c Connection, resource: &'static Resource, on: On) -> AppResult<Listening<'c>> {
    Ok(Listening(match declared(resource, on) {
        Some(_) => Some(tx.read_ahead(LISTENERS, ())?),
        None => None,
    }))
}

/// The resource's events and the one it declares for `on`, if it declares one.
fn declared(resource: &'static Resource, on: On) -> Option<(&'static Events, &'static str)> {
    let events = resource.events?;
    let event = match on {
        On::Created => events.created,
        On::Updated => events.updated,
        On::Deleted => events.deleted,
    };
    Some((events, event?))
}

/// The endpoints' list, sent ahead ([`listen_ahead`]).
pub struct Listening<'c>(Option<ReadAhead<'c>>);

/// [`raise`], with the endpoints' list sent ahead (read now if it was not, so an event is never
/// lost to a list asked for another resource's).
pub fn raise_heard(
    tx: &Connection,
    resource: &'static Resource,
    on: On,
    id: i64,
    heard: Listening<'_>,
) -> AppResult<()> {
    let Some((events, event)) = declared(resource, on) else { return Ok(()) };
    let active = match heard.0 {
        Some(active) => active,
        None => tx.read_ahead(LISTENERS, ())?,
    };
    emit(tx, resource, events, event, id, active)
}

/// Raises one of the events the resource's writers raise by name.
pub fn raise_named(tx: &Connection, resource: &'static Resource, event: &str, id: i64) -> AppResult<()> {
    let events = resource.events.filter(|events| events.named.contains(&event)).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!("{} raises {event}, which its declaration does not name", resource.path))
    })?;
    emit(tx, resource, events, event, id, tx.read_ahead(LISTENERS, ())?)
}

/// An endpoint listening for an event, and what it is limited to.
struct Listener {
    id: i64,
    partner: Option<i64>,
    asset: Option<i64>,
}

/// The active endpoints (a handful at most; an empty table costs one look). Their lists of events
/// (JSON arrays of names) are looked through here: a `LIKE ?` would cost every use a parse, since
/// SQLite prepares a statement again at each new pattern (the pattern may change its plan).
const LISTENERS: &str =
    "SELECT id, partner_id, asset_id, events FROM webhooks WHERE deleted_at IS NULL AND is_active = 1";

/// The endpoints of `active` ([`LISTENERS`]) listening for `event`.
fn listeners(active: ReadAhead<'_>, event: &str) -> AppResult<Vec<Listener>> {
    let quoted = format!("\"{event}\"");
    let active = active.query_all(|r| {
        Ok((
            r.get::<String>("events")?,
            Listener { id: r.get("id")?, partner: r.get("partner_id")?, asset: r.get("asset_id")? },
        ))
    })?;
    Ok(active.into_iter().filter(|(events, _)| events.contains(&quoted)).map(|(_, listener)| listener).collect())
}

fn emit(
    tx: &Connection,
    resource: &'static Resource,
    events: &Events,
    event: &str,
    id: i64,
    active: ReadAhead<'_>,
) -> AppResult<()> {
    let mut listening = listeners(active, event)?;
    if listening.is_empty() {
        return Ok(());
    }
    if listening.iter().any(|l| l.partner.is_some() || l.asset.is_some()) {
        let sql = format!(
            "SELECT {} AS partner, {} AS asset FROM {} WHERE {} = ?1",
            events.partner.unwrap_or("NULL"),
            events.asset.unwrap_or("NULL"),
            resource.from,
            resource.id
        );
        let (partner, asset): (Option<i64>, Option<i64>) = tx
            .prepare_cached(&sql)?
            .query_row([id], |r| Ok((r.get("partner")?, r.get("asset")?)))
            .optional()?
            .unwrap_or((None, None));
        listening.retain(|l| {
            l.partner.is_none_or(|wanted| partner == Some(wanted)) && l.asset.is_none_or(|wanted| asset == Some(wanted))
        });
        if listening.is_empty() {
            return Ok(());
        }
    }
    // A record outside the resource (a delete's row that was already gone) raises nothing.
    let Some(data) = fetch_detail(tx, resource, id, Language::Az)? else { return Ok(()) };
    let now = now_iso();
    let payload = serde_json::to_string(&Envelope { kind: event, timestamp: &now, data: &data })
        .map_err(|error| AppError::Internal(error.into()))?;
    // Nobody reads what the inserts changed: on PostgreSQL they travel with the write's next read.
    for listener in listening {
        tx.execute_later(
            "INSERT INTO webhook_messages (webhook_id, event, message_id, payload, next_attempt_at, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
            (listener.id, event, new_message_id(), &payload, &now),
        )?;
    }
    keep_rendered(resource, id, data);
    Ok(())
}

/// A message's body: the event, when it happened, and the record.
#[derive(serde::Serialize)]
struct Envelope<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    timestamp: &'a str,
    data: &'a serde_json::Value,
}

/// A record an event rendered, as the back office's GET answers it.
pub struct Rendered {
    resource: &'static Resource,
    id: i64,
    data: serde_json::Value,
}

impl Rendered {
    /// The record, when it is `resource`'s record `id`.
    pub fn of(self, resource: &'static Resource, id: i64) -> Option<serde_json::Value> {
        (std::ptr::eq(self.resource, resource) && self.id == id).then_some(self.data)
    }
}

thread_local! {
    /// Where an event leaves the record it rendered while a writer keeps it ([`keeping_rendered`]):
    /// `None` when no writer is keeping one.
    static RENDERED: std::cell::RefCell<Option<Option<Rendered>>> = const { std::cell::RefCell::new(None) };
}

/// Runs a write's `work` keeping the record its event renders, if one does, so the write can
/// answer with it instead of reading it a second time (a use read once, not twice). Sound because
/// an event is raised at the end of its write: nothing the work does after it changes the record.
/// The work runs on one thread, whole, as a write's work does.
pub fn keeping_rendered<T>(work: impl FnOnce() -> T) -> (T, Option<Rendered>) {
    /// Leaves no slot open after the work, whatever becomes of it.
    struct Slot;
    impl Drop for Slot {
        fn drop(&mut self) {
            RENDERED.with(|kept| kept.borrow_mut().take());
        }
    }
    RENDERED.with(|kept| *kept.borrow_mut() = Some(None));
    let slot = Slot;
    let done = work();
    let rendered = RENDERED.with(|kept| kept.borrow_mut().take()).flatten();
    drop(slot);
    (done, rendered)
}

fn keep_rendered(resource: &'static Resource, id: i64, data: serde_json::Value) {
    RENDERED.with(|kept| {
        if let Some(slot) = kept.borrow_mut().as_mut() {
            *slot = Some(Rendered { resource, id, data });
        }
    });
}

/// `msg_` and 27 random letters and digits (160 bits): the `webhook-id` of every attempt.
fn new_message_id() -> String {
    let random: String = rand::rng().sample_iter(&Alphanumeric).take(27).map(char::from).collect();
    format!("msg_{random}")
}

/// A message claimed for sending.
#[derive(Debug, Clone)]
pub struct Due {
    pub id: i64,
    pub webhook_id: i64,
    pub message_id: String,
    pub payload: String,
    /// This attempt's number, from 1.
    pub attempt: i64,
}

/// A message read to be sent (`id, webhook_id, message_id, payload, attempts`).
fn due_of(r: &crate::db::sql::Row<'_>) -> crate::db::sql::Result<Due> {
    Ok(Due {
        id: r.get("id")?,
        webhook_id: r.get("webhook_id")?,
        message_id: r.get("message_id")?,
        payload: r.get("payload")?,
        attempt: r.get::<i64>("attempts")? + 1,
    })
}

/// Claims up to `limit` due messages of the active endpoint `webhook`, oldest due first: each is
/// this server's until `lease_until`, and a server that dies holding one leaves it to be claimed
/// again after. On PostgreSQL the rows another server is claiming are skipped, not waited for.
/// Read through the endpoint's own index: the claims of one endpoint never read another's queue.
pub fn claim(tx: &Connection, webhook: i64, now: &str, lease_until: &str, limit: usize) -> AppResult<Vec<Due>> {
    let sql = format!(
        "UPDATE webhook_messages SET claimed_until = ?1
         WHERE id IN (SELECT m.id FROM webhook_messages m
                      WHERE m.webhook_id = ?4 AND m.state = 'pending' AND m.next_attempt_at <= ?2
                        AND (m.claimed_until IS NULL OR m.claimed_until <= ?2)
                      ORDER BY m.next_attempt_at, m.id LIMIT ?3 {})
           AND (claimed_until IS NULL OR claimed_until <= ?2)
         RETURNING id, webhook_id, message_id, payload, attempts",
        crate::db::dialect::Dialect::of(tx).skip_locked("m")
    );
    let mut stmt = tx.prepare_cached(&sql)?;
    let claimed = stmt.query_map((lease_until, now, limit as i64, webhook), due_of)?.collect::<Result<Vec<_>, _>>()?;
    Ok(claimed)
}

/// Up to `limit` due messages of the endpoint `webhook`, oldest due first, leaving out those in
/// `sending` (this server's, on their way), without claiming them: for a database no other server
/// shares, where the server's own memory of what it is sending is the claim (and a restart starts
/// with none), so a message costs no write before its attempt's.
pub fn due(conn: &Connection, webhook: i64, now: &str, limit: usize, sending: &[i64]) -> AppResult<Vec<Due>> {
    let places: Vec<String> = (0..sending.len()).map(|i| format!("?{}", i + 4)).collect();
    let leaving_out = if places.is_empty() { String::new() } else { format!("AND id NOT IN ({})", places.join(", ")) };
    let sql = format!(
        "SELECT id, webhook_id, message_id, payload, attempts FROM webhook_messages
         WHERE webhook_id = ?1 AND state = 'pending' AND next_attempt_at <= ?2 {leaving_out}
         ORDER BY next_attempt_at, id LIMIT ?3"
    );
    let mut values: Vec<crate::db::sql::Value> = vec![webhook.into(), now.to_string().into(), (limit as i64).into()];
    values.extend(sending.iter().map(|id| (*id).into()));
    let mut stmt = conn.prepare_cached(&sql)?;
    let found =
        stmt.query_map(crate::db::sql::params_from_iter(values.iter()), due_of)?.collect::<Result<Vec<_>, _>>()?;
    Ok(found)
}

/// The active endpoints, except those in `busy`, that have a message due now and unclaimed: one
/// look through each one's own index (past its messages in flight, a few at most).
/// `unclaimed` counts, per endpoint, the messages this server is sending without a claim (on a
/// database no other server shares).
pub fn due_endpoints(
    conn: &Connection,
    busy: &[i64],
    unclaimed: &std::collections::HashMap<i64, usize>,
) -> AppResult<Vec<i64>> {
    let now = now_iso();
    let endpoints: Vec<i64> = conn
        .prepare_cached("SELECT id FROM webhooks WHERE is_active = 1 AND deleted_at IS NULL")?
        .query_map([], |r| r.get("id"))?
        .collect::<Result<Vec<_>, _>>()?;
    // Past the messages on their way (claimed or, unclaimed on SQLite, this server's own): one
    // more than the server is sending names one that waits.
    let mut due = conn.prepare_cached(
        "SELECT COUNT(*) AS n FROM (SELECT 1 FROM webhook_messages WHERE webhook_id = ?1 AND state = 'pending'
           AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until <= ?2) LIMIT ?3) AS waiting",
    )?;
    let mut found = Vec::new();
    for endpoint in endpoints.into_iter().filter(|endpoint| !busy.contains(endpoint)) {
        let sending = unclaimed.get(&endpoint).copied().unwrap_or(0) as i64;
        let waiting: i64 = due.query_row((endpoint, &now, sending + 1), |r| r.get("n"))?;
        if waiting > sending {
            found.push(endpoint);
        }
    }
    Ok(found)
}

/// The waiting messages of deleted endpoints fail: they will not be sent.
pub fn cancel_for(tx: &Connection, webhooks: &[i64]) -> AppResult<()> {
    let mut stmt = tx.prepare_cached(
        "UPDATE webhook_messages SET state = 'failed', next_attempt_at = NULL, claimed_until = NULL,
                last_error = 'The webhook was deleted.'
         WHERE webhook_id = ?1 AND state = 'pending'",
    )?;
    for webhook in webhooks {
        stmt.execute([webhook])?;
    }
    Ok(())
}

/// Deletes the deliveries of endpoints deleted for good (the trash's purge), attempts first.
pub fn purge_for(tx: &Connection, webhooks: &[i64]) -> AppResult<()> {
    for webhook in webhooks {
        tx.execute(
            "DELETE FROM webhook_attempts WHERE message_id IN (SELECT id FROM webhook_messages WHERE webhook_id = ?1)",
            [webhook],
        )?;
        tx.execute("DELETE FROM webhook_messages WHERE webhook_id = ?1", [webhook])?;
    }
    Ok(())
}

/// What one attempt came to.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub message: i64,
    pub attempt: i64,
    pub started_at: String,
    /// The answer's status; `None` when none came (refused, timed out, not allowed).
    pub status: Option<u16>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

impl Attempt {
    pub fn delivered(&self) -> bool {
        self.status.is_some_and(|status| (200..300).contains(&status))
    }
}

/// Records an attempt and what follows it: delivered; or tried again at `retry_at`; or, with no
/// retry left (`None`), failed for good.
pub fn record(tx: &Connection, attempt: &Attempt, retry_at: Option<&str>, now: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO webhook_attempts (message_id, attempt, started_at, status_code, duration_ms, error)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute((
        attempt.message,
        attempt.attempt,
        &attempt.started_at,
        attempt.status.map(i64::from),
        attempt.duration_ms,
        &attempt.error,
    ))?;
    let (state, next, delivered_at) = match (attempt.delivered(), retry_at) {
        (true, _) => ("delivered", None, Some(now)),
        (false, Some(at)) => ("pending", Some(at), None),
        (false, None) => ("failed", None, None),
    };
    tx.prepare_cached(
        "UPDATE webhook_messages SET state = ?2, attempts = ?3, next_attempt_at = ?4, claimed_until = NULL,
                last_status_code = ?5, last_duration_ms = ?6, last_error = ?7, delivered_at = COALESCE(?8, delivered_at)
         WHERE id = ?1",
    )?
    .execute((
        attempt.message,
        state,
        attempt.attempt,
        next,
        attempt.status.map(i64::from),
        attempt.duration_ms,
        &attempt.error,
        delivered_at,
    ))?;
    Ok(())
}

pub const DELIVERY_NOT_FOUND: &str = "Webhook delivery not found.";
pub const ENDPOINT_DELETED: &str = "The webhook was deleted; its deliveries cannot be replayed.";

/// Sends a message again, as soon as the worker comes to it, with the same `webhook-id`: a
/// delivered or failed one waits again, a waiting one is due now. Its endpoint's id.
pub fn replay(tx: &Connection, id: i64) -> AppResult<i64> {
    let (webhook, deleted): (i64, bool) = tx
        .query_row(
            "SELECT m.webhook_id, w.deleted_at IS NOT NULL AS deleted FROM webhook_messages m
             JOIN webhooks w ON w.id = m.webhook_id WHERE m.id = ?1",
            [id],
            |r| Ok((r.get("webhook_id")?, r.get("deleted")?)),
        )
        .optional()?
        .ok_or_else(|| AppError::NotFound(DELIVERY_NOT_FOUND.into()))?;
    if deleted {
        return Err(AppError::Conflict(ENDPOINT_DELETED.into()));
    }
    tx.execute(
        "UPDATE webhook_messages SET state = 'pending', next_attempt_at = ?2, claimed_until = NULL WHERE id = ?1",
        (id, now_iso()),
    )?;
    Ok(webhook)
}

/// Deletes finished messages (delivered or failed) made before `before`, with their attempts, at
/// most `limit` of them; how many went.
pub fn prune(tx: &Connection, before: &str, limit: i64) -> AppResult<usize> {
    let old =
        "SELECT id FROM webhook_messages WHERE created_at < ?1 AND state <> 'pending' ORDER BY created_at, id LIMIT ?2";
    tx.execute(&format!("DELETE FROM webhook_attempts WHERE message_id IN ({old})"), (before, limit))?;
    Ok(tx.execute(&format!("DELETE FROM webhook_messages WHERE id IN ({old})"), (before, limit))?)
}

/// The attempts of one message, oldest first, as the delivery's detail lists them.
pub fn attempts_of(conn: &Connection, message: i64) -> AppResult<Vec<serde_json::Value>> {
    let mut stmt = conn.prepare_cached(
        "SELECT attempt, started_at, status_code, duration_ms, error FROM webhook_attempts
         WHERE message_id = ?1 ORDER BY attempt, id",
    )?;
    let attempts = stmt
        .query_map([message], |r| {
            Ok(json!({
                "attempt": r.get::<i64>("attempt")?,
                "startedAt": r.get::<String>("started_at")?,
                "statusCode": r.get::<Option<i64>>("status_code")?,
                "durationMs": r.get::<i64>("duration_ms")?,
                "error": r.get::<Option<String>>("error")?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(attempts)
}
