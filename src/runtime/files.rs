//! The files the dashboard writes: the audit file (appended), the token and the saved
//! queue (replaced atomically, mode 0600). All of them are written by the process's one
//! writer ([`crate::ops::audit::Writer`]), never on the event loop.

pub use crate::ops::audit::{Writer, Written, write_private};
