//! The dashboard's record of its decisions ([`Book`]: one [`Decision`] per request, a row's
//! marker derived from it), and the command line's for one run.

use std::collections::HashMap;

use uuid::Uuid;

use super::action::RowAction;
use super::decision::{Decision, Event, Illegal, Line, Stage};
use crate::api::Timestamp;

/// The decisions of one front end, one per request: the dashboard's whole record of what it
/// decided (a row's marker is derived from it), the command line's for one run.
#[derive(Debug, Clone, Default)]
pub struct Book {
    decisions: HashMap<Uuid, Decision>,
    started: u64,
}

impl Book {
    /// Starts a decision on `id` in `stage` (`Held` or `Sending`), replacing a settled one.
    ///
    /// Errors: [`Illegal`] when a decision on `id` is still alive (a request never has two
    /// writes at once, and a lost one is never sent again), or `stage` is not a first one.
    pub fn start(
        &mut self,
        id: Uuid,
        action: RowAction,
        batch: u64,
        stage: Stage,
    ) -> Result<(), Illegal> {
        if let Some(d) = self.decisions.get(&id).filter(|d| d.alive()) {
            return Err(Illegal {
                id,
                stage: d.stage.name(),
                event: "start",
            });
        }
        let mut d = Decision::new(id, action, batch, stage)?;
        self.started += 1;
        d.order = self.started;
        self.decisions.insert(id, d);
        Ok(())
    }

    /// Takes in a decision an interrupted run left open ([`Decision::recovered`]), in the
    /// order given.
    ///
    /// Errors: [`Illegal`] when a decision on `id` is still alive here.
    pub fn recover(&mut self, mut d: Decision) -> Result<(), Illegal> {
        if let Some(alive) = self.decisions.get(&d.id).filter(|x| x.alive()) {
            return Err(Illegal {
                id: d.id,
                stage: alive.stage.name(),
                event: "recover",
            });
        }
        self.started += 1;
        d.order = self.started;
        self.decisions.insert(d.id, d);
        Ok(())
    }

    /// Applies `event` to the decision on `id` ([`Decision::apply`]).
    ///
    /// Errors: [`Illegal`] when there is none or its stage does not allow the event.
    pub fn apply(&mut self, id: Uuid, event: Event) -> Result<Option<Line>, Illegal> {
        match self.decisions.get_mut(&id) {
            Some(d) => d.apply(event),
            None => Err(Illegal {
                id,
                stage: "none",
                event: event.name(),
            }),
        }
    }

    /// Puts the decision on `id` in a batch of its own, `batch` (a decision held again for a
    /// sign-in is taken back, or sent, on its own). Its stage does not change.
    pub fn regroup(&mut self, id: Uuid, batch: u64) {
        if let Some(d) = self.decisions.get_mut(&id) {
            d.batch = batch;
        }
    }

    /// The decision on `id` (the last one, when it is settled).
    pub fn get(&self, id: Uuid) -> Option<&Decision> {
        self.decisions.get(&id)
    }

    /// The decision on `id` while it is alive.
    pub fn alive(&self, id: Uuid) -> Option<&Decision> {
        self.get(id).filter(|d| d.alive())
    }

    /// Every decision (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = &Decision> {
        self.decisions.values()
    }

    /// The decisions whose stage `pick` takes, oldest batch first, each batch in the order
    /// its decisions were started.
    fn in_stage(&self, pick: impl Fn(&Stage) -> bool) -> Vec<&Decision> {
        let mut v: Vec<&Decision> = self.decisions.values().filter(|d| pick(&d.stage)).collect();
        v.sort_by_key(|d| (d.batch, d.order));
        v
    }

    /// Decisions made in `batch` (alive or not, while this table keeps them).
    pub fn batch_size(&self, batch: u64) -> usize {
        self.decisions.values().filter(|d| d.batch == batch).count()
    }

    /// The action of the decision on `id` while it is held or on its way: the row shows it
    /// ("approving…") and takes no other decision.
    pub fn deciding(&self, id: Uuid) -> Option<RowAction> {
        self.get(id)
            .filter(|d| matches!(d.stage, Stage::Held { .. } | Stage::Queued | Stage::Sending))
            .map(|d| d.action)
    }

    /// The held decisions, oldest batch first.
    pub fn held(&self) -> Vec<&Decision> {
        self.in_stage(|s| matches!(s, Stage::Held { .. }))
    }

    /// The decisions whose answer was lost and is not settled yet.
    pub fn lost(&self) -> Vec<&Decision> {
        self.in_stage(|s| matches!(s, Stage::Lost { .. }))
    }

    /// True when a decision's answer was lost and is not settled yet (without collecting
    /// them: asked after every answer).
    pub fn any_lost(&self) -> bool {
        self.decisions
            .values()
            .any(|d| matches!(d.stage, Stage::Lost { .. }))
    }

    /// Ids of the queued decisions (due, not on the wire: waiting for their turn or for the
    /// service), oldest batch first, each batch in the order its decisions were started.
    pub fn queued(&self) -> Vec<Uuid> {
        self.in_stage(|s| matches!(s, Stage::Queued))
            .iter()
            .map(|d| d.id)
            .collect()
    }

    /// True when a decision is queued (without collecting them: asked after every answer).
    pub fn any_queued(&self) -> bool {
        self.decisions
            .values()
            .any(|d| matches!(d.stage, Stage::Queued))
    }

    /// Decisions sent and not answered yet (counted, not collected: asked after every
    /// answer).
    pub fn sending(&self) -> usize {
        self.decisions
            .values()
            .filter(|d| matches!(d.stage, Stage::Sending))
            .count()
    }

    /// Ids of the decisions on the wire: sent and not answered, or answered with a lost
    /// answer not settled yet. Each may have been applied at any moment since it was sent,
    /// so a count the server made meanwhile may or may not include it.
    pub fn on_the_wire(&self) -> impl Iterator<Item = Uuid> + '_ {
        self.decisions
            .values()
            .filter(|d| matches!(d.stage, Stage::Sending | Stage::Lost { .. }))
            .map(|d| d.id)
    }

    /// Ids of the held decisions due at `now` (their `send_at` reached), oldest batch first.
    pub fn held_due(&self, now: Timestamp) -> Vec<Uuid> {
        self.in_stage(|s| matches!(s, Stage::Held { send_at } if *send_at <= now))
            .iter()
            .map(|d| d.id)
            .collect()
    }

    /// Ids of the lost decisions whose next re-read is due at `now`.
    pub fn reads_due(&self, now: Timestamp) -> Vec<Uuid> {
        self.in_stage(|s| matches!(s, Stage::Lost { next_read: Some(t), .. } if *t <= now))
            .iter()
            .map(|d| d.id)
            .collect()
    }

    /// When the next re-read is due, over every lost decision.
    pub fn next_read(&self) -> Option<Timestamp> {
        self.decisions
            .values()
            .filter_map(|d| match d.stage {
                Stage::Lost { next_read, .. } => next_read,
                Stage::Held { .. } | Stage::Queued | Stage::Sending | Stage::Settled(_) => None,
            })
            .min()
    }

    /// The action of the lost decision on `id`, when its answer was lost and is unsettled.
    pub fn lost_action(&self, id: Uuid) -> Option<RowAction> {
        self.get(id)
            .filter(|d| matches!(d.stage, Stage::Lost { .. }))
            .map(|d| d.action)
    }
}
