use proptest::prelude::*;

use super::validation::Untrackable;
use super::*;
use crate::{ContainerNumber, RequestType, Scac};

static MATRIX: std::sync::LazyLock<CarrierMatrix> =
    std::sync::LazyLock::new(|| CarrierMatrix::bundled().expect("the bundled matrix is valid"));

fn matrix() -> &'static CarrierMatrix {
    &MATRIX
}

fn scacs(inference: &Inference<'_>) -> Vec<String> {
    inference
        .candidates
        .iter()
        .map(|c| c.carrier.scac.to_string())
        .collect()
}

/// A valid container number with `prefix` (the check digit computed).
fn container_with(prefix: &str, serial: &str) -> String {
    let body = format!("{prefix}{serial}");
    (0..10)
        .map(|digit| format!("{body}{digit}"))
        .find(|candidate| ContainerNumber::parse(candidate).is_ok())
        .expect("one digit is right")
}

#[test]
fn the_thresholds_follow_the_contract() {
    for (percent, decision) in [
        (100, Decision::AutoSelect),
        (95, Decision::AutoSelect),
        (94, Decision::NeedsConfirmation),
        (70, Decision::NeedsConfirmation),
        (69, Decision::NoPrediction),
        (0, Decision::NoPrediction),
    ] {
        assert_eq!(
            Decision::of(Confidence::from_percent(percent)),
            decision,
            "{percent}"
        );
    }
}

#[test]
fn a_carrier_owned_container_is_auto_selected_with_its_reason() {
    let matrix = matrix();
    let inference = infer(matrix, "msku 305438-8");
    assert_eq!(inference.parsed_number, "MSKU3054388");
    assert_eq!(inference.number_type, Some(NumberType::Container));
    assert_eq!(inference.validation.is_valid, Some(true));
    assert_eq!(inference.validation.check_digit_passed, Some(true));
    assert_eq!(inference.validation.kind, FormatKind::Container);
    assert_eq!(inference.decision(), Decision::AutoSelect);
    let selected = inference.selected().expect("selected");
    assert_eq!(selected.carrier.scac.as_str(), "MAEU");
    assert_eq!(selected.confidence, OWNER_PREFIX);
    assert_eq!(
        selected.to_string(),
        "container prefix MSKU is registered to Maersk"
    );
}

#[test]
fn a_prefix_shared_by_a_group_lists_each_line_for_confirmation() {
    let matrix = matrix();
    let inference = infer(matrix, &container_with("SEAU", "305438"));
    assert_eq!(scacs(&inference), ["SEAU", "MAEU"]);
    assert!(
        inference.candidates[0]
            .to_string()
            .contains("shared within the Maersk group")
    );
    assert!(
        inference
            .candidates
            .iter()
            .all(|c| c.confidence == GROUP_PREFIX),
        "no line of the group is preferred"
    );
    assert_eq!(inference.decision(), Decision::NeedsConfirmation);
}

#[test]
fn placeholders_are_invalid_whatever_their_prefix() {
    let matrix = matrix();
    for (text, digits) in [
        ("MSKU0000007", "000000"),
        ("MSCU1234567", "123456"),
        ("MEDU00000000", "00000000"),
        ("HLCU999999999999", "999999999999"),
        ("987654321", "987654321"),
        ("MAEU123456789", "123456789"),
    ] {
        let inference = infer(matrix, text);
        assert_eq!(inference.validation.is_valid, Some(false), "{text}");
        assert!(
            matches!(&inference.validation.problem, Some(Problem::Placeholder { digits: d, .. }) if d == digits),
            "{text}: {:?}",
            inference.validation.problem
        );
        assert!(inference.candidates.is_empty(), "{text}");
        assert_eq!(inference.decision(), Decision::NoPrediction, "{text}");
        let reason = inference.validation.problem.expect("a problem").to_string();
        assert!(reason.contains("placeholder"), "{reason}");
    }
    // Real numbers with repeats or short runs are not placeholders.
    for text in ["586118841", "MEDUN4194175", "003902245109", "MSKU3054388"] {
        assert_ne!(
            infer(matrix, text).validation.is_valid,
            Some(false),
            "{text}"
        );
    }
}

#[test]
fn a_wrong_check_digit_is_invalid_and_never_auto_selected() {
    let matrix = matrix();
    let inference = infer(matrix, "MSCU3054380");
    assert_eq!(inference.number_type, Some(NumberType::Container));
    assert_eq!(inference.validation.is_valid, Some(false));
    assert_eq!(inference.validation.check_digit_passed, Some(false));
    assert_eq!(
        inference.validation.problem,
        Some(Problem::CheckDigit {
            found: 0,
            expected: 9
        })
    );
    assert_eq!(scacs(&inference), ["MSCU"]);
    assert_eq!(inference.decision(), Decision::NeedsConfirmation);
    assert!(inference.candidates[0].to_string().contains("mistyped"));
}

#[test]
fn no_lessor_prefix_is_ever_auto_selected() {
    let matrix = matrix();
    let mut checked = 0;
    for lessor in matrix.lessors() {
        let inference = infer(matrix, &container_with(&lessor.prefix, "100200"));
        assert_eq!(inference.validation.is_valid, Some(true));
        assert_eq!(
            inference.decision(),
            Decision::NoPrediction,
            "{}",
            lessor.prefix
        );
        match lessor.affiliation {
            Some(scac) => {
                assert_eq!(inference.candidates.len(), 1, "{}", lessor.prefix);
                assert_eq!(inference.candidates[0].carrier.scac, scac);
                assert_eq!(inference.candidates[0].confidence, LESSOR_AFFILIATION);
            }
            None => assert!(inference.candidates.is_empty(), "{}", lessor.prefix),
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn an_unknown_container_prefix_gives_no_candidate() {
    let matrix = matrix();
    let inference = infer(matrix, &container_with("QQQU", "000001"));
    assert_eq!(inference.number_type, Some(NumberType::Container));
    assert!(inference.candidates.is_empty());
    assert_eq!(inference.decision(), Decision::NoPrediction);
    assert!(inference.selected().is_none());
}

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
fn malformed_numbers_are_invalid_with_a_reason_and_no_candidates() {
    let matrix = matrix();
    for (text, problem) in [
        ("  - ", Problem::Empty),
        ("B/SI/19/0038", Problem::Character('/')),
        ("MSC DAVAO III V.HW247R", Problem::Character('.')),
        ("ÇSQU3054383", Problem::Character('Ç')),
        ("FRPAR", Problem::NoDigits),
        ("VET12", Problem::Length(5)),
        ("123456789012345678901", Problem::Length(21)),
    ] {
        let inference = infer(matrix, text);
        assert_eq!(inference.validation.is_valid, Some(false), "{text}");
        assert_eq!(
            inference.validation.problem,
            Some(problem.clone()),
            "{text}"
        );
        assert_eq!(inference.validation.kind, FormatKind::Shipment, "{text}");
        assert!(inference.candidates.is_empty(), "{text}");
        assert_eq!(inference.number_type, None, "{text}");
        assert!(!problem.to_string().is_empty());
    }
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
fn a_slash_before_the_check_digit_still_reads_as_a_container() {
    let matrix = matrix();
    let inference = infer(matrix, "CSQU305438/3");
    assert_eq!(inference.parsed_number, "CSQU3054383");
    assert_eq!(inference.validation.is_valid, Some(true));
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

#[test]
fn one_character_off_the_carriers_only_length_says_so() {
    let matrix = matrix();
    for (text, expected, found) in [("HLCUSHA1904CCVX", 16, 15), ("HLCUSHA1904CCVX41", 16, 17)] {
        let inference = infer(matrix, text);
        assert_eq!(inference.validation.is_valid, Some(false), "{text}");
        assert_eq!(
            inference.validation.problem,
            Some(Problem::ShapeLength {
                prefix: "HLCU".to_owned(),
                carrier: "Hapag-Lloyd".to_owned(),
                expected,
                found,
            }),
            "{text}"
        );
        assert_eq!(scacs(&inference), ["HLCU"], "{text}");
        assert_ne!(inference.decision(), Decision::AutoSelect, "{text}");
    }
}

#[test]
fn a_container_layout_with_a_wrong_category_and_no_owner_is_invalid() {
    let matrix = matrix();
    let inference = infer(matrix, "ABCD3054381");
    assert_eq!(inference.validation.is_valid, Some(false));
    assert_eq!(inference.validation.problem, Some(Problem::Category('D')));
    assert!(inference.candidates.is_empty());
    // An HMM bill keeps its shape (B or C in fourth place).
    let hmm = infer(matrix, "QSWB8011462");
    assert_eq!(hmm.validation.is_valid, Some(true));
    assert_eq!(scacs(&hmm), ["HDMU"]);
}

#[test]
fn purchase_orders_seals_and_hyphenated_references_are_not_trackable() {
    let matrix = matrix();
    for (text, kind) in [
        ("PO-4500012345", Untrackable::PurchaseOrder),
        ("PO 88123", Untrackable::PurchaseOrder),
        ("PO4500012345", Untrackable::PurchaseOrder),
        ("SEAL 2231456", Untrackable::Seal),
        ("NSE-2211-0345", Untrackable::Reference),
        ("SHA-2024-0457", Untrackable::Reference),
        ("JOB-12-3344", Untrackable::Reference),
    ] {
        let inference = infer(matrix, text);
        assert_eq!(inference.validation.is_valid, Some(false), "{text}");
        assert_eq!(
            inference.validation.problem,
            Some(Problem::Untrackable(kind)),
            "{text}"
        );
        assert!(inference.candidates.is_empty(), "{text}");
    }
    // Carrier numbers typed with hyphens are still read.
    assert_eq!(
        infer(matrix, "CSQU-305438-3").validation.is_valid,
        Some(true)
    );
    assert_eq!(scacs(&infer(matrix, "COSU-6199589860")), ["COSU"]);
}
