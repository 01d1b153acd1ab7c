//! How each webhook is claimed by this dispatcher: where its next claim resumes, and how
//! many of its deliveries may be in flight. A receiver that answers every delivery of a
//! full window with a 2xx within `fast_within` may hold `per_webhook_fast` at once; one
//! slow or failed answer takes it back to `per_webhook`, so a slow receiver never holds
//! more than that of the dispatchers' slots. Between claims from the start (every
//! [`FROM_START_EVERY`]), a webhook's claim resumes after the last notification it took.

use std::collections::HashMap;
use std::time::Duration;

use tidemark_domain::webhook::ClaimedNotification;
use tidemark_domain::{Timestamp, WebhookId, WebhookNotificationId};
use tidemark_store::WebhookClaim;

/// How often a claim starts from each webhook's oldest due notification rather than after
/// the last it claimed: what resumed claims pass over (a claim of another dispatcher whose
/// lease ran out, a notification committed after a later one was claimed) waits at most
/// this long.
pub(super) const FROM_START_EVERY: Duration = Duration::from_millis(500);

/// The limits in flight, per webhook.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// A receiver not known to be fast.
    pub(super) per_webhook: usize,
    /// A receiver whose last window of answers were all fast 2xx.
    pub(super) per_webhook_fast: usize,
    /// An answer within this is fast.
    pub(super) fast_within: Duration,
}

/// One webhook, as this dispatcher knows it.
#[derive(Debug, Default, Clone, Copy)]
struct Webhook {
    /// The last notification claimed since the last claim from the start.
    after: Option<(Timestamp, WebhookNotificationId)>,
    /// Fast 2xx answers in a row.
    fast: usize,
}

/// Every webhook this dispatcher claimed for.
#[derive(Debug)]
pub(super) struct Pace {
    limits: Limits,
    webhooks: HashMap<WebhookId, Webhook>,
    from_start_at: Option<Timestamp>,
}

impl Pace {
    pub(super) fn new(limits: Limits) -> Self {
        Self {
            limits,
            webhooks: HashMap::new(),
            from_start_at: None,
        }
    }

    /// How many of `webhook`'s deliveries may be in flight.
    pub(super) fn limit(&self, webhook: WebhookId) -> usize {
        let fast = self
            .webhooks
            .get(&webhook)
            .is_some_and(|known| known.fast >= self.limits.per_webhook.max(1));
        if fast {
            self.limits.per_webhook_fast.max(self.limits.per_webhook)
        } else {
            self.limits.per_webhook
        }
        .max(1)
    }

    /// How the claim at `now` takes the webhooks that differ from the default: where each
    /// resumes (nowhere when a claim from the start is due, or `from_start`) and its
    /// limit. A resumed claim that finds nothing is made again from the start, so resuming
    /// never keeps a due notification waiting while nothing else is claimed.
    pub(super) fn claims(&self, now: Timestamp, from_start: bool) -> Vec<WebhookClaim> {
        let resuming = !from_start && self.from_start_at.is_some_and(|at| at > now);
        self.webhooks
            .iter()
            .filter_map(|(id, known)| {
                let after = known.after.filter(|_| resuming);
                let in_flight = self.limit(*id);
                (after.is_some() || in_flight != self.limits.per_webhook.max(1)).then(|| {
                    WebhookClaim {
                        webhook: *id,
                        after,
                        in_flight: u32::try_from(in_flight).unwrap_or(u32::MAX),
                    }
                })
            })
            .collect()
    }

    /// Notes what the claim at `now`, made with `claims`, took.
    pub(super) fn claimed(
        &mut self,
        claims: &[WebhookClaim],
        claimed: &[ClaimedNotification],
        now: Timestamp,
    ) {
        if !claims.iter().any(|claim| claim.after.is_some()) {
            for known in self.webhooks.values_mut() {
                known.after = None;
            }
            self.from_start_at = Some(now + FROM_START_EVERY);
        }
        for claimed in claimed {
            let notification = &claimed.notification;
            let Some(due_at) = notification.due_at else {
                continue;
            };
            let place = (due_at, notification.id);
            let known = self.webhooks.entry(notification.webhook_id).or_default();
            if known.after.is_none_or(|last| place > last) {
                known.after = Some(place);
            }
        }
    }

    /// Notes how `webhook`'s receiver answered: a 2xx (`delivered`) in `latency`, or not.
    pub(super) fn answered(&mut self, webhook: WebhookId, delivered: bool, latency: Duration) {
        let known = self.webhooks.entry(webhook).or_default();
        if delivered && latency <= self.limits.fast_within {
            known.fast = known.fast.saturating_add(1);
        } else {
            known.fast = 0;
        }
    }

    /// Forgets `webhook` (deleted).
    pub(super) fn forget(&mut self, webhook: WebhookId) {
        self.webhooks.remove(&webhook);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pace() -> Pace {
        Pace::new(Limits {
            per_webhook: 4,
            per_webhook_fast: 16,
            fast_within: Duration::from_millis(250),
        })
    }

    #[test]
    fn a_window_of_fast_answers_raises_the_limit_and_one_slow_answer_lowers_it() {
        let mut pace = pace();
        let webhook = WebhookId::new();
        let fast = Duration::from_millis(20);
        for _ in 0..3 {
            pace.answered(webhook, true, fast);
        }
        assert_eq!(
            pace.limit(webhook),
            4,
            "three fast answers are not a window"
        );
        pace.answered(webhook, true, fast);
        assert_eq!(pace.limit(webhook), 16);
        pace.answered(webhook, true, Duration::from_millis(900));
        assert_eq!(pace.limit(webhook), 4, "a slow answer");
        for _ in 0..4 {
            pace.answered(webhook, true, fast);
        }
        pace.answered(webhook, false, fast);
        assert_eq!(pace.limit(webhook), 4, "a failed answer");
        assert_eq!(pace.limit(WebhookId::new()), 4, "a webhook never answered");
    }

    #[test]
    fn only_webhooks_that_differ_from_the_default_are_named() {
        let mut pace = pace();
        let (quick, plain) = (WebhookId::new(), WebhookId::new());
        for _ in 0..4 {
            pace.answered(quick, true, Duration::from_millis(1));
        }
        pace.answered(plain, false, Duration::from_millis(1));
        let claims = pace.claims(Timestamp::from_unix_micros(0).expect("a time"), false);
        assert_eq!(claims.len(), 1);
        assert_eq!((claims[0].webhook, claims[0].in_flight), (quick, 16));
        assert_eq!(
            claims[0].after, None,
            "the first claim starts from the start"
        );
    }
}
