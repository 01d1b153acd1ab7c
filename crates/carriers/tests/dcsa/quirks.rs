//! Each carrier named by its profile alone (base URL and token URL pointed at the
//! simulator), against the simulator playing that carrier's authentication and its ways;
//! and the same answers to a connector that does not know the ways, to show each rule is
//! what makes the difference.

use std::collections::BTreeMap;

use carrier_sim::world::{Placement, Reference};
use carrier_sim::{Chances, Quirk, SimConfig};
use tidemark_carriers::registry::{CarriersConfig, Registry};
use tidemark_carriers::{CarrierConnector, Lookup};
use tidemark_domain::{
    LookupOutcome, Milestone, RequestType, SandboxScope, Scac, TemporaryReason, Timestamp,
};

use crate::*;

/// A simulator where `scac` plays `quirks`, with every fate as `chances` says.
pub(crate) async fn playing(
    scac: &str,
    quirks: &[Quirk],
    chances: Chances,
    edit: impl FnOnce(&mut SimConfig),
) -> World {
    let mut config = sim_config();
    config.chances = chances;
    config.quirks = BTreeMap::from([(scac.to_owned(), quirks.to_vec())]);
    edit(&mut config);
    World::start(config).await
}

pub(crate) const SAILS: Chances = Chances {
    not_found: 0,
    awaiting_manifest: 0,
    cancelled: 0,
};

const AWAITS: Chances = Chances {
    not_found: 0,
    awaiting_manifest: 100,
    cancelled: 0,
};

const UNKNOWN: Chances = Chances {
    not_found: 100,
    awaiting_manifest: 0,
    cancelled: 0,
};

/// The connector of `scac` made of `entry` (a `[endpoints.SCAC]` body), `{sim}` replaced.
pub(crate) fn by_profile(
    world: &World,
    scac: &str,
    entry: &str,
) -> std::sync::Arc<dyn CarrierConnector> {
    let text = format!(
        "[endpoints.{scac}]\n{}",
        entry.replace("{sim}", &world.base)
    );
    let config: CarriersConfig = toml::from_str(&text).expect("parses");
    let registry = Registry::build(&config, None, SandboxScope::Off).expect("valid");
    registry
        .connector(&Scac::parse(scac).expect("scac"))
        .expect("configured")
        .0
}

pub(crate) fn key_header(name: &str, value: &str) -> impl FnOnce(&mut SimConfig) {
    let set = vec![(name.to_owned(), value.to_owned())];
    move |config| config.header_credentials = vec![set]
}

#[tokio::test]
async fn hapag_lloyd_s_500_waits_for_the_manifest_and_its_bills_come_without_boxes() {
    let world = playing(
        "HLCU",
        &[Quirk::NotManifested500, Quirk::MissingContainers],
        AWAITS,
        |config| {
            config.header_credentials = vec![vec![
                ("X-IBM-Client-Id".into(), "hl-id".into()),
                ("X-IBM-Client-Secret".into(), "hl-secret".into()),
            ]];
        },
    )
    .await;
    let hapag = by_profile(
        &world,
        "HLCU",
        "profile = \"hapag-lloyd\"\nbase_url = \"{sim}/HLCU\"\nclient_id = \"hl-id\"\nclient_secret = \"hl-secret\"",
    );
    let number = bill("HLCUHAM2406AAA1");
    assert_eq!(hapag.lookup(&number).await, LookupOutcome::NotFound);
    // Not knowing the way, the same 500 is a failure to retry.
    let mut plain = world.config("HLCU");
    plain.auth = tidemark_carriers::auth::Auth::Headers(vec![
        (
            "X-IBM-Client-Id".into(),
            tidemark_carriers::Secret::new("hl-id"),
        ),
        (
            "X-IBM-Client-Secret".into(),
            tidemark_carriers::Secret::new("hl-secret"),
        ),
    ]);
    let plain = DcsaConnector::new(plain).expect("valid");
    let outcome = plain.lookup(&number).await;
    assert!(
        matches!(
            &outcome,
            LookupOutcome::Temporary(TemporaryReason::Unreachable(status)) if status.contains("500")
        ),
        "{outcome:?}"
    );
    world.advance_days(30);
    let snapshot = found(hapag.lookup(&number).await);
    assert!(
        snapshot.containers.is_empty(),
        "the bill's answer has no boxes"
    );
    assert!(snapshot.calls.len() >= 2, "but its route");
    // The boxes come by their own numbers.
    let boxes = world_shipment(&world, "HLCU", &number).containers;
    let by_box = found(
        hapag
            .lookup(&lookup(&boxes[0].number, RequestType::Container))
            .await,
    );
    assert_eq!(by_box.containers.len(), 1);
}

/// The shipment the simulator holds for `lookup` at `scac`.
pub(crate) fn world_shipment(
    world: &World,
    scac: &str,
    lookup: &Lookup,
) -> carrier_sim::world::Shipment {
    let reference = match lookup.kind {
        RequestType::BillOfLading => Reference::TransportDocument(lookup.number.clone()),
        RequestType::BookingNumber => Reference::Booking(lookup.number.clone()),
        RequestType::Container => Reference::Equipment(lookup.number.clone()),
    };
    world
        .sim
        .world()
        .shipment(scac, &reference, Placement::Seeded, None)
        .expect("a shipment")
}

#[tokio::test]
async fn hmm_is_asked_with_a_booking_and_a_container_together() {
    let world = playing(
        "HDMU",
        &[Quirk::BookingAndContainer, Quirk::UnknownLikeUnmanifested],
        SAILS,
        key_header("x-Gateway-APIKey", "hmm-key"),
    )
    .await;
    world.advance_days(30);
    let hmm = by_profile(
        &world,
        "HDMU",
        "profile = \"hmm\"\nbase_url = \"{sim}/HDMU\"\nevents_path = \"/v2/events\"\napi_key = \"hmm-key\"",
    );
    let mut booking = lookup("HDMUPUSA123456", RequestType::BookingNumber);
    // Alone, the booking cannot be asked: nothing is sent, and it is not known yet.
    assert_eq!(hmm.lookup(&booking).await, LookupOutcome::NotFound);
    assert_eq!(world.sim.lookups("HDMU", &booking.number), 0);
    let boxes = world_shipment(&world, "HDMU", &booking).containers;
    booking.known.containers = boxes.iter().map(|c| c.number.clone()).collect();
    let snapshot = found(hmm.lookup(&booking).await);
    assert_eq!(
        snapshot.containers.len(),
        boxes.len(),
        "one query per box, merged"
    );
    assert!(milestones(&snapshot, 0).contains(&Milestone::VesselDeparted));
    // A box of another booking: the same empty answer as an unknown booking.
    let mut stranger = booking.clone();
    stranger.known.containers = vec!["MSCU1234566".into()];
    assert_eq!(hmm.lookup(&stranger).await, LookupOutcome::NotFound);
    // Among the client's other boxes, the pair that is this shipment's answers.
    stranger.known.containers.push(boxes[0].number.clone());
    let paired = found(hmm.lookup(&stranger).await);
    assert_eq!(paired.containers.len(), 1);
    // A box asked with the bookings the client tracks there.
    let mut container = lookup(&boxes[0].number, RequestType::Container);
    container.known.bookings = vec!["HDMUOTHER00001".into(), booking.number.clone()];
    assert_eq!(found(hmm.lookup(&container).await).containers.len(), 1);
}

#[tokio::test]
async fn hmm_answers_unknown_and_unmanifested_alike_and_both_wait() {
    let world = playing(
        "HDMU",
        &[Quirk::UnknownLikeUnmanifested],
        AWAITS,
        key_header("x-Gateway-APIKey", "k"),
    )
    .await;
    let hmm = by_profile(
        &world,
        "HDMU",
        "profile = \"hmm\"\nbase_url = \"{sim}/HDMU\"\nevents_path = \"/v2/events\"\napi_key = \"k\"\nquirks = [\"unknown_like_unmanifested\"]",
    );
    assert_eq!(
        hmm.lookup(&bill("HDMUAWAIT0001")).await,
        LookupOutcome::NotFound
    );
    let unknown = playing(
        "HDMU",
        &[Quirk::UnknownLikeUnmanifested],
        UNKNOWN,
        key_header("x-Gateway-APIKey", "k"),
    )
    .await;
    let hmm = by_profile(
        &unknown,
        "HDMU",
        "profile = \"hmm\"\nbase_url = \"{sim}/HDMU\"\nevents_path = \"/v2/events\"\napi_key = \"k\"\nquirks = [\"unknown_like_unmanifested\"]",
    );
    assert_eq!(
        hmm.lookup(&bill("HDMUNEVER0001")).await,
        LookupOutcome::NotFound
    );
}

/// A bill at `scac` whose route has a second ocean leg.
fn transshipped(world: &World, scac: &str) -> Lookup {
    (0..500)
        .map(|n| bill(&format!("{scac}X{n:06}")))
        .find(|b| {
            world_shipment(world, scac, b)
                .calls
                .iter()
                .any(|c| c.leg > 0)
        })
        .expect("some route is transshipped")
}

#[tokio::test]
async fn cma_cgm_s_barge_codes_are_feeder_events_off_the_ocean_route() {
    let world = playing(
        "CMDU",
        &[Quirk::BargeFeederCodes],
        SAILS,
        key_header("keyId", "cma-key"),
    )
    .await;
    world.advance_days(60);
    let number = transshipped(&world, "CMDU");
    let shipment = world_shipment(&world, "CMDU", &number);
    let cma = by_profile(
        &world,
        "CMDU",
        "profile = \"cma-cgm\"\nbase_url = \"{sim}/CMDU\"\nevents_path = \"/v2/events\"\napi_key = \"cma-key\"",
    );
    let snapshot = found(cma.lookup(&number).await);
    let reached = milestones(&snapshot, 0);
    for milestone in [
        Milestone::FeederLoaded,
        Milestone::FeederDeparted,
        Milestone::FeederArrived,
        Milestone::FeederDischarged,
        Milestone::VesselLoaded,
        Milestone::VesselDeparted,
        Milestone::VesselArrived,
    ] {
        assert!(reached.contains(&milestone), "{milestone:?} in {reached:?}");
    }
    let hub = shipment
        .calls
        .iter()
        .find(|c| c.leg == 1)
        .expect("second leg");
    assert_eq!(
        snapshot.calls[0].place.locode, hub.port.locode,
        "the port of loading is the ocean vessel's"
    );
    // Not knowing the codes, the barge's arrivals and departures are not understood.
    let mut plain = world.config("CMDU");
    plain.auth = tidemark_carriers::auth::Auth::Header {
        name: "keyId".into(),
        value: tidemark_carriers::Secret::new("cma-key"),
    };
    let plain = DcsaConnector::new(plain).expect("valid");
    let reached = milestones(&found(plain.lookup(&number).await), 0);
    assert!(!reached.contains(&Milestone::FeederDeparted), "{reached:?}");
}

#[tokio::test]
async fn evergreen_s_plan_is_the_standard_s_plan() {
    let world = playing("EGLV", &[Quirk::PlanForPln], SAILS, |_| {}).await;
    world.advance_days(60);
    let entry = format!(
        "profile = \"evergreen\"\nbase_url = \"{{sim}}/EGLV\"\nevents_path = \"/v2/events\"\nauth = {{ kind = \"header\", name = \"API-Key\", value = \"{KEY}\" }}"
    );
    let evergreen = by_profile(&world, "EGLV", &entry);
    let number = bill("EGLV142400001234");
    let planned = world_shipment(&world, "EGLV", &number).calls[0].planned_arrival;
    let planned =
        Timestamp::parse_rfc3339(&carrier_sim::timeline::timestamp(planned)).expect("time");
    let snapshot = found(evergreen.lookup(&number).await);
    assert_eq!(
        snapshot.calls[0].original_eta,
        Some(planned),
        "the plan is the original estimate"
    );
    let unaware = by_profile(&world, "EGLV", &format!("{entry}\nquirks = []"));
    let snapshot = found(unaware.lookup(&number).await);
    assert_ne!(snapshot.calls[0].original_eta, Some(planned));
}

#[tokio::test]
async fn maersk_s_403_withholds_the_shipment_for_good() {
    let world = playing(
        "MAEU",
        &[Quirk::ForbiddenMeansNoAccess, Quirk::MissingContainers],
        UNKNOWN,
        |config| {
            config.required_headers = vec![("Consumer-Key".into(), "tidemark".into())];
        },
    )
    .await;
    let maersk = by_profile(
        &world,
        "MAEU",
        "profile = \"maersk\"\nbase_url = \"{sim}/MAEU\"\nevents_path = \"/v2/events\"\ntoken_url = \"{sim}/oauth/token\"\nclient_id = \"tidemark\"\nclient_secret = \"s3cret\"",
    );
    assert_eq!(
        maersk.lookup(&bill("MAEU240000001")).await,
        LookupOutcome::DataUnavailable
    );
    let unaware = by_profile(
        &world,
        "MAEU",
        "profile = \"maersk\"\nbase_url = \"{sim}/MAEU\"\nevents_path = \"/v2/events\"\ntoken_url = \"{sim}/oauth/token\"\nclient_id = \"tidemark\"\nclient_secret = \"s3cret\"\nquirks = []",
    );
    assert_eq!(
        unaware.lookup(&bill("MAEU240000001")).await,
        LookupOutcome::Temporary(TemporaryReason::Unauthorized)
    );
}

#[tokio::test]
async fn one_s_box_less_booking_events_leave_the_booking_a_booking() {
    let world = playing(
        "ONEY",
        &[Quirk::ContainerLessBookings],
        AWAITS,
        key_header("X-ONE-Key", "one-key"),
    )
    .await;
    let entry = "profile = \"one\"\nbase_url = \"{sim}/ONEY\"\nauth = { kind = \"header\", name = \"X-ONE-Key\", value = \"one-key\" }";
    let one = by_profile(&world, "ONEY", entry);
    let booking = lookup("ONEYTYOB12345600", RequestType::BookingNumber);
    assert_eq!(one.lookup(&booking).await, LookupOutcome::NotYetManifested);
    let unaware = by_profile(&world, "ONEY", &format!("{entry}\nquirks = []"));
    let phantom = found(unaware.lookup(&booking).await);
    assert!(
        phantom.containers.is_empty(),
        "a shipment of no box: what the rule prevents"
    );
    world.advance_days(30);
    assert!(!found(one.lookup(&booking).await).containers.is_empty());
}

#[tokio::test]
async fn msc_and_zim_are_reached_by_their_profiles() {
    let world = playing("MSCU", &[], SAILS, |config| {
        config.header_credentials =
            vec![vec![("Ocp-Apim-Subscription-Key".into(), "msc-key".into())]];
    })
    .await;
    world.advance_days(30);
    let msc = by_profile(
        &world,
        "MSCU",
        "profile = \"msc\"\nbase_url = \"{sim}/MSCU\"\nevents_path = \"/v2/events\"\napi_key = \"msc-key\"",
    );
    found(msc.lookup(&bill("MEDUA1234567")).await);
    let world = playing("ZIMU", &[], SAILS, |config| {
        config.required_headers = vec![("Ocp-Apim-Subscription-Key".into(), "zim-key".into())];
    })
    .await;
    world.advance_days(30);
    let zim = by_profile(
        &world,
        "ZIMU",
        "profile = \"zim\"\nbase_url = \"{sim}/ZIMU\"\nevents_path = \"/v2/events\"\ntoken_url = \"{sim}/oauth/token\"\nclient_id = \"tidemark\"\nclient_secret = \"s3cret\"\napi_key = \"zim-key\"",
    );
    found(zim.lookup(&bill("ZIMUSHH3001234")).await);
}
