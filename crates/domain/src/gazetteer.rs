//! Reference places (api.md §4; `data/places/README.md`): sea ports and inland places
//! (metro areas) by UN/LOCODE, with their coordinates and IANA time zone, and terminals by
//! their port and SMDG or FIRMS code, with their names and addresses. Bundled from public
//! data sets by `data/import_places.py`; nothing here is invented.
//!
//! What carriers and terminals report is matched to it: a place it knows is shown as it
//! knows it, one it does not keeps what was reported (`in_reference_data: false` on the
//! wire). The tables are checked on first use and then kept as an offset per row into the
//! bundled text (a row is read when asked for), so a process holds about 80 KB for them
//! and one that never asks pays nothing.

use std::sync::LazyLock;

use crate::ReferenceKind;
use crate::shipment::metro_area_id;

mod table;

use table::Localities;
pub use table::{Facility, Locality};

/// Sea ports (`data/places/ports.tsv`).
const PORTS: &str = include_str!("../../../data/places/ports.tsv");
/// Inland places (`data/places/metro_areas.tsv`).
const METRO_AREAS: &str = include_str!("../../../data/places/metro_areas.tsv");
/// Terminals (`data/places/terminals.tsv`).
const TERMINALS: &str = include_str!("../../../data/places/terminals.tsv");

/// The bundled reference places.
#[derive(Debug)]
pub struct Gazetteer {
    ports: Localities,
    metro_areas: Localities,
    terminals: Vec<Facility>,
}

static BUNDLED: LazyLock<Gazetteer> = LazyLock::new(|| {
    Gazetteer::parse(PORTS, METRO_AREAS, TERMINALS)
        .unwrap_or_else(|line| panic!("the bundled places are malformed at {line}"))
});

impl Gazetteer {
    /// The bundled places, read on first use.
    #[must_use]
    pub fn bundled() -> &'static Self {
        &BUNDLED
    }

    /// Reads the three tables; on a malformed row, which table and row it is.
    ///
    /// # Errors
    /// The table and line of the first malformed row.
    pub fn parse(
        ports: &'static str,
        metro_areas: &'static str,
        terminals: &'static str,
    ) -> Result<Self, String> {
        let ports = table::localities(ports).map_err(|line| format!("ports.tsv:{line}"))?;
        let metro_areas =
            table::localities(metro_areas).map_err(|line| format!("metro_areas.tsv:{line}"))?;
        let terminals =
            table::facilities(terminals).map_err(|line| format!("terminals.tsv:{line}"))?;
        Ok(Self {
            ports,
            metro_areas,
            terminals,
        })
    }

    /// The sea port with this UN/LOCODE (any case).
    #[must_use]
    pub fn port(&self, locode: &str) -> Option<Locality> {
        self.ports.find(locode)
    }

    /// The inland place with this UN/LOCODE (any case).
    #[must_use]
    pub fn metro_area(&self, locode: &str) -> Option<Locality> {
        self.metro_areas.find(locode)
    }

    /// The port or inland place with this UN/LOCODE: a shipment's destination, an event's
    /// location, may be either.
    #[must_use]
    pub fn place(&self, locode: &str) -> Option<Locality> {
        self.port(locode).or_else(|| self.metro_area(locode))
    }

    /// The IANA time zone of the port or inland place with this UN/LOCODE.
    #[must_use]
    pub fn time_zone(&self, locode: &str) -> Option<&'static str> {
        self.place(locode).map(|place| place.time_zone)
    }

    /// The port whose id (derived from its UN/LOCODE) this is. Ids are not indexed: the
    /// table is walked (a few milliseconds), as a port a carrier named is found by the
    /// store first.
    #[must_use]
    pub fn port_by_id(&self, id: uuid::Uuid) -> Option<Locality> {
        self.ports
            .iter()
            .find(|port| ReferenceKind::Port.id(port.locode) == id)
    }

    /// The inland place whose id (derived from its UN/LOCODE) this is (walked, as above).
    #[must_use]
    pub fn metro_area_by_id(&self, id: uuid::Uuid) -> Option<Locality> {
        self.metro_areas
            .iter()
            .find(|place| metro_area_id(place.locode) == id)
    }

    /// The terminal `code` (SMDG, else FIRMS) names: at `port` when it is given and the
    /// code is that port's (terminal codes repeat from port to port: `APMT` is at Los
    /// Angeles and at New York), else the one terminal anywhere with that code.
    #[must_use]
    pub fn terminal(&self, port: Option<&str>, code: &str) -> Option<&Facility> {
        let named = |t: &&Facility| {
            t.smdg_code.eq_ignore_ascii_case(code) || t.firms_code.eq_ignore_ascii_case(code)
        };
        if let Some(port) = port
            && let Some(found) = self
                .terminals
                .iter()
                .filter(|t| t.port.eq_ignore_ascii_case(port))
                .find(named)
        {
            return Some(found);
        }
        let mut anywhere = self.terminals.iter().filter(named);
        match (anywhere.next(), anywhere.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// How many ports, inland places and terminals it holds.
    #[must_use]
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.ports.len(),
            self.metro_areas.len(),
            self.terminals.len(),
        )
    }
}

#[cfg(test)]
mod tests;
