//! Per-minute limits kept in each app server's memory. With several servers on one PostgreSQL
//! database, each enforces its share of a limit (the limit divided by the servers counted, at
//! least 1 a minute; `Db::servers`), so the cluster allows it once, not once per server. A
//! balancer that spreads a client's requests evenly gives it the whole limit; one that pins a
//! client to a server gives it that server's share. With one server (SQLite, or a cluster of
//! one) the share is the whole limit.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::db::lock;

/// Addresses remembered before the ones whose quota is whole again are forgotten: bounds the
/// memory that many addresses can make the limiter hold.
const FORGET_AFTER: usize = 100_000;

/// One server's share of `per_minute` among `servers`.
pub fn share(per_minute: u32, servers: usize) -> u32 {
    let servers = u32::try_from(servers.max(1)).unwrap_or(u32::MAX);
    (per_minute / servers).max(1)
}

/// A per-address limit (sign-in attempts, applications).
pub struct AddressLimit {
    per_minute: u32,
    /// The share it is kept at, and the limiter keeping it (made anew when the share changes).
    current: Mutex<(u32, DefaultKeyedRateLimiter<IpAddr>)>,
}

impl AddressLimit {
    pub fn new(per_minute: u32) -> AddressLimit {
        AddressLimit { per_minute, current: Mutex::new((per_minute, keyed(per_minute))) }
    }

    /// `Err(time to wait)` when `ip` is over this server's share among `servers`.
    pub fn check(&self, ip: IpAddr, servers: usize) -> Result<(), std::time::Duration> {
        let share = share(self.per_minute, servers);
        let mut current = lock(&self.current);
        if current.0 != share {
            *current = (share, keyed(share));
        }
        if current.1.len() > FORGET_AFTER {
            current.1.retain_recent();
        }
        current.1.check_key(&ip).map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }
}

/// Misses counted per key in a sliding minute (wrong redemption codes per partner key): a key
/// that missed its share of `per_minute` within the last minute is refused, any request, until
/// its oldest miss is a minute old. Unlike [`AddressLimit`], only what went wrong counts, and
/// being refused costs nothing more. Each key keeps at most its share of moments, and keys whose
/// misses are all older than a minute are forgotten once [`FORGET_AFTER`] keys are held.
pub struct MissLimit {
    per_minute: u32,
    misses: Mutex<HashMap<i64, VecDeque<Instant>>>,
}

const MINUTE: Duration = Duration::from_secs(60);

impl MissLimit {
    pub fn new(per_minute: u32) -> MissLimit {
        MissLimit { per_minute, misses: Mutex::new(HashMap::new()) }
    }

    /// `Err(time to wait)` while `key` has missed this server's share among `servers` in the last
    /// minute.
    pub fn check(&self, key: i64, servers: usize) -> Result<(), Duration> {
        let share = share(self.per_minute, servers) as usize;
        let now = Instant::now();
        let mut misses = lock(&self.misses);
        let Some(moments) = misses.get_mut(&key) else { return Ok(()) };
        while moments.front().is_some_and(|at| now.duration_since(*at) >= MINUTE) {
            moments.pop_front();
        }
        match moments.len().checked_sub(share).and_then(|over| moments.get(over)) {
            Some(oldest) => Err(MINUTE.saturating_sub(now.duration_since(*oldest))),
            None => Ok(()),
        }
    }

    /// Counts a miss of `key` now.
    pub fn miss(&self, key: i64, servers: usize) {
        let share = share(self.per_minute, servers) as usize;
        let now = Instant::now();
        let mut misses = lock(&self.misses);
        if misses.len() > FORGET_AFTER {
            misses.retain(|_, moments| moments.back().is_some_and(|at| now.duration_since(*at) < MINUTE));
        }
        let moments = misses.entry(key).or_default();
        moments.push_back(now);
        while moments.len() > share {
            moments.pop_front();
        }
    }
}

fn keyed(per_minute: u32) -> DefaultKeyedRateLimiter<IpAddr> {
    RateLimiter::keyed(Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_server_keeps_its_share_and_one_server_the_whole_limit() {
        assert_eq!(share(600, 1), 600);
        assert_eq!(share(600, 3), 200);
        assert_eq!(share(10, 4), 2);
        assert_eq!(share(1, 4), 1, "at least one a minute");
        assert_eq!(share(10, 0), 10, "no count yet is one server");
    }

    #[test]
    fn an_address_is_refused_past_its_share_and_another_is_not() {
        let limit = AddressLimit::new(10);
        let (one, other): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let allowed = (0..10).filter(|_| limit.check(one, 2).is_ok()).count();
        assert_eq!(allowed, 5, "half of ten with two servers");
        assert!(limit.check(other, 2).is_ok());
        // Counted as one server again: the whole limit, from a fresh start.
        assert_eq!((0..12).filter(|_| limit.check(one, 1).is_ok()).count(), 10);
    }

    #[test]
    fn a_key_is_refused_after_its_misses_and_another_is_not() {
        let limit = MissLimit::new(3);
        for _ in 0..3 {
            assert!(limit.check(7, 1).is_ok());
            limit.miss(7, 1);
        }
        let wait = limit.check(7, 1).expect_err("three misses a minute");
        assert!(wait > Duration::from_secs(58) && wait <= MINUTE, "{wait:?}");
        assert!(limit.check(8, 1).is_ok());
        // More misses keep no more than the share.
        limit.miss(7, 1);
        assert_eq!(lock(&limit.misses)[&7].len(), 3);
    }
}
