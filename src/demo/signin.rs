//! The demo's sign-in pages, as the deployed service has them (api-notes.md): a browser
//! opens `{base_url}/auth/oauth/init`, signs in, and the last page shows JSON whose
//! `data.access_token` is the token to paste. The demo has no identity provider: the first
//! page lists the demo accounts and signing in is choosing one.

use std::collections::HashMap;

use axum::extract::{Query, State};
use axum::response::{Html, IntoResponse, Response};
use chrono::Utc;
use serde_json::json;

use super::routes::{AppState, error, ok};
use super::state::IssuedToken;

/// How long a token issued by the sign-in page lasts (the deployed tokens last a school
/// day; the demo's accounts use the same).
const TOKEN_HOURS: i64 = 8;

/// `GET /auth/oauth/init`: the accounts to sign in as, as links to the callback.
pub async fn init(State(state): State<AppState>) -> Response {
    let st = state.lock();
    let mut rows = String::new();
    for u in &st.users {
        rows.push_str(&format!(
            "<li><a href=\"/auth/oauth/callback?account={label}\">{label}</a>: {email} ({role})</li>\n",
            label = html_escape(&u.label),
            email = html_escape(&u.email),
            role = html_escape(&u.role),
        ));
    }
    Html(format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Sign in (demo)</title></head>\n<body><h1>Sign in to the demo club administration service</h1>\n<p>Choose an account. The next page shows JSON: paste it (or its <code>access_token</code>) into club-admin.</p>\n<ul>\n{rows}</ul></body></html>\n"
    ))
    .into_response()
}

/// `GET /auth/oauth/callback?account=LABEL`: a new token for that account, in the envelope
/// (`data.access_token`), as the deployed service's last sign-in page shows it.
pub async fn callback(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let mut st = state.lock();
    let label = q.get("account").map(String::as_str).unwrap_or("");
    let Some(idx) = st.users.iter().position(|u| u.label == label) else {
        return error(
            400,
            "invalid_request",
            "Unknown account: choose one on /auth/oauth/init",
        );
    };
    let expires = Utc::now() + chrono::Duration::hours(TOKEN_HOURS);
    let token = super::make_token(st.users[idx].id, expires);
    st.tokens
        .insert(token.clone(), IssuedToken { user: idx, expires });
    ok(
        json!({
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_HOURS * 3600,
        }),
        None,
    )
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
