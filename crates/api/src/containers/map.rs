//! `GET /v2/containers/{id}/map_geojson` (compat-api.md §3.2): the container's voyage as
//! GeoJSON, as the reference draws it: its ports (`port`, with their times), the vessel it
//! is on where a feed last heard it (`current_vessel`), the path that vessel sailed since
//! the port of loading (`past_vessel_locations`), and the legs ahead over the sea routes
//! (`estimated_partial_leg` from the vessel to its next port, `estimated_full_legs`
//! between the ports after). Without a position of the vessel there is no vessel, no
//! path and no partial leg: the legs ahead start at the last port reached.

use axum::Json;
use serde_json::{Map, Value, json};
use tidemark_domain::gazetteer::Gazetteer;
use tidemark_domain::vessel::HeardVessel;
use tidemark_domain::vessel::voyage::{Stop, Voyage};
use tidemark_domain::{Container, ReferenceKind, Shipment, Timestamp};
use tidemark_wire::map::{Feature, FeatureCollection};

use crate::ApiError;
use crate::auth::Scope;
use crate::found::{Record, missing};
use tidemark_app::voyage::VoyageView;

fn properties(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn port_id(stop: &Stop) -> String {
    ReferenceKind::Port.id(&stop.locode).to_string()
}

/// The port's feature, with the shipment's times where it has them.
fn port(shipment: &Shipment, voyage: &Voyage, (index, stop): (usize, &Stop)) -> Feature {
    let route = &shipment.route;
    let place = Gazetteer::bundled().place(&stop.locode);
    let (first, last) = (index == 0, index + 1 == voyage.stops.len());
    Feature::point(
        (stop.point.lat, stop.point.lon),
        properties(json!({
            "feature_type": "port",
            "ports_sequence": index + 1,
            "ports_total": voyage.stops.len(),
            "location_id": port_id(stop),
            "location_type": "Port",
            "name": place.map(|p| p.name),
            "state_abbr": place.map(|p| p.subdivision).filter(|s| !s.is_empty()),
            "state": null,
            "country_code": place.map(|p| p.country),
            "country": null,
            "time_zone": place.map(|p| p.time_zone),
            "label": stop.label,
            "inbound_eta_at": if last { route.pod_eta_at } else { None },
            "inbound_ata_at": if last { route.pod_ata_at } else { None },
            "outbound_etd_at": if first { route.pol_etd_at } else { None },
            "outbound_atd_at": if first { route.pol_atd_at } else { None },
            "updated_at": shipment.updated_at,
        })),
    )
}

fn leg(points: &[seaways::Point], properties_of_leg: Value) -> Option<Feature> {
    let points: Vec<(f64, f64)> = points.iter().map(|p| (p.lat, p.lon)).collect();
    Feature::line(&points, properties(properties_of_leg))
}

/// The legs ahead as lines: the partial leg from the vessel, the full legs after.
fn legs(view: &VoyageView) -> Vec<Feature> {
    let stops = &view.voyage.stops;
    view.ahead
        .iter()
        .filter_map(|ahead| {
            let properties = match ahead.from {
                None => json!({
                    "feature_type": "estimated_partial_leg",
                    "ports_sequence": ahead.to,
                    "current_port_id": ahead.to.checked_sub(1).map(|i| port_id(&stops[i])),
                    "next_port_id": port_id(&stops[ahead.to]),
                }),
                Some(from) => json!({
                    "feature_type": "estimated_full_legs",
                    "ports_sequence": from + 1,
                    "previous_port_id": port_id(&stops[from]),
                    "next_port_id": port_id(&stops[ahead.to]),
                }),
            };
            leg(ahead.route.points(), properties)
        })
        .collect()
}

/// A container's voyage as GeoJSON.
#[utoipa::path(get, path = "/v2/containers/{id}/map_geojson", operation_id = "getContainerMap", tag = "Containers",
    params(Record<Container>),
    responses((status = 200, description = "The voyage as a GeoJSON FeatureCollection.", content_type = "application/json", body = FeatureCollection)),
)]
pub async fn container_map(
    scope: Scope,
    Record(container): Record<Container>,
) -> Result<Json<FeatureCollection>, ApiError> {
    let account = scope.account();
    let shipment = scope
        .store
        .shipment(account, container.shipment_id)
        .await?
        .ok_or_else(missing::<Container>)?;
    let events = scope
        .store
        .transport_events(account, &[container.id])
        .await?;
    let view = VoyageView::read(scope.store.as_ref(), &shipment, &events).await?;
    let voyage = &view.voyage;
    let mut features: Vec<Feature> = voyage
        .stops
        .iter()
        .enumerate()
        .map(|stop| port(&shipment, voyage, stop))
        .collect();
    if let (Some(vessel), Some(heard), Some(latest)) = (&view.vessel, &view.heard, view.latest()) {
        features.extend(sailed(&shipment, voyage, (vessel, heard), &view.path));
        features.push(current(&shipment, voyage, (vessel, heard), latest.at));
    }
    features.extend(legs(&view));
    Ok(Json(FeatureCollection::of(features)))
}

/// The path the vessel sailed, from its track.
fn sailed(
    shipment: &Shipment,
    voyage: &Voyage,
    (vessel, heard): (&tidemark_domain::VesselRef, &HeardVessel),
    path: &[tidemark_domain::vessel::Position],
) -> Option<Feature> {
    let mut points: Vec<(f64, f64)> = path.iter().map(|p| (p.latitude, p.longitude)).collect();
    if let Some(latest) = heard.position {
        points.push((latest.latitude, latest.longitude));
    }
    let route = &shipment.route;
    Feature::line(
        &points,
        properties(json!({
            "feature_type": "past_vessel_locations",
            "ports_sequence": voyage.next().unwrap_or(voyage.stops.len()).max(1),
            "vessel_id": ReferenceKind::Vessel.id(&vessel.imo).to_string(),
            "start_time": path.first().map(|p| p.at),
            "end_time": heard.position.map(|p| p.at),
            "outbound_atd_at": route.pol_atd_at,
            "inbound_ata_at": route.pod_ata_at,
            "inbound_eta_at": route.pod_eta_at,
        })),
    )
}

/// The vessel where it was last heard, between the ports it sails from and to.
fn current(
    shipment: &Shipment,
    voyage: &Voyage,
    (vessel, heard): (&tidemark_domain::VesselRef, &HeardVessel),
    at: Timestamp,
) -> Feature {
    let next = voyage.next();
    let from = next
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| voyage.stops.get(i));
    let to = next.and_then(|i| voyage.stops.get(i));
    let place =
        |stop: Option<&Stop>| stop.and_then(|stop| Gazetteer::bundled().place(&stop.locode));
    let latest = heard.position;
    Feature::point(
        latest.map_or((0.0, 0.0), |p| (p.latitude, p.longitude)),
        properties(json!({
            "feature_type": "current_vessel",
            "ports_sequence": next.unwrap_or(0),
            "vessel_id": ReferenceKind::Vessel.id(&vessel.imo).to_string(),
            "vessel_name": vessel.name.clone().or_else(|| heard.name.clone()),
            "vessel_imo": vessel.imo,
            "voyage_number": shipment.route.pod_voyage_number,
            "vessel_location_timestamp": at,
            "vessel_location_heading": latest.and_then(|p| p.heading_degrees.or(p.course_degrees)),
            "vessel_location_speed": latest.and_then(|p| p.speed_knots),
            "departure_port_id": from.map(port_id),
            "departure_port_name": place(from).map(|p| p.name),
            "departure_port_country_code": place(from).map(|p| p.country),
            "departure_port_label": from.map(|s| s.label.clone()),
            "departure_port_atd": if from.is_some_and(|s| s.label == "POL") { shipment.route.pol_atd_at } else { None },
            "departure_port_time_zone": place(from).map(|p| p.time_zone),
            "arrival_port_id": to.map(port_id),
            "arrival_port_name": place(to).map(|p| p.name),
            "arrival_port_country_code": place(to).map(|p| p.country),
            "arrival_port_label": to.map(|s| s.label.clone()),
            "arrival_port_eta": if to.is_some_and(|s| s.label == "POD") { shipment.route.pod_eta_at } else { None },
            "arrival_port_time_zone": place(to).map(|p| p.time_zone),
        })),
    )
}
