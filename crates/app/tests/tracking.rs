//! The use case that changes tracking requests, on both backends: a decision that loses
//! to a change committed since the request was read is decided again on what is stored
//! then, and a move the lifecycle has no row for is said, not written.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tidemark_app::{Applied, Current, Observation, Tracking};
use tidemark_domain::lifecycle::Policy;
use tidemark_domain::tracking::LookupAnswer;
use tidemark_domain::{
    Account, AccountId, AccountName, CarrierMatrix, Clock, Coverage, Limits, LookupOutcome,
    NewTrackingRequest, RequestStatus, SandboxScope, SystemClock, TemporaryReason, TrackingRequest,
    TrackingRequestDraft, TrackingSource,
};
use tidemark_store::Store;
use tidemark_store::testing::{Backend, TestDatabase, commit_request};

tidemark_store::backends!(
    on,
    a_decision_that_loses_to_a_change_meanwhile_is_made_again_on_what_is_stored,
    a_stop_the_lifecycle_has_no_row_for_is_said_and_not_written,
);

async fn on<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Arc<dyn Store>, Tracking) -> Fut,
    Fut: Future<Output = ()>,
{
    let database = TestDatabase::create(backend).await;
    let store = database.connect().await;
    let matrix = Arc::new(CarrierMatrix::bundled().expect("the bundled matrix"));
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let tracking = Tracking::new(Arc::clone(&store), matrix, clock, Policy::default());
    case(store, tracking).await;
}

/// A pending request of a new account, stored.
async fn pending(store: &Arc<dyn Store>) -> TrackingRequest {
    let now = SystemClock.now();
    let account = Account {
        id: AccountId::new(),
        name: AccountName::parse("use cases").expect("a name"),
        created_at: now,
    };
    store.create_account(&account).await.expect("account");
    let draft = TrackingRequestDraft {
        request_type: Some("bill_of_lading".to_owned()),
        request_number: Some("MEDU1234567".to_owned()),
        scac: Some("MSCU".to_owned()),
        ..TrackingRequestDraft::default()
    };
    let matrix = CarrierMatrix::bundled().expect("the bundled matrix");
    let coverage = Coverage::new([], SandboxScope::AllCarriers);
    let new = NewTrackingRequest::validate(draft, &matrix, &coverage, &Limits::default())
        .expect("a valid request");
    let request = TrackingRequest::open(account.id, new, now);
    store
        .insert_tracking_request(&request)
        .await
        .expect("stored");
    request
}

/// `request` as stored now, with what is tracked of it.
async fn now_stored(tracking: &Tracking, request: &TrackingRequest) -> Current {
    tracking
        .current(request.id)
        .await
        .expect("read")
        .expect("there")
}

fn unreachable_carrier() -> LookupAnswer {
    LookupAnswer {
        scac: None,
        source: TrackingSource::ShippingLine,
        outcome: Some(LookupOutcome::Temporary(TemporaryReason::Unreachable(
            "connection refused".to_owned(),
        ))),
    }
}

async fn a_decision_that_loses_to_a_change_meanwhile_is_made_again_on_what_is_stored(
    store: Arc<dyn Store>,
    tracking: Tracking,
) {
    let request = pending(&store).await;
    let read = now_stored(&tracking, &request).await;
    // Another writer changes the request after it was read (its last change moves on).
    let mut moved = read.request.clone();
    moved.updated_at = moved.updated_at + std::time::Duration::from_millis(1);
    commit_request(store.as_ref(), &read.request, moved.clone()).await;

    let answer = unreachable_carrier();
    let decided = AtomicUsize::new(0);
    let applied = tracking
        .apply(None, read, |now: &Current| {
            decided.fetch_add(1, Ordering::SeqCst);
            (now.request.status == RequestStatus::Pending).then_some(Observation::Lookup(&answer))
        })
        .await
        .expect("applied");
    let Applied::Committed(change) = applied else {
        panic!("committed on the second decision: {applied:?}");
    };
    assert_eq!(
        decided.load(Ordering::SeqCst),
        2,
        "decided again after the conflict"
    );
    assert_eq!(
        change.request_read_at, moved.updated_at,
        "on what was stored then"
    );
    let stored = now_stored(&tracking, &request).await;
    assert!(stored.request.is_retrying, "{:?}", stored.request);
    assert_eq!(stored.request.retry_count, Some(1));
}

async fn a_stop_the_lifecycle_has_no_row_for_is_said_and_not_written(
    store: Arc<dyn Store>,
    tracking: Tracking,
) {
    let request = pending(&store).await;
    let read = now_stored(&tracking, &request).await;
    let before = read.request.updated_at;
    let applied = tracking
        .apply(None, read, |_| Some(Observation::Stop))
        .await
        .expect("applied");
    assert!(
        matches!(applied, Applied::NoTransition(RequestStatus::Pending)),
        "{applied:?}"
    );
    let stored = now_stored(&tracking, &request).await;
    assert_eq!(stored.request.updated_at, before, "nothing written");
}
