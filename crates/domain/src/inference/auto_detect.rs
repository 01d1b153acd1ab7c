//! Auto-detection of a tracking request's carrier from its number.

use super::{Decision, infer};
use crate::{Carrier, CarrierMatrix, RequestType};

/// Why a SCAC could not be detected for a tracking request (`scac_auto_detect_failed`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AutoDetectFailure {
    /// No carrier reached `auto_select`.
    #[error("no carrier could be selected with confidence (the best was {best})")]
    NotConfident {
        /// The best candidate and its confidence in hundredths, or "none".
        best: String,
    },
    /// The number is not of the kind the request says.
    #[error("the number looks like a {inferred}, not a {requested}")]
    WrongType {
        /// What the number looks like.
        inferred: &'static str,
        /// What the request says.
        requested: &'static str,
    },
    /// The selected carrier does not track this kind of number.
    #[error("{scac} was selected but does not track {requested} numbers")]
    Unsupported {
        /// The selected carrier.
        scac: String,
        /// What the request says.
        requested: &'static str,
    },
}

/// The carrier a tracking request with `auto_detect_vocc_scac` and no SCAC is looked up
/// with: the inference's `auto_select` choice, provided the number is of the requested
/// kind and the carrier tracks that kind.
///
/// # Errors
/// Why no carrier can be used; the request then fails with `scac_auto_detect_failed`.
pub fn auto_detect<'m>(
    matrix: &'m CarrierMatrix,
    number: &str,
    requested: RequestType,
) -> Result<&'m Carrier, AutoDetectFailure> {
    let inference = infer(matrix, number);
    if let Some(inferred) = inference.number_type
        && inferred.request_type() != requested
    {
        return Err(AutoDetectFailure::WrongType {
            inferred: inferred.as_str(),
            requested: requested.as_str(),
        });
    }
    let best = inference.candidates.first();
    let selected = match (inference.decision(), best) {
        (Decision::AutoSelect, Some(best)) => best.carrier,
        (_, best) => {
            return Err(AutoDetectFailure::NotConfident {
                best: best.map_or_else(
                    || "none".to_owned(),
                    |c| format!("{} at {:.2}", c.carrier.scac, c.confidence.value()),
                ),
            });
        }
    };
    if !selected.supports(requested) {
        return Err(AutoDetectFailure::Unsupported {
            scac: selected.scac.to_string(),
            requested: requested.as_str(),
        });
    }
    Ok(selected)
}
