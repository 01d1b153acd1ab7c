//! Identifiers of Tidemark's resources: UUID v7, so they sort by creation time.

use std::fmt;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(Uuid);

        impl $name {
            /// A fresh identifier; v7 UUIDs sort by their creation time.
            #[must_use]
            pub fn new() -> Self {
                Self(Uuid::now_v7())
            }

            /// Wraps an identifier read back from storage.
            #[must_use]
            pub const fn from_uuid(uuid: Uuid) -> Self {
                Self(uuid)
            }

            /// Parses an identifier from a path segment; `None` for anything that
            /// is not a UUID (the API answers such ids with 404).
            #[must_use]
            pub fn parse(text: &str) -> Option<Self> {
                Uuid::try_parse(text).ok().map(Self)
            }

            /// The UUID inside.
            #[must_use]
            pub const fn as_uuid(&self) -> Uuid {
                self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.hyphenated().fmt(f)
            }
        }
    };
}

uuid_id!(
    /// The account that owns keys and tracking requests; every query is scoped by it.
    AccountId
);
uuid_id!(
    /// A job of the work queue (a lookup, a refresh …).
    JobId
);
uuid_id!(
    /// One API key of an account.
    ApiKeyId
);
uuid_id!(
    /// One tracking request.
    TrackingRequestId
);
uuid_id!(
    /// A shipment found for a tracking request.
    ShipmentId
);
uuid_id!(
    /// A container of a shipment.
    ContainerId
);
uuid_id!(
    /// One recorded transport event of a container.
    TransportEventId
);
uuid_id!(
    /// One carrier event kept for a container, as the carrier reported it.
    RawEventId
);
uuid_id!(
    /// One recorded domain event (the outbox of webhook notifications).
    DomainEventId
);

uuid_id!(
    /// A webhook subscription.
    WebhookId
);
uuid_id!(
    /// A client's customer (the reference API's party).
    PartyId
);
uuid_id!(
    /// One domain event's delivery to one webhook; the `webhook-id` header of every attempt.
    WebhookNotificationId
);
uuid_id!(
    /// A custom field an account defines for its shipments, containers or requests.
    CustomFieldDefinitionId
);
uuid_id!(
    /// A choice of an `enum` or `enum_multi` custom field.
    CustomFieldOptionId
);
uuid_id!(
    /// A custom field's value on one record.
    CustomFieldId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_their_display_form_and_reject_garbage() {
        let id = TrackingRequestId::new();
        assert_eq!(TrackingRequestId::parse(&id.to_string()), Some(id));
        assert_eq!(TrackingRequestId::parse("not-a-uuid"), None);
        assert_eq!(TrackingRequestId::parse(""), None);
    }

    #[test]
    fn later_ids_sort_after_earlier_ones() {
        let first = AccountId::new();
        let second = AccountId::new();
        assert!(first < second);
    }
}
