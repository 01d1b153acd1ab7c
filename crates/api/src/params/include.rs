//! `include` (api.md §1 "include"): the relationships an endpoint takes, stated once and
//! read from there both by the handler and by the OpenAPI document.
//!
//! A path is a relationship's name, or a name, a dot and one of the related resource's own
//! relationships to reference data (`shipment.port_of_lading`, compat-api.md §0.4).

use std::marker::PhantomData;

use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{ObjectBuilder, Required, Type};

use super::list_pattern;
use crate::ApiError;
use crate::error::ErrorCode;
use crate::extract::QueryParams;

/// The relationships one endpoint can include.
pub trait Includes {
    /// Relationships to other records, each with those of the related resource's
    /// [`REFERENCES`](Includes::REFERENCES) that a dotted path may name after it.
    const RECORDS: &'static [(&'static str, &'static [&'static str])] = &[];
    /// Relationships to reference data: ports, terminals, vessels.
    const REFERENCES: &'static [&'static str] = &[];
    /// The parameter's description in the OpenAPI document.
    const DESCRIPTION: &'static str = "Related records to include";

    /// Every path a client may write: the names, then the dotted paths.
    #[must_use]
    fn paths() -> Vec<String> {
        let records = Self::RECORDS.iter().map(|(name, _)| (*name).to_owned());
        let references = Self::REFERENCES.iter().map(|&name| name.to_owned());
        let dotted = Self::RECORDS
            .iter()
            .flat_map(|(name, further)| further.iter().map(move |next| format!("{name}.{next}")));
        records.chain(references).chain(dotted).collect()
    }
}

/// The paths a request asked to include, each valid for its endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IncludePaths(Vec<String>);

impl IncludePaths {
    /// These paths, as given.
    #[must_use]
    pub fn of(paths: &[&str]) -> Self {
        Self(paths.iter().map(|&p| p.to_owned()).collect())
    }

    /// Whether the relationship `name` is to be included: named itself, or on the way to a
    /// dotted path (JSON:API includes the resources along a path too).
    #[must_use]
    pub fn wants(&self, name: &str) -> bool {
        self.0.iter().any(|path| {
            path == name
                || path
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// The paths that go on from the relationship `name`, without it.
    #[must_use]
    pub fn under(&self, name: &str) -> Self {
        Self(
            self.0
                .iter()
                .filter_map(|path| path.strip_prefix(name)?.strip_prefix('.'))
                .map(str::to_owned)
                .collect(),
        )
    }

    /// Whether nothing is to be included.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The `include` parameter of an endpoint taking `S`'s relationships, for
/// `#[utoipa::path(params(Include<S>, …))]`: its pattern is made from `S::paths()`.
pub struct Include<S>(PhantomData<S>);

impl<S: Includes> utoipa::IntoParams for Include<S> {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let paths: Vec<String> = S::paths().iter().map(|p| p.replace('.', "\\.")).collect();
        let names: Vec<&str> = paths.iter().map(String::as_str).collect();
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(list_pattern(&names)));
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

/// Reads `include`, accepting only the paths `S` has.
///
/// # Errors
/// 400 `invalid_include` for any other path.
pub fn take_include<S: Includes>(
    query: &mut QueryParams,
) -> Result<Option<IncludePaths>, ApiError> {
    let Some(text) = query.take("include") else {
        return Ok(None);
    };
    let allowed = S::paths();
    let mut paths = Vec::new();
    // As the documented pattern has it: paths separated by commas, nothing around them;
    // an empty value includes nothing.
    for path in text.split(',').filter(|_| !text.is_empty()) {
        if !allowed.iter().any(|a| a == path) {
            let detail = if allowed.is_empty() {
                "this endpoint has no relationships to include".to_owned()
            } else {
                format!(
                    "{path:?} cannot be included here; choose from {}",
                    allowed.join(", ")
                )
            };
            return Err(ApiError::bad_parameter(
                ErrorCode::InvalidInclude,
                "include",
                detail,
            ));
        }
        if !paths.iter().any(|p| p == path) {
            paths.push(path.to_owned());
        }
    }
    Ok(Some(IncludePaths(paths)))
}

#[cfg(test)]
mod tests {
    use utoipa::IntoParams as _;

    use super::*;

    struct Pair;

    impl Includes for Pair {
        const RECORDS: &'static [(&'static str, &'static [&'static str])] =
            &[("left", &["port", "vessel"])];
        const REFERENCES: &'static [&'static str] = &["right"];
    }

    fn take(text: &str) -> Result<Option<IncludePaths>, ApiError> {
        let mut query = QueryParams::parse(text).map_err(|_| ApiError::not_found("unparsed"))?;
        take_include::<Pair>(&mut query)
    }

    #[test]
    fn the_documented_parameter_is_made_from_the_paths() {
        let parameters =
            serde_json::to_value(<Include<Pair>>::into_params(|| None)).unwrap_or_default();
        let one = r"left|right|left\.port|left\.vessel";
        assert_eq!(
            parameters,
            serde_json::json!([{
                "name": "include",
                "in": "query",
                "required": false,
                "description": Pair::DESCRIPTION,
                "schema": {"type": "string", "pattern": format!("^(({one})(,({one}))*)?$")},
            }])
        );
    }

    #[test]
    fn paths_are_checked_against_the_resource_and_kept_once() {
        assert_eq!(
            take("include=right,left.port,right").ok(),
            Some(Some(IncludePaths::of(&["right", "left.port"])))
        );
        assert_eq!(take("page[size]=1").ok(), Some(None));
        assert_eq!(take("include=").ok(), Some(Some(IncludePaths::default())));
        // Only the documented form: no blanks around a path (a no-break space included),
        // no empty path, no relationship the resource lacks, no step past the listed ones.
        for text in [
            "include=account",
            "include=%C2%A0",
            "include=left,",
            "include=%20left",
            "include=right.port",
            "include=left.",
            "include=left.port.code",
            "include=.port",
        ] {
            assert!(take(text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_dotted_path_includes_the_resources_along_it() {
        let paths = IncludePaths::of(&["left.port", "right"]);
        assert!(paths.wants("left") && paths.wants("right"));
        assert!(!paths.wants("lef") && !paths.wants("port"));
        assert_eq!(paths.under("left"), IncludePaths::of(&["port"]));
        assert!(paths.under("right").is_empty());
        assert!(IncludePaths::of(&["leftover"]).under("left").is_empty());
        assert!(!IncludePaths::of(&["leftover"]).wants("left"));
    }
}
