//! Bulk tracking, its second step: the rows confirmed on the preview are tracked one by one
//! by the API's own use case (`tidemark_app::Requests`: the same validation and duplicate
//! rule as `POST /v2/tracking_requests`), and the page shows each outcome as it happens
//! (the answer is streamed, a row at a time), then the summary: created, duplicate,
//! refused with its reasons. The rows are tracked to the end even if the page is closed;
//! the requests list shows what was made.

use askama::Template;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::HeaderValue;
use axum::http::header::CONTENT_TYPE;
use axum::response::Response;
use tidemark_domain::TrackingRequestDraft;
use tidemark_store::StoreError;
use tokio::sync::mpsc;

use super::bulk_read::ROWS_MAX;
use super::extract::PostedRows;
use super::{Chrome, ConsoleError, Viewer, with_headers};
use crate::{ApiError, AppState};

/// Where the rows go in the rendered page, and where the summary goes.
const ROWS: &str = "<!--rows-->";
const SUMMARY: &str = "<!--summary-->";

/// The page, rendered without its rows and summary, cut where they go.
#[derive(Template)]
#[template(path = "console/bulk_done.html")]
struct Page {
    chrome: Chrome,
    total: usize,
}

/// What became of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Created(String),
    Duplicate(Option<String>),
    Refused(String),
}

/// A row's line in the table.
#[derive(Template)]
#[template(
    source = r#"<tr data-row="{{ index }}"><td>{{ index }}</td><td>{{ number }}</td><td>{% match outcome %}{% when Outcome::Created with (id) %}<span class="pill ok">created</span> <a href="/console/requests?q={{ number|urlencode }}">{{ id }}</a>{% when Outcome::Duplicate with (id) %}<span class="pill warn">duplicate</span>{% if let Some(id) = id %} of {{ id }}{% endif %}{% when Outcome::Refused with (why) %}<span class="pill bad">refused</span> {{ why }}{% endmatch %}</td></tr>
"#,
    ext = "html"
)]
struct Line<'a> {
    index: usize,
    number: &'a str,
    outcome: &'a Outcome,
}

/// The summary once every row is done.
#[derive(Template)]
#[template(
    source = r#"<p class="notice" role="status" id="bulk-summary">Done: {{ created }} created, {{ duplicate }} duplicate, {{ refused }} refused.</p><p><a href="/console/requests">See the tracking requests →</a></p>"#,
    ext = "html"
)]
struct Summary {
    created: usize,
    duplicate: usize,
    refused: usize,
}

/// A confirmed row: its number, type and line.
#[derive(Debug)]
struct Row {
    number: String,
    kind: String,
    line: String,
}

/// Tracks `row` for `viewer`'s account.
async fn track(state: &AppState, viewer: &Viewer, row: Row) -> Outcome {
    let draft = TrackingRequestDraft {
        request_type: Some(row.kind),
        request_number: Some(row.number),
        scac: Some(row.line).filter(|line| !line.is_empty()),
        ..TrackingRequestDraft::default()
    };
    let new = match state.requests.validate(draft) {
        Ok(new) => new,
        Err(problems) => {
            return Outcome::Refused(ApiError::validation(&problems).details().join(" "));
        }
    };
    match state.requests.open(viewer.account_id, new).await {
        Ok(request) => Outcome::Created(request.id.to_string()),
        Err(StoreError::Duplicate { existing_id }) => {
            Outcome::Duplicate(existing_id.map(|id| id.to_string()))
        }
        Err(error) => Outcome::Refused(ApiError::from(error).details().join(" ")),
    }
}

/// `POST /console/requests/bulk/track`: tracks the confirmed rows, the page showing each
/// outcome as it comes.
pub async fn track_all(
    State(state): State<AppState>,
    PostedRows(posted): PostedRows,
) -> Result<Response, ConsoleError> {
    let (viewer, form) = (posted.viewer, posted.form);
    let (numbers, kinds, lines) = (form.each("number"), form.each("kind"), form.each("line"));
    let whole = kinds.len() == numbers.len() && lines.len() == numbers.len();
    if numbers.is_empty() || numbers.len() > ROWS_MAX || !whole {
        return Err(ConsoleError::bad_request(&format!(
            "Send the rows with the preview's form: 1 to {ROWS_MAX}, each with a type and a line."
        )));
    }
    let rows: Vec<Row> = numbers
        .iter()
        .zip(kinds.iter().zip(&lines))
        .map(|(number, (kind, line))| Row {
            number: (*number).to_owned(),
            kind: (*kind).to_owned(),
            line: (*line).to_owned(),
        })
        .collect();
    let page = Page {
        chrome: Chrome::new("Track many", "requests", &viewer),
        total: rows.len(),
    }
    .render()
    .map_err(ConsoleError::render)?;
    let (head, rest) = page.split_once(ROWS).unwrap_or((page.as_str(), ""));
    let (middle, tail) = rest.split_once(SUMMARY).unwrap_or((rest, ""));
    let (head, middle, tail) = (head.to_owned(), middle.to_owned(), tail.to_owned());
    let (chunks, answer) = mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    tokio::spawn(async move {
        // The page may be closed: every row is still tracked.
        let _ = chunks.send(Ok(Bytes::from(head))).await;
        let mut summary = Summary {
            created: 0,
            duplicate: 0,
            refused: 0,
        };
        for (offset, row) in rows.into_iter().enumerate() {
            let number = row.number.clone();
            let outcome = track(&state, &viewer, row).await;
            match outcome {
                Outcome::Created(_) => summary.created += 1,
                Outcome::Duplicate(_) => summary.duplicate += 1,
                Outcome::Refused(_) => summary.refused += 1,
            }
            let line = Line {
                index: offset + 1,
                number: &number,
                outcome: &outcome,
            };
            let _ = chunks
                .send(Ok(Bytes::from(line.render().unwrap_or_default())))
                .await;
        }
        let summary = summary.render().unwrap_or_default();
        let _ = chunks
            .send(Ok(Bytes::from(format!("{middle}{summary}{tail}"))))
            .await;
    });
    let body = Body::from_stream(futures_util::stream::unfold(answer, |mut answer| async {
        answer.recv().await.map(|chunk| (chunk, answer))
    }));
    let mut response = with_headers(body);
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    Ok(response)
}
