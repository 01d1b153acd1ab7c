//! One shipment in every DCSA version the connector speaks: Yang Ming's 1.1.0 named by its
//! profile, and the same simulated shipment read in 1.1.0, 2.2 and the 3.0 beta.

use tidemark_carriers::CarrierConnector;
use tidemark_domain::terminal::ReleaseEvent;
use tidemark_domain::{LookupOutcome, Milestone};

use super::quirks::{SAILS, by_profile, key_header, playing, world_shipment};
use crate::*;

#[tokio::test]
async fn yang_ming_is_asked_and_read_in_dcsa_1_1_0() {
    let world = playing("YMLU", &[], SAILS, key_header("keyId", "ym-key")).await;
    world.advance_days(60);
    let yang_ming = by_profile(
        &world,
        "YMLU",
        "profile = \"yang-ming\"\nbase_url = \"{sim}/YMLU\"\nevents_path = \"/v1/events\"\napi_key = \"ym-key\"",
    );
    let number = bill("YMLUW490123456");
    let snapshot = found(yang_ming.lookup(&number).await);
    let shipment = world_shipment(&world, "YMLU", &number);
    assert_eq!(snapshot.containers.len(), shipment.containers.len());
    assert_eq!(snapshot.calls.len(), shipment.calls.len());
    assert_eq!(
        snapshot.bill_of_lading.as_deref(),
        Some(number.number.as_str())
    );
    let reached = milestones(&snapshot, 0);
    for milestone in [
        Milestone::VesselLoaded,
        Milestone::VesselDeparted,
        Milestone::VesselArrived,
        Milestone::VesselDischarged,
    ] {
        assert!(reached.contains(&milestone), "{milestone:?} in {reached:?}");
    }
    // Asked in 2.2's names, a 1.1.0 server refuses.
    let in_2_2 = by_profile(
        &world,
        "YMLU",
        "profile = \"yang-ming\"\nbase_url = \"{sim}/YMLU\"\nevents_path = \"/v1/events\"\napi_key = \"ym-key\"\ndcsa_version = \"2.2\"",
    );
    assert!(matches!(
        in_2_2.lookup(&number).await,
        LookupOutcome::InvalidNumber(_)
    ));
}

#[tokio::test]
async fn the_same_shipment_reads_the_same_in_1_1_0_2_2_and_3_0() {
    let world = playing("MAEU", &[], SAILS, |_| {}).await;
    world.advance_days(60);
    let number = bill("MAEU300000123");
    let at = |path: &str, version: &str, page_size: u32| {
        let mut config = world.config("MAEU");
        config.events_path = path.to_owned();
        config.version = serde_json::from_value(serde_json::json!(version)).expect("version");
        config.page_size = page_size;
        DcsaConnector::new(config).expect("valid")
    };
    let v2 = found(at("/v2/events", "2.2", 100).lookup(&number).await);
    // Small pages: 3.0 follows Next-Page-Cursor.
    let mut v3 = found(at("/v3/events", "3.0-beta", 7).lookup(&number).await);
    // 3.0 says more: each discharged box's release, kept in its 3.0 words, no milestone.
    for container in &mut v3.containers {
        let release: Vec<&str> = container
            .raw_events
            .iter()
            .filter(|event| ReleaseEvent::parse(&event.code).is_some())
            .map(|event| event.code.as_str())
            .collect();
        assert_eq!(
            release,
            [
                "CUSTOMS_SELECTED_FOR_SCAN",
                "CUSTOMS_RELEASED",
                "AVAILABLE_FOR_PICKUP"
            ],
            "{}",
            container.number
        );
        container
            .raw_events
            .retain(|event| ReleaseEvent::parse(&event.code).is_none());
    }
    assert_eq!(v3, v2, "3.0 reads as 2.2 does");
    let v1 = found(at("/v1/events", "1.1.0", 100).lookup(&number).await);
    assert_eq!(v1.containers.len(), v2.containers.len());
    assert_eq!(milestones(&v1, 0), milestones(&v2, 0));
}
