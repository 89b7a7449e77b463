//! The server's own recurring work: the activity log's retention (and, as they come, the trash's
//! and the scheduled backups). It runs beside the requests, each step a write in its turn among
//! the writers, so it never holds them for long.

use std::time::Duration;

use crate::db::{Db, activity};

/// How often retention looks for expired entries.
const EVERY: Duration = Duration::from_secs(3600);
/// Entries deleted per write: a long-untended log is pruned in steps, between other writers.
const STEP: u32 = 5_000;

#[derive(Clone, Copy, Debug)]
pub struct Retention {
    /// Activity entries older than this are removed.
    pub activity_days: u32,
}

/// Starts the recurring work; it ends with the runtime.
pub fn spawn(db: Db, retention: Retention) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(EVERY);
        loop {
            ticks.tick().await;
            match prune_activity(&db, retention.activity_days).await {
                Ok(0) => {}
                Ok(removed) => tracing::info!(removed, days = retention.activity_days, "activity retention"),
                Err(error) => tracing::error!(error = %error, "activity retention failed"),
            }
        }
    });
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
