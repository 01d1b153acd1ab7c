//! Which lines this instance can track, and from where (api.md §6, §4 `tracking_source`):
//! a carrier's own endpoint, the sandbox simulator, or nothing. Tidemark never answers a
//! real number with invented data unless the operator asked for it, so the sandbox serves
//! the sandbox line `TEST` only, and every other SCAC only when told to.

use std::collections::{BTreeMap, BTreeSet};

use crate::Scac;

/// How far the sandbox (the carrier simulator) reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SandboxScope {
    /// No sandbox: only configured carriers are tracked.
    Off,
    /// The sandbox line `TEST` only (the default).
    #[default]
    TestOnly,
    /// Every SCAC without an endpoint, for demos and benchmarks
    /// (`sandbox.all_carriers = true`).
    AllCarriers,
}

/// Where a line's data comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineSource {
    /// The carrier's own DCSA Track & Trace endpoint, polled.
    Carrier,
    /// The carrier simulator: made-up voyages, said so on every shipment.
    Sandbox,
}

impl LineSource {
    /// The wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Carrier => "carrier",
            Self::Sandbox => "sandbox",
        }
    }
}

/// The lines this instance tracks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Coverage {
    endpoints: BTreeSet<Scac>,
    sandbox: SandboxScope,
    details: BTreeMap<Scac, LineEndpoint>,
}

/// How a line's own endpoint is reached, as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEndpoint {
    /// The carrier profile named, if any.
    pub profile: Option<String>,
    /// The DCSA Track & Trace version spoken (`2.2`, `1.1.0`).
    pub dcsa_version: &'static str,
    /// How Tidemark authenticates (`api_key keyId`, `header_pair`, `oauth2`, …).
    pub auth_style: String,
    /// Whether the carrier pushes its events (DCSA 2.2 subscriptions), polling being the
    /// safety net; else it is polled.
    pub push: bool,
    /// The quota every process keeps to together.
    pub quota: crate::quota::Quota,
    /// Whether the carrier answers only a booking and one of its containers asked
    /// together (HMM): a request is asked with the client's requests of the other kind at
    /// the same carrier.
    pub asks_pairs: bool,
}

impl Coverage {
    /// Carriers at these endpoints, and the sandbox as far as `sandbox` says.
    #[must_use]
    pub fn new(endpoints: impl IntoIterator<Item = Scac>, sandbox: SandboxScope) -> Self {
        Self {
            endpoints: endpoints.into_iter().collect(),
            sandbox,
            details: BTreeMap::new(),
        }
    }

    /// This coverage with how each endpoint is reached.
    #[must_use]
    pub fn with_details(mut self, details: BTreeMap<Scac, LineEndpoint>) -> Self {
        self.details = details;
        self
    }

    /// How `scac`'s own endpoint is reached, when it has one described.
    #[must_use]
    pub fn endpoint(&self, scac: Scac) -> Option<&LineEndpoint> {
        self.details.get(&scac)
    }

    /// Where `scac`'s data comes from; `None` when this instance cannot track it.
    #[must_use]
    pub fn source(&self, scac: Scac) -> Option<LineSource> {
        if self.endpoints.contains(&scac) {
            return Some(LineSource::Carrier);
        }
        match self.sandbox {
            SandboxScope::AllCarriers => Some(LineSource::Sandbox),
            SandboxScope::TestOnly if scac == Scac::SANDBOX => Some(LineSource::Sandbox),
            _ => None,
        }
    }

    /// The SCACs with an endpoint of their own.
    pub fn endpoints(&self) -> impl Iterator<Item = Scac> + '_ {
        self.endpoints.iter().copied()
    }

    /// How far the sandbox reaches.
    #[must_use]
    pub const fn sandbox(&self) -> SandboxScope {
        self.sandbox
    }

    /// What to tell someone whose SCAC this instance cannot track.
    #[must_use]
    pub fn how_to_configure(scac: Scac) -> String {
        format!(
            "this instance has no carrier endpoint for {scac}: configure one \
             ([carriers.endpoints.{scac}] in tidemark.toml, see docs/carriers.md), or start \
             the service with sandbox.all_carriers = true to try it against the simulator"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scac(text: &str) -> Scac {
        Scac::parse(text).expect("SCAC")
    }

    #[test]
    fn the_sandbox_serves_the_test_line_only_unless_told() {
        let default = Coverage::default();
        assert_eq!(default.source(Scac::SANDBOX), Some(LineSource::Sandbox));
        assert_eq!(default.source(scac("MSCU")), None);

        let configured = Coverage::new([scac("MAEU")], SandboxScope::TestOnly);
        assert_eq!(configured.source(scac("MAEU")), Some(LineSource::Carrier));
        assert_eq!(configured.source(scac("MSCU")), None);

        let demo = Coverage::new([scac("MAEU")], SandboxScope::AllCarriers);
        assert_eq!(demo.source(scac("MAEU")), Some(LineSource::Carrier));
        assert_eq!(demo.source(scac("MSCU")), Some(LineSource::Sandbox));

        let off = Coverage::new([], SandboxScope::Off);
        assert_eq!(off.source(Scac::SANDBOX), None);
    }

    #[test]
    fn the_advice_names_the_setting() {
        let advice = Coverage::how_to_configure(scac("MSCU"));
        assert!(advice.contains("[carriers.endpoints.MSCU]"), "{advice}");
        assert!(advice.contains("sandbox.all_carriers"), "{advice}");
    }
}
