//! What a lookup leaves behind for operators: one log line, and the lookups counter and
//! duration histogram of `/metrics` (names in docs/operations.md).

use tidemark_domain::{LookupOutcome, Scac, TrackingRequest};

/// One line per lookup: its carrier, outcome, duration and attempt.
pub(super) fn log_lookup(
    request: &TrackingRequest,
    scac: Scac,
    outcome: &LookupOutcome,
    took: std::time::Duration,
) {
    let duration_ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
    let attempt = request.retry_count.map_or(1, |retries| retries + 1);
    metrics::counter!(
        tidemark_wire::metrics::LOOKUPS.name,
        "carrier" => scac.as_str().to_owned(), "outcome" => outcome.label()
    )
    .increment(1);
    metrics::histogram!(
        tidemark_wire::metrics::LOOKUP_DURATION.name,
        "carrier" => scac.as_str().to_owned()
    )
    .record(took.as_secs_f64());
    match outcome.failure() {
        None => tracing::info!(
            carrier = %scac,
            request = %request.id,
            outcome = outcome.label(),
            duration_ms,
            attempt,
            "lookup"
        ),
        Some(reason) => tracing::warn!(
            carrier = %scac,
            request = %request.id,
            outcome = outcome.label(),
            duration_ms,
            attempt,
            %reason,
            "lookup failed"
        ),
    }
}
