//! The records a webhook notification carries in `included` (compat-api.md §4.3), rendered
//! with the same views clients read, when the event is recorded.
//!
//! | event | included |
//! |---|---|
//! | `tracking_request.succeeded` | containers, shipment, tracking_request |
//! | `tracking_request.failed`, `.awaiting_manifest` | tracking_request |
//! | `tracking_request.tracking_stopped` | shipment, tracking_request |
//! | `container.transport.*` | shipment, container, transport_event, port, terminal, vessel |
//! | `shipment.estimated.arrival` | shipment, port, estimated_event |
//! | `shipment.predicted_arrival.diverged` (Tidemark's own) | shipment |
//! | `container.updated` | shipment, port, terminal, container, container_updated_event |
//! | `container.created` | shipment, container, container_created_event |
//! | `container.pod_terminal_changed` | shipment, container, terminal, container_pod_terminal_changed_event |
//! | `container.pickup_lfd.changed` | shipment, container, port, terminal, transport_event (`value`: the new day) |
//! | `container.pickup_lfd_{line,terminal,rail}.changed`, `container.pickup_appointment.changed` | transport_event |
//! | `container.transport.available`, `.not_available` | nothing (no `included` member) |
//!
//! A record the event does not know (no terminal named, say) is left out.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};
use tidemark_domain::lifecycle::RequestEvent;
use tidemark_domain::terminal::{DataSource, TerminalEvent};
use tidemark_domain::webhook::payload::{Records, Render};
use tidemark_domain::{
    CarrierMatrix, Container, ContainerId, DomainEvent, EventName, Place, Reference, Subject,
    Tracked, TransportEvent,
};

use crate::container as container_view;
use crate::document::ToOne;
use crate::shipment as shipment_view;
use crate::{reference as reference_data, tracking_request};

/// Renders the `included` records of notifications.
#[derive(Debug, Clone)]
pub struct EventRecords {
    carriers: Arc<CarrierMatrix>,
    base: Option<Arc<str>>,
}

impl EventRecords {
    /// Renders with the carrier names of `carriers`, links as paths (or under the base of
    /// the answer being rendered, when there is one).
    #[must_use]
    pub const fn new(carriers: Arc<CarrierMatrix>) -> Self {
        Self {
            carriers,
            base: None,
        }
    }

    /// Renders links under `base` (the configured public URL), when given.
    #[must_use]
    pub fn under(mut self, base: Option<&str>) -> Self {
        self.base = base.map(Arc::from);
        self
    }
}

fn value(resource: &impl Serialize) -> Value {
    serde_json::to_value(resource).unwrap_or(Value::Null)
}

/// Collects resources in the order of the table above.
struct Out<'a> {
    records: &'a Records<'a>,
    carriers: &'a CarrierMatrix,
    items: Vec<Value>,
}

impl Out<'_> {
    fn tracked(&self) -> Option<&Tracked> {
        self.records.tracked
    }

    fn shipment(&mut self) {
        if let Some(tracked) = self.records.tracked {
            let containers: Vec<&Container> = tracked.containers.iter().collect();
            let mut resource =
                shipment_view::resource(&tracked.shipment, &containers, self.carriers);
            resource.attributes.customer_name = self.records.customer_name.map(str::to_owned);
            self.items.push(value(&resource));
        }
    }

    fn container(&mut self, id: ContainerId) {
        if let Some(tracked) = self.records.tracked
            && let Some(container) = tracked.containers.iter().find(|c| c.id == id)
        {
            self.items.push(value(&container_view::resource(
                container,
                tracked.shipment.last_attempted_at,
            )));
        }
    }

    fn request(&mut self) {
        self.items
            .push(value(&tracking_request::resource(self.records.request)));
    }

    fn port(&mut self, place: Option<&Place>) {
        if let Some(place) = place {
            let terminals: Vec<Reference> = Reference::terminal(place).into_iter().collect();
            self.items.push(value(&reference_data::port(
                &Reference::port(place),
                &terminals,
            )));
        }
    }

    fn terminal(&mut self, place: Option<&Place>) {
        if let Some(terminal) = place.and_then(Reference::terminal) {
            self.items.push(value(&reference_data::terminal(&terminal)));
        }
    }

    fn pod(&self) -> Option<&Place> {
        self.tracked()
            .and_then(|t| t.shipment.route.port_of_discharge.as_ref())
    }

    fn transport(&mut self, event: &TransportEvent) {
        self.shipment();
        self.container(event.container_id);
        let raw = self.tracked().map_or(&[][..], |t| t.raw_events.as_slice());
        self.items
            .push(value(&container_view::transport_event(event, raw)));
        self.port(event.location.as_ref());
        self.terminal(event.location.as_ref());
        if let Some(vessel) = &event.vessel {
            self.items.push(value(&reference_data::vessel(
                &Reference::vessel(vessel),
                None,
                None,
            )));
        }
    }

    /// An event resource of its own (`estimated_event`, `container_*_event`), its time in
    /// the zone of the shipment's port of discharge, where the change happened.
    fn change(&mut self, kind: &str, event: &DomainEvent, attributes: Value, relationships: Value) {
        let mut attributes = attributes;
        let zone = crate::time_zone(self.pod().map(|pod| pod.locode.as_str()));
        if let Value::Object(fields) = &mut attributes {
            fields.insert("timestamp".into(), json!(event.created_at.to_string()));
            fields.insert("timezone".into(), json!(zone));
            fields.insert("created_at".into(), json!(event.created_at.to_string()));
        }
        self.items.push(json!({
            "id": event.id.to_string(),
            "type": kind,
            "attributes": attributes,
            "relationships": relationships,
        }));
    }
}

/// Who an event's change comes from: the line unless the event says otherwise.
fn data_source(event: &DomainEvent) -> &'static str {
    event
        .detail
        .data_source
        .map_or(DataSource::ShippingLine.as_str(), DataSource::as_str)
}

fn to_one(kind: &str, id: Option<uuid::Uuid>) -> Value {
    json!({"data": id.map(|id| json!({"id": id.to_string(), "type": kind}))})
}

impl Out<'_> {
    /// The records of a new estimated arrival: the shipment, its port of discharge and the
    /// estimate as a change record.
    fn estimated_arrival(&mut self, event: &DomainEvent, shipment_id: Option<uuid::Uuid>) {
        self.shipment();
        let pod = self.pod().cloned();
        self.port(pod.as_ref());
        let locode = event.detail.location_locode.clone();
        let voyage = self
            .records
            .tracked
            .and_then(|t| t.shipment.route.pod_voyage_number.clone());
        self.change(
            "estimated_event",
            event,
            json!({
                "event": event.name.name(),
                "estimated_timestamp": event.detail.estimated_timestamp.map(|at| at.to_string()),
                "location_locode": locode,
                "voyage_number": voyage,
                "data_source": "shipping_line",
            }),
            json!({
                "shipment": to_one("shipment", shipment_id),
                "port": ToOne::port(locode.as_deref()),
            }),
        );
    }

    /// The records of a change of terminal of discharge: the shipment, the container, the
    /// new terminal and the change with who made it.
    fn pod_terminal_changed(
        &mut self,
        event: &DomainEvent,
        id: ContainerId,
        shipment_id: Option<uuid::Uuid>,
    ) {
        self.shipment();
        self.container(id);
        let code = self
            .tracked()
            .and_then(|t| t.containers.iter().find(|c| c.id == id))
            .and_then(|c| c.terminal.pod_terminal.as_ref())
            .map(|terminal| terminal.code.clone());
        let place = code
            .as_ref()
            .zip(self.pod().cloned())
            .map(|(code, pod)| Place {
                facility: Some(code.clone()),
                ..pod
            });
        self.terminal(place.as_ref());
        self.change(
            "container_pod_terminal_changed_event",
            event,
            json!({"data_source": data_source(event)}),
            json!({
                "container": to_one("container", Some(id.as_uuid())),
                "shipment": to_one("shipment", shipment_id),
                "terminal": ToOne::terminal(code.as_deref()),
            }),
        );
    }

    /// The records of a container's change: the shipment, its port and terminal of
    /// discharge, the container and the changeset.
    fn container_updated(
        &mut self,
        event: &DomainEvent,
        id: ContainerId,
        shipment_id: Option<uuid::Uuid>,
    ) {
        self.shipment();
        let pod = self.pod().cloned();
        self.port(pod.as_ref());
        self.terminal(pod.as_ref());
        self.container(id);
        let terminal = pod.as_ref().and_then(|p| p.facility.as_deref());
        self.change(
            "container_updated_event",
            event,
            json!({"changeset": event.detail.changeset, "data_source": data_source(event)}),
            json!({
                "container": to_one("container", Some(id.as_uuid())),
                "terminal": ToOne::terminal(terminal),
                "shipment": to_one("shipment", shipment_id),
            }),
        );
    }
}

impl Out<'_> {
    /// The records of a last free day or appointment change: the change as a
    /// `transport_event` whose `value` is the new date, after the shipment, the container
    /// and its port and terminal of discharge for `container.pickup_lfd.changed`.
    fn terminal_date(
        &mut self,
        event: &DomainEvent,
        id: ContainerId,
        shipment_id: Option<uuid::Uuid>,
        full: bool,
    ) {
        let pod = self.pod().cloned();
        if full {
            self.shipment();
            self.container(id);
            self.port(pod.as_ref());
            self.terminal(pod.as_ref());
        }
        let locode = pod.as_ref().map(|place| place.locode.clone());
        let terminal = pod.as_ref().and_then(|place| place.facility.as_deref());
        self.items.push(json!({
            "id": event.id.to_string(),
            "type": "transport_event",
            "attributes": {
                "event": event.name.name(),
                "timestamp": event.created_at.to_string(),
                "timezone": crate::time_zone(locode.as_deref()),
                "location_locode": locode,
                "voyage_number": Value::Null,
                "data_source": data_source(event),
                "value": event.detail.value.map(|at| at.to_string()),
                "created_at": event.created_at.to_string(),
            },
            "relationships": {
                "shipment": to_one("shipment", shipment_id),
                "container": to_one("container", Some(id.as_uuid())),
                "location": ToOne::port(locode.as_deref()),
                "terminal": ToOne::terminal(terminal),
            },
        }));
    }
}

impl Render for EventRecords {
    fn included(&self, event: &DomainEvent, records: &Records<'_>) -> Vec<Value> {
        match self.base.as_deref() {
            Some(base) => crate::links::with_base(Some(base), || self.render(event, records)),
            None => self.render(event, records),
        }
    }
}

impl EventRecords {
    fn render(&self, event: &DomainEvent, records: &Records<'_>) -> Vec<Value> {
        let mut out = Out {
            records,
            carriers: &self.carriers,
            items: Vec::new(),
        };
        let shipment_id = records.tracked.map(|t| t.shipment.id.as_uuid());
        match (event.name, event.subject) {
            (EventName::Request(RequestEvent::Succeeded), _) => {
                if let Some(tracked) = records.tracked {
                    for container in &tracked.containers {
                        out.container(container.id);
                    }
                }
                out.shipment();
                out.request();
            }
            (EventName::Request(RequestEvent::TrackingStopped), _) => {
                out.shipment();
                out.request();
            }
            (EventName::Request(_), _) => out.request(),
            (EventName::Transport(_), Subject::TransportEvent(id)) => {
                if let Some(transport) = records
                    .tracked
                    .and_then(|t| t.events.iter().find(|e| e.id == id))
                {
                    out.transport(transport);
                }
            }
            (EventName::ShipmentEstimatedArrival, _) => out.estimated_arrival(event, shipment_id),
            (EventName::ShipmentPredictedArrivalDiverged, _) => out.shipment(),
            (EventName::ContainerUpdated, Subject::Container(id)) => {
                out.container_updated(event, id, shipment_id);
            }
            (EventName::Terminal(TerminalEvent::PodTerminalChanged(_)), Subject::Container(id)) => {
                out.pod_terminal_changed(event, id, shipment_id);
            }
            (
                EventName::Terminal(
                    dated @ (TerminalEvent::PickupLfd
                    | TerminalEvent::PickupLfdLine
                    | TerminalEvent::PickupLfdTerminal
                    | TerminalEvent::PickupLfdRail
                    | TerminalEvent::PickupAppointment),
                ),
                Subject::Container(id),
            ) => out.terminal_date(event, id, shipment_id, dated == TerminalEvent::PickupLfd),
            (EventName::ContainerCreated, Subject::Container(id)) => {
                out.shipment();
                out.container(id);
                out.change(
                    "container_created_event",
                    event,
                    json!({}),
                    json!({
                        "container": to_one("container", Some(id.as_uuid())),
                        "shipment": to_one("shipment", shipment_id),
                    }),
                );
            }
            // A subject the catalog does not pair with this event: nothing to freeze.
            _ => {}
        }
        out.items
    }
}
