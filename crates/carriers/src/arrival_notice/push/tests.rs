//! Reading pushes: the latest notice of each bill is kept, an unreadable object is named by
//! its JSONPath while the rest are taken, a body that is no list is refused whole, and the
//! answer is the standard's `feedbackElements`.

use serde_json::{Value, json};

use super::{MAX_OBJECTS, Severity, answer, read_notices, read_notifications};

fn notice(bill: &str, issued: &str, freight: bool) -> Value {
    json!({
        "issueDateTime": issued,
        "transportDocumentReference": bill,
        "releaseInformation": {"isFreightReleased": freight},
        "utilizedTransportEquipments": [
            {"equipment": {"equipmentReference": "MSKU1234565"}},
        ],
    })
}

fn body(value: &Value) -> Vec<u8> {
    value.to_string().into_bytes()
}

#[test]
fn the_latest_notice_of_each_bill_is_kept_and_bad_ones_are_named() {
    let read = read_notices(&body(&json!({"arrivalNotices": [
        notice("BILL1", "2026-06-02T08:00:00Z", false),
        {"issueDateTime": "yesterday", "transportDocumentReference": "BILL2"},
        notice("BILL1", "2026-06-03T08:00:00Z", true),
        notice("BILL1", "2026-06-01T08:00:00Z", false),
        notice("", "2026-06-01T08:00:00Z", false),
    ]})))
    .expect("a list");
    assert_eq!(read.items.len(), 1, "one per bill");
    let (path, kept) = &read.items[0];
    assert_eq!(path, "$.arrivalNotices[2]");
    assert_eq!(kept.bill, "BILL1");
    let (number, container) = &kept.containers[0];
    assert_eq!(number, "MSKU1234565");
    assert_eq!(container.notice.freight_released, Some(true));
    assert_eq!(
        container.notice.issued_at,
        Some(kept.issued_at),
        "the view keeps when"
    );
    let named: Vec<(Severity, Option<&str>)> = read
        .feedback
        .iter()
        .map(|f| (f.severity, f.property_path.as_deref()))
        .collect();
    assert_eq!(
        named,
        [
            (Severity::Error, Some("$.arrivalNotices[1]")),
            (Severity::Error, Some("$.arrivalNotices[4]")),
        ]
    );
}

#[test]
fn a_body_that_is_no_list_is_refused_whole() {
    for bad in [
        b"<html>".to_vec(),
        body(&json!({"arrivalNotices": {}})),
        body(&json!({"notices": []})),
        body(&json!({"arrivalNotices": vec![json!({}); MAX_OBJECTS + 1]})),
    ] {
        let refused = read_notices(&bad).expect_err("refused");
        assert_eq!(refused.severity, Severity::Error);
        assert_eq!(refused.property_path, None);
    }
    assert!(read_notifications(&body(&json!({"arrivalNotices": []}))).is_err());
}

#[test]
fn notifications_name_their_bills_once() {
    let read = read_notifications(&body(&json!({"arrivalNoticeNotifications": [
        {"issueDateTime": "2026-06-02T08:00:00Z", "transportDocumentReference": " BILL1 "},
        {"issueDateTime": "2026-06-03T08:00:00Z", "transportDocumentReference": "BILL1"},
        {"transportDocumentReference": "BILL2"},
    ]})))
    .expect("a list");
    let bills: Vec<&str> = read.items.iter().map(|(_, n)| n.bill.as_str()).collect();
    assert_eq!(bills, ["BILL1"]);
    assert_eq!(read.feedback.len(), 1);
    assert_eq!(
        read.feedback[0].property_path.as_deref(),
        Some("$.arrivalNoticeNotifications[2]")
    );
}

#[test]
fn the_answer_is_the_standard_s_feedback_elements() {
    let read = read_notices(&body(&json!({"arrivalNotices": [{}]}))).expect("a list");
    let answered = answer(&read.feedback);
    let element = &answered["feedbackElements"][0];
    assert_eq!(element["severity"], "ERROR");
    assert_eq!(element["propertyPath"], "$.arrivalNotices[0]");
    assert!(element["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(answer(&[]), json!({"feedbackElements": []}));
}
