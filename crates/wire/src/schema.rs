//! Helpers for the OpenAPI schemas of wire values.

/// OpenAPI schemas for the domain's wire enums, built from the domain's own lists so the
/// document cannot drift from what the server writes and accepts.
#[macro_export]
macro_rules! wire_enum_schema {
    ($name:ident, $component:literal, $description:literal, $values:expr) => {
        #[doc = $description]
        #[derive(Debug)]
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::Type::String)
                    .enum_values(Some($values.iter().map(|value| value.as_str())))
                    .description(Some($description))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                $component.into()
            }
        }
    };
}

/// The schema of free text a client writes: `1..=max_chars` characters, not only white
/// space, no control characters (what the domain's `check_text` and its callers accept).
pub(crate) fn client_text(
    max_chars: usize,
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .min_length(Some(1))
        .max_length(Some(max_chars))
        .pattern(Some(
            r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$",
        ))
        .description(Some(description))
        .into()
}
