//! The examples name their records by ids the samples draw afresh each time they are
//! rendered. Here every id in the document is renumbered in order of appearance, each one
//! the same wherever it stands (a resource's `id`, its links, its relationships), so every
//! process and every run serves the same bytes: a client or a cache comparing documents
//! sees a change only when the API changed.

use std::collections::HashMap;

use serde_json::Value;
use tidemark_domain::Timestamp;
use uuid::{Builder, Uuid};

/// The length of a hyphenated UUID.
const LEN: usize = 36;

/// Replaces every UUID in the strings of `document` by a version 7 UUID of the time `at`
/// whose other bits count the ids met so far.
pub(super) fn renumber(document: &mut Value, at: Timestamp) {
    Ids::new(at).walk(document);
}

struct Ids {
    millis: u64,
    seen: HashMap<Uuid, Uuid>,
}

impl Ids {
    /// No ids met yet; new ones carry the time `at`.
    fn new(at: Timestamp) -> Self {
        Self {
            millis: u64::try_from(at.unix_micros() / 1000).unwrap_or(0),
            seen: HashMap::new(),
        }
    }

    fn walk(&mut self, value: &mut Value) {
        match value {
            Value::String(text) => {
                if let Some(renumbered) = self.text(text) {
                    *text = renumbered;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.walk(item)),
            Value::Object(members) => members.values_mut().for_each(|item| self.walk(item)),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// `text` with its UUIDs renumbered; `None` when it holds none.
    fn text(&mut self, text: &str) -> Option<String> {
        let mut out = String::new();
        let mut copied = 0;
        let mut at = 0;
        while at + LEN <= text.len() {
            match text.get(at..at + LEN).filter(|s| is_uuid(s)) {
                Some(found) if !hex_at(text, at.wrapping_sub(1)) && !hex_at(text, at + LEN) => {
                    let old = Uuid::try_parse(found).ok()?;
                    out.push_str(&text[copied..at]);
                    out.push_str(&self.id(old).to_string());
                    at += LEN;
                    copied = at;
                }
                _ => at += 1,
            }
        }
        (copied > 0).then(|| out + &text[copied..])
    }

    fn id(&mut self, old: Uuid) -> Uuid {
        let next = self.seen.len() as u64;
        let millis = self.millis;
        *self.seen.entry(old).or_insert_with(|| {
            let mut counter = [0; 10];
            counter[2..].copy_from_slice(&next.to_be_bytes());
            Builder::from_unix_timestamp_millis(millis, &counter).into_uuid()
        })
    }
}

/// Whether `text` is a hyphenated UUID: hex digits with hyphens at 8, 13, 18 and 23.
fn is_uuid(text: &str) -> bool {
    text.bytes().enumerate().all(|(i, b)| match i {
        8 | 13 | 18 | 23 => b == b'-',
        _ => b.is_ascii_hexdigit(),
    })
}

/// Whether `text` has a hex digit at byte `at` (a UUID inside a longer hex run is none).
fn hex_at(text: &str, at: usize) -> bool {
    text.as_bytes().get(at).is_some_and(u8::is_ascii_hexdigit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at() -> Timestamp {
        Timestamp::parse_rfc3339("2026-11-24T09:30:00Z").expect("time")
    }

    #[test]
    fn each_id_becomes_one_new_id_wherever_it_stands() {
        let one = Uuid::now_v7();
        let two = Uuid::now_v7();
        let mut document = json!({
            "id": one.to_string(),
            "links": {"self": format!("/v2/containers/{one}/raw_events")},
            "related": [two.to_string(), format!("{one},{two}")],
            "hex": format!("ab{one}"),
            "plain": "no ids here",
        });
        renumber(&mut document, at());
        let first = document["id"].as_str().expect("id").to_owned();
        let parsed = Uuid::try_parse(&first).expect("a uuid");
        assert_eq!(parsed.get_version_num(), 7);
        assert_ne!(first, one.to_string());
        let second = document["related"][0].as_str().expect("id").to_owned();
        assert_ne!(first, second);
        assert_eq!(
            document["links"]["self"],
            format!("/v2/containers/{first}/raw_events")
        );
        assert_eq!(document["related"][1], format!("{first},{second}"));
        assert_eq!(
            document["hex"],
            format!("ab{one}"),
            "inside a hex run: kept"
        );
        assert_eq!(document["plain"], "no ids here");

        // Other ids in the same order give the same document.
        let mut again = json!({
            "id": Uuid::now_v7().to_string(),
            "related": [Uuid::now_v7().to_string()],
        });
        renumber(&mut again, at());
        assert_eq!(again["id"], first.as_str());
        assert_eq!(again["related"][0], second.as_str());
    }

    #[test]
    fn the_document_is_the_same_at_every_rendering() {
        let config = crate::ApiConfig::default();
        let carriers = std::sync::Arc::new(
            tidemark_domain::CarrierMatrix::bundled().expect("the bundled matrix is valid"),
        );
        let first = super::super::document(&config, &carriers);
        let second = super::super::document(&config, &carriers);
        assert_eq!(first, second);
        // The webhooks' samples are there, with their ids.
        let text = first.to_string();
        assert!(text.contains("\"webhook_notification\""));
        assert!(text.contains(&format!("{}", renumbered_first())));
    }

    /// The first id renumbering gives.
    fn renumbered_first() -> Uuid {
        Ids::new(at()).id(Uuid::nil())
    }
}
