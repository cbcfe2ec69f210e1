//! The API layer: the only code that knows HTTP.
//!
//! - [`models`]: the envelope and the records (User, Club, ClubRequest, Student, Contact).
//! - [`client`]: [`ApiClient`], one async method per operation; [`options`]: what it is
//!   made from (credentials, transport options, the base URL check).
//! - [`error`]: [`ApiError`], classed for the UI; `error_text`: the same in the reader's
//!   language ([`ApiError::describe`]).
//! - [`query`]: the bracket query syntax of the deployed listings.
//! - [`route_probe`]: [`UpdateRoute`], whether approve and decline exist on this server.
//! - [`token`]: JWT expiry and pasted-token parsing.
//! - [`limit`]: the calls one process keeps in flight; [`budget`]: the calls all processes
//!   of this host keep in flight to one server; [`shared_listing`]: one listing read for
//!   the sessions of one `serve-ssh` that ask the same.

pub mod budget;
pub mod call_thread;
pub mod client;
pub mod error;
mod error_text;
pub mod limit;
pub mod models;
pub mod options;
pub mod plan;
pub mod query;
pub mod route_probe;
mod seen;
pub mod shared_listing;
pub mod token;

pub use client::{ApiClient, Link, Reply};
pub use error::{
    ApiError, AuthErrorKind, ConnectFailure, ErrorClass, ErrorInfo, ROLE_REFUSAL_DETAIL,
};
pub use models::*;
pub use options::{ClientOptions, Credentials, base_url_characters, validate_base_url};
pub use plan::Planned;
pub use query::{ClubQuery, Page, RequestFilter, RequestSortKey, Sort};
pub use route_probe::{UpdateRoute, classify_update_probe};
pub use token::{TokenError, jwt_expiry, parse_pasted_token};
