//! `/v2/parties`: a client's customers (compat-api.md §3.9), which a tracking request names
//! as its `customer` (`relationships.customer`); its shipment shows the name
//! (`customer_name`) and shipments and containers are found by them
//! (`filter[customer_id]`, `filter[customer_name]`).

pub use tidemark_wire::party as view;

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde_json::{Map, Value};
use tidemark_domain::{AccountId, CompanyName, Party, PartyId, ValidationCode};

use crate::auth::Scope;
use crate::body::{self, Attributes};
use crate::document::{Document, JsonApi, ListDocument, One, Page};
use crate::error::ErrorCode;
use crate::error::ErrorSource;
use crate::extract::{Input, QueryParams};
use crate::found::{Edit, Record, missing};
use crate::params::{Paging, page_of, take_list, take_page};
use crate::{ApiError, AppState};
use view::PartyResource;

/// The routes of this resource.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/parties", get(list).post(create))
        .route("/v2/parties/{id}", get(show).patch(update))
}

/// Reads the `company_name` of a create or change body. Its `type` may be left out, as
/// the reference's own examples do; when given it must be `party`.
fn company_name(document: &Value, id: Option<PartyId>) -> Result<CompanyName, ApiError> {
    let data = body::data(document)?;
    body::check_type_if_given(data, view::TYPE)?;
    match id {
        Some(id) => body::check_id(data, &id.to_string())?,
        None => body::check_no_id(data)?,
    }
    let mut attributes = Attributes::of(data);
    let given = attributes.string("company_name");
    attributes.reject_unknown();
    let mut problems = attributes.problems;
    let field_errors = match given.as_deref().map(CompanyName::parse) {
        Some(Ok(name)) if problems.is_empty() => return Ok(name),
        Some(Ok(_)) => Vec::new(),
        Some(Err(error)) => vec![error],
        None => {
            if !problems
                .iter()
                .any(|(p, _, _)| p.ends_with("/company_name"))
            {
                problems.push((
                    "/data/attributes/company_name".into(),
                    ValidationCode::Blank,
                    "company_name is required".into(),
                ));
            }
            Vec::new()
        }
    };
    Err(body::merge(problems, field_errors))
}

/// `filter[customer_id]` in the OpenAPI document: `params(CustomerFilter, …)` on the lists of
/// shipments and containers.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, reason = "read by the OpenAPI derive only")]
pub struct CustomerFilter {
    /// Comma-separated party ids: records whose tracking request is for one of these customers
    #[param(
        rename = "filter[customer_id]",
        pattern = r"^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(,[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})*)?$"
    )]
    customer_id: Option<String>,
}

/// Reads `filter[customer_id]`: comma-separated party ids.
///
/// # Errors
/// 400 `invalid_filter` for an item that is no party id.
pub(crate) fn take_customer_ids(query: &mut QueryParams) -> Result<Vec<PartyId>, ApiError> {
    take_list(query, "filter[customer_id]", "a party id", PartyId::parse)
}

fn document(party: &Party) -> Document<PartyResource> {
    Document::new(view::resource(party), view::path(party.id))
}

/// Reads `relationships.customer` of a tracking request's `data`: `None` when absent,
/// `Some(None)` for `{"data": null}`, else the party named, which must be one of
/// `account`'s.
///
/// # Errors
/// 422 `invalid` for a linkage of the wrong shape or type; 404 `not_found` at
/// `/data/relationships/customer/data/id` for a party the account does not have.
pub(crate) async fn customer(
    state: &AppState,
    account: AccountId,
    data: &Map<String, Value>,
) -> Result<Option<Option<PartyId>>, ApiError> {
    let invalid = |pointer: &str, detail: &str| {
        ApiError::unprocessable(vec![(
            pointer.to_owned(),
            ValidationCode::Invalid,
            detail.to_owned(),
        )])
    };
    let relationships = match data.get("relationships") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(relationships)) => relationships,
        Some(_) => {
            return Err(invalid(
                "/data/relationships",
                "relationships must be an object",
            ));
        }
    };
    let Some(customer) = relationships.get("customer") else {
        return Ok(None);
    };
    let pointer = "/data/relationships/customer";
    let linkage = match customer.as_object().and_then(|c| c.get("data")) {
        Some(Value::Null) => return Ok(Some(None)),
        Some(Value::Object(linkage)) => linkage,
        _ => {
            return Err(invalid(
                pointer,
                "customer must be {\"data\": {\"type\": \"party\", \"id\": …}} or {\"data\": null}",
            ));
        }
    };
    if linkage.get("type").and_then(Value::as_str) != Some(view::TYPE) {
        return Err(invalid(
            &format!("{pointer}/data/type"),
            "a customer is a party",
        ));
    }
    let missing = || {
        ErrorCode::NotFound.at(
            "no party has this id in this account",
            ErrorSource::Pointer(format!("{pointer}/data/id")),
        )
    };
    let id = linkage
        .get("id")
        .and_then(Value::as_str)
        .and_then(PartyId::parse)
        .ok_or_else(missing)?;
    match state.store.party(account, id).await? {
        Some(_) => Ok(Some(Some(id))),
        None => Err(missing()),
    }
}

/// Create a party.
#[utoipa::path(post, path = "/v2/parties", operation_id = "createParty", tag = "Parties",
    request_body(content = view::PartyDocument),
    responses(
        (status = 201, description = "Created.", body = Document<PartyResource>),
        (status = 422, description = "`company_name` is missing, blank, too long or holds control characters."),
    ),
)]
pub async fn create(scope: Scope, Input(body): Input) -> One<PartyResource> {
    let name = company_name(&body, None)?;
    let party = Party::new(scope.account(), name, scope.clock.now());
    scope.store.create_party(&party).await?;
    Ok(JsonApi::created(view::path(party.id), document(&party)))
}

/// List parties, newest first.
#[utoipa::path(get, path = "/v2/parties", operation_id = "listParties", tag = "Parties",
    params(Paging),
    responses((status = 200, description = "A page of parties.", body = ListDocument<PartyResource>)),
)]
pub async fn list(scope: Scope, mut query: QueryParams) -> Page<PartyResource> {
    let page = take_page(&mut query, &scope.config)?;
    query.finish()?;
    let result = scope.store.list_parties(scope.account(), page).await?;
    let document = page_of("/v2/parties", &query, page, &result, view::resource);
    Ok(JsonApi::ok(document))
}

/// Get one party.
#[utoipa::path(get, path = "/v2/parties/{id}", operation_id = "getParty", tag = "Parties",
    params(Record<Party>),
    responses((status = 200, description = "The party.", body = Document<PartyResource>)),
)]
pub async fn show(Record(party): Record<Party>) -> One<PartyResource> {
    Ok(JsonApi::ok(document(&party)))
}

/// Rename a party; its shipments show the new name at once.
#[utoipa::path(patch, path = "/v2/parties/{id}", operation_id = "updateParty", tag = "Parties",
    params(Edit<Party>),
    request_body(content = view::PartyDocument),
    responses(
        (status = 200, description = "The renamed party.", body = Document<PartyResource>),
        (status = 422, description = "`company_name` is missing, blank, too long or holds control characters."),
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    Edit {
        record: current,
        body,
    }: Edit<Party>,
) -> One<PartyResource> {
    let name = company_name(&body, Some(current.id))?;
    let renamed = current.renamed(name, state.clock.now());
    if !state.store.update_party(&renamed).await? {
        return Err(missing::<Party>());
    }
    Ok(JsonApi::ok(document(&renamed)))
}
