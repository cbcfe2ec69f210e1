//! The app without a terminal: `update`, the real worker and API client, and the effects the
//! event loop would run, driven by scripted messages. For flow tests and the measuring
//! harnesses; `settle` waits until no call is in flight.

use std::time::Duration;

use tokio::sync::mpsc;

use super::worker::{self, Worker};
use crate::api::ApiClient;
use crate::app::{AuditEntry, Effect, Model, Msg, update};

/// A model driven by scripted messages against a real server.
pub struct Headless {
    /// The model.
    pub model: Model,
    /// The client (its token is what `SetToken` changes).
    pub client: ApiClient,
    /// Audit entries the app emitted, in order.
    pub audit: Vec<AuditEntry>,
    /// Text the app asked to copy.
    pub copied: Vec<String>,
    worker: Worker,
    rx: mpsc::UnboundedReceiver<Msg>,
}

impl Headless {
    /// Starts the worker with `concurrency` and runs [`crate::app::start`]; call
    /// [`Headless::settle`] to wait for the first answers.
    pub fn new(model: Model, client: ApiClient, concurrency: usize) -> Headless {
        let (tx, rx) = mpsc::unbounded_channel();
        let worker = worker::spawn(client.clone(), concurrency, tx);
        let mut h = Headless {
            model,
            client,
            audit: Vec::new(),
            copied: Vec::new(),
            worker,
            rx,
        };
        let fx = crate::app::start(&mut h.model);
        h.run(fx);
        h
    }

    fn run(&mut self, fx: Vec<Effect>) {
        for e in fx {
            match e {
                Effect::Api { request_id, call } => self.worker.send(request_id, call),
                Effect::SetToken(t) => self.client.set_token(Some(t)),
                Effect::Audit(a) => self.audit.push(a),
                Effect::Copy(t) => self.copied.push(t),
                _ => {}
            }
        }
    }

    /// Applies a message and runs its effects (without waiting for answers).
    pub fn send(&mut self, msg: Msg) {
        let fx = update(&mut self.model, msg);
        self.run(fx);
    }

    /// Applies answers until nothing is in flight.
    ///
    /// Errors: `limit` passed first (the message says how many calls were still waiting).
    pub async fn settle(&mut self, limit: Duration) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + limit;
        while self.model.busy() {
            match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                Ok(Some(msg)) => {
                    let fx = update(&mut self.model, msg);
                    self.run(fx);
                }
                Ok(None) => return Err("the worker stopped".into()),
                Err(_) => {
                    return Err(format!(
                        "{} call(s) still in flight after {limit:?}",
                        self.model.inflight.len()
                    ));
                }
            }
        }
        Ok(())
    }
}
