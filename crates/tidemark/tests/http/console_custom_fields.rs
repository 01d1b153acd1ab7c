//! Custom fields on the console's shipment and container pages: every field of the
//! record's kind with its value, set and cleared in place by the API's use case; a value
//! that does not fit its field is refused on the page with why.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestApp, document, with_tracking};
use crate::console::{csrf, post_form};
use crate::console_truth::page;

tidemark_store::backends!(
    with_tracking,
    custom_fields_are_shown_and_edited_on_the_pages
);

async fn define(t: &TestApp, entity: &str, slug: &str, name: &str, data_type: &str) {
    let body = json!({"data": {"type": "custom_field_definition", "attributes": {
        "entity_type": entity, "api_slug": slug, "display_name": name, "data_type": data_type}}});
    let response = t
        .post_json("/v2/custom_field_definitions", &t.key, &body)
        .await;
    assert_eq!(response.status(), 201);
}

async fn custom_fields_are_shown_and_edited_on_the_pages(t: TestApp) {
    let (shipment, container) = crate::custom_fields::tracked_records(&t).await;
    define(&t, "Shipment", "po", "Purchase order", "short_text").await;
    define(&t, "Shipment", "pallets", "Pallets", "number").await;
    define(&t, "Container", "reefer_ok", "Reefer checked", "boolean").await;

    let path = format!("/console/shipments/{shipment}");
    let shown = page(&t, &path).await;
    assert!(
        shown.contains("Purchase order") && shown.contains("Pallets"),
        "{shown}"
    );
    let token = csrf(&t, &t.key).await;
    let action = format!("{path}/custom_fields");
    let saved = post_form(
        &t,
        &action,
        &t.key,
        &[("csrf", &token), ("slug", "po"), ("value", "PO-771")],
    )
    .await;
    assert_eq!(saved.status(), StatusCode::SEE_OTHER);
    assert!(page(&t, &path).await.contains("PO-771"));
    let listed = page(&t, "/console/shipments").await;
    assert!(listed.contains("<th>Custom fields</th>"), "a column");
    assert!(listed.contains("Purchase order: PO-771"), "{listed}");
    let api = document(
        t.get(&format!("/v2/shipments/{shipment}/custom_fields"))
            .await,
    )
    .await;
    assert_eq!(
        api["data"][0]["attributes"]["value"], "PO-771",
        "the API reads what the console set"
    );

    // The lists' exports carry a column per field.
    let csv = crate::console_errors::signed_in_get(&t, "/console/shipments?format=csv")
        .await
        .text()
        .await
        .expect("a CSV");
    let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes())
        .records()
        .map(|row| row.expect("a row").iter().map(str::to_owned).collect())
        .collect();
    let column = rows[0]
        .iter()
        .position(|name| name == "Purchase order")
        .expect("a column for the field");
    assert_eq!(rows[1][column], "PO-771");

    let refused = post_form(
        &t,
        &action,
        &t.key,
        &[("csrf", &token), ("slug", "pallets"), ("value", "a few")],
    )
    .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let said = refused.text().await.expect("a page");
    assert!(said.contains("a number value is a number"), "{said}");

    let cleared = post_form(
        &t,
        &action,
        &t.key,
        &[("csrf", &token), ("slug", "po"), ("value", "")],
    )
    .await;
    assert_eq!(cleared.status(), StatusCode::SEE_OTHER);
    let api = document(
        t.get(&format!("/v2/shipments/{shipment}/custom_fields"))
            .await,
    )
    .await;
    assert_eq!(api["meta"]["total"], 0, "an empty value removes it");

    a_container_field_is_set_from_its_page(&t, &container, &token).await;
}

async fn a_container_field_is_set_from_its_page(t: &TestApp, container: &str, token: &str) {
    let path = format!("/console/containers/{container}");
    assert!(page(t, &path).await.contains("Reefer checked"));
    let saved = post_form(
        t,
        &format!("{path}/custom_fields"),
        &t.key,
        &[("csrf", token), ("slug", "reefer_ok"), ("value", "yes")],
    )
    .await;
    assert_eq!(saved.status(), StatusCode::SEE_OTHER);
    let api = document(
        t.get(&format!("/v2/containers/{container}/custom_fields"))
            .await,
    )
    .await;
    assert_eq!(api["data"][0]["attributes"]["value"], true);
    assert_eq!(api["data"][0]["attributes"]["display_value"], "Yes");
    assert!(
        page(t, "/console/containers")
            .await
            .contains("Reefer checked: Yes")
    );
    // Without the token, nothing is set.
    let forged = post_form(
        t,
        &format!("{path}/custom_fields"),
        &t.key,
        &[("slug", "reefer_ok"), ("value", "no")],
    )
    .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
}
