//! `/v2/shipping_lines`: the carriers of the carrier data matrix (api.md §4).

use axum::Router;
use axum::extract::OriginalUri;
use axum::routing::get;
use serde::Serialize;
use tidemark_domain::{Carrier, Coverage, LineSource, Scac};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Scope;
use crate::document::{Document, JsonApi, ListDocument, One, Page, SelfLink};
use crate::extract::{PathId, QueryParams};
use crate::params::{Paging, list_document, take_page};
use crate::{ApiError, AppState};

/// Namespace of shipping-line ids: a line's id is the UUID v5 of its SCAC, the same on
/// every restart and every node.
const NAMESPACE: Uuid = Uuid::from_u128(0x6f1f_5a3e_9b0c_4d2e_8a71_2c3b_4d5e_6f70);

/// A shipping line's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShippingLineAttributes {
    /// The canonical SCAC.
    pub scac: String,
    /// Full name.
    pub name: String,
    /// Short name.
    pub short_name: String,
    /// Other SCACs accepted in tracking requests for this line.
    pub alternative_scacs: Vec<String>,
    /// Tracks master bills of lading.
    pub bill_of_lading_tracking_support: bool,
    /// Tracks booking numbers.
    pub booking_number_tracking_support: bool,
    /// Tracks container numbers.
    pub container_number_tracking_support: bool,
    /// The reference API's flags of which fields the line provides: Tidemark has no
    /// per-line survey of them (null).
    #[schema(value_type = Option<Object>)]
    pub provided_data: Option<serde_json::Value>,
    /// The line's public tracking page (not in the carrier matrix: null).
    pub tracking_url: Option<String>,
    /// The line's contact page (not in the carrier matrix: null).
    pub contact_url: Option<String>,
    /// Whether this instance can track the line (beyond the reference API).
    pub tracking_available: bool,
    /// Where this instance gets the line's data: `carrier` (its own endpoint), `sandbox`
    /// (the simulator, made-up voyages), or null (it cannot track the line).
    #[schema(pattern = "^(carrier|sandbox)$")]
    pub tracking_source: Option<&'static str>,
    /// The DCSA Track & Trace version spoken to the carrier's endpoint (null otherwise).
    pub tracking_dcsa_version: Option<&'static str>,
    /// How the carrier's endpoint is used: `poll`, or `push` (the carrier pushes its events
    /// to a DCSA 2.2 subscription, polling being the safety net); null without an
    /// endpoint.
    #[schema(pattern = "^(poll|push)$")]
    pub tracking_mode: Option<&'static str>,
    /// The carrier profile the endpoint is configured by (`maersk`, `hapag-lloyd`, …;
    /// `data/carrier-profiles.toml`), or null.
    pub tracking_profile: Option<String>,
    /// How Tidemark authenticates at the endpoint (`api_key keyId`, `oauth2 +
    /// Consumer-Key`, …), without its secrets; null without an endpoint.
    pub tracking_auth_style: Option<String>,
    /// The quota every Tidemark process on this database keeps to together at the
    /// endpoint; null without an endpoint.
    pub tracking_quota: Option<QuotaView>,
}

/// A carrier's quota, as this instance keeps to it.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuotaView {
    /// Calls per second, sustained.
    pub per_second: u32,
    /// Calls at once after a quiet spell.
    pub burst: u32,
    /// Calls per UTC day, or null when not counted.
    pub per_day: Option<u32>,
}

/// A `shipping_line` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingLine)]
pub struct ShippingLineResource {
    /// Its id (a UUID derived from the SCAC).
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `shipping_line`.
    #[serde(rename = "type")]
    #[schema(pattern = "^shipping_line$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: ShippingLineAttributes,
    /// Its own link.
    pub links: SelfLink,
}

fn id(carrier: &Carrier) -> Uuid {
    Uuid::new_v5(&NAMESPACE, carrier.scac.as_str().as_bytes())
}

fn resource(carrier: &Carrier, coverage: &Coverage) -> ShippingLineResource {
    let id = id(carrier);
    let source = coverage.source(carrier.scac);
    let endpoint = source == Some(LineSource::Carrier);
    let described = coverage.endpoint(carrier.scac);
    ShippingLineResource {
        id: id.to_string(),
        type_: "shipping_line",
        attributes: ShippingLineAttributes {
            scac: carrier.scac.to_string(),
            name: carrier.name.clone(),
            short_name: carrier.short_name.clone(),
            alternative_scacs: carrier
                .alternative_scacs
                .iter()
                .map(ToString::to_string)
                .collect(),
            bill_of_lading_tracking_support: carrier.bill_of_lading,
            booking_number_tracking_support: carrier.booking_number,
            container_number_tracking_support: carrier.container,
            provided_data: None,
            tracking_url: None,
            contact_url: None,
            tracking_available: source.is_some(),
            tracking_source: source.map(LineSource::as_str),
            tracking_dcsa_version: described
                .map(|d| d.dcsa_version)
                .or_else(|| endpoint.then_some("2.2")),
            tracking_mode: described
                .map(|d| if d.push { "push" } else { "poll" })
                .or_else(|| endpoint.then_some("poll")),
            tracking_profile: described.and_then(|d| d.profile.clone()),
            tracking_auth_style: described.map(|d| d.auth_style.clone()),
            tracking_quota: described.map(|d| QuotaView {
                per_second: d.quota.per_second.get(),
                burst: d.quota.burst.get(),
                per_day: d.quota.per_day.map(std::num::NonZeroU32::get),
            }),
        },
        links: SelfLink {
            self_: format!("/v2/shipping_lines/{id}"),
        },
    }
}

/// Whether `search` (lower case) is part of the line's SCAC, an alternative SCAC or a name.
fn matches(carrier: &Carrier, search: &str) -> bool {
    let scacs = std::iter::once(&carrier.scac).chain(&carrier.alternative_scacs);
    scacs
        .map(ToString::to_string)
        .chain([carrier.name.clone(), carrier.short_name.clone()])
        .any(|text| text.to_lowercase().contains(search))
}

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/shipping_lines", get(list))
        .route("/v2/shipping_lines/{id}", get(show))
}

/// List the shipping lines Tidemark knows, in matrix order. The default page holds them all.
#[utoipa::path(get, path = "/v2/shipping_lines", operation_id = "listShippingLines", tag = "Shipping lines",
    params(
        Paging,
        ("search" = Option<String>, Query, description = "Part of a SCAC, an alternative SCAC or a name, in any case"),
    ),
    responses((status = 200, description = "A page of shipping lines.", body = ListDocument<ShippingLineResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<ShippingLineResource> {
    let config = crate::ApiConfig {
        page_size_default: scope.config.page_size_max,
        ..(*scope.config).clone()
    };
    let page = take_page(&mut query, &config)?;
    let search = query
        .take("search")
        .map(|text| text.trim().to_lowercase())
        .filter(|text| !text.is_empty());
    query.finish()?;
    let carriers: Vec<&Carrier> = scope
        .carriers
        .carriers()
        .iter()
        .filter(|carrier| search.as_deref().is_none_or(|text| matches(carrier, text)))
        .collect();
    let offset = usize::try_from(page.offset()).unwrap_or(usize::MAX);
    let size = usize::try_from(page.size).unwrap_or(usize::MAX);
    let total = carriers.len() as u64;
    let data = carriers
        .iter()
        .skip(offset)
        .take(size)
        .map(|carrier| resource(carrier, &scope.config.coverage))
        .collect();
    Ok(JsonApi::ok(list_document(
        "/v2/shipping_lines",
        &query,
        page,
        total,
        data,
    )))
}

/// One shipping line, by id or by SCAC (an alternative SCAC finds its line too).
#[utoipa::path(get, path = "/v2/shipping_lines/{id}", operation_id = "getShippingLine", tag = "Shipping lines",
    params(("id" = String, Path, description = "The line's id, or a SCAC")),
    responses((status = 200, description = "The shipping line.", body = Document<ShippingLineResource>)),
)]
pub async fn show(
    scope: Scope,
    PathId(key): PathId,
    uri: OriginalUri,
    query: QueryParams,
) -> One<ShippingLineResource> {
    query.finish()?;
    let carriers = &scope.carriers;
    let found = match Uuid::try_parse(&key) {
        Ok(wanted) => carriers
            .carriers()
            .iter()
            .find(|carrier| id(carrier) == wanted),
        Err(_) => Scac::parse(&key)
            .ok()
            .and_then(|scac| carriers.resolve(&scac)),
    };
    let carrier =
        found.ok_or_else(|| ApiError::not_found("no shipping line has this id or SCAC"))?;
    Ok(JsonApi::ok(Document::new(
        resource(carrier, &scope.config.coverage),
        uri.0.path(),
    )))
}
