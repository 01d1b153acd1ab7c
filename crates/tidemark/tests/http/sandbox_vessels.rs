//! The sandbox's vessels at sea (api.md §4): the simulator's vessels report on its AIS
//! feed, which the application reads as the sandbox's; a sandbox shipment at sea has a
//! vessel with a position, and its future positions run forward in time to the port of
//! discharge.

use std::time::{Duration, Instant};

use serde_json::Value;
use tidemark_domain::gazetteer::Gazetteer;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, document, errors};
use crate::shipments::track;

tidemark_store::backends!(
    at_sea,
    a_sandbox_vessel_at_sea_has_a_position_and_future_positions_to_its_port,
);

/// The app on the world's clock with the simulator's vessels on AIS, and the journey
/// tracked and a day at sea; its shipment.
async fn at_sea<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp, Value) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let t = TestApp::build(backend)
        .world_clock()
        .vessels_on_ais()
        .spawn()
        .await;
    let tracked = track(&t, "TEST-TR-JOURNEY", "TEST").await;
    t.advance(time::Duration::days(1));
    t.drain().await;
    let id = tracked["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a shipment")
        .to_owned();
    let shipment = document(t.get(&format!("/v2/shipments/{id}")).await).await;
    case(t, shipment["data"].clone()).await;
}

/// The vessel once the feed has told of it at the world's time.
pub(crate) async fn heard(t: &TestApp, imo: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    let now = tidemark_domain::Clock::now(t.clock.as_ref()).unix_seconds();
    let now = tidemark_domain::Timestamp::from_unix_micros(now * 1_000_000)
        .expect("in range")
        .to_string();
    loop {
        let response = t.get(&format!("/v2/vessels/{imo}")).await;
        if response.status().as_u16() == 200 {
            let vessel = document(response).await["data"].clone();
            if vessel["attributes"]["position_timestamp"].as_str() == Some(now.as_str()) {
                return vessel;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the vessel {imo} was never heard at {now}"
        );
        tokio::task::yield_now().await;
    }
}

fn km(a: (f64, f64), b: (f64, f64)) -> f64 {
    seaways::Point::new(a.0, a.1).distance_nm(seaways::Point::new(b.0, b.1)) * 1.852
}

async fn a_sandbox_vessel_at_sea_has_a_position_and_future_positions_to_its_port(
    t: TestApp,
    shipment: Value,
) {
    let attributes = &shipment["attributes"];
    assert!(attributes["pol_atd_at"].is_string(), "sailed: {attributes}");
    let imo = attributes["pod_vessel_imo"]
        .as_str()
        .expect("a vessel")
        .to_owned();
    let vessel = heard(&t, &imo).await;
    let position = |v: &Value| {
        (
            v["latitude"].as_f64().expect("a latitude"),
            v["longitude"].as_f64().expect("a longitude"),
        )
    };
    let at = position(&vessel["attributes"]);
    assert!(
        vessel["attributes"]["nautical_speed_knots"]
            .as_f64()
            .is_some_and(|knots| knots > 1.0)
    );

    let pod = attributes["port_of_discharge_locode"]
        .as_str()
        .expect("a port")
        .to_owned();
    let place = Gazetteer::bundled().port(&pod).expect("a known port");
    let future = document(
        t.get(&format!(
            "/v2/vessels/{imo}/future_positions?port_id={pod}&previous_port_id={}",
            attributes["port_of_lading_locode"]
                .as_str()
                .expect("a port")
        ))
        .await,
    )
    .await;
    let positions = future["data"]["attributes"]["positions"]
        .as_array()
        .expect("positions")
        .clone();
    assert!(positions.len() > 100, "{} positions", positions.len());
    assert!(positions.iter().all(|p| p["estimated"] == true));
    let times: Vec<&str> = positions
        .iter()
        .filter_map(|p| p["timestamp"].as_str())
        .collect();
    assert!(
        times.windows(2).all(|pair| pair[0] < pair[1]),
        "forward in time"
    );
    assert!(
        km(position(&positions[0]), at) < 1.0,
        "from where the vessel is"
    );
    let last = positions.last().expect("a last position");
    let end = km(position(last), (place.latitude, place.longitude));
    assert!(end < 50.0, "ends {end} km from {pod}");

    refusals(&t, &imo, &pod, at).await;
    the_map_draws_the_ports_the_vessel_and_the_legs(&t, &shipment, at).await;
    the_console_draws_the_voyage(&t, &shipment).await;
    the_overview_draws_the_vessels_at_sea(&t, &vessel).await;
    an_included_vessel_reads_as_its_own_page(&t, &shipment, &vessel).await;
}

/// The overview's map: the vessel carrying the shipment, where it was heard, and listed.
async fn the_overview_draws_the_vessels_at_sea(t: &TestApp, vessel: &Value) {
    let page = crate::console::get(t, "/console", Some(&t.key)).await;
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.expect("HTML");
    let start = html
        .find(r#"<section class="card fleet-map">"#)
        .expect("the map of vessels at sea");
    let section = &html[start..];
    let section = &section[..section.find("</section>").expect("its end")];
    assert!(section.contains("<svg") && section.contains(r#"class="land""#));
    assert_eq!(
        section.matches(r#"<circle class="vessel""#).count(),
        1,
        "{section:.400}"
    );
    let imo = vessel["attributes"]["imo"].as_str().expect("an IMO");
    assert!(
        section.contains(&format!("<td>{imo}</td>")),
        "listed by IMO"
    );
    assert!(section.contains("1 vessel at sea carrying 1 of your shipments"));
}

/// A vessel included with other records carries the position `/v2/vessels` gives it.
async fn an_included_vessel_reads_as_its_own_page(t: &TestApp, shipment: &Value, vessel: &Value) {
    let container = shipment["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container");
    let events = document(
        t.get(&format!(
            "/v2/containers/{container}/transport_events?include=vessel"
        ))
        .await,
    )
    .await;
    let included = events["included"].as_array().expect("included");
    let same = included
        .iter()
        .find(|r| r["type"] == "vessel" && r["id"] == vessel["id"])
        .expect("the vessel included");
    for name in ["latitude", "longitude", "position_timestamp", "mmsi"] {
        assert_eq!(
            same["attributes"][name], vessel["attributes"][name],
            "{name}"
        );
    }
}

/// The console's shipment page holds the voyage as inline SVG: land, both ports, the
/// vessel, the path sailed and the route ahead, and words for those who do not see it.
async fn the_console_draws_the_voyage(t: &TestApp, shipment: &Value) {
    let id = shipment["id"].as_str().expect("an id");
    let page = crate::console::get(t, &format!("/console/shipments/{id}"), Some(&t.key)).await;
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.expect("HTML");
    let start = html.find("<svg").expect("the map is inline SVG");
    let end = html[start..].find("</svg>").expect("the SVG ends") + start;
    let svg = &html[start..end];
    assert!(
        svg.contains(r#"role="img""#) && svg.contains("<title"),
        "{svg:.300}"
    );
    assert!(svg.matches(r#"class="land""#).count() >= 1, "land drawn");
    assert_eq!(svg.matches("<g class=\"port").count(), 2, "both ports");
    assert!(svg.contains(r#"class="vessel""#) && svg.contains(r#"class="ahead""#));
    assert!(!svg.contains("http"), "nothing fetched from elsewhere");
}

/// What the future positions cannot read is refused, named.
async fn refusals(t: &TestApp, imo: &str, pod: &str, at: (f64, f64)) {
    let position = |v: &Value| {
        (
            v["latitude"].as_f64().expect("a latitude"),
            v["longitude"].as_f64().expect("a longitude"),
        )
    };
    let refused = errors(
        t.get(&format!("/v2/vessels/{imo}/future_positions")).await,
        400,
    )
    .await;
    assert_eq!(refused[0]["source"]["parameter"], "port_id");
    let nowhere = errors(
        t.get(&format!("/v2/vessels/{imo}/future_positions?port_id=ZZZZZ"))
            .await,
        404,
    )
    .await;
    assert_eq!(nowhere[0]["code"], "not_found", "a port no one knows");
    let shapeless = errors(
        t.get(&format!("/v2/vessels/{imo}/future_positions?port_id="))
            .await,
        400,
    )
    .await;
    assert_eq!(shapeless[0]["code"], "invalid_parameter");
    let from_here = document(
        t.get(&format!("/v2/vessels/{imo}/future_positions_with_coordinates?port_id={pod}&latitude={}&longitude={}", at.0, at.1))
            .await,
    )
    .await;
    let from_here = from_here["data"]["attributes"]["positions"]
        .as_array()
        .expect("positions")
        .clone();
    assert!(km(position(&from_here[0]), at) < 1.0);
    let off = errors(t.get(&format!("/v2/vessels/{imo}/future_positions_with_coordinates?port_id={pod}&latitude=95&longitude=0")).await, 400).await;
    assert_eq!(off[0]["source"]["parameter"], "latitude");
}

/// The container's map: both ports, the vessel where it was heard, the path it sailed,
/// the leg ahead as a line.
async fn the_map_draws_the_ports_the_vessel_and_the_legs(
    t: &TestApp,
    shipment: &Value,
    at: (f64, f64),
) {
    let container = shipment["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container");
    let map = t
        .get(&format!("/v2/containers/{container}/map_geojson"))
        .await;
    assert_eq!(map.status().as_u16(), 200);
    let map: Value = map.json().await.expect("GeoJSON");
    assert_eq!(map["type"], "FeatureCollection");
    let features = map["features"].as_array().expect("features");
    let of = |kind: &str| -> Vec<&Value> {
        features
            .iter()
            .filter(|f| f["properties"]["feature_type"] == kind)
            .collect()
    };
    let points = features
        .iter()
        .filter(|f| f["geometry"]["type"] == "Point")
        .count();
    assert!(points >= 3, "two ports and the vessel: {points}");
    let labels: Vec<&str> = of("port")
        .iter()
        .filter_map(|p| p["properties"]["label"].as_str())
        .collect();
    assert_eq!(labels.first(), Some(&"POL"));
    assert_eq!(labels.last(), Some(&"POD"));
    let vessel = of("current_vessel");
    assert_eq!(vessel.len(), 1);
    let [lon, lat] = [
        &vessel[0]["geometry"]["coordinates"][0],
        &vessel[0]["geometry"]["coordinates"][1],
    ]
    .map(|v| v.as_f64().expect("a coordinate"));
    assert!(km((lat, lon), at) < 1.0);
    let ahead = of("estimated_partial_leg");
    assert_eq!(ahead.len(), 1, "the leg from the vessel to its port");
    assert_eq!(ahead[0]["geometry"]["type"], "LineString");
    assert!(
        ahead[0]["properties"]["point_count"]
            .as_u64()
            .is_some_and(|n| n >= 2)
    );
}
