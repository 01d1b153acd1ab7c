//! Webhook secrets and signatures.
//!
//! Two signatures go with every delivery, made with the webhook's secret (and, while a
//! rotation's grace lasts, with the secret it replaced too: [`super::Signers`]):
//! - Standard Webhooks v1 (`webhook-signature: v1,<base64>`): HMAC-SHA256, keyed with the
//!   secret's decoded bytes, of `{webhook-id}.{webhook-timestamp}.{body}`. Any
//!   `standardwebhooks` library verifies it.
//! - The reference API's scheme (`X-Tidemark-Signature` by default): the hex HMAC-SHA256 of
//!   the raw body, keyed with the secret exactly as shown (`whsec_…`), so receivers built for
//!   that API keep their verifier.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::Mac;

use crate::shared_secret::{SharedSecret, hmac};

/// The prefix of a symmetric Standard Webhooks secret.
pub const SECRET_PREFIX: &str = "whsec_";

/// Random bytes in a new secret.
const SECRET_BYTES: usize = 32;

/// The longest secret a client may choose for a one-off sample (`POST /v2/webhooks/trigger`).
pub const MAX_CHOSEN_SECRET: usize = 1024;

/// A stored secret that is not `whsec_` and base64 of 24 to 64 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a webhook secret is whsec_ followed by base64 of 24 to 64 bytes")]
pub struct SecretError;

/// A webhook's signing secret. `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookSecret(SharedSecret);

impl WebhookSecret {
    /// A new secret: `whsec_` and the base64 of 32 random bytes.
    #[must_use]
    pub fn generate() -> Self {
        Self(SharedSecret::generate(SECRET_PREFIX, SECRET_BYTES))
    }

    /// A secret as stored or shown.
    ///
    /// # Errors
    /// When `text` is not a secret of this form.
    pub fn parse(text: &str) -> Result<Self, SecretError> {
        SharedSecret::parse(text, SECRET_PREFIX, 24..=64)
            .map(Self)
            .ok_or(SecretError)
    }

    /// A secret the client chose for a one-off sample, in any form, as the reference API
    /// takes one: a `whsec_…` secret is read as such; any other text signs with its UTF-8
    /// bytes (the hex signature is keyed with the text either way).
    ///
    /// # Errors
    /// When `text` is longer than [`MAX_CHOSEN_SECRET`] bytes.
    pub fn chosen(text: &str) -> Result<Self, SecretError> {
        if text.len() > MAX_CHOSEN_SECRET {
            return Err(SecretError);
        }
        Ok(Self::parse(text).unwrap_or_else(|_| Self(SharedSecret::opaque(text))))
    }

    /// The secret as the client sees it (`whsec_…`).
    #[must_use]
    pub fn expose(&self) -> &str {
        self.0.expose()
    }

    /// The `webhook-signature` header value for message `id` sent at `timestamp` (Unix
    /// seconds) with `body`.
    #[must_use]
    pub fn standard_signature(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        let mut mac = self.0.mac();
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }

    /// The hex HMAC-SHA256 of `body`, keyed with the secret as shown.
    #[must_use]
    pub fn hex_signature(&self, body: &[u8]) -> String {
        let mut mac = hmac(self.expose().as_bytes());
        mac.update(body);
        hex::encode(mac.finalize().into_bytes())
    }
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(whsec_…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_well_formed_and_never_printed() {
        let one = WebhookSecret::generate();
        let two = WebhookSecret::generate();
        assert_ne!(one, two);
        assert!(one.expose().starts_with(SECRET_PREFIX));
        assert_eq!(WebhookSecret::parse(one.expose()), Ok(one.clone()));
        assert!(!format!("{one:?}").contains(&one.expose()[6..]));
        for bad in ["", "whsec_", "sk_abc", "whsec_!!!", "whsec_AAAA"] {
            assert_eq!(WebhookSecret::parse(bad), Err(SecretError), "{bad:?}");
        }
    }

    #[test]
    fn a_chosen_secret_of_any_form_signs_with_its_text() {
        let generated = WebhookSecret::generate();
        assert_eq!(WebhookSecret::chosen(generated.expose()), Ok(generated));
        let chosen = WebhookSecret::chosen("my-secret").expect("any text");
        assert_eq!(chosen.expose(), "my-secret");
        let mut mac = hmac(b"my-secret");
        mac.update(b"{}");
        assert_eq!(
            chosen.hex_signature(b"{}"),
            hex::encode(mac.finalize().into_bytes())
        );
        assert!(WebhookSecret::chosen("").is_ok());
        assert!(WebhookSecret::chosen(&"x".repeat(MAX_CHOSEN_SECRET)).is_ok());
        assert_eq!(
            WebhookSecret::chosen(&"x".repeat(MAX_CHOSEN_SECRET + 1)),
            Err(SecretError)
        );
    }

    #[test]
    fn an_independent_standard_webhooks_verifier_accepts_the_signature() {
        let secret = WebhookSecret::generate();
        let body = br#"{"data":{"id":"01a2","type":"webhook_notification"}}"#;
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let signature = secret.standard_signature("msg_01a2", now, body);

        let verifier = standardwebhooks::Webhook::new(secret.expose()).expect("secret");
        let mut headers = http_headers(&[
            ("webhook-id", "msg_01a2"),
            ("webhook-timestamp", &now.to_string()),
            ("webhook-signature", &signature),
        ]);
        assert!(verifier.verify(body, &headers).is_ok());

        // A changed body, id or timestamp fails.
        assert!(verifier.verify(b"{}", &headers).is_err());
        headers.insert("webhook-id", "msg_other".parse().expect("value"));
        assert!(verifier.verify(body, &headers).is_err());
    }

    fn http_headers(pairs: &[(&'static str, &str)]) -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(*name, value.parse().expect("header value"));
        }
        headers
    }

    #[test]
    fn the_hex_signature_is_the_hmac_of_the_body_keyed_with_the_secret_text() {
        // Keyed with the text as shown: the same as HMAC keyed with those bytes, computed
        // apart; and RFC 4231 test case 2's key and message give its digest.
        let secret = WebhookSecret::generate();
        let mut apart = hmac(secret.expose().as_bytes());
        apart.update(b"body");
        assert_eq!(
            secret.hex_signature(b"body"),
            hex::encode(apart.finalize().into_bytes())
        );
        let mut rfc = hmac(b"Jefe");
        rfc.update(b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(rfc.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
