//! One SSH connection: public-key sign-in against the authorized keys, one session channel
//! with a terminal or a command ([`super::exec`]), refusals of everything else (subsystems,
//! forwarding, X11, agent),
//! and the session's dashboard started, re-attached or refused.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::Event;
use russh::server::VerifiedPublicKey;
use russh::server::{Auth, ChannelOpenHandle, Handler, Msg, PublicKeyOffer, Session};
use russh::{Channel, ChannelId};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

use super::Shared;
use super::door::Pass;
use super::exec::{Asker, ExecLink};
use super::input::Input;
use super::key_files::fingerprint;
use super::session::{self, Attachment, Claim, Dash, Detached, Ending, Full, Screen};
use crate::i18n::Lang;
use crate::runtime::lean::SharedSize;

/// The handler of one connection (russh calls it for each request).
pub(super) struct Conn {
    shared: Arc<Shared>,
    peer: SocketAddr,
    authed: Arc<AtomicBool>,
    /// Its place at the door, left when it signs in.
    pass: Pass,
    /// Its place among the signed-in connections ([`Shared::signed`]), once signed in.
    _slot: Option<OwnedSemaphorePermit>,
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
    /// Keys to the dashboard, once it started.
    input: Option<(Input, mpsc::UnboundedSender<io::Result<Event>>)>,
    /// The command an exec request runs, once it started (dropped with the connection:
    /// the run is then interrupted).
    exec: Option<ExecLink>,
    /// The token the client sent (`SetEnv CLUB_ADMIN_TOKEN`), for a command it runs.
    token: Option<secrecy::SecretString>,
}

impl Conn {
    /// The handler of a connection from `peer`, which sets `authed` when it signs in and
    /// then leaves the door with `pass`.
    pub(super) fn new(
        shared: Arc<Shared>,
        peer: SocketAddr,
        authed: Arc<AtomicBool>,
        pass: Pass,
    ) -> Conn {
        Conn {
            shared,
            peer,
            authed,
            pass,
            _slot: None,
            key: None,
            comment: None,
            channel: None,
            size: None,
            locale: [None, None, None],
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
                let lang = self.lang();
                let text = match full {
                    Full::Total(n) => crate::tr!(lang, "ssh-full-total", n = n),
                    Full::PerKey(n) => crate::tr!(lang, "ssh-full-key", n = n),
                };
                tracing::warn!(key = %key, "{text}");
                tokio::spawn(async move { session::refuse(&handle, channel, &text, 1).await });
                return;
            }
        };
        let (tx, rx) = mpsc::unbounded_channel();
        self.input = Some((Input::default(), tx));
        let lang = self.lang();
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
        };
        tokio::spawn(supervise(self.shared.clone(), key, start, lang, at));
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
async fn supervise(shared: Arc<Shared>, key: String, start: Start, lang: Lang, at: Attachment) {
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
        Ok(if self.shared.keys.allows(offer.public_key) {
            Auth::Accept
        } else {
            // The operator's trace of a key that is not authorized (OpenSSH offers a key
            // before it signs with it: a refused offer is the only sign of it).
            let key = fingerprint(offer.public_key);
            tracing::info!(peer = %self.peer, key = %key, "public key offered, not authorized");
            Auth::reject()
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        if !self.shared.keys.allows(key.public_key) {
            tracing::info!(peer = %self.peer, "public key refused");
            return Ok(Auth::reject());
        }
        let fp = fingerprint(key.public_key);
        let Ok(slot) = self.shared.signed.clone().try_acquire_owned() else {
            // A backstop a key holder alone can reach: the dashboards' own limits
            // (--max-sessions) refuse with a message long before.
            tracing::warn!(peer = %self.peer, key = %fp, "too many signed-in connections: refused");
            return Ok(Auth::reject());
        };
        tracing::info!(peer = %self.peer, user, key = %fp, "signed in");
        self._slot = Some(slot);
        self.pass.signed_in();
        self.key = Some(fp);
        self.comment = self.shared.keys.comment_of(key.public_key);
        self.authed.store(true, Ordering::SeqCst);
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
        session.channel_success(channel)?;
        if self.size.is_none() {
            let handle = session.handle();
            let text = crate::i18n::tr(self.lang(), "ssh-needs-terminal");
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
        session.channel_success(channel)?;
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
        let asker = Asker {
            key,
            comment: self.comment.clone(),
            token: self.token.take(),
            terminal: self.size.as_ref().map(|s| s.get().0),
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
