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
