//! Per-minute limits kept in each app server's memory. With several servers on one PostgreSQL
//! database, each enforces its share of a limit (the limit divided by the servers counted, at
//! least 1 a minute; `Db::servers`), so the cluster allows it once, not once per server. A
//! balancer that spreads a client's requests evenly gives it the whole limit; one that pins a
//! client to a server gives it that server's share. With one server (SQLite, or a cluster of
//! one) the share is the whole limit.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;

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
}
