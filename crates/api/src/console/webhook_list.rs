//! The webhooks page: each webhook's health (`webhooks::webhook_rows`) and the form that
//! adds one (`webhook_forms::create`), shown again with what is wrong when refused.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::EventName;

use super::extract::PageQuery;
use super::format::event_phrase;
use super::webhooks::{WebhookRow, webhook_rows};
use super::{Chrome, ConsoleError, Viewer, html};
use crate::AppState;

/// The create form, as typed, with what is wrong with it.
#[derive(Debug, Default)]
pub struct WebhookForm {
    /// The URL typed.
    pub url: String,
    /// The events chosen (none: every event).
    pub events: Vec<String>,
    /// The headers, a `Name: value` a line.
    pub headers: String,
    /// What is wrong, in words.
    pub problems: Vec<String>,
}

/// What the list shows beside the webhooks: an empty form, the form refused, or what was
/// just done.
#[derive(Debug)]
pub enum Listed {
    /// An empty form and this notice (may be empty).
    Notice(&'static str),
    /// The form as typed, refused.
    Form(WebhookForm),
}

/// The webhooks page.
#[derive(Template)]
#[template(path = "console/webhooks.html")]
struct ListPage {
    chrome: Chrome,
    webhooks: Vec<WebhookRow>,
    form: WebhookForm,
    notice: &'static str,
    catalog: Vec<(String, String)>,
}

/// Every event a webhook can ask for, by name and in words.
pub fn catalog() -> Vec<(String, String)> {
    EventName::catalog()
        .into_iter()
        .map(|(name, _)| (name.to_string(), event_phrase(&name.to_string())))
        .collect()
}

/// The webhooks page of `viewer`, with `listed` beside the list.
pub async fn list_page(
    state: &AppState,
    viewer: &Viewer,
    listed: Listed,
) -> Result<Response, ConsoleError> {
    let (form, notice) = match listed {
        Listed::Notice(notice) => (WebhookForm::default(), notice),
        Listed::Form(form) => (form, ""),
    };
    let page = ListPage {
        chrome: Chrome::new("Webhooks", "webhooks", viewer),
        webhooks: webhook_rows(state, viewer.account_id).await?,
        form,
        notice,
        catalog: catalog(),
    };
    html(&page)
}

/// `GET /console/webhooks` (`?deleted=1` after a deletion).
pub async fn list(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(mut query): PageQuery,
) -> Result<Response, ConsoleError> {
    let notice = if query.take("deleted").is_some() {
        "The webhook and its delivery log were deleted."
    } else {
        ""
    };
    list_page(&state, &viewer, Listed::Notice(notice)).await
}
