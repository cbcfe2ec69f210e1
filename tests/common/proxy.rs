//! A delaying TCP proxy for measurements: put it between the dashboard and a
//! server to make every round trip cost `round_trip`, as a slow link does.
//!
//! Bytes from the client reach the server `round_trip / 2` after they were sent, and the
//! answer takes as long again, so one HTTP call costs one `round_trip` more than without the
//! proxy; calls on different connections overlap, as on a real link. A new connection may
//! also pay `connect_round_trips` round trips before its first byte goes through, to model the
//! TCP handshake (1) or TCP + TLS 1.3 (2). Bandwidth is not limited. Unlike the demo server's
//! latency fault (a sleep per request inside the server), the proxy also charges the
//! connection set-up, and works in front of any server.

// Shared by the tests and the examples (`#[path]`): each uses a part of it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// How much a [`DelayProxy`] delays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProxyOptions {
    /// Added to every round trip (half on the way out, half on the way back).
    pub round_trip: Duration,
    /// Extra round trips a new connection waits before its first byte is forwarded: 0 (the
    /// connection is free), 1 (TCP), 2 (TCP + TLS 1.3).
    pub connect_round_trips: u32,
}

/// What went through a [`DelayProxy`] so far.
#[derive(Debug, Default)]
struct Counters {
    connections: AtomicU64,
    bytes_up: AtomicU64,
    bytes_down: AtomicU64,
}

/// A running proxy on 127.0.0.1. Dropping it stops accepting; open connections end when
/// either side closes.
pub struct DelayProxy {
    /// Bound address.
    pub addr: SocketAddr,
    /// `http://127.0.0.1:PORT`, to use as the base URL instead of the server's.
    pub base_url: String,
    counters: Arc<Counters>,
    shutdown: Option<oneshot::Sender<()>>,
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl DelayProxy {
    /// Starts a proxy on a free port of 127.0.0.1 forwarding to `upstream`, on the running
    /// tokio runtime.
    ///
    /// Errors: no port could be bound.
    pub async fn start(upstream: SocketAddr, options: ProxyOptions) -> Result<DelayProxy, String> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| format!("could not bind the proxy: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        let counters = Arc::new(Counters::default());
        let (tx, mut rx) = oneshot::channel::<()>();
        let shared = counters.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = &mut rx => break,
                    accepted = listener.accept() => {
                        let Ok((client, _)) = accepted else { continue };
                        shared.connections.fetch_add(1, Ordering::Relaxed);
                        let counters = shared.clone();
                        tokio::spawn(async move {
                            if let Err(e) = relay(client, upstream, options, counters).await {
                                tracing::debug!("proxy connection ended: {e}");
                            }
                        });
                    }
                }
            }
        });
        Ok(DelayProxy {
            addr,
            base_url: format!("http://{addr}"),
            counters,
            shutdown: Some(tx),
        })
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> u64 {
        self.counters.connections.load(Ordering::Relaxed)
    }

    /// Bytes forwarded so far: `(client to server, server to client)`.
    pub fn bytes(&self) -> (u64, u64) {
        (
            self.counters.bytes_up.load(Ordering::Relaxed),
            self.counters.bytes_down.load(Ordering::Relaxed),
        )
    }
}

/// One connection: two delay lines, one per direction.
async fn relay(
    client: TcpStream,
    upstream: SocketAddr,
    options: ProxyOptions,
    counters: Arc<Counters>,
) -> std::io::Result<()> {
    let opened = Instant::now();
    let server = TcpStream::connect(upstream).await?;
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let half = options.round_trip / 2;
    let ready = opened + options.round_trip * options.connect_round_trips;
    let (cr, cw) = client.into_split();
    let (sr, sw) = server.into_split();
    let up = delay_line(cr, sw, half, ready, counters.clone(), true);
    let down = delay_line(sr, cw, half, opened, counters, false);
    let (a, b) = tokio::join!(up, down);
    a.and(b)
}

/// Copies `from` to `to`, each chunk delivered `delay` after it was read and not before
/// `not_before`; in order. Shuts `to` down after the end of `from`.
async fn delay_line(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
    not_before: Instant,
    counters: Arc<Counters>,
    upward: bool,
) -> std::io::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let reader = async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = match from.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let due = (Instant::now() + delay).max(not_before + delay);
            if tx.send((due, buf[..n].to_vec())).is_err() {
                break;
            }
        }
        // Dropping `tx` tells the writer the stream ended.
    };
    let writer = async move {
        while let Some((due, chunk)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            to.write_all(&chunk).await?;
            let counter = if upward {
                &counters.bytes_up
            } else {
                &counters.bytes_down
            };
            counter.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
        to.shutdown().await
    };
    let ((), written) = tokio::join!(reader, writer);
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An echo server: answers every chunk with the same bytes.
    async fn echo() -> SocketAddr {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = [0u8; 1024];
                    while let Ok(n) = s.read(&mut buf).await {
                        if n == 0 || s.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        addr
    }

    #[tokio::test(start_paused = true)]
    async fn each_round_trip_costs_the_delay_and_a_new_connection_its_handshake() {
        let proxy = DelayProxy::start(
            echo().await,
            ProxyOptions {
                round_trip: Duration::from_millis(300),
                connect_round_trips: 1,
            },
        )
        .await
        .expect("proxy");
        let mut s = TcpStream::connect(proxy.addr).await.expect("connect");
        let start = Instant::now();
        let mut buf = [0u8; 5];
        s.write_all(b"hello").await.expect("write");
        s.read_exact(&mut buf).await.expect("read");
        assert_eq!(&buf, b"hello");
        // Paused time advances only by the sleeps: handshake + one round trip.
        assert_eq!(start.elapsed(), Duration::from_millis(600));
        let again = Instant::now();
        s.write_all(b"world").await.expect("write");
        s.read_exact(&mut buf).await.expect("read");
        assert_eq!(&buf, b"world");
        assert_eq!(again.elapsed(), Duration::from_millis(300));
        assert_eq!(proxy.connections(), 1);
        assert_eq!(proxy.bytes(), (10, 10));
    }
}
