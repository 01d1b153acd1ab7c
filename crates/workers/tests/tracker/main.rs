//! The tracker end to end against the carrier simulator over HTTP, on both backends, with
//! both clocks driven by the test and the queue drained (no sleeps): every lifecycle row,
//! faults mapped to retry states, a voyage played step by step, terminal checks, a worker
//! that dies mid-job, and two trackers sharing one queue.

#[path = "../support/mod.rs"]
mod support;

mod concurrency;
mod lifecycle;
mod quotas;
mod retries;
mod terminal;
mod voyage;

mod cases {
    pub use crate::concurrency::*;
    pub use crate::lifecycle::*;
    pub use crate::quotas::*;
    pub use crate::retries::*;
    pub use crate::terminal::*;
    pub use crate::voyage::*;
}

use cases::*;
use support::{on, with_harness};

mod started {
    use super::*;

    tidemark_store::backends!(
        with_harness,
        found_requests_are_created_with_their_shipment,
        a_manifest_that_comes_later_is_found_on_a_recheck,
        an_unknown_bill_awaits_its_manifest_and_expires_after_seven_days,
        permanent_carrier_refusals_fail_with_their_reason,
        temporary_faults_retry_with_the_right_reason_then_succeed,
        retries_run_out_after_fourteen,
        a_carrier_is_detected_or_the_request_fails,
        a_voyage_step_by_step_records_each_event_exactly_once,
        a_worker_that_dies_mid_job_loses_and_duplicates_nothing,
        two_trackers_never_work_one_job_at_once,
        terminal_checks_follow_a_box_from_the_approach_to_its_pickup,
        a_failing_terminal_leaves_the_request_alone,
        three_trackers_keep_to_one_carrier_quota_together,
    );
}

tidemark_store::backends!(on, an_unknown_container_fails_as_not_found,);
