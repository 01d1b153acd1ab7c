//! The reference's routing data (compat-api.md §3.2, §3.9) where no AIS feed is read:
//! nothing is invented.

use serde_json::Value;

use crate::common::{TestApp, document, errors, with_tracking};

tidemark_store::backends!(with_tracking, routing_data_without_positions_invents_none);

/// The reference's routing data without any position heard (no AIS feed here): the
/// container's map has its ports and the legs ahead but no vessel, and a vessel's future
/// positions are none, never invented; unknown containers and vessels are 404.
async fn routing_data_without_positions_invents_none(t: TestApp) {
    let request = crate::shipments::track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let container = request["included"][0]["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    let map = t
        .get(&format!("/v2/containers/{container}/map_geojson"))
        .await;
    assert_eq!(map.status().as_u16(), 200);
    let map: Value = map.json().await.expect("JSON");
    assert_eq!(map["type"], "FeatureCollection");
    let kinds: Vec<&str> = map["features"]
        .as_array()
        .expect("features")
        .iter()
        .filter_map(|f| f["properties"]["feature_type"].as_str())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "port").count(),
        2,
        "{kinds:?}"
    );
    assert!(!kinds.contains(&"current_vessel") && !kinds.contains(&"past_vessel_locations"));
    let events = document(
        t.get(&format!(
            "/v2/containers/{container}/transport_events?include=vessel"
        ))
        .await,
    )
    .await;
    let vessel = events["included"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["type"] == "vessel"))
        .and_then(|v| v["attributes"]["imo"].as_str())
        .expect("a vessel")
        .to_owned();
    let future = document(
        t.get(&format!(
            "/v2/vessels/{vessel}/future_positions?port_id=NLRTM&previous_port_id=CNSHA"
        ))
        .await,
    )
    .await;
    assert_eq!(
        future["data"]["attributes"]["positions"],
        Value::Array(Vec::new())
    );
    assert!(future["data"]["attributes"]["latitude"].is_null());
    for path in [
        "/v2/containers/0192a3b4-0000-7000-8000-000000000000/map_geojson",
        "/v2/vessels/0000000/future_positions?port_id=NLRTM",
    ] {
        errors(t.get(path).await, 404).await;
    }
}
