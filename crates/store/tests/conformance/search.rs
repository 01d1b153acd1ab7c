//! Conformance cases of free-text search: the text anywhere in a number or reference
//! number, whether the trigram index names the candidates or the list is walked in order.

use super::*;
use tidemark_domain::{Milestone, TrackingRequestId};
use tidemark_store::{ContainerFilter, SEARCH_CANDIDATES_MAX, ShipmentFilter};

/// The ids of `account`'s requests that `text` finds, in id order, and the list's total.
async fn found(
    store: &Arc<dyn Store>,
    account: AccountId,
    text: &str,
) -> (Vec<TrackingRequestId>, u64) {
    let filter = TrackingRequestFilter {
        search: Some(text.to_owned()),
        ..TrackingRequestFilter::default()
    };
    let listed = store
        .list_tracking_requests(account, &filter, page(1, 100))
        .await
        .expect("list");
    let mut ids: Vec<_> = listed.items.iter().map(|r| r.id).collect();
    ids.sort();
    (ids, listed.total)
}

pub async fn a_search_finds_any_part_of_a_number_or_reference(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let mut bill = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", 1);
    bill.ref_numbers = vec!["ABC_77".into(), "LOT 5".into()];
    let mut booking = request(&acme, "booking_number", "123456789", "MAEU", 2);
    booking.ref_numbers = vec!["ABCX77".into()];
    let container = request(&acme, "container", "CSQU3054383", "HLCU", 3);
    let theirs = request(&globex, "bill_of_lading", "MEDU1234999", "MSCU", 4);
    for r in [&bill, &booking, &container, &theirs] {
        super::insert(&store, r).await;
    }
    let sorted = |mut ids: Vec<TrackingRequestId>| {
        ids.sort();
        let total = u64::try_from(ids.len()).expect("few");
        (ids, total)
    };
    for (text, expected) in [
        // Long enough for the index: any part of a number, in any case, with spaces.
        ("medu123", vec![bill.id]),
        ("U 1234 567", vec![bill.id]),
        ("45678", vec![booking.id]),
        ("CSQU 305438 3", vec![container.id]),
        // A reference's `_` is itself, not any character; a `%` matches only a `%`.
        ("ABC_7", vec![bill.id]),
        ("CX77", vec![booking.id]),
        ("77", vec![bill.id, booking.id]),
        ("%77", vec![]),
        // Too short for trigrams: the list is walked.
        ("DU", vec![bill.id]),
        ("3", vec![bill.id, booking.id, container.id]),
        // References are matched one at a time, and other accounts' rows never.
        ("77LOT", vec![]),
        ("1234999", vec![]),
        ("NOWHERE", vec![]),
    ] {
        assert_eq!(
            found(&store, acme.id, text).await,
            sorted(expected),
            "{text}"
        );
    }
    // A patched reference is found by its new text only.
    let patch = TrackingRequestPatch {
        ref_numbers: Some(vec!["INVOICE-42".into()]),
        shipment_tags: None,
        customer: None,
    };
    store
        .update_tracking_request(acme.id, booking.id, &patch, at(9))
        .await
        .expect("update")
        .expect("found");
    assert_eq!(
        found(&store, acme.id, "ICE-4").await,
        sorted(vec![booking.id])
    );
    assert_eq!(found(&store, acme.id, "CX77").await, sorted(vec![]));
}

/// One case rule on both backends: `a` to `z` in any case, every other letter as written,
/// through the index and through the walk alike.
pub async fn a_search_ignores_the_case_of_a_to_z_only(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let mut unicode = request(&acme, "bill_of_lading", "MEDU7654321", "MSCU", 1);
    unicode.ref_numbers = vec!["Ünïcode ref".into(), "Straße 9".into()];
    super::insert(&store, &unicode).await;
    let sorted = |found: bool| {
        if found {
            (vec![unicode.id], 1)
        } else {
            (vec![], 0)
        }
    };
    for (text, expected) in [
        ("Ünïcode", true),
        ("üNÏcode", false),
        ("nïCODE REF", true),
        ("NÏCODE", false),
        ("ïc", true),
        ("Ïc", false),
        ("straße", true),
        ("STRAßE 9", true),
        ("STRASSE", false),
    ] {
        assert_eq!(
            found(&store, acme.id, text).await,
            sorted(expected),
            "{text}"
        );
    }
}

pub async fn a_search_finds_requests_and_shipments_by_bill_and_container(store: Arc<dyn Store>) {
    let owner = account(&store, "searcher").await;
    let stranger = account(&store, "stranger").await;
    let milestones = super::tracking::snapshot(&[(Milestone::FullIn, 2)]);
    let (tracked, change) =
        super::tracking::tracked(&store, &owner, "586118841", &milestones, 4).await;
    let shipment = change.shipment.expect("shipment").id;
    let container = change.delta.containers[0].id;
    for (text, shipments, containers) in [
        ("861188", vec![shipment], vec![]),
        ("ku 123456", vec![shipment], vec![container]),
        ("MSKU1234565", vec![shipment], vec![container]),
        ("58", vec![shipment], vec![]),
        ("KU", vec![shipment], vec![container]),
        ("MSKU9", vec![], vec![]),
    ] {
        // The request tracks the shipment: its number, or its container's, finds it.
        let requests = if shipments.is_empty() {
            vec![]
        } else {
            vec![tracked.id]
        };
        assert_eq!(
            found(&store, owner.id, text).await.0,
            requests,
            "requests {text}"
        );
        assert_eq!(found(&store, stranger.id, text).await.1, 0, "{text}");
        let search = Some(text.to_owned());
        let filter = ShipmentFilter {
            search: search.clone(),
            ..ShipmentFilter::default()
        };
        let listed = store
            .list_shipments(owner.id, &filter, page(1, 10))
            .await
            .expect("list");
        let ids: Vec<_> = listed.items.iter().map(|s| s.id).collect();
        assert_eq!(ids, shipments, "shipments {text}");
        let theirs = store
            .list_shipments(stranger.id, &filter, page(1, 10))
            .await
            .expect("list");
        assert_eq!(theirs.total, 0, "{text}");
        let filter = ContainerFilter {
            search,
            ..ContainerFilter::default()
        };
        let listed = store
            .list_containers(owner.id, &filter, page(1, 10))
            .await
            .expect("list");
        let ids: Vec<_> = listed.items.iter().map(|c| c.id).collect();
        assert_eq!(ids, containers, "containers {text}");
    }
}

pub async fn a_search_of_many_candidates_reads_the_list_in_order(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let many = SEARCH_CANDIDATES_MAX + 2;
    let written: Vec<_> = (0..many)
        .map(|i| {
            let created = i64::try_from(i).expect("few");
            request(
                &acme,
                "booking_number",
                &format!("BULK{i:07}"),
                "MAEU",
                created,
            )
        })
        .collect();
    // Written at once, so SQLite commits them in a few groups.
    futures::future::join_all(written.iter().map(|r| super::insert(&store, r))).await;
    let mut written: Vec<_> = written.iter().map(|r| r.id).collect();
    written.reverse();
    let filter = TrackingRequestFilter {
        search: Some("bulk".to_owned()),
        ..TrackingRequestFilter::default()
    };
    let first = store
        .list_tracking_requests(acme.id, &filter, page(1, 3))
        .await
        .expect("list");
    assert_eq!(first.total, u64::try_from(many).expect("few"));
    assert_eq!(
        first.items.iter().map(|r| r.id).collect::<Vec<_>>(),
        written[..3]
    );
    let one = format!("BULK{:07}", many - 1);
    assert_eq!(found(&store, acme.id, &one).await, (vec![written[0]], 1));
}
