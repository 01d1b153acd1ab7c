//! The ISO 6346 reading of a number with a container number's layout.

use super::validation::{FormatKind, Problem, Suspicion, Validation, placeholder_run};
use super::{
    BOX_CARRIER, Candidate, Evidence, GROUP_PREFIX, Inference, LESSOR_AFFILIATION, NumberType,
    OWNER_PREFIX, OWNER_PREFIX_FAILED_CHECK,
};
use crate::container_number::{ContainerNumber, InvalidContainerNumber};
use crate::{Carrier, CarrierMatrix};

/// The ISO 6346 reading, when the number has a container number's layout (a slash
/// before the check digit is allowed).
///
/// - A prefix registered to one carrier selects it; one shared by several lines of a
///   group lists each of them for the user to confirm, and so does one whose owner's boxes
///   other lines carry on bills of their own (the owner first, those lines after).
/// - A serial that runs like a placeholder (`000000`, `345678`) is a [`Suspicion`]: the
///   number stays valid when its check digit passes, its prefix still names its carrier,
///   and the decision is lowered to `needs_confirmation`.
pub(super) fn container<'m>(matrix: &'m CarrierMatrix, normalized: &str) -> Option<Inference<'m>> {
    let (parsed_number, problem) = match ContainerNumber::parse(normalized) {
        Ok(number) => (String::from(number), None),
        Err(InvalidContainerNumber::CheckDigit {
            found,
            expected,
            normalized,
        }) => (normalized, Some(Problem::CheckDigit { found, expected })),
        Err(InvalidContainerNumber::Layout) => return None,
    };
    let check_digit_passed = problem.is_none();
    let serial = &parsed_number[4..10];
    let suspicion = placeholder_run(serial).map(|run| Suspicion::Placeholder {
        digits: serial.to_owned(),
        run,
    });
    let candidates = owners(matrix, &parsed_number, !check_digit_passed);
    Some(Inference {
        number_type: Some(NumberType::Container),
        validation: Validation {
            is_valid: Some(problem.is_none()),
            kind: FormatKind::Container,
            check_digit_passed: Some(check_digit_passed),
            problem,
            suspicion,
        },
        candidates,
        parsed_number,
    })
}

/// The carriers the prefix of `number` points at.
fn owners<'m>(matrix: &'m CarrierMatrix, number: &str, failed: bool) -> Vec<Candidate<'m>> {
    let bytes = number.as_bytes();
    let prefix = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let code = &number[..4];
    let mut owned: Vec<&Carrier> = matrix.prefix_owners(code).collect();
    if owned.is_empty() {
        return matrix
            .lessor(code)
            .and_then(|lessor| {
                let carrier = lessor.affiliation.and_then(|scac| matrix.resolve(&scac))?;
                Some(Candidate {
                    carrier,
                    confidence: LESSOR_AFFILIATION,
                    evidence: Evidence::Lessor(lessor),
                })
            })
            .into_iter()
            .collect();
    }
    // The brand first, the group after: the owner registering the fewest prefixes is the
    // most specific brand (SEAU: Sealand before Maersk).
    owned.sort_by_key(|carrier| carrier.container_prefixes.len());
    let group = (owned.len() > 1).then(|| owned[0].group.as_str());
    // Lines carrying an owner's boxes on their own bills make the owner one of several.
    let box_carriers: Vec<(&Carrier, &Carrier)> = owned
        .iter()
        .flat_map(|&owner| matrix.box_carriers(owner).map(move |other| (other, owner)))
        .filter(|(other, _)| !owned.iter().any(|known| std::ptr::eq(*known, *other)))
        .collect();
    let carried_by_others = !box_carriers.is_empty();
    let confidence = if group.is_some() || carried_by_others {
        GROUP_PREFIX
    } else if failed {
        OWNER_PREFIX_FAILED_CHECK
    } else {
        OWNER_PREFIX
    };
    let mut candidates: Vec<Candidate<'m>> = owned
        .into_iter()
        .map(|carrier| Candidate {
            carrier,
            confidence,
            evidence: Evidence::OwnerPrefix {
                prefix,
                group,
                failed_check_digit: failed,
                carried_by_others,
            },
        })
        .collect();
    for (carrier, owner) in box_carriers {
        if !candidates.iter().any(|c| std::ptr::eq(c.carrier, carrier)) {
            candidates.push(Candidate {
                carrier,
                confidence: BOX_CARRIER,
                evidence: Evidence::BoxCarrier { prefix, owner },
            });
        }
    }
    candidates
}
