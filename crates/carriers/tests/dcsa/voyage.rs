//! A voyage played step by step only ever adds milestones; concurrency and rate limits per carrier.

use std::sync::Arc;
use std::time::Duration;

use carrier_sim::{Fault, FaultRule};
use tidemark_carriers::CarrierConnector;
use tidemark_domain::{ContainerStatus, LookupOutcome, Milestone, RequestType};

use crate::*;

#[tokio::test]
async fn a_voyage_played_step_by_step_only_ever_adds_milestones() {
    let world = World::start(sim_config()).await;
    let connector = world.connector("TEST");
    let journey = lookup("TEST-TR-JOURNEY", RequestType::BookingNumber);
    // Found when first asked about: its boxes loaded, the vessel about to sail.
    let LookupOutcome::Found(first) = connector.lookup(&journey).await else {
        panic!("found at once");
    };
    assert!(
        milestones(&first, 0).contains(&Milestone::VesselLoaded),
        "{:?}",
        milestones(&first, 0)
    );
    assert!(!milestones(&first, 0).contains(&Milestone::VesselDeparted));
    let mut previous: Vec<Vec<Milestone>> = (0..first.containers.len())
        .map(|i| milestones(&first, i))
        .collect();
    let mut statuses = vec![first.containers[0].status()];
    let mut estimated_arrivals = 0;
    let mut last_estimates = usize::MAX;
    for _ in 0..40 {
        world.advance_days(3);
        let LookupOutcome::Found(snapshot) = connector.lookup(&journey).await else {
            continue;
        };
        let now: Vec<Vec<Milestone>> = (0..snapshot.containers.len())
            .map(|i| milestones(&snapshot, i))
            .collect();
        for (before, after) in previous.iter().zip(&now) {
            assert!(after.starts_with(before), "{before:?} → {after:?}");
            let unique: std::collections::HashSet<_> = after.iter().collect();
            assert_eq!(unique.len(), after.len(), "no milestone twice: {after:?}");
        }
        statuses.push(snapshot.containers[0].status());
        let estimates = snapshot.estimates();
        estimated_arrivals += estimates
            .iter()
            .filter(|(e, _, _)| *e == tidemark_domain::Estimate::VesselArrived)
            .count();
        last_estimates = estimates.len();
        previous = now;
    }
    assert!(
        estimated_arrivals > 0,
        "an ETA is known while the vessel sails"
    );
    assert_eq!(last_estimates, 0, "no estimate once everything happened");
    statuses.dedup();
    assert_eq!(
        statuses,
        [
            ContainerStatus::OnShip,
            ContainerStatus::Grounded,
            ContainerStatus::PickedUp,
            ContainerStatus::EmptyReturned
        ]
    );
}

#[tokio::test]
async fn limits_cap_concurrency_and_rate_per_carrier() {
    use std::num::NonZeroU32;
    use tidemark_carriers::limits::{Limited, RateLimits};

    let world = World::start(sim_config()).await;
    world.sim.add_fault(FaultRule {
        terminal: None,
        scac: Some("CMDU".into()),
        reference: None,
        fault: Fault::Slow { delay_ms: 100 },
        times: None,
    });
    let n = |v| NonZeroU32::new(v).expect("non-zero");
    let limited = Arc::new(Limited::new(
        Arc::new(world.connector("CMDU")),
        RateLimits {
            per_second: n(1000),
            burst: n(1000),
            concurrency: n(2),
        },
    ));
    let started = tokio::time::Instant::now();
    let lookups: Vec<_> = (0..6)
        .map(|i| {
            let limited = Arc::clone(&limited);
            tokio::spawn(async move { limited.lookup(&bill(&format!("NBSF30{i:04}"))).await })
        })
        .collect();
    for lookup in lookups {
        lookup.await.expect("joins");
    }
    // Six 100 ms answers, two at a time: at least three rounds.
    assert!(
        started.elapsed() >= Duration::from_millis(290),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(limited.free_slots(), 2);

    let rated = Limited::new(
        Arc::new(world.connector("MAEU")),
        RateLimits {
            per_second: n(20),
            burst: n(1),
            concurrency: n(8),
        },
    );
    let started = tokio::time::Instant::now();
    for i in 0..5 {
        rated.lookup(&bill(&format!("{i:09}"))).await;
    }
    // One at once, then one every 50 ms.
    assert!(
        started.elapsed() >= Duration::from_millis(190),
        "{:?}",
        started.elapsed()
    );
}
