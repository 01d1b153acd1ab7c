//! Every bundled carrier profile end to end: the simulator plays each line's
//! authentication and ways, Tidemark is configured with the profile's name, its secrets and
//! the simulator's URL alone, and a request at each line is tracked through the tracker and
//! the store (HMM, which answers only a booking given with one of its containers, fails
//! with `data_unavailable` at once instead of retrying).

use std::collections::BTreeMap;

use carrier_sim::Quirk;
use serde_json::Value;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, document, tracking_request};

tidemark_store::backends!(with_profiles, each_profile_tracks_its_line_end_to_end);

async fn with_profiles<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let app = TestApp::build(backend)
        .world_clock()
        .simulator(play)
        .carriers(ENDPOINTS)
        .spawn()
        .await;
    case(app).await;
}

/// The lines, as the simulator plays them.
fn play(config: &mut carrier_sim::SimConfig) {
    config.quirks = BTreeMap::from([
        (
            "MAEU".into(),
            vec![Quirk::MissingContainers, Quirk::ForbiddenMeansNoAccess],
        ),
        (
            "HLCU".into(),
            vec![Quirk::NotManifested500, Quirk::MissingContainers],
        ),
        ("CMDU".into(), vec![Quirk::BargeFeederCodes]),
        (
            "HDMU".into(),
            vec![Quirk::BookingAndContainer, Quirk::UnknownLikeUnmanifested],
        ),
        ("EGLV".into(), vec![Quirk::PlanForPln]),
        ("ONEY".into(), vec![Quirk::ContainerLessBookings]),
    ]);
    config.oauth_clients = vec![
        carrier_sim::OAuthClient {
            client_id: "maersk-id".into(),
            client_secret: "maersk-secret".into(),
        },
        carrier_sim::OAuthClient {
            client_id: "eg-id".into(),
            client_secret: "eg-secret".into(),
        },
    ];
    let one = |name: &str, value: &str| vec![(name.to_owned(), value.to_owned())];
    config.header_credentials = vec![
        vec![
            ("X-IBM-Client-Id".into(), "hl-id".into()),
            ("X-IBM-Client-Secret".into(), "hl-secret".into()),
        ],
        one("keyId", "cma-key"),
        one("keyId", "ym-key"),
        one("Ocp-Apim-Subscription-Key", "msc-key"),
        one("x-Gateway-APIKey", "hmm-key"),
        one("X-ONE-Key", "one-key"),
    ];
}

/// Each line by its profile and secrets; the URLs are the simulator's.
const ENDPOINTS: &str = r#"
[endpoints.MAEU]
profile = "maersk"
base_url = "{sim}/MAEU"
events_path = "/v2/events"
token_url = "{sim}/oauth/token"
client_id = "maersk-id"
client_secret = "maersk-secret"

[endpoints.HLCU]
profile = "hapag-lloyd"
base_url = "{sim}/HLCU"
client_id = "hl-id"
client_secret = "hl-secret"

[endpoints.CMDU]
profile = "cma-cgm"
base_url = "{sim}/CMDU"
events_path = "/v2/events"
api_key = "cma-key"

[endpoints.MSCU]
profile = "msc"
base_url = "{sim}/MSCU"
events_path = "/v2/events"
api_key = "msc-key"

[endpoints.ZIMU]
profile = "zim"
base_url = "{sim}/ZIMU"
events_path = "/v2/events"
token_url = "{sim}/oauth/token"
client_id = "maersk-id"
client_secret = "maersk-secret"
api_key = "zim-key"

[endpoints.HDMU]
profile = "hmm"
base_url = "{sim}/HDMU"
events_path = "/v2/events"
api_key = "hmm-key"

[endpoints.YMLU]
profile = "yang-ming"
base_url = "{sim}/YMLU"
events_path = "/v1/events"
api_key = "ym-key"

[endpoints.ONEY]
profile = "one"
base_url = "{sim}/ONEY"
auth = { kind = "header", name = "X-ONE-Key", value = "one-key" }

[endpoints.EGLV]
profile = "evergreen"
base_url = "{sim}/EGLV"
events_path = "/v2/events"
token_url = "{sim}/auth/token"
client_id = "eg-id"
client_secret = "eg-secret"
"#;

async fn each_profile_tracks_its_line_end_to_end(t: TestApp) {
    says_how_each_line_is_tracked(&t).await;
    t.advance(time::Duration::days(30));
    hmm_is_asked_a_booking_and_a_container_together(&t).await;
    let mut ids = Vec::new();
    for (scac, kind, number) in [
        ("MAEU", "bill_of_lading", "MAEU240529131"),
        ("HLCU", "bill_of_lading", "HLCUSHA2401AXYZ1"),
        ("CMDU", "bill_of_lading", "CMDUSHZ0412345"),
        ("MSCU", "bill_of_lading", "MEDUA1234567"),
        ("ZIMU", "bill_of_lading", "ZIMUSHH3001234"),
        ("YMLU", "bill_of_lading", "YMLUW490123456"),
        ("ONEY", "booking_number", "ONEYTYOB12345600"),
        ("EGLV", "container", "EGHU1234562"),
    ] {
        let created = document(t.create(&tracking_request(kind, number, scac)).await).await;
        assert_eq!(
            created["data"]["attributes"]["status"], "pending",
            "{scac}: {created}"
        );
        ids.push((scac, created["data"]["id"].as_str().expect("id").to_owned()));
    }
    t.drain().await;
    for (scac, id) in ids {
        let request: Value = document(t.get(&format!("/v2/tracking_requests/{id}")).await).await;
        let attributes = &request["data"]["attributes"];
        assert_eq!(attributes["status"], "created", "{scac}: {attributes}");
        let shipment = &request["included"][0];
        assert_eq!(shipment["type"], "shipment", "{scac}: {request}");
        let pol = &shipment["attributes"]["port_of_lading_locode"];
        assert!(
            pol.as_str().is_some_and(|p| p.len() == 5),
            "{scac}: {shipment}"
        );
    }
    quota_use_is_told_in_the_metrics(&t).await;
}

/// `/metrics` tells each carrier's calls today (the quota shared by every process) and
/// its daily quota, when it has one.
async fn quota_use_is_told_in_the_metrics(t: &TestApp) {
    tidemark_api::metrics::handle();
    let text = t.get("/metrics").await.text().await.expect("text");
    let line = |name: &str| {
        text.lines()
            .find(|line| line.starts_with(name))
            .and_then(|line| line.rsplit(' ').next())
            .and_then(|value| value.parse::<f64>().ok())
    };
    let used = line("tidemark_carrier_calls_today{carrier=\"HLCU\"}").expect("HLCU's calls today");
    assert!(used >= 1.0, "{text}");
    assert_eq!(
        line("tidemark_carrier_calls_per_day{carrier=\"HLCU\"}"),
        Some(6000.0),
        "Hapag-Lloyd's daily quota"
    );
}

/// HMM answers only a booking and one of its containers asked together: a booking alone
/// waits (as for a manifest); a container of it tracked by the same client pairs with it,
/// and both are tracked.
async fn hmm_is_asked_a_booking_and_a_container_together(t: &TestApp) {
    use carrier_sim::world::{Placement, Reference};
    const BOOKING: &str = "HDMUPUSA1234567";
    let status = |id: String| async move {
        let request = document(t.get(&format!("/v2/tracking_requests/{id}")).await).await;
        request["data"]["attributes"]["status"].clone()
    };
    let create = |kind: &'static str, number: String| async move {
        let created = document(t.create(&tracking_request(kind, &number, "HDMU")).await).await;
        created["data"]["id"].as_str().expect("id").to_owned()
    };
    let booking = create("booking_number", BOOKING.to_owned()).await;
    t.drain().await;
    assert_eq!(
        status(booking.clone()).await,
        "awaiting_manifest",
        "alone, it waits"
    );
    let shipment = t
        .sim
        .world()
        .shipment(
            "HDMU",
            &Reference::Booking(BOOKING.to_owned()),
            Placement::Seeded,
            None,
        )
        .expect("the world has the booking");
    let number = &shipment.containers[0].number;
    let container = create("container", number.clone()).await;
    t.drain().await;
    assert_eq!(
        status(container).await,
        "created",
        "asked with the booking tracked"
    );
    // The booking's next look, a day on, pairs it with the container.
    t.advance(time::Duration::hours(25));
    t.drain().await;
    assert_eq!(status(booking).await, "created");
}

/// `GET /v2/shipping_lines/{scac}` says how this instance reaches each line.
async fn says_how_each_line_is_tracked(t: &TestApp) {
    for (scac, profile, version, auth, per_day) in [
        (
            "HLCU",
            "hapag-lloyd",
            "2.2",
            "headers X-IBM-Client-Id + X-IBM-Client-Secret",
            Some(6000),
        ),
        ("YMLU", "yang-ming", "1.1.0", "api_key keyId", None),
        ("MAEU", "maersk", "2.2", "oauth2 + Consumer-Key", None),
        ("EGLV", "evergreen", "2.2", "token", None),
    ] {
        let line = document(t.get(&format!("/v2/shipping_lines/{scac}")).await).await;
        let attributes = &line["data"]["attributes"];
        assert_eq!(attributes["tracking_source"], "carrier", "{scac}");
        assert_eq!(attributes["tracking_profile"], profile, "{scac}");
        assert_eq!(attributes["tracking_dcsa_version"], version, "{scac}");
        assert_eq!(attributes["tracking_auth_style"], auth, "{scac}");
        assert_eq!(attributes["tracking_mode"], "poll", "{scac}");
        assert_eq!(
            attributes["tracking_quota"]["per_day"],
            serde_json::json!(per_day),
            "{scac}"
        );
    }
    let sandbox = document(t.get("/v2/shipping_lines/TEST").await).await;
    assert!(sandbox["data"]["attributes"]["tracking_quota"].is_null());
}
