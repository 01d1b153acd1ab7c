//! Tracking requests in the console: the list with its status filter and search, the
//! create form, and the carrier suggestion the form asks for as a number is typed.

use askama::Template;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tidemark_domain::{
    RequestStatus, RequestType, Timestamp, TrackingRequest, TrackingRequestDraft, infer,
};
use tidemark_store::{PageRequest, TrackingRequestFilter};

use super::export::Format;
use super::extract::{PageQuery, Posted};
use super::format::{relative, when, words};
use super::session::{FormData, see_other};
use super::{Chrome, ConsoleError, Viewer, answered_as, html, tables};
use crate::{ApiError, AppState};
use tidemark_domain::inference::input::check_number;
use tidemark_wire::infer_number::attributes;

/// Requests per page of the list.
const PAGE_SIZE: u32 = 25;

/// A tracking request as the lists show it.
#[derive(Debug)]
pub struct RequestRow {
    /// Its id.
    pub id: String,
    /// The number asked for.
    pub number: String,
    /// Bill of lading, booking or container, in words.
    pub kind: String,
    /// The line's SCAC, when given.
    pub scac: String,
    /// Its status (wire name, for the badge's style).
    pub status: &'static str,
    /// Why it failed, in words, or whether it is retrying.
    pub note: String,
    /// When it was made, and how long ago.
    pub created: String,
    /// Its shipment, once found.
    pub shipment_id: Option<String>,
}

/// The summary of `request` at `now`.
#[must_use]
pub fn request_row(request: &TrackingRequest, now: Timestamp) -> RequestRow {
    let note = match (&request.failed_reason, request.is_retrying) {
        (Some(reason), _) => words(reason.as_str()),
        (None, true) => format!(
            "retrying (attempt {})",
            request.retry_count.unwrap_or_default()
        ),
        (None, false) => String::new(),
    };
    RequestRow {
        id: request.id.to_string(),
        number: request.request_number.to_string(),
        kind: words(request.request_type.as_str()),
        scac: request
            .scac
            .map(|scac| scac.to_string())
            .unwrap_or_default(),
        status: request.status.as_str(),
        note,
        created: format!(
            "{} ({})",
            when(request.created_at),
            relative(request.created_at, now)
        ),
        shipment_id: request.tracked_object.map(|id| id.to_string()),
    }
}

/// What the create form holds, to show again after a refusal.
#[derive(Debug, Default)]
struct Draft {
    number: String,
    kind: String,
    scac: String,
    problems: Vec<String>,
}

/// The requests page.
#[derive(Template)]
#[template(path = "console/requests.html")]
struct Page {
    chrome: Chrome,
    rows: Vec<RequestRow>,
    total: u64,
    statuses: Vec<(&'static str, String)>,
    status: String,
    q: String,
    page: u32,
    pages: u32,
    kinds: Vec<(&'static str, String)>,
    draft: Draft,
    created: String,
}

/// The list's filter as the page's query gives it.
struct Shown {
    status: Option<RequestStatus>,
    q: String,
    page: u32,
    created: String,
}

impl Shown {
    fn filter(&self) -> TrackingRequestFilter {
        TrackingRequestFilter {
            status: self.status.into_iter().collect(),
            search: Some(self.q.clone()).filter(|q| !q.is_empty()),
            ..TrackingRequestFilter::default()
        }
    }
}

async fn render(
    state: &AppState,
    viewer: &Viewer,
    shown: Shown,
    draft: Draft,
) -> Result<Response, ConsoleError> {
    let filter = shown.filter();
    let page = PageRequest::new(shown.page, PAGE_SIZE);
    let found = state
        .store
        .list_tracking_requests(viewer.account_id, &filter, page)
        .await?;
    let now = state.clock.now();
    let page = Page {
        chrome: Chrome::new("Tracking requests", "requests", viewer),
        rows: found.items.iter().map(|r| request_row(r, now)).collect(),
        total: found.total,
        statuses: RequestStatus::ALL
            .into_iter()
            .map(|status| (status.as_str(), words(status.as_str())))
            .collect(),
        status: shown
            .status
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        q: shown.q,
        page: shown.page,
        pages: u32::try_from(found.total.div_ceil(u64::from(PAGE_SIZE))).unwrap_or(u32::MAX),
        kinds: RequestType::ALL
            .into_iter()
            .map(|kind| (kind.as_str(), words(kind.as_str())))
            .collect(),
        draft,
        created: shown.created,
    };
    html(&page)
}

/// `GET /console/requests?status=…&q=…&page=N`.
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(mut query): PageQuery,
) -> Result<Response, ConsoleError> {
    let shown = Shown {
        status: query.take("status").and_then(|s| RequestStatus::parse(&s)),
        q: query
            .take("q")
            .map(|q| q.trim().to_owned())
            .unwrap_or_default(),
        page: query
            .take("page")
            .and_then(|text| text.parse::<u32>().ok())
            .filter(|number| *number >= 1)
            .unwrap_or(1),
        created: query.take("created").unwrap_or_default(),
    };
    let format = Format::take(&mut query)?;
    if format != Format::Page {
        return Ok(tables::exported(&state, viewer.account_id, format, shown.filter()).await?);
    }
    render(&state, &viewer, shown, Draft::default()).await
}

/// Creates a request from the form by the API's own use case (`tidemark_app::Requests`).
async fn open(
    state: &AppState,
    viewer: &Viewer,
    form: &FormData,
) -> Result<TrackingRequest, ApiError> {
    let draft = TrackingRequestDraft {
        request_type: form.get("request_type").map(str::to_owned),
        request_number: form.get("request_number").map(str::to_owned),
        scac: form.get("scac").map(str::to_owned),
        auto_detect_scac: false,
        ref_numbers: Vec::new(),
        shipment_tags: Vec::new(),
    };
    let new = state
        .requests
        .validate(draft)
        .map_err(|problems| ApiError::validation(&problems))?;
    Ok(state.requests.open(viewer.account_id, new).await?)
}

/// `POST /console/requests`: creates a tracking request, or shows the form again with
/// what is wrong.
pub async fn create(
    State(state): State<AppState>,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    match open(&state, &viewer, &form).await {
        Ok(request) => Ok(see_other(&format!(
            "/console/requests?created={}",
            request.id
        ))),
        Err(error) if error.status().is_client_error() => {
            let status = error.status();
            let draft = Draft {
                number: form.get("request_number").unwrap_or_default().to_owned(),
                kind: form.get("request_type").unwrap_or_default().to_owned(),
                scac: form.get("scac").unwrap_or_default().to_owned(),
                problems: error.details().into_iter().map(str::to_owned).collect(),
            };
            let shown = Shown {
                status: None,
                q: String::new(),
                page: 1,
                created: String::new(),
            };
            answered_as(render(&state, &viewer, shown, draft).await, status)
        }
        Err(error) => Err(error.into()),
    }
}

/// `GET /console/infer?number=…`: the inference of a number, as infer-number answers it
/// (its `attributes`), for the create form's suggestion; 422 for a blank or overlong one.
pub async fn infer_suggestion(
    State(state): State<AppState>,
    _viewer: Viewer,
    PageQuery(mut query): PageQuery,
) -> Response {
    let number = query.take("number").unwrap_or_default();
    if check_number(&number).is_err() {
        return StatusCode::UNPROCESSABLE_ENTITY.into_response();
    }
    let inference = infer(&state.carriers, &number);
    let mut answer = serde_json::to_value(attributes(&inference)).unwrap_or_default();
    // A sandbox number (`TEST-…`) is tracked with the sandbox line, whatever its shape.
    if let (Some(line), Some(fields)) = (
        tidemark_domain::Scac::of_sandbox_number(&number),
        answer.as_object_mut(),
    ) {
        fields.insert("sandbox_scac".into(), line.to_string().into());
    }
    let mut response = Json(answer).into_response();
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    response
}
