//! `POST /v2/tracking_requests/infer_number`: the type and likely carrier of a bare number
//! (api.md §3). Plain JSON in and out, as clients of the reference API send it.

use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::Value;
use tidemark_domain::inference::input::check_number;
use tidemark_domain::{ValidationCode, infer};
use tidemark_wire::infer_number::ResultDocument;
use utoipa::ToSchema;

use crate::auth::Scope;
use crate::extract::Input;
use crate::{ApiError, AppState};

/// The request body.
#[derive(Debug, ToSchema)]
#[schema(as = InferNumberRequest, example = json!({"number": "MSKU3054388"}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document; the body is read as JSON"
)]
pub struct InferNumberRequest {
    /// A container, bill of lading or booking number. Spaces and hyphens are ignored,
    /// case does not matter.
    #[schema(min_length = 1, max_length = 64, pattern = "[^ \\t\\r\\n]")]
    number: String,
}

/// The `number` member, checked: present, a string, not blank, not too long.
fn number(body: &Value) -> Result<&str, ApiError> {
    let invalid = |code, detail: String, pointer: &str| {
        ApiError::unprocessable(vec![(pointer.to_owned(), code, detail)])
    };
    let Some(object) = body.as_object() else {
        return Err(ApiError::malformed_json(
            "the body must be a JSON object: {\"number\": \"…\"}",
            Some(""),
        ));
    };
    if let Some(unknown) = object.keys().find(|key| key.as_str() != "number") {
        return Err(invalid(
            ValidationCode::Invalid,
            format!("{unknown:?} is not a member of this body; send only \"number\""),
            &format!("/{}", crate::body::escape_pointer(unknown)),
        ));
    }
    match object.get("number") {
        None | Some(Value::Null) => Err(invalid(
            ValidationCode::Blank,
            "number is required".to_owned(),
            "/number",
        )),
        Some(Value::String(text)) => match check_number(text) {
            Ok(()) => Ok(text),
            Err((code, detail)) => Err(invalid(code, detail, "/number")),
        },
        Some(_) => Err(invalid(
            ValidationCode::Invalid,
            "number must be a string".to_owned(),
            "/number",
        )),
    }
}

/// The routes of this operation.
pub fn routes() -> Router<AppState> {
    Router::new().route("/v2/tracking_requests/infer_number", post(infer_number))
}

/// Infer a number's type and carrier.
///
/// Validates the number (ISO 6346 for containers) and predicts its type and the shipping
/// line from the carrier data matrix, with a confidence and the evidence for each
/// candidate. Nothing is stored. Own rate limit (200 per minute by default).
#[utoipa::path(post, path = "/v2/tracking_requests/infer_number", operation_id = "inferNumber", tag = "Tracking requests",
    request_body(content = InferNumberRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The inference; an invalid number is a 200 with `validation.is_valid: false`.", body = ResultDocument, content_type = "application/json"),
        (status = 422, description = "`blank`, `too_long` or `invalid` at `/number`, or an unknown member."),
    ),
)]
pub async fn infer_number(
    scope: Scope,
    Input(body): Input,
) -> Result<(StatusCode, Json<ResultDocument>), ApiError> {
    let number = number(&body)?;
    let inference = infer(&scope.carriers, number);
    Ok((StatusCode::OK, Json(ResultDocument::of(&inference))))
}
