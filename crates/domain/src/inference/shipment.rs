//! The bill of lading and booking reading: the carriers' number shapes, and the carrier a
//! number names by its first characters.

use super::validation::{
    FormatKind, Problem, Validation, format_problem, longest_digit_run, placeholder, untrackable,
};
use super::{Candidate, Confidence, Evidence, Inference, NAMED_CARRIER};
use crate::number_shapes::Shape;
use crate::{Carrier, CarrierMatrix, ContainerNumber, Scac};

/// The bill of lading and booking reading of `parsed_number` (typed as `raw`).
pub(super) fn shipment<'m>(
    matrix: &'m CarrierMatrix,
    raw: &str,
    parsed_number: String,
) -> Inference<'m> {
    let mut inference = Inference {
        number_type: None,
        validation: Validation {
            is_valid: None,
            kind: FormatKind::Shipment,
            check_digit_passed: None,
            problem: format_problem(&parsed_number)
                .or_else(|| untrackable(raw).map(Problem::Untrackable))
                .or_else(|| placeholder(longest_digit_run(&parsed_number))),
            suspicion: None,
        },
        candidates: Vec::new(),
        parsed_number,
    };
    if inference.validation.problem.is_some() {
        inference.validation.is_valid = Some(false);
        return inference;
    }
    let number = inference.parsed_number.as_str();
    let matched: Vec<&Shape> = matrix.matching_shapes(number).collect();
    let prefix_matched = matched.iter().any(|shape| shape.prefix.is_some());
    // The carriers the number names matter only when no shape with a prefix explains it.
    if !prefix_matched && let Some(problem) = container_off_by_one(matrix, number) {
        inference.validation.problem = Some(problem);
        inference.validation.is_valid = Some(false);
        return inference;
    }
    let named = if prefix_matched {
        Vec::new()
    } else {
        named(matrix, number)
    };
    // A number starting with a carrier's own code is explained by that code: the bare
    // shapes of other carriers are not asked.
    let prefixed = prefix_matched || !named.is_empty();
    let mut candidates = by_shape(
        matrix,
        matched
            .iter()
            .copied()
            .filter(|shape| !prefixed || shape.prefix.is_some()),
    );
    inference.number_type = candidates
        .iter()
        .max_by_key(|c| c.confidence)
        .and_then(|c| match c.evidence {
            Evidence::Shape(shape) => Some(shape.number_type.into()),
            _ => None,
        });
    inference.validation.is_valid = (!candidates.is_empty()).then_some(true);
    // Never silent when the number names its carrier: the carrier is a candidate even when
    // the rest fits none of its shapes, then at a lower confidence and without a verdict,
    // or invalid when it is one character off the only length its prefix allows.
    for (carrier, code) in named {
        if candidates.iter().any(|c| std::ptr::eq(c.carrier, carrier)) {
            continue;
        }
        if let Some(problem) = off_by_one(matrix, carrier, code, number) {
            inference.validation.problem = Some(problem);
            inference.validation.is_valid = Some(false);
        }
        candidates.push(Candidate {
            carrier,
            confidence: NAMED_CARRIER,
            evidence: Evidence::Named { code },
        });
    }
    if candidates.is_empty()
        && let Some(letter) = wrong_category(number)
    {
        inference.validation.problem = Some(Problem::Category(letter));
        inference.validation.is_valid = Some(false);
    }
    share_between_groups(&mut candidates);
    candidates.sort_by_key(|candidate| std::cmp::Reverse(candidate.confidence));
    inference.candidates = candidates;
    inference
}

/// The carriers of `shapes`, each at the confidence of its most confident shape.
fn by_shape<'m>(
    matrix: &'m CarrierMatrix,
    shapes: impl Iterator<Item = &'m Shape>,
) -> Vec<Candidate<'m>> {
    let mut candidates: Vec<Candidate<'m>> = Vec::new();
    for shape in shapes {
        let confidence = Confidence::from_percent(shape.confidence);
        for carrier in matrix.shape_carriers(shape) {
            match candidates
                .iter_mut()
                .find(|c| std::ptr::eq(c.carrier, carrier))
            {
                Some(existing) if existing.confidence >= confidence => {}
                Some(existing) => {
                    existing.confidence = confidence;
                    existing.evidence = Evidence::Shape(shape);
                }
                None => candidates.push(Candidate {
                    carrier,
                    confidence,
                    evidence: Evidence::Shape(shape),
                }),
            }
        }
    }
    candidates
}

/// The carriers `number` names by its first characters, each with the code it starts
/// with: a SCAC or alternative SCAC (four letters), or a prefix of one of the carrier's
/// shapes (`PABV`, `SNKO`).
fn named<'m>(matrix: &'m CarrierMatrix, number: &str) -> Vec<(&'m Carrier, &'m str)> {
    let mut found: Vec<(&'m Carrier, &'m str)> = Vec::new();
    // Every SCAC and every shape prefix starts with a letter.
    if !number.starts_with(|c: char| c.is_ascii_uppercase()) {
        return found;
    }
    if let Some(head) = number.get(..4)
        && head.bytes().all(|b| b.is_ascii_uppercase())
        && let Ok(scac) = Scac::parse(head)
        && let Some(carrier) = matrix.resolve(&scac)
    {
        let code = std::iter::once(&carrier.scac)
            .chain(&carrier.alternative_scacs)
            .find(|known| known.as_str() == head)
            .map_or(carrier.scac.as_str(), Scac::as_str);
        found.push((carrier, code));
    }
    for shape in matrix.prefixed_shapes() {
        let Some(prefix) = shape.prefix.as_deref() else {
            continue;
        };
        if number.len() > prefix.len() && number.starts_with(prefix) {
            for carrier in matrix.shape_carriers(shape) {
                if !found.iter().any(|(known, _)| std::ptr::eq(*known, carrier)) {
                    found.push((carrier, prefix));
                }
            }
        }
    }
    found
}

/// The problem of a number one character shorter than the shortest or longer than the
/// longest number the shapes of `carrier` starting with `code` allow.
fn off_by_one(
    matrix: &CarrierMatrix,
    carrier: &Carrier,
    code: &str,
    number: &str,
) -> Option<Problem> {
    let (shortest, longest) = matrix
        .prefixed_shapes()
        .filter(|shape| shape.prefix.as_deref() == Some(code))
        .filter(|shape| {
            matrix
                .shape_carriers(shape)
                .any(|c| std::ptr::eq(c, carrier))
        })
        .map(|shape| (*shape.lengths.start(), *shape.lengths.end()))
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))?;
    let found = number.len();
    (found + 1 == shortest || found == longest + 1).then(|| Problem::ShapeLength {
        prefix: code.to_owned(),
        carrier: carrier.name.clone(),
        expected: shortest..=longest,
        found,
    })
}

/// The problem of a number laid out like a container number one digit short or long (four
/// letters ending in U, J or Z, then six or eight digits) under an owner code a carrier or
/// a lessor registered: a mistyped container number, not a bill that happens to fit a
/// carrier's bare shape.
fn container_off_by_one(matrix: &CarrierMatrix, number: &str) -> Option<Problem> {
    let bytes = number.as_bytes();
    let layout = bytes.len().abs_diff(ContainerNumber::LEN) == 1
        && bytes.len() >= 4
        && bytes[..4].iter().all(u8::is_ascii_uppercase)
        && matches!(bytes[3], b'U' | b'J' | b'Z')
        && bytes[4..].iter().all(u8::is_ascii_digit);
    let owner = number.get(..4)?;
    let registered = matrix.prefix_owners(owner).next().is_some() || matrix.lessor(owner).is_some();
    (layout && registered).then(|| Problem::ContainerLength {
        owner: owner.to_owned(),
        found: bytes.len(),
    })
}

/// The category letter of a number laid out like a container (four letters and seven
/// digits) whose category is not U, J or Z.
fn wrong_category(number: &str) -> Option<char> {
    let bytes = number.as_bytes();
    let layout = bytes.len() == 11
        && bytes[..4].iter().all(u8::is_ascii_uppercase)
        && bytes[4..].iter().all(u8::is_ascii_digit);
    let category = char::from(*bytes.get(3)?);
    (layout && !matches!(category, 'U' | 'J' | 'Z')).then_some(category)
}

/// Scales the confidences so the groups' shares add up to at most one.
fn share_between_groups(candidates: &mut [Candidate<'_>]) {
    let mut groups: Vec<(&str, u32)> = Vec::new();
    for candidate in candidates.iter() {
        let confidence = u32::from(candidate.confidence.percent());
        match groups
            .iter_mut()
            .find(|(group, _)| *group == candidate.carrier.group)
        {
            Some((_, best)) => *best = (*best).max(confidence),
            None => groups.push((&candidate.carrier.group, confidence)),
        }
    }
    let total: u32 = groups.iter().map(|(_, best)| best).sum();
    if total <= 100 {
        return;
    }
    for candidate in candidates {
        let scaled = u32::from(candidate.confidence.percent()) * 100 / total;
        candidate.confidence = Confidence::from_percent(u8::try_from(scaled).unwrap_or(100));
    }
}
