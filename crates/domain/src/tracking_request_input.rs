//! Validating what clients send to create or update a tracking request (api.md §2
//! "Create validation"): every problem of a body is collected, in the contract's order.

use crate::container_number::{ContainerNumber, InvalidContainerNumber};
use crate::request_number::InvalidRequestNumber;
use crate::validation::check_text;
use crate::{
    CarrierMatrix, Coverage, Field, FieldError, Limits, PartyId, RequestNumber, RequestType, Scac,
    ValidationCode,
};

/// A create request as the client sent it, after JSON types were checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrackingRequestDraft {
    /// `request_type`, if present.
    pub request_type: Option<String>,
    /// `request_number`, if present.
    pub request_number: Option<String>,
    /// `scac`, if present and not null.
    pub scac: Option<String>,
    /// `auto_detect_vocc_scac`.
    pub auto_detect_scac: bool,
    /// `ref_numbers`.
    pub ref_numbers: Vec<String>,
    /// `shipment_tags`.
    pub shipment_tags: Vec<String>,
}

/// A create request that passed validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTrackingRequest {
    /// What kind of number.
    pub request_type: RequestType,
    /// The number.
    pub request_number: RequestNumber,
    /// The canonical SCAC, or `None` with auto-detection.
    pub scac: Option<Scac>,
    /// Whether the carrier is to be inferred.
    pub auto_detect_scac: bool,
    /// Reference numbers.
    pub ref_numbers: Vec<String>,
    /// Shipment tags.
    pub shipment_tags: Vec<String>,
    /// The client's customer, a party the caller checked is the account's.
    pub customer: Option<PartyId>,
}

impl NewTrackingRequest {
    /// Validates a draft in the contract's order (SCAC, then number), collecting every problem.
    ///
    /// # Errors
    /// Every problem found, one per field (per item for lists).
    pub fn validate(
        draft: TrackingRequestDraft,
        carriers: &CarrierMatrix,
        coverage: &Coverage,
        limits: &Limits,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();

        let request_type = match draft.request_type.as_deref() {
            None | Some("") => {
                errors.push(FieldError::new(
                    Field::RequestType,
                    ValidationCode::Blank,
                    "must not be blank",
                ));
                None
            }
            Some(text) => RequestType::parse(text).or_else(|| {
                errors.push(FieldError::new(
                    Field::RequestType,
                    ValidationCode::Invalid,
                    "must be one of bill_of_lading, booking_number, container",
                ));
                None
            }),
        };

        let scac = validate_scac(
            draft.scac.as_deref(),
            draft.auto_detect_scac,
            request_type,
            (carriers, coverage),
            &mut errors,
        );
        let request_number = validate_number(
            draft.request_number.as_deref(),
            request_type,
            limits,
            &mut errors,
        );
        let ref_numbers = validate_list(draft.ref_numbers, Field::RefNumbers, limits, &mut errors);
        let shipment_tags = validate_list(
            draft.shipment_tags,
            Field::ShipmentTags,
            limits,
            &mut errors,
        );

        match (request_type, request_number, scac) {
            (Some(request_type), Some(request_number), Some(scac)) if errors.is_empty() => {
                Ok(Self {
                    request_type,
                    request_number,
                    scac,
                    auto_detect_scac: draft.auto_detect_scac,
                    ref_numbers,
                    shipment_tags,
                    customer: None,
                })
            }
            _ => Err(errors),
        }
    }
}

/// Returns `Some(None)` for a valid auto-detect request, `Some(Some(scac))` for a valid
/// carrier, `None` after recording a problem.
fn validate_scac(
    scac: Option<&str>,
    auto_detect: bool,
    request_type: Option<RequestType>,
    (carriers, coverage): (&CarrierMatrix, &Coverage),
    errors: &mut Vec<FieldError>,
) -> Option<Option<Scac>> {
    let Some(text) = scac.filter(|text| !text.is_empty()) else {
        if auto_detect {
            return Some(None);
        }
        errors.push(FieldError::new(
            Field::Scac,
            ValidationCode::Blank,
            "must not be blank unless auto_detect_vocc_scac is true",
        ));
        return None;
    };
    let Ok(code) = Scac::parse(text) else {
        errors.push(FieldError::new(
            Field::Scac,
            ValidationCode::UnknownScac,
            "is not a SCAC: a SCAC is four letters or digits",
        ));
        return None;
    };
    let Some(carrier) = carriers.resolve(&code) else {
        errors.push(FieldError::new(
            Field::Scac,
            ValidationCode::UnknownScac,
            format!("SCAC {code} is not a carrier Tidemark knows; see GET /v2/shipping_lines"),
        ));
        return None;
    };
    if let Some(kind) = request_type
        && !carrier.supports(kind)
    {
        errors.push(FieldError::new(
            Field::Scac,
            ValidationCode::UnsupportedRequestType,
            format!(
                "{} ({}) does not support tracking by {kind}",
                carrier.name, carrier.scac
            ),
        ));
        return None;
    }
    if coverage.source(carrier.scac).is_none() {
        errors.push(FieldError::new(
            Field::Scac,
            ValidationCode::CarrierNotConfigured,
            Coverage::how_to_configure(carrier.scac),
        ));
        return None;
    }
    Some(Some(carrier.scac))
}

fn validate_number(
    number: Option<&str>,
    request_type: Option<RequestType>,
    limits: &Limits,
    errors: &mut Vec<FieldError>,
) -> Option<RequestNumber> {
    let (text, max) = (number.unwrap_or(""), limits.request_number_chars);
    let parsed = match request_type.map_or_else(
        || RequestNumber::parse(text, max),
        |kind| RequestNumber::parse_as(text, kind, max),
    ) {
        Ok(parsed) => parsed,
        Err(problem) => {
            let code = match problem {
                InvalidRequestNumber::Blank => ValidationCode::Blank,
                InvalidRequestNumber::TooLong { .. } => ValidationCode::TooLong,
                InvalidRequestNumber::Character { .. } => ValidationCode::Invalid,
            };
            errors.push(FieldError::new(
                Field::RequestNumber,
                code,
                problem.to_string(),
            ));
            return None;
        }
    };
    if request_type != Some(RequestType::Container) {
        return Some(parsed);
    }
    match ContainerNumber::parse(parsed.as_str()) {
        Ok(_) => Some(parsed),
        Err(problem) => {
            let detail = match &problem {
                InvalidContainerNumber::CheckDigit {
                    expected,
                    normalized,
                    ..
                } => format!(
                    "{normalized} {problem}; did you mean {}{expected}?",
                    &normalized[..10]
                ),
                InvalidContainerNumber::Layout => problem.to_string(),
            };
            errors.push(FieldError::new(
                Field::RequestNumber,
                ValidationCode::InvalidNumber,
                detail,
            ));
            None
        }
    }
}

fn validate_list(
    items: Vec<String>,
    field: fn(Option<usize>) -> Field,
    limits: &Limits,
    errors: &mut Vec<FieldError>,
) -> Vec<String> {
    if items.len() > limits.list_items {
        errors.push(FieldError::new(
            field(None),
            ValidationCode::TooMany,
            format!(
                "has {} items; the maximum is {}",
                items.len(),
                limits.list_items
            ),
        ));
        return items;
    }
    let mut kept: Vec<String> = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        if item.trim().is_empty() {
            errors.push(FieldError::new(
                field(Some(index)),
                ValidationCode::Blank,
                "items must not be blank",
            ));
            continue;
        }
        check_text(field(Some(index)), &item, limits.list_item_chars, errors);
        if !kept.contains(&item) {
            kept.push(item);
        }
    }
    kept
}

/// A change to a tracking request's editable attributes; `None` leaves one unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrackingRequestPatch {
    /// New `ref_numbers`.
    pub ref_numbers: Option<Vec<String>>,
    /// New `shipment_tags`.
    pub shipment_tags: Option<Vec<String>>,
    /// A new customer (`Some(None)` for none), a party the caller checked is the account's.
    pub customer: Option<Option<PartyId>>,
}

impl TrackingRequestPatch {
    /// Validates the new lists with the same rules as at creation.
    ///
    /// # Errors
    /// Every problem found.
    pub fn validate(self, limits: &Limits) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let ref_numbers = self
            .ref_numbers
            .map(|items| validate_list(items, Field::RefNumbers, limits, &mut errors));
        let shipment_tags = self
            .shipment_tags
            .map(|items| validate_list(items, Field::ShipmentTags, limits, &mut errors));
        if errors.is_empty() {
            Ok(Self {
                ref_numbers,
                shipment_tags,
                customer: self.customer,
            })
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests;
