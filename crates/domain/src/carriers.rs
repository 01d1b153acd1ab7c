//! The carrier data matrix (`data/carriers.toml`): which SCACs Tidemark knows, what each
//! carrier tracks, which container prefixes belong to carriers and which to lessors.
//!
//! It is parsed and validated once at start: a malformed SCAC or prefix, a SCAC claimed
//! twice, or a container prefix claimed by two unrelated carriers (different groups) is an
//! error naming the rows involved, so bad data never reaches a running service.

use std::collections::HashMap;

use crate::number_shapes::{Shape, ShapeSet};
use crate::{RequestType, Scac};

/// The matrix as shipped with Tidemark.
pub const BUNDLED: &str = include_str!("../../../data/carriers.toml");

/// A shipping line as the API describes it (`shipping_line`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carrier {
    /// The canonical SCAC.
    pub scac: Scac,
    /// Full name.
    pub name: String,
    /// Short name.
    pub short_name: String,
    /// The group it belongs to (carriers of one group may share numbering and prefixes).
    pub group: String,
    /// Other SCACs clients may use for this carrier; stored as the canonical one.
    pub alternative_scacs: Vec<Scac>,
    /// BIC container prefixes registered to the carrier (owner code and `U`).
    pub container_prefixes: Vec<String>,
    /// Tracks master bills of lading.
    pub bill_of_lading: bool,
    /// Tracks booking numbers.
    pub booking_number: bool,
    /// Tracks container numbers.
    pub container: bool,
    /// Lines whose boxes this one carries on its own bills and tracks on its own website,
    /// so a box under their prefix may be this line's shipment (COSCO carries OOCL boxes).
    pub carries_boxes_of: Vec<Scac>,
    /// The public material behind the row.
    pub sources: Vec<String>,
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

/// A container prefix registered to a lessor, trader or tank operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lessor {
    /// The prefix, e.g. `TGHU`.
    pub prefix: String,
    /// Who holds it.
    pub owner: String,
    /// Lessor, trader, tank operator …
    pub category: String,
    /// A carrier whose dedicated lessor this is, when known.
    pub affiliation: Option<Scac>,
}

mod error;
mod records;
#[cfg(test)]
mod tests;

pub use error::MatrixError;
use records::{MatrixFile, carrier, lessor};

/// All known carriers and lessor prefixes, with their lookups.
#[derive(Debug, Clone)]
pub struct CarrierMatrix {
    carriers: Vec<Carrier>,
    by_scac: HashMap<Scac, usize>,
    by_prefix: HashMap<String, Vec<usize>>,
    lessors: HashMap<String, Lessor>,
    shapes: ShapeSet,
    /// For each carrier, the lines carrying its boxes on bills of their own.
    box_carriers: HashMap<Scac, Vec<usize>>,
}

impl CarrierMatrix {
    /// The matrix shipped with Tidemark.
    ///
    /// # Errors
    /// Never for a released build (a test parses it); kept fallible like any matrix.
    pub fn bundled() -> Result<Self, MatrixError> {
        Self::parse_toml(BUNDLED)
    }

    /// Parses and validates a matrix file.
    ///
    /// # Errors
    /// The first problem found, naming the rows involved.
    pub fn parse_toml(text: &str) -> Result<Self, MatrixError> {
        let file: MatrixFile =
            toml::from_str(text).map_err(|error| MatrixError::Format(error.to_string()))?;
        let mut carriers = Vec::with_capacity(file.carrier.len());
        for record in file.carrier {
            carriers.push(carrier(record)?);
        }
        let mut matrix = Self::new(carriers)?;
        for (index, carrier) in matrix.carriers.iter().enumerate() {
            for owner in &carrier.carries_boxes_of {
                let Some(owner) = matrix.resolve(owner).map(|owner| owner.scac) else {
                    return Err(MatrixError::UnknownBoxOwner {
                        carrier: carrier.name.clone(),
                        scac: owner.to_string(),
                    });
                };
                matrix.box_carriers.entry(owner).or_default().push(index);
            }
        }
        matrix.shapes = ShapeSet::build(file.shape, &matrix.carriers, |scac| {
            matrix.by_scac.get(scac).copied()
        })?;
        for record in file.lessor {
            let lessor = lessor(record, &matrix)?;
            if let Some(&index) = matrix
                .by_prefix
                .get(&lessor.prefix)
                .and_then(|owners| owners.first())
            {
                return Err(MatrixError::LessorConflict {
                    prefix: lessor.prefix,
                    carrier: matrix.carriers[index].name.clone(),
                });
            }
            matrix.lessors.insert(lessor.prefix.clone(), lessor);
        }
        Ok(matrix)
    }

    /// Builds the lookups over `carriers`, refusing a SCAC claimed twice or a prefix
    /// claimed by carriers of different groups.
    ///
    /// # Errors
    /// The first conflict found.
    pub fn new(carriers: Vec<Carrier>) -> Result<Self, MatrixError> {
        let mut by_scac = HashMap::new();
        let mut by_prefix: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, carrier) in carriers.iter().enumerate() {
            for scac in std::iter::once(&carrier.scac).chain(&carrier.alternative_scacs) {
                if let Some(previous) = by_scac.insert(*scac, index) {
                    return Err(MatrixError::ScacTwice {
                        scac: scac.to_string(),
                        first: carriers[previous].name.clone(),
                        second: carrier.name.clone(),
                    });
                }
            }
            for prefix in &carrier.container_prefixes {
                let owners = by_prefix.entry(prefix.clone()).or_default();
                if let Some(&other) = owners
                    .iter()
                    .find(|&&other| carriers[other].group != carrier.group)
                {
                    return Err(MatrixError::PrefixConflict {
                        prefix: prefix.clone(),
                        first: carriers[other].name.clone(),
                        second: carrier.name.clone(),
                    });
                }
                owners.push(index);
            }
        }
        Ok(Self {
            carriers,
            by_scac,
            by_prefix,
            lessors: HashMap::new(),
            shapes: ShapeSet::default(),
            box_carriers: HashMap::new(),
        })
    }

    /// The carrier using `scac`, canonical or alternative.
    #[must_use]
    pub fn resolve(&self, scac: &Scac) -> Option<&Carrier> {
        self.by_scac.get(scac).map(|&index| &self.carriers[index])
    }

    /// Every carrier, in file order.
    #[must_use]
    pub fn carriers(&self) -> &[Carrier] {
        &self.carriers
    }

    /// The carriers a container prefix is registered to (one group), in file order.
    pub fn prefix_owners(&self, prefix: &str) -> impl Iterator<Item = &Carrier> {
        self.by_prefix
            .get(prefix)
            .into_iter()
            .flatten()
            .map(|&index| &self.carriers[index])
    }

    /// The other lines known to carry `owner`'s boxes on bills of their own.
    pub fn box_carriers<'a>(&'a self, owner: &'a Carrier) -> impl Iterator<Item = &'a Carrier> {
        self.box_carriers
            .get(&owner.scac)
            .into_iter()
            .flatten()
            .map(|&index| &self.carriers[index])
    }

    /// The lessor holding a container prefix, if it is a lessor's.
    #[must_use]
    pub fn lessor(&self, prefix: &str) -> Option<&Lessor> {
        self.lessors.get(prefix)
    }

    /// Every lessor prefix, in no particular order.
    pub fn lessors(&self) -> impl Iterator<Item = &Lessor> {
        self.lessors.values()
    }

    /// Every number shape, in file order.
    #[must_use]
    pub fn shapes(&self) -> &[Shape] {
        self.shapes.all()
    }

    /// The shapes that start with a carrier's code, in file order.
    pub fn prefixed_shapes(&self) -> impl Iterator<Item = &Shape> {
        self.shapes.prefixed()
    }

    /// The shapes a number in normal form matches, in file order.
    pub fn matching_shapes(&self, number: &str) -> impl Iterator<Item = &Shape> {
        self.shapes.matches(number)
    }

    /// The carriers sharing a shape's numbering, the one to select first.
    pub fn shape_carriers<'a>(&'a self, shape: &'a Shape) -> impl Iterator<Item = &'a Carrier> {
        shape.carriers.iter().map(|&index| &self.carriers[index])
    }
}
