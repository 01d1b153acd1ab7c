//! The simulator playing real lines' ways over HTTP: HMM's two references and its
//! indistinguishable unknown and unmanifested answers, Hapag-Lloyd's 500, Maersk's gateway
//! 403, and DCSA 1.1.0's shape (the fields `tnt/v1/tnt.yaml` requires of each kind).

use std::collections::BTreeMap;

use carrier_sim::{Chances, Quirk};
use serde_json::Value;

use crate::{ERROR, Sim, assert_valid, config};

async fn playing(scac: &str, quirks: &[Quirk], awaiting_manifest: u8, not_found: u8) -> Sim {
    let mut config = config();
    config.chances = Chances {
        not_found,
        awaiting_manifest,
        cancelled: 0,
    };
    config.quirks = BTreeMap::from([(scac.to_owned(), quirks.to_vec())]);
    Sim::start(config).await
}

async fn raw(sim: &Sim, path: &str) -> (u16, String) {
    let response = sim.get(path).await;
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

#[tokio::test]
async fn hmm_wants_both_references_and_cannot_tell_unknown_from_unmanifested() {
    let quirks = [Quirk::BookingAndContainer, Quirk::UnknownLikeUnmanifested];
    let sim = playing("HDMU", &quirks, 100, 0).await;
    let refused = sim
        .error("/HDMU/v2/events?carrierBookingReference=HDMUB0001", 400)
        .await;
    assert!(
        refused["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("both required")),
        "{refused}"
    );
    let pair = "carrierBookingReference=HDMUB0001&equipmentReference=MSCU1234566";
    let unmanifested = raw(&sim, &format!("/HDMU/v2/events?{pair}")).await;
    let unknown_world = playing("HDMU", &quirks, 0, 100).await;
    let unknown = raw(&unknown_world, &format!("/HDMU/v2/events?{pair}")).await;
    assert_eq!(unmanifested, (200, "[]".to_owned()));
    assert_eq!(unknown, unmanifested, "byte for byte");
}

#[tokio::test]
async fn hapag_lloyd_answers_500_until_the_manifest() {
    let sim = playing("HLCU", &[Quirk::NotManifested500], 100, 0).await;
    let path = "/HLCU/v2/events?transportDocumentReference=HLCUHAM0001";
    let error = sim.error(path, 500).await;
    assert_eq!(error["errors"][0]["reason"], "error.internalServer");
    sim.advance(30).await;
    assert!(!sim.all(path).await.is_empty());
}

#[tokio::test]
async fn maersk_s_gateway_denies_what_it_will_not_show() {
    let sim = playing("MAEU", &[Quirk::ForbiddenMeansNoAccess], 0, 100).await;
    let (status, body) = raw(&sim, "/MAEU/v2/events?transportDocumentReference=MAEU0001").await;
    assert_eq!(status, 403);
    assert!(body.contains("Access Denied"), "{body}");
    assert!(
        serde_json::from_str::<Value>(&body).is_ok_and(|b| !ERROR.is_valid(&b)),
        "the gateway's, not a DCSA error document"
    );
}

fn has(event: &Value, fields: &[&str]) {
    for field in fields {
        assert!(
            event.get(*field).is_some_and(|v| !v.is_null()),
            "{field} in {event}"
        );
    }
}

#[tokio::test]
async fn version_1_1_0_is_flat_named_the_old_way_and_unpaged() {
    let sim = playing("YMLU", &[], 0, 0).await;
    sim.advance(60).await;
    let response = sim.get("/YMLU/v1/events?billOfLadingNumber=YMLU0001").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("next-page").is_none());
    let body: Value = response.json().await.expect("JSON");
    let events = body["events"].as_array().expect("{events: [...]}");
    assert!(events.len() > 10);
    let mut kinds = [0; 3];
    for event in events {
        has(
            event,
            &[
                "eventID",
                "eventDateTime",
                "eventClassifierCode",
                "eventTypeCode",
            ],
        );
        assert!(event.get("eventType").is_none() && event.get("eventCreatedDateTime").is_none());
        let place = ["facilityTypeCode", "UNLocationCode"];
        if event.get("UNLocationCode").is_some() {
            assert!(
                event["facilityCode"].is_string() || event["otherFacility"].is_string(),
                "a facility in {event}"
            );
        }
        if event.get("equipmentReference").is_some() {
            has(event, &place);
            has(event, &["emptyIndicatorCode"]);
            kinds[0] += 1;
        } else if event.get("transportReference").is_some() {
            has(event, &place);
            has(event, &["transportLegReference"]);
            kinds[1] += 1;
        } else {
            has(event, &["shipmentInformationTypeCode"]);
            kinds[2] += 1;
        }
    }
    assert!(kinds.iter().all(|n| *n > 0), "every kind: {kinds:?}");
    let refused = sim
        .get("/YMLU/v1/events?transportDocumentReference=YMLU0001")
        .await;
    assert_eq!(refused.status(), 400, "2.2's names are not 1.1.0's");
    let error: Value = refused.json().await.expect("JSON");
    assert_valid(&ERROR, &error);
}
