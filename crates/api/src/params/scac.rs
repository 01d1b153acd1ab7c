//! `filter[scac]` on the lists of tracking requests and shipments (api.md §1 "Lists").

use tidemark_domain::Scac;

use super::take_list;
use crate::ApiError;
use crate::extract::QueryParams;

/// `filter[scac]` in the OpenAPI document: `params(ScacFilter, …)` on each list that takes it.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, reason = "read by the OpenAPI derive only")]
pub struct ScacFilter {
    /// Comma-separated SCACs
    #[param(
        rename = "filter[scac]",
        pattern = r"^([A-Za-z0-9]{4}(,[A-Za-z0-9]{4})*)?$"
    )]
    scac: Option<String>,
}

/// Reads `filter[scac]`: comma-separated SCACs.
///
/// # Errors
/// 400 `invalid_filter` for an item that is no SCAC.
pub fn take_scacs(query: &mut QueryParams) -> Result<Vec<Scac>, ApiError> {
    take_list(query, "filter[scac]", "a SCAC", |text| {
        Scac::parse(text).ok()
    })
}
