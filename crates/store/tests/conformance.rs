//! The storage conformance suite: every case runs against SQLite and PostgreSQL.

use std::future::Future;
use std::sync::{Arc, LazyLock};

use tidemark_domain::{
    Account, AccountId, AccountName, ApiKey, CarrierMatrix, Limits, NewTrackingRequest,
    RequestStatus, RequestType, Scac, Timestamp, TrackingRequest, TrackingRequestDraft,
    TrackingRequestPatch,
};
use tidemark_store::testing::{Backend, TestDatabase, commit_request, commit_status};
use tidemark_store::{PageRequest, Store, StoreError, TimeRange, TrackingRequestFilter};
use time::{Duration, OffsetDateTime};

#[path = "conformance/ais.rs"]
mod ais;
#[path = "conformance/announcements.rs"]
mod announcements;
#[path = "conformance/batches.rs"]
mod batches;
#[path = "conformance/cancellation.rs"]
mod cancellation;
#[path = "conformance/container_lists.rs"]
mod container_lists;
#[path = "conformance/contention.rs"]
mod contention;
#[path = "conformance/custom_fields.rs"]
mod custom_fields;
#[path = "conformance/deliveries.rs"]
mod deliveries;
#[path = "conformance/delivery_batches.rs"]
mod delivery_batches;
#[path = "conformance/delivery_reads.rs"]
mod delivery_reads;
#[path = "conformance/delivery_resume.rs"]
mod delivery_resume;
#[path = "conformance/idempotency.rs"]
mod idempotency;
#[path = "conformance/imports.rs"]
mod imports;
#[path = "conformance/jobs.rs"]
mod jobs;
#[path = "conformance/leases.rs"]
mod leases;
#[path = "conformance/operators.rs"]
mod operators;
#[path = "conformance/parties.rs"]
mod parties;
#[path = "conformance/pushes.rs"]
mod pushes;
#[path = "conformance/quotas.rs"]
mod quotas;
#[path = "conformance/raw_events.rs"]
mod raw_events;
#[path = "conformance/reads.rs"]
mod reads;
#[path = "conformance/request_lists.rs"]
mod request_lists;
#[path = "conformance/requests.rs"]
mod requests;
#[path = "conformance/retention.rs"]
mod retention;
#[path = "conformance/search.rs"]
mod search;
#[path = "conformance/terminal.rs"]
mod terminal;
#[path = "conformance/tracking.rs"]
mod tracking;
#[path = "conformance/tracking_races.rs"]
mod tracking_races;
#[path = "conformance/webhook_secrets.rs"]
mod webhook_secrets;
#[path = "conformance/webhooks.rs"]
mod webhooks;

async fn run<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(Arc<dyn Store>) -> Fut,
    Fut: Future<Output = ()>,
{
    let database = TestDatabase::create(backend).await;
    case(database.connect().await).await;
}

/// CI may never pass with the PostgreSQL half skipped.
#[test]
fn the_postgresql_suite_runs_in_ci() {
    let ci = std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false");
    assert!(
        !ci || cfg!(tidemark_postgres_tests),
        "CI is set but TIDEMARK_TEST_DATABASE_URL was not when the tests were built: the PostgreSQL suite would be skipped"
    );
}

use cases::*;

tidemark_store::backends!(
    run,
    the_gauges_count_boxes_as_they_stand_across_accounts,
    a_webhooks_delivery_outcomes_count_what_was_attempted,
    accounts_are_created_found_and_listed,
    account_names_are_unique,
    bootstrap_creates_the_first_account_only_once,
    api_keys_are_found_by_prefix_and_revoked_once,
    a_key_keeps_its_name_and_its_last_use_to_the_hour,
    a_tracking_request_reads_back_exactly_as_written,
    a_change_of_many_rows_is_written_whole,
    tracking_requests_are_invisible_to_other_accounts,
    an_open_duplicate_is_rejected_with_the_existing_id,
    a_closed_request_does_not_block_a_new_one,
    duplicates_are_per_account_and_per_carrier,
    concurrent_identical_creates_admit_exactly_one,
    lists_are_newest_first_and_paginated,
    lists_filter_by_every_attribute,
    patches_replace_only_the_given_lists,
    totals_stay_exact_through_status_changes,
    due_jobs_are_claimed_once_oldest_first,
    scheduling_is_idempotent_and_keeps_the_earlier_time,
    an_expired_lease_makes_a_job_claimable_again,
    renewed_job_leases_hold_and_lapse_a_lease_after_the_last_renewal,
    renewed_delivery_leases_hold_and_lapse_a_lease_after_the_last_renewal,
    rescheduling_releases_a_job_for_later,
    a_job_scheduled_again_while_held_is_not_lost,
    concurrent_claims_never_share_a_job,
    a_new_request_queues_its_first_lookup_with_it,
    a_lookup_commit_writes_everything_at_once,
    imported_changes_read_back_as_committed_ones,
    a_commit_with_a_lost_lease_writes_nothing,
    concurrent_commits_stand_or_fall_alone,
    concurrent_lookups_share_reference_rows,
    recorded_events_fan_out_to_the_webhooks_that_want_them,
    deliveries_are_claimed_once_expire_and_settle_only_under_their_claim,
    frozen_records_and_attempt_logs_read_back_within_their_account,
    claims_keep_each_webhook_under_its_limit_in_flight,
    a_batch_of_attempts_settles_each_under_its_claim,
    a_batch_leaves_each_webhooks_failing_streak_as_in_order,
    a_notification_settled_twice_in_a_batch_settles_once,
    a_claim_resumes_after_where_the_last_ended,
    a_webhook_named_with_its_own_limit_is_claimed_up_to_it,
    webhooks_read_back_as_written_and_stay_in_their_account,
    webhook_changes_replace_what_they_name_and_deletes_are_final,
    a_rotated_secret_is_kept_once_and_a_change_never_restores_the_old,
    settled_notifications_are_forgotten_oldest_first_and_pending_ones_kept,
    a_commit_after_the_request_changed_writes_nothing,
    events_are_recorded_once_whatever_their_ids,
    a_detected_carrier_that_makes_a_duplicate_is_refused,
    a_lookup_read_before_a_check_keeps_when_the_terminal_was_checked,
    a_lookup_and_a_terminal_check_committed_at_once_never_deadlock,
    what_tracking_found_reads_back_by_id_filter_and_page,
    carrier_events_read_back_whole_in_order_and_within_their_account,
    terminal_views_read_back_and_the_lists_filter_on_them,
    terminal_checks_record_their_events_once_and_fan_out,
    the_open_requests_of_a_bill_are_found_across_accounts,
    a_carrier_push_is_found_by_its_subscription_and_tended,
    pushed_events_are_heard_once_by_id,
    concurrent_takers_share_one_quota,
    concurrent_requests_share_one_rate_limit,
    a_busy_bucket_refuses_no_one_under_its_rate,
    a_shared_bucket_takes_as_the_domain_reckons,
    an_idempotency_key_has_one_claimant_and_keeps_its_answer,
    a_released_or_abandoned_key_is_claimed_again,
    parties_read_back_renamed_and_stay_in_their_account,
    custom_fields_are_kept_per_account_field_and_record,
    staged_values_are_kept_with_their_request,
    a_customer_survives_the_tracker_and_names_its_shipment,
    the_lists_find_shipments_and_containers_by_customer,
    a_search_finds_any_part_of_a_number_or_reference,
    a_search_ignores_the_case_of_a_to_z_only,
    a_search_finds_requests_and_shipments_by_bill_and_container,
    a_search_of_many_candidates_reads_the_list_in_order,
    the_container_list_filters_on_line_ports_terminal_holds_and_local_days,
    a_vessels_latest_position_and_track_read_back_as_heard,
    the_vessels_at_sea_are_those_carrying_the_accounts_shipments,
    a_vessel_heard_on_a_feed_is_a_reference_record_by_imo,
);

/// Cases handed the database itself, to change it behind the store's back.
mod with_database {
    use super::*;

    async fn run(backend: Backend, case: impl AsyncFnOnce(&TestDatabase)) {
        let database = TestDatabase::create(backend).await;
        case(&database).await;
    }

    use super::container_lists::the_list_columns_are_derived_for_boxes_written_before_them;

    tidemark_store::backends!(
        run,
        the_list_columns_are_derived_for_boxes_written_before_them,
    );

    /// PostgreSQL's alone: SQLite's one process needs no announcements.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[cfg_attr(
        not(tidemark_postgres_tests),
        ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite"
    )]
    async fn postgres_announces_notifications_when_they_fall_due() {
        run(
            Backend::Postgres,
            super::announcements::notifications_are_announced_when_they_fall_due,
        )
        .await;
    }
}

fn at(seconds: i64) -> Timestamp {
    Timestamp::from_datetime(
        OffsetDateTime::UNIX_EPOCH + Duration::days(20_000) + Duration::seconds(seconds),
    )
}

async fn account(store: &Arc<dyn Store>, name: &str) -> Account {
    let account = Account {
        id: AccountId::new(),
        name: AccountName::parse(name).expect("valid name"),
        created_at: at(0),
    };
    store
        .create_account(&account)
        .await
        .expect("account created");
    account
}

/// Parsed once: cases write hundreds of requests, and a debug build parses the matrix slowly.
static MATRIX: LazyLock<CarrierMatrix> =
    LazyLock::new(|| CarrierMatrix::bundled().expect("the bundled matrix is valid"));

fn request(
    account: &Account,
    kind: &str,
    number: &str,
    scac: &str,
    created: i64,
) -> TrackingRequest {
    let draft = TrackingRequestDraft {
        request_type: Some(kind.to_owned()),
        request_number: Some(number.to_owned()),
        scac: Some(scac.to_owned()),
        ref_numbers: vec!["PO-1".to_owned(), "Ünïcode ref".to_owned()],
        ..TrackingRequestDraft::default()
    };
    let new = NewTrackingRequest::validate(
        draft,
        &MATRIX,
        &tidemark_domain::Coverage::new([], tidemark_domain::SandboxScope::AllCarriers),
        &Limits::default(),
    )
    .expect("valid request");
    TrackingRequest::open(account.id, new, at(created))
}

/// `request` as it is stored now.
async fn stored(store: &Arc<dyn Store>, request: &TrackingRequest) -> TrackingRequest {
    store
        .tracking_request(request.account_id, request.id)
        .await
        .expect("read")
        .expect("stored")
}

/// Inserts `request`, which must be accepted.
async fn insert(store: &Arc<dyn Store>, request: &TrackingRequest) {
    store
        .insert_tracking_request(request)
        .await
        .expect("inserted");
}

/// Commits `change` under `job`'s claim and answers the outcome.
async fn commit(
    store: &Arc<dyn Store>,
    job: &tidemark_domain::ClaimedJob,
    change: &tidemark_domain::tracking::Change,
) -> tidemark_store::CommitOutcome {
    store
        .commit_tracking(Some(job), change)
        .await
        .expect("commit")
}

/// Commits `change` under `job`'s claim, which must commit.
async fn committed(
    store: &Arc<dyn Store>,
    job: &tidemark_domain::ClaimedJob,
    change: &tidemark_domain::tracking::Change,
) {
    assert_eq!(
        commit(store, job, change).await,
        tidemark_store::CommitOutcome::Committed
    );
}

/// What request `id` tracks now, which must be something.
async fn now_tracked(
    store: &Arc<dyn Store>,
    id: tidemark_domain::TrackingRequestId,
) -> tidemark_domain::Tracked {
    store
        .tracked(id)
        .await
        .expect("read")
        .expect("tracks a shipment")
}

/// How many of `account`'s containers `filter` lists.
async fn containers_listed(
    store: &Arc<dyn Store>,
    account: AccountId,
    filter: tidemark_store::ContainerFilter,
) -> u64 {
    store
        .list_containers(account, &filter, page(1, 1))
        .await
        .expect("list")
        .total
}

/// A list that must hold two records, `newest` first.
fn newest_first<T: PartialEq + std::fmt::Debug>(
    listed: tidemark_store::Page<T>,
    newest: &T,
    oldest: &T,
) {
    assert_eq!(listed.total, 2);
    assert_eq!(
        listed.items.iter().collect::<Vec<_>>(),
        [newest, oldest],
        "newest first"
    );
}

/// How long a claim of the cases holds.
const LEASE: std::time::Duration = std::time::Duration::from_secs(30);

/// Up to `limit` due jobs of `kind`, claimed at `now`.
async fn claim_jobs(
    store: &Arc<dyn Store>,
    kind: tidemark_domain::JobKind,
    limit: u32,
    now: Timestamp,
) -> Vec<tidemark_domain::ClaimedJob> {
    store
        .claim_due(kind, limit, LEASE, now)
        .await
        .expect("claim")
}

/// Up to `limit` due notifications, at most `per_webhook` of a webhook in flight,
/// claimed at `now`.
async fn claim_deliveries(
    store: &Arc<dyn Store>,
    limit: u32,
    per_webhook: u32,
    now: Timestamp,
) -> Vec<tidemark_domain::webhook::ClaimedNotification> {
    store
        .claim_notifications(limit, per_webhook, LEASE, now)
        .await
        .expect("claim")
}

const fn page(number: u32, size: u32) -> PageRequest {
    PageRequest::new(number, size)
}

mod cases {
    pub use super::ais::*;
    pub use super::batches::*;
    pub use super::container_lists::*;
    pub use super::custom_fields::*;
    pub use super::deliveries::*;
    pub use super::delivery_batches::*;
    pub use super::delivery_reads::*;
    pub use super::delivery_resume::*;
    pub use super::idempotency::*;
    pub use super::imports::*;
    pub use super::jobs::*;
    pub use super::leases::*;
    pub use super::operators::*;
    pub use super::parties::*;
    pub use super::pushes::*;
    pub use super::quotas::*;
    pub use super::raw_events::*;
    pub use super::reads::*;
    pub use super::request_lists::*;
    pub use super::requests::*;
    pub use super::retention::*;
    pub use super::search::*;
    pub use super::terminal::*;
    pub use super::tracking::*;
    pub use super::tracking_races::*;
    pub use super::webhook_secrets::*;
    pub use super::webhooks::*;
}
