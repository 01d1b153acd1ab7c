//! The lines' Arrival Notices (DCSA AN 1.0.1, publisher side): valid against the official
//! schema, issued before arrival, reissued as the freight and customs are released and
//! free time is set.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::*;

pub(crate) static AN: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../dcsa/AN_v1.0.1.json")).expect("the schema is JSON")
});

static NOTICES: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let mut root = json!({"$ref": "#/components/schemas/GetArrivalNoticesResponse"});
    root["components"] = AN["components"].clone();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .expect("the schema compiles")
});

/// Every notice of `bill`, page after page, each page valid; the first of its two types.
async fn notices(sim: &Sim, scac: &str, bill: &str) -> Vec<Value> {
    let first = format!("/{scac}/arrival-notices?transportDocumentReferences={bill}");
    let mut path = first.clone();
    let mut all = Vec::new();
    loop {
        let response = sim.get(&path).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["api-version"], "1.0.1");
        let next = header(&response, "next-page-cursor");
        let body: Value = response.json().await.expect("JSON");
        assert_valid(&NOTICES, &body);
        all.extend(body["arrivalNotices"].as_array().cloned().expect("a list"));
        match next {
            Some(cursor) => path = format!("{first}&cursor={cursor}"),
            None => break,
        }
    }
    if !all.is_empty() {
        let types: Vec<&str> = all.iter().filter_map(|n| n["typeLabel"].as_str()).collect();
        assert_eq!(
            types,
            ["English, consignee", "No charges, English"],
            "two pages"
        );
    }
    all.into_iter().take(1).collect()
}

#[tokio::test]
async fn a_notice_is_issued_before_arrival_and_reissued_as_the_box_is_released() {
    let sim = Sim::start(config()).await;
    // The vessel arrives twelve hours after the epoch: the notice is out.
    let first = notices(&sim, "TEST", "TEST-TR-HOLDS").await;
    assert_eq!(first.len(), 1);
    let notice = &first[0];
    assert_eq!(notice["transportDocumentReference"], "TEST-TR-HOLDS");
    assert_eq!(notice["releaseInformation"]["isFreightReleased"], false);
    assert_eq!(notice["releaseInformation"]["isCustomsReleased"], false);
    assert_eq!(
        notice["freeTimes"],
        json!([]),
        "no free time before discharge"
    );
    let equipment = &notice["utilizedTransportEquipments"][0];
    assert!(equipment["pickupInformation"]["pickupNumber"].is_string());
    assert!(
        equipment["pickupInformation"]["pickupLocation"]["facility"]["facilityCode"].is_string()
    );

    sim.sim.clock().advance(time::Duration::hours(60));
    let later = notices(&sim, "TEST", "TEST-TR-HOLDS").await;
    let notice = &later[0];
    assert!(notice["issueDateTime"].as_str() > first[0]["issueDateTime"].as_str());
    assert_eq!(notice["releaseInformation"]["isFreightReleased"], true);
    assert_eq!(notice["releaseInformation"]["isCustomsReleased"], true);
    let free = notice["freeTimes"].as_array().expect("free times");
    assert_eq!(
        free.len(),
        notice["utilizedTransportEquipments"]
            .as_array()
            .map_or(0, Vec::len)
    );
    assert_eq!(free[0]["typeCodes"], json!(["DEM"]));
}

#[tokio::test]
async fn unknown_bills_have_no_notice_and_bad_asks_are_refused() {
    let sim = Sim::start(config()).await;
    assert_eq!(
        notices(&sim, "TEST", "TEST-TR-NOT-FOUND").await,
        Vec::<Value>::new()
    );
    assert_eq!(
        notices(&sim, "TEST", "TEST-TR-JOURNEY").await,
        Vec::<Value>::new(),
        "not yet issued"
    );
    assert_eq!(sim.get("/TEST/arrival-notices").await.status(), 400);
    let anonymous = sim
        .client
        .get(format!(
            "{}/TEST/arrival-notices?transportDocumentReferences=X",
            sim.base
        ))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status(), 401);
}
