//! Every fault maps to its outcome; unreachable and misconfigured carriers are temporary.

use std::time::Duration;

use carrier_sim::Fault;
use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_carriers::{CarrierConnector, Secret};
use tidemark_domain::{LookupOutcome, Snapshot, TemporaryReason};

use crate::*;

/// What a lookup answers under a fault: a test of its outcome.
type Expected = fn(&LookupOutcome) -> bool;

/// Each fault the connector cannot absorb, with the outcome it must map to.
fn faults_and_outcomes() -> Vec<(Fault, Expected)> {
    vec![
        (
            Fault::ServerError {
                status: 502,
                retry_after_seconds: None,
            },
            |o| *o == LookupOutcome::Temporary(TemporaryReason::Unreachable("status 502".into())),
        ),
        // A 503's Retry-After is kept, to set the next attempt.
        (
            Fault::ServerError {
                status: 503,
                retry_after_seconds: Some(300),
            },
            |o| {
                *o == LookupOutcome::Temporary(TemporaryReason::Unavailable {
                    retry_after: Some(Duration::from_secs(300)),
                })
            },
        ),
        (
            Fault::RateLimited {
                retry_after_seconds: 7,
            },
            |o| {
                *o == LookupOutcome::Temporary(TemporaryReason::RateLimited {
                    retry_after: Some(Duration::from_secs(7)),
                })
            },
        ),
        (Fault::Unauthorized, |o| {
            *o == LookupOutcome::Temporary(TemporaryReason::Unauthorized)
        }),
        (
            // A gateway's 403 to a carrier without `forbidden_means_no_access` refuses our
            // credentials (tests/dcsa/quirks.rs has the carrier whose 403 withholds a shipment).
            Fault::ServerError {
                status: 403,
                retry_after_seconds: None,
            },
            |o| *o == LookupOutcome::Temporary(TemporaryReason::Unauthorized),
        ),
        (
            Fault::MalformedJson,
            |o| matches!(o, LookupOutcome::Temporary(TemporaryReason::Unrecognized(d)) if d.contains("not a JSON array")),
        ),
        (Fault::TruncatedJson, |o| {
            matches!(
                o,
                LookupOutcome::Temporary(TemporaryReason::Unrecognized(_))
            )
        }),
        (
            Fault::SchemaInvalid,
            |o| matches!(o, LookupOutcome::Temporary(TemporaryReason::Unrecognized(d)) if d.contains("event 0")),
        ),
        (
            Fault::Huge { bytes: 2_000_000 },
            |o| matches!(o, LookupOutcome::Temporary(TemporaryReason::Unrecognized(d)) if d.contains("larger than")),
        ),
        (Fault::Timeout, |o| {
            *o == LookupOutcome::Temporary(TemporaryReason::Unreachable("timed out".into()))
        }),
        (Fault::Slow { delay_ms: 2_000 }, |o| {
            *o == LookupOutcome::Temporary(TemporaryReason::Unreachable("timed out".into()))
        }),
    ]
}

#[tokio::test]
async fn every_fault_maps_to_its_outcome() {
    let world = World::start(sim_config()).await;
    world.advance_days(50);
    let mut config = world.config("HLCU");
    config.timeout = Duration::from_millis(400);
    config.max_response_bytes = 1024 * 1024;
    // One page per lookup, so a fault counted once affects exactly one lookup.
    config.page_size = 1000;
    let connector = DcsaConnector::new(config).expect("config");
    let number = bill("HLCUSHA1904CCVX4");
    let normal = found(connector.lookup(&number).await);

    for (fault, expected) in faults_and_outcomes() {
        world.fault(fault.clone());
        let outcome = connector.lookup(&number).await;
        assert!(expected(&outcome), "{fault:?} gave {outcome:?}");
        assert_eq!(
            found(connector.lookup(&number).await),
            normal,
            "after {fault:?}"
        );
    }

    // Faults that a correct connector absorbs.
    for fault in [
        Fault::EmptyPage,
        Fault::Duplicate,
        Fault::Slow { delay_ms: 20 },
    ] {
        world.fault(fault.clone());
        assert_eq!(found(connector.lookup(&number).await), normal, "{fault:?}");
    }
    world.fault(Fault::Retract);
    let retracted = found(connector.lookup(&number).await);
    let count = |s: &Snapshot| {
        s.containers
            .iter()
            .map(|c| c.milestones.len())
            .sum::<usize>()
    };
    assert!(
        count(&retracted) < count(&normal),
        "a withdrawn event leaves no milestone"
    );
    assert_eq!(found(connector.lookup(&number).await), normal);
}

#[tokio::test]
async fn unreachable_and_misconfigured_carriers_are_temporary() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address")
    };
    let config = DcsaConfig::new(format!("http://{closed}/MAEU"), Auth::None);
    let outcome = DcsaConnector::new(config)
        .expect("config")
        .lookup(&bill("586118841"))
        .await;
    assert!(
        matches!(
            outcome,
            LookupOutcome::Temporary(TemporaryReason::Unreachable(_))
        ),
        "{outcome:?}"
    );

    let world = World::start(sim_config()).await;
    let mut wrong_path = world.config("MAEU");
    wrong_path.base_url = format!("{}/not/a/carrier", world.base);
    let outcome = DcsaConnector::new(wrong_path)
        .expect("config")
        .lookup(&bill("586118841"))
        .await;
    assert!(
        matches!(outcome, LookupOutcome::Temporary(TemporaryReason::Unreachable(d)) if d.contains("404"))
    );

    let mut wrong_key = world.config("MAEU");
    wrong_key.auth = Auth::Header {
        name: "API-Key".into(),
        value: Secret::new("nope"),
    };
    let outcome = DcsaConnector::new(wrong_key)
        .expect("config")
        .lookup(&bill("586118841"))
        .await;
    assert_eq!(
        outcome,
        LookupOutcome::Temporary(TemporaryReason::Unauthorized)
    );

    let too_long = DcsaConnector::new(world.config("MAEU"))
        .expect("config")
        .lookup(&bill("X23456789012345678901"))
        .await;
    assert!(
        matches!(too_long, LookupOutcome::InvalidNumber(_)),
        "{too_long:?}"
    );
    assert!(DcsaConnector::new(DcsaConfig::new("ftp://example/", Auth::None)).is_err());
}
