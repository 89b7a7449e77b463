//! The PostgreSQL side of the seam: the hand-written SQL's `?N` placeholders become `$N`, values
//! cross in the five classes the seam shares with SQLite (each bound to the type PostgreSQL
//! inferred for its parameter), and the server's SQLSTATE answers the constraint questions.
//!
//! Statements whose answer nobody reads (a transaction's BEGIN, a savepoint, the writer's name for
//! the activity log, a stored answer beside its write) are deferred: they travel with the next
//! statement that is read, in one exchange with the server (the protocol's pipelining), instead of
//! each waiting for a round trip of its own. [`round_trips`] counts the exchanges.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::error::Error as StdError;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use std::future::Future;

use bytes::{BufMut, BytesMut};
use tokio_postgres::types::{FromSql as PgFromSql, IsNull, ToSql as PgToSql, Type, to_sql_checked};

use super::error::{Error, Result};
use super::value::{Value, ValueRef};

type BoxError = Box<dyn StdError + Sync + Send>;

/// Statements kept compiled per connection; past this many the cache starts over.
const STATEMENT_CACHE: usize = 256;

/// A PostgreSQL connection with its compiled statements.
pub(super) struct Pg {
    /// The driver's client and its runtime, driven by whichever thread exchanges (see
    /// [`driving_here`]); locked only by the connection's one user at a time, and a thread of the
    /// moment it hands an exchange to.
    client: Mutex<Client>,
    statements: RefCell<HashMap<String, tokio_postgres::Statement>>,
    /// Whether a transaction begun through the seam is open (the protocol's own status is not
    /// exposed by the driver).
    pub(super) in_transaction: Cell<bool>,
    /// Cursors declared so far, for a name none other on the connection has.
    cursors: Cell<u64>,
    /// When the server last answered on this connection.
    answered: Cell<Instant>,
    /// The ids taken ahead, shared with the connection's pool (`ids.rs`).
    pub(super) ids: std::sync::Arc<super::ids::TakenIds>,
}

thread_local! {
    /// Whether this thread may wait on a connection's runtime itself ([`driving_here`]).
    static DRIVES: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` on a thread that waits for PostgreSQL itself: each exchange is driven right here,
/// on the connection's own runtime, without handing it to another thread and back (two wake-ups
/// a round trip). For the threads that run the database's work (`Db`'s blocking threads); a
/// thread outside any runtime (the command line) always may. Elsewhere, on a thread that drives
/// async work (a request's task, an async test), a runtime may not be waited on: an exchange there
/// runs on a thread of the moment.
pub fn driving_here<T>(work: impl FnOnce() -> T) -> T {
    /// Puts the thread's mark back however the work ends.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            DRIVES.set(self.0);
        }
    }
    let _restore = Restore(DRIVES.replace(true));
    work()
}

fn may_drive_here() -> bool {
    DRIVES.get() || tokio::runtime::Handle::try_current().is_err()
}

/// Runs `work` here when this thread may wait on a runtime, else on a thread of the moment
/// (see [`driving_here`]).
fn on_a_driving_thread<T: Send>(work: impl FnOnce() -> T + Send) -> Result<T> {
    if may_drive_here() {
        return Ok(work());
    }
    let (mut work, mut answer) = (Some(work), None);
    on_a_thread_of_the_moment(&mut || answer = work.take().map(|work| work()))?;
    answer.ok_or(Error::Engine("a PostgreSQL exchange's thread stopped"))
}

/// Runs `work` on a thread of its own, waited for. Not generic: the thread's machinery is built
/// once in the binary, not once per kind of exchange. In the server only the start's reading of
/// the token key comes here (a debug build's count, 2026-11-29): every request's exchanges run on
/// the database's blocking threads. A thread the system refuses is an error, not a panic.
fn on_a_thread_of_the_moment(work: &mut (dyn FnMut() + Send)) -> Result<()> {
    thread::scope(|scope| {
        let thread = thread::Builder::new()
            .name("perkdesk-postgres".into())
            .spawn_scoped(scope, || driving_here(work))
            .map_err(|_| Error::Engine("cannot start a thread for a PostgreSQL exchange"))?;
        thread.join().map_err(|_| Error::Engine("a PostgreSQL exchange's thread stopped"))
    })
}

/// The client, whoever held it before (a panic while holding it leaves nothing half-done that
/// the next exchange would trip on: a failed exchange is an error of its own).
fn lock(client: &Mutex<Client>) -> std::sync::MutexGuard<'_, Client> {
    client.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Exchanges with PostgreSQL servers (a request sent and its answers read: one round trip,
/// however many statements it carried) made by this process so far.
static ROUND_TRIPS: AtomicU64 = AtomicU64::new(0);

/// How many round trips to PostgreSQL servers this process has made: what the tests that bound a
/// write's exchanges count.
pub fn round_trips() -> u64 {
    ROUND_TRIPS.load(Ordering::Relaxed)
}

/// A statement deferred to the next exchange: a compiled one with its values, parameterless SQL
/// sent as it is, or a query whose rows go to whoever sent it ahead (`ahead.rs`).
enum Deferred {
    Compiled(tokio_postgres::Statement, Vec<Value>),
    Text(String),
    Read(tokio_postgres::Statement, Vec<Value>, mpsc::Sender<Vec<tokio_postgres::Row>>),
}

/// The driver's client: the async client on a runtime of the connection's own (which also drives
/// the connection while an exchange runs), and the statements deferred to the next exchange.
pub(super) struct Client {
    runtime: Runtime,
    client: tokio_postgres::Client,
    deferred: Vec<Deferred>,
}

impl Client {
    /// Runs `work`, a request of `client`, with the deferred statements sent ahead of it in the
    /// same exchange. A deferred statement's failure is answered instead of the work's (the
    /// server skipped or refused what followed it in the transaction).
    fn exchange<'c, T>(
        &'c mut self,
        work: impl FnOnce(&'c tokio_postgres::Client) -> std::pin::Pin<Box<dyn Future<Output = PgResult<T>> + 'c>>,
    ) -> PgResult<T> {
        ROUND_TRIPS.fetch_add(1, Ordering::Relaxed);
        let deferred = std::mem::take(&mut self.deferred);
        let client = &self.client;
        let work = work(client);
        if deferred.is_empty() {
            return self.runtime.block_on(work);
        }
        let params: Vec<Vec<Param<'_>>> = deferred
            .iter()
            .map(|statement| match statement {
                Deferred::Compiled(_, values) | Deferred::Read(_, values, _) => {
                    values.iter().map(|value| Param(ValueRef::from(value))).collect()
                }
                Deferred::Text(_) => Vec::new(),
            })
            .collect();
        let refs: Vec<Vec<&(dyn PgToSql + Sync)>> =
            params.iter().map(|params| params.iter().map(|param| param as &(dyn PgToSql + Sync)).collect()).collect();
        // Each request is queued to the connection at its future's first poll, in order, and the
        // connection writes all that is queued before it reads: one round trip for them all.
        let earlier = futures_util::future::join_all(deferred.iter().zip(&refs).map(|(statement, params)| {
            let sent: std::pin::Pin<Box<dyn Future<Output = PgResult<()>> + '_>> = match statement {
                Deferred::Compiled(statement, _) => {
                    Box::pin(async move { client.execute(statement, params).await.map(drop) })
                }
                Deferred::Text(sql) => Box::pin(client.batch_execute(sql)),
                Deferred::Read(statement, _, rows) => Box::pin(async move {
                    // Nobody waiting any more (the reader gave up) is no failure of the exchange.
                    let _ = rows.send(client.query(statement, params).await?);
                    Ok(())
                }),
            };
            sent
        }));
        let (earlier, answer) = self.runtime.block_on(async { tokio::join!(earlier, work) });
        earlier.into_iter().collect::<PgResult<Vec<()>>>()?;
        answer
    }

    pub(super) fn execute(
        &mut self,
        statement: &tokio_postgres::Statement,
        params: &[&(dyn PgToSql + Sync)],
    ) -> PgResult<u64> {
        self.exchange(|client| Box::pin(client.execute(statement, params)))
    }

    pub(super) fn query(
        &mut self,
        statement: &tokio_postgres::Statement,
        params: &[&(dyn PgToSql + Sync)],
    ) -> PgResult<Vec<tokio_postgres::Row>> {
        self.exchange(|client| Box::pin(client.query(statement, params)))
    }

    pub(super) fn batch_execute(&mut self, sql: &str) -> PgResult<()> {
        self.exchange(|client| Box::pin(client.batch_execute(sql)))
    }

    pub(super) fn simple_query(&mut self, sql: &str) -> PgResult<Vec<tokio_postgres::SimpleQueryMessage>> {
        self.exchange(|client| Box::pin(client.simple_query(sql)))
    }

    /// Sends the deferred statements, if any, in an exchange of their own.
    fn flush(&mut self) -> PgResult<()> {
        if self.deferred.is_empty() {
            return Ok(());
        }
        self.exchange(|_| Box::pin(async { Ok(()) }))
    }

    fn prepare(&mut self, sql: &str) -> PgResult<tokio_postgres::Statement> {
        self.exchange(|client| Box::pin(client.prepare(sql)))
    }

    pub(super) fn is_closed(&self) -> bool {
        self.client.is_closed()
    }
}

type PgResult<T> = std::result::Result<T, tokio_postgres::Error>;

/// A connection's runtime. It is shut down without waiting when the connection is dropped: a
/// pooled connection may be dropped on a thread driving async work, where a runtime may not be
/// waited on; the connection's task goes with it, which closes the socket.
struct Runtime(Option<tokio::runtime::Runtime>);

impl Runtime {
    fn block_on<F: Future>(&self, work: F) -> F::Output {
        match &self.0 {
            Some(runtime) => runtime.block_on(work),
            // Taken only as the connection is dropped, when nothing exchanges any more.
            None => unreachable!("a connection's runtime is gone only once the connection is"),
        }
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// How long a connection attempt to one host may take before the next host of the URL is tried.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long sent data may stay unacknowledged before the connection counts as broken.
const TCP_USER_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle time before the first keepalive probe, and between probes.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(10);
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(2);
const KEEPALIVE_RETRIES: u32 = 3;

/// The URL's settings, with bounds where it sets none. A database machine that vanishes (power,
/// network) closes no socket: without them a connection attempt waits for the kernel's SYN
/// retries (about two minutes) before the URL's next host is tried, and a request in flight or an
/// idle pooled connection waits for TCP's own retransmission limit (about fifteen minutes).
fn with_timeouts(mut config: tokio_postgres::Config) -> tokio_postgres::Config {
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(TCP_USER_TIMEOUT);
    }
    // The driver's default idle time is two hours; a URL that names another keeps it.
    if config.get_keepalives() && config.get_keepalives_idle() == Duration::from_secs(2 * 60 * 60) {
        config.keepalives_idle(KEEPALIVE_IDLE);
        if config.get_keepalives_interval().is_none() {
            config.keepalives_interval(KEEPALIVE_INTERVAL);
        }
        if config.get_keepalives_retries().is_none() {
            config.keepalives_retries(KEEPALIVE_RETRIES);
        }
    }
    config
}

impl Pg {
    pub(super) fn connect(url: &str, ids: std::sync::Arc<super::ids::TakenIds>) -> Result<Pg> {
        // Parsed first, so that a malformed URL is told as such.
        let config = url.parse::<tokio_postgres::Config>()?;
        let client = on_a_driving_thread(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|_| Error::Engine("cannot start the PostgreSQL connection's runtime"))?;
            let client = runtime.block_on(async {
                let (client, connection) = with_timeouts(config).connect(tokio_postgres::NoTls).await?;
                // The connection is driven on its own runtime, whenever an exchange runs; it
                // ends when the client is dropped or the server closes it.
                tokio::spawn(async move {
                    if let Err(error) = connection.await {
                        tracing::debug!(%error, "a PostgreSQL connection ended");
                    }
                });
                // The server's notices ("already exists, skipping") are not perkdesk's to log.
                client.batch_execute("SET client_min_messages = warning").await?;
                Ok::<_, tokio_postgres::Error>(client)
            });
            let runtime = Runtime(Some(runtime));
            Ok::<_, Error>(Client { client: client?, runtime, deferred: Vec::new() })
        })??;
        Ok(Pg {
            client: Mutex::new(client),
            statements: RefCell::default(),
            in_transaction: Cell::new(false),
            cursors: Cell::new(0),
            answered: Cell::new(Instant::now()),
            ids,
        })
    }

    /// Runs `work`, an exchange, with the client, on this thread when it may wait for the server
    /// ([`driving_here`]), else on a thread of the moment; answers what it returned.
    pub(super) fn call<T: Send>(&self, work: impl FnOnce(&mut Client) -> T + Send) -> Result<T> {
        let client = &self.client;
        let answer = on_a_driving_thread(move || work(&mut lock(client)))?;
        self.answered.set(Instant::now());
        Ok(answer)
    }

    /// Runs `work`, which makes no exchange, with the client, here.
    fn with_client<T>(&self, work: impl FnOnce(&mut Client) -> T) -> T {
        work(&mut lock(&self.client))
    }

    /// Whether the server answered on this connection within `recently`: the pool then hands it
    /// out without a test exchange of its own.
    pub(super) fn answered_within(&self, recently: Duration) -> bool {
        self.answered.get().elapsed() < recently
    }

    /// Sends `statement` with `values` ahead of the next exchange, without waiting for an answer.
    pub(super) fn defer(&self, statement: tokio_postgres::Statement, values: Vec<Value>) {
        self.with_client(move |client| client.deferred.push(Deferred::Compiled(statement, values)));
    }

    /// Sends parameterless `sql` ahead of the next exchange, without waiting for an answer.
    pub(super) fn defer_text(&self, sql: &str) {
        let sql = sql.to_string();
        self.with_client(move |client| client.deferred.push(Deferred::Text(sql)));
    }

    /// Sends the query `statement` with `values` ahead of the next exchange; its rows come back
    /// on the answer once that exchange has answered (`ahead.rs`).
    pub(super) fn defer_read(
        &self,
        statement: tokio_postgres::Statement,
        values: Vec<Value>,
    ) -> mpsc::Receiver<Vec<tokio_postgres::Row>> {
        let (rows, answer) = mpsc::channel();
        self.with_client(move |client| client.deferred.push(Deferred::Read(statement, values, rows)));
        answer
    }

    /// Sends what is deferred now, in an exchange of its own when there is any.
    pub(super) fn flush(&self) -> Result<()> {
        Ok(self.call(|client| client.flush())??)
    }

    /// Forgets the deferred statements (a transaction rolled back before they were sent).
    pub(super) fn discard_deferred(&self) {
        self.with_client(|client| client.deferred.clear());
    }

    /// Whether the server closed the connection (no exchange: the driver knows).
    pub(super) fn is_closed(&self) -> bool {
        self.with_client(|client| client.is_closed())
    }

    /// A cursor name not yet used on this connection.
    pub(super) fn next_cursor_name(&self) -> String {
        let n = self.cursors.get() + 1;
        self.cursors.set(n);
        format!("perkdesk_rows_{n}")
    }

    /// The statement for `sql` (its placeholders rewritten), compiled once per connection when
    /// `cached`.
    pub(super) fn prepare(&self, sql: &str, cached: bool) -> Result<tokio_postgres::Statement> {
        if cached && let Some(statement) = self.statements.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let numbered = numbered_placeholders(sql).into_owned();
        let statement = self.call(move |client| client.prepare(&numbered))??;
        if cached {
            let mut statements = self.statements.borrow_mut();
            if statements.len() >= STATEMENT_CACHE {
                statements.clear();
            }
            statements.insert(sql.to_string(), statement.clone());
        }
        Ok(statement)
    }
}

/// `?N` (and a bare `?`, numbered after the last) as PostgreSQL's `$N`, leaving string literals,
/// quoted names and comments as they are.
pub(super) fn numbered_placeholders(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut highest = 0u32;
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                out.push(c);
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                out.push(c);
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == '\n' {
                        break;
                    }
                }
            }
            '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                let number = digits.parse().unwrap_or(highest + 1);
                highest = highest.max(number);
                out.push('$');
                out.push_str(&number.to_string());
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A seam value bound to a parameter of the type PostgreSQL inferred for it.
#[derive(Debug)]
pub(super) struct Param<'a>(pub(super) ValueRef<'a>);

fn is_text(ty: &Type) -> bool {
    [Type::TEXT, Type::VARCHAR, Type::BPCHAR, Type::NAME, Type::UNKNOWN, Type::JSON].contains(ty)
}

impl PgToSql for Param<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match self.0 {
            ValueRef::Null => Ok(IsNull::Yes),
            ValueRef::Integer(n) => match *ty {
                Type::INT8 => n.to_sql(ty, out),
                Type::INT4 => i32::try_from(n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(n)?.to_sql(ty, out),
                Type::BOOL => (n != 0).to_sql(ty, out),
                Type::FLOAT8 => (n as f64).to_sql(ty, out),
                Type::FLOAT4 => (n as f32).to_sql(ty, out),
                ref ty if is_text(ty) => n.to_string().to_sql(ty, out),
                ref ty => Err(format!("an integer cannot be given for a parameter of type {ty}").into()),
            },
            ValueRef::Real(x) => match *ty {
                Type::FLOAT8 => x.to_sql(ty, out),
                Type::FLOAT4 => (x as f32).to_sql(ty, out),
                ref ty if is_text(ty) => x.to_string().to_sql(ty, out),
                ref ty => Err(format!("a real number cannot be given for a parameter of type {ty}").into()),
            },
            ValueRef::Text(bytes) => {
                let text = std::str::from_utf8(bytes)?;
                match *ty {
                    Type::INT8 => text.trim().parse::<i64>()?.to_sql(ty, out),
                    Type::INT4 => text.trim().parse::<i32>()?.to_sql(ty, out),
                    Type::FLOAT8 => text.trim().parse::<f64>()?.to_sql(ty, out),
                    Type::BYTEA => bytes.to_sql(ty, out),
                    Type::JSONB => {
                        // jsonb's binary form: a version byte, then the text.
                        out.put_u8(1);
                        out.put_slice(bytes);
                        Ok(IsNull::No)
                    }
                    ref ty if is_text(ty) => text.to_sql(ty, out),
                    ref ty => Err(format!("text cannot be given for a parameter of type {ty}").into()),
                }
            }
            ValueRef::Blob(bytes) => match *ty {
                Type::BYTEA => bytes.to_sql(ty, out),
                ref ty => Err(format!("bytes cannot be given for a parameter of type {ty}").into()),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A column of a PostgreSQL row as a seam value, borrowed from the row.
pub(super) struct Column<'a>(pub(super) ValueRef<'a>);

impl<'a> PgFromSql<'a> for Column<'a> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(Column(match *ty {
            Type::INT8 => ValueRef::Integer(i64::from_sql(ty, raw)?),
            Type::INT4 => ValueRef::Integer(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => ValueRef::Integer(i16::from_sql(ty, raw)?.into()),
            Type::OID => ValueRef::Integer(u32::from_sql(ty, raw)?.into()),
            Type::BOOL => ValueRef::Integer(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => ValueRef::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => ValueRef::Real(f32::from_sql(ty, raw)?.into()),
            Type::NUMERIC => numeric(raw)?,
            Type::BYTEA => ValueRef::Blob(raw),
            Type::JSONB => match raw.split_first() {
                Some((1, text)) => ValueRef::Text(text),
                _ => return Err("an unknown jsonb version".into()),
            },
            ref ty if is_text(ty) => ValueRef::Text(raw),
            ref ty => return Err(format!("a column of type {ty} has no seam value; cast it in the query").into()),
        }))
    }

    fn from_sql_null(_: &Type) -> Result<Self, BoxError> {
        Ok(Column(ValueRef::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// A `numeric` (what `SUM` and `AVG` of integers answer) as an integer when it has no fraction
/// and fits, else as a real number. The binary form: digit count, weight, sign, scale, then
/// base-10,000 digits.
fn numeric(raw: &[u8]) -> Result<ValueRef<'static>, BoxError> {
    let word = |at: usize| -> Result<u16, BoxError> {
        raw.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]])).ok_or_else(|| "a short numeric".into())
    };
    let (count, weight, sign) = (usize::from(word(0)?), word(2)? as i16, word(4)?);
    if sign == 0xC000 {
        return Ok(ValueRef::Real(f64::NAN));
    }
    let digits = (0..count).map(|i| word(8 + 2 * i)).collect::<Result<Vec<u16>, _>>()?;
    let negative = sign == 0x4000;
    let whole = digits.iter().enumerate().all(|(i, digit)| *digit == 0 || (weight as i64 - i as i64) >= 0);
    // Whole and within 64 bits: an integer; anything larger falls through to a real number.
    let integer = whole.then(|| {
        (0..=i64::from(weight).max(-1)).try_fold(0i128, |value, i| {
            let digit = digits.get(i as usize).copied().unwrap_or(0);
            value.checked_mul(10_000)?.checked_add(i128::from(digit))
        })
    });
    if let Some(Some(value)) = integer
        && let Ok(value) = i64::try_from(if negative { -value } else { value })
    {
        return Ok(ValueRef::Integer(value));
    }
    let magnitude: f64 = digits
        .iter()
        .enumerate()
        .map(|(i, digit)| f64::from(*digit) * 10_000f64.powi(i32::from(weight) - i as i32))
        .sum();
    Ok(ValueRef::Real(if negative { -magnitude } else { magnitude }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_literals_and_comments() {
        assert_eq!(numbered_placeholders("SELECT ?1, ?2 WHERE a = ?1"), "SELECT $1, $2 WHERE a = $1");
        assert_eq!(numbered_placeholders("VALUES (?, ?, ?)"), "VALUES ($1, $2, $3)");
        assert_eq!(numbered_placeholders("SELECT '?1', \"a?\" -- ?3\n, ?2"), "SELECT '?1', \"a?\" -- ?3\n, $2");
        assert!(matches!(numbered_placeholders("SELECT 1"), Cow::Borrowed(_)));
    }

    #[test]
    fn numerics_read_as_integers_when_whole() {
        // 12345678 = [1234, 5678] weight 1; -2.5 = [2, 5000] weight 0 scale 1; 0 = no digits.
        let encode = |digits: &[u16], weight: i16, sign: u16, scale: u16| {
            let mut raw = Vec::new();
            for word in [digits.len() as u16, weight as u16, sign, scale].into_iter().chain(digits.iter().copied()) {
                raw.extend(word.to_be_bytes());
            }
            raw
        };
        assert_eq!(numeric(&encode(&[1234, 5678], 1, 0, 0)).unwrap(), ValueRef::Integer(12_345_678));
        assert_eq!(numeric(&encode(&[2, 5000], 0, 0x4000, 1)).unwrap(), ValueRef::Real(-2.5));
        assert_eq!(numeric(&encode(&[], 0, 0, 0)).unwrap(), ValueRef::Integer(0));
        assert_eq!(numeric(&encode(&[7], 2, 0, 0)).unwrap(), ValueRef::Integer(700_000_000));
        // Whole but past 64 bits (10^20), and past 128 (10^40): real numbers, not an error.
        assert_eq!(numeric(&encode(&[1], 5, 0x4000, 0)).unwrap(), ValueRef::Real(-1e20));
        assert!(
            matches!(numeric(&encode(&[1], 10, 0, 0)).unwrap(), ValueRef::Real(x) if (x / 1e40 - 1.0).abs() < 1e-12)
        );
    }

    #[test]
    fn a_url_without_timeouts_gets_bounds_and_one_with_them_keeps_its_own() {
        let bounded = with_timeouts("postgres://u@h1,h2/db".parse().unwrap());
        assert_eq!(bounded.get_connect_timeout(), Some(&CONNECT_TIMEOUT));
        assert_eq!(bounded.get_tcp_user_timeout(), Some(&TCP_USER_TIMEOUT));
        assert_eq!(bounded.get_keepalives_idle(), KEEPALIVE_IDLE);
        assert_eq!(bounded.get_keepalives_interval(), Some(KEEPALIVE_INTERVAL));
        assert_eq!(bounded.get_keepalives_retries(), Some(KEEPALIVE_RETRIES));

        let own = with_timeouts(
            "postgres://u@h/db?connect_timeout=30&tcp_user_timeout=60&keepalives_idle=600".parse().unwrap(),
        );
        assert_eq!(own.get_connect_timeout(), Some(&Duration::from_secs(30)));
        assert_eq!(own.get_tcp_user_timeout(), Some(&Duration::from_secs(60)));
        assert_eq!(own.get_keepalives_idle(), Duration::from_secs(600));
        assert_eq!(own.get_keepalives_interval(), None);
    }
}
