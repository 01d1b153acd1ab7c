//! `GET /v2/events` query parameters (DCSA T&T 2.2): parsing with the spec's limits, and
//! matching events. Filters combine with AND; the values of one filter (comma-separated)
//! with OR. An event without the filtered field does not match.

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::world::Reference;

const EVENT_TYPES: &[&str] = &["SHIPMENT", "TRANSPORT", "EQUIPMENT"];
const SHIPMENT_CODES: &[&str] = &[
    "RECE", "DRFT", "PENA", "PENU", "REJE", "APPR", "ISSU", "SURR", "SUBM", "VOID", "CONF", "REQS",
    "CMPL", "HOLD", "RELS",
];
const DOCUMENT_TYPES: &[&str] = &[
    "CBR", "BKG", "SHI", "SRM", "TRD", "ARN", "VGM", "CAS", "CUS", "DGD", "OOG",
];
const TRANSPORT_CODES: &[&str] = &["ARRI", "DEPA"];
const EQUIPMENT_CODES: &[&str] = &[
    "LOAD", "DISC", "GTIN", "GTOT", "STUF", "STRP", "PICK", "DROP", "INSP", "RSEA", "RMVD",
];

/// Largest `limit` accepted.
pub const MAX_LIMIT: usize = 1000;

/// A refused query: the DCSA error's `reason` and `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// Short reason, e.g. `invalidQuery`.
    pub reason: &'static str,
    /// What is wrong.
    pub message: String,
}

fn invalid(message: impl Into<String>) -> Invalid {
    Invalid {
        reason: "invalidQuery",
        message: message.into(),
    }
}

/// A comparison on `eventCreatedDateTime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Comparison {
    Gte,
    Gt,
    Lte,
    Lt,
    Eq,
}

/// Sort order of the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    by_event_date: bool,
    descending: bool,
}

/// A parsed query.
#[derive(Debug, Clone, Default)]
pub struct EventQuery {
    lists: Vec<(&'static str, Vec<String>)>,
    values: Vec<(&'static str, String)>,
    created: Vec<(Comparison, OffsetDateTime)>,
    /// The shipment references named, in the order booking, document, equipment.
    pub references: Vec<Reference>,
    /// Page size.
    pub limit: usize,
    /// Where the page starts.
    pub offset: usize,
    /// Whether a cursor was given (a later page, not a new lookup).
    pub has_cursor: bool,
    sort: Option<Sort>,
    /// The parameters other than `cursor`, for `Next-Page` URLs.
    pub passthrough: Vec<(String, String)>,
}

fn list(value: &str, allowed: &[&str], name: &str) -> Result<Vec<String>, Invalid> {
    let items: Vec<String> = value
        .split(',')
        .map(|item| item.trim().to_owned())
        .filter(|item| !item.is_empty())
        .collect();
    if items.is_empty() {
        return Err(invalid(format!("{name} is empty")));
    }
    if let Some(bad) = items.iter().find(|item| !allowed.contains(&item.as_str())) {
        return Err(invalid(format!(
            "{name}: {bad:?} is not one of {}",
            allowed.join(", ")
        )));
    }
    Ok(items)
}

fn bounded(value: &str, name: &str, max: usize) -> Result<String, Invalid> {
    if value.is_empty() {
        return Err(invalid(format!("{name} is empty")));
    }
    if value.chars().count() > max {
        return Err(invalid(format!("{name} is longer than {max} characters")));
    }
    Ok(value.to_owned())
}

/// The opaque cursor of the page starting at `offset`.
#[must_use]
pub fn cursor(offset: usize) -> String {
    format!("o{offset}")
}

impl EventQuery {
    /// Parses a raw query string.
    ///
    /// # Errors
    /// A DCSA `invalidQuery` for unknown values, over-long references, a bad `limit`,
    /// `cursor`, `sort` or date, or a query naming no shipment reference.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let mut query = Self {
            limit: 100,
            ..Self::default()
        };
        let mut seen: Vec<String> = Vec::new();
        for (key, value) in form_urlencoded::parse(raw.as_bytes()) {
            let (key, value) = (key.into_owned(), value.into_owned());
            if seen.contains(&key) && !key.starts_with("eventCreatedDateTime") {
                return Err(invalid(format!(
                    "{key} is given twice; separate values with commas"
                )));
            }
            seen.push(key.clone());
            if key != "cursor" {
                query.passthrough.push((key.clone(), value.clone()));
            }
            query.apply(&key, &value)?;
        }
        if query.references.is_empty() {
            return Err(invalid(
                "name the shipment: carrierBookingReference, transportDocumentReference or equipmentReference",
            ));
        }
        query.references.sort_by_key(|reference| match reference {
            Reference::Booking(_) => 0,
            Reference::TransportDocument(_) => 1,
            Reference::Equipment(_) => 2,
        });
        Ok(query)
    }

    fn apply(&mut self, key: &str, value: &str) -> Result<(), Invalid> {
        match key {
            "eventType" => self
                .lists
                .push(("eventType", list(value, EVENT_TYPES, key)?)),
            "shipmentEventTypeCode" => self
                .lists
                .push(("shipmentEventTypeCode", list(value, SHIPMENT_CODES, key)?)),
            "documentTypeCode" => self
                .lists
                .push(("documentTypeCode", list(value, DOCUMENT_TYPES, key)?)),
            "transportEventTypeCode" => self
                .lists
                .push(("transportEventTypeCode", list(value, TRANSPORT_CODES, key)?)),
            "equipmentEventTypeCode" => self
                .lists
                .push(("equipmentEventTypeCode", list(value, EQUIPMENT_CODES, key)?)),
            // `bookingReference` and `transportDocumentID` are the deprecated names.
            "carrierBookingReference" | "bookingReference" => self
                .references
                .push(Reference::Booking(bounded(value, key, 35)?)),
            "transportDocumentReference" | "transportDocumentID" => self
                .references
                .push(Reference::TransportDocument(bounded(value, key, 20)?)),
            "equipmentReference" => self
                .references
                .push(Reference::Equipment(bounded(value, key, 15)?)),
            "transportCallID" => self
                .values
                .push(("transportCallID", bounded(value, key, 100)?)),
            "vesselIMONumber" => self
                .values
                .push(("vesselIMONumber", bounded(value, key, 7)?)),
            // `carrierVoyageNumber` is the deprecated name of the export voyage.
            "exportVoyageNumber" | "carrierVoyageNumber" => self
                .values
                .push(("exportVoyageNumber", bounded(value, key, 50)?)),
            // Deprecated; the simulator's events carry no schedule ids, so nothing matches.
            "scheduleID" => self.values.push(("scheduleID", bounded(value, key, 100)?)),
            "carrierServiceCode" => self
                .values
                .push(("carrierServiceCode", bounded(value, key, 5)?)),
            "UNLocationCode" => self
                .values
                .push(("UNLocationCode", bounded(value, key, 5)?)),
            "limit" => {
                self.limit = value
                    .parse()
                    .ok()
                    .filter(|limit| (1..=MAX_LIMIT).contains(limit))
                    .ok_or_else(|| invalid(format!("limit must be 1 to {MAX_LIMIT}")))?;
            }
            "cursor" => {
                self.offset = value
                    .strip_prefix('o')
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| invalid("cursor is not one this server gave"))?;
                self.has_cursor = true;
            }
            "sort" => self.sort = Some(sort(value)?),
            _ if key.starts_with("eventCreatedDateTime") => self.created.push(created(key, value)?),
            // Unknown parameters are ignored, as the DCSA reference implementation does.
            _ => {}
        }
        Ok(())
    }

    /// Whether `event` passes every filter (the references included).
    #[must_use]
    pub fn matches(&self, event: &Value) -> bool {
        let text = |field: &str| event.get(field).and_then(Value::as_str);
        let call = event.get("transportCall");
        let in_call = |field: &str| call.and_then(|c| c.get(field)).and_then(Value::as_str);
        let lists_match = self.lists.iter().all(|(field, allowed)| {
            text(field).is_some_and(|value| allowed.iter().any(|a| a == value))
        });
        let values_match = self.values.iter().all(|(field, wanted)| {
            let found = match *field {
                "vesselIMONumber" => call
                    .and_then(|c| c.get("vessel"))
                    .and_then(|v| v.get("vesselIMONumber"))
                    .and_then(Value::as_str),
                "scheduleID" => text("scheduleID"),
                "UNLocationCode" => in_call("UNLocationCode").or_else(|| {
                    event
                        .get("eventLocation")
                        .and_then(|l| l.get("UNLocationCode"))
                        .and_then(Value::as_str)
                }),
                other => in_call(other),
            };
            found == Some(wanted.as_str())
        });
        let created =
            text("eventCreatedDateTime").and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok());
        let created_match = self.created.iter().all(|(comparison, bound)| {
            created.is_some_and(|at| match comparison {
                Comparison::Gte => at >= *bound,
                Comparison::Gt => at > *bound,
                Comparison::Lte => at <= *bound,
                Comparison::Lt => at < *bound,
                Comparison::Eq => at == *bound,
            })
        });
        lists_match
            && values_match
            && created_match
            && self.references.iter().all(|r| references(event, r))
    }

    /// Sorts the matching events as asked (creation order when not asked).
    pub fn sort(&self, events: &mut [Value]) {
        let sort = self.sort.unwrap_or(Sort {
            by_event_date: false,
            descending: false,
        });
        let field = if sort.by_event_date {
            "eventDateTime"
        } else {
            "eventCreatedDateTime"
        };
        let key = |event: &Value| {
            event
                .get(field)
                .and_then(Value::as_str)
                .and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok())
        };
        events.sort_by_key(key);
        if sort.descending {
            events.reverse();
        }
    }
}

/// Whether an event concerns a shipment reference.
fn references(event: &Value, reference: &Reference) -> bool {
    let (types, value): (&[&str], &str) = match reference {
        Reference::Booking(value) => (&["BKG", "CBR"], value),
        Reference::TransportDocument(value) => (&["TRD"], value),
        Reference::Equipment(value) => {
            return event.get("equipmentReference").and_then(Value::as_str) == Some(value);
        }
    };
    let document = event.get("documentTypeCode").and_then(Value::as_str);
    let own = document.is_some_and(|d| types.contains(&d))
        && event.get("documentID").and_then(Value::as_str) == Some(value);
    let referenced = event
        .get("documentReferences")
        .and_then(Value::as_array)
        .is_some_and(|refs| {
            refs.iter().any(|r| {
                r.get("documentReferenceType")
                    .and_then(Value::as_str)
                    .is_some_and(|t| types.contains(&t))
                    && r.get("documentReferenceValue").and_then(Value::as_str) == Some(value)
            })
        });
    own || referenced
}

/// `sort=field[:ASC|DESC]`.
fn sort(value: &str) -> Result<Sort, Invalid> {
    let (field, direction) = value.split_once(':').unwrap_or((value, "ASC"));
    let by_event_date = match field {
        "eventCreatedDateTime" => false,
        "eventDateTime" => true,
        _ => return Err(invalid("sort by eventCreatedDateTime or eventDateTime")),
    };
    let descending = match direction {
        "ASC" => false,
        "DESC" => true,
        _ => return Err(invalid("sort direction is ASC or DESC")),
    };
    Ok(Sort {
        by_event_date,
        descending,
    })
}

/// `eventCreatedDateTime[:op]=time`.
fn created(key: &str, value: &str) -> Result<(Comparison, OffsetDateTime), Invalid> {
    let comparison = match key.strip_prefix("eventCreatedDateTime") {
        Some("" | ":eq") => Comparison::Eq,
        Some(":gte") => Comparison::Gte,
        Some(":gt") => Comparison::Gt,
        Some(":lte") => Comparison::Lte,
        Some(":lt") => Comparison::Lt,
        _ => return Err(invalid(format!("{key} is not a known operator"))),
    };
    let at = OffsetDateTime::parse(value, &Rfc3339)
        .map_err(|_| invalid(format!("{key} is not an RFC 3339 date-time")))?;
    Ok((comparison, at))
}

#[cfg(test)]
mod tests;
