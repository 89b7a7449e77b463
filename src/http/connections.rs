//! Who holds the server's connections, and which to let go when one client holds too many.
//!
//! The connection cap is shared by every client, so each client address gets a share of it: an
//! address that opens one more connection than its share sees its own idlest connection closed
//! (or, when all of its connections are busy, the new one refused); and when the connections
//! come near the cap, the idlest connection of the address that holds the most is closed for
//! each new one. A client that re-opens connections as they close therefore trims only its own,
//! and clients of other addresses are let in at once instead of waiting in the kernel's queue.
//!
//! Closing is hyper's graceful shutdown of that connection: an idle kept-alive connection (or one
//! that has not sent its request yet) closes at once, a busy one after its answer, so no request
//! is cut. The load balancers named by `--trusted-proxies` carry many clients on their
//! connections and have no share of their own.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::Notify;

/// The limits the registry keeps.
#[derive(Clone, Debug)]
pub struct Shares {
    /// Connections open at once, at most (the cap).
    pub cap: usize,
    /// Connections one client address may hold at once.
    pub per_address: usize,
    /// Addresses that hold no share (load balancers and proxies in front).
    pub exempt: Vec<IpAddr>,
}

impl Shares {
    /// From this many open connections on, each new one closes the idlest connection of the
    /// address that holds the most: near the cap, not at it, so new clients never wait.
    fn near_cap(&self) -> usize {
        self.cap - (self.cap / 10).clamp(1, 256).min(self.cap - 1)
    }
}

/// One open connection as the registry sees it.
pub struct Tracked {
    id: u64,
    /// When the registry began: `last_active` counts from it.
    began: Instant,
    /// Requests being answered on it now.
    busy: AtomicUsize,
    /// When it last began or ended a request (milliseconds since the registry began).
    last_active: AtomicU64,
    /// Asks the connection's task to shut it down gracefully.
    close: Notify,
    /// It was asked to close: it no longer counts toward its address's share, and is not chosen
    /// again (its place is freed once it has closed).
    leaving: AtomicBool,
}

impl Tracked {
    /// A request begins on this connection.
    pub fn begin(&self) {
        self.busy.fetch_add(1, Ordering::Relaxed);
        self.touch();
    }

    /// A request on this connection has its answer.
    pub fn end(&self) {
        self.busy.fetch_sub(1, Ordering::Relaxed);
        self.touch();
    }

    /// Resolves when the registry asks this connection to close.
    pub async fn closing(&self) {
        self.close.notified().await;
    }

    fn touch(&self) {
        self.last_active.store(self.began.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn is_idle(&self) -> bool {
        self.busy.load(Ordering::Relaxed) == 0
    }

    fn is_leaving(&self) -> bool {
        self.leaving.load(Ordering::Relaxed)
    }

    fn ask_to_close(&self) {
        self.leaving.store(true, Ordering::Relaxed);
        self.close.notify_one();
    }
}

/// A connection's place among the open ones: dropped when the connection ends, which frees it.
/// (The place, not the connection's handles, frees it: the registry looks at connections while it
/// holds its lock, and a handle let go there must not come back to the lock.)
pub struct Place {
    tracked: Arc<Tracked>,
    address: IpAddr,
    registry: Arc<Registry>,
}

impl Place {
    pub fn connection(&self) -> &Arc<Tracked> {
        &self.tracked
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.registry.forget(self.address, self.tracked.id);
    }
}

/// What the registry says of a new connection.
pub enum Admission {
    /// Serve it; dropping the place (when the connection ends) frees it.
    Admitted(Place),
    /// Close it at once: its address holds its share and all of it is busy, or the cap and its
    /// margin are full of busy connections.
    Refused,
}

/// Every open connection by client address.
pub struct Registry {
    shares: Shares,
    began: Instant,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    by_address: HashMap<IpAddr, Vec<Arc<Tracked>>>,
    total: usize,
    next_id: u64,
}

/// Busy connections may keep the server this far above its cap while the ones asked to close
/// finish their answers (the open-file limit keeps descriptors spare for more).
const OVER_CAP: usize = 64;

impl Registry {
    pub fn new(shares: Shares) -> Arc<Registry> {
        Arc::new(Registry { shares, began: Instant::now(), open: Mutex::new(Open::default()) })
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Admits a connection from `address`, asking others to close when its address is over its
    /// share or the server is near its cap.
    pub fn admit(self: &Arc<Registry>, address: IpAddr) -> Admission {
        let mut open = self.lock();
        let exempt = self.shares.exempt.contains(&address);
        let held = open.by_address.get(&address).map_or(0, |held| staying(held));
        if !exempt && held >= self.shares.per_address {
            // Its own idlest goes, or the new one is refused: one address never takes more.
            match idlest(open.by_address.get(&address), true) {
                Some(own) => own.ask_to_close(),
                None => return Admission::Refused,
            }
        } else if open.total >= self.shares.near_cap() {
            self.close_the_heaviests_idlest(&open, held + 1);
        }
        // The ones asked to close still hold their descriptors until they have: never more
        // than this many at once, however fast connections arrive.
        if open.total >= self.shares.cap + OVER_CAP {
            return Admission::Refused;
        }
        open.next_id += 1;
        open.total += 1;
        let tracked = Arc::new(Tracked {
            id: open.next_id,
            began: self.began,
            busy: AtomicUsize::new(0),
            last_active: AtomicU64::new(self.began.elapsed().as_millis() as u64),
            close: Notify::new(),
            leaving: AtomicBool::new(false),
        });
        open.by_address.entry(address).or_default().push(tracked.clone());
        Admission::Admitted(Place { tracked, address, registry: self.clone() })
    }

    /// Asks the idlest connection of the address that holds the most (a busy one when none is
    /// idle) to close: the process is out of descriptors, or a new client needs the place.
    pub fn make_room(&self) {
        self.close_the_heaviests_idlest(&self.lock(), 1);
    }

    /// Closes the idlest connection of the address holding the most, if it holds more than
    /// `beyond` (the newcomer's address would hold that many): a client with one connection, or as
    /// many as the newcomer's, gives nothing up for it.
    fn close_the_heaviests_idlest(&self, open: &Open, beyond: usize) {
        let heaviest = open
            .by_address
            .iter()
            .filter(|(holder, _)| !self.shares.exempt.contains(holder))
            .map(|(_, held)| (staying(held), held))
            .max_by_key(|(staying, _)| *staying)
            .filter(|(staying, _)| *staying > beyond)
            .map(|(_, held)| held);
        if let Some(connection) = idlest(heaviest, true).or_else(|| idlest(heaviest, false)) {
            connection.ask_to_close();
        }
    }

    fn forget(&self, address: IpAddr, id: u64) {
        let mut open = self.lock();
        let Open { by_address, total, .. } = &mut *open;
        if let Some(held) = by_address.get_mut(&address) {
            let before = held.len();
            held.retain(|connection| connection.id != id);
            *total -= before - held.len();
            if held.is_empty() {
                by_address.remove(&address);
            }
        }
    }

    /// Connections open now, and the most one address holds (for the tests and the log).
    pub fn counts(&self) -> (usize, usize) {
        let open = self.lock();
        (open.total, open.by_address.values().map(|held| staying(held)).max().unwrap_or(0))
    }
}

/// How many of `held` were not asked to close.
fn staying(held: &[Arc<Tracked>]) -> usize {
    held.iter().filter(|connection| !connection.is_leaving()).count()
}

/// The least recently active connection among `held` not yet asked to close (only idle ones when
/// `idle_only`).
fn idlest(held: Option<&Vec<Arc<Tracked>>>, idle_only: bool) -> Option<Arc<Tracked>> {
    held?
        .iter()
        .filter(|connection| !connection.is_leaving() && (!idle_only || connection.is_idle()))
        .min_by_key(|connection| connection.last_active.load(Ordering::Relaxed))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(cap: usize, per_address: usize) -> Arc<Registry> {
        Registry::new(Shares { cap, per_address, exempt: vec!["10.0.0.1".parse().unwrap()] })
    }

    fn admitted(admission: Admission) -> Place {
        match admission {
            Admission::Admitted(place) => place,
            Admission::Refused => panic!("refused"),
        }
    }

    fn asked_to_close(place: &Place) -> bool {
        let notified = place.connection().close.notified();
        tokio::pin!(notified);
        // A stored permit completes the first poll at once.
        notified.as_mut().enable()
    }

    #[test]
    fn an_address_over_its_share_loses_its_own_idlest_connection() {
        let registry = registry(100, 3);
        let hog: IpAddr = "192.0.2.1".parse().unwrap();
        let held: Vec<_> = (0..3).map(|_| admitted(registry.admit(hog))).collect();
        held[1].connection().begin();
        held[1].connection().end();
        held[2].connection().begin();
        let fourth = admitted(registry.admit(hog));
        assert!(asked_to_close(&held[0]), "the least recently active idle one");
        assert!(!asked_to_close(&held[1]) && !asked_to_close(&held[2]) && !asked_to_close(&fourth));
        assert_eq!(registry.counts(), (4, 3), "the one asked to close no longer counts toward the share");
        let fifth = admitted(registry.admit(hog));
        assert!(asked_to_close(&held[1]), "the next idlest goes next, not the one already leaving");
        drop((held, fifth));
        assert_eq!(registry.counts(), (1, 1));
    }

    #[test]
    fn an_address_whose_share_is_all_busy_is_refused_a_new_connection() {
        let registry = registry(100, 2);
        let hog: IpAddr = "192.0.2.1".parse().unwrap();
        let held: Vec<_> = (0..2).map(|_| admitted(registry.admit(hog))).collect();
        held.iter().for_each(|place| place.connection().begin());
        assert!(matches!(registry.admit(hog), Admission::Refused));
        let other = admitted(registry.admit("192.0.2.2".parse().unwrap()));
        assert!(!asked_to_close(&other));
    }

    #[test]
    fn near_the_cap_the_address_holding_the_most_gives_way_to_new_clients() {
        let registry = registry(10, 10);
        let hog: IpAddr = "192.0.2.1".parse().unwrap();
        let held: Vec<_> = (0..8).map(|_| admitted(registry.admit(hog))).collect();
        let light = admitted(registry.admit("192.0.2.2".parse().unwrap()));
        assert!(!held.iter().any(asked_to_close), "below the mark nothing closes");
        let newcomer = admitted(registry.admit("192.0.2.3".parse().unwrap()));
        assert_eq!(held.iter().filter(|place| asked_to_close(place)).count(), 1, "the hog gives one");
        assert!(!asked_to_close(&light) && !asked_to_close(&newcomer));
    }

    #[test]
    fn the_balancers_in_front_hold_no_share() {
        let registry = registry(100, 2);
        let balancer: IpAddr = "10.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..5).map(|_| admitted(registry.admit(balancer))).collect();
        assert!(!held.iter().any(asked_to_close));
    }
}
