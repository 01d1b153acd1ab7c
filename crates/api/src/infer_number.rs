//! `POST /v2/tracking_requests/infer_number`: the type and likely carrier of a bare number
//! (api.md §3). Plain JSON in and out, as clients of the reference API send it.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::Value;
use tidemark_domain::inference::FormatKind;
use tidemark_domain::{Candidate, Decision, Inference, NumberType, ValidationCode, infer};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::extract::{JsonBody, QueryParams};
use crate::{ApiError, AppState};
use tidemark_wire::wire_enum_schema;

/// The longest `number` accepted, in characters (api.md §3).
pub const NUMBER_CHARS: usize = 64;

/// The JSON type of the result.
const TYPE: &str = "infer_number_results";

wire_enum_schema!(
    DecisionSchema,
    "InferenceDecision",
    "`auto_select` at confidence ≥ 0.95, `needs_confirmation` from 0.70, else `no_prediction`.",
    Decision::ALL
);
wire_enum_schema!(
    FormatKindSchema,
    "ValidationKind",
    "Which format rules judged the number: ISO 6346 (`container`) or the carriers' bill of lading and booking shapes (`shipment`).",
    FormatKind::ALL
);

/// The request body.
#[derive(Debug, ToSchema)]
#[schema(as = InferNumberRequest, example = json!({"number": "MSKU3054388"}))]
#[allow(dead_code)]
pub struct InferNumberRequest {
    /// A container, bill of lading or booking number. Spaces and hyphens are ignored,
    /// case does not matter.
    #[schema(min_length = 1, max_length = 64, pattern = "[^ \\t\\r\\n]")]
    number: String,
}

/// The format verdict.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberValidation)]
pub struct ValidationView {
    /// True when the format is valid, false when invalid, null when it cannot be judged
    /// (a bare number of no known shape).
    is_valid: Option<bool>,
    /// Which rules applied.
    #[serde(rename = "type")]
    #[schema(schema_with = <FormatKindSchema as utoipa::PartialSchema>::schema)]
    kind: &'static str,
    /// The ISO 6346 check digit result for container numbers; null otherwise.
    check_digit_passed: Option<bool>,
    /// The number in normal form (upper case, no spaces or hyphens).
    parsed_number: String,
    /// Why the number is invalid; null when it is not.
    reason: Option<String>,
    /// Doubts that do not make the number invalid but keep it from being auto-selected,
    /// such as a container serial that runs like a placeholder (`345678`). Empty when
    /// there are none.
    notes: Vec<String>,
}

/// The chosen carrier.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberSelection)]
pub struct SelectedView {
    /// Its canonical SCAC.
    scac: String,
    /// Its name.
    name: String,
    /// In [0, 1].
    #[schema(minimum = 0, maximum = 1)]
    confidence: f64,
}

/// A carrier that may track the number.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberCandidate)]
pub struct CandidateView {
    /// Its canonical SCAC.
    scac: String,
    /// Its name.
    name: String,
    /// In [0, 1].
    #[schema(minimum = 0, maximum = 1)]
    confidence: f64,
    /// The evidence behind it.
    reason: String,
}

/// The carrier prediction.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberShippingLine)]
pub struct ShippingLineView {
    /// What to do with the best candidate.
    #[schema(schema_with = <DecisionSchema as utoipa::PartialSchema>::schema)]
    decision: &'static str,
    /// The best candidate; null with `no_prediction`.
    selected: Option<SelectedView>,
    /// Every carrier that may track the number, most likely first.
    candidates: Vec<CandidateView>,
}

/// What was inferred.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberAttributes)]
pub struct AttributesView {
    /// What kind of number it is.
    #[schema(schema_with = nullable_number_type)]
    number_type: Option<&'static str>,
    /// The format verdict.
    validation: ValidationView,
    /// The carrier prediction.
    shipping_line: ShippingLineView,
}

fn nullable_number_type() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::Type::String,
            utoipa::openapi::Type::Null,
        ]))
        .enum_values(Some(
            NumberType::ALL
                .iter()
                .map(|kind| Value::from(kind.as_str()))
                .chain([Value::Null]),
        ))
        .description(Some(
            "What kind of number it is (`booking` is a tracking request's `booking_number`); null when it cannot be told.",
        ))
        .into()
}

/// The result resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberResult)]
pub struct ResultView {
    /// A fresh id for this answer (results are not stored).
    #[schema(format = Uuid)]
    id: String,
    /// Always `infer_number_results`.
    #[serde(rename = "type")]
    #[schema(pattern = "^infer_number_results$")]
    type_: &'static str,
    /// What was inferred.
    attributes: AttributesView,
}

/// The response body.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = InferNumberDocument)]
pub struct ResultDocument {
    /// The result.
    data: ResultView,
}

fn candidate(candidate: &Candidate<'_>) -> CandidateView {
    CandidateView {
        scac: candidate.carrier.scac.to_string(),
        name: candidate.carrier.name.clone(),
        confidence: candidate.confidence.value(),
        reason: candidate.to_string(),
    }
}

/// The wire form of an inference; the CLI prints the same.
#[must_use]
pub fn attributes(inference: &Inference<'_>) -> AttributesView {
    AttributesView {
        number_type: inference.number_type.map(NumberType::as_str),
        validation: ValidationView {
            is_valid: inference.validation.is_valid,
            kind: inference.validation.kind.as_str(),
            check_digit_passed: inference.validation.check_digit_passed,
            parsed_number: inference.parsed_number.clone(),
            reason: inference
                .validation
                .problem
                .as_ref()
                .map(ToString::to_string),
            notes: inference
                .validation
                .suspicion
                .iter()
                .map(ToString::to_string)
                .collect(),
        },
        shipping_line: ShippingLineView {
            decision: inference.decision().as_str(),
            selected: inference.selected().map(|selected| SelectedView {
                scac: selected.carrier.scac.to_string(),
                name: selected.carrier.name.clone(),
                confidence: selected.confidence.value(),
            }),
            candidates: inference.candidates.iter().map(candidate).collect(),
        },
    }
}

/// Checks a number as the endpoint does: not blank (spaces, tabs and line breaks only), at
/// most [`NUMBER_CHARS`] characters. The CLI applies the same rule.
///
/// # Errors
/// The validation code and a detail.
pub fn check_number(text: &str) -> Result<(), (ValidationCode, String)> {
    if text.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
        return Err((ValidationCode::Blank, "number must not be blank".to_owned()));
    }
    if text.chars().count() > NUMBER_CHARS {
        return Err((
            ValidationCode::TooLong,
            format!("number is longer than {NUMBER_CHARS} characters"),
        ));
    }
    Ok(())
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
#[utoipa::path(
    post,
    path = "/v2/tracking_requests/infer_number",
    operation_id = "inferNumber",
    tag = "Tracking requests",
    request_body(content = InferNumberRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The inference; an invalid number is a 200 with `validation.is_valid: false`.", body = ResultDocument, content_type = "application/json"),
        (status = 422, description = "`blank`, `too_long` or `invalid` at `/number`, or an unknown member.", body = crate::error::ErrorDocument, content_type = "application/vnd.api+json"),
    ),
)]
pub async fn infer_number(
    State(state): State<AppState>,
    _caller: Caller,
    query: QueryParams,
    JsonBody(body): JsonBody,
) -> Result<(StatusCode, Json<ResultDocument>), ApiError> {
    query.finish()?;
    let number = number(&body)?;
    let inference = infer(&state.carriers, number);
    Ok((
        StatusCode::OK,
        Json(ResultDocument {
            data: ResultView {
                id: Uuid::now_v7().to_string(),
                type_: TYPE,
                attributes: attributes(&inference),
            },
        }),
    ))
}
