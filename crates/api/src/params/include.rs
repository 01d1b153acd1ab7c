//! `include` (api.md §1 "include"): the relationships an endpoint takes, stated once and
//! read from there both by the handler and by the OpenAPI document.

use std::marker::PhantomData;

use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{ObjectBuilder, Required, Type};

use super::list_pattern;
use crate::ApiError;
use crate::extract::QueryParams;

/// The relationships one endpoint can include.
pub trait Includes {
    /// Their paths, as clients write them.
    const NAMES: &'static [&'static str];
    /// The parameter's description in the OpenAPI document.
    const DESCRIPTION: &'static str = "Related records to include";
}

/// The `include` parameter of an endpoint taking `S`'s relationships, for
/// `#[utoipa::path(params(Include<S>, …))]`: its pattern is made from `S::NAMES`.
pub struct Include<S>(PhantomData<S>);

impl<S: Includes> utoipa::IntoParams for Include<S> {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(list_pattern(S::NAMES)));
        vec![
            ParameterBuilder::new()
                .name("include")
                .parameter_in(ParameterIn::Query)
                .required(Required::False)
                .description(Some(S::DESCRIPTION))
                .schema(Some(schema))
                .build(),
        ]
    }
}

/// Reads `include`, accepting only the paths this resource has.
///
/// # Errors
/// 400 `invalid_include` for any other path.
pub fn take_include(
    query: &mut QueryParams,
    allowed: &[&str],
) -> Result<Option<Vec<String>>, ApiError> {
    let Some(text) = query.take("include") else {
        return Ok(None);
    };
    let mut paths = Vec::new();
    // As the documented pattern has it: paths separated by commas, nothing around them;
    // an empty value includes nothing.
    for path in text.split(',').filter(|_| !text.is_empty()) {
        if !allowed.contains(&path) {
            let detail = if allowed.is_empty() {
                "this endpoint has no relationships to include".to_owned()
            } else {
                format!(
                    "{path:?} cannot be included here; choose from {}",
                    allowed.join(", ")
                )
            };
            return Err(ApiError::bad_parameter(
                "invalid_include",
                "include",
                detail,
            ));
        }
        if !paths.iter().any(|p| p == path) {
            paths.push(path.to_owned());
        }
    }
    Ok(Some(paths))
}

#[cfg(test)]
mod tests {
    use utoipa::IntoParams as _;

    use super::*;

    struct Pair;

    impl Includes for Pair {
        const NAMES: &'static [&'static str] = &["left", "right"];
    }

    #[test]
    fn the_documented_parameter_is_made_from_the_names() {
        let parameters =
            serde_json::to_value(<Include<Pair>>::into_params(|| None)).unwrap_or_default();
        assert_eq!(
            parameters,
            serde_json::json!([{
                "name": "include",
                "in": "query",
                "required": false,
                "description": Pair::DESCRIPTION,
                "schema": {"type": "string", "pattern": "^((left|right)(,(left|right))*)?$"},
            }])
        );
    }
}
