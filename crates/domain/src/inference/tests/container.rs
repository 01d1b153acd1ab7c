//! The container reading: owner prefixes, groups, lessors, check digits.

use super::*;

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
fn placeholder_bills_are_invalid_whatever_their_prefix() {
    let matrix = matrix();
    for (text, digits) in [
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
        let inference = infer(matrix, text);
        assert_ne!(inference.validation.is_valid, Some(false), "{text}");
        assert_eq!(inference.validation.suspicion, None, "{text}");
    }
}

#[test]
fn a_container_number_whose_check_digit_passes_is_valid_even_with_a_placeholders_serial() {
    let matrix = matrix();
    for (text, digits, carrier) in [
        ("MEDU3456785", "345678", "MSCU"),
        ("MSCU7654329", "765432", "MSCU"),
        ("MSKU0000006", "000000", "MAEU"),
    ] {
        let inference = infer(matrix, text);
        assert_eq!(
            inference.validation.check_digit_passed,
            Some(true),
            "{text}"
        );
        assert_eq!(inference.validation.is_valid, Some(true), "{text}");
        assert_eq!(inference.validation.problem, None, "{text}");
        assert!(
            matches!(&inference.validation.suspicion, Some(Suspicion::Placeholder { digits: d, .. }) if d == digits),
            "{text}: {:?}",
            inference.validation.suspicion
        );
        assert!(
            scacs(&inference).iter().any(|scac| scac == carrier),
            "{text}: {:?}",
            scacs(&inference)
        );
        // The prefix alone would auto-select; the serial asks a person first.
        assert_eq!(inference.decision(), Decision::NeedsConfirmation, "{text}");
        let note = inference
            .validation
            .suspicion
            .expect("a suspicion")
            .to_string();
        assert!(note.contains("confirm"), "{note}");
    }
    // A failed check digit stays invalid, with the serial's doubt beside it.
    let inference = infer(matrix, "MSCU1234567");
    assert_eq!(inference.validation.is_valid, Some(false));
    assert!(matches!(
        inference.validation.problem,
        Some(Problem::CheckDigit { .. })
    ));
    assert!(inference.validation.suspicion.is_some());
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
fn a_slash_before_the_check_digit_still_reads_as_a_container() {
    let matrix = matrix();
    let inference = infer(matrix, "CSQU305438/3");
    assert_eq!(inference.parsed_number, "CSQU3054383");
    assert_eq!(inference.validation.is_valid, Some(true));
}

#[test]
fn a_box_other_lines_carry_lists_them_and_is_not_auto_selected() {
    let matrix = matrix();
    // OOCL boxes travel on COSCO bills, GCNU (Grimaldi) boxes on ACL bills.
    for (owner_prefix, owner, carrier) in [("OOLU", "OOLU", "COSU"), ("GCNU", "GRIU", "ACLU")] {
        let number = container_with(owner_prefix, "364716");
        let inference = infer(matrix, &number);
        assert_eq!(inference.validation.is_valid, Some(true), "{number}");
        assert_eq!(scacs(&inference), [owner, carrier], "{number}");
        assert_eq!(inference.candidates[0].confidence, GROUP_PREFIX);
        assert_eq!(inference.candidates[1].confidence, BOX_CARRIER);
        assert_eq!(inference.decision(), Decision::NeedsConfirmation);
        let reason = inference.candidates[1].to_string();
        assert!(reason.contains("also carries on its own bills"), "{reason}");
    }
    // A line whose boxes no other line is known to carry is still selected.
    let msc = infer(matrix, &container_with("MSCU", "433373"));
    assert_eq!(msc.decision(), Decision::AutoSelect);
    assert_eq!(scacs(&msc), ["MSCU"]);
}
