//! Why a carrier is a candidate, and the candidate's `reason` in words.

use std::fmt;

use super::NumberType;
use crate::number_shapes::Shape;
use crate::{Carrier, Confidence, Lessor, RequestType};

/// Why a carrier is a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence<'m> {
    /// The container prefix is registered to the carrier.
    OwnerPrefix {
        /// The prefix.
        prefix: [u8; 4],
        /// The prefix is registered to several carriers of one group.
        group: Option<&'m str>,
        /// The number fails its check digit.
        failed_check_digit: bool,
        /// Other lines carry the owner's boxes on bills of their own.
        carried_by_others: bool,
    },
    /// The container prefix is registered to a line whose boxes this carrier carries on
    /// bills of its own.
    BoxCarrier {
        /// The prefix.
        prefix: [u8; 4],
        /// The line the prefix is registered to.
        owner: &'m Carrier,
    },
    /// The container prefix is a lessor's dedicated to the carrier.
    Lessor(&'m Lessor),
    /// The number has one of the carrier's shapes.
    Shape(&'m Shape),
    /// The number starts with the carrier's code, but the rest fits none of its shapes.
    Named {
        /// The code it starts with (a SCAC, an alternative SCAC or a bill prefix).
        code: &'m str,
    },
}

/// A carrier that may track the number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate<'m> {
    /// The carrier.
    pub carrier: &'m Carrier,
    /// How likely tracking with this carrier finds the number.
    pub confidence: Confidence,
    /// Why.
    pub evidence: Evidence<'m>,
}

impl Candidate<'_> {
    /// The kind of number the evidence is about.
    fn request_type(&self) -> RequestType {
        match self.evidence {
            Evidence::OwnerPrefix { .. } | Evidence::BoxCarrier { .. } | Evidence::Lessor(_) => {
                RequestType::Container
            }
            Evidence::Shape(shape) => NumberType::from(shape.number_type).request_type(),
            Evidence::Named { .. } => RequestType::BillOfLading,
        }
    }
}

/// The candidate's `reason`: the evidence in words, and a warning when the carrier does
/// not track this kind of number.
impl fmt::Display for Candidate<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.carrier.name;
        match self.evidence {
            Evidence::OwnerPrefix {
                prefix,
                group,
                failed_check_digit,
                carried_by_others,
            } => {
                let prefix = std::str::from_utf8(&prefix).unwrap_or("????");
                write!(f, "container prefix {prefix} is registered to {name}")?;
                if let Some(group) = group {
                    write!(f, " and shared within the {group} group")?;
                }
                if carried_by_others {
                    f.write_str(
                        ", whose boxes other lines also carry on their own bills; confirm the line",
                    )?;
                }
                if failed_check_digit {
                    f.write_str("; the check digit fails, so the number is probably mistyped")?;
                }
            }
            Evidence::BoxCarrier { prefix, owner } => write!(
                f,
                "container prefix {} is registered to {}, whose boxes {name} also carries on its own bills",
                std::str::from_utf8(&prefix).unwrap_or("????"),
                owner.name
            )?,
            Evidence::Lessor(lessor) => write!(
                f,
                "container prefix {} belongs to {} ({}), which works mainly for {name}; its boxes also travel with other lines",
                lessor.prefix, lessor.owner, lessor.category
            )?,
            Evidence::Shape(shape) => f.write_str(&shape.description)?,
            Evidence::Named { code } => write!(
                f,
                "starts with {code}, a code of {name}, but the rest fits none of its number shapes; check the number"
            )?,
        }
        let kind = self.request_type();
        if !self.carrier.supports(kind) {
            let what = match kind {
                RequestType::Container => "container numbers",
                RequestType::BillOfLading => "bills of lading",
                RequestType::BookingNumber => "booking numbers",
            };
            write!(f, " ({name} cannot be tracked by {what} here)")?;
        }
        Ok(())
    }
}
