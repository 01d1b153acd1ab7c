//! Rotating a webhook's secret (api.md §5, beyond; the reference API has no rotation): the
//! new secret signs every delivery at once, and the one it replaced keeps signing beside it
//! for a grace period, so a receiver can switch without refusing a delivery.

use std::time::Duration;

use crate::Timestamp;

use super::{Webhook, WebhookSecret};

/// How long a replaced secret keeps signing unless the operator says otherwise (as Svix).
pub const DEFAULT_SECRET_GRACE: Duration = Duration::from_secs(24 * 3600);

/// The longest a replaced secret may keep signing: a grace is for moving a receiver over,
/// and a secret that signs for months defeats the rotation.
pub const MAX_SECRET_GRACE: Duration = Duration::from_secs(30 * 24 * 3600);

/// The secret a rotation replaced, and until when it still signs deliveries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousSecret {
    /// The replaced secret.
    pub secret: WebhookSecret,
    /// When it stops signing.
    pub until: Timestamp,
}

/// The secrets that sign one delivery: the webhook's own and, while a rotation's grace
/// lasts, the one it replaced.
#[derive(Debug, Clone, Copy)]
pub struct Signers<'a> {
    current: &'a WebhookSecret,
    previous: Option<&'a WebhookSecret>,
}

impl Signers<'_> {
    /// The `webhook-signature` header value: a `v1,…` signature by each secret, the current
    /// first, separated by a space. A Standard Webhooks verifier accepts the message when
    /// any one of them is its secret's.
    #[must_use]
    pub fn standard_signature(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        let current = self.current.standard_signature(id, timestamp, body);
        match self.previous {
            None => current,
            Some(previous) => {
                let previous = previous.standard_signature(id, timestamp, body);
                format!("{current} {previous}")
            }
        }
    }

    /// The reference API's hex signature. Its verifiers compare one value with their own,
    /// so it is made by one secret: the replaced one while the grace lasts (the secret a
    /// receiver built for that API still holds), the current one after.
    #[must_use]
    pub fn hex_signature(&self, body: &[u8]) -> String {
        self.previous.unwrap_or(self.current).hex_signature(body)
    }
}

impl Webhook {
    /// This webhook with a new secret from `now`. The secret it replaces keeps signing for
    /// `grace` (not at all when `grace` is zero); a secret replaced by an earlier rotation
    /// stops at once, so at most two ever sign.
    #[must_use]
    pub fn rotate_secret(&self, now: Timestamp, grace: Duration) -> Webhook {
        let previous = (!grace.is_zero()).then(|| PreviousSecret {
            secret: self.secret.clone(),
            until: now + grace,
        });
        Webhook {
            secret: WebhookSecret::generate(),
            previous_secret: previous,
            updated_at: now,
            ..self.clone()
        }
    }

    /// What signs a delivery sent at `now`.
    #[must_use]
    pub fn signers(&self, now: Timestamp) -> Signers<'_> {
        Signers {
            current: &self.secret,
            previous: self
                .previous_secret
                .as_ref()
                .filter(|previous| now < previous.until)
                .map(|previous| &previous.secret),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::{Networks, WebhookDraft};
    use crate::{AccountId, Timestamp};

    const DAY: Duration = Duration::from_secs(24 * 3600);

    fn now() -> Timestamp {
        Timestamp::from_datetime(time::macros::datetime!(2026-11-27 10:00 UTC))
    }

    fn webhook() -> Webhook {
        WebhookDraft {
            url: Some("https://example.com/hooks".to_owned()),
            ..WebhookDraft::default()
        }
        .create(AccountId::new(), &Networks::public_only(), now())
        .expect("valid webhook")
    }

    /// Whether an independent Standard Webhooks verifier holding `secret` accepts `header`.
    fn verifies(secret: &WebhookSecret, header: &str, body: &[u8], timestamp: i64) -> bool {
        let mut headers = http::HeaderMap::new();
        headers.insert("webhook-id", "msg_1".parse().expect("value"));
        let stamp = timestamp.to_string().parse().expect("value");
        headers.insert("webhook-timestamp", stamp);
        headers.insert("webhook-signature", header.parse().expect("value"));
        let verifier = standardwebhooks::Webhook::new(secret.expose()).expect("secret");
        verifier.verify(body, &headers).is_ok()
    }

    #[test]
    fn a_rotation_signs_with_both_secrets_until_the_grace_ends() {
        let before = webhook();
        let rotated = before.rotate_secret(now(), DAY);
        assert_ne!(rotated.secret, before.secret);
        assert_eq!(rotated.updated_at, now());
        let previous = rotated.previous_secret.as_ref().expect("kept");
        assert_eq!(previous.secret, before.secret);
        assert_eq!(previous.until, now() + DAY);

        let body = br#"{"data":{}}"#;
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
        let during = rotated.signers(now() + DAY - Duration::from_secs(1));
        let header = during.standard_signature("msg_1", stamp, body);
        assert_eq!(header.split(' ').count(), 2, "{header}");
        assert!(verifies(&rotated.secret, &header, body, stamp));
        assert!(verifies(&before.secret, &header, body, stamp));
        assert!(!verifies(&WebhookSecret::generate(), &header, body, stamp));
        assert_eq!(
            during.hex_signature(body),
            before.secret.hex_signature(body)
        );

        let after = rotated.signers(now() + DAY);
        let header = after.standard_signature("msg_1", stamp, body);
        assert!(verifies(&rotated.secret, &header, body, stamp));
        assert!(!verifies(&before.secret, &header, body, stamp));
        assert_eq!(
            after.hex_signature(body),
            rotated.secret.hex_signature(body)
        );
    }

    #[test]
    fn a_second_rotation_drops_the_oldest_secret_and_no_grace_keeps_none() {
        let first = webhook();
        let second = first.rotate_secret(now(), DAY);
        let later = now() + Duration::from_secs(60);
        let third = second.rotate_secret(later, DAY);
        let previous = third.previous_secret.as_ref().expect("kept");
        assert_eq!(previous.secret, second.secret);
        assert_eq!(previous.until, later + DAY);
        assert_ne!(third.secret, first.secret);

        let at_once = third.rotate_secret(later, Duration::ZERO);
        assert_eq!(at_once.previous_secret, None);
        let body = b"{}";
        let signers = at_once.signers(later);
        assert_eq!(
            signers.standard_signature("msg_1", 1, body),
            at_once.secret.standard_signature("msg_1", 1, body)
        );
        assert_eq!(
            signers.hex_signature(body),
            at_once.secret.hex_signature(body)
        );
    }

    #[test]
    fn a_webhook_never_rotated_signs_with_its_one_secret() {
        let hook = webhook();
        let body = b"{}";
        let signers = hook.signers(now());
        assert_eq!(
            signers.standard_signature("msg_1", 7, body),
            hook.secret.standard_signature("msg_1", 7, body)
        );
        assert_eq!(signers.hex_signature(body), hook.secret.hex_signature(body));
    }
}
