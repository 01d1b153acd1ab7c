//! The bill of lading and booking reading: shapes, named carriers, auto-detection.

use proptest::prelude::*;

use super::*;

#[test]
fn a_carrier_prefixed_bill_is_auto_selected() {
    let matrix = matrix();
    for (number, scac) in [
        ("MEDUN4194175", "MSCU"),
        ("MAEU586118841", "MAEU"),
        ("hlcu-sha1904ccvx4", "HLCU"),
        ("ZIMUSNH1160339", "ZIMU"),
        ("ONEYSH9FSK690300", "ONEY"),
    ] {
        let inference = infer(matrix, number);
        assert_eq!(
            inference.number_type,
            Some(NumberType::BillOfLading),
            "{number}"
        );
        assert_eq!(inference.decision(), Decision::AutoSelect, "{number}");
        assert_eq!(scacs(&inference), [scac], "{number}");
        assert_eq!(inference.validation.is_valid, Some(true));
        assert_eq!(inference.validation.check_digit_passed, None);
    }
}

#[test]
fn a_prefixed_match_silences_the_bare_shapes_of_other_carriers() {
    let matrix = matrix();
    // TRKU + 8 digits also has PIL's bare shape (4 letters + 8 digits).
    let inference = infer(matrix, "TRKU10023023");
    assert_eq!(scacs(&inference), ["TRKU"]);
    assert_eq!(inference.decision(), Decision::AutoSelect);
}

#[test]
fn a_shared_numbering_lists_the_group_and_is_not_auto_selected() {
    let matrix = matrix();
    let inference = infer(matrix, "586118841");
    assert_eq!(inference.number_type, Some(NumberType::BillOfLading));
    assert_eq!(
        scacs(&inference),
        ["MAEU", "SEAU", "SEJJ", "SAFM", "MCCQ", "EGLV"]
    );
    assert_eq!(inference.decision(), Decision::NeedsConfirmation);
    assert_eq!(
        inference.candidates[0].confidence,
        Confidence::from_percent(80)
    );
    assert_eq!(
        inference.candidates[5].confidence,
        Confidence::from_percent(15)
    );
}

#[test]
fn unrelated_groups_matching_one_number_share_the_confidence() {
    let matrix = matrix();
    // 4 letters + 8 digits: PIL (0.60), ONE (0.45) and SM Line (0.25) bookings.
    let inference = infer(matrix, "NKAI90055900");
    assert_eq!(scacs(&inference), ["PCIU", "ONEY", "SMLM"]);
    let total: u32 = inference
        .candidates
        .iter()
        .map(|c| u32::from(c.confidence.percent()))
        .sum();
    assert!(total <= 100, "{total}");
    assert_eq!(
        inference.candidates[0].confidence,
        Confidence::from_percent(46)
    );
    assert_eq!(inference.decision(), Decision::NoPrediction);
    assert_eq!(inference.number_type, Some(NumberType::BillOfLading));
}

#[test]
fn a_carrier_shape_that_is_a_booking_says_booking() {
    let matrix = matrix();
    let inference = infer(matrix, "SH9FSK690300");
    assert_eq!(inference.number_type, Some(NumberType::Booking));
    assert_eq!(inference.candidates[0].carrier.scac.as_str(), "ONEY");
    assert_eq!(
        NumberType::Booking.request_type(),
        RequestType::BookingNumber
    );
}

#[test]
fn a_number_of_no_known_shape_cannot_be_judged() {
    let matrix = matrix();
    let inference = infer(matrix, "NSE22110345");
    assert_eq!(inference.validation.is_valid, None);
    assert_eq!(inference.validation.problem, None);
    assert_eq!(inference.number_type, None);
    assert_eq!(inference.decision(), Decision::NoPrediction);
}

#[test]
fn auto_detect_uses_only_a_confident_supported_choice_of_the_right_kind() {
    let matrix = matrix();
    let scac = |text: &str| Scac::parse(text).expect("SCAC");
    assert_eq!(
        auto_detect(matrix, "MEDUN4194175", RequestType::BillOfLading).map(|c| c.scac),
        Ok(scac("MSCU"))
    );
    assert_eq!(
        auto_detect(matrix, "MSKU3054388", RequestType::Container).map(|c| c.scac),
        Ok(scac("MAEU"))
    );
    assert!(matches!(
        auto_detect(matrix, "586118841", RequestType::BillOfLading),
        Err(AutoDetectFailure::NotConfident { best }) if best == "MAEU at 0.80"
    ));
    assert!(matches!(
        auto_detect(matrix, &container_with("TGHU", "123456"), RequestType::Container),
        Err(AutoDetectFailure::NotConfident { best }) if best == "none"
    ));
    assert_eq!(
        auto_detect(matrix, "MEDUN4194175", RequestType::Container),
        Err(AutoDetectFailure::WrongType {
            inferred: "bill_of_lading",
            requested: "container"
        })
    );
    // COSCO boxes are COSCO's, but COSCO is not tracked by container number.
    let cosco = infer(matrix, "CSNU6395607");
    assert_eq!(
        cosco.candidates[0].to_string(),
        "container prefix CSNU is registered to COSCO Shipping Lines \
         (COSCO Shipping Lines cannot be tracked by container numbers here)"
    );
    assert_eq!(
        auto_detect(matrix, "CSNU6395607", RequestType::Container),
        Err(AutoDetectFailure::Unsupported {
            scac: "COSU".to_owned(),
            requested: "container"
        })
    );
    assert!(matches!(
        auto_detect(matrix, "MSCU1234567", RequestType::Container),
        Err(AutoDetectFailure::NotConfident { .. })
    ));
}

proptest! {
    #[test]
    fn every_input_gets_a_consistent_verdict(text in any::<String>()) {
        let matrix = matrix();
        let inference = infer(matrix, &text);
        let confidences: Vec<u8> = inference.candidates.iter().map(|c| c.confidence.percent()).collect();
        prop_assert!(confidences.windows(2).all(|w| w[0] >= w[1]), "{:?}", confidences);
        prop_assert!(confidences.iter().all(|&c| c <= 100));
        if inference.decision() == Decision::AutoSelect {
            prop_assert_ne!(inference.validation.is_valid, Some(false));
        }
        if inference.validation.kind == FormatKind::Shipment {
            prop_assert_eq!(inference.validation.check_digit_passed, None);
        }
    }

    #[test]
    fn shaped_numbers_always_get_their_carrier(
        digits in "[0-9]{12}",
        letters in "[A-Z]{3}",
    ) {
        let matrix = matrix();
        let evergreen = infer(matrix, &format!("EGLV{digits}"));
        prop_assert_eq!(scacs(&evergreen), ["EGLV"]);
        prop_assert_eq!(evergreen.decision(), Decision::AutoSelect);
        let zim = infer(matrix, &format!("ZIMU{letters}{}", &digits[..7]));
        prop_assert_eq!(scacs(&zim), ["ZIMU"]);
    }
}

#[test]
fn a_number_naming_its_carrier_always_lists_it() {
    let matrix = matrix();
    let inference = infer(matrix, "ONEYSH12");
    assert_eq!(scacs(&inference), ["ONEY"]);
    assert_eq!(inference.candidates[0].confidence, NAMED_CARRIER);
    assert_eq!(inference.validation.is_valid, None, "cannot be judged");
    assert_eq!(inference.number_type, None);
    assert_eq!(inference.decision(), Decision::NeedsConfirmation);
    assert!(
        inference.candidates[0]
            .to_string()
            .contains("starts with ONEY"),
        "{}",
        inference.candidates[0]
    );
    // An alternative SCAC names its carrier too, and the bare shapes of other lines are
    // not asked.
    let inference = infer(matrix, "MEDU12345X");
    assert_eq!(scacs(&inference), ["MSCU"]);
}
