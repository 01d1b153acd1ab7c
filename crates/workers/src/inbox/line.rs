//! A line's pushes (DCSA Arrival Notice 1.0.1, subscriber side): its notices, applied at
//! once, and its notifications that notices are out, each an `arrival_notice` job.

use tidemark_carriers::arrival_notice::push::{self, Feedback, Read, Severity};
use tidemark_domain::{JobKind, NewJob, Scac, TrackingSource};
use tidemark_store::StoreError;

use super::{Applied, Callback, CallbackReply, Inbox, bearer};

impl Inbox {
    pub(super) async fn take_line_push(
        &self,
        push: Callback,
        scac: &str,
        token: Option<&str>,
        body: &[u8],
    ) -> Result<CallbackReply, StoreError> {
        let lines = self.carriers.arrival_notices();
        let scac = Scac::parse(scac).ok();
        let Some((scac, source)) = bearer(scac, token, |scac, token| lines.authorize(*scac, token))
        else {
            return Ok(CallbackReply::Unauthorized);
        };
        let source = TrackingSource::from(source);
        if push == Callback::ArrivalNotices {
            match push::read_notices(body) {
                Ok(read) => self.notices(scac, source, read).await,
                Err(problem) => Ok(refused(problem)),
            }
        } else {
            match push::read_notifications(body) {
                Ok(read) => self.notifications(scac, source, read).await,
                Err(problem) => Ok(refused(problem)),
            }
        }
    }

    async fn notices(
        &self,
        scac: Scac,
        source: TrackingSource,
        read: Read<push::PushedNotice>,
    ) -> Result<CallbackReply, StoreError> {
        if read.nothing_read() {
            return Ok(answered(400, &read.feedback));
        }
        let mut feedback = read.feedback;
        for (path, notice) in read.items {
            let requests = self
                .store
                .open_requests_of_bill(scac, &notice.bill, source)
                .await?;
            let mut applied = 0;
            for id in &requests {
                let outcome = self.apply(None, *id, &notice.containers, &[], None).await?;
                if matches!(outcome, Applied::Committed(_)) {
                    applied += 1;
                }
            }
            tracing::info!(carrier = %scac, requests = requests.len(), applied, "arrival notice pushed");
            feedback.push(Feedback::at(
                Severity::Info,
                &path,
                taken(requests.len(), applied),
            ));
        }
        Ok(answered(200, &feedback))
    }

    async fn notifications(
        &self,
        scac: Scac,
        source: TrackingSource,
        read: Read<push::Notification>,
    ) -> Result<CallbackReply, StoreError> {
        if read.nothing_read() {
            return Ok(answered(400, &read.feedback));
        }
        let mut feedback = read.feedback;
        let now = self.clock.now();
        for (path, notification) in read.items {
            let requests = self
                .store
                .open_requests_of_bill(scac, &notification.bill, source)
                .await?;
            for id in &requests {
                let job = NewJob {
                    kind: JobKind::ArrivalNotice,
                    key: id.to_string(),
                    due_at: now,
                    if_absent: false,
                };
                self.store.schedule_job(&job).await?;
            }
            if !requests.is_empty() {
                self.work_queued();
            }
            tracing::info!(carrier = %scac, requests = requests.len(), "arrival notice notification");
            let message = if requests.is_empty() {
                "no open tracking request of this transport document".to_owned()
            } else {
                format!(
                    "the notice will be read for {} tracked shipment(s)",
                    requests.len()
                )
            };
            feedback.push(Feedback::at(Severity::Info, &path, message));
        }
        Ok(answered(200, &feedback))
    }
}

fn taken(requests: usize, applied: usize) -> String {
    if requests == 0 {
        "no open tracking request of this transport document; the notice was not kept".to_owned()
    } else {
        format!("applied to {applied} of {requests} tracked shipment(s)")
    }
}

fn answered(status: u16, feedback: &[Feedback]) -> CallbackReply {
    CallbackReply::Answered {
        status,
        body: push::answer(feedback),
    }
}

fn refused(problem: Feedback) -> CallbackReply {
    answered(400, &[problem])
}
