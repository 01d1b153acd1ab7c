//! The simulator's AIS feed: every vessel of a shipment asked about sails its legs at the
//! simulator's clock, and the feed's sentences decode, with an independent decoder (the
//! `ais` crate), to those vessels' identities and positions.

use ::ais::messages::AisMessage;
use ::ais::{AisFragments, AisParser};
use carrier_sim::ais::mmsi_of;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;

use crate::*;

/// The sandbox's journey asked about, and its vessel once it has sailed (minutes after
/// the first ask).
async fn sailing(sim: &Sim) -> carrier_sim::ais::Sighting {
    for _ in 0..120 {
        sim.all("/TEST/v2/events?carrierBookingReference=TEST-TR-JOURNEY")
            .await;
        if let Some(at_sea) = sim.sim.sightings().into_iter().find(|s| !s.report.moored) {
            return at_sea;
        }
        sim.sim.clock().advance(time::Duration::hours(1));
    }
    panic!("no vessel ever sailed");
}

#[tokio::test]
async fn a_vessel_sails_its_leg_along_the_sea_route_at_the_simulators_clock() {
    let sim = Sim::start(config()).await;
    let first = sailing(&sim).await;
    assert_eq!(first.mmsi, mmsi_of(&first.vessel));
    assert!(
        (1.0..40.0).contains(&first.report.speed),
        "{:?}",
        first.report
    );
    sim.sim.clock().advance(time::Duration::hours(6));
    let later = sim
        .sim
        .sightings()
        .into_iter()
        .find(|s| s.mmsi == first.mmsi)
        .expect("still heard");
    let moved = seaways::Point::new(first.report.latitude, first.report.longitude).distance_nm(
        seaways::Point::new(later.report.latitude, later.report.longitude),
    );
    // Six hours at its speed, give or take the route's turns.
    let expected = first.report.speed * 6.0;
    assert!(
        moved > expected * 0.5 && moved <= expected * 1.01,
        "{moved} nm, expected about {expected}"
    );
}

#[tokio::test]
async fn the_feed_sends_what_an_independent_decoder_reads_as_the_fleet() {
    let sim = Sim::start(config()).await;
    let at_sea = sailing(&sim).await;
    let address = sim
        .sim
        .clone()
        .spawn_ais(std::time::Duration::from_millis(20))
        .await
        .expect("the feed listens");
    let socket = TcpStream::connect(address.trim_start_matches("tcp://"))
        .await
        .expect("connected");
    let mut lines = BufReader::new(socket).lines();
    let mut parser = AisParser::new();
    let (mut position, mut name) = (None, None);
    while position.is_none() || name.is_none() {
        let line = lines.next_line().await.expect("read").expect("a line");
        assert!(
            line.starts_with("\\c:"),
            "a tag block with the time: {line}"
        );
        let Ok(AisFragments::Complete(sentence)) = parser.parse(line.as_bytes(), true) else {
            continue;
        };
        match sentence.message {
            Some(AisMessage::PositionReport(report)) if report.mmsi == at_sea.mmsi => {
                position = Some((report.latitude, report.longitude, report.speed_over_ground));
            }
            Some(AisMessage::StaticAndVoyageRelatedData(data)) if data.mmsi == at_sea.mmsi => {
                assert_eq!(data.imo_number.to_string(), at_sea.vessel.imo);
                name = Some(data.vessel_name.clone());
            }
            _ => {}
        }
    }
    let (latitude, longitude, speed) = position.expect("a position");
    let heard = seaways::Point::new(
        f64::from(latitude.expect("a latitude")),
        f64::from(longitude.expect("a longitude")),
    );
    let now = sim
        .sim
        .sightings()
        .into_iter()
        .find(|s| s.mmsi == at_sea.mmsi)
        .expect("heard");
    assert!(
        heard.distance_nm(seaways::Point::new(
            now.report.latitude,
            now.report.longitude
        )) < 0.1
    );
    assert!((f64::from(speed.expect("a speed")) - now.report.speed).abs() < 0.11);
    assert_eq!(
        name,
        Some(at_sea.vessel.name.to_uppercase()),
        "AIS text is upper case"
    );
}
