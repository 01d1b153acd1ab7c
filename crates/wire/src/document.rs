//! JSON:API document shapes shared by every resource (api.md §1 "Responses", "Lists").

use serde::Serialize;
use serde_json::Value;
use tidemark_domain::ReferenceKind;
use utoipa::ToSchema;

/// A resource's own link.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SelfLink {
    /// Where the resource lives.
    #[serde(rename = "self", serialize_with = "crate::links::link")]
    pub self_: String,
}

/// A reference to another resource.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq, Hash)]
pub struct ResourceIdentifier {
    /// Its id.
    pub id: String,
    /// Its type.
    #[serde(rename = "type")]
    pub type_: String,
}

/// A to-one relationship: a reference, or null when empty.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ToOne {
    /// The related resource, or null.
    pub data: Option<ResourceIdentifier>,
}

/// A to-many relationship.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ToMany {
    /// The related resources.
    pub data: Vec<ResourceIdentifier>,
}

/// A relationship given by its link (its members are a list of their own), and by its
/// members too when the document includes them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RelatedLink {
    /// Where the related resources are listed.
    pub links: Related,
    /// The related resources, when they are included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Vec<ResourceIdentifier>>,
}

impl RelatedLink {
    /// The relationship listed at `related`.
    #[must_use]
    pub const fn at(related: String) -> Self {
        Self {
            links: Related { related },
            data: None,
        }
    }
}

/// The `related` link of a relationship.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Related {
    /// The list of related resources.
    #[serde(serialize_with = "crate::links::link")]
    pub related: String,
}

impl ResourceIdentifier {
    /// A reference to `id` of `type_`.
    #[must_use]
    pub fn new(type_: &str, id: impl std::fmt::Display) -> Self {
        Self {
            id: id.to_string(),
            type_: type_.to_owned(),
        }
    }
}

impl ToOne {
    /// An empty relationship: Tidemark has no source for it.
    #[must_use]
    pub const fn none() -> Self {
        Self { data: None }
    }

    /// A reference, or null.
    #[must_use]
    pub fn of(type_: &str, id: Option<impl std::fmt::Display>) -> Self {
        Self {
            data: id.map(|id| ResourceIdentifier::new(type_, id)),
        }
    }

    /// The port of UN/LOCODE `locode`, or null.
    #[must_use]
    pub fn port(locode: Option<&str>) -> Self {
        Self::of("port", locode.map(|locode| ReferenceKind::Port.id(locode)))
    }

    /// The terminal of code `code`, or null.
    #[must_use]
    pub fn terminal(code: Option<&str>) -> Self {
        Self::of(
            "terminal",
            code.map(|code| ReferenceKind::Terminal.id(code)),
        )
    }

    /// The vessel of IMO number `imo`, or null.
    #[must_use]
    pub fn vessel(imo: Option<&str>) -> Self {
        Self::of("vessel", imo.map(|imo| ReferenceKind::Vessel.id(imo)))
    }
}

/// Pagination links of a list; `prev` and `next` are absent at the ends.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PageLinks {
    /// This page.
    #[serde(rename = "self", serialize_with = "crate::links::link")]
    pub self_: String,
    /// The first page.
    #[serde(serialize_with = "crate::links::link")]
    pub first: String,
    /// The previous page.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::links::optional_link"
    )]
    pub prev: Option<String>,
    /// The next page.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::links::optional_link"
    )]
    pub next: Option<String>,
    /// The last page.
    #[serde(serialize_with = "crate::links::link")]
    pub last: String,
    /// This page again, under the reference API's name.
    #[serde(serialize_with = "crate::links::link")]
    pub current: String,
}

/// Size facts of a list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ListMeta {
    /// Items per page.
    pub size: u32,
    /// Items in the whole list.
    pub total: u64,
    /// The same facts in the reference API's shape.
    pub pagination: Pagination,
}

/// Where a page stands, as the reference API's lists say it (`meta.pagination`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Pagination {
    /// This page's number.
    pub current: u32,
    /// The next page's number; null on the last page.
    pub next: Option<u32>,
    /// The last page's number (1 for an empty list).
    pub last: u32,
    /// Items in the whole list.
    pub records: u64,
}

/// A document holding one resource.
#[derive(Debug, Serialize, ToSchema)]
pub struct Document<T> {
    /// The resource.
    pub data: T,
    /// Related resources asked for with `include`; present whenever `include` was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub included: Option<Vec<Value>>,
    /// The request's own link.
    pub links: SelfLink,
}

impl<T> Document<T> {
    /// A document of `data` alone, its own link `self_`.
    #[must_use]
    pub fn new(data: T, self_: impl Into<String>) -> Self {
        Self {
            data,
            included: None,
            links: SelfLink {
                self_: self_.into(),
            },
        }
    }

    /// The same document with `included` set (absent when `None`).
    #[must_use]
    pub fn including(self, included: Option<Vec<Value>>) -> Self {
        Self { included, ..self }
    }
}

/// A document holding one page of a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListDocument<T> {
    /// The resources on this page.
    pub data: Vec<T>,
    /// Related resources asked for with `include`; present whenever `include` was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub included: Option<Vec<Value>>,
    /// Pagination links.
    pub links: PageLinks,
    /// Size facts.
    pub meta: ListMeta,
}

impl<T> ListDocument<T> {
    /// The same page with `included` set (absent when `None`).
    #[must_use]
    pub fn including(self, included: Option<Vec<Value>>) -> Self {
        Self { included, ..self }
    }
}
