//! The signed-in connections of `serve-ssh`, each counted against its key from the moment
//! the key is accepted, whatever it does then (a dashboard, a command, nothing: `ssh -N`, a
//! client stopped with Ctrl-Z), so that no key can hold every place: a key holds at most
//! `max_connections_per_key` of the server's `max_connections`. A connection past either is
//! still signed in (never "Permission denied (publickey)", which reads as a removed key) but
//! gets no place: whatever it asks for is refused with one sentence and the exit code
//! [`BUSY`], and it is closed. The operator sees each connection (`serve-ssh status`) and
//! may end one, or all of a key's (`serve-ssh kick`).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

/// The exit code of a command refused because the server or the key is busy (too many
/// connections or sessions): try again later ([`crate::script::Exit::Busy`]).
pub const BUSY: u32 = crate::script::Exit::Busy as u32;

/// What a signed-in connection does now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Doing {
    /// No session asked for yet (`ssh -N`, or a client between its sign-in and its request).
    Nothing,
    /// A dashboard.
    Dashboard,
    /// A command (as the log shows it).
    Command(String),
}

/// One signed-in connection as the operator's status shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnInfo {
    /// The connection's number in this server (for `serve-ssh kick --connection N`).
    pub id: u64,
    /// The key's fingerprint (`SHA256:...`).
    pub key: String,
    /// The key's comment in the authorized keys file.
    pub comment: Option<String>,
    /// The client's address and port.
    pub peer: String,
    /// What it does now.
    pub doing: Doing,
    /// True when it is signed in to the service: its dashboard knows who (the status reads
    /// it from the dashboard), or its command has a token (sent or remembered).
    pub signed_in: bool,
    /// The number of its dashboard on the status's board, when it shows one.
    #[serde(default)]
    pub dashboard: Option<u64>,
    /// When its key was accepted (RFC 3339, UTC).
    pub since: chrono::DateTime<chrono::Utc>,
    /// Signed in past its key's or the server's share: it holds no place, whatever it
    /// asks is refused with the exit code [`BUSY`], and it is closed soon.
    #[serde(default)]
    pub over_share: bool,
}

/// Why a connection got no place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPlace {
    /// Its key holds its share already (the number).
    Key(usize),
    /// The server holds its `max_connections` (the number).
    Total(usize),
}

/// The signed-in connections and their limits.
#[derive(Debug)]
pub struct Conns {
    per_key: usize,
    total: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    open: BTreeMap<u64, Entry>,
}

#[derive(Debug)]
struct Entry {
    info: ConnInfo,
    end: Arc<Notify>,
}

impl Conns {
    /// At most `total` signed-in connections, `per_key` (at least 1) of one key.
    pub fn new(per_key: usize, total: usize) -> Arc<Conns> {
        Arc::new(Conns {
            per_key: per_key.max(1),
            total: total.max(1),
            state: Mutex::new(State::default()),
        })
    }

    /// A connection of `key` (`comment`) from `peer` signed in, ended by `end` when the
    /// operator kicks it: listed until it ends ([`Place`] dropped), and counted against its
    /// key and the server unless it came past either's limit: then the [`NoPlace`] is
    /// beside its place (listed, counted nowhere).
    pub fn enter(
        self: &Arc<Conns>,
        key: &str,
        comment: Option<String>,
        peer: SocketAddr,
        end: Arc<Notify>,
    ) -> (Place, Option<NoPlace>) {
        let mut st = match self.state.lock() {
            Ok(st) => st,
            Err(poisoned) => poisoned.into_inner(),
        };
        let counted = |e: &&Entry| !e.info.over_share;
        let no_place = if st
            .open
            .values()
            .filter(counted)
            .filter(|e| e.info.key == key)
            .count()
            >= self.per_key
        {
            Some(NoPlace::Key(self.per_key))
        } else if st.open.values().filter(counted).count() >= self.total {
            Some(NoPlace::Total(self.total))
        } else {
            None
        };
        st.next += 1;
        let id = st.next;
        st.open.insert(
            id,
            Entry {
                info: ConnInfo {
                    id,
                    key: key.to_owned(),
                    comment,
                    peer: peer.to_string(),
                    doing: Doing::Nothing,
                    signed_in: false,
                    dashboard: None,
                    since: chrono::Utc::now(),
                    over_share: no_place.is_some(),
                },
                end,
            },
        );
        let place = Place {
            conns: self.clone(),
            id,
        };
        (place, no_place)
    }

    /// Every signed-in connection, oldest first.
    pub fn list(&self) -> Vec<ConnInfo> {
        self.state
            .lock()
            .map(|s| s.open.values().map(|e| e.info.clone()).collect())
            .unwrap_or_default()
    }

    /// Ends the connections `which` picks (each shown "ended by the operator"); how many.
    pub fn kick(&self, which: &Kick) -> usize {
        let Ok(st) = self.state.lock() else {
            return 0;
        };
        let mut n = 0;
        for e in st.open.values().filter(|e| which.picks(&e.info)) {
            e.end.notify_one();
            n += 1;
        }
        n
    }

    /// The connection `id` shows the dashboard `number` (made, or called back).
    pub fn set_dashboard(&self, id: u64, number: u64) {
        self.update(id, |c| {
            c.doing = Doing::Dashboard;
            c.dashboard = Some(number);
        });
    }

    fn update(&self, id: u64, f: impl FnOnce(&mut ConnInfo)) {
        if let Ok(mut st) = self.state.lock()
            && let Some(e) = st.open.get_mut(&id)
        {
            f(&mut e.info);
        }
    }
}

/// Which connections `serve-ssh kick` ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kick {
    /// The connection of this number ([`ConnInfo::id`]).
    Connection(u64),
    /// Every connection of the key whose fingerprint (`SHA256:...`) or comment is this.
    Key(String),
}

impl Kick {
    fn picks(&self, c: &ConnInfo) -> bool {
        match self {
            Kick::Connection(id) => c.id == *id,
            Kick::Key(k) => c.key == *k || c.comment.as_deref() == Some(k.as_str()),
        }
    }
}

/// A connection's place, held until it ends.
#[derive(Debug)]
pub struct Place {
    conns: Arc<Conns>,
    id: u64,
}

impl Place {
    /// Its number among the connections ([`ConnInfo::id`]).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// It now runs `doing`.
    pub fn doing(&self, doing: Doing) {
        self.conns.update(self.id, |c| c.doing = doing);
    }

    /// It is (or is no longer) signed in to the service.
    pub fn signed_in(&self, yes: bool) {
        self.conns.update(self.id, |c| c.signed_in = yes);
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Ok(mut st) = self.conns.state.lock() {
            st.open.remove(&self.id);
        }
    }
}

/// What a connection's task watches besides russh: the sign-in (then the session timeout
/// runs), whether a session was asked for, and the operator's kick.
#[derive(Debug, Default)]
pub struct Life {
    /// True once the connection signed in.
    pub authed: std::sync::atomic::AtomicBool,
    /// Notified when the connection signs in.
    pub signed: Notify,
    /// True once it asked for a dashboard or a command (refused or not).
    pub session: std::sync::atomic::AtomicBool,
    /// Notified when the operator ends it ([`Conns::kick`]).
    pub end: Arc<Notify>,
    /// Notified by the connection's task on a kick: its dashboard gives the client's
    /// terminal back and says why before the connection is closed.
    pub hand_back: Arc<Notify>,
}

/// When a refusal was last logged, and how many like it were counted since.
type LastSaid = (std::time::Instant, u64);

/// How often, at most, the log says that one key (or address) was refused again.
const SAY_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Log lines of repeated refusals, at most one per key (or address) and kind every 10 s:
/// the first is logged at once, the ones after it are counted and logged with the next
/// ("and 351 more like it"). A flood of refused commands or keys cannot fill the log.
#[derive(Debug, Default)]
pub struct Refusals {
    said: Mutex<std::collections::HashMap<(String, &'static str), LastSaid>>,
}

impl Refusals {
    /// Says `text` (English, for the log) of `who` (a key's fingerprint or an address) as
    /// a warning, unless a refusal of the same kind `what` of `who` was logged within 10 s:
    /// then it is counted, and reported with the next one logged.
    pub fn say(&self, who: &str, text: &str, what: &'static str) {
        let Ok(mut said) = self.said.lock() else {
            return;
        };
        let now = std::time::Instant::now();
        if said.len() > 10_000 {
            said.retain(|_, (at, _)| now.duration_since(*at) < SAY_EVERY);
        }
        let entry = said
            .entry((who.to_owned(), what))
            .or_insert((now - SAY_EVERY * 2, 0));
        if now.duration_since(entry.0) < SAY_EVERY {
            entry.1 += 1;
            return;
        }
        let more = std::mem::take(&mut entry.1);
        entry.0 = now;
        if more > 0 {
            tracing::warn!(
                who,
                more,
                "{what}: {text} (and {more} more like it in the last seconds)"
            );
        } else {
            tracing::warn!(who, "{what}: {text}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> SocketAddr {
        "127.0.0.1:5000".parse().expect("addr")
    }

    #[test]
    fn a_key_holds_its_share_and_no_more_and_others_still_get_in() {
        let conns = Conns::new(2, 3);
        let enter = |k: &str| conns.enter(k, None, peer(), Arc::default());
        let (a1, none) = enter("a");
        assert_eq!(none, None);
        let (_a2, _) = enter("a");
        let (_a3, over) = enter("a");
        assert_eq!(over, Some(NoPlace::Key(2)));
        let (_b, none) = enter("b");
        assert_eq!(none, None, "another key still gets in past a's refused one");
        let (_c, over) = enter("c");
        assert_eq!(over, Some(NoPlace::Total(3)));
        let listed = conns.list();
        assert_eq!(
            listed.len(),
            5,
            "every connection is listed, over its share or not"
        );
        assert_eq!(listed.iter().filter(|c| c.over_share).count(), 2);
        drop(a1);
        assert_eq!(enter("c").1, None);
    }

    #[tokio::test]
    async fn a_kick_ends_the_connections_it_picks() {
        let conns = Conns::new(5, 10);
        let (e1, e2) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
        let (p1, _) = conns.enter("a", Some("alice".into()), peer(), e1.clone());
        let (_p2, _) = conns.enter("b", None, peer(), e2.clone());
        p1.doing(Doing::Command("whoami".into()));
        assert_eq!(conns.list()[0].doing, Doing::Command("whoami".into()));
        assert_eq!(conns.kick(&Kick::Key("alice".into())), 1);
        e1.notified().await;
        assert_eq!(conns.kick(&Kick::Connection(2)), 1);
        e2.notified().await;
        assert_eq!(conns.kick(&Kick::Key("nobody".into())), 0);
    }
}
