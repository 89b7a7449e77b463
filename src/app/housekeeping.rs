//! The server's own recurring work: the activity log's, the trash's and unused redemption codes'
//! retention, the scheduled
//! backups, and on PostgreSQL the counts' fold (on whichever server takes its lock) and the
//! expiry of stored `x-requestid` answers. Retention and expiry run on the one leading server of
//! a cluster (`Db::leads`), so two servers never sweep the same rows. Each
//! runs beside the requests; retention's steps are writes in their turn among the writers, and a
//! backup is a read (a consistent snapshot), so neither holds the writers for long.

use std::path::PathBuf;
use std::time::Duration;

use tokio::time::Instant;

use crate::db::Actor;
use crate::db::activity::{self, action};
use crate::db::{Db, backup};
use crate::resources::trash;

/// How often retention looks for expired entries.
const RETENTION_EVERY: Duration = Duration::from_secs(3600);
/// Entries deleted per write: a long-untended log is pruned in steps, between other writers.
const STEP: u32 = 5_000;
/// Trash records deleted for good per write (each with its own rows: fewer than log entries).
const TRASH_STEP: u32 = 500;

#[derive(Clone, Copy, Debug)]
pub struct Retention {
    /// Activity entries older than this are removed.
    pub activity_days: u32,
    /// Records deleted longer ago than this are deleted for good.
    pub trash_days: u32,
}

/// Copies of the database written on a schedule into a folder, the newest `keep` kept.
#[derive(Clone, Debug)]
pub struct Backups {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep: usize,
}

/// How often the maintained counts' deltas are folded on PostgreSQL: often enough that a read
/// sums only a few seconds of writes.
const FOLD_EVERY: Duration = Duration::from_secs(2);
/// How often the leading server removes expired `x-requestid` answers on PostgreSQL (on SQLite,
/// each recorded answer does it).
const EXPIRE_ANSWERS_EVERY: Duration = Duration::from_secs(60);
/// How often the app servers sharing a PostgreSQL database are counted (for the rate limits' and
/// the connections' shares): a server that joins or leaves changes the shares within this long.
const COUNT_SERVERS_EVERY: Duration = Duration::from_secs(10);

/// How long after the start the first rounds of upkeep wait.
const SETTLE: Duration = Duration::from_secs(10);

/// Starts the recurring work; it ends with the runtime.
pub fn spawn(db: Db, retention: Retention, backups: Option<Backups>) {
    // The first rounds once the server has settled, not beside its start and first requests.
    let now = Instant::now() + SETTLE;
    if db.is_shared() {
        repeat(&db, now, FOLD_EVERY, |db| async move {
            if let Err(error) = db.fold_counts().await {
                tracing::error!(error = %error, "folding the counts failed");
            }
        });
        // Counted from the start (one short read): until a server has counted the others, it
        // takes the whole connection budget, and so do they until they count it.
        repeat(&db, Instant::now(), COUNT_SERVERS_EVERY, |db| async move {
            let before = db.servers();
            match db.count_servers().await {
                Ok(servers) if servers != before => {
                    let connections = db.connections_in_use_at_most().await;
                    tracing::info!(
                        servers,
                        connections,
                        "app servers sharing the database (each keeps its share of the rate limits and of the connections)"
                    );
                }
                Ok(_) => {}
                Err(error) => tracing::error!(error = %error, "cannot count the app servers"),
            }
        });
        repeat(&db, now, EXPIRE_ANSWERS_EVERY, |db| async move {
            if !leading(&db).await {
                return;
            }
            match crate::app::idempotency::expire_all(&db).await {
                Ok(0) => {}
                Ok(removed) => tracing::info!(removed, "expired x-requestid answers removed"),
                Err(error) => tracing::error!(error = %error, "removing expired x-requestid answers failed"),
            }
        });
    }
    repeat(&db, now, RETENTION_EVERY, move |db| async move {
        if !leading(&db).await {
            return;
        }
        match prune_activity(&db, retention.activity_days).await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, days = retention.activity_days, "activity retention"),
            Err(error) => tracing::error!(error = %error, "activity retention failed"),
        }
        match empty_trash(&db, retention.trash_days).await {
            Ok((0, _)) => {}
            Ok((deleted, kept)) => tracing::info!(deleted, kept, days = retention.trash_days, "trash retention"),
            Err(error) => tracing::error!(error = %error, "trash retention failed"),
        }
        match forget_unused_codes(&db).await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, "unused redemption codes removed"),
            Err(error) => tracing::error!(error = %error, "removing unused redemption codes failed"),
        }
    });
    if let Some(backups) = backups {
        // The first copy one interval after the start: a server restarted in a loop does not
        // fill the folder with copies of the same data.
        repeat(&db, now + backups.every, backups.every, move |db| {
            let backups = backups.clone();
            async move { back_up(&db, &backups).await }
        });
    }
}

/// Runs `round` every `period` from `first`, each round after the previous one has finished (a
/// slow round delays the next rather than a burst following it); it ends with the runtime.
fn repeat<Round, Done>(db: &Db, first: Instant, period: Duration, mut round: Round)
where
    Round: FnMut(Db) -> Done + Send + 'static,
    Done: Future<Output = ()> + Send + 'static,
{
    let db = db.clone();
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval_at(first, period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            round(db.clone()).await;
        }
    });
}

/// Whether this server does the shared background work this round: on PostgreSQL, the one app
/// server holding the leader's lock (another takes it over when it goes); on SQLite, always.
async fn leading(db: &Db) -> bool {
    db.leads().await.unwrap_or_else(|error| {
        tracing::error!(error = %error, "cannot tell whether this server leads the background work");
        false
    })
}

/// Removes every activity entry older than `days`, step by step; returns how many went.
pub async fn prune_activity(db: &Db, days: u32) -> anyhow::Result<usize> {
    let mut removed = 0;
    loop {
        let step = db.write(move |conn| Ok(activity::prune(conn, days, STEP)?)).await?;
        removed += step;
        if step < STEP as usize {
            return Ok(removed);
        }
    }
}

/// Deletes the redemption codes never used that expired a while ago, step by step; how many went.
pub async fn forget_unused_codes(db: &Db) -> anyhow::Result<usize> {
    let mut removed = 0;
    loop {
        let now = time::OffsetDateTime::now_utc();
        let step = db.write(move |conn| crate::inbound::redemptions::forget_unused(conn, now, STEP)).await?;
        removed += step;
        if step < STEP as usize {
            return Ok(removed);
        }
    }
}

/// Deletes for good what has been in the trash longer than `days`, step by step; returns how many
/// records went and how many stayed because other records still refer to them.
pub async fn empty_trash(db: &Db, days: u32) -> anyhow::Result<(usize, usize)> {
    let cutoff = crate::db::format_iso(time::OffsetDateTime::now_utc() - time::Duration::days(i64::from(days)));
    let (mut deleted, mut kept, mut after) = (0, 0, 0);
    loop {
        let cutoff = cutoff.clone();
        let step = db.write(move |conn| trash::purge_expired(conn, &cutoff, after, TRASH_STEP)).await?;
        deleted += step.deleted;
        kept += step.kept;
        match step.last {
            Some(last) => after = last,
            None => return Ok((deleted, kept)),
        }
    }
}

/// Writes one checked copy and prunes the old ones. The outcome is logged and recorded in the
/// activity log, where Admins see it (Settings → Activity): a failure is never silent.
pub async fn back_up(db: &Db, backups: &Backups) {
    let (copying, settings) = (db.clone(), backups.clone());
    let outcome = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let (path, checked) = backup::write_checked(&copying, &settings.dir)?;
        let removed = backup::prune(&settings.dir, settings.keep)?;
        Ok((path, checked, removed))
    })
    .await
    .map_err(anyhow::Error::from)
    .and_then(|outcome| outcome);
    let (action, fields) = match outcome {
        Ok((path, checked, removed)) => {
            let file = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
            tracing::info!(file = %path.display(), bytes = checked.bytes, pruned = removed.len(), "backup written and checked");
            let fields = vec![
                ("file", serde_json::Value::from(file)),
                ("bytes", serde_json::Value::from(checked.bytes)),
                ("removed", serde_json::Value::from(removed.len())),
            ];
            (action::BACKUP_MADE, fields)
        }
        Err(error) => {
            tracing::error!(error = %format!("{error:#}"), dir = %backups.dir.display(), "backup failed");
            (action::BACKUP_FAILED, vec![("error", serde_json::Value::from(format!("{error:#}")))])
        }
    };
    let recorded = db
        .write(move |conn| {
            Ok(activity::record_event(conn, &Actor::system(), activity::BACKUP_RESOURCE, action, &fields)?)
        })
        .await;
    if let Err(error) = recorded {
        tracing::error!(error = %error, "cannot record the backup's outcome in the activity log");
    }
}
