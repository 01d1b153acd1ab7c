//! The rows of `data/carriers.toml` as written, and their validation into domain types.

use serde::Deserialize;

use super::{Carrier, CarrierMatrix, Lessor, MatrixError};
use crate::Scac;
use crate::number_shapes::ShapeRecord;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MatrixFile {
    pub(super) carrier: Vec<CarrierRecord>,
    #[serde(default)]
    pub(super) shape: Vec<ShapeRecord>,
    #[serde(default)]
    pub(super) lessor: Vec<LessorRecord>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CarrierRecord {
    scac: String,
    name: String,
    short_name: String,
    group: String,
    alternative_scacs: Vec<String>,
    container_prefixes: Vec<String>,
    bill_of_lading: bool,
    booking_number: bool,
    container: bool,
    #[serde(default)]
    carries_boxes_of: Vec<String>,
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
pub(super) struct LessorRecord {
    prefix: String,
    owner: String,
    category: String,
    #[serde(default)]
    affiliation: Option<String>,
    sources: Vec<String>,
}

pub(super) fn is_container_prefix(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 4
        && bytes[..3].iter().all(u8::is_ascii_uppercase)
        && matches!(bytes[3], b'U' | b'J' | b'Z')
}

pub(super) fn carrier(record: CarrierRecord) -> Result<Carrier, MatrixError> {
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
        carries_boxes_of: record
            .carries_boxes_of
            .iter()
            .map(|owner| scac(owner))
            .collect::<Result<_, _>>()?,
        sources: record.sources,
        name,
    })
}

pub(super) fn lessor(record: LessorRecord, matrix: &CarrierMatrix) -> Result<Lessor, MatrixError> {
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
