//! The answer of infer-number (`POST /v2/tracking_requests/infer_number`, api.md §3): the
//! wire form of an inference, which the API, the console's carrier suggestion and the CLI
//! print alike.

use serde::Serialize;
use serde_json::Value;
use tidemark_domain::inference::FormatKind;
use tidemark_domain::{Candidate, Decision, Inference, NumberType};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::wire_enum_schema;

/// The JSON type of the result.
pub const TYPE: &str = "infer_number_results";

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

impl ResultDocument {
    /// The answer of `inference`, with a fresh id (results are not stored).
    #[must_use]
    pub fn of(inference: &Inference<'_>) -> Self {
        Self {
            data: ResultView {
                id: Uuid::now_v7().to_string(),
                type_: TYPE,
                attributes: attributes(inference),
            },
        }
    }
}
