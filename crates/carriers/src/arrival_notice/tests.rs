//! Reading Arrival Notices: the latest of a bill counts, free time by container, by ISO
//! code or for all, a date and time over a date, a container's pickup over the notice's.

use serde_json::{Value, json};

use super::{latest, model};

fn notices(list: Value) -> Vec<model::Notice> {
    serde_json::from_value::<model::Page>(json!({"arrivalNotices": list}))
        .expect("notices")
        .arrival_notices
}

fn notice(issued: &str, freight: bool) -> Value {
    json!({
        "issueDateTime": issued,
        "transportDocumentReference": "HHL71800000",
        "releaseInformation": {"isFreightReleased": freight, "isCustomsReleased": true},
        "pickupInformation": {"pickupNumber": "780379",
                              "pickupLocation": {"facility": {"facilityCode": "ECTDE", "facilityCodeListProvider": "SMDG"}}},
        "returnInformation": {"turnInReference": "HLCSTD45", "returnLocation": {"locationName": "Depot West"}},
        "freeTimes": [
            {"typeCodes": ["DET"], "lastFreeDate": {"value": "2025-02-20"}},
            {"typeCodes": ["DEM", "STO"], "ISOEquipmentCodes": ["22GP"], "lastFreeDate": {"value": "2025-02-01"}},
            {"typeCodes": ["DEM"], "equipmentReferences": ["APZU4812090"],
             "lastFreeDateTime": {"value": "2025-02-03T17:00:00+01:00"}},
        ],
        "utilizedTransportEquipments": [
            {"equipment": {"equipmentReference": "APZU4812090", "ISOEquipmentCode": "45G1"}},
            {"equipment": {"equipmentReference": "MSKU1234565", "ISOEquipmentCode": "22GP"},
             "pickupInformation": {"pickupNumber": "OWN-1"}},
        ],
    })
}

#[test]
fn the_latest_notice_of_the_bill_says_what_each_box_gets() {
    let read = latest(
        "HHL71800000",
        notices(json!([
            notice("2025-01-23T01:23:45Z", true),
            notice("2025-01-20T01:23:45Z", false),
            {"issueDateTime": "2025-01-30T00:00:00Z", "transportDocumentReference": "OTHER0001"},
        ])),
    )
    .expect("read");
    assert_eq!(read.len(), 2);
    let (number, first) = &read[0];
    assert_eq!(number, "APZU4812090");
    assert_eq!(
        first.notice.freight_released,
        Some(true),
        "the later notice counts"
    );
    assert_eq!(first.notice.customs_released, Some(true));
    assert_eq!(first.notice.pickup_number.as_deref(), Some("780379"));
    assert_eq!(first.notice.pickup_facility.as_deref(), Some("ECTDE"));
    assert_eq!(first.notice.return_location.as_deref(), Some("Depot West"));
    assert_eq!(first.notice.return_reference.as_deref(), Some("HLCSTD45"));
    assert_eq!(
        first.last_free_day.map(|at| at.to_string()).as_deref(),
        Some("2025-02-03T16:00:00Z"),
        "its own free time, to the hour"
    );
    let (_, second) = &read[1];
    assert_eq!(
        second.notice.pickup_number.as_deref(),
        Some("OWN-1"),
        "its own pickup"
    );
    assert_eq!(second.notice.pickup_facility, None);
    assert_eq!(
        second.last_free_day.map(|at| at.to_string()).as_deref(),
        Some("2025-02-01T23:59:59Z"),
        "by its ISO code, to the end of the day"
    );
}

#[test]
fn no_notice_yet_is_nothing_and_a_broken_one_is_refused() {
    assert!(latest("HHL71800000", Vec::new()).expect("read").is_empty());
    let mut bad_box = notice("2025-01-23T01:23:45Z", true);
    bad_box["utilizedTransportEquipments"][0]["equipment"]["equipmentReference"] =
        json!("APZU4812091");
    assert!(
        latest("HHL71800000", notices(json!([bad_box]))).is_err(),
        "a wrong check digit"
    );
    let bad_time = notice("yesterday", true);
    assert!(latest("HHL71800000", notices(json!([bad_time]))).is_err());
}

#[test]
fn a_pickup_facility_with_its_locode_is_a_place_to_learn() {
    let mut placed = notice("2025-01-23T01:23:45Z", true);
    placed["pickupInformation"]["pickupLocation"] = json!({
        "locationName": "Rail ramp West", "UNLocationCode": "NLRTM",
        "facility": {"facilityCode": "RTMRAMP", "facilityCodeListProvider": "BIC"},
    });
    let mut misplaced = placed.clone();
    misplaced["pickupInformation"]["pickupLocation"]["UNLocationCode"] = json!("NL1");
    let read = |notice: Value| latest("HHL71800000", notices(json!([notice]))).expect("read");

    let first = &read(placed)[0].1;
    assert_eq!(first.notice.pickup_facility.as_deref(), Some("RTMRAMP"));
    let place = first.pickup_place.as_ref().expect("a place");
    assert_eq!(
        (
            place.locode.as_str(),
            place.facility.as_deref(),
            place.name.as_deref()
        ),
        ("NLRTM", Some("RTMRAMP"), None),
        "the location's name is the facility's, not the port's"
    );
    let first = &read(misplaced)[0].1;
    assert_eq!(first.notice.pickup_facility.as_deref(), Some("RTMRAMP"));
    assert_eq!(first.pickup_place, None, "a locode out of the standard");
    let without = &read(notice("2025-01-23T01:23:45Z", true))[0].1;
    assert_eq!(without.pickup_place, None, "no locode, nowhere to learn it");
}

#[test]
fn a_last_free_date_is_a_day_where_the_box_is_picked_up() {
    let at_port = |locode: &str| {
        let mut placed = notice("2025-01-23T01:23:45Z", true);
        placed["pickupInformation"]["pickupLocation"]["UNLocationCode"] = json!(locode);
        let read = latest("HHL71800000", notices(json!([placed]))).expect("read");
        // The first box's own pickup is the notice's; the second has its own, unplaced.
        let day = |index: usize| read[index].1.last_free_day.map(|at| at.to_string());
        (day(0), day(1))
    };
    // A date names a day at the pickup place: in Rotterdam (UTC+1 in February) it ends an
    // hour before UTC's; a date and time stands as given.
    let (own, by_iso) = at_port("NLRTM");
    assert_eq!(own.as_deref(), Some("2025-02-03T16:00:00Z"));
    assert_eq!(by_iso.as_deref(), Some("2025-02-01T23:59:59Z"), "no place");
    let mut shared = notice("2025-01-23T01:23:45Z", true);
    shared["pickupInformation"]["pickupLocation"]["UNLocationCode"] = json!("USLAX");
    shared["utilizedTransportEquipments"][1]["pickupInformation"] = json!(null);
    let read = latest("HHL71800000", notices(json!([shared]))).expect("read");
    assert_eq!(
        read[1].1.last_free_day.map(|at| at.to_string()).as_deref(),
        Some("2025-02-02T07:59:59Z"),
        "the end of 1 February in Los Angeles"
    );
    // A place the reference data does not know keeps UTC's end of the day.
    let mut unknown = notice("2025-01-23T01:23:45Z", true);
    unknown["pickupInformation"]["pickupLocation"]["UNLocationCode"] = json!("ZZZZZ");
    unknown["utilizedTransportEquipments"][1]["pickupInformation"] = json!(null);
    let read = latest("HHL71800000", notices(json!([unknown]))).expect("read");
    assert_eq!(
        read[1].1.last_free_day.map(|at| at.to_string()).as_deref(),
        Some("2025-02-01T23:59:59Z")
    );
}
