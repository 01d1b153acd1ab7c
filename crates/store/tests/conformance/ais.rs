//! Conformance cases of AIS: a vessel's latest position is the newest heard whatever the
//! order of batches, its track reads back in a window and is forgotten after the
//! retention, and static data makes the vessel a reference record found by IMO number
//! without overwriting a carrier's name.

use std::sync::Arc;

use tidemark_domain::ReferenceKind;
use tidemark_domain::vessel::{Mmsi, Position, StaticData};
use tidemark_store::{AisBatch, Store};

use super::at;

fn point(mmsi: u32, seconds: i64, latitude: f64) -> Position {
    let mmsi = Mmsi::new(mmsi).expect("an MMSI");
    Position::read(
        mmsi,
        at(seconds),
        [
            Some(latitude),
            Some(-4.123_456),
            Some(14.2),
            Some(95.3),
            Some(96.0),
        ],
    )
    .expect("a position")
}

pub async fn a_vessels_latest_position_and_track_read_back_as_heard(store: Arc<dyn Store>) {
    let statics = vec![StaticData::read(
        Mmsi::new(477_123_400).expect("an MMSI"),
        at(0),
        Some(9_301_366),
        Some("TIDEMARK TRIAL"),
    )];
    let positions: Vec<Position> = (0..5)
        .map(|i| point(477_123_400, i * 60, 51.0 + 0.01 * f64::from(i as i32)))
        .collect();
    let batch = AisBatch {
        positions: positions.clone(),
        track: vec![positions[0], positions[4]],
        statics,
    };
    store.record_ais(&batch).await.expect("recorded");
    // An older position arriving late does not replace the latest, and a track point
    // written twice is kept once.
    let late = AisBatch {
        positions: vec![positions[1]],
        track: vec![positions[0]],
        statics: Vec::new(),
    };
    store.record_ais(&late).await.expect("recorded");

    let heard = store
        .heard_vessel("9301366")
        .await
        .expect("read")
        .expect("heard");
    assert_eq!(heard.mmsi.get(), 477_123_400);
    assert_eq!(heard.name.as_deref(), Some("TIDEMARK TRIAL"));
    let latest = heard.position.expect("a position");
    assert_eq!(latest.at, at(240));
    assert!((latest.latitude - 51.04).abs() < 1e-6, "{latest:?}");
    assert!((latest.longitude + 4.123_456).abs() < 1e-6, "{latest:?}");
    assert_eq!(
        (
            latest.speed_knots,
            latest.course_degrees,
            latest.heading_degrees
        ),
        (Some(14.2), Some(95.3), Some(96.0))
    );
    assert!(store.heard_vessel("9612349").await.expect("read").is_none());

    let mmsi = heard.mmsi;
    let track = store
        .track(mmsi, (at(0), at(300)), 100)
        .await
        .expect("track");
    assert_eq!(
        track.iter().map(|p| p.at).collect::<Vec<_>>(),
        vec![at(0), at(240)]
    );
    let window = store
        .track(mmsi, (at(1), at(300)), 100)
        .await
        .expect("track");
    assert_eq!(window.len(), 1);
    assert_eq!(store.forget_track(at(100), 10).await.expect("forgot"), 1);
    let kept = store
        .track(mmsi, (at(0), at(300)), 100)
        .await
        .expect("track");
    assert_eq!(kept.iter().map(|p| p.at).collect::<Vec<_>>(), vec![at(240)]);
}

pub async fn a_vessel_heard_on_a_feed_is_a_reference_record_by_imo(store: Arc<dyn Store>) {
    let heard = |mmsi, imo, name: &str, seconds| {
        StaticData::read(
            Mmsi::new(mmsi).expect("an MMSI"),
            at(seconds),
            Some(imo),
            Some(name),
        )
    };
    let batch = AisBatch {
        statics: vec![heard(311_000_111, 9_612_349, "SAMPLE CARRIER", 0)],
        ..AisBatch::default()
    };
    store.record_ais(&batch).await.expect("recorded");
    let vessel = store
        .reference(ReferenceKind::Vessel, "9612349")
        .await
        .expect("read")
        .expect("a vessel");
    assert_eq!(vessel.name.as_deref(), Some("SAMPLE CARRIER"));
    // A later name on the feed fills no name a vessel already has.
    let renamed = AisBatch {
        statics: vec![heard(311_000_111, 9_612_349, "SAMPLE RENAMED", 60)],
        ..AisBatch::default()
    };
    store.record_ais(&renamed).await.expect("recorded");
    let vessel = store
        .reference(ReferenceKind::Vessel, &vessel.id.to_string())
        .await
        .expect("read")
        .expect("a vessel");
    assert_eq!(vessel.name.as_deref(), Some("SAMPLE CARRIER"));
    let transponder = store
        .heard_vessel("9612349")
        .await
        .expect("read")
        .expect("heard");
    assert_eq!(transponder.name.as_deref(), Some("SAMPLE RENAMED"));
    assert!(transponder.position.is_none());
}

/// The vessels at sea of an account: a shipment that left its port of loading names its
/// vessel, which two transponders claim (the later heard stands); another account's
/// shipment is not counted, nor a vessel not heard since the time asked.
pub async fn the_vessels_at_sea_are_those_carrying_the_accounts_shipments(store: Arc<dyn Store>) {
    use tidemark_domain::Milestone;

    use super::tracking::{snapshot, tracked};

    let owner = super::account(&store, "fleet").await;
    let other = super::account(&store, "fleet-other").await;
    let mut sailed = snapshot(&[(Milestone::VesselDeparted, 110)]);
    sailed.calls[0].atd = Some(at(110));
    let (_, change) = tracked(&store, &owner, "586118841", &sailed, 120).await;
    let shipment = change.shipment.expect("a shipment");
    assert_eq!(
        shipment.sailing_vessel().map(|v| v.imo.as_str()),
        Some("9321483")
    );
    // In port still: no vessel at sea.
    tracked(&store, &other, "586118842", &snapshot(&[]), 120).await;

    let statics = [(538_001_111, 0), (538_002_222, 0)]
        .map(|(mmsi, seconds)| {
            StaticData::read(
                Mmsi::new(mmsi).expect("an MMSI"),
                at(seconds),
                Some(9_321_483),
                Some("EMMA MAERSK"),
            )
        })
        .to_vec();
    let batch = AisBatch {
        positions: vec![point(538_001_111, 200, 10.0), point(538_002_222, 300, 11.0)],
        statics,
        ..AisBatch::default()
    };
    store.record_ais(&batch).await.expect("recorded");

    let at_sea = store
        .vessels_at_sea(owner.id, at(250), 10)
        .await
        .expect("read");
    assert_eq!(at_sea.len(), 1, "{at_sea:?}");
    let (vessel, shipments) = &at_sea[0];
    assert_eq!((vessel.mmsi.get(), *shipments), (538_002_222, 1));
    assert_eq!(vessel.imo.as_deref(), Some("9321483"));
    assert!(
        store
            .vessels_at_sea(owner.id, at(301), 10)
            .await
            .expect("read")
            .is_empty(),
        "not heard since"
    );
    assert!(
        store
            .vessels_at_sea(other.id, at(0), 10)
            .await
            .expect("read")
            .is_empty()
    );
    let both = store
        .heard_vessels(&["9321483".to_owned(), "9612349".to_owned()])
        .await
        .expect("read");
    assert_eq!(
        both.iter().map(|v| v.mmsi.get()).collect::<Vec<_>>(),
        [538_002_222]
    );
}
