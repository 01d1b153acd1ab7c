//! Why a carrier matrix file is refused.

/// Why a matrix file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatrixError {
    /// Not TOML, or not the expected fields.
    #[error("the carrier matrix is not valid: {0}")]
    Format(String),
    /// A SCAC that is not four letters or digits.
    #[error("carrier {carrier:?}: {value:?} is not a SCAC (four letters or digits)")]
    Scac {
        /// The row.
        carrier: String,
        /// The value.
        value: String,
    },
    /// A container prefix that is not three letters and U, J or Z.
    #[error("{owner:?}: {value:?} is not a container prefix (three letters and U, J or Z)")]
    Prefix {
        /// The row.
        owner: String,
        /// The value.
        value: String,
    },
    /// A required text field is empty.
    #[error("carrier {carrier:?}: {field} must not be empty")]
    Empty {
        /// The row.
        carrier: String,
        /// The field.
        field: &'static str,
    },
    /// Two carriers use one SCAC (canonical or alternative).
    #[error("SCAC {scac} is claimed by both {first:?} and {second:?}")]
    ScacTwice {
        /// The SCAC.
        scac: String,
        /// The first carrier.
        first: String,
        /// The second carrier.
        second: String,
    },
    /// Two carriers of different groups claim one container prefix.
    #[error(
        "container prefix {prefix} is claimed by {first:?} and {second:?}, which are not in one group"
    )]
    PrefixConflict {
        /// The prefix.
        prefix: String,
        /// The first carrier.
        first: String,
        /// The second carrier.
        second: String,
    },
    /// A prefix is listed both as a lessor's and as a carrier's.
    #[error("container prefix {prefix} is listed as a lessor's and as {carrier:?}'s")]
    LessorConflict {
        /// The prefix.
        prefix: String,
        /// The carrier.
        carrier: String,
    },
    /// A `[[shape]]` row is malformed (row 1 is the first shape of the file).
    #[error("number shape {row}: {problem}")]
    Shape {
        /// The shape's position among the `[[shape]]` rows.
        row: usize,
        /// What is wrong.
        problem: String,
    },
    /// A lessor's affiliation names no known carrier.
    #[error("lessor prefix {prefix}: affiliation {scac:?} is not a known SCAC")]
    UnknownAffiliation {
        /// The prefix.
        prefix: String,
        /// The value.
        scac: String,
    },
    /// A carrier's `carries_boxes_of` names no known carrier.
    #[error("carrier {carrier:?}: carries_boxes_of {scac:?} is not a known SCAC")]
    UnknownBoxOwner {
        /// The row.
        carrier: String,
        /// The value.
        scac: String,
    },
}
