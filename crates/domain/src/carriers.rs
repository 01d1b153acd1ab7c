//! The carrier table: which SCACs Tidemark knows and what each carrier can track.
//!
//! This is the interim built-in list; the full carrier data matrix (`data/carriers.toml`)
//! replaces its source without changing this interface.

use std::collections::HashMap;

use crate::{RequestType, Scac};

/// A shipping line as the API describes it (`shipping_line`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carrier {
    /// The canonical SCAC.
    pub scac: Scac,
    /// Full name.
    pub name: String,
    /// Short name.
    pub short_name: String,
    /// Other SCACs clients may use for this carrier; stored as the canonical one.
    pub alternative_scacs: Vec<Scac>,
    /// Tracks master bills of lading.
    pub bill_of_lading: bool,
    /// Tracks booking numbers.
    pub booking_number: bool,
    /// Tracks container numbers.
    pub container: bool,
}

impl Carrier {
    /// Whether the carrier can track this kind of number.
    #[must_use]
    pub const fn supports(&self, kind: RequestType) -> bool {
        match kind {
            RequestType::BillOfLading => self.bill_of_lading,
            RequestType::BookingNumber => self.booking_number,
            RequestType::Container => self.container,
        }
    }
}

/// All known carriers, looked up by canonical or alternative SCAC.
#[derive(Debug, Clone)]
pub struct CarrierMatrix {
    carriers: Vec<Carrier>,
    by_scac: HashMap<Scac, usize>,
}

/// A carrier table that contradicts itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("SCAC {scac} is claimed by both {first} and {second}")]
pub struct ConflictingScac {
    /// The SCAC claimed twice.
    pub scac: Scac,
    /// The first carrier claiming it.
    pub first: String,
    /// The second carrier claiming it.
    pub second: String,
}

impl CarrierMatrix {
    /// Builds the lookup, refusing a SCAC claimed by two carriers.
    ///
    /// # Errors
    /// When two carriers share a canonical or alternative SCAC.
    pub fn new(carriers: Vec<Carrier>) -> Result<Self, ConflictingScac> {
        let mut by_scac = HashMap::new();
        for (index, carrier) in carriers.iter().enumerate() {
            for scac in std::iter::once(&carrier.scac).chain(&carrier.alternative_scacs) {
                if let Some(previous) = by_scac.insert(*scac, index) {
                    return Err(ConflictingScac {
                        scac: *scac,
                        first: carriers[previous].name.clone(),
                        second: carrier.name.clone(),
                    });
                }
            }
        }
        Ok(Self { carriers, by_scac })
    }

    /// The carrier using `scac`, canonical or alternative.
    #[must_use]
    pub fn resolve(&self, scac: &Scac) -> Option<&Carrier> {
        self.by_scac.get(scac).map(|&index| &self.carriers[index])
    }

    /// Every carrier, in table order.
    #[must_use]
    pub fn carriers(&self) -> &[Carrier] {
        &self.carriers
    }

    /// The built-in table: the sandbox carrier `TEST` and the largest lines with the
    /// capabilities listed in `reference/carriers.csv`.
    #[must_use]
    pub fn builtin() -> Self {
        // (scac, name, short name, alternative SCACs, BL, booking, container)
        type Row = (
            &'static str,
            &'static str,
            &'static str,
            &'static [&'static str],
            bool,
            bool,
            bool,
        );
        const ROWS: &[Row] = &[
            (
                "TEST",
                "Tidemark Test Carrier",
                "Test",
                &[],
                true,
                true,
                true,
            ),
            (
                "MSCU",
                "Mediterranean Shipping Company",
                "MSC",
                &["MEDU"],
                true,
                true,
                true,
            ),
            ("MAEU", "Maersk", "Maersk", &[], true, true, true),
            (
                "SEAU",
                "Sealand - A Maersk Company",
                "Sealand",
                &["SEAL"],
                true,
                true,
                true,
            ),
            ("CMDU", "CMA CGM", "CMA CGM", &[], true, true, true),
            (
                "COSU",
                "COSCO Shipping Lines",
                "COSCO",
                &[],
                true,
                true,
                false,
            ),
            (
                "OOLU",
                "Orient Overseas Container Line",
                "OOCL",
                &[],
                true,
                true,
                true,
            ),
            ("HLCU", "Hapag-Lloyd", "Hapag-Lloyd", &[], true, true, true),
            (
                "EGLV",
                "Evergreen Line",
                "Evergreen",
                &[],
                false,
                false,
                true,
            ),
            (
                "ONEY",
                "Ocean Network Express",
                "ONE",
                &[],
                true,
                true,
                true,
            ),
            ("HDMU", "HMM", "HMM", &[], true, true, true),
            (
                "YMLU",
                "Yang Ming",
                "Yang Ming",
                &["YMPR", "YMSG", "YMJA"],
                true,
                true,
                true,
            ),
            ("ZIMU", "ZIM", "ZIM", &[], true, true, false),
            ("WHLC", "Wan Hai Lines", "Wan Hai", &[], true, true, true),
            (
                "PCIU",
                "Pacific International Lines",
                "PIL",
                &[],
                false,
                false,
                true,
            ),
        ];
        let carriers = ROWS
            .iter()
            .filter_map(
                |&(scac, name, short_name, alternatives, bl, booking, container)| {
                    Some(Carrier {
                        scac: Scac::parse(scac).ok()?,
                        name: name.to_owned(),
                        short_name: short_name.to_owned(),
                        alternative_scacs: alternatives
                            .iter()
                            .filter_map(|alt| Scac::parse(alt).ok())
                            .collect(),
                        bill_of_lading: bl,
                        booking_number: booking,
                        container,
                    })
                },
            )
            .collect();
        // The built-in rows are distinct; a conflict here is a programming error caught by tests.
        Self::new(carriers).unwrap_or_else(|_| Self {
            carriers: Vec::new(),
            by_scac: HashMap::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scac(text: &str) -> Scac {
        Scac::parse(text).expect("valid SCAC")
    }

    #[test]
    fn the_builtin_table_is_consistent_and_has_the_sandbox() {
        let matrix = CarrierMatrix::builtin();
        assert!(matrix.carriers().len() >= 15);
        assert!(matrix.resolve(&scac("TEST")).is_some());
    }

    #[test]
    fn alternative_scacs_resolve_to_the_canonical_carrier() {
        let matrix = CarrierMatrix::builtin();
        let carrier = matrix
            .resolve(&scac("medu"))
            .expect("MEDU is MSC's alternative");
        assert_eq!(carrier.scac, scac("MSCU"));
    }

    #[test]
    fn capabilities_follow_the_table() {
        let matrix = CarrierMatrix::builtin();
        let evergreen = matrix.resolve(&scac("EGLV")).expect("known");
        assert!(evergreen.supports(RequestType::Container));
        assert!(!evergreen.supports(RequestType::BillOfLading));
    }

    #[test]
    fn a_scac_claimed_twice_is_refused() {
        let carrier = |code: &str, alternatives: Vec<Scac>| Carrier {
            scac: scac(code),
            name: code.to_owned(),
            short_name: code.to_owned(),
            alternative_scacs: alternatives,
            bill_of_lading: true,
            booking_number: true,
            container: true,
        };
        let error = CarrierMatrix::new(vec![
            carrier("AAAA", vec![]),
            carrier("BBBB", vec![scac("AAAA")]),
        ])
        .expect_err("conflict");
        assert_eq!(error.scac, scac("AAAA"));
    }
}
