//! The door of `serve-ssh` (its admission control): how many connections that have not
//! signed in are let in, in all and from one address, and which one goes when there are
//! too many.
//!
//! The rule follows OpenSSH's `MaxStartups start:rate:full` (sshd_config(5); `drop_connection`
//! in OpenSSH's `sshd.c`): with `n` connections not signed in, a new one is let in below
//! `start`; from `start` to `full` someone must go with probability `rate` % at `start`,
//! rising linearly to 100 % at `full` ("random early drop"). OpenSSH then refuses the new
//! connection. Here a connection that has not got as far goes first: the oldest *silent*
//! one (no SSH identification line yet), else the oldest still in the key exchange (it
//! sent its line, [`Ticket::spoke`], and has not yet asked to sign in,
//! [`Pass::at_sign_in`]). So a flood of connections that never speak, or that speak and
//! stall, cannot keep out a moderator whose client gets through the key exchange in a
//! fraction of a second (the flood would have to open `full` new connections within that
//! time); only when every waiting connection has reached the sign-in is the new one
//! refused, as OpenSSH does. The same holds per address (`--max-startups-per-address`,
//! OpenSSH's `PerSourceMaxStartups`): at the limit, that address's oldest connection not
//! yet at the sign-in goes, or the new one is refused.
//!
//! A connection leaves the door when it signs in ([`Pass::signed_in`]: from then on no limit
//! of this module applies to it) or ends ([`Ticket`] dropped). Signed-in connections are
//! never counted here.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

/// `--max-startups START:RATE:FULL`: connections not signed in before random early drop
/// starts (`start`), the drop's probability there in percent (`rate`), and the number at
/// which every new one makes someone go (`full`). Default `10:30:100`, OpenSSH's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Startups {
    /// Below this many connections not signed in, a new one is let in [10].
    pub start: usize,
    /// The probability, in percent (1 to 100), that someone must go at `start` [30].
    pub rate: u32,
    /// At this many, someone always goes [100].
    pub full: usize,
}

impl Default for Startups {
    fn default() -> Startups {
        Startups {
            start: 10,
            rate: 30,
            full: 100,
        }
    }
}

impl std::str::FromStr for Startups {
    type Err = String;

    /// `START:RATE:FULL` (`10:30:100`), or one number `N` (`N:100:N`, as OpenSSH reads it).
    ///
    /// Errors: not whole numbers, `start` of 0, `start` above `full`, `rate` outside 1 to
    /// 100, as a message.
    fn from_str(text: &str) -> Result<Startups, String> {
        let parts: Vec<&str> = text.trim().split(':').collect();
        let num = |v: &str| -> Result<usize, String> {
            v.trim()
                .parse::<usize>()
                .map_err(|_| format!("{v:?} in {text:?} is not a whole number"))
        };
        let s = match parts.as_slice() {
            [n] => {
                let n = num(n)?;
                Startups {
                    start: n,
                    rate: 100,
                    full: n,
                }
            }
            [start, rate, full] => Startups {
                start: num(start)?,
                rate: u32::try_from(num(rate)?).unwrap_or(u32::MAX),
                full: num(full)?,
            },
            _ => return Err(format!("{text:?} is not START:RATE:FULL (10:30:100)")),
        };
        if s.start == 0 || s.start > s.full {
            return Err(format!(
                "{text:?}: START must be 1 or more and at most FULL"
            ));
        }
        if !(1..=100).contains(&s.rate) {
            return Err(format!("{text:?}: RATE is a percentage from 1 to 100"));
        }
        Ok(s)
    }
}

impl std::fmt::Display for Startups {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.start, self.rate, self.full)
    }
}

impl Startups {
    /// The probability, in percent, that someone must go when `n` connections wait
    /// (OpenSSH's integer arithmetic): 0 below `start`, 100 from `full`.
    pub fn drop_percent(&self, n: usize) -> u32 {
        if n < self.start {
            return 0;
        }
        if n >= self.full {
            return 100;
        }
        let span = (self.full - self.start) as u64;
        let over = (n - self.start) as u64;
        let p = u64::from(100 - self.rate) * over / span + u64::from(self.rate);
        u32::try_from(p.min(100)).unwrap_or(100)
    }
}

/// What the door has done since the server started, and what waits now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DoorCounts {
    /// Connections not signed in now.
    pub waiting: usize,
    /// Of those, the ones that have not sent their SSH identification line.
    pub silent: usize,
    /// Of those, the ones that sent it and have not yet asked to sign in (in the key
    /// exchange).
    pub in_kex: usize,
    /// Connections let in.
    pub admitted: u64,
    /// New connections refused: their address had `--max-startups-per-address` waiting,
    /// all of them at the sign-in.
    pub refused_per_address: u64,
    /// New connections refused by `--max-startups`, every waiting one at the sign-in.
    pub refused_startups: u64,
    /// Silent connections closed to make room for a new one.
    pub cut_silent: u64,
    /// Connections closed in the key exchange to make room for a new one (no silent one
    /// was left to close).
    pub cut_in_kex: u64,
    /// Connections closed for sending no identification line within `--banner-timeout`.
    pub banner_late: u64,
    /// Connections closed for not signing in within `--auth-timeout`.
    pub sign_in_late: u64,
    /// Connections that signed in (and left the door).
    pub signed_in: u64,
}

/// Why a new connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Its address had its limit waiting, all of them at the sign-in.
    PerAddress,
    /// `--max-startups` made someone go, and every waiting connection was at the sign-in.
    Startups,
}

/// The door: its limits, and every connection not yet signed in.
#[derive(Debug)]
pub struct Door {
    startups: Startups,
    per_address: usize,
    graces: Graces,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    next: u64,
    /// The connections not signed in, oldest first (ids grow).
    open: BTreeMap<u64, Entry>,
    per_address: HashMap<IpAddr, usize>,
    rng: fastrand::Rng,
    counts: DoorCounts,
    /// When refusals were last logged, and the counts then.
    said: Option<(Instant, DoorCounts)>,
}

#[derive(Debug)]
struct Entry {
    addr: IpAddr,
    stage: Stage,
    /// When it reached its stage (a connection is cut only once it has been there for the
    /// door's grace of that stage).
    since: Instant,
    /// Closes the connection (its task selects on the receiver); dropped at the sign-in.
    cut: Option<oneshot::Sender<()>>,
}

/// How far a connection not signed in has got; the ones cut to make room go earliest stage
/// first, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// No SSH identification line yet.
    Silent,
    /// It sent its line; the key exchange is not over.
    Kex,
    /// It asked to sign in (the key exchange is over): never cut, only refused.
    SignIn,
}

/// How long a connection is left in a stage before the door may cut it to make room: a
/// client that is getting on (its identification line on its way, its key exchange under
/// way) is never cut by a flood of others; one that stalls there is. Zero: at once (the
/// rule of OpenSSH's `MaxStartups`, where the door's logic is tried without a clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Graces {
    /// Silent (no identification line read yet) this long.
    pub silent: Duration,
    /// In the key exchange this long.
    pub kex: Duration,
}

impl Graces {
    /// The server's: 250 ms silent (a client sends its line at once; the server reads it
    /// within milliseconds of the connection's turn), 1.5 s in the key exchange (a phone on
    /// a slow link needs about a second).
    pub const SERVER: Graces = Graces {
        silent: Duration::from_millis(250),
        kex: Duration::from_millis(1500),
    };
}

/// How often, at most, the log says that connections were refused or cut.
const SAY_EVERY: Duration = Duration::from_secs(10);

impl Door {
    /// A door with `startups` and at most `per_address` (1 or more) waiting connections
    /// from one address; `seed` makes its random early drop repeatable (tests), `None`
    /// seeds it from the system.
    pub fn new(startups: Startups, per_address: usize, seed: Option<u64>) -> Arc<Door> {
        Door::with_graces(startups, per_address, seed, Graces::default())
    }

    /// As [`Door::new`], a connection cut only after `graces` in its stage.
    pub fn with_graces(
        startups: Startups,
        per_address: usize,
        seed: Option<u64>,
        graces: Graces,
    ) -> Arc<Door> {
        Arc::new(Door {
            startups,
            per_address: per_address.max(1),
            graces,
            state: Mutex::new(State {
                next: 0,
                open: BTreeMap::new(),
                per_address: HashMap::new(),
                rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
                counts: DoorCounts::default(),
                said: None,
            }),
        })
    }

    /// What the door has done, and what waits now.
    pub fn counts(&self) -> DoorCounts {
        self.state.lock().map(|s| s.counts).unwrap_or_default()
    }

    /// A new connection from `addr` (an IPv4-mapped IPv6 address counts as IPv4): let in,
    /// with a [`Ticket`] it holds until it ends, after the oldest silent connection of its
    /// address, or of all, was cut when the limits call for it.
    ///
    /// Errors: [`Refused`] when the limits call for someone to go and no waiting
    /// connection of the kind is silent.
    pub fn knock(self: &Arc<Door>, addr: IpAddr) -> Result<Ticket, Refused> {
        self.knock_counted(addr, true)
    }

    /// [`Door::knock`] of a connection refused before that knocks again: a refusal now is
    /// not counted again.
    ///
    /// Errors: as [`Door::knock`].
    pub fn knock_again(self: &Arc<Door>, addr: IpAddr) -> Result<Ticket, Refused> {
        self.knock_counted(addr, false)
    }

    fn knock_counted(self: &Arc<Door>, addr: IpAddr, first: bool) -> Result<Ticket, Refused> {
        let addr = addr.to_canonical();
        let Ok(mut st) = self.state.lock() else {
            return Err(Refused::Startups);
        };
        let result = self.knock_locked(&mut st, addr, first);
        recount(&mut st);
        say(&mut st);
        result
    }

    /// A knock under the lock; a refusal is counted when `count` (a first knock).
    fn knock_locked(
        self: &Arc<Door>,
        st: &mut State,
        addr: IpAddr,
        count: bool,
    ) -> Result<Ticket, Refused> {
        let from_addr = st.per_address.get(&addr).copied().unwrap_or(0);
        let graces = self.graces;
        let cut = |st: &mut State, of| cut_oldest(st, of, graces);
        if from_addr >= self.per_address && !cut(st, Some(addr)) {
            st.counts.refused_per_address += u64::from(count);
            return Err(Refused::PerAddress);
        }
        let p = self.startups.drop_percent(st.open.len());
        if p > 0 && st.rng.u32(0..100) < p && !cut(st, None) {
            st.counts.refused_startups += u64::from(count);
            return Err(Refused::Startups);
        }
        let id = st.next;
        st.next += 1;
        let (tx, rx) = oneshot::channel();
        st.open.insert(
            id,
            Entry {
                addr,
                stage: Stage::Silent,
                since: Instant::now(),
                cut: Some(tx),
            },
        );
        *st.per_address.entry(addr).or_insert(0) += 1;
        st.counts.admitted += 1;
        Ok(Ticket {
            pass: Pass {
                door: self.clone(),
                id,
            },
            cut: Some(rx),
        })
    }

    fn with_state(&self, f: impl FnOnce(&mut State)) {
        if let Ok(mut st) = self.state.lock() {
            f(&mut st);
            recount(&mut st);
        }
    }

    /// Moves the connection `id` to `stage`; at the sign-in it can no longer be cut.
    fn set_stage(&self, id: u64, stage: Stage) {
        self.with_state(|st| {
            if let Some(e) = st.open.get_mut(&id) {
                e.stage = stage;
                e.since = Instant::now();
                if stage == Stage::SignIn {
                    e.cut = None;
                }
            }
        });
    }
}

/// The counts of what waits now.
fn recount(st: &mut State) {
    st.counts.waiting = st.open.len();
    let at = |stage: Stage| st.open.values().filter(|e| e.stage == stage).count();
    let (silent, in_kex) = (at(Stage::Silent), at(Stage::Kex));
    st.counts.silent = silent;
    st.counts.in_kex = in_kex;
}

/// Removes the entry `id` (no-op when it left already).
fn leave(st: &mut State, id: u64) -> bool {
    let Some(e) = st.open.remove(&id) else {
        return false;
    };
    if let Some(n) = st.per_address.get_mut(&e.addr) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            st.per_address.remove(&e.addr);
        }
    }
    true
}

/// Cuts the oldest silent connection (of `addr`, or of any address), else the oldest still
/// in the key exchange, each only once it has been in that stage for its grace: true when
/// there was one.
fn cut_oldest(st: &mut State, addr: Option<IpAddr>, graces: Graces) -> bool {
    let now = Instant::now();
    for (stage, grace) in [(Stage::Silent, graces.silent), (Stage::Kex, graces.kex)] {
        let found = st
            .open
            .iter()
            .find(|(_, e)| {
                e.stage == stage
                    && addr.is_none_or(|a| e.addr == a)
                    && now.duration_since(e.since) >= grace
            })
            .map(|(id, _)| *id);
        let Some(id) = found else {
            continue;
        };
        if let Some(tx) = st.open.get_mut(&id).and_then(|e| e.cut.take()) {
            let _ = tx.send(());
        }
        leave(st, id);
        match stage {
            Stage::Silent => st.counts.cut_silent += 1,
            // A connection signing in is never cut: the loop above looks for the other two.
            Stage::Kex | Stage::SignIn => st.counts.cut_in_kex += 1,
        }
        return true;
    }
    false
}

/// Logs, at most every [`SAY_EVERY`] and as a new connection comes, how many
/// connections were refused or cut since it last did, and how many of those that did
/// not sign in ran out of time (one line, not one per connection: a flood must not fill
/// the log).
fn say(st: &mut State) {
    let c = st.counts;
    let before = st.said.map(|(_, c)| c).unwrap_or_default();
    let refused = (c.refused_per_address + c.refused_startups)
        - (before.refused_per_address + before.refused_startups);
    let cut = (c.cut_silent + c.cut_in_kex) - (before.cut_silent + before.cut_in_kex);
    let late = (c.banner_late + c.sign_in_late) - (before.banner_late + before.sign_in_late);
    if refused + cut == 0 {
        return;
    }
    if st.said.is_some_and(|(at, _)| at.elapsed() < SAY_EVERY) {
        return;
    }
    tracing::warn!(
        refused,
        cut,
        late,
        waiting = c.waiting,
        silent = c.silent,
        in_kex = c.in_kex,
        "connections not signed in over the limits (--max-startups, --max-startups-per-address): new ones refused, or the oldest not yet at the sign-in cut"
    );
    st.said = Some((Instant::now(), c));
}

/// A connection's place at the door, held by its task until it ends (dropped: it leaves).
#[derive(Debug)]
pub struct Ticket {
    pass: Pass,
    cut: Option<oneshot::Receiver<()>>,
}

impl Ticket {
    /// What the connection's handler keeps to leave the door when it signs in.
    pub fn pass(&self) -> Pass {
        self.pass.clone()
    }

    /// The connection sent its SSH identification line: it is no longer silent (it is
    /// cut after every silent one, while in the key exchange).
    pub fn spoke(&self) {
        self.pass.door.set_stage(self.pass.id, Stage::Kex);
    }

    /// It sent no identification line within `--banner-timeout` (counted).
    pub fn banner_late(&self) {
        self.pass.door.with_state(|st| st.counts.banner_late += 1);
    }

    /// It did not sign in within `--auth-timeout` (counted).
    pub fn sign_in_late(&self) {
        self.pass.door.with_state(|st| st.counts.sign_in_late += 1);
    }

    /// Resolves when the door cuts this connection to make room for a new one; never once
    /// it is at the sign-in ([`Pass::at_sign_in`]).
    pub async fn cut(&mut self) {
        if let Some(rx) = self.cut.as_mut() {
            let got = rx.await;
            self.cut = None;
            if got.is_ok() {
                return;
            }
            // An error: it is at the sign-in (or left), and is never cut.
        }
        std::future::pending::<()>().await
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let id = self.pass.id;
        self.pass.door.with_state(|st| {
            leave(st, id);
        });
    }
}

/// A connection's handle on the door, for its handler: [`Pass::at_sign_in`],
/// [`Pass::signed_in`].
#[derive(Debug, Clone)]
pub struct Pass {
    door: Arc<Door>,
    id: u64,
}

impl Pass {
    /// The key exchange is over and the connection asks to sign in (russh asks the handler
    /// for its authentication banner): from now on it is never cut, only counted until it
    /// signs in or `--auth-timeout` ends it.
    pub fn at_sign_in(&self) {
        self.door.set_stage(self.id, Stage::SignIn);
    }

    /// The connection signed in: it leaves the door, and no limit of the door applies to it
    /// any more.
    pub fn signed_in(&self) {
        let id = self.id;
        self.door.with_state(|st| {
            if leave(st, id) {
                st.counts.signed_in += 1;
            }
        });
    }
}
