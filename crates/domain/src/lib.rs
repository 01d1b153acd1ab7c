//! Tidemark's domain: the pure logic of ocean shipment tracking, free of I/O.
//!
//! Everything that arrives from outside is parsed into the types of this crate
//! (`Scac`, `RequestNumber`, `ContainerNumber`, …) before it reaches storage,
//! so the rest of the system never handles a raw string it has not checked.

pub mod account;
pub mod carriers;
pub mod clock;
pub mod codes;
pub mod container_number;
pub mod coverage;
pub mod custom_field;
pub mod events;
pub mod gazetteer;
pub mod idempotency;
pub mod ids;
pub mod inference;
pub mod jobs;
pub mod lifecycle;
pub mod limits;
pub mod local_time;
pub mod number_shapes;
pub mod party;
pub mod quota;
pub mod rate;
pub mod raw_event;
pub mod request_number;
pub mod retry_after;
pub mod scac;
mod shared_secret;
pub mod shipment;
pub mod snapshot;
pub mod terminal;
pub mod timestamp;
pub mod tracking;
pub mod tracking_request;
pub mod tracking_request_input;
pub mod validation;
pub mod vessel;
pub mod webhook;

pub use account::{Account, AccountName, ApiKey, ApiKeyRecord, ApiKeySecret};
pub use carriers::{Carrier, CarrierMatrix, Lessor, MatrixError};
pub use clock::{Clock, ManualClock, SystemClock};
pub use container_number::ContainerNumber;
pub use coverage::{Coverage, LineEndpoint, LineSource, SandboxScope};
pub use events::{DomainEvent, EventDetail, EventName, Subject};
pub use ids::{
    AccountId, ApiKeyId, ContainerId, CustomFieldDefinitionId, CustomFieldId, CustomFieldOptionId,
    DomainEventId, JobId, PartyId, RawEventId, ShipmentId, TrackingRequestId, TransportEventId,
    WebhookId, WebhookNotificationId,
};
pub use inference::{
    AutoDetectFailure, Candidate, Confidence, Decision, Evidence, Inference, NumberType,
    auto_detect, infer,
};
pub use jobs::{ClaimedJob, JobKind, NewJob};
pub use limits::Limits;
pub use number_shapes::{Shape, ShapeType};
pub use party::{CompanyName, Party};
pub use raw_event::{CarrierEvent, CarrierEventType, ContainerEvents, EventClassifier, RawEvent};
pub use request_number::{RequestNumber, RequestType};
pub use scac::Scac;
pub use shipment::{
    CarrierPush, Container, ContainerDetails, Equipment, PushSecret, Reference, ReferenceKind,
    Route, Shipment, StopReason, Tracked, TrackingSource, TransportEvent, TransportEventKind,
};
pub use snapshot::{
    CallView, ContainerStatus, ContainerView, Estimate, LookupOutcome, Milestone, MilestoneEvent,
    Place, Snapshot, TemporaryReason, VesselRef,
};
pub use timestamp::Timestamp;
pub use tracking_request::{FailedReason, RequestStatus, TrackingRequest};
pub use tracking_request_input::{NewTrackingRequest, TrackingRequestDraft, TrackingRequestPatch};
pub use validation::{Field, FieldError, ValidationCode};
