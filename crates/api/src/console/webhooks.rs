//! Webhooks in the console: each one's health, its delivery log with every attempt, a
//! redeliver button per notification, a test send and the secret's rotation.

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use tidemark_domain::webhook::Webhook;
use tidemark_domain::{AccountId, EventName, WebhookId};
use tidemark_store::{NotificationFilter, PageRequest};

use super::extract::{PageQuery, Posted, Segment};
use super::format::{maybe_when, span, when};
use super::session::see_other;
use super::{Chrome, ConsoleError, Viewer, html};
use crate::{ApiError, AppState};

/// Notifications per page of a webhook's log.
const LOG_PAGE: u32 = 25;

/// Webhooks the console lists (the API's largest page).
const WEBHOOKS_SHOWN: u32 = 100;

/// A webhook as lists show it.
#[derive(Debug)]
pub struct WebhookRow {
    /// Its id, for the link.
    pub id: String,
    /// Where it delivers.
    pub url: String,
    /// `active`, or why it is not.
    pub state: String,
    /// Whether it is delivering.
    pub healthy: bool,
    /// The events it wants, or `every event`.
    pub events: String,
    /// Notifications due and not yet delivered.
    pub backlog: u64,
    /// Notifications attempted and not delivered (failed for good, or retrying).
    pub failing: u64,
    /// Notifications attempted at least once.
    pub attempted: u64,
    /// Whether every delivery attempted so far has failed.
    pub failing_every_delivery: bool,
}

async fn webhook_row(
    state: &AppState,
    webhook: &Webhook,
    backlogs: &[(WebhookId, u64)],
) -> Result<WebhookRow, ConsoleError> {
    let backlog = backlogs
        .iter()
        .find(|(id, _)| *id == webhook.id)
        .map_or(0, |(_, count)| *count);
    let outcomes = state
        .store
        .delivery_outcomes(webhook.account_id, webhook.id)
        .await?;
    Ok(WebhookRow {
        id: webhook.id.to_string(),
        url: webhook.url.to_string(),
        state: match (&webhook.disabled_reason, webhook.active) {
            (Some(reason), _) => format!("disabled: {reason}"),
            (None, true) => "active".into(),
            (None, false) => "paused".into(),
        },
        healthy: webhook.active
            && webhook.disabled_reason.is_none()
            && !outcomes.failing_every_delivery(),
        events: if webhook.events.is_empty() {
            "every event but Tidemark's own".into()
        } else {
            webhook.events.join(", ")
        },
        backlog,
        failing: outcomes.failing(),
        attempted: outcomes.attempted,
        failing_every_delivery: outcomes.failing_every_delivery(),
    })
}

/// Every webhook of `account`, with its backlog and failures.
pub async fn webhook_rows(
    state: &AppState,
    account: AccountId,
) -> Result<Vec<WebhookRow>, ConsoleError> {
    let page = PageRequest::first_rows(WEBHOOKS_SHOWN);
    let webhooks = state.store.list_webhooks(account, page).await?;
    let backlogs = state.store.webhook_backlogs().await?;
    let mut rows = Vec::with_capacity(webhooks.items.len());
    for webhook in &webhooks.items {
        rows.push(webhook_row(state, webhook, &backlogs).await?);
    }
    Ok(rows)
}

/// One attempt to deliver a notification.
#[derive(Debug)]
struct AttemptRow {
    at: String,
    outcome: String,
    ok: bool,
    latency_ms: u64,
}

/// A notification in the log.
#[derive(Debug)]
struct NotificationRow {
    id: String,
    event: String,
    status: &'static str,
    created: String,
    due: String,
    attempts: Vec<AttemptRow>,
}

/// What a test send did.
#[derive(Debug)]
pub struct TestResult {
    event: String,
    outcome: String,
    ok: bool,
    latency_ms: u64,
}

/// One webhook's page.
#[derive(Template)]
#[template(path = "console/webhook.html")]
struct WebhookPage {
    chrome: Chrome,
    webhook: WebhookRow,
    notifications: Vec<NotificationRow>,
    total: u64,
    page: u32,
    pages: u32,
    events: Vec<(String, String)>,
    /// The events it asks for, by name (none: every event), for the edit form.
    chosen: Vec<String>,
    /// Its headers, a `Name: value` a line, for the edit form.
    header_lines: String,
    /// Whether it is paused.
    paused: bool,
    tested: Option<TestResult>,
    notice: String,
    /// How long a rotated-out secret keeps signing, in words; `None`: not at all.
    grace: Option<String>,
    /// How long the log keeps a settled notification, in words.
    retention: String,
}

fn outcome(status_code: Option<u16>, error: Option<&str>) -> (String, bool) {
    match (status_code, error) {
        (Some(code), _) => (
            format!("HTTP {code}"),
            tidemark_domain::webhook::delivered(code),
        ),
        (None, Some(error)) => (error.to_owned(), false),
        (None, None) => ("no answer".into(), false),
    }
}

/// The webhook `id` of `viewer`'s account, or 404.
pub async fn find(state: &AppState, viewer: &Viewer, id: &str) -> Result<Webhook, ConsoleError> {
    ConsoleError::found(state.store.as_ref(), viewer.account_id, id).await
}

/// Renders the page of `webhook`, its log at page `number`.
pub async fn render(
    state: &AppState,
    viewer: &Viewer,
    webhook: &Webhook,
    number: u32,
    tested: Option<TestResult>,
    notice: String,
) -> Result<Response, ConsoleError> {
    let account = viewer.account_id;
    let filter = NotificationFilter {
        webhook_id: Some(webhook.id),
        ..NotificationFilter::default()
    };
    let page = PageRequest::new(number, LOG_PAGE);
    let log = state
        .store
        .list_webhook_notifications(account, &filter, page)
        .await?;
    let ids: Vec<_> = log.items.iter().map(|n| n.id).collect();
    let attempts = state.store.notification_attempts(account, &ids).await?;
    let notifications = log
        .items
        .iter()
        .map(|notification| NotificationRow {
            id: notification.id.to_string(),
            event: notification.event.clone(),
            status: notification.delivery_status.as_str(),
            created: when(notification.created_at),
            due: maybe_when(notification.due_at),
            attempts: attempts
                .iter()
                .filter(|logged| logged.notification_id == notification.id)
                .map(|logged| {
                    let attempt = &logged.attempt;
                    let (outcome, ok) = outcome(attempt.status_code, attempt.error.as_deref());
                    AttemptRow {
                        at: when(attempt.at),
                        outcome,
                        ok,
                        latency_ms: attempt.latency_ms,
                    }
                })
                .collect(),
        })
        .collect();
    let backlogs = state.store.webhook_backlogs().await?;
    let page = WebhookPage {
        chrome: Chrome::new("Webhook", "webhooks", viewer),
        webhook: webhook_row(state, webhook, &backlogs).await?,
        notifications,
        total: log.total,
        page: number,
        pages: u32::try_from(log.total.div_ceil(u64::from(LOG_PAGE))).unwrap_or(u32::MAX),
        events: super::webhook_list::catalog(),
        chosen: webhook.events.clone(),
        header_lines: webhook
            .headers
            .iter()
            .map(|header| format!("{}: {}", header.name, header.value))
            .collect::<Vec<_>>()
            .join("\n"),
        paused: !webhook.active,
        tested,
        notice,
        grace: Some(state.webhooks.secret_grace().as_secs())
            .filter(|seconds| *seconds > 0)
            .map(span),
        retention: span(state.config.webhook_retention.duration().as_secs()),
    };
    html(&page)
}

/// `GET /console/webhooks/{id}`: the webhook and its delivery log (`?page=N`).
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    Segment(id): Segment,
    PageQuery(mut query): PageQuery,
) -> Result<Response, ConsoleError> {
    let webhook = find(&state, &viewer, &id).await?;
    let number = query
        .take("page")
        .and_then(|text| text.parse::<u32>().ok())
        .filter(|number| *number >= 1)
        .unwrap_or(1);
    let done = [
        ("changed", "The webhook was changed."),
        (
            "paused",
            "Deliveries are paused; what is recorded meanwhile waits for a resume.",
        ),
        ("resumed", "Deliveries are resumed."),
    ];
    let notice = query
        .take("redelivered")
        .map(|id| format!("Notification {id} is due again; the dispatcher sends it now."))
        .or_else(|| {
            let mut said = done.iter().filter(|(key, _)| query.take(key).is_some());
            said.next().map(|(_, words)| (*words).to_owned())
        })
        .unwrap_or_default();
    render(&state, &viewer, &webhook, number, None, notice).await
}

/// `POST /console/webhooks/{id}/test`: sends a sample of the chosen event now and shows
/// what the receiver answered.
pub async fn test(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    let webhook = find(&state, &viewer, &id).await?;
    let name = form
        .get("event")
        .and_then(EventName::parse)
        .ok_or_else(|| ConsoleError::from(ApiError::not_found("Tidemark records no such event")))?;
    let (notification, exchange, _) = state.webhooks.send_sample(&webhook, &name.name()).await?;
    let attempt = exchange.attempt;
    let (outcome, ok) = outcome(attempt.status_code, attempt.error.as_deref());
    let tested = TestResult {
        event: notification.event,
        outcome,
        ok,
        latency_ms: attempt.latency_ms,
    };
    render(&state, &viewer, &webhook, 1, Some(tested), String::new()).await
}

/// `POST /console/webhooks/{id}/rotate`: a new secret now (as `POST
/// /v2/webhooks/{id}/rotate_secret`), shown once on the page this answers with; never in
/// a URL.
pub async fn rotate(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form: _ }: Posted,
) -> Result<Response, ConsoleError> {
    let webhook = find(&state, &viewer, &id).await?;
    let rotated = state.webhooks.rotate(&webhook).await?;
    let old = match &rotated.previous_secret {
        Some(previous) => format!(
            "The old one signs beside it until {}.",
            when(previous.until)
        ),
        None => "The old one no longer signs.".to_owned(),
    };
    let notice = format!(
        "New secret: {}. Copy it now for your receiver. {old}",
        rotated.secret.expose()
    );
    render(&state, &viewer, &rotated, 1, None, notice).await
}

/// `POST /console/notifications/{id}/redeliver`: makes the notification due now and goes
/// back to its webhook's log.
pub async fn redeliver(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form: _ }: Posted,
) -> Result<Response, ConsoleError> {
    let id = tidemark_domain::WebhookNotificationId::parse(&id)
        .ok_or_else(|| ConsoleError::not_found("webhook notification"))?;
    let notification = state.webhooks.redeliver(viewer.account_id, id).await?;
    Ok(see_other(&format!(
        "/console/webhooks/{}?redelivered={}",
        notification.webhook_id, notification.id
    )))
}
