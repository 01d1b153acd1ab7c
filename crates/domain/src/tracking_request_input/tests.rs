//! Validation of creates and patches: every problem reported at once, with its field.

use super::*;

fn draft(kind: &str, number: &str, scac: &str) -> TrackingRequestDraft {
    TrackingRequestDraft {
        request_type: Some(kind.to_owned()),
        request_number: Some(number.to_owned()),
        scac: Some(scac.to_owned()),
        ..TrackingRequestDraft::default()
    }
}

fn validate(draft: TrackingRequestDraft) -> Result<NewTrackingRequest, Vec<FieldError>> {
    NewTrackingRequest::validate(
        draft,
        &CarrierMatrix::bundled().expect("the bundled matrix is valid"),
        &Coverage::new([], crate::SandboxScope::AllCarriers),
        &Limits::default(),
    )
}

#[test]
fn a_carrier_this_instance_cannot_track_is_refused_at_the_scac() {
    let matrix = CarrierMatrix::bundled().expect("the bundled matrix is valid");
    let errors = NewTrackingRequest::validate(
        draft("bill_of_lading", "MEDU1234567", "medu"),
        &matrix,
        &Coverage::default(),
        &Limits::default(),
    )
    .expect_err("MSC has no endpoint and the sandbox serves TEST only");
    assert_eq!(
        codes(&errors),
        [(Field::Scac, ValidationCode::CarrierNotConfigured)]
    );
    assert!(errors[0].detail.contains("[carriers.endpoints.MSCU]"));
    let test = NewTrackingRequest::validate(
        draft("bill_of_lading", "TEST-TR-SUCCEEDED", "TEST"),
        &matrix,
        &Coverage::default(),
        &Limits::default(),
    );
    assert!(test.is_ok());
}

fn codes(errors: &[FieldError]) -> Vec<(Field, ValidationCode)> {
    errors.iter().map(|e| (e.field, e.code)).collect()
}

#[test]
fn a_valid_bill_of_lading_request_is_accepted_with_the_canonical_scac() {
    let new = validate(draft("bill_of_lading", " medu1234567\t", "medu")).expect("valid");
    assert_eq!(new.scac.map(|s| s.to_string()), Some("MSCU".to_owned()));
    assert_eq!(new.request_number.normalized(), "MEDU1234567");
}

#[test]
fn every_missing_field_is_reported_at_once() {
    let errors = validate(TrackingRequestDraft::default()).expect_err("invalid");
    assert_eq!(
        codes(&errors),
        [
            (Field::RequestType, ValidationCode::Blank),
            (Field::Scac, ValidationCode::Blank),
            (Field::RequestNumber, ValidationCode::Blank),
        ]
    );
}

#[test]
fn unknown_and_malformed_scacs_are_unknown_scac() {
    for scac in ["ZZZZ", "TOOLONG", "ab", " MAEU"] {
        let errors = validate(draft("bill_of_lading", "X1", scac)).expect_err("invalid");
        assert_eq!(
            codes(&errors),
            [(Field::Scac, ValidationCode::UnknownScac)],
            "{scac}"
        );
    }
}

#[test]
fn a_carrier_without_the_capability_is_unsupported_request_type() {
    let errors = validate(draft("bill_of_lading", "123456789012", "EGLV")).expect_err("invalid");
    assert_eq!(
        codes(&errors),
        [(Field::Scac, ValidationCode::UnsupportedRequestType)]
    );
}

#[test]
fn a_container_with_a_bad_check_digit_names_the_expected_digit() {
    let errors = validate(draft("container", "CSQU3054384", "HLCU")).expect_err("invalid");
    assert_eq!(
        codes(&errors),
        [(Field::RequestNumber, ValidationCode::InvalidNumber)]
    );
    assert!(
        errors[0].detail.contains("expected 3"),
        "{}",
        errors[0].detail
    );
}

#[test]
fn container_numbers_are_matched_in_iso_normal_form() {
    let new = validate(draft("container", "csqu 305438-3", "HLCU")).expect("valid");
    assert_eq!(new.request_number.normalized(), "CSQU3054383");
    assert_eq!(new.request_number.as_str(), "csqu 305438-3");
}

#[test]
fn auto_detect_accepts_a_missing_scac() {
    let mut request = draft("container", "CSQU3054383", "");
    request.auto_detect_scac = true;
    let new = validate(request).expect("valid");
    assert_eq!(new.scac, None);
}

#[test]
fn list_limits_are_enforced_per_item() {
    let mut request = draft("bill_of_lading", "X1", "MAEU");
    request.ref_numbers = vec!["ok".into(), "a".repeat(129), "bad\u{7}".into(), " ".into()];
    request.shipment_tags = vec!["t".into(); 51];
    let errors = validate(request).expect_err("invalid");
    assert_eq!(
        codes(&errors),
        [
            (Field::RefNumbers(Some(1)), ValidationCode::TooLong),
            (Field::RefNumbers(Some(2)), ValidationCode::Invalid),
            (Field::RefNumbers(Some(3)), ValidationCode::Blank),
            (Field::ShipmentTags(None), ValidationCode::TooMany),
        ]
    );
}

#[test]
fn repeated_list_items_are_kept_once() {
    let mut request = draft("bill_of_lading", "X1", "MAEU");
    request.ref_numbers = vec!["PO1".into(), "PO1".into(), "PO2".into()];
    assert_eq!(
        validate(request).expect("valid").ref_numbers,
        ["PO1", "PO2"]
    );
}
