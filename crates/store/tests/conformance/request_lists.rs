//! Conformance cases of tracking-request lists: order, pages, filters, patches and exact totals.

use super::*;
use tidemark_domain::TrackingRequestId;

pub async fn lists_are_newest_first_and_paginated(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let mut written = Vec::new();
    for i in 0..7 {
        let r = request(&acme, "bill_of_lading", &format!("MAEU{i:09}"), "MAEU", i);
        super::insert(&store, &r).await;
        written.push(r.id);
    }
    written.reverse();
    let filter = TrackingRequestFilter::default();
    let first = store
        .list_tracking_requests(acme.id, &filter, page(1, 3))
        .await
        .expect("list");
    let third = store
        .list_tracking_requests(acme.id, &filter, page(3, 3))
        .await
        .expect("list");
    let beyond = store
        .list_tracking_requests(acme.id, &filter, page(4, 3))
        .await
        .expect("list");
    assert_eq!(first.total, 7);
    assert_eq!(
        first.items.iter().map(|r| r.id).collect::<Vec<_>>(),
        written[..3]
    );
    assert_eq!(
        third.items.iter().map(|r| r.id).collect::<Vec<_>>(),
        written[6..]
    );
    assert!(beyond.items.is_empty());
    assert_eq!(beyond.total, 7);
    let deep = store
        .list_tracking_requests(acme.id, &filter, page(1000, 30))
        .await
        .expect("list");
    assert!(deep.items.is_empty(), "a deep page is empty, not an error");
    assert_eq!(deep.total, 7);
    // Uncounted, with and without a filter the request counts keep: the same rows, and a
    // total of the rows read.
    let open = TrackingRequestFilter {
        status: vec![RequestStatus::Pending],
        ..TrackingRequestFilter::default()
    };
    for filter in [filter, open] {
        let head = store
            .list_tracking_requests(acme.id, &filter, PageRequest::first_rows(3))
            .await
            .expect("list");
        assert_eq!((head.items, head.total), (first.items.clone(), 3));
    }
}

/// Filters of the bill, booking and container requests (the last one failed), each with
/// the ids it finds, in id order.
fn request_filters(
    bl: TrackingRequestId,
    booking: TrackingRequestId,
    container: TrackingRequestId,
) -> Vec<(TrackingRequestFilter, Vec<TrackingRequestId>)> {
    let range = |start: Option<i64>, end: Option<i64>| TimeRange {
        start: start.map(at),
        end: end.map(at),
    };
    let mut everyone = vec![bl, booking, container];
    everyone.sort();
    vec![
        (
            TrackingRequestFilter {
                status: vec![RequestStatus::Failed],
                ..Default::default()
            },
            vec![container],
        ),
        (
            TrackingRequestFilter {
                status: vec![RequestStatus::Pending, RequestStatus::Failed],
                ..Default::default()
            },
            everyone,
        ),
        (
            TrackingRequestFilter {
                scac: vec![Scac::parse("MSCU").expect("valid")],
                ..Default::default()
            },
            vec![bl],
        ),
        (
            TrackingRequestFilter {
                request_type: vec![RequestType::BookingNumber],
                ..Default::default()
            },
            vec![booking],
        ),
        (
            TrackingRequestFilter {
                request_number: vec!["CSQU3054383".into()],
                ..Default::default()
            },
            vec![container],
        ),
        (
            TrackingRequestFilter {
                created_at: range(Some(15), Some(25)),
                ..Default::default()
            },
            vec![booking],
        ),
        (
            TrackingRequestFilter {
                updated_at: range(Some(50), None),
                ..Default::default()
            },
            vec![container],
        ),
        (
            TrackingRequestFilter {
                created_at: range(None, Some(10)),
                ..Default::default()
            },
            vec![bl],
        ),
    ]
}

pub async fn lists_filter_by_every_attribute(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let bl = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", 10);
    let booking = request(&acme, "booking_number", "123456789", "MAEU", 20);
    let mut container = request(&acme, "container", "CSQU3054383", "HLCU", 30);
    for r in [&bl, &booking, &container] {
        super::insert(&store, r).await;
    }
    let failed = TrackingRequest {
        status: RequestStatus::Failed,
        updated_at: at(100),
        ..container.clone()
    };
    container = commit_request(store.as_ref(), &container, failed).await;

    let ids = |filter: TrackingRequestFilter| {
        let store = Arc::clone(&store);
        async move {
            let mut ids: Vec<_> = store
                .list_tracking_requests(acme.id, &filter, page(1, 100))
                .await
                .expect("list")
                .items
                .into_iter()
                .map(|r| r.id)
                .collect();
            ids.sort();
            ids
        }
    };
    let cases = request_filters(bl.id, booking.id, container.id);
    for (filter, expected) in cases {
        assert_eq!(ids(filter.clone()).await, expected, "{filter:?}");
    }
}

pub async fn patches_replace_only_the_given_lists(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let mut written = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", 5);
    written.shipment_tags = vec!["keep".into()];
    super::insert(&store, &written).await;
    let patch = TrackingRequestPatch {
        ref_numbers: Some(vec!["PO-9".into()]),
        shipment_tags: None,
        customer: None,
    };
    let updated = store
        .update_tracking_request(acme.id, written.id, &patch, at(50))
        .await
        .expect("update")
        .expect("found");
    assert_eq!(updated.ref_numbers, ["PO-9"]);
    assert_eq!(updated.shipment_tags, ["keep"]);
    assert_eq!(updated.updated_at, at(50));
    assert_eq!(updated.created_at, written.created_at);
    assert_eq!(
        store
            .tracking_request(acme.id, written.id)
            .await
            .expect("read"),
        Some(updated)
    );
}

pub async fn totals_stay_exact_through_status_changes(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let mut requests = Vec::new();
    for i in 0..6 {
        let r = request(&acme, "booking_number", &format!("{i:09}"), "MAEU", i);
        super::insert(&store, &r).await;
        requests.push(r);
    }
    store
        .insert_tracking_request(&request(&globex, "booking_number", "000000000", "MAEU", 0))
        .await
        .expect("insert");
    for (r, status) in requests.iter_mut().zip([
        RequestStatus::Created,
        RequestStatus::Created,
        RequestStatus::Failed,
    ]) {
        *r = commit_status(store.as_ref(), r, status).await;
    }
    // Writing the same status again changes nothing.
    commit_status(store.as_ref(), &requests[0], RequestStatus::Created).await;
    let total = |status: Vec<RequestStatus>| {
        let store = Arc::clone(&store);
        async move {
            let filter = TrackingRequestFilter {
                status,
                ..Default::default()
            };
            store
                .list_tracking_requests(acme.id, &filter, page(1, 1))
                .await
                .expect("list")
                .total
        }
    };
    assert_eq!(total(vec![]).await, 6);
    assert_eq!(total(vec![RequestStatus::Pending]).await, 3);
    assert_eq!(total(vec![RequestStatus::Created]).await, 2);
    assert_eq!(
        total(vec![RequestStatus::Created, RequestStatus::Failed]).await,
        3
    );
    assert_eq!(total(vec![RequestStatus::TrackingStopped]).await, 0);
}
