//! The dispatcher end to end: notifications that tracking recorded are delivered over
//! real HTTP to receivers on port 0, signed (verified with the `standardwebhooks` crate),
//! retried on the schedule with the clock driven (no sleeps), and never sent to a name
//! that resolves to an internal address unless allowed; a thousand events reach a flaky
//! receiver through two dispatchers, none lost; the log is pruned to its retention.

#[path = "../support/mod.rs"]
mod support;

mod basics;
mod load;
mod pace;
mod receiver;
mod retention;

mod cases {
    pub use crate::basics::*;
    pub use crate::load::*;
    pub use crate::pace::*;
    pub use crate::retention::*;
}

use cases::*;
use support::with_harness;

tidemark_store::backends!(
    with_harness,
    deliveries_are_signed_and_verified_by_an_independent_library,
    failures_follow_the_schedule_and_gone_turns_the_webhook_off,
    names_resolving_to_internal_addresses_are_refused_by_default,
    a_dispatcher_that_dies_holding_deliveries_loses_none,
    a_receiver_slower_than_the_timeout_is_a_failed_attempt,
    a_thousand_events_reach_a_receiver_failing_thirty_percent,
    a_fast_receiver_gets_sixteen_deliveries_in_flight_and_a_slow_one_four,
    the_delivery_log_forgets_settled_notifications_after_the_retention,
    a_refused_batch_pauses_the_pruner_for_a_minute,
    a_backlog_goes_a_batch_at_a_time_with_a_pause_after_each_full_one,
    two_pruners_sharing_a_database_forget_everything_without_a_failure,
);
