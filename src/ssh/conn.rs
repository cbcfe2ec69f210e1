//! One SSH connection: public-key sign-in against the authorized keys, one session channel
//! with a terminal or a command ([`super::exec`]), refusals of everything else (subsystems,
//! forwarding, X11, agent),
//! and the session's dashboard started, re-attached or refused.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use crossterm::event::Event;
use russh::server::VerifiedPublicKey;
use russh::server::{Auth, ChannelOpenHandle, Handler, Msg, PublicKeyOffer, Session};
use russh::{Channel, ChannelId};
use tokio::sync::mpsc;

use super::Shared;
use super::conns::{BUSY, Doing, Life, NoPlace, Place};
use super::door::Pass;
use super::exec::{Asker, ExecLink};
use super::input::Input;
use super::key_files::{NotAllowed, fingerprint};
use super::key_options::KeyRules;
use super::session::{self, Attachment, Claim, Dash, Detached, Ending, Full, Screen};
use crate::i18n::Lang;
use crate::runtime::lean::SharedSize;

/// The handler of one connection (russh calls it for each request).
pub(super) struct Conn {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// Its place at the door, left when it signs in.
    pass: Pass,
    /// Its place among the signed-in connections ([`Shared::conns`]), once signed in.
    place: Option<Place>,
    /// Signed in past its key's or the server's share: everything it asks is refused.
    no_place: Option<NoPlace>,
    /// What its key's line in the authorized keys file allows, once signed in.
    rules: Option<KeyRules>,
    /// What the connection's task watches: its sign-in, its session, the operator's kick.
    life: Arc<Life>,
    /// The signed-in key's fingerprint.
    key: Option<String>,
    /// The signed-in key's comment in the authorized keys file.
    comment: Option<String>,
    /// The one session channel.
    channel: Option<ChannelId>,
    /// The window's size, once a terminal was asked for.
    size: Option<SharedSize>,
    /// The client's `LC_ALL`, `LC_MESSAGES` and `LANG`, when sent.
    locale: [Option<String>; 3],
    /// The client's `COLUMNS` (`SetEnv`): the width a command's table fits without a
    /// terminal, as the command line's `$COLUMNS` is.
    columns: Option<u16>,
    /// Keys to the dashboard, once it started.
    input: Option<(Input, mpsc::UnboundedSender<io::Result<Event>>)>,
    /// The command an exec request runs, once it started (dropped with the connection:
    /// the run is then interrupted).
    exec: Option<ExecLink>,
    /// The token the client sent (`SetEnv CLUB_ADMIN_TOKEN`), for a command it runs.
    token: Option<secrecy::SecretString>,
}

impl Conn {
    /// The handler of a connection from `peer`, which leaves the door with `pass` when it
    /// signs in; `life` tells its task of the sign-in and the session, and carries the
    /// operator's kick.
    pub(super) fn new(shared: Arc<Shared>, peer: SocketAddr, pass: Pass, life: Arc<Life>) -> Conn {
        Conn {
            shared,
            peer,
            pass,
            place: None,
            no_place: None,
            rules: None,
            life,
            key: None,
            comment: None,
            channel: None,
            size: None,
            locale: [None, None, None],
            columns: None,
            input: None,
            exec: None,
            token: None,
        }
    }

    /// The clamped window size.
    fn clamp(&self, cols: u32, rows: u32) -> (u16, u16) {
        let (max_c, max_r) = self.shared.limits.max_window;
        let c = u16::try_from(cols)
            .unwrap_or(u16::MAX)
            .clamp(1, max_c.max(1));
        let r = u16::try_from(rows)
            .unwrap_or(u16::MAX)
            .clamp(1, max_r.max(1));
        (c, r)
    }

    /// The session's language: the client's locale when it names Thai or English
    /// (`LC_ALL` first, then `LC_MESSAGES`, then `LANG`, as the local dashboard reads its
    /// own), else the server's default.
    fn lang(&self) -> Lang {
        self.locale
            .iter()
            .flatten()
            .find(|v| !v.trim().is_empty())
            .and_then(|v| Lang::parse(v))
            .unwrap_or(self.shared.settings.lang)
    }

    /// The forced command of the key's line (`command=`), if any.
    fn forced(&self) -> Option<String> {
        self.rules.as_ref().and_then(|r| r.command.clone())
    }

    /// For a connection signed in past its key's or the server's share: its channel is
    /// sent the reason in one sentence and ended with [`BUSY`] (true). False when it has a place.
    fn refuse_over_share(&self, channel: ChannelId, session: &mut Session, terminal: bool) -> bool {
        let Some(no) = self.no_place else {
            return false;
        };
        let text = match no {
            NoPlace::Key(n) => crate::tr!(self.lang(), "ssh-busy-key", n = n),
            NoPlace::Total(n) => crate::tr!(self.lang(), "ssh-busy-total", n = n),
        };
        let handle = session.handle();
        tokio::spawn(async move {
            session::refuse_command(&handle, channel, &text, BUSY, terminal).await;
        });
        true
    }

    /// Starts the session's dashboard, or re-attaches the key's waiting one.
    fn start_dashboard(&mut self, channel: ChannelId, session: &mut Session) {
        let Some(key) = self.key.clone() else {
            return;
        };
        let Some(size) = self.size.clone() else {
            return;
        };
        let handle = session.handle();
        let claim = match self.shared.registry.lock() {
            Ok(mut r) => r.claim(
                &key,
                self.shared.limits.max_sessions,
                self.shared.limits.max_sessions_per_key,
            ),
            Err(_) => Err(Full::Total(0)),
        };
        let claim = match claim {
            Ok(c) => c,
            Err(full) => {
                let say = |lang| match full {
                    Full::Total(n) => crate::tr!(lang, "ssh-full-total", n = n),
                    Full::PerKey(n) => crate::tr!(lang, "ssh-full-key", n = n),
                };
                self.shared
                    .refusals
                    .say(&key, &say(Lang::English), "dashboard refused");
                let text = say(self.lang());
                tokio::spawn(async move { session::refuse(&handle, channel, &text, BUSY).await });
                return;
            }
        };
        let (tx, rx) = mpsc::unbounded_channel();
        self.input = Some((Input::default(), tx));
        let lang = self.lang();
        if let Some(place) = &self.place {
            place.doing(Doing::Dashboard);
        }
        let again = matches!(claim, Claim::Again(_));
        tracing::info!(peer = %self.peer, key = %key, again, "session starts");
        let comment = self.comment.clone();
        let start = match claim {
            Claim::Again(wake) => Start::Again(wake),
            Claim::New => {
                match self.open_new(&key, comment.as_deref(), lang, size.clone()) {
                    Some((dash, mut screen)) => {
                        // The first frame leaves with the answer to the shell request.
                        for packet in screen
                            .as_deref_mut()
                            .map(Screen::first_packets)
                            .unwrap_or_default()
                        {
                            if session.data(channel, packet).is_err() {
                                break;
                            }
                        }
                        Start::New(dash, screen)
                    }
                    None => {
                        release(&self.shared, &key);
                        let text = crate::i18n::tr(lang, "ssh-session-failed");
                        tokio::spawn(
                            async move { session::refuse(&handle, channel, &text, 1).await },
                        );
                        return;
                    }
                }
            }
        };
        let at = Attachment {
            handle,
            channel,
            size,
            input: rx,
            kicked: self.life.hand_back.clone(),
        };
        let conn = self.place.as_ref().map(Place::id);
        tokio::spawn(supervise(self.shared.clone(), key, start, lang, at, conn));
    }

    /// A new dashboard for `key` and its screen opened in a window of `size`, its first
    /// frame drawn ([`session::open`]; `None` in the pair: it could not be, the session's
    /// task tries again), here in the connection's task so that the frame leaves with the
    /// answer to the shell request, not behind other connections' key exchanges. `None`
    /// when building it panicked (logged; the connection's task goes on).
    fn open_new(
        &self,
        key: &str,
        comment: Option<&str>,
        lang: Lang,
        size: SharedSize,
    ) -> Option<(Box<Dash>, Option<Box<Screen>>)> {
        let shared = &self.shared;
        let number = shared.next_dash.fetch_add(1, Ordering::Relaxed);
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut dash = Box::new(Dash::new(shared, number, key, comment, lang));
            shared
                .board
                .enter(number, key, comment.map(str::to_owned), dash.client());
            let screen = session::open(&mut dash, size);
            if let Err(e) = &screen {
                tracing::warn!(key = %key, "a session's first frame was not drawn: {e}");
            }
            (dash, screen.ok().map(Box::new))
        }));
        match built {
            Ok(pair) => Some(pair),
            Err(_) => {
                tracing::error!(key = %key, "a session's dashboard could not be built");
                shared.board.leave(number);
                None
            }
        }
    }
}

/// What a connection's session starts from.
enum Start {
    /// A new dashboard (on the board already), with its screen when it was opened in the
    /// connection's task ([`Conn::open_new`]).
    New(Box<Dash>, Option<Box<Screen>>),
    /// The key's dashboard, running detached: call it back with this.
    Again(session::Wake),
}

/// Runs one attachment in a task of its own and keeps what is left: a dropped connection's
/// dashboard waits for its key; a dashboard that is over, or whose task panicked, frees its
/// place. A panic stays in its task: nothing global is touched.
async fn supervise(
    shared: Arc<Shared>,
    key: String,
    start: Start,
    lang: Lang,
    at: Attachment,
    conn: Option<u64>,
) {
    let (handle, channel) = (at.handle.clone(), at.channel);
    let (dash, screen) = match start {
        Start::New(dash, screen) => (dash, screen),
        Start::Again(wake) => {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let back = match wake.send(tx) {
                Ok(()) => rx.await.ok(),
                Err(_) => None,
            };
            let Some(dash) = back else {
                // It ended for good just now (its window passed, or the server stops).
                session::refuse(
                    &handle,
                    channel,
                    &crate::i18n::tr(lang, "ssh-earlier-ended"),
                    1,
                )
                .await;
                return;
            };
            shared.board.attached(dash.number, true);
            (dash, None)
        }
    };
    let number = dash.number;
    if let Some(c) = conn {
        shared.conns.set_dashboard(c, number);
    }
    let task = {
        let shared = shared.clone();
        #[cfg(feature = "test-hooks")]
        let key = key.clone();
        tokio::spawn(async move {
            #[cfg(feature = "test-hooks")]
            if shared.hooks.panic_key.as_deref() == Some(key.as_str()) {
                panic!("test panic of a serve-ssh session (ssh::Hooks::panic_key)");
            }
            session::attach(shared, dash, at, screen).await
        })
    };
    match task.await {
        Ok((dash, Ending::Detached)) => {
            shared.board.attached(number, false);
            park(shared, key, dash)
        }
        Ok((_, Ending::Over)) => {
            shared.board.leave(number);
            release(&shared, &key)
        }
        Err(e) => {
            tracing::error!(key = %key, "a session's task failed: {e}");
            shared.board.leave(number);
            release(&shared, &key);
            session::refuse(
                &handle,
                channel,
                &crate::i18n::tr(lang, "ssh-session-failed"),
                1,
            )
            .await;
        }
    }
}

fn release(shared: &Shared, key: &str) {
    if let Ok(mut r) = shared.registry.lock() {
        r.release(key);
    }
}

/// Keeps `dash` running without a terminal for its key until a connection of the key calls
/// it back, the re-attach window passes or the server stops; in the last two cases it ends
/// for good (the local hang-up rule). Its own task: a panic there touches nothing else.
fn park(shared: Arc<Shared>, key: String, dash: Box<Dash>) {
    let (wake_tx, wake_rx) = tokio::sync::oneshot::channel();
    let id = match shared.registry.lock() {
        Ok(mut r) => r.park(&key, wake_tx),
        Err(_) => return,
    };
    let number = dash.number;
    tracing::info!(key = %key, "session detached: waiting for its key");
    let window = shared.reattach;
    let runner = tokio::spawn(session::run_detached(shared.clone(), dash, wake_rx, window));
    tokio::spawn(async move {
        match runner.await {
            Ok(Detached::Back(dash, tx)) => {
                if let Err(dash) = tx.send(dash) {
                    // The connection that called it is gone already: keep waiting.
                    park(shared, key, dash);
                }
            }
            Ok(Detached::Over) => {
                tracing::info!(key = %key, "detached session ended for good");
                shared.board.leave(number);
                if let Ok(mut r) = shared.registry.lock() {
                    r.unpark(&key, id);
                    r.release(&key);
                }
            }
            Err(e) => {
                tracing::error!(key = %key, "a detached session's task failed: {e}");
                shared.board.leave(number);
                if let Ok(mut r) = shared.registry.lock() {
                    r.unpark(&key, id);
                    r.release(&key);
                }
            }
        }
    });
}

impl Handler for Conn {
    type Error = russh::Error;

    /// The key exchange is over and the client asks for the sign-in service: the door no
    /// longer cuts this connection to make room. No banner.
    async fn authentication_banner(&mut self) -> Result<Option<String>, Self::Error> {
        self.pass.at_sign_in();
        Ok(None)
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        let now = chrono::Utc::now();
        Ok(
            match self
                .shared
                .keys
                .admit(offer.public_key, self.peer.ip(), now)
            {
                Ok(_) => Auth::Accept,
                Err(why) => {
                    // The operator's trace of a key that is not authorized (OpenSSH offers
                    // a key before it signs with it: a refused offer is the only sign of it).
                    let key = fingerprint(offer.public_key);
                    let why = match why {
                        NotAllowed::NotListed => "not authorized".to_owned(),
                        NotAllowed::Options(w) => w,
                    };
                    self.shared.refusals.say(
                        &key,
                        &format!("public key offered from {}: {why}", self.peer),
                        "key refused",
                    );
                    Auth::reject()
                }
            },
        )
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let rules = match self
            .shared
            .keys
            .admit(key.public_key, self.peer.ip(), chrono::Utc::now())
        {
            Ok(r) => r,
            Err(_) => {
                tracing::info!(peer = %self.peer, "public key refused");
                return Ok(Auth::reject());
            }
        };
        let fp = fingerprint(key.public_key);
        let comment = self.shared.keys.comment_of(key.public_key);
        // Counted against its key from now on, whatever it asks for next; a connection past
        // its key's or the server's share is still let in, to get the reason on its channel
        // (a refused sign-in would read as a removed key).
        let (place, no_place) =
            self.shared
                .conns
                .enter(&fp, comment.clone(), self.peer, self.life.end.clone());
        if let Some(no) = no_place {
            self.shared.refusals.say(
                &fp,
                &format!("signed in from {} with no place left: {no:?}", self.peer),
                "connection over its share",
            );
        }
        self.place = Some(place);
        self.no_place = no_place;
        if self.no_place.is_none() {
            tracing::info!(peer = %self.peer, user, key = %fp, options = %rules.summary(), "signed in");
        }
        self.rules = Some(rules);
        self.pass.signed_in();
        self.key = Some(fp);
        self.comment = comment;
        self.life.authed.store(true, Ordering::SeqCst);
        self.life.signed.notify_one();
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            reply
                .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        self.channel = Some(channel.id());
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.rules.as_ref().is_some_and(|r| !r.pty) {
            // no-pty or restrict on the key's line: as sshd, the request fails and the
            // client goes on without a terminal (a command runs; the dashboard is refused).
            tracing::info!(peer = %self.peer, "pty refused: the key's line says no-pty or restrict");
            session.channel_failure(channel)?;
            return Ok(());
        }
        let (c, r) = self.clamp(col_width, row_height);
        tracing::debug!(peer = %self.peer, term, cols = c, rows = r, "pty requested");
        match &self.size {
            Some(s) => s.set(c, r),
            None => self.size = Some(SharedSize::new(c, r)),
        }
        session.channel_success(channel)?;
        Ok(())
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if name == "CLUB_ADMIN_TOKEN" && self.shared.exec {
            // For a command the client runs; never logged. A token is a few hundred bytes.
            match value.len() <= 16 * 1024 {
                true => {
                    // An empty one (`SetEnv=CLUB_ADMIN_TOKEN=`) is no token.
                    let token = value.trim();
                    self.token =
                        (!token.is_empty()).then(|| secrecy::SecretString::from(token.to_owned()));
                    session.channel_success(channel)?;
                }
                false => session.channel_failure(channel)?,
            }
            return Ok(());
        }
        if name == "COLUMNS" {
            self.columns = value.trim().parse().ok().filter(|w| (1..=1000).contains(w));
            match self.columns {
                Some(_) => session.channel_success(channel)?,
                None => session.channel_failure(channel)?,
            }
            return Ok(());
        }
        let slot = match name {
            "LC_ALL" => Some(0),
            "LC_MESSAGES" => Some(1),
            "LANG" => Some(2),
            _ => None,
        };
        match slot {
            Some(i) => {
                self.locale[i] = Some(value.chars().take(64).collect());
                session.channel_success(channel)?;
            }
            None => session.channel_failure(channel)?,
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.input.is_some() || self.exec.is_some() || self.key.is_none() {
            session.channel_failure(channel)?;
            return Ok(());
        }
        if let Some(command) = self.forced() {
            return self
                .exec_request(channel, command.as_bytes(), session)
                .await;
        }
        self.life.session.store(true, Ordering::SeqCst);
        session.channel_success(channel)?;
        if self.refuse_over_share(channel, session, true) {
            return Ok(());
        }
        if self.size.is_none() {
            let handle = session.handle();
            let key = if self.rules.as_ref().is_some_and(|r| !r.pty) {
                "ssh-no-terminal-key"
            } else {
                "ssh-needs-terminal"
            };
            let text = crate::i18n::tr(self.lang(), key);
            tokio::spawn(async move { session::refuse(&handle, channel, &text, 1).await });
            return Ok(());
        }
        self.start_dashboard(channel, session);
        Ok(())
    }

    /// A command (`ssh HOST requests list`): run as the key's moderator ([`super::exec`]),
    /// unless the operator turned commands off.
    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(key) = self.key.clone() else {
            session.channel_failure(channel)?;
            return Ok(());
        };
        if self.input.is_some() || self.exec.is_some() {
            session.channel_failure(channel)?;
            return Ok(());
        }
        self.life.session.store(true, Ordering::SeqCst);
        session.channel_success(channel)?;
        if self.refuse_over_share(channel, session, self.size.is_some()) {
            return Ok(());
        }
        // A forced command (command= on the key's line) runs whatever the client asked.
        let forced = self.forced();
        let data = match &forced {
            Some(command) => {
                tracing::info!(
                    peer = %self.peer,
                    asked = %super::exec_line::for_log(data),
                    "the key's forced command runs instead of the one asked"
                );
                command.as_bytes()
            }
            None => data,
        };
        let handle = session.handle();
        if !self.shared.exec {
            tracing::info!(peer = %self.peer, "exec refused: commands are off");
            let text = crate::i18n::tr(self.lang(), "ssh-refused-exec");
            let terminal = self.size.is_some();
            tokio::spawn(async move {
                session::refuse_command(&handle, channel, &text, 1, terminal).await;
            });
            return Ok(());
        }
        // The token the client sent, else the one remembered for its key.
        let token = self.token.take().or_else(|| {
            self.shared
                .token_dir
                .as_deref()
                .and_then(|d| super::read_token(d, &key))
        });
        if let Some(place) = &self.place {
            place.doing(Doing::Command(super::exec_line::for_log(data)));
            place.signed_in(token.is_some());
        }
        let asker = Asker {
            key,
            comment: self.comment.clone(),
            token,
            terminal: self.size.as_ref().map(|s| s.get().0),
            columns: self.columns,
            lang: self.lang(),
        };
        self.exec = Some(super::exec::start(
            &self.shared,
            handle,
            channel,
            asker,
            data,
        ));
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        tracing::info!(peer = %self.peer, subsystem = name, "subsystem refused");
        session.channel_success(channel)?;
        let handle = session.handle();
        let name = format!("{:?}", crate::text::clean(name, 32));
        let text = crate::tr!(self.lang(), "ssh-refused-subsystem", name = name);
        tokio::spawn(async move { session::refuse(&handle, channel, &text, 1).await });
        Ok(())
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        tracing::info!(peer = %self.peer, "X11 forwarding refused");
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some((input, tx)) = &mut self.input {
            for ev in input.feed(data) {
                let _ = tx.send(Ok(ev));
            }
        }
        if let Some(exec) = &mut self.exec {
            exec.feed(data);
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        _channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let (c, r) = self.clamp(col_width, row_height);
        if let Some(s) = &self.size {
            s.set(c, r);
        }
        if let Some((_, tx)) = &self.input {
            let _ = tx.send(Ok(Event::Resize(c, r)));
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // The client sends no more keys: the dashboard is left, waiting for the key; a
        // command's standard input ends.
        self.input = None;
        if let Some(exec) = &mut self.exec {
            exec.end_of_input();
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.input = None;
        // A command still running is interrupted (the link's drop): its client is gone.
        self.exec = None;
        Ok(())
    }
}
