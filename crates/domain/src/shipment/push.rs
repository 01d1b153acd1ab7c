//! A carrier's push for a shipment: the DCSA 2.2 event subscription Tidemark made for it,
//! and the secret the carrier signs each callback with (`Notification-Signature:
//! sha256=<hex HMAC-SHA256 of the raw body, keyed with the decoded secret>`), checked in
//! constant time.

use std::fmt;

use hmac::Mac;

use crate::Timestamp;
use crate::shared_secret::SharedSecret;

/// The secret's length, in bytes (DCSA's reference implementation takes 32 to 64).
pub const PUSH_SECRET_BYTES: usize = 32;

/// A push subscription at the shipment's carrier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarrierPush {
    /// The carrier's `subscriptionID`.
    pub subscription_id: String,
    /// The shared secret.
    pub secret: PushSecret,
    /// When the secret was set (it is replaced every so often).
    pub secret_set_at: Timestamp,
}

/// A shared secret, as the carrier is given it: base64 of random bytes. Never shown in
/// `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct PushSecret(SharedSecret);

impl PushSecret {
    /// A new secret of [`PUSH_SECRET_BYTES`] random bytes.
    #[must_use]
    pub fn generate() -> Self {
        Self(SharedSecret::generate("", PUSH_SECRET_BYTES))
    }

    /// A stored secret.
    ///
    /// # Errors
    /// When `text` is not base64 of 32 to 64 bytes.
    pub fn parse(text: &str) -> Result<Self, String> {
        SharedSecret::parse(text, "", 32..=64)
            .map(Self)
            .ok_or_else(|| "a push secret is base64 of 32 to 64 bytes".to_owned())
    }

    /// The secret as the carrier is given it (base64).
    #[must_use]
    pub fn expose(&self) -> &str {
        self.0.expose()
    }

    /// The `Notification-Signature` of `body`.
    #[must_use]
    pub fn signature(&self, body: &[u8]) -> String {
        let mut mac = self.0.mac();
        mac.update(body);
        format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
    }

    /// Whether `header` (`sha256=<hex>`) signs `body` with this secret, compared in
    /// constant time.
    #[must_use]
    pub fn verifies(&self, body: &[u8], header: &str) -> bool {
        let Some(given) = header
            .trim()
            .strip_prefix("sha256=")
            .and_then(|hex_text| hex::decode(hex_text).ok())
        else {
            return false;
        };
        let mut mac = self.0.mac();
        mac.update(body);
        mac.verify_slice(&given).is_ok()
    }
}

impl fmt::Debug for PushSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PushSecret(***)")
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    #[test]
    fn a_signature_verifies_only_its_body_with_its_secret() {
        let secret = PushSecret::generate();
        let body = br#"[{"eventID":"1"}]"#;
        let header = secret.signature(body);
        assert!(header.starts_with("sha256=") && header.len() == 7 + 64);
        assert!(secret.verifies(body, &header));
        assert!(!secret.verifies(b"[]", &header));
        assert!(!PushSecret::generate().verifies(body, &header));
        assert!(!secret.verifies(body, "sha1=00"));
        assert!(!secret.verifies(body, "sha256=zz"));
        assert_eq!(format!("{secret:?}"), "PushSecret(***)");
        let stored = PushSecret::parse(secret.expose()).expect("parses");
        assert!(stored.verifies(body, &header));
        assert!(PushSecret::parse("c2hvcnQ=").is_err());
    }

    #[test]
    fn the_reference_implementation_s_algorithm() {
        // 'sha256=' || hex(HMAC-SHA256(payload, secret)) with a known key and body, as
        // computed by any HMAC implementation (RFC 4231 test case 2's key and data).
        let mut key = b"Jefe".to_vec();
        key.resize(32, 0);
        let secret = PushSecret::parse(&STANDARD.encode(&key)).expect("32 bytes");
        let zero_padded_key_mac = secret.signature(b"what do ya want for nothing?");
        // HMAC pads short keys with zeros, so "Jefe" and "Jefe" padded to 32 bytes agree.
        assert_eq!(
            zero_padded_key_mac,
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
