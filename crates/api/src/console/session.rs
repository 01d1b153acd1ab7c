//! Signing in and out of the console, and who is looking.
//!
//! The API key itself is the session: kept in the `tidemark_session` cookie, `HttpOnly`
//! (no script reads it), `SameSite=Strict` (no other site's page sends it), scoped to
//! `/console` and never in browser storage. Each page verifies it through the same key
//! cache as the API, so a revoked key signs its sessions out within a second. Forms that
//! change something carry a token bound to the key ([`ApiKeySecret::bound_token`]) and are
//! refused when it differs or when the browser says they came from another site.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, State};
use axum::http::header::{COOKIE, HOST, LOCATION, ORIGIN, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;
use tidemark_domain::{AccountId, ApiKeySecret};

use super::extract::FormBody;
use super::{Chrome, ConsoleError, html, with_headers};
use crate::AppState;

/// The session cookie's name.
const COOKIE_NAME: &str = "tidemark_session";

/// What the CSRF token is bound to, beside the key.
const CSRF_PURPOSE: &str = "tidemark console form";

/// The signed-in person: the account their key belongs to, and their forms' token.
#[derive(Debug, Clone)]
pub struct Viewer {
    /// The account every page is scoped to.
    pub account_id: AccountId,
    /// The token forms must carry.
    pub csrf: String,
    /// The visible prefix of the key signed in with.
    pub key_prefix: String,
}

/// A `303 See Other` to `to`, with the console's headers.
pub fn see_other(to: &str) -> Response {
    let mut response = with_headers(StatusCode::SEE_OTHER);
    if let Ok(value) = HeaderValue::from_str(to) {
        response.headers_mut().insert(LOCATION, value);
    }
    response
}

/// The key in the session cookie, if any is there and has the shape of a key.
fn session_key(headers: &HeaderMap) -> Option<ApiKeySecret> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|text| text.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .and_then(|(_, value)| ApiKeySecret::parse(value.trim()))
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let signed_out = || see_other("/console/sign-in");
        let key = session_key(&parts.headers).ok_or_else(signed_out)?;
        let record = state
            .keys
            .verified(&key, state.store.as_ref(), state.clock.now())
            .await
            .map_err(|error| ConsoleError::from(error).into_response())?
            .ok_or_else(signed_out)?;
        tracing::Span::current().record("account", tracing::field::display(record.account_id));
        Ok(Self {
            account_id: record.account_id,
            csrf: key.bound_token(CSRF_PURPOSE),
            key_prefix: record.prefix,
        })
    }
}

/// A submitted form's fields (`application/x-www-form-urlencoded`), repeated names kept.
#[derive(Debug, Default)]
pub struct FormData(Vec<(String, String)>);

impl FormData {
    /// Reads `body`.
    #[must_use]
    pub fn parse(body: &[u8]) -> Self {
        Self(form_urlencoded::parse(body).into_owned().collect())
    }

    /// A field, trimmed (the first, when the form repeats it); `None` when absent or blank.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.all(name).into_iter().next()
    }

    /// Every value of a field the form repeats (a multiple choice), trimmed, blanks left out.
    #[must_use]
    pub fn all(&self, name: &str) -> Vec<&str> {
        let mut values = self.each(name);
        values.retain(|value| !value.is_empty());
        values
    }

    /// Every value of a field the form repeats, trimmed, blanks kept: the fields of a
    /// table's rows, read by position.
    #[must_use]
    pub fn each(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(given, _)| given == name)
            .map(|(_, value)| value.trim())
            .collect()
    }
}

/// Whether the browser says the request came from another site (`Sec-Fetch-Site`, or an
/// `Origin` whose host is not the one asked).
fn cross_site(headers: &HeaderMap) -> bool {
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|value| value.to_str().ok());
    if matches!(fetch_site, Some("cross-site" | "same-site")) {
        return true;
    }
    let origin = headers.get(ORIGIN).and_then(|value| value.to_str().ok());
    let host = headers.get(HOST).and_then(|value| value.to_str().ok());
    match (origin, host) {
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_none_or(|(_, authority)| authority != host),
        _ => false,
    }
}

impl Viewer {
    /// Reads a form this viewer submitted, refusing it (403) when its token is not theirs
    /// or it came from another site.
    ///
    /// # Errors
    /// 403 for a forged form.
    pub fn form(&self, headers: &HeaderMap, body: &Bytes) -> Result<FormData, ConsoleError> {
        let form = FormData::parse(body);
        self.check(headers, form.get("csrf").unwrap_or_default())?;
        Ok(form)
    }

    /// Nothing, when `given` is this viewer's form token and the browser does not say the
    /// form came from another site.
    ///
    /// # Errors
    /// 403 otherwise.
    pub fn check(&self, headers: &HeaderMap, given: &str) -> Result<(), ConsoleError> {
        let matches: bool = given.trim().as_bytes().ct_eq(self.csrf.as_bytes()).into();
        if !matches || cross_site(headers) {
            return Err(ConsoleError::forbidden(
                "this form did not come from your console page; reload the page and try again",
            ));
        }
        Ok(())
    }
}

/// The sign-in page.
#[derive(Template)]
#[template(path = "console/sign_in.html")]
struct SignIn {
    chrome: Chrome,
    problem: Option<String>,
}

fn sign_in_form(problem: Option<String>) -> Result<Response, ConsoleError> {
    let status = if problem.is_some() {
        StatusCode::UNAUTHORIZED
    } else {
        StatusCode::OK
    };
    let page = SignIn {
        chrome: Chrome {
            title: "Sign in".into(),
            section: "",
            csrf: String::new(),
        },
        problem,
    };
    let mut response = html(&page)?;
    *response.status_mut() = status;
    Ok(response)
}

/// `GET /console/sign-in`.
pub async fn sign_in_page() -> Result<Response, ConsoleError> {
    sign_in_form(None)
}

/// `POST /console/sign-in`: checks the key and keeps it in the session cookie.
pub async fn sign_in(
    State(state): State<AppState>,
    headers: HeaderMap,
    FormBody(body): FormBody,
) -> Result<Response, ConsoleError> {
    if cross_site(&headers) {
        return Err(ConsoleError::forbidden("sign in from Tidemark's own page"));
    }
    let form = FormData::parse(&body);
    let refused = || sign_in_form(Some("This API key is not valid, or it was revoked.".into()));
    let Some(key) = form.get("key").and_then(ApiKeySecret::parse) else {
        return refused();
    };
    if state
        .keys
        .verified(&key, state.store.as_ref(), state.clock.now())
        .await?
        .is_none()
    {
        return refused();
    }
    let mut response = see_other("/console");
    let cookie = format!(
        "{COOKIE_NAME}={}; Path=/console; HttpOnly; SameSite=Strict",
        key.expose()
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    Ok(response)
}

/// `POST /console/sign-out`: forgets the session cookie.
pub async fn sign_out(_checked: super::extract::Posted) -> Result<Response, ConsoleError> {
    let mut response = see_other("/console/sign-in");
    response.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static(
            "tidemark_session=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0",
        ),
    );
    Ok(response)
}
