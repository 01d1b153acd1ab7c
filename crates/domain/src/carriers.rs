//! The carrier data matrix (`data/carriers.toml`): which SCACs Tidemark knows, what each
//! carrier tracks, which container prefixes belong to carriers and which to lessors.
//!
//! It is parsed and validated once at start: a malformed SCAC or prefix, a SCAC claimed
//! twice, or a container prefix claimed by two unrelated carriers (different groups) is an
//! error naming the rows involved, so bad data never reaches a running service.

use std::collections::HashMap;

use serde::Deserialize;

use crate::number_shapes::{Shape, ShapeRecord, ShapeSet};
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
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatrixFile {
    carrier: Vec<CarrierRecord>,
    #[serde(default)]
    shape: Vec<ShapeRecord>,
    #[serde(default)]
    lessor: Vec<LessorRecord>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CarrierRecord {
    scac: String,
    name: String,
    short_name: String,
    group: String,
    alternative_scacs: Vec<String>,
    container_prefixes: Vec<String>,
    bill_of_lading: bool,
    booking_number: bool,
    container: bool,
    capabilities_source: String,
    // Observations kept for people and for the number shapes; not read here yet.
    #[serde(default)]
    bl_prefixes: Option<String>,
    #[serde(default)]
    bl_pattern_observed_text: Option<String>,
    #[serde(default)]
    booking_pattern_observed_text: Option<String>,
    #[serde(default)]
    notes: Option<String>,
    sources: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LessorRecord {
    prefix: String,
    owner: String,
    category: String,
    #[serde(default)]
    affiliation: Option<String>,
    sources: Vec<String>,
}

fn is_container_prefix(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 4
        && bytes[..3].iter().all(u8::is_ascii_uppercase)
        && matches!(bytes[3], b'U' | b'J' | b'Z')
}

/// All known carriers and lessor prefixes, with their lookups.
#[derive(Debug, Clone)]
pub struct CarrierMatrix {
    carriers: Vec<Carrier>,
    by_scac: HashMap<Scac, usize>,
    by_prefix: HashMap<String, Vec<usize>>,
    lessors: HashMap<String, Lessor>,
    shapes: ShapeSet,
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

fn carrier(record: CarrierRecord) -> Result<Carrier, MatrixError> {
    let name = record.name.trim().to_owned();
    let scac = |value: &str| {
        Scac::parse(value).map_err(|_| MatrixError::Scac {
            carrier: name.clone(),
            value: value.to_owned(),
        })
    };
    for (field, value) in [
        ("name", &record.name),
        ("short_name", &record.short_name),
        ("group", &record.group),
        ("capabilities_source", &record.capabilities_source),
    ] {
        if value.trim().is_empty() {
            return Err(MatrixError::Empty {
                carrier: name.clone(),
                field,
            });
        }
    }
    if record.sources.is_empty() {
        return Err(MatrixError::Empty {
            carrier: name.clone(),
            field: "sources",
        });
    }
    if let Some(bad) = record
        .container_prefixes
        .iter()
        .find(|p| !is_container_prefix(p))
    {
        return Err(MatrixError::Prefix {
            owner: name.clone(),
            value: bad.clone(),
        });
    }
    let _ = (
        &record.bl_prefixes,
        &record.bl_pattern_observed_text,
        &record.booking_pattern_observed_text,
        &record.notes,
    );
    Ok(Carrier {
        scac: scac(&record.scac)?,
        alternative_scacs: record
            .alternative_scacs
            .iter()
            .map(|alt| scac(alt))
            .collect::<Result<_, _>>()?,
        short_name: record.short_name.trim().to_owned(),
        group: record.group.trim().to_owned(),
        container_prefixes: record.container_prefixes,
        bill_of_lading: record.bill_of_lading,
        booking_number: record.booking_number,
        container: record.container,
        sources: record.sources,
        name,
    })
}

fn lessor(record: LessorRecord, matrix: &CarrierMatrix) -> Result<Lessor, MatrixError> {
    if !is_container_prefix(&record.prefix) {
        return Err(MatrixError::Prefix {
            owner: record.owner,
            value: record.prefix,
        });
    }
    if record.sources.is_empty() {
        return Err(MatrixError::Empty {
            carrier: record.owner,
            field: "sources",
        });
    }
    let affiliation = match record.affiliation {
        None => None,
        Some(text) => match Scac::parse(&text)
            .ok()
            .filter(|scac| matrix.resolve(scac).is_some())
        {
            Some(scac) => Some(scac),
            None => {
                return Err(MatrixError::UnknownAffiliation {
                    prefix: record.prefix,
                    scac: text,
                });
            }
        },
    };
    Ok(Lessor {
        prefix: record.prefix,
        owner: record.owner,
        category: record.category,
        affiliation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scac(text: &str) -> Scac {
        Scac::parse(text).expect("valid SCAC")
    }

    fn matrix() -> CarrierMatrix {
        CarrierMatrix::bundled().expect("the bundled matrix is valid")
    }

    #[test]
    fn the_bundled_matrix_is_valid_and_complete() {
        let matrix = matrix();
        assert_eq!(
            matrix.carriers().len(),
            74,
            "73 reference carriers and the sandbox"
        );
        assert!(matrix.resolve(&scac("TEST")).is_some());
        assert!(matrix.lessor("TGHU").is_some(), "Textainer is a lessor");
        assert_eq!(
            matrix.lessor("KOCU").and_then(|l| l.affiliation),
            Some(scac("HDMU"))
        );
    }

    #[test]
    fn alternative_scacs_resolve_to_the_canonical_carrier() {
        let matrix = matrix();
        assert_eq!(
            matrix.resolve(&scac("medu")).map(|c| c.scac),
            Some(scac("MSCU"))
        );
        assert_eq!(
            matrix.resolve(&scac("YMJA")).map(|c| c.scac),
            Some(scac("YMLU"))
        );
    }

    #[test]
    fn capabilities_follow_the_matrix() {
        let matrix = matrix();
        let evergreen = matrix.resolve(&scac("EGLV")).expect("known");
        assert!(evergreen.supports(RequestType::Container));
        assert!(!evergreen.supports(RequestType::BillOfLading));
    }

    #[test]
    fn prefixes_map_to_their_group() {
        let matrix = matrix();
        let owners: Vec<_> = matrix
            .prefix_owners("SUDU")
            .map(|c| c.scac.to_string())
            .collect();
        assert!(
            owners.contains(&"MAEU".to_owned()) && owners.contains(&"SUDU".to_owned()),
            "{owners:?}"
        );
        assert!(matrix.prefix_owners("TGHU").next().is_none());
    }

    const ROW: &str = r#"
[[carrier]]
scac = "AAAA"
name = "Alpha"
short_name = "Alpha"
group = "Alpha"
alternative_scacs = []
container_prefixes = ["AAAU"]
bill_of_lading = true
booking_number = true
container = true
capabilities_source = "test"
sources = ["test"]
"#;

    fn with(second: &str) -> Result<CarrierMatrix, MatrixError> {
        CarrierMatrix::parse_toml(&format!("{ROW}\n{second}"))
    }

    fn row(scac: &str, group: &str, prefix: &str) -> String {
        ROW.replace("\"AAAA\"", &format!("{scac:?}"))
            .replace("group = \"Alpha\"", &format!("group = {group:?}"))
            .replace("\"AAAU\"", &format!("{prefix:?}"))
            .replace("name = \"Alpha\"", &format!("name = \"Row {scac}\""))
    }

    #[test]
    fn a_prefix_of_two_unrelated_carriers_is_refused() {
        assert!(matches!(
            with(&row("BBBB", "Beta", "AAAU")),
            Err(MatrixError::PrefixConflict { .. })
        ));
        assert!(
            with(&row("BBBB", "Alpha", "AAAU")).is_ok(),
            "one group may share prefixes"
        );
    }

    fn shape(fields: &str) -> Result<CarrierMatrix, MatrixError> {
        with(&format!(
            "{}\n[[shape]]\n{fields}\ndescription = \"d\"\nsource = \"s\"\n",
            row("BBBB", "Beta", "BBBU")
        ))
    }

    #[test]
    fn number_shapes_are_validated_at_load() {
        let good = "carriers = [\"AAAA\"]\nnumber_type = \"booking\"\npattern = \"[0-9]{9}\"\nconfidence = 0.5\nexamples = [\"123456789\"]";
        let matrix = shape(good).expect("a valid shape");
        assert_eq!(matrix.shapes().len(), 1);
        assert_eq!(matrix.matching_shapes("123456789").count(), 1);
        assert_eq!(matrix.matching_shapes("1234567890").count(), 0, "anchored");
        for (fields, expected) in [
            (good.replace("[0-9]{9}", "[0-9"), "pattern"),
            (
                good.replace("\"AAAA\"]", "\"AAAA\", \"BBBB\"]"),
                "not in one group",
            ),
            (good.replace("\"AAAA\"]", "\"ZZZZ\"]"), "not a known SCAC"),
            (good.replace("0.5", "1.0"), "confidence"),
            (good.replace("\"booking\"", "\"container\""), "number_type"),
            (
                good.replace("123456789\"]", "12345678\"]"),
                "example \"12345678\"",
            ),
            (good.replace("[0-9]{9}", "[0-9]*"), "empty number"),
            (format!("{good}\nprefix = \"a b\""), "prefix"),
        ] {
            let error = shape(&fields).expect_err(expected);
            assert!(
                matches!(error, MatrixError::Shape { row: 1, .. })
                    && error.to_string().contains(expected),
                "{error} should mention {expected}"
            );
        }
    }

    #[test]
    fn malformed_rows_are_refused_with_their_name() {
        let error = with(&row("BB-B", "Beta", "BBBU")).expect_err("bad SCAC");
        assert!(error.to_string().contains("BB-B"), "{error}");
        assert!(matches!(
            with(&row("BBBB", "Beta", "BBBX")),
            Err(MatrixError::Prefix { .. })
        ));
        assert!(matches!(
            with(&row("AAAA", "Beta", "BBBU")),
            Err(MatrixError::ScacTwice { .. })
        ));
        assert!(matches!(
            CarrierMatrix::parse_toml("[[carrier]]\nscac = 1"),
            Err(MatrixError::Format(_))
        ));
        assert!(matches!(
            with(
                "[[lessor]]\nprefix = \"AAAU\"\nowner = \"L\"\ncategory = \"lessor\"\nsources = [\"x\"]\n"
            ),
            Err(MatrixError::LessorConflict { .. })
        ));
        assert!(matches!(
            with(
                "[[lessor]]\nprefix = \"LLLU\"\nowner = \"L\"\ncategory = \"lessor\"\naffiliation = \"ZZZZ\"\nsources = [\"x\"]\n"
            ),
            Err(MatrixError::UnknownAffiliation { .. })
        ));
    }
}
