//! A webhook subscription and the rules for creating and changing one (api.md §5).

use crate::validation::{Field, FieldError, ValidationCode};
use crate::{AccountId, Timestamp, WebhookId};

use super::validate::{check_events, check_headers, url};
use super::{Networks, PreviousSecret, WebhookSecret, WebhookUrl};

/// Most custom headers per webhook.
pub const MAX_HEADERS: usize = 10;
/// Longest custom header name.
pub(super) const MAX_HEADER_NAME: usize = 64;
/// Longest custom header value.
pub(super) const MAX_HEADER_VALUE: usize = 1024;

/// Headers a webhook may not set: Tidemark sets them, or HTTP does.
pub(super) const RESERVED_HEADERS: [&str; 10] = [
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "content-type",
    "content-length",
    "host",
    "transfer-encoding",
    "connection",
    "user-agent",
    "x-tidemark-signature",
];

/// A custom header sent with every delivery.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WebhookHeader {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// A webhook subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// Its id.
    pub id: WebhookId,
    /// The account it belongs to.
    pub account_id: AccountId,
    /// Where deliveries go.
    pub url: WebhookUrl,
    /// Whether deliveries are made.
    pub active: bool,
    /// The events it wants; empty means all. Which webhooks an event goes to is decided
    /// where the event is recorded, in the same transaction (the store's fan-out).
    pub events: Vec<String>,
    /// The signing secret.
    pub secret: WebhookSecret,
    /// The secret the last rotation replaced, signing beside it until its time.
    pub previous_secret: Option<PreviousSecret>,
    /// Custom headers.
    pub headers: Vec<WebhookHeader>,
    /// Why Tidemark turned it off (410 from the receiver, days of failures).
    pub disabled_reason: Option<String>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// A client's create or change, as sent; `None` is "not given".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebhookDraft {
    /// `url`.
    pub url: Option<String>,
    /// `active`.
    pub active: Option<bool>,
    /// `events`.
    pub events: Option<Vec<String>>,
    /// `headers`, as name and value.
    pub headers: Option<Vec<WebhookHeader>>,
}

/// A draft's members, each checked: `None` where the draft does not give it.
struct Checked {
    url: Option<WebhookUrl>,
    active: Option<bool>,
    events: Option<Vec<String>>,
    headers: Option<Vec<WebhookHeader>>,
}

impl WebhookDraft {
    /// Checks every member given; a given `url` must not be blank.
    fn check(self, networks: &Networks) -> Result<Checked, Vec<FieldError>> {
        let mut errors = Vec::new();
        let url = match self.url.as_deref() {
            None => None,
            Some("") => {
                errors.push(blank_url());
                None
            }
            Some(text) => url(text, networks, &mut errors),
        };
        let events = self.events.map(|events| check_events(events, &mut errors));
        let headers = self
            .headers
            .map(|headers| check_headers(headers, &mut errors));
        if errors.is_empty() {
            Ok(Checked {
                url,
                active: self.active,
                events,
                headers,
            })
        } else {
            Err(errors)
        }
    }

    /// A new webhook from a create: `url` is required, `active` defaults to true, `events`
    /// to all; the secret is generated.
    ///
    /// # Errors
    /// Every problem found.
    pub fn create(
        self,
        account_id: AccountId,
        networks: &Networks,
        now: Timestamp,
    ) -> Result<Webhook, Vec<FieldError>> {
        let blank = self.url.is_none();
        let checked = match self.check(networks) {
            Ok(checked) => checked,
            Err(mut errors) => {
                if blank {
                    errors.insert(0, blank_url());
                }
                return Err(errors);
            }
        };
        let Some(url) = checked.url else {
            return Err(vec![blank_url()]);
        };
        Ok(Webhook {
            id: WebhookId::new(),
            account_id,
            url,
            active: checked.active.unwrap_or(true),
            events: checked.events.unwrap_or_default(),
            secret: WebhookSecret::generate(),
            previous_secret: None,
            headers: checked.headers.unwrap_or_default(),
            disabled_reason: None,
            created_at: now,
            updated_at: now,
        })
    }

    /// `webhook` with this change applied. Turning a disabled webhook on again clears
    /// `disabled_reason`.
    ///
    /// # Errors
    /// Every problem found.
    pub fn apply(
        self,
        webhook: &Webhook,
        networks: &Networks,
        now: Timestamp,
    ) -> Result<Webhook, Vec<FieldError>> {
        let checked = self.check(networks)?;
        Ok(Webhook {
            url: checked.url.unwrap_or_else(|| webhook.url.clone()),
            active: checked.active.unwrap_or(webhook.active),
            events: checked.events.unwrap_or_else(|| webhook.events.clone()),
            headers: checked.headers.unwrap_or_else(|| webhook.headers.clone()),
            disabled_reason: if checked.active == Some(true) {
                None
            } else {
                webhook.disabled_reason.clone()
            },
            updated_at: now,
            ..webhook.clone()
        })
    }
}

/// A create without `url`.
fn blank_url() -> FieldError {
    FieldError::new(
        Field::Other("url"),
        ValidationCode::Blank,
        "must not be blank",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Timestamp {
        Timestamp::from_datetime(time::macros::datetime!(2026-11-23 10:00 UTC))
    }

    fn header(name: &str, value: &str) -> WebhookHeader {
        WebhookHeader {
            name: name.to_owned(),
            value: value.to_owned(),
        }
    }

    fn problems(errors: Vec<FieldError>) -> Vec<(&'static str, Option<usize>, ValidationCode)> {
        errors
            .into_iter()
            .map(|e| (e.field.attribute(), e.field.index(), e.code))
            .collect()
    }

    #[test]
    fn a_create_defaults_to_active_and_every_event_with_a_fresh_secret() {
        let draft = WebhookDraft {
            url: Some("https://hooks.example.com/t".to_owned()),
            ..WebhookDraft::default()
        };
        let account = AccountId::new();
        let one = draft
            .clone()
            .create(account, &Networks::public_only(), now())
            .expect("valid");
        let two = draft
            .create(account, &Networks::public_only(), now())
            .expect("valid");
        assert!(one.active);
        assert!(one.events.is_empty(), "no events named: every event");
        assert_ne!(one.secret, two.secret);
        assert_ne!(one.id, two.id);
    }

    #[test]
    fn every_problem_of_a_create_is_reported_with_its_field() {
        let draft = WebhookDraft {
            url: Some("http://169.254.169.254/".to_owned()),
            active: None,
            events: Some(vec![
                "container.created".to_owned(),
                "container.exploded".to_owned(),
            ]),
            headers: Some(vec![
                header("X-Team", "ops"),
                header("webhook-signature", "forged"),
                header("Bad Name", "x"),
                header("X-Line", "a\r\nInjected: 1"),
                header("x-team", "again"),
            ]),
        };
        let errors = draft
            .create(AccountId::new(), &Networks::public_only(), now())
            .expect_err("invalid");
        assert_eq!(
            problems(errors),
            vec![
                ("url", None, ValidationCode::Invalid),
                ("events", Some(1), ValidationCode::Invalid),
                ("headers", Some(1), ValidationCode::Invalid),
                ("headers", Some(2), ValidationCode::Invalid),
                ("headers", Some(3), ValidationCode::Invalid),
                ("headers", Some(4), ValidationCode::Invalid),
            ]
        );
        let blank = WebhookDraft::default()
            .create(AccountId::new(), &Networks::public_only(), now())
            .expect_err("no url");
        assert_eq!(problems(blank), vec![("url", None, ValidationCode::Blank)]);
        let many = WebhookDraft {
            url: Some("https://example.com".to_owned()),
            headers: Some((0..11).map(|i| header(&format!("X-{i}"), "v")).collect()),
            ..WebhookDraft::default()
        };
        let errors = many
            .create(AccountId::new(), &Networks::public_only(), now())
            .expect_err("too many");
        assert_eq!(
            problems(errors),
            vec![("headers", None, ValidationCode::TooMany)]
        );
    }

    #[test]
    fn a_change_keeps_what_it_does_not_name_and_reactivating_clears_the_reason() {
        let mut webhook = WebhookDraft {
            url: Some("https://example.com/a".to_owned()),
            events: Some(vec![
                "container.created".to_owned(),
                "container.created".to_owned(),
            ]),
            ..WebhookDraft::default()
        }
        .create(AccountId::new(), &Networks::public_only(), now())
        .expect("valid");
        assert_eq!(webhook.events, vec!["container.created".to_owned()]);
        webhook.active = false;
        webhook.disabled_reason = Some("the receiver answered 410 Gone".to_owned());

        let renamed = WebhookDraft {
            url: Some("https://example.com/b".to_owned()),
            ..WebhookDraft::default()
        }
        .apply(&webhook, &Networks::public_only(), now())
        .expect("valid");
        assert_eq!(renamed.url.as_str(), "https://example.com/b");
        assert_eq!(renamed.events, webhook.events);
        assert!(!renamed.active);
        assert!(renamed.disabled_reason.is_some());
        assert_eq!(renamed.secret, webhook.secret);

        let on = WebhookDraft {
            active: Some(true),
            ..WebhookDraft::default()
        }
        .apply(&webhook, &Networks::public_only(), now())
        .expect("valid");
        assert!(on.active);
        assert_eq!(on.disabled_reason, None);
    }
}
