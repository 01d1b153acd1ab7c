//! Number shapes: the `[[shape]]` rows of the carrier matrix, compiled once into one
//! [`RegexSet`] so a number is matched against every shape in a single pass.

use regex::{Regex, RegexSet};
use serde::Deserialize;

use crate::carriers::MatrixError;
use crate::{Carrier, Scac};

/// What a shape says a number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShapeType {
    /// A master bill of lading.
    BillOfLading,
    /// A booking number.
    Booking,
}

/// One way a carrier (or a group sharing a numbering) writes its numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Indexes into the matrix's carriers; all of one group, the one to select first.
    pub(crate) carriers: Vec<usize>,
    /// Bill of lading or booking.
    pub number_type: ShapeType,
    /// The carrier's own code the number starts with, if the shape has one.
    pub prefix: Option<String>,
    /// The pattern of the rest, as written in the matrix.
    pub pattern: String,
    /// In hundredths, 1 to 99.
    pub confidence: u8,
    /// The evidence, in words, given as a candidate's `reason`.
    pub description: String,
    /// How many characters a number of this shape has, its prefix included.
    pub lengths: std::ops::RangeInclusive<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShapeRecord {
    carriers: Vec<String>,
    number_type: String,
    #[serde(default)]
    prefix: Option<String>,
    pattern: String,
    confidence: f64,
    description: String,
    #[serde(default)]
    examples: Vec<String>,
    source: String,
}

/// Every shape of the matrix, compiled.
#[derive(Debug, Clone)]
pub(crate) struct ShapeSet {
    shapes: Vec<Shape>,
    set: RegexSet,
    /// The shapes that start with a carrier's code.
    prefixed: Vec<usize>,
}

impl Default for ShapeSet {
    fn default() -> Self {
        Self {
            shapes: Vec::new(),
            set: RegexSet::empty(),
            prefixed: Vec::new(),
        }
    }
}

/// The anchored expression a shape compiles to.
fn full_pattern(prefix: Option<&str>, pattern: &str) -> String {
    format!("^{}(?:{pattern})$", prefix.unwrap_or_default())
}

fn is_prefix(text: &str) -> bool {
    (2..=6).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

impl ShapeSet {
    /// Validates and compiles the shape rows against the carriers they name.
    pub(crate) fn build(
        records: Vec<ShapeRecord>,
        carriers: &[Carrier],
        resolve: impl Fn(&Scac) -> Option<usize>,
    ) -> Result<Self, MatrixError> {
        let mut shapes = Vec::with_capacity(records.len());
        let mut patterns = Vec::with_capacity(records.len());
        for (row, record) in records.into_iter().enumerate() {
            let (shape, full) =
                compile(record, carriers, &resolve).map_err(|problem| MatrixError::Shape {
                    row: row + 1,
                    problem,
                })?;
            patterns.push(full);
            shapes.push(shape);
        }
        let set = RegexSet::new(&patterns).map_err(|error| MatrixError::Shape {
            row: 0,
            problem: error.to_string(),
        })?;
        let prefixed = (0..shapes.len())
            .filter(|&index| shapes[index].prefix.is_some())
            .collect();
        Ok(Self {
            shapes,
            set,
            prefixed,
        })
    }

    /// The shapes `number` (normal form) matches, in matrix order.
    pub(crate) fn matches(&self, number: &str) -> impl Iterator<Item = &Shape> {
        self.set
            .matches(number)
            .into_iter()
            .map(|index| &self.shapes[index])
    }

    /// Every shape, in matrix order.
    pub(crate) fn all(&self) -> &[Shape] {
        &self.shapes
    }

    /// The shapes that start with a carrier's code, in matrix order.
    pub(crate) fn prefixed(&self) -> impl Iterator<Item = &Shape> {
        self.prefixed.iter().map(|&index| &self.shapes[index])
    }
}

/// The shortest and longest numbers `pattern` matches (it is anchored and bounded: a shape
/// that matches numbers of any length is refused).
fn lengths(pattern: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let hir = regex_syntax::parse(pattern).map_err(|error| error.to_string())?;
    let properties = hir.properties();
    match (properties.minimum_len(), properties.maximum_len()) {
        (Some(min), Some(max)) => Ok(min..=max),
        _ => Err(format!(
            "pattern {pattern:?} has no longest match; bound every repetition"
        )),
    }
}

#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn percent(value: f64) -> u8 {
    (value * 100.0).round().clamp(1.0, 99.0) as u8
}

/// One shape row, checked: the shape and its whole pattern, or what is wrong with it.
fn compile(
    record: ShapeRecord,
    carriers: &[Carrier],
    resolve: impl Fn(&Scac) -> Option<usize>,
) -> Result<(Shape, String), String> {
    if record.description.trim().is_empty() || record.source.trim().is_empty() {
        return Err("`description` and `source` must not be empty".to_owned());
    }
    let number_type = match record.number_type.as_str() {
        "bill_of_lading" => ShapeType::BillOfLading,
        "booking" => ShapeType::Booking,
        other => {
            return Err(format!(
                "number_type {other:?} is not \"bill_of_lading\" or \"booking\""
            ));
        }
    };
    if !(0.01..=0.99).contains(&record.confidence) {
        return Err(format!(
            "confidence {} is not between 0.01 and 0.99 (a shape alone is never certain)",
            record.confidence
        ));
    }
    if let Some(prefix) = &record.prefix
        && !is_prefix(prefix)
    {
        return Err(format!(
            "prefix {prefix:?} is not 2 to 6 upper-case letters or digits"
        ));
    }
    let indexes = carrier_indexes(&record.carriers, carriers, resolve)?;
    let full = full_pattern(record.prefix.as_deref(), &record.pattern);
    let regex =
        Regex::new(&full).map_err(|error| format!("pattern {:?}: {error}", record.pattern))?;
    if regex.is_match("") {
        return Err(format!(
            "pattern {:?} matches an empty number",
            record.pattern
        ));
    }
    if let Some(example) = record.examples.iter().find(|e| !regex.is_match(e)) {
        return Err(format!("example {example:?} does not match the shape"));
    }
    let lengths = lengths(&full)?;
    let shape = Shape {
        carriers: indexes,
        number_type,
        prefix: record.prefix,
        pattern: record.pattern,
        // Checked to be in 0.01..=0.99 above, so the rounded value fits.
        confidence: percent(record.confidence),
        description: record.description.trim().to_owned(),
        lengths,
    };
    Ok((shape, full))
}

/// The carriers a shape names, by index: known SCACs of one group, at least one.
fn carrier_indexes(
    named: &[String],
    carriers: &[Carrier],
    resolve: impl Fn(&Scac) -> Option<usize>,
) -> Result<Vec<usize>, String> {
    let mut indexes = Vec::with_capacity(named.len());
    for text in named {
        let index = Scac::parse(text)
            .ok()
            .and_then(|scac| resolve(&scac))
            .ok_or_else(|| format!("carrier {text:?} is not a known SCAC"))?;
        if let Some(&first) = indexes.first() {
            let (a, b): (&Carrier, &Carrier) = (&carriers[first], &carriers[index]);
            if a.group != b.group {
                return Err(format!(
                    "{} and {} are not in one group; list unrelated carriers in separate shapes",
                    a.scac, b.scac
                ));
            }
        }
        indexes.push(index);
    }
    if indexes.is_empty() {
        return Err("`carriers` must not be empty".to_owned());
    }
    Ok(indexes)
}
