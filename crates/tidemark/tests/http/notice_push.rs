//! The line pushing its Arrival Notices (DCSA AN 1.0.1, subscriber side) through the API,
//! played by the simulator: a pushed notice is applied before the answer and heard once;
//! a repeated or an older one changes nothing; a notification has the notice read from
//! the publisher; the wrong token, a body that is not JSON and an unknown bill each get
//! their answer.

use std::sync::LazyLock;

use serde_json::{Value, json};
use tidemark_testkit::{SIM_ADMIN_KEY, SIM_KEY};

use crate::common::{TestApp, document, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    a_pushed_notice_is_applied_at_once_and_an_older_one_changes_nothing,
    a_notification_has_the_notice_read,
    pushes_that_cannot_be_taken_are_answered_as_the_standard_says,
    an_off_dock_pickup_facility_is_a_terminal_the_api_knows,
);

/// DCSA's schema of the subscriber's answers (`PostArrivalNoticesResponse` on success,
/// `PostArrivalNoticesError` otherwise), from the official Arrival Notice 1.0.1 document.
static ANSWERS: LazyLock<[jsonschema::Validator; 2]> = LazyLock::new(|| {
    let document: Value =
        serde_json::from_str(include_str!("../../../carrier-sim/dcsa/AN_v1.0.1.json"))
            .expect("the schema is JSON");
    ["PostArrivalNoticesResponse", "PostArrivalNoticesError"].map(|name| {
        let mut root = json!({"$ref": format!("#/components/schemas/{name}")});
        root["components"] = document["components"].clone();
        jsonschema::options()
            .should_validate_formats(true)
            .build(&root)
            .expect("the schema compiles")
    })
});

/// Has the simulator push `bill`'s notice (`as`: `notices` or `notifications`), with
/// `fault`; the subscriber's status and answer.
async fn push(t: &TestApp, bill: &str, kind: &str, fault: Option<&str>) -> (u16, Value) {
    push_naming(t, bill, kind, fault, None).await
}

/// [`push`], the notice naming `pickup_facility` for every box's pickup when given.
async fn push_naming(
    t: &TestApp,
    bill: &str,
    kind: &str,
    fault: Option<&str>,
    pickup_facility: Option<&str>,
) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}/admin/arrival-notice-pushes", t.sim_url))
        .header("Admin-Key", SIM_ADMIN_KEY)
        .json(&json!({
            "subscriber": format!("{}/carrier-callbacks/TEST", t.base),
            "token": SIM_KEY, "scac": "TEST", "bill": bill, "as": kind, "fault": fault,
            "pickup_facility": pickup_facility,
        }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200, "the simulator pushed");
    let answer: Value = response.json().await.expect("json");
    let status = u16::try_from(answer["status"].as_u64().expect("status")).expect("u16");
    let body = answer["body"].clone();
    if status == 200 || status == 400 {
        let schema = &ANSWERS[usize::from(status != 200)];
        let problems: Vec<String> = schema.iter_errors(&body).map(|e| e.to_string()).collect();
        assert!(problems.is_empty(), "{problems:?} in {body}");
        assert!(
            body["feedbackElements"]
                .as_array()
                .is_some_and(|list| !list.is_empty()),
            "every object is answered for: {body}"
        );
    }
    (status, body)
}

/// Tracks `TEST-TR-HOLDS` and lets the simulated line move a day on, past the discharge
/// that sets the last free day of its notice, while Tidemark's own checks are not due.
async fn tracked_then_discharged(t: &TestApp) -> String {
    let request = track(t, "TEST-TR-HOLDS", "TEST").await;
    let bill = request["included"][0]["attributes"]["bill_of_lading_number"]
        .as_str()
        .expect("the shipment's bill")
        .to_owned();
    assert_eq!(line_lfds(t).await, [Value::Null, Value::Null], "{bill}");
    t.sim.clock().advance(time::Duration::hours(30));
    bill
}

async fn line_lfds(t: &TestApp) -> Vec<Value> {
    document(t.get("/v2/containers?page[size]=100").await).await["data"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| c["attributes"]["import_deadlines"]["pickup_lfd_line"].clone())
        .collect()
}

async fn heard_line_lfd(t: &TestApp) -> Vec<Value> {
    let body = document(
        t
            .get("/v2/webhook_notifications?filter[event]=container.pickup_lfd_line.changed&include=reference_object")
            .await,
    )
    .await;
    body["included"].as_array().cloned().unwrap_or_default()
}

async fn a_pushed_notice_is_applied_at_once_and_an_older_one_changes_nothing(t: TestApp) {
    t.subscribe("https://hooks.example.com/notices").await;
    let bill = tracked_then_discharged(&t).await;

    let (status, answer) = push(&t, &bill, "notices", None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["feedbackElements"][0]["severity"], "INFO");
    assert_eq!(
        answer["feedbackElements"][0]["propertyPath"],
        "$.arrivalNotices[0]"
    );
    let lfds = line_lfds(&t).await;
    assert!(
        lfds.iter().all(Value::is_string),
        "applied before the answer: {lfds:?}"
    );
    let heard = heard_line_lfd(&t).await;
    assert_eq!(heard.len(), 2, "one event per box");
    for event in &heard {
        assert_eq!(event["attributes"]["data_source"], "shipping_line");
    }

    // The same notice again, then its first version replayed late: nothing changes.
    assert_eq!(push(&t, &bill, "notices", None).await.0, 200);
    assert_eq!(push(&t, &bill, "notices", Some("stale")).await.0, 200);
    assert_eq!(line_lfds(&t).await, lfds);
    assert_eq!(heard_line_lfd(&t).await.len(), 2, "nothing heard again");
}

async fn a_notification_has_the_notice_read(t: TestApp) {
    let bill = tracked_then_discharged(&t).await;
    let (status, answer) = push(&t, &bill, "notifications", None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["feedbackElements"][0]["propertyPath"],
        "$.arrivalNoticeNotifications[0]"
    );
    assert_eq!(
        line_lfds(&t).await,
        [Value::Null, Value::Null],
        "read later"
    );
    assert!(t.drain().await >= 1, "the notice's read is due now");
    let lfds = line_lfds(&t).await;
    assert!(
        lfds.iter().all(Value::is_string),
        "read and applied: {lfds:?}"
    );
}

async fn pushes_that_cannot_be_taken_are_answered_as_the_standard_says(t: TestApp) {
    let bill = tracked_then_discharged(&t).await;

    let (status, answer) = push(&t, &bill, "notices", Some("wrong_token")).await;
    assert_eq!(status, 401);
    assert_eq!(answer["errors"][0]["code"], "unauthorized");

    let (status, answer) = push(&t, &bill, "notices", Some("garbled")).await;
    assert_eq!(status, 400);
    assert_eq!(answer["feedbackElements"][0]["severity"], "ERROR");

    // Another sandbox bill, tracked by no one: taken, not kept.
    let (status, answer) = push(&t, "TEST-TR-LFD-EXTENDED", "notices", None).await;
    assert_eq!(status, 200, "{answer}");
    let message = answer["feedbackElements"][0]["message"]
        .as_str()
        .expect("message");
    assert!(message.contains("no open tracking request"), "{message}");
    assert_eq!(
        line_lfds(&t).await,
        [Value::Null, Value::Null],
        "{bill}: untouched"
    );

    // No token, or another line's media type: the API's own errors.
    let url = format!("{}/carrier-callbacks/TEST/arrival-notices", t.base);
    let client = reqwest::Client::new();
    let anonymous = client
        .post(&url)
        .json(&json!({"arrivalNotices": []}))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status(), 401);
    let text = client
        .post(&url)
        .bearer_auth(SIM_KEY)
        .header("Content-Type", "text/plain")
        .body("{}")
        .send()
        .await
        .expect("request");
    assert_eq!(text.status(), 415);
    let huge = client
        .post(&url)
        .bearer_auth(SIM_KEY)
        .header("Content-Type", "application/json")
        .body(vec![b' '; tidemark_api::callbacks::CALLBACK_BODY_BYTES + 1])
        .send()
        .await
        .expect("request");
    assert_eq!(huge.status(), 413);
}

/// A notice naming an off-dock pickup facility at the port of discharge: the facility is
/// learned as a terminal there, so the boxes' `pickup_facility` resolves, included and
/// read on its own.
async fn an_off_dock_pickup_facility_is_a_terminal_the_api_knows(t: TestApp) {
    let bill = tracked_then_discharged(&t).await;
    let (status, answer) = push_naming(&t, &bill, "notices", None, Some("RTMRMP")).await;
    assert_eq!(status, 200, "{answer}");

    let body = document(
        t.get("/v2/containers?page[size]=100&include=pickup_facility")
            .await,
    )
    .await;
    let ids: Vec<Value> = body["data"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| c["relationships"]["pickup_facility"]["data"]["id"].clone())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(
        ids.iter().all(|id| id.is_string() && *id == ids[0]),
        "{ids:?}"
    );
    let included = body["included"].as_array().cloned().unwrap_or_default();
    let facility = included
        .iter()
        .find(|r| r["type"] == "terminal" && r["id"] == ids[0])
        .expect("the facility, included");
    assert_eq!(facility["attributes"]["smdg_code"], "RTMRMP");

    let id = ids[0].as_str().expect("id");
    let read = document(t.get(&format!("/v2/terminals/{id}")).await).await;
    // The notification's records link as paths: no public URL is configured.
    assert_eq!(t.as_paths(&read["data"]), *facility);
    let shipments = document(t.get("/v2/shipments").await).await;
    assert_eq!(
        facility["relationships"]["port"]["data"]["id"],
        shipments["data"][0]["relationships"]["port_of_discharge"]["data"]["id"],
        "at the port of discharge"
    );
}
