//! The protocol's answer read as `docs/terminals.md` shows it, and garbled ones refused.

use serde_json::json;
use tidemark_domain::terminal::{FeeType, HoldName, HoldStatus};

use super::*;

fn asked() -> Vec<String> {
    vec!["MSKU1234565".to_owned(), "CSQU3054383".to_owned()]
}

fn body(value: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("json")
}

#[test]
fn the_documented_answer_reads_whole() {
    let answer = json!({
        "checkedAt": "2026-12-03T06:00:00Z",
        "containers": [
            {
                "containerNumber": "msku 123456-5",
                "known": true,
                "available": false,
                "holds": [
                    {"type": "customs", "status": "hold", "description": "Selected for exam"},
                    {"type": "STEAMSHIP LINE", "status": "Pending"}
                ],
                "fees": [{"type": "exam", "amount": 212.5, "currency": "usd"}],
                "lastFreeDay": "2026-12-08T23:59:00-05:00",
                "appointment": "2026-12-06T09:30:00-05:00",
                "yardLocation": "Row 12 Bay 4 Tier 2",
                "terminal": "USORFVIG",
                "pickupFacility": null,
                "outGateAt": null
            },
            {"containerNumber": "CSQU3054383", "known": false}
        ]
    });
    let reports = read(&body(&answer), &asked()).expect("reads");
    assert_eq!(reports.len(), 2);
    let (number, report) = &reports[0];
    assert_eq!(number, "MSKU1234565");
    let report = report.as_ref().expect("known");
    assert_eq!(report.available, Some(false));
    assert_eq!(report.holds[0].name, HoldName::Customs);
    assert_eq!(report.holds[0].status, HoldStatus::Hold);
    assert_eq!(report.holds[1].name, HoldName::Other);
    assert_eq!(report.holds[1].status, HoldStatus::Pending);
    assert_eq!(
        report.holds[1].description.as_deref(),
        Some("STEAMSHIP LINE"),
        "an unnamed type is kept as the description"
    );
    assert_eq!(report.fees[0].kind, FeeType::Exam);
    assert_eq!(report.fees[0].amount.as_str(), "212.5");
    assert_eq!(report.fees[0].currency.as_str(), "USD");
    assert_eq!(
        report.last_free_day.map(|at| at.to_string()).as_deref(),
        Some("2026-12-09T04:59:00Z"),
        "converted to UTC"
    );
    assert_eq!(report.terminal.as_deref(), Some("USORFVIG"));
    assert_eq!(report.location.as_deref(), Some("Row 12 Bay 4 Tier 2"));
    assert_eq!(reports[1], ("CSQU3054383".to_owned(), None));
}

#[test]
fn a_garbled_answer_is_refused_whole() {
    let entry = |extra: serde_json::Value| {
        let mut entry = json!({"containerNumber": "MSKU1234565", "known": true});
        if let (Some(entry), Some(extra)) = (entry.as_object_mut(), extra.as_object()) {
            entry.extend(extra.clone());
        }
        body(&json!({"containers": [entry]}))
    };
    for (garbled, why) in [
        (b"<html>busy</html>".to_vec(), "not the terminal protocol"),
        (
            body(&json!({"containers": "none"})),
            "not the terminal protocol",
        ),
        (
            body(&json!({"containers": [{"containerNumber": "MSKU1234566", "known": false}]})),
            "check digit",
        ),
        (
            body(&json!({"containers": [{"containerNumber": "TGHU7654320", "known": false}]})),
            "was not asked",
        ),
        (
            entry(json!({"holds": [{"type": "customs", "status": "released"}]})),
            "hold status",
        ),
        (
            entry(json!({"fees": [{"type": "exam", "amount": -5, "currency": "USD"}]})),
            "amount",
        ),
        (
            entry(json!({"fees": [{"type": "exam", "amount": 5, "currency": "dollars"}]})),
            "ISO 4217",
        ),
        (entry(json!({"lastFreeDay": "next Tuesday"})), "lastFreeDay"),
    ] {
        let error = read(&garbled, &asked()).expect_err("refused");
        assert!(error.contains(why), "{error} (wanted {why})");
    }
}
