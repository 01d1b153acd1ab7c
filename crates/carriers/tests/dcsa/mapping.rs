//! A voyage maps to its milestones; bookings and containers use their own filters; the sandbox scenarios map to their outcomes.

use tidemark_carriers::CarrierConnector;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_domain::{ContainerStatus, LookupOutcome, Milestone, RequestType, TemporaryReason};

use crate::*;

#[tokio::test]
async fn a_finished_voyage_maps_to_every_milestone_in_order() {
    let world = World::start(sim_config()).await;
    world.advance_days(120);
    let connector = world.connector("MAEU");
    let mut transshipped = 0;
    for i in 0..12 {
        let number = format!("{:09}", 586_118_841 + i);
        let snapshot = found(connector.lookup(&bill(&number)).await);
        assert_eq!(snapshot.bill_of_lading.as_deref(), Some(number.as_str()));
        assert!(snapshot.calls.len() >= 2);
        let pol = snapshot.port_of_loading().expect("POL");
        let pod = snapshot.port_of_discharge().expect("POD");
        assert!(pol.atd.is_some() && pod.ata.is_some() && pod.eta.is_some());
        assert!(pod.original_eta.is_some());
        assert!(!snapshot.containers.is_empty());
        for (index, container) in snapshot.containers.iter().enumerate() {
            let got = milestones(&snapshot, index);
            let mut expected = vec![
                Milestone::EmptyOut,
                Milestone::FullIn,
                Milestone::VesselLoaded,
                Milestone::VesselDeparted,
            ];
            if snapshot.calls.len() == 4 {
                expected.extend([
                    Milestone::TransshipmentArrived,
                    Milestone::TransshipmentDischarged,
                    Milestone::TransshipmentLoaded,
                    Milestone::TransshipmentDeparted,
                ]);
            }
            expected.extend([
                Milestone::VesselArrived,
                Milestone::VesselDischarged,
                Milestone::FullOut,
                Milestone::EmptyIn,
            ]);
            assert_eq!(got, expected, "{number} {}", container.number);
            assert_eq!(container.status(), ContainerStatus::EmptyReturned);
            assert!(container.iso_code.is_some() && container.seal.is_some());
        }
        transshipped += usize::from(snapshot.calls.len() == 4);
    }
    assert!(transshipped > 0, "some routes transship");
}

#[tokio::test]
async fn bookings_and_containers_are_looked_up_by_their_own_filter() {
    let world = World::start(sim_config()).await;
    world.advance_days(60);
    let connector = world.connector("MSCU");
    let by_booking = found(
        connector
            .lookup(&lookup("EBKG01234567", RequestType::BookingNumber))
            .await,
    );
    assert_eq!(by_booking.booking.as_deref(), Some("EBKG01234567"));
    let by_box = found(
        connector
            .lookup(&lookup("CSQU3054383", RequestType::Container))
            .await,
    );
    assert_eq!(by_box.containers[0].number, "CSQU3054383");
    assert!(
        by_box.containers.iter().all(|c| c.number == "CSQU3054383"),
        "only the asked box"
    );
    assert!(!milestones(&by_box, 0).is_empty());
    let bad_box = connector
        .lookup(&lookup("CSQU3054384", RequestType::Container))
        .await;
    assert_eq!(bad_box, LookupOutcome::NotFound);
}

#[tokio::test]
async fn the_sandbox_scenarios_map_to_their_outcomes() {
    let world = World::start(sim_config()).await;
    let connector = world.connector("TEST");
    let booking = |n: &str| lookup(n, RequestType::BookingNumber);
    assert!(matches!(
        connector.lookup(&booking("TEST-TR-SUCCEEDED")).await,
        LookupOutcome::Found(_)
    ));
    assert_eq!(
        connector.lookup(&booking("TEST-TR-NOT-FOUND")).await,
        LookupOutcome::NotFound
    );
    // The sandbox answers TEST-TR-FAILED 404 with a DCSA error document: to a connector
    // told that this carrier means "no such shipment" by it, the reference is unknown,
    // whatever its type; to any other, a 404 is a wrong base URL, tried again later.
    let sandbox = DcsaConnector::new(DcsaConfig {
        unknown_reference_is_404: true,
        ..world.config("TEST")
    })
    .expect("valid config");
    for kind in [RequestType::BookingNumber, RequestType::BillOfLading] {
        assert_eq!(
            sandbox.lookup(&lookup("TEST-TR-FAILED", kind)).await,
            LookupOutcome::Unknown
        );
    }
    assert!(matches!(
        connector.lookup(&booking("TEST-TR-FAILED")).await,
        LookupOutcome::Temporary(TemporaryReason::Unreachable(_))
    ));
    assert_eq!(
        connector.lookup(&booking("TEST-TR-CANCELLED")).await,
        LookupOutcome::BookingCancelled
    );
    assert_eq!(
        connector
            .lookup(&booking("TEST-TR-AWAITING-MANIFEST"))
            .await,
        LookupOutcome::NotYetManifested
    );
    assert!(matches!(
        connector
            .lookup(&booking("TEST-TR-AWAITING-MANIFEST"))
            .await,
        LookupOutcome::Found(_)
    ));
    for _ in 0..2 {
        assert_eq!(
            connector.lookup(&booking("TEST-TR-RETRY")).await,
            LookupOutcome::Temporary(TemporaryReason::Unavailable { retry_after: None })
        );
    }
    assert!(matches!(
        connector.lookup(&booking("TEST-TR-RETRY")).await,
        LookupOutcome::Found(_)
    ));
    for _ in 0..3 {
        assert!(matches!(
            connector
                .lookup(&booking("TEST-TR-RETRIES-EXHAUSTED"))
                .await,
            LookupOutcome::Temporary(TemporaryReason::Unavailable { .. })
        ));
    }
}
