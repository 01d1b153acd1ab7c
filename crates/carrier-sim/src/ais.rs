//! The simulator's vessels on AIS. Every vessel of a shipment the carriers were asked
//! about sails its legs ([`Fleet`]): from the port of loading's departure to the next
//! port's arrival along the shortest sea route (`seaways`, over the maritime network real
//! services follow), at the speed that keeps the schedule, moored in port between. An AIS
//! feed ([`Simulator::serve_ais`]) sends, over TCP as an AIS receiver does, each vessel's
//! position report (message type 1) at the simulator's clock, and now and then its static
//! data (type 5), every sentence behind a tag block with its time. Every name, number and
//! position is simulated.

pub mod encode;

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use seaways::{Network, Point, Route};
use time::OffsetDateTime;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

use crate::data::Port;
use crate::world::{Role, Shipment, Vessel};
use crate::{Simulator, lock};
use encode::{Identity, Report};

/// Vessels remembered at most; the oldest are forgotten first.
const FLEET_CAP: usize = 20_000;

/// How long a vessel is heard in port before its departure and after its last arrival.
const IN_PORT: time::Duration = time::Duration::days(2);

/// One ocean leg of a vessel: from a port's departure to the next port's arrival.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Leg {
    from: Port,
    to: Port,
    departs: OffsetDateTime,
    arrives: OffsetDateTime,
    /// When it leaves the port it arrives at.
    leaves: OffsetDateTime,
}

/// The vessels the simulator's carriers named, and their legs.
#[derive(Debug, Default)]
pub struct Fleet {
    voyages: HashMap<String, (Vessel, Vec<Leg>)>,
    order: VecDeque<String>,
    routes: HashMap<(&'static str, &'static str), Route>,
}

/// Where a vessel is at an instant.
#[derive(Debug, Clone, PartialEq)]
pub struct Sighting {
    /// The vessel.
    pub vessel: Vessel,
    /// Its MMSI (simulated, from its IMO number).
    pub mmsi: u32,
    /// Where it is bound (the port of its current or next leg).
    pub bound_for: &'static str,
    /// Its report.
    pub report: Report,
}

/// The MMSI the simulator gives a vessel: the Marshall Islands' digits (538) and the last
/// six of its IMO number.
#[must_use]
pub fn mmsi_of(vessel: &Vessel) -> u32 {
    538_000_000 + vessel.imo.parse::<u32>().map_or(0, |imo| imo % 1_000_000)
}

fn point(port: &Port) -> Point {
    let (lat, lon) = port.degrees();
    Point::new(lat, lon)
}

impl Fleet {
    /// Remembers the ocean legs of `shipment`'s vessels.
    pub fn remember(&mut self, shipment: &Shipment) {
        for pair in shipment.calls.windows(2) {
            let (load, discharge) = (&pair[0], &pair[1]);
            if load.role != Role::Load
                || discharge.role != Role::Discharge
                || load.leg != discharge.leg
            {
                continue;
            }
            let leg = Leg {
                from: load.port,
                to: discharge.port,
                departs: load.departure,
                arrives: discharge.arrival,
                leaves: discharge.departure,
            };
            let imo = load.vessel.imo.clone();
            let (_, legs) = self.voyages.entry(imo.clone()).or_insert_with(|| {
                self.order.push_back(imo);
                (load.vessel.clone(), Vec::new())
            });
            if !legs.contains(&leg) {
                legs.push(leg);
                legs.sort_by_key(|leg| leg.departs);
            }
        }
        while self.order.len() > FLEET_CAP {
            if let Some(oldest) = self.order.pop_front() {
                self.voyages.remove(&oldest);
            }
        }
    }

    /// How many vessels are remembered.
    #[must_use]
    pub fn len(&self) -> usize {
        self.voyages.len()
    }

    /// Whether none is.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.voyages.is_empty()
    }

    /// Where each vessel heard at `now` is: at sea on a leg, or moored in port from two
    /// days before a departure until its next departure (or two days after its last
    /// arrival).
    pub fn sightings(&mut self, now: OffsetDateTime) -> Vec<Sighting> {
        let mut seen = Vec::new();
        let voyages: Vec<(Vessel, Vec<Leg>)> = self.voyages.values().cloned().collect();
        for (vessel, legs) in voyages {
            if let Some((report, bound_for)) = self.report(&vessel, &legs, now) {
                seen.push(Sighting {
                    mmsi: mmsi_of(&vessel),
                    vessel,
                    bound_for,
                    report,
                });
            }
        }
        seen.sort_by_key(|sighting| sighting.mmsi);
        seen
    }

    fn report(
        &mut self,
        vessel: &Vessel,
        legs: &[Leg],
        now: OffsetDateTime,
    ) -> Option<(Report, &'static str)> {
        let mmsi = mmsi_of(vessel);
        let moored = |port: &Port, bound_for: &'static str| {
            let (latitude, longitude) = port.degrees();
            (
                Report {
                    mmsi,
                    latitude,
                    longitude,
                    speed: 0.0,
                    course: 0.0,
                    moored: true,
                },
                bound_for,
            )
        };
        for (i, leg) in legs.iter().enumerate() {
            if now < leg.departs {
                let waiting = now >= leg.departs - IN_PORT;
                return waiting.then(|| moored(&leg.from, leg.to.locode));
            }
            if now < leg.arrives {
                let route = self.route(&leg.from, &leg.to)?;
                let sailing = (leg.arrives - leg.departs).as_seconds_f64().max(1.0);
                let fraction = (now - leg.departs).as_seconds_f64() / sailing;
                let along = route.length_nm() * fraction;
                let at = route.at(along)?;
                let speed = route.length_nm() / (sailing / 3_600.0);
                let course = route.bearing_at(along).unwrap_or(0.0);
                let report = Report {
                    mmsi,
                    latitude: at.lat,
                    longitude: at.lon,
                    speed,
                    course,
                    moored: false,
                };
                return Some((report, leg.to.locode));
            }
            let last = i + 1 == legs.len();
            if now < leg.leaves || (last && now < leg.arrives + IN_PORT) {
                return Some(moored(&leg.to, leg.to.locode));
            }
        }
        None
    }

    fn route(&mut self, from: &Port, to: &Port) -> Option<&Route> {
        let key = (from.locode, to.locode);
        match self.routes.entry(key) {
            std::collections::hash_map::Entry::Occupied(kept) => Some(kept.into_mut()),
            std::collections::hash_map::Entry::Vacant(slot) => {
                Some(slot.insert(Network::bundled().route(point(from), point(to))?))
            }
        }
    }
}

impl Simulator {
    /// Remembers the vessels of `shipment`, for the AIS feed.
    pub(crate) fn remember_vessels(&self, shipment: &Shipment) {
        lock(&self.state.fleet).remember(shipment);
    }

    /// Where the simulator's vessels are now.
    #[must_use]
    pub fn sightings(&self) -> Vec<Sighting> {
        let now = self.state.clock.now();
        lock(&self.state.fleet).sightings(now)
    }

    /// Serves the AIS feed on `listener`: each connection gets every vessel's position
    /// every `every` (real time), and its static data every tenth round.
    pub async fn serve_ais(self, listener: TcpListener, every: Duration) {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(self.clone().feed(socket, every));
        }
    }

    /// Serves the AIS feed on a free loopback port; its `tcp://` address.
    ///
    /// # Errors
    /// When no port can be bound.
    pub async fn spawn_ais(self, every: Duration) -> std::io::Result<String> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = format!("tcp://{}", listener.local_addr()?);
        tokio::spawn(self.serve_ais(listener, every));
        Ok(address)
    }

    async fn feed(self, mut socket: TcpStream, every: Duration) {
        let mut round: u64 = 0;
        loop {
            let at = self.state.clock.now().unix_timestamp();
            let mut text = String::new();
            for (i, sighting) in self.sightings().into_iter().enumerate() {
                if round.is_multiple_of(10) {
                    let imo = sighting.vessel.imo.parse().unwrap_or(0);
                    let identity = Identity {
                        mmsi: sighting.mmsi,
                        imo,
                        call_sign: "",
                        name: &sighting.vessel.name,
                        destination: sighting.bound_for,
                    };
                    #[allow(clippy::cast_possible_truncation)]
                    for line in encode::static_data(&identity, (i % 10) as u8, at) {
                        text.push_str(&line);
                        text.push_str("\r\n");
                    }
                }
                text.push_str(&encode::position(&sighting.report, at));
                text.push_str("\r\n");
            }
            if socket.write_all(text.as_bytes()).await.is_err() {
                return;
            }
            round += 1;
            tokio::time::sleep(every).await;
        }
    }
}
