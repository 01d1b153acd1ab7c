//! The documents the callbacks take and answer, as the OpenAPI document shows them (the
//! bodies are read by the workers, not deserialized here).

use serde_json::Value;
use utoipa::ToSchema;

/// DCSA's `PostArrivalNoticesRequest`: the notices, each an `ArrivalNotice` of the standard.
#[derive(Debug, ToSchema)]
#[schema(as = DcsaArrivalNotices)]
pub struct NoticesPush {
    /// The notices; at most 1,000.
    #[schema(rename = "arrivalNotices", value_type = Vec<Object>, max_items = 1000)]
    pub arrival_notices: Vec<Value>,
}

/// DCSA's `PostArrivalNoticeNotificationsRequest`: each `{issueDateTime,
/// transportDocumentReference}`.
#[derive(Debug, ToSchema)]
#[schema(as = DcsaArrivalNoticeNotifications)]
pub struct NotificationsPush {
    /// The notifications; at most 1,000.
    #[schema(rename = "arrivalNoticeNotifications", value_type = Vec<Object>, max_items = 1000)]
    pub arrival_notice_notifications: Vec<Value>,
}

/// A terminal's answer pushed to a subscription (`docs/terminals.md`, "The answer").
#[derive(Debug, ToSchema)]
#[schema(as = TerminalAnswerPush)]
pub struct AvailabilityPush {
    /// When the terminal looked.
    #[schema(rename = "checkedAt", format = DateTime)]
    pub checked_at: Option<String>,
    /// One entry per container, as the protocol's answer has them; at most 100.
    #[schema(value_type = Vec<Object>, max_items = 100)]
    pub containers: Vec<Value>,
}

/// What Tidemark made of a terminal's push.
#[derive(Debug, ToSchema)]
#[schema(as = TerminalPushReceipt)]
pub struct AvailabilityReceipt {
    /// The containers the terminal knew.
    pub containers: u64,
    /// The open tracking requests following any of them.
    #[schema(rename = "trackingRequests")]
    pub tracking_requests: u64,
    /// Of those, how many took the answer.
    pub applied: u64,
}

/// DCSA's `feedbackElements` answer (`PostArrivalNoticesResponse`, `PostArrivalNoticesError`).
#[derive(Debug, ToSchema)]
#[schema(as = DcsaFeedback)]
pub struct Feedback {
    /// One element per object not processed, or on how one was; `propertyPath` names it.
    #[schema(rename = "feedbackElements")]
    pub feedback_elements: Vec<FeedbackElement>,
}

/// One `FeedbackElement`.
#[derive(Debug, ToSchema)]
#[schema(as = DcsaFeedbackElement)]
pub struct FeedbackElement {
    /// `ERROR`, `WARN` or `INFO`.
    #[schema(pattern = "^(ERROR|WARN|INFO)$")]
    pub severity: String,
    /// What happened.
    pub message: String,
    /// The JSONPath of the object concerned, e.g. `$.arrivalNotices[2]`.
    #[schema(rename = "propertyPath")]
    pub property_path: Option<String>,
}
