//! Places are real (api.md §4): ports, terminals and inland places as the bundled public
//! data sets give them, matched to what the sandbox's carrier and terminals report; every
//! time carries its place's IANA zone.

use serde_json::{Value, json};

use crate::common::{TestApp, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    any_port_or_metro_area_answers_by_un_locode_or_id,
    the_sandboxs_places_carry_coordinates_zones_and_real_names,
);

async fn get(t: &TestApp, path: &str) -> Value {
    document(t.get(path).await).await
}

async fn any_port_or_metro_area_answers_by_un_locode_or_id(t: TestApp) {
    // No carrier has named Valencia: the reference data answers.
    let valencia = get(&t, "/v2/ports/ESVLC").await;
    let attributes = &valencia["data"]["attributes"];
    assert_eq!(valencia["data"]["type"], "port");
    assert_eq!(attributes["name"], "Valencia");
    assert_eq!(attributes["time_zone"], "Europe/Madrid");
    assert_eq!(attributes["country_code"], "ES");
    assert_eq!(attributes["in_reference_data"], true);
    let latitude: f64 = attributes["latitude"]
        .as_str()
        .and_then(|text| text.parse().ok())
        .expect("a latitude, as a string as the reference sends it");
    assert!((latitude - 39.45).abs() < 0.1, "{latitude}");
    let id = valencia["data"]["id"].as_str().expect("an id");
    assert_eq!(get(&t, &format!("/v2/ports/{id}")).await, valencia);
    assert_eq!(get(&t, "/v2/ports/esvlc").await, valencia, "any case");

    let denver = get(&t, "/v2/metro_areas/USDEN").await;
    assert_eq!(denver["data"]["type"], "metro_area");
    assert_eq!(
        denver["data"]["attributes"],
        json!({"name": "Denver", "code": "USDEN", "state_abbr": "CO", "country_code": "US",
               "time_zone": "America/Denver", "latitude": "39.73915", "longitude": "-104.98470"})
    );
    let id = denver["data"]["id"].as_str().expect("an id");
    assert_eq!(get(&t, &format!("/v2/metro_areas/{id}")).await, denver);

    for path in [
        "/v2/ports/ZZZZZ",
        "/v2/metro_areas/ESVLC",
        "/v2/metro_areas/01937c7e-0000-7000-8000-000000000000",
        "/v2/ports/01937c7e-0000-7000-8000-000000000000",
    ] {
        let problem = &errors(t.get(path).await, 404).await[0];
        assert_eq!(problem["status"], "404", "{path}");
        assert!(problem["detail"].as_str().is_some(), "{path}");
    }
}

async fn the_sandboxs_places_carry_coordinates_zones_and_real_names(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipment_id = request["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a shipment");
    let shipment = get(
        &t,
        &format!(
            "/v2/shipments/{shipment_id}?include=port_of_lading,port_of_discharge,pod_terminal"
        ),
    )
    .await;
    let attributes = &shipment["data"]["attributes"];
    let zone_of = |locode: &Value| {
        tidemark_domain::gazetteer::Gazetteer::bundled()
            .time_zone(locode.as_str().expect("a UN/LOCODE"))
            .map(str::to_owned)
    };
    for (locode, zone) in [
        ("port_of_lading_locode", "pol_timezone"),
        ("port_of_discharge_locode", "pod_timezone"),
        ("destination_locode", "destination_timezone"),
    ] {
        let expected = zone_of(&attributes[locode]).expect("the sandbox's ports are real");
        assert_eq!(attributes[zone], expected.as_str(), "{zone}");
    }
    for included in shipment["included"].as_array().expect("included") {
        let place = &included["attributes"];
        assert_eq!(place["in_reference_data"], true, "{included}");
        assert!(place["time_zone"].is_string(), "{included}");
        assert!(place["latitude"].is_string(), "{included}");
        if included["type"] == "terminal" {
            assert_ne!(place["name"], place["smdg_code"], "a real name: {included}");
        }
    }
    let pod_zone = attributes["pod_timezone"].clone();
    let containers = get(&t, "/v2/containers").await;
    for container in containers["data"].as_array().expect("containers") {
        assert_eq!(container["attributes"]["pod_timezone"], pod_zone);
        let path = format!(
            "/v2/containers/{}/transport_events",
            container["id"].as_str().expect("an id")
        );
        for event in get(&t, &path).await["data"].as_array().expect("events") {
            let expected = zone_of(&event["attributes"]["location_locode"]);
            assert_eq!(event["attributes"]["timezone"], json!(expected), "{event}");
            assert!(event["attributes"]["timezone"].is_string(), "{event}");
        }
    }
}
