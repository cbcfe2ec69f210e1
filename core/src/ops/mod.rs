//! The logic every front end shares (the dashboard, the command line, serve-ssh): one
//! decision's life and what a write's answer means ([`decision`]; what a re-read of a lost
//! answer shows in [`reread`], and the one loop that re-reads until the outcome is known in
//! [`settle`]; a refusal's words and a bulk run's stop rule in [`refused`]), what the audit
//! says and its file ([`audit`]), the process's one writer of files, off every event loop
//! ([`writer`]),
//! how input is read ([`parse`]), how a club is read with its contacts whole ([`club_read`]), the writes an interrupted run left
//! open, found and settled at the next start ([`recover`]; the run locks that tell a live run
//! in [`runs`]), who
//! may delete ([`permit`]), and the runner that sends writes and waits for their truth
//! ([`run`], with its switches and clock in [`control`]).
//!
//! Written once here, never in a front end, which only presents what this decides. `ops`
//! uses the API client (`api`), the audit's English texts (`i18n`) and `text`; it knows no
//! front end, no terminal and no configuration.

pub mod action;
pub mod audit;
pub mod book;
pub mod club_read;
pub mod control;
pub mod decision;
pub mod history;
pub mod parse;
pub mod permit;
pub mod recover;
pub mod refused;
pub mod reread;
pub mod rotate;
pub mod run;
pub mod runs;
pub mod settle;
pub mod stats;
pub mod verdict;
pub mod writer;

pub use action::RowAction;
pub use audit::{AuditEntry, AuditLog, Outcome};
pub use run::{Control, Verdict};
