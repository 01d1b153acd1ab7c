//! Vessels heard on an AIS feed (api.md §4, compat-api.md §3.9): with `[ais] sources`
//! pointing at a TCP feed of a vessel's static data and positions (sentences pyais made,
//! `fixtures/ais/`), `GET /v2/vessels/{imo}` answers the vessel's name, MMSI, latest
//! position, speed and time, and with `show_positions` its track; the feed drops and the
//! reader reconnects and goes on.

use std::time::{Duration, Instant};

use serde_json::Value;
use tidemark_store::testing::Backend;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

use crate::common::{TestApp, document, errors};

tidemark_store::backends!(
    with_feed,
    a_vessel_on_a_feed_is_answered_with_its_position_and_track,
);

/// The app, reading the feed served at the listener handed to the case.
async fn with_feed<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp, TcpListener) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let feed = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = feed.local_addr().expect("address");
    let t = TestApp::build(backend)
        .config(move |config| {
            config.ais.sources = format!("tcp://{address}");
            config.ais.flush = Duration::from_millis(10);
            config.ais.reconnect_max = Duration::from_millis(50);
            config.ais.track_interval = Duration::from_secs(1);
        })
        .spawn()
        .await;
    case(t, feed).await;
}

fn fixture() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/ais/pyais.nmea");
    std::fs::read_to_string(path)
        .expect("the pyais fixture")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// `line` with a tag block saying it was received at Unix second `at`.
fn received(line: &str, at: i64) -> String {
    format!("\\c:{at}*00\\{line}\r\n")
}

/// The vessel once `ready` says its answer is what the test waits for; the reader writes
/// every few milliseconds, so a few seconds' deadline is ample.
async fn vessel_when(t: &TestApp, path: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let response = t.get(path).await;
        if response.status().as_u16() == 200 {
            let vessel = document(response).await;
            if ready(&vessel["data"]) {
                return vessel["data"].clone();
            }
        }
        assert!(Instant::now() < deadline, "{path} never became ready");
        tokio::task::yield_now().await;
    }
}

/// Kilometres between two points, by the haversine formula.
fn km(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (lat1, lon1) = (a.0.to_radians(), a.1.to_radians());
    let (lat2, lon2) = (b.0.to_radians(), b.1.to_radians());
    let h = ((lat2 - lat1) / 2.0).sin().powi(2)
        + lat1.cos() * lat2.cos() * ((lon2 - lon1) / 2.0).sin().powi(2);
    2.0 * 6_371.0 * h.sqrt().asin()
}

fn position(vessel: &Value) -> (f64, f64) {
    let attributes = &vessel["attributes"];
    (
        attributes["latitude"].as_f64().expect("a latitude"),
        attributes["longitude"].as_f64().expect("a longitude"),
    )
}

const T0: i64 = 1_800_000_000;

async fn a_vessel_on_a_feed_is_answered_with_its_position_and_track(t: TestApp, feed: TcpListener) {
    let lines = fixture();
    assert_eq!(
        errors(t.get("/v2/vessels/9301366").await, 404).await.len(),
        1,
        "not heard yet"
    );
    // The static data (two fragments), then three positions a minute apart; then the feed
    // drops.
    let (mut socket, _) = feed.accept().await.expect("the reader connects");
    let mut sent = String::new();
    for (i, line) in lines[..5].iter().enumerate() {
        let at = T0 + 60 * i64::try_from(i.saturating_sub(1)).expect("small");
        sent.push_str(&received(line, at));
    }
    sent.push_str("!AIVDM,1,1,,A,1771CB0P2>0B5>PMfMl3fC0EP000,0*31\r\n");
    socket.write_all(sent.as_bytes()).await.expect("sent");
    drop(socket);

    let path = "/v2/vessels/9301366";
    let vessel = vessel_when(&t, path, |vessel| {
        vessel["attributes"]["position_timestamp"].as_str() == Some("2027-01-15T08:03:00Z")
    })
    .await;
    let attributes = &vessel["attributes"];
    assert_eq!(attributes["name"], "TIDEMARK TRIAL");
    assert_eq!(attributes["imo"], "9301366");
    assert_eq!(attributes["mmsi"], "477123400");
    assert!(km(position(&vessel), (51.96, 4.06)) < 1.0, "{attributes}");
    assert!(
        (attributes["nautical_speed_knots"]
            .as_f64()
            .expect("a speed")
            - 12.1)
            .abs()
            < 0.05
    );
    assert_eq!(attributes["navigational_heading_degrees"], 98.0);
    assert!(
        attributes.get("positions").is_none(),
        "the track only when asked"
    );
    let id = vessel["id"].as_str().expect("an id");
    let by_id = document(t.get(&format!("/v2/vessels/{id}")).await).await;
    assert_eq!(by_id["data"], vessel, "by id as by IMO number");

    // The reader reconnects; a later position arrives on the new connection.
    let (mut socket, _) = feed.accept().await.expect("the reader reconnects");
    let later = received(&lines[12], T0 + 600);
    socket.write_all(later.as_bytes()).await.expect("sent");
    let vessel = vessel_when(&t, path, |vessel| {
        vessel["attributes"]["position_timestamp"].as_str() == Some("2027-01-15T08:10:00Z")
    })
    .await;
    assert!(km(position(&vessel), (51.97, 4.10)) < 1.0);
    assert!(
        vessel["attributes"]["nautical_speed_knots"].is_null(),
        "not available, not 102.3"
    );

    the_track_is_answered_when_asked(&t, path).await;
}

/// `show_positions`: the track in the window asked, oldest first; a window backwards or a
/// time unreadable is refused.
async fn the_track_is_answered_when_asked(t: &TestApp, path: &str) {
    let track = document(
        t.get(&format!("{path}?show_positions[from_timestamp]=2027-01-15T08:00:00Z&show_positions[to_timestamp]=2027-01-15T09:00:00Z"))
            .await,
    )
    .await;
    let positions = track["data"]["attributes"]["positions"]
        .as_array()
        .expect("positions")
        .clone();
    let times: Vec<&str> = positions
        .iter()
        .filter_map(|p| p["timestamp"].as_str())
        .collect();
    assert_eq!(
        times,
        [
            "2027-01-15T08:01:00Z",
            "2027-01-15T08:02:00Z",
            "2027-01-15T08:03:00Z",
            "2027-01-15T08:10:00Z"
        ]
    );
    assert!(positions.iter().all(|p| p["estimated"] == false));
    let narrow = document(
        t.get(&format!("{path}?show_positions[from_timestamp]=2027-01-15T08:02:30Z&show_positions[to_timestamp]=2027-01-15T09:00:00Z"))
            .await,
    )
    .await;
    assert_eq!(
        narrow["data"]["attributes"]["positions"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let backwards = errors(
        t.get(&format!("{path}?show_positions[from_timestamp]=2027-01-16T00:00:00Z&show_positions[to_timestamp]=2027-01-15T00:00:00Z"))
            .await,
        400,
    )
    .await;
    assert_eq!(
        backwards[0]["source"]["parameter"],
        "show_positions[from_timestamp]"
    );
    let unreadable = errors(
        t.get(&format!("{path}?show_positions[to_timestamp]=yesterday"))
            .await,
        400,
    )
    .await;
    assert_eq!(unreadable[0]["code"], "invalid_parameter");
}
