//! What a line pushes (DCSA Arrival Notice 1.0.1, subscriber side): `POST /arrival-notices`
//! with `{"arrivalNotices": […]}` and `POST /arrival-notice-notifications` with
//! `{"arrivalNoticeNotifications": […]}`, read into what Tidemark acts on, and the
//! standard's answer (`feedbackElements`, each pointing at the object it concerns) for what
//! it could not read. A push with some unreadable objects is taken for the rest.

use serde::Deserialize;
use serde_json::{Value, json};
use tidemark_domain::Timestamp;

use super::{Notices, model};

/// Longest transport document reference taken (the standard's is 20 characters).
const MAX_REFERENCE: usize = 100;

/// Most objects one push may carry.
pub const MAX_OBJECTS: usize = 1_000;

/// A notice a line pushed, the latest of its bill in the push.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushedNotice {
    /// Its transport document reference (the bill of lading), as the line wrote it.
    pub bill: String,
    /// When it was issued.
    pub issued_at: Timestamp,
    /// What it says of each container.
    pub containers: Notices,
}

/// A line's word that a notice of `bill` is out, to be read from its publisher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// The transport document reference.
    pub bill: String,
    /// When the notice was issued.
    pub issued_at: Timestamp,
}

/// How much a piece of feedback matters (`severity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The object was not processed.
    Error,
    /// Processed, perhaps not as the publisher expects.
    Warn,
    /// How it was processed.
    Info,
}

impl Severity {
    const fn as_str(self) -> &'static str {
        match self {
            Self::Error => "ERROR",
            Self::Warn => "WARN",
            Self::Info => "INFO",
        }
    }
}

/// One `FeedbackElement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// How much it matters.
    pub severity: Severity,
    /// What happened, for a person at the publisher.
    pub message: String,
    /// The JSONPath of the object concerned, if one is.
    pub property_path: Option<String>,
}

impl Feedback {
    /// Feedback on the object at `path`.
    #[must_use]
    pub fn at(severity: Severity, path: &str, message: impl Into<String>) -> Self {
        Self {
            severity,
            message: message.into(),
            property_path: Some(path.to_owned()),
        }
    }

    fn whole(message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            message: message.into(),
            property_path: None,
        }
    }
}

/// The objects read from a push, and the feedback on those that were not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read<T> {
    /// What was read, each with its JSONPath in the push.
    pub items: Vec<(String, T)>,
    /// Why the others were not.
    pub feedback: Vec<Feedback>,
}

impl<T> Read<T> {
    /// Whether nothing in the push could be read (every object refused): the standard's
    /// error answer, rather than a regular one.
    #[must_use]
    pub fn nothing_read(&self) -> bool {
        self.items.is_empty() && !self.feedback.is_empty()
    }
}

/// The answer's body: `{"feedbackElements": […]}` (both `PostArrivalNoticesResponse` and
/// `PostArrivalNoticesError`).
#[must_use]
pub fn answer(feedback: &[Feedback]) -> Value {
    let elements: Vec<Value> = feedback
        .iter()
        .map(|f| {
            let mut element = json!({"severity": f.severity.as_str(), "message": f.message});
            if let (Some(path), Some(object)) = (&f.property_path, element.as_object_mut()) {
                object.insert("propertyPath".to_owned(), Value::String(path.clone()));
            }
            element
        })
        .collect();
    json!({ "feedbackElements": elements })
}

/// The objects of member `member` of a push body, each with its JSONPath.
fn objects(body: &[u8], member: &str) -> Result<Vec<(String, Value)>, Feedback> {
    let mut document: Value = serde_json::from_slice(body)
        .map_err(|error| Feedback::whole(format!("the body is not JSON: {error}")))?;
    // Taken out of the document, not copied: a push may be megabytes.
    let list = match document.get_mut(member).map(Value::take) {
        Some(Value::Array(list)) => list,
        Some(_) => return Err(Feedback::whole(format!("{member} is not an array"))),
        None => return Err(Feedback::whole(format!("the body has no {member}"))),
    };
    if list.len() > MAX_OBJECTS {
        return Err(Feedback::whole(format!(
            "{} objects in {member}; at most {MAX_OBJECTS} are taken in one push",
            list.len()
        )));
    }
    Ok(list
        .into_iter()
        .enumerate()
        .map(|(index, object)| (format!("$.{member}[{index}]"), object))
        .collect())
}

fn reference(raw: &str) -> Result<String, String> {
    let bill = raw.trim();
    if bill.is_empty() || bill.len() > MAX_REFERENCE {
        return Err(format!(
            "transportDocumentReference must have 1 to {MAX_REFERENCE} characters"
        ));
    }
    Ok(bill.to_owned())
}

/// The notices of a `POST /arrival-notices` body, the latest of each bill.
///
/// # Errors
/// A body that is not a list of notices at all.
pub fn read_notices(body: &[u8]) -> Result<Read<PushedNotice>, Feedback> {
    let mut read = Read {
        items: Vec::new(),
        feedback: Vec::new(),
    };
    for (path, object) in objects(body, "arrivalNotices")? {
        let pushed = serde_json::from_value::<model::Notice>(object)
            .map_err(|error| format!("not an arrival notice: {error}"))
            .and_then(|notice| {
                Ok(PushedNotice {
                    bill: reference(notice.reference())?,
                    issued_at: notice.issued_at()?,
                    containers: notice.containers()?,
                })
            });
        match pushed {
            Ok(notice) => keep_latest(&mut read.items, path, notice),
            Err(problem) => read
                .feedback
                .push(Feedback::at(Severity::Error, &path, problem)),
        }
    }
    Ok(read)
}

/// Keeps `notice` unless a notice of its bill issued later is kept already.
fn keep_latest(kept: &mut Vec<(String, PushedNotice)>, path: String, notice: PushedNotice) {
    match kept.iter_mut().find(|(_, k)| k.bill == notice.bill) {
        Some(slot) if slot.1.issued_at < notice.issued_at => *slot = (path, notice),
        Some(_) => {}
        None => kept.push((path, notice)),
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NotificationObject {
    issue_date_time: String,
    transport_document_reference: String,
}

/// The notifications of a `POST /arrival-notice-notifications` body, one per bill.
///
/// # Errors
/// A body that is not a list of notifications at all.
pub fn read_notifications(body: &[u8]) -> Result<Read<Notification>, Feedback> {
    let mut read: Read<Notification> = Read {
        items: Vec::new(),
        feedback: Vec::new(),
    };
    for (path, object) in objects(body, "arrivalNoticeNotifications")? {
        let notification = serde_json::from_value::<NotificationObject>(object)
            .map_err(|error| format!("not an arrival notice notification: {error}"))
            .and_then(|n| {
                Ok(Notification {
                    bill: reference(&n.transport_document_reference)?,
                    issued_at: Timestamp::parse_rfc3339(&n.issue_date_time).map_err(|_| {
                        format!("issueDateTime {:?} is not RFC 3339", n.issue_date_time)
                    })?,
                })
            });
        match notification {
            Ok(n) if read.items.iter().any(|(_, kept)| kept.bill == n.bill) => {}
            Ok(n) => read.items.push((path, n)),
            Err(problem) => read
                .feedback
                .push(Feedback::at(Severity::Error, &path, problem)),
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests;
