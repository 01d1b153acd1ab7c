//! Bulk tracking, its first step: numbers pasted or uploaded (CSV or Excel) on the requests
//! page, each inferred as infer-number infers it (its type, the line suggested and the
//! decision; a sandbox number `TEST-…` suggests the sandbox line), shown in a preview with
//! the duplicates within the list and the invalid numbers marked, where the line and type
//! of each row can be fixed before anything is tracked (`bulk_create`).

use askama::Template;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use tidemark_domain::inference::{Decision, NumberType};
use tidemark_domain::{RequestType, Scac, infer};

use super::bulk_read::{self, Given, ROWS_MAX};
use super::format::words;
use super::{Chrome, ConsoleError, Viewer, answered_as, html};
use crate::AppState;
use crate::extract::{BodyDeadlines, read_body};

/// The most bytes an upload may have (a 5,000-row workbook is far smaller).
pub const UPLOAD_BYTES: usize = 4 * 1024 * 1024;

/// How a row stands before it is tracked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// Nothing against it.
    Fine,
    /// The same number as row `n` above.
    Duplicate(usize),
    /// Not a carrier's number: why.
    Invalid(String),
}

/// A row of the preview.
#[derive(Debug)]
pub struct PreviewRow {
    /// Its place in the list, from 1.
    pub index: usize,
    /// The number as given.
    pub number: String,
    /// The request type suggested (the wire value).
    pub kind: &'static str,
    /// The line given or suggested, or empty.
    pub line: String,
    /// The inference's decision, in words.
    pub decision: String,
    /// Duplicate or invalid.
    pub mark: Mark,
}

/// The preview of `given`, as infer-number sees each number.
fn preview(state: &AppState, given: Vec<Given>) -> Vec<PreviewRow> {
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut rows = Vec::with_capacity(given.len());
    for (offset, row) in given.into_iter().enumerate() {
        let index = offset + 1;
        let inference = infer(&state.carriers, &row.number);
        let sandbox = Scac::of_sandbox_number(&row.number);
        let suggested = inference.selected().map(|candidate| candidate.carrier.scac);
        let line = row
            .line
            .clone()
            .or_else(|| sandbox.or(suggested).map(|scac| scac.to_string()))
            .unwrap_or_default();
        let kind = inference
            .number_type
            .map_or(RequestType::BillOfLading, NumberType::request_type);
        let decision = if sandbox.is_some() {
            "the sandbox's number".to_owned()
        } else {
            match inference.decision() {
                Decision::AutoSelect => "line recognised".to_owned(),
                Decision::NeedsConfirmation => "line likely: please confirm".to_owned(),
                Decision::NoPrediction => "line not recognised: choose it".to_owned(),
            }
        };
        let key = inference.parsed_number.clone();
        let earlier = seen
            .iter()
            .find(|(number, _)| *number == key)
            .map(|(_, at)| *at);
        let mark = match (earlier, &inference.validation.problem) {
            (Some(first), _) => Mark::Duplicate(first),
            (None, Some(problem)) if sandbox.is_none() => Mark::Invalid(problem.to_string()),
            _ => Mark::Fine,
        };
        if earlier.is_none() {
            seen.push((key, index));
        }
        rows.push(PreviewRow {
            index,
            number: row.number,
            kind: kind.as_str(),
            line,
            decision,
            mark,
        });
    }
    rows
}

/// The preview page.
#[derive(Template)]
#[template(path = "console/bulk.html")]
struct Page {
    chrome: Chrome,
    rows: Vec<PreviewRow>,
    kinds: Vec<(&'static str, String)>,
    duplicates: usize,
    invalid: usize,
    problem: Option<String>,
    most: usize,
}

/// What was uploaded: the viewer, the token, the pasted text and the file.
pub struct Upload {
    viewer: Viewer,
    csrf: String,
    pasted: String,
    file: Option<(String, Vec<u8>)>,
}

impl FromRequest<AppState> for Upload {
    type Rejection = Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Response> {
        let (mut parts, body) = request.into_parts();
        let viewer = Viewer::from_request_parts(&mut parts, state).await?;
        let refused = |message: &str| ConsoleError::bad_request(message).into_response();
        let kind = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok());
        let boundary = kind
            .and_then(|kind| multer::parse_boundary(kind).ok())
            .ok_or_else(|| {
                refused("Send the numbers with the page's form (multipart/form-data).")
            })?;
        let headers = parts.headers.clone();
        let request = Request::from_parts(parts, body);
        let bytes = read_body(request, UPLOAD_BYTES, BodyDeadlines::of(&state.config))
            .await
            .map_err(|error| ConsoleError::from(error).into_response())?;
        let stream = futures_util::stream::once(async move {
            Ok::<_, std::convert::Infallible>(axum::body::Bytes::from(bytes))
        });
        let mut multipart = multer::Multipart::new(stream, boundary);
        let mut upload = Self {
            viewer,
            csrf: String::new(),
            pasted: String::new(),
            file: None,
        };
        let broken = |_| refused("The upload could not be read; send it again.");
        while let Some(field) = multipart.next_field().await.map_err(broken)? {
            let name = field.name().unwrap_or_default().to_owned();
            let file_name = field.file_name().map(str::to_owned);
            let content = field.bytes().await.map_err(broken)?;
            match (name.as_str(), file_name) {
                ("csrf", _) => upload.csrf = String::from_utf8_lossy(&content).into_owned(),
                ("numbers", _) => upload.pasted = String::from_utf8_lossy(&content).into_owned(),
                ("file", Some(file_name)) if !content.is_empty() => {
                    upload.file = Some((file_name, content.to_vec()));
                }
                _ => {}
            }
        }
        upload
            .viewer
            .check(&headers, &upload.csrf)
            .map_err(IntoResponse::into_response)?;
        Ok(upload)
    }
}

/// `POST /console/requests/bulk`: reads the numbers pasted or the file uploaded and shows
/// the preview; a file that cannot be read, or too many numbers, is said and nothing else
/// happens.
pub async fn upload(
    State(state): State<AppState>,
    upload: Upload,
) -> Result<Response, ConsoleError> {
    let given = match &upload.file {
        Some((name, bytes)) => bulk_read::file(name, bytes),
        None => bulk_read::pasted(&upload.pasted),
    };
    let viewer = upload.viewer;
    let (rows, problem) = match given {
        // Up to 5,000 inferences: off the runtime's threads.
        Ok(given) => {
            let state = state.clone();
            let rows = tokio::task::spawn_blocking(move || preview(&state, given))
                .await
                .map_err(|error| ConsoleError::from(crate::ApiError::internal(&error)))?;
            (rows, None)
        }
        Err(problem) => (Vec::new(), Some(problem)),
    };
    let count = |invalid: bool| {
        rows.iter()
            .filter(|row| match row.mark {
                Mark::Invalid(_) => invalid,
                Mark::Duplicate(_) => !invalid,
                Mark::Fine => false,
            })
            .count()
    };
    let page = Page {
        chrome: Chrome::new("Track many", "requests", &viewer),
        duplicates: count(false),
        invalid: count(true),
        kinds: RequestType::ALL
            .into_iter()
            .map(|kind| (kind.as_str(), words(kind.as_str())))
            .collect(),
        rows,
        most: ROWS_MAX,
        problem: problem.clone(),
    };
    if problem.is_some() {
        return answered_as(html(&page), axum::http::StatusCode::UNPROCESSABLE_ENTITY);
    }
    html(&page)
}
