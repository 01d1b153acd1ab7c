//! What makes a number invalid, and the reason given.

use super::*;

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
fn one_character_off_the_lengths_the_carriers_prefix_allows_says_so() {
    let matrix = matrix();
    for (text, prefix, carrier, expected, found) in [
        ("HLCUSHA1904CCVX", "HLCU", "Hapag-Lloyd", 16..=16, 15),
        ("HLCUSHA1904CCVX41", "HLCU", "Hapag-Lloyd", 16..=16, 17),
        // ZIM's bills run from 14 to 16 characters.
        ("ZIMUSNH110567", "ZIMU", "ZIM", 14..=16, 13),
        ("ZIMUSNH1105927001", "ZIMU", "ZIM", 14..=16, 17),
    ] {
        let inference = infer(matrix, text);
        assert_eq!(inference.validation.is_valid, Some(false), "{text}");
        assert_eq!(
            inference.validation.problem,
            Some(Problem::ShapeLength {
                prefix: prefix.to_owned(),
                carrier: carrier.to_owned(),
                expected,
                found,
            }),
            "{text}"
        );
        assert_eq!(scacs(&inference), [prefix], "{text}");
        assert_ne!(inference.decision(), Decision::AutoSelect, "{text}");
    }
    // Within the lengths, a number that fits no shape cannot be judged.
    assert_eq!(infer(matrix, "ZIMUSNH11059X7").validation.is_valid, None);
}

#[test]
fn a_container_number_one_digit_off_under_a_registered_owner_says_so() {
    let matrix = matrix();
    // MSDU is MSC's, TCNU a lessor's: both are mistyped boxes, not CMA CGM bills.
    for (text, owner, found) in [
        ("MSDU732250", "MSDU", 10),
        ("TCNU357749", "TCNU", 10),
        ("MSDU73225061", "MSDU", 12),
    ] {
        let inference = infer(matrix, text);
        assert_eq!(inference.validation.is_valid, Some(false), "{text}");
        assert_eq!(
            inference.validation.problem,
            Some(Problem::ContainerLength {
                owner: owner.to_owned(),
                found
            }),
            "{text}"
        );
        assert_ne!(inference.decision(), Decision::AutoSelect, "{text}");
    }
    // A CMA CGM bill under an office code that is no owner code keeps its reading.
    let bill = infer(matrix, "NBSF301194");
    assert_eq!(bill.validation.is_valid, Some(true));
    assert_eq!(scacs(&bill)[0], "CMDU");
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
