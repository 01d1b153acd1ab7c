//! How a party, a client's customer, looks on the wire (compat-api.md §3.9), and the
//! documented request bodies.

use serde::Serialize;
use tidemark_domain::{CompanyName, Party, PartyId};
use utoipa::ToSchema;

use crate::document::{ResourceIdentifier, SelfLink};

/// The JSON:API type of a party.
pub const TYPE: &str = "party";

/// A party's attributes.
#[derive(Debug, Serialize, ToSchema)]
pub struct PartyAttributes {
    /// The customer's name.
    pub company_name: String,
    /// When it was created (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it last changed (RFC 3339, UTC).
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A `party` resource.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Party)]
pub struct PartyResource {
    /// Its id (a UUID).
    #[schema(format = Uuid)]
    pub id: String,
    /// Always `party`.
    #[serde(rename = "type")]
    #[schema(pattern = "^party$")]
    pub type_: &'static str,
    /// Its attributes.
    pub attributes: PartyAttributes,
    /// Its own link.
    pub links: SelfLink,
}

/// Where a party lives.
#[must_use]
pub fn path(id: PartyId) -> String {
    format!("/v2/parties/{id}")
}

/// `party` as a resource object.
#[must_use]
pub fn resource(party: &Party) -> PartyResource {
    PartyResource {
        id: party.id.to_string(),
        type_: TYPE,
        attributes: PartyAttributes {
            company_name: party.company_name.to_string(),
            created_at: party.created_at.to_string(),
            updated_at: party.updated_at.to_string(),
        },
        links: SelfLink {
            self_: path(party.id),
        },
    }
}

/// The attributes a client sends.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document; bodies are parsed field by field"
)]
pub struct PartyInputAttributes {
    /// The customer's name.
    company_name: CompanyNameText,
}

/// A `company_name`: 1 to 200 characters once trimmed, no control characters.
#[derive(Debug)]
pub struct CompanyNameText;

impl utoipa::PartialSchema for CompanyNameText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::schema::client_text(
            CompanyName::MAX_CHARS,
            "The customer's name: 1 to 200 characters once trimmed, no control characters",
        )
    }
}

impl ToSchema for CompanyNameText {}

/// The resource object of a create or an update.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct PartyInputData {
    /// `party` when given (the reference's own examples leave it out).
    #[schema(rename = "type", pattern = "^party$")]
    type_: Option<String>,
    /// The party.
    attributes: PartyInputAttributes,
}

/// The body of `POST /v2/parties` and `PATCH /v2/parties/{id}`.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"data": {"type": "party", "attributes": {"company_name": "Acme Imports"}}}))]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct PartyDocument {
    /// The party.
    data: PartyInputData,
}

/// A request's `relationships` as a client sends them: its customer, or null for none.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CustomerRelationships {
    /// `{"data": {"type": "party", "id": …}}`, or `{"data": null}` for none.
    customer: Option<CustomerLinkage>,
}

/// The linkage of a request's customer.
#[derive(Debug, ToSchema)]
#[expect(
    dead_code,
    reason = "describes the request body in the OpenAPI document"
)]
pub struct CustomerLinkage {
    /// A party of the account, or null.
    data: Option<ResourceIdentifier>,
}
