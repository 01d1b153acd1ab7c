//! Tidemark's wire format: the JSON:API documents of its resources (tracking requests,
//! shipments, containers, transport events, ports, terminals, vessels, parties) and the records a
//! webhook notification carries. Rendered once, here, for both the API's answers and the
//! notifications the workers freeze; neither reaches into the other.

pub mod container;
pub mod custom_field;
pub mod custom_field_definition;
pub mod document;
pub mod event_records;
pub mod infer_number;
pub mod links;
pub mod map;
pub mod metrics;
pub mod party;
pub mod reference;
mod schema;
pub mod search;
pub mod shipment;
pub mod tracking_request;
pub mod vessel;

pub use event_records::EventRecords;

/// The IANA time zone of the port or inland place with this UN/LOCODE, as the bundled
/// places know it (`tidemark_domain::gazetteer`); null for a place they do not know.
pub fn time_zone(locode: Option<&str>) -> Option<String> {
    locode
        .and_then(|code| tidemark_domain::gazetteer::Gazetteer::bundled().time_zone(code))
        .map(str::to_owned)
}

/// A place's name: as the bundled places know it, else as it was reported.
pub(crate) fn place_name(place: Option<&tidemark_domain::Place>) -> Option<String> {
    let place = place?;
    tidemark_domain::gazetteer::Gazetteer::bundled()
        .place(&place.locode)
        .map(|known| known.name.to_owned())
        .or_else(|| place.name.clone())
}

/// A time as the wire shows it (RFC 3339, UTC), or null.
pub(crate) fn time(at: Option<tidemark_domain::Timestamp>) -> Option<String> {
    at.map(|at| at.to_string())
}
