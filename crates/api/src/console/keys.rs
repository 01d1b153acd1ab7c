//! The account's API keys in the console: each one's name, visible prefix, when it was made
//! and last used (to the hour), never its secret; a form that makes a key and shows its
//! secret once, on the page it answers with (never in a URL); and a revoke button per key.
//! A revocation reaches every process within a second (`auth/keys.rs`), the console's own
//! session too when it is the key signed in with.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use tidemark_domain::account::key_name;
use tidemark_domain::{ApiKey, ApiKeyRecord};

use super::extract::{PageQuery, Posted, Segment};
use super::format::{maybe_when, when};
use super::session::see_other;
use super::{Chrome, ConsoleError, Viewer, answered_as, html};
use crate::AppState;

/// A key as the page lists it.
#[derive(Debug)]
struct KeyRow {
    name: String,
    prefix: String,
    created: String,
    last_used: String,
    revoked: Option<String>,
    /// The key this session is signed in with.
    current: bool,
}

/// The keys page.
#[derive(Template)]
#[template(path = "console/keys.html")]
struct Page {
    chrome: Chrome,
    keys: Vec<KeyRow>,
    /// A new key's secret, shown once.
    secret: Option<String>,
    notice: String,
    problem: Option<String>,
    name: String,
}

/// What the page shows beside the list.
#[derive(Debug, Default)]
struct Shown {
    secret: Option<String>,
    notice: String,
    problem: Option<String>,
    name: String,
}

async fn render(state: &AppState, viewer: &Viewer, shown: Shown) -> Result<Response, ConsoleError> {
    let keys = state.store.list_api_keys(Some(viewer.account_id)).await?;
    let row = |key: &ApiKeyRecord| KeyRow {
        name: key.name.clone().unwrap_or_else(|| "—".to_owned()),
        prefix: key.prefix.clone(),
        created: when(key.created_at),
        last_used: maybe_when(key.last_used_at),
        revoked: key.revoked_at.map(when),
        current: key.prefix == viewer.key_prefix,
    };
    let page = Page {
        chrome: Chrome::new("API keys", "keys", viewer),
        keys: keys.iter().rev().map(row).collect(),
        secret: shown.secret,
        notice: shown.notice,
        problem: shown.problem,
        name: shown.name,
    };
    html(&page)
}

/// `GET /console/keys` (`?revoked=<prefix>` after a revocation).
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(mut query): PageQuery,
) -> Result<Response, ConsoleError> {
    let notice = query
        .take("revoked")
        .map(|prefix| format!("Key {prefix} is revoked; it authenticates nothing from now on."))
        .unwrap_or_default();
    render(
        &state,
        &viewer,
        Shown {
            notice,
            ..Shown::default()
        },
    )
    .await
}

/// `POST /console/keys`: makes a key for the account; its secret is shown once.
pub async fn create(
    State(state): State<AppState>,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    let typed = form.get("name").unwrap_or_default().to_owned();
    let name = match key_name(&typed) {
        Ok(name) => name,
        Err(problem) => {
            let shown = Shown {
                problem: Some(problem),
                name: typed,
                ..Shown::default()
            };
            return answered_as(
                render(&state, &viewer, shown).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let mut key = ApiKey::generate(viewer.account_id, state.clock.now());
    key.record.name = Some(name);
    state.store.insert_api_key(&key.record).await?;
    let shown = Shown {
        secret: Some(key.secret.expose().to_owned()),
        ..Shown::default()
    };
    render(&state, &viewer, shown).await
}

/// `POST /console/keys/{prefix}/revoke`: revokes one of the account's keys.
pub async fn revoke(
    State(state): State<AppState>,
    Segment(prefix): Segment,
    Posted { viewer, form: _ }: Posted,
) -> Result<Response, ConsoleError> {
    let keys = state.store.list_api_keys(Some(viewer.account_id)).await?;
    if !keys.iter().any(|key| key.prefix == prefix) {
        return Err(ConsoleError::not_found("API key"));
    }
    state
        .store
        .revoke_api_key(&prefix, state.clock.now())
        .await?;
    if prefix == viewer.key_prefix {
        return Ok(see_other("/console/sign-in"));
    }
    Ok(see_other(&format!("/console/keys?revoked={prefix}")))
}
