//! How many of its pool's connections a server's requests use at once: a fixed number on SQLite;
//! on PostgreSQL this server's share of one budget for every app server on the database.
//!
//! Why a share: PostgreSQL runs one process per connection, so connections that are all busy at
//! once contend for the database server's cores and for the same rows, and each waits longer.
//! Measured (docs/performance.md, "Connections per app server and the cluster's latency tail"),
//! two app servers' p99 followed the connections of both together, not of each, while the write
//! rate stayed within noise: a second server with a pool as large as the first's only doubled the
//! queue inside PostgreSQL. So the servers share one budget, each taking `budget / servers` (at
//! least [`FEWEST`]) as they are counted (`Cluster::count_servers`), and a request waits for its
//! turn here, in order, rather than inside the database.

use std::sync::Arc;

use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore, SemaphorePermit};

use crate::core::error::AppResult;

/// The fewest turns a server keeps, whatever the count: one writer and one reader.
pub const FEWEST: usize = 2;

pub struct Turns {
    semaphore: Arc<Semaphore>,
    plan: Mutex<Plan>,
}

struct Plan {
    /// What every server together may use (on SQLite, the one server's own).
    budget: usize,
    servers: usize,
    /// The permits the semaphore now holds in all, handed out or not.
    granted: usize,
    /// The most any share may be: the pool's size.
    ceiling: usize,
}

impl Turns {
    /// `budget` turns for the servers, of a pool of `ceiling` connections; one server counted.
    pub fn new(budget: usize, ceiling: usize) -> Turns {
        let granted = share(budget, 1, ceiling);
        Turns {
            semaphore: Arc::new(Semaphore::new(granted)),
            plan: Mutex::new(Plan { budget, servers: 1, granted, ceiling }),
        }
    }

    /// Waits for a turn, first come, first served; it is given back when the permit is dropped.
    #[inline]
    pub async fn take(&self) -> AppResult<SemaphorePermit<'_>> {
        Ok(self.semaphore.acquire().await.map_err(|_| closing())?)
    }

    /// [`Turns::take`], for a turn held across tasks.
    #[inline]
    pub async fn take_owned(&self) -> AppResult<OwnedSemaphorePermit> {
        Ok(self.semaphore.clone().acquire_owned().await.map_err(|_| closing())?)
    }

    /// This server's turns now.
    pub async fn share(&self) -> usize {
        self.plan.lock().await.granted
    }

    /// Shares `budget` among the servers last counted.
    pub async fn set_budget(&self, budget: usize) -> AppResult<usize> {
        let mut plan = self.plan.lock().await;
        plan.budget = budget;
        self.apply(&mut plan).await
    }

    /// Takes this server's share of the budget among `servers`.
    pub async fn set_servers(&self, servers: usize) -> AppResult<usize> {
        let mut plan = self.plan.lock().await;
        plan.servers = servers;
        self.apply(&mut plan).await
    }

    /// Grows or shrinks the semaphore to the plan's share. Shrinking waits for turns in use to be
    /// given back: the semaphore is fair, so the requests that arrive meanwhile queue behind it.
    async fn apply(&self, plan: &mut Plan) -> AppResult<usize> {
        let wanted = share(plan.budget, plan.servers, plan.ceiling);
        if wanted > plan.granted {
            self.semaphore.add_permits(wanted - plan.granted);
        } else if wanted < plan.granted {
            let surplus = u32::try_from(plan.granted - wanted).unwrap_or(u32::MAX);
            self.semaphore.acquire_many(surplus).await.map_err(|_| closing())?.forget();
        }
        plan.granted = wanted;
        Ok(wanted)
    }
}

fn closing() -> anyhow::Error {
    anyhow::anyhow!("the database is closing")
}

/// One server's turns: its part of the budget, at least [`FEWEST`], at most the pool's size.
fn share(budget: usize, servers: usize, ceiling: usize) -> usize {
    (budget / servers.max(1)).clamp(FEWEST, ceiling.max(FEWEST))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_server_takes_its_part_within_the_pool() {
        assert_eq!(share(16, 1, 64), 16);
        assert_eq!(share(16, 2, 64), 8);
        assert_eq!(share(16, 4, 64), 4);
        assert_eq!(share(16, 3, 64), 5);
        assert_eq!(share(16, 100, 64), FEWEST);
        assert_eq!(share(500, 1, 64), 64);
        assert_eq!(share(16, 0, 64), 16);
    }

    #[tokio::test]
    async fn the_semaphore_follows_the_count_and_waits_for_turns_in_use() {
        let turns = Turns::new(16, 64);
        let semaphore = turns.semaphore.clone();
        assert_eq!(semaphore.available_permits(), 16);
        assert_eq!(turns.set_servers(2).await.unwrap(), 8);
        assert_eq!(semaphore.available_permits(), 8);

        // Six in use: shrinking to four waits until two of them are given back.
        let held = semaphore.clone().acquire_many_owned(6).await.unwrap();
        let shrinking = tokio::spawn(async move {
            let result = turns.set_servers(4).await;
            (turns, result)
        });
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(!shrinking.is_finished(), "the shrink waits for turns in use");
        assert!(semaphore.clone().try_acquire_owned().is_err(), "a new request queues behind the shrink");
        drop(held);
        let (turns, result) = shrinking.await.unwrap();
        assert_eq!(result.unwrap(), 4);
        assert_eq!(semaphore.available_permits(), 4);

        assert_eq!(turns.set_servers(1).await.unwrap(), 16);
        assert_eq!(semaphore.available_permits(), 16);
        assert_eq!(turns.set_budget(6).await.unwrap(), 6);
        assert_eq!(semaphore.available_permits(), 6);
        assert_eq!(turns.share().await, 6);
    }
}
