//! What a row of the lifecycle table does to a request.

use super::{Next, Observation, Policy, RequestEvent};
use crate::{FailedReason, RequestStatus, Timestamp, TrackingRequest};

/// What the row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effect {
    /// `created`; `succeeded`; first refresh scheduled.
    Track,
    /// `awaiting_manifest`; its event only when entering; recheck scheduled.
    AwaitManifest,
    /// `failed` with the observation's own reason (or this one); `failed` event.
    Fail(Option<FailedReason>),
    /// State unchanged; retrying with the temporary reason; retry scheduled.
    Retry,
    /// `tracking_stopped`; its event.
    Stop,
    /// `created` again; refreshed at once.
    Resume,
}

/// Applies `effect` to `request` (the request as it was, updated in place), recording its
/// events; returns what is scheduled next.
/// Out of any retry cycle, at `status` for `reason` (none but a failure's).
fn settle(request: &mut TrackingRequest, status: RequestStatus, reason: Option<FailedReason>) {
    request.status = status;
    request.failed_reason = reason;
    request.is_retrying = false;
}

pub(super) fn apply(
    effect: Effect,
    request: &mut TrackingRequest,
    events: &mut Vec<RequestEvent>,
    observation: Observation,
    now: Timestamp,
    policy: &Policy,
) -> Next {
    match effect {
        Effect::Track => {
            settle(request, RequestStatus::Created, None);
            events.push(RequestEvent::Succeeded);
            Next::Refresh
        }
        Effect::AwaitManifest => {
            if request.status != RequestStatus::AwaitingManifest {
                events.push(RequestEvent::AwaitingManifest);
            }
            settle(request, RequestStatus::AwaitingManifest, None);
            // Never later than the expiry, so the request expires on time.
            let expiry = request.created_at + policy.manifest_expiry;
            Next::Lookup((now + policy.manifest_recheck).min(expiry.max(now)))
        }
        Effect::Fail(reason) => {
            let reason = reason.or(match observation {
                Observation::Permanent(reason) => Some(reason),
                _ => None,
            });
            settle(request, RequestStatus::Failed, reason);
            events.push(RequestEvent::Failed);
            Next::Nothing
        }
        Effect::Retry => {
            // Retry rows match temporary observations only (`On::Temporary`).
            let (reason, asked) = match observation {
                Observation::Temporary(reason) => (reason, None),
                Observation::TemporaryAfter(reason, wait) => (reason, Some(wait)),
                _ => (FailedReason::InternalProcessingError, None),
            };
            let retry = request.retry_count.unwrap_or(0) + 1;
            request.is_retrying = true;
            request.retry_count = Some(retry);
            request.failed_reason = Some(reason);
            // Never sooner than the carrier asked, nor later than the policy's longest wait.
            let wait = policy.retry_delay(retry);
            let wait = asked.map_or(wait, |asked| wait.max(asked.min(policy.retry_max)));
            Next::Lookup(now + wait)
        }
        Effect::Stop => {
            request.status = RequestStatus::TrackingStopped;
            events.push(RequestEvent::TrackingStopped);
            Next::Nothing
        }
        Effect::Resume => {
            request.status = RequestStatus::Created;
            Next::Refresh
        }
    }
}
