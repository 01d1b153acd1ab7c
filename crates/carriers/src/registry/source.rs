//! Where the data of a SCAC, a terminal or a shipment comes from: the party itself, or the
//! simulator. The domain's `TrackingSource` says the same of a tracked shipment.

use tidemark_domain::TrackingSource;

/// Where a SCAC's data comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The carrier's own endpoint.
    Carrier,
    /// The built-in simulator.
    Sandbox,
}

impl From<TrackingSource> for Source {
    fn from(source: TrackingSource) -> Self {
        match source {
            TrackingSource::ShippingLine => Self::Carrier,
            TrackingSource::Sandbox => Self::Sandbox,
        }
    }
}

impl From<Source> for TrackingSource {
    fn from(source: Source) -> Self {
        match source {
            Source::Carrier => Self::ShippingLine,
            Source::Sandbox => Self::Sandbox,
        }
    }
}
