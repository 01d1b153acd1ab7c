//! Temporary faults retried with their reason, retries running out, carrier detection.

use carrier_sim::Fault;
use tidemark_domain::{FailedReason, RequestStatus};
use time::Duration;

use crate::support::TestApp;

use crate::lifecycle::fault;

/// A number per temporary fault, with the reason a retry of it gives.
fn temporary_faults() -> Vec<(&'static str, Fault, FailedReason)> {
    vec![
        (
            "586118850",
            Fault::ServerError {
                status: 503,
                retry_after_seconds: None,
            },
            FailedReason::ShippingLineUnreachable,
        ),
        (
            "586118851",
            Fault::RateLimited {
                retry_after_seconds: 30,
            },
            FailedReason::ShippingLineUnreachable,
        ),
        (
            "586118852",
            Fault::Timeout,
            FailedReason::ShippingLineUnreachable,
        ),
        (
            "586118853",
            Fault::Unauthorized,
            FailedReason::ShippingLineUnreachable,
        ),
        (
            "586118854",
            Fault::MalformedJson,
            FailedReason::UnrecognizedResponse,
        ),
        (
            "586118855",
            Fault::TruncatedJson,
            FailedReason::UnrecognizedResponse,
        ),
        (
            "586118856",
            Fault::SchemaInvalid,
            FailedReason::UnrecognizedResponse,
        ),
    ]
}

pub async fn temporary_faults_retry_with_the_right_reason_then_succeed(h: TestApp) {
    let cases = temporary_faults();
    let mut requests = Vec::new();
    for (number, fault_kind, reason) in cases {
        // Unauthorized is retried once with fresh credentials inside a lookup.
        h.sim.add_fault(fault(number, fault_kind, Some(2)));
        requests.push((h.open("bill_of_lading", number, Some("MAEU")).await, reason));
    }
    let scripted = h.test_bill("TEST-TR-RETRY").await;
    h.drain().await;
    for (request, reason) in &requests {
        let retrying = h.stored(request).await;
        assert_eq!(
            retrying.status,
            RequestStatus::Pending,
            "{}",
            request.request_number.as_str()
        );
        assert!(retrying.is_retrying);
        assert_eq!(retrying.retry_count, Some(1));
        assert_eq!(
            retrying.failed_reason,
            Some(*reason),
            "{}",
            request.request_number.as_str()
        );
    }
    assert_eq!(h.stored(&scripted).await.retry_count, Some(1));
    h.advance(Duration::minutes(1));
    h.drain().await;
    assert_eq!(h.stored(&scripted).await.retry_count, Some(2));
    h.advance(Duration::minutes(2));
    h.drain().await;
    for request in requests.iter().map(|(r, _)| r).chain([&scripted]) {
        let done = h.stored(request).await;
        assert_eq!(
            done.status,
            RequestStatus::Created,
            "{}",
            request.request_number.as_str()
        );
        assert!(!done.is_retrying);
        assert_eq!(done.failed_reason, None);
        assert!(done.retry_count.is_some_and(|count| count >= 1));
    }
}

pub async fn retries_run_out_after_fourteen(h: TestApp) {
    let request = h.test_bill("TEST-TR-RETRIES-EXHAUSTED").await;
    h.drain().await;
    for retry in 1..=14 {
        let retrying = h.stored(&request).await;
        assert_eq!(retrying.retry_count, Some(retry));
        assert_eq!(retrying.status, RequestStatus::Pending);
        h.advance(Duration::hours(3));
        assert_eq!(h.drain().await, 1);
    }
    let failed = h.stored(&request).await;
    assert_eq!(failed.status, RequestStatus::Failed);
    assert_eq!(failed.failed_reason, Some(FailedReason::RetriesExhausted));
    assert!(!failed.is_retrying);
    assert_eq!(h.sim.lookups("TEST", "TEST-TR-RETRIES-EXHAUSTED"), 15);
}

pub async fn a_carrier_is_detected_or_the_request_fails(h: TestApp) {
    let detected = h.open("container", "MSKU3054388", None).await;
    let hopeless = h.open("bill_of_lading", "QX7", None).await;
    h.drain().await;
    let found = h.stored(&detected).await;
    assert_eq!(found.status, RequestStatus::Created);
    assert_eq!(
        found.scac.map(|s| s.as_str().to_owned()),
        Some("MAEU".to_owned())
    );
    let failed = h.stored(&hopeless).await;
    assert_eq!(failed.status, RequestStatus::Failed);
    assert_eq!(
        failed.failed_reason,
        Some(FailedReason::ScacAutoDetectFailed)
    );
    assert_eq!(failed.scac, None);
}
