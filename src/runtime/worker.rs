//! The worker: runs API calls on a bounded `JoinSet` and posts each result back as a `Msg`.

use std::collections::VecDeque;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::api::ApiClient;
use crate::app::{ApiAnswer, ApiCall, Msg};

/// Handle to send calls to the worker.
#[derive(Debug, Clone)]
pub struct Worker {
    tx: mpsc::UnboundedSender<(u64, ApiCall)>,
}

impl Worker {
    /// Queues a call; its answer arrives as `Msg::Api { request_id, .. }`.
    pub fn send(&self, request_id: u64, call: ApiCall) {
        let _ = self.tx.send((request_id, call));
    }
}

/// Runs one call and returns its answer (errors are in the answer, per operation).
pub async fn perform(client: &ApiClient, call: ApiCall) -> ApiAnswer {
    match call {
        ApiCall::CurrentUser => ApiAnswer::User(client.current_user().await),
        ApiCall::CheckToken(t) => ApiAnswer::User(client.current_user_with(&t.0).await),
        ApiCall::GetRequest { id, levels } => {
            ApiAnswer::Request(client.club_request(id, levels).await)
        }
        ApiCall::UpdateRequest { id, status, levels } => {
            ApiAnswer::Updated(client.update_club_request(id, &status, levels).await)
        }
        ApiCall::DeleteRequest { id } => ApiAnswer::Deleted(client.delete_club_request(id).await),
        // Its contacts whole on the deployed service too (a second read where needed).
        ApiCall::GetClub { id, levels } => {
            ApiAnswer::Club(crate::ops::club::read_club(client, id, levels).await)
        }
        ApiCall::CreateContact {
            club_id,
            contact,
            levels,
        } => ApiAnswer::ContactCreated(client.create_club_contact(club_id, &contact, levels).await),
        ApiCall::ListRequests {
            filter,
            sort,
            page,
            levels,
        } => ApiAnswer::Listing(
            client
                .list_club_requests(&filter, &sort, page, levels)
                .await,
        ),
        ApiCall::SearchClubs {
            query,
            page,
            levels,
        } => ApiAnswer::Clubs(client.search_clubs(&query, page, levels).await),
        ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(client.probe_update_route().await),
    }
}

/// Starts the worker task: at most `concurrency` calls in flight, results to `msgs`.
///
/// Calls wait in a queue, not as spawned tasks, so ten thousand queued reads cost a few
/// hundred kilobytes. Writes (approve, decline, delete, new contact) go to the front of the
/// queue: a decision never waits behind prefetching.
pub fn spawn(client: ApiClient, concurrency: usize, msgs: mpsc::UnboundedSender<Msg>) -> Worker {
    let (tx, mut rx) = mpsc::unbounded_channel::<(u64, ApiCall)>();
    let limit = concurrency.max(1);
    tokio::spawn(async move {
        let mut set: JoinSet<()> = JoinSet::new();
        let mut waiting: VecDeque<(u64, ApiCall)> = VecDeque::new();
        let mut open = true;
        let mut sent = client.limiter().watch_in_flight();
        loop {
            while set.len() < limit
                && let Some((request_id, call)) = waiting.pop_front()
            {
                let client = client.clone();
                let msgs = msgs.clone();
                set.spawn(async move {
                    let mutation = call.is_mutation();
                    let what = format!("{call:?}");
                    let answer = perform(&client, call).await;
                    if mutation {
                        tracing::info!(request_id, call = %what, ok = answer.is_ok(), "mutation answered");
                    } else {
                        tracing::debug!(request_id, call = %what, ok = answer.is_ok(), "read answered");
                    }
                    let _ = msgs.send(Msg::Api { request_id, answer });
                    if let Some(pace) = client.limiter().pace_changed() {
                        let _ = msgs.send(Msg::Pace {
                            limit: pace.limit,
                            slowed: pace.slowed,
                            in_flight: pace.in_flight,
                        });
                    }
                });
            }
            if !open && set.is_empty() && waiting.is_empty() {
                break;
            }
            tokio::select! {
                next = rx.recv(), if open => match next {
                    Some((request_id, call)) => {
                        if call.is_mutation() {
                            // Behind earlier writes, ahead of every read.
                            let pos = waiting.iter().position(|(_, c)| !c.is_mutation()).unwrap_or(waiting.len());
                            waiting.insert(pos, (request_id, call));
                        } else {
                            waiting.push_back((request_id, call));
                        }
                    }
                    None => open = false,
                },
                // The calls on the wire changed (the limiter let one out, or one was
                // answered): the status line counts those, not the calls queued.
                Ok(()) = sent.changed() => {
                    let pace = client.limiter().pace();
                    let in_flight = *sent.borrow_and_update();
                    let _ = msgs.send(Msg::Pace {
                        limit: pace.limit,
                        slowed: pace.slowed,
                        in_flight,
                    });
                }
                Some(res) = set.join_next(), if !set.is_empty() => {
                    if let Err(e) = res {
                        tracing::error!("an API task failed: {e}");
                    }
                }
            }
        }
    });
    Worker { tx }
}
