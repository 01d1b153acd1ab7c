//! Reference records (ports, terminals, vessels) named by carrier data, with ids derived
//! from their codes.

use crate::{Place, VesselRef};

/// Reference records (ports, terminals, vessels) are known by their codes; their ids are
/// derived from the codes, so every process and both backends agree on them.
const REFERENCE_NAMESPACE: uuid::Uuid =
    uuid::Uuid::from_u128(0x8d6a_61c3_1f0e_4b5e_9a47_2c1d_0b8e_7f35);

/// The kinds of reference records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReferenceKind {
    /// A port, by UN/LOCODE.
    Port,
    /// A terminal, by SMDG or BIC code.
    Terminal,
    /// A vessel, by IMO number.
    Vessel,
}

impl ReferenceKind {
    /// The id of the record with this code.
    #[must_use]
    pub fn id(self, code: &str) -> uuid::Uuid {
        let kind = match self {
            Self::Port => "port",
            Self::Terminal => "terminal",
            Self::Vessel => "vessel",
        };
        reference_id(kind, code)
    }
}

/// The id of the inland place (`metro_area`) with this UN/LOCODE: like the records above,
/// derived from its code, though it is only ever read from the bundled places.
#[must_use]
pub fn metro_area_id(locode: &str) -> uuid::Uuid {
    reference_id("metro_area", locode)
}

fn reference_id(kind: &str, code: &str) -> uuid::Uuid {
    uuid::Uuid::new_v5(&REFERENCE_NAMESPACE, format!("{kind}:{code}").as_bytes())
}

/// A port, terminal or vessel learned from carrier data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// What it is.
    pub kind: ReferenceKind,
    /// Its id (derived from the code).
    pub id: uuid::Uuid,
    /// UN/LOCODE, terminal code or IMO number.
    pub code: String,
    /// Its name, when a carrier gave one.
    pub name: Option<String>,
    /// A terminal's port.
    pub port_locode: Option<String>,
}

impl Reference {
    /// The port record of `place`.
    #[must_use]
    pub fn port(place: &Place) -> Self {
        Self {
            kind: ReferenceKind::Port,
            id: ReferenceKind::Port.id(&place.locode),
            code: place.locode.clone(),
            name: place.name.clone(),
            port_locode: None,
        }
    }

    /// The terminal record of `place`, when it names a facility.
    #[must_use]
    pub fn terminal(place: &Place) -> Option<Self> {
        let code = place.facility.as_ref()?;
        Some(Self {
            kind: ReferenceKind::Terminal,
            id: ReferenceKind::Terminal.id(code),
            code: code.clone(),
            name: None,
            port_locode: Some(place.locode.clone()),
        })
    }

    /// The vessel record of `vessel`.
    #[must_use]
    pub fn vessel(vessel: &VesselRef) -> Self {
        Self {
            kind: ReferenceKind::Vessel,
            id: ReferenceKind::Vessel.id(&vessel.imo),
            code: vessel.imo.clone(),
            name: vessel.name.clone(),
            port_locode: None,
        }
    }
}
