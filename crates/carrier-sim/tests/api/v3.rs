//! DCSA Track & Trace 3.0 (the pinned 2026-05-25 beta) over HTTP: every answer validates
//! against the official `GetEventsResponse` or `GetEventsError`, pages follow
//! `Next-Page-Cursor`, and the codes are the full words.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::{Sim, assert_valid, config, header};

static SPEC: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../dcsa/TNT_v3.0.0-beta-20260525.json"))
        .expect("the schema is JSON")
});

fn schema(name: &str) -> jsonschema::Validator {
    let mut root = json!({"$ref": format!("#/components/schemas/{name}")});
    root["components"] = SPEC["components"].clone();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .expect("the schema compiles")
}

#[tokio::test]
async fn three_point_o_answers_keep_the_standard_and_page_by_cursor() {
    let sim = Sim::start(config()).await;
    sim.advance(60).await;
    let answers = schema("GetEventsResponse");
    let mut path = "/MAEU/v3/events?transportDocumentReference=MAEU3000001&limit=7".to_owned();
    let mut events = Vec::new();
    for _ in 0..50 {
        let response = sim.get(&path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert!(
            response.headers()["api-version"]
                .to_str()
                .expect("text")
                .starts_with("3.0.0")
        );
        let next = header(&response, "next-page-cursor");
        let body: Value = response.json().await.expect("JSON");
        assert_valid(&answers, &body);
        events.extend(body["events"].as_array().cloned().expect("events"));
        match next {
            Some(cursor) => {
                path = format!(
                    "/MAEU/v3/events?transportDocumentReference=MAEU3000001&limit=7&cursor={cursor}"
                );
            }
            None => break,
        }
    }
    assert!(events.len() > 7, "more than one page");
    let types: std::collections::BTreeSet<&str> = events
        .iter()
        .filter_map(|e| e["eventClassification"]["eventType"].as_str())
        .collect();
    assert_eq!(
        types.into_iter().collect::<Vec<_>>(),
        ["EQUIPMENT", "SHIPMENT", "TRANSPORT"]
    );
    assert!(
        events
            .iter()
            .any(|e| e["eventClassification"]["transportEventType"] == "DEPARTED")
    );
    assert!(events.iter().all(|e| e["eventUpdatedDateTime"].is_string()));
    // What 2.2 has no word for: each box discharged is scanned, released, then available.
    let of = |word: &str| -> Vec<&Value> {
        events
            .iter()
            .filter(|e| e["eventClassification"]["equipmentEventType"] == word)
            .collect()
    };
    let discharged = of("DISCHARGED");
    assert!(!discharged.is_empty());
    for word in [
        "CUSTOMS_SELECTED_FOR_SCAN",
        "CUSTOMS_RELEASED",
        "AVAILABLE_FOR_PICKUP",
    ] {
        let told = of(word);
        assert_eq!(told.len(), discharged.len(), "{word}");
        for (release, discharge) in told.iter().zip(&discharged) {
            assert_eq!(
                release["equipmentDetails"]["equipmentReference"],
                discharge["equipmentDetails"]["equipmentReference"]
            );
            assert!(
                release["eventDateTime"].as_str() > discharge["eventDateTime"].as_str(),
                "{word} after the discharge"
            );
        }
    }

    let refused = sim.get("/MAEU/v3/events?limit=7").await;
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.expect("JSON");
    assert_valid(&schema("GetEventsError"), &body);
    assert_eq!(body["feedbackElements"][0]["severity"], "ERROR");
}
