//! The deterministic world, a journey as the clock moves, the sandbox numbers.

use crate::*;

#[tokio::test]
async fn the_world_is_deterministic_per_seed() {
    let a = Sim::start(config()).await;
    let b = Sim::start(config()).await;
    let mut other = config();
    other.seed = 43;
    let c = Sim::start(other).await;
    let query = "/ONEY/v2/events?carrierBookingReference=SH9FSK690300";
    for sim in [&a, &b, &c] {
        sim.advance(30).await;
    }
    assert_eq!(a.all(query).await, b.all(query).await);
    assert_ne!(a.all(query).await, c.all(query).await);
}

#[tokio::test]
async fn a_journey_plays_out_as_the_clock_moves() {
    let sim = Sim::start(config()).await;
    let query = "/TEST/v2/events?carrierBookingReference=TEST-TR-JOURNEY";
    let start = codes(&sim.all(query).await);
    for done in ["ACT:RECE", "ACT:GTOT", "ACT:GTIN", "ACT:LOAD"] {
        assert!(start.iter().any(|c| c == done), "{done} by the first ask");
    }
    assert!(!start.iter().any(|c| c == "ACT:DEPA"), "not sailed yet");
    // Its vessel leaves minutes after the first ask, recorded ten minutes later.
    sim.sim
        .clock()
        .advance(carrier_sim::scenario::JOURNEY_DEPARTS + time::Duration::minutes(10));
    let sailed = codes(&sim.all(query).await);
    assert!(sailed.iter().any(|c| c == "ACT:DEPA"), "{sailed:?}");
    let mut previous = sailed.len();
    let mut stages = Vec::new();
    for _ in 0..24 {
        sim.advance(5).await;
        let now = codes(&sim.all(query).await);
        assert!(now.len() >= previous, "events never disappear");
        previous = now.len();
        stages.push(now);
    }
    let last = stages.last().expect("stages");
    for milestone in [
        "ACT:GTOT", "ACT:GTIN", "ACT:LOAD", "ACT:DEPA", "ACT:ARRI", "ACT:DISC", "EST:ARRI",
        "PLN:ARRI",
    ] {
        assert!(
            last.iter().any(|c| c == milestone),
            "{milestone} missing from {last:?}"
        );
    }
    let by_container = sim
        .all("/TEST/v2/events?carrierBookingReference=TEST-TR-JOURNEY&eventType=EQUIPMENT")
        .await;
    let first_box = by_container[0]["equipmentReference"].as_str().expect("box");
    let life: Vec<String> = by_container
        .iter()
        .filter(|e| e["equipmentReference"] == first_box)
        .map(|e| {
            format!(
                "{}:{}",
                e["equipmentEventTypeCode"].as_str().unwrap_or("?"),
                e["emptyIndicatorCode"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(life.first().map(String::as_str), Some("GTOT:EMPTY"));
    assert_eq!(life.last().map(String::as_str), Some("GTIN:EMPTY"));
    assert!(life.contains(&"GTOT:LADEN".to_owned()));
}

#[tokio::test]
async fn the_sandbox_numbers_behave_as_documented() {
    let sim = Sim::start(config()).await;
    let query = |number: &str| format!("/TEST/v2/events?carrierBookingReference={number}");

    let succeeded = sim.all(&query("TEST-TR-SUCCEEDED")).await;
    assert!(succeeded.iter().any(|e| e["eventType"] == "TRANSPORT"));
    assert!(succeeded.iter().any(|e| e["eventType"] == "EQUIPMENT"));
    assert!(sim.all(&query("TEST-TR-NOT-FOUND")).await.is_empty());
    let unknown = sim.error(&query("TEST-TR-FAILED"), 404).await;
    assert_eq!(unknown["statusCode"], 404);
    assert!(unknown["errors"].as_array().is_some_and(|e| !e.is_empty()));

    let first = codes(&sim.all(&query("TEST-TR-AWAITING-MANIFEST")).await);
    assert!(
        first.iter().all(|c| c == "ACT:RECE" || c == "ACT:CONF"),
        "{first:?}"
    );
    let second = sim.all(&query("TEST-TR-AWAITING-MANIFEST")).await;
    assert!(
        second.iter().any(|e| e["eventType"] == "EQUIPMENT"),
        "found on the second check"
    );

    for _ in 0..2 {
        sim.error(&format!("{}&limit=1000", query("TEST-TR-RETRY")), 503)
            .await;
    }
    assert!(
        !sim.all(&query("TEST-TR-RETRY")).await.is_empty(),
        "the third lookup succeeds"
    );
    for _ in 0..5 {
        sim.error(&query("TEST-TR-RETRIES-EXHAUSTED"), 503).await;
    }

    let cancelled = codes(&sim.all(&query("TEST-TR-CANCELLED")).await);
    assert_eq!(cancelled, ["ACT:RECE", "ACT:CONF", "ACT:VOID"]);
    assert_eq!(sim.sim.lookups("TEST", "TEST-TR-RETRY"), 3);
}

#[tokio::test]
async fn a_scripted_number_plays_its_path_from_when_it_is_first_asked_about() {
    let sim = Sim::start(config()).await;
    let query = "/TEST/v2/events?carrierBookingReference=TEST-TR-JOURNEY";
    // Asked a month after the simulator started, it is where it was when asked at once.
    sim.advance(30).await;
    let late = codes(&sim.all(query).await);
    assert!(late.iter().any(|c| c == "ACT:LOAD"), "{late:?}");
    assert!(
        !late.iter().any(|c| c == "ACT:DEPA"),
        "not sailed yet: {late:?}"
    );
    sim.sim.clock().advance(time::Duration::minutes(5));
    assert_eq!(
        codes(&sim.all(query).await),
        late,
        "its departure not yet recorded"
    );
    sim.sim.clock().advance(time::Duration::minutes(10));
    let sailed = codes(&sim.all(query).await);
    assert!(sailed.iter().any(|c| c == "ACT:DEPA"), "{sailed:?}");

    // Its timeline is kept: asked again, it does not start over.
    assert_eq!(codes(&sim.all(query).await), sailed);
}
