//! The DCSA connector against the carrier simulator over real HTTP on loopback: every
//! scenario, every fault, paging, credentials, and a voyage played step by step.

use std::sync::Arc;
use std::time::Duration;

use carrier_sim::{ClockMode, Fault, FaultRule, NextPage, OAuthClient, SimConfig, Simulator};
use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_carriers::{CarrierConnector, Lookup, Secret};
use tidemark_domain::{
    ContainerStatus, LookupOutcome, Milestone, RequestType, Snapshot, TemporaryReason,
};
use time::macros::datetime;

const KEY: &str = "carrier-key";

fn sim_config() -> SimConfig {
    let mut config = SimConfig::new(KEY);
    config.seed = 11;
    config.epoch = datetime!(2026-06-01 0:00 UTC);
    config.clock = ClockMode::Stepped;
    // Every number sails here; the seeded unhappy fates are the simulator's own tests.
    config.chances = carrier_sim::Chances {
        not_found: 0,
        awaiting_manifest: 0,
        cancelled: 0,
    };
    config.oauth_clients = vec![OAuthClient {
        client_id: "tidemark".into(),
        client_secret: "s3cret".into(),
    }];
    config
}

struct World {
    sim: Simulator,
    base: String,
}

impl World {
    async fn start(config: SimConfig) -> Self {
        let sim = Simulator::new(config);
        let base = sim.clone().spawn().await.expect("simulator listens");
        Self { sim, base }
    }

    fn config(&self, scac: &str) -> DcsaConfig {
        let mut config = DcsaConfig::new(
            format!("{}/{scac}", self.base),
            Auth::Header {
                name: "API-Key".into(),
                value: Secret::new(KEY),
            },
        );
        config.timeout = Duration::from_secs(5);
        config
    }

    fn connector(&self, scac: &str) -> DcsaConnector {
        DcsaConnector::new(self.config(scac)).expect("valid config")
    }

    fn advance_days(&self, days: i64) {
        self.sim.clock().advance(time::Duration::days(days));
    }

    fn fault(&self, fault: Fault) {
        self.sim.add_fault(FaultRule {
            scac: None,
            reference: None,
            fault,
            times: Some(1),
        });
    }
}

fn lookup(number: &str, kind: RequestType) -> Lookup {
    Lookup {
        number: number.to_owned(),
        kind,
    }
}

fn bill(number: &str) -> Lookup {
    lookup(number, RequestType::BillOfLading)
}

fn found(outcome: LookupOutcome) -> Snapshot {
    match outcome {
        LookupOutcome::Found(snapshot) => snapshot,
        other => panic!("expected a snapshot, got {other:?}"),
    }
}

fn milestones(snapshot: &Snapshot, container: usize) -> Vec<Milestone> {
    snapshot.containers[container]
        .milestones
        .iter()
        .map(|m| m.milestone)
        .collect()
}

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

    type Expected = fn(&LookupOutcome) -> bool;
    let cases: Vec<(Fault, Expected)> = vec![
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
            Fault::ServerError {
                status: 403,
                retry_after_seconds: None,
            },
            |o| *o == LookupOutcome::DataUnavailable,
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
    ];
    for (fault, expected) in cases {
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

#[tokio::test]
async fn pages_are_followed_as_tokens_or_urls_and_bounded() {
    let mut snapshots = Vec::new();
    for style in [NextPage::Token, NextPage::Url] {
        let mut config = sim_config();
        config.next_page = style;
        let world = World::start(config).await;
        world.advance_days(90);
        let mut paged = world.config("ONEY");
        paged.page_size = 4;
        let connector = DcsaConnector::new(paged).expect("config");
        let whole = found(world.connector("ONEY").lookup(&bill("SH9FSK690300")).await);
        let snapshot = found(connector.lookup(&bill("SH9FSK690300")).await);
        assert_eq!(snapshot, whole, "{style:?}");
        snapshots.push(snapshot);

        let mut bounded = world.config("ONEY");
        bounded.page_size = 1;
        bounded.max_pages = 3;
        let outcome = DcsaConnector::new(bounded)
            .expect("config")
            .lookup(&bill("SH9FSK690300"))
            .await;
        assert!(
            matches!(outcome, LookupOutcome::Temporary(TemporaryReason::Unrecognized(d)) if d.contains("pages"))
        );
    }
    assert_eq!(snapshots[0], snapshots[1]);
}

#[tokio::test]
async fn oauth2_client_credentials_are_fetched_cached_and_renewed() {
    let world = World::start(sim_config()).await;
    world.advance_days(30);
    let oauth = |secret: &str| Auth::OAuth2 {
        token_url: format!("{}/oauth/token", world.base),
        client_id: "tidemark".into(),
        client_secret: Secret::new(secret),
        scope: None,
    };
    let mut config = world.config("ZIMU");
    config.auth = oauth("s3cret");
    let connector = DcsaConnector::new(config.clone()).expect("config");
    let first = found(connector.lookup(&bill("ZIMUSNH1160339")).await);
    // The simulator's tokens live one simulated hour; the connector's cache does not know,
    // is refused, renews once and succeeds.
    world.advance_days(1);
    let again = found(connector.lookup(&bill("ZIMUSNH1160339")).await);
    assert!(again.containers.len() == first.containers.len());

    config.auth = oauth("wrong");
    let refused = DcsaConnector::new(config)
        .expect("config")
        .lookup(&bill("ZIMUSNH1160339"))
        .await;
    assert_eq!(
        refused,
        LookupOutcome::Temporary(TemporaryReason::Unauthorized)
    );
    assert!(
        !format!("{:?}", oauth("s3cret")).contains("s3cret"),
        "secrets stay out of logs"
    );
}

#[tokio::test]
async fn a_voyage_played_step_by_step_only_ever_adds_milestones() {
    let world = World::start(sim_config()).await;
    let connector = world.connector("TEST");
    let journey = lookup("TEST-TR-JOURNEY", RequestType::BookingNumber);
    assert_eq!(
        connector.lookup(&journey).await,
        LookupOutcome::NotYetManifested
    );
    let mut previous: Vec<Vec<Milestone>> = Vec::new();
    let mut statuses = Vec::new();
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
            ContainerStatus::New,
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
    use tidemark_carriers::limits::{CarrierLimits, Limited};

    let world = World::start(sim_config()).await;
    world.sim.add_fault(FaultRule {
        scac: Some("CMDU".into()),
        reference: None,
        fault: Fault::Slow { delay_ms: 100 },
        times: None,
    });
    let n = |v| NonZeroU32::new(v).expect("non-zero");
    let limited = Arc::new(Limited::new(
        Arc::new(world.connector("CMDU")),
        CarrierLimits {
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
        CarrierLimits {
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
