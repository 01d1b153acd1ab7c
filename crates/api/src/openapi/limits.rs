//! The configured field limits (`[limits]`), written into the request bodies' schemas: the
//! document states what this instance enforces, not literals beside the schema types (as
//! the page sizes, [`super::parameters`]).

use serde_json::{Value, json};
use tidemark_domain::Limits;

/// The list attributes of request bodies whose items are the client's text
/// (`ListItem`), by schema.
const LISTS: [(&str, &[&str]); 4] = [
    (
        "CreateTrackingRequestAttributes",
        &["ref_numbers", "shipment_tags"],
    ),
    (
        "UpdateTrackingRequestAttributes",
        &["ref_numbers", "shipment_tags"],
    ),
    ("UpdateShipmentAttributes", &["ref_numbers", "tags"]),
    ("UpdateContainerAttributes", &["ref_numbers"]),
];

/// Writes `limits` into `document`'s schemas.
pub fn write(document: &mut Value, limits: &Limits) {
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let items = limits.list_items;
    let chars = limits.list_item_chars;
    if let Some(number) = schemas
        .get_mut("CreateTrackingRequestAttributes")
        .and_then(|s| s.pointer_mut("/properties/request_number"))
    {
        number["maxLength"] = json!(limits.request_number_chars);
        number["description"] = json!(format!(
            "The number, 1 to {} characters: letters, digits, spaces and `- / . _`.",
            limits.request_number_chars
        ));
    }
    for (schema, lists) in LISTS {
        let Some(properties) = schemas
            .get_mut(schema)
            .and_then(|s| s.get_mut("properties"))
        else {
            continue;
        };
        for list in lists {
            if let Some(property) = properties.get_mut(*list) {
                property["maxItems"] = json!(items);
                let said = property["description"].as_str().unwrap_or_default();
                property["description"] = json!(
                    format!("{said} At most {items} items of up to {chars} characters each.")
                        .trim()
                        .to_owned()
                );
            }
        }
    }
    if let Some(properties) = schemas
        .get_mut("UpdateTrackingRequestAttributes")
        .and_then(|s| s.get_mut("properties"))
        && let Some(single) = properties.get_mut("ref_number")
    {
        single["maxLength"] = json!(chars);
    }
    if let Some(item) = schemas.get_mut("ListItem") {
        item["maxLength"] = json!(chars);
        item["description"] = json!(format!(
            "1 to {chars} characters, not only white space, no control characters"
        ));
    }
}
