//! Custom fields end to end (compat-api.md §10, issue acceptance): a definition made, an
//! enum option added, a value set on a shipment and read back by the flat list's filters,
//! a wrong-typed value refused, changed by slug, deleted; definitions filtered, their
//! immutable members kept, a definition's values gone with it; another account sees none.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{TestApp, codes, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    a_field_is_defined_given_options_and_set_on_a_shipment,
    definitions_keep_their_rules,
    values_are_set_through_the_flat_list_too,
);

fn definition(entity: &str, slug: &str, data_type: &str) -> Value {
    json!({"data": {"type": "custom_field_definition", "attributes": {
        "entity_type": entity, "api_slug": slug, "display_name": format!("The {slug}"),
        "data_type": data_type}}})
}

fn value(slug: Option<&str>, value: &Value) -> Value {
    let mut attributes = json!({"value": value});
    if let Some(slug) = slug {
        attributes["api_slug"] = json!(slug);
    }
    json!({"data": {"type": "custom_field", "attributes": attributes}})
}

async fn define(t: &TestApp, body: &Value) -> Value {
    let response = t
        .post_json("/v2/custom_field_definitions", &t.key, body)
        .await;
    assert_eq!(response.status(), 201);
    document(response).await
}

fn id(body: &Value) -> String {
    body["data"]["id"].as_str().expect("an id").to_owned()
}

async fn a_field_is_defined_given_options_and_set_on_a_shipment(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipment = request["included"][0]["id"]
        .as_str()
        .expect("a shipment")
        .to_owned();
    let mode = define(&t, &definition("Shipment", "mode", "enum")).await;
    let mode_id = id(&mode);
    assert_eq!(mode["data"]["attributes"]["api_slug"], "mode");
    let options = format!("/v2/custom_field_definitions/{mode_id}/options");
    for (label, code) in [("Ocean", "ocean"), ("Air", "air")] {
        let body = json!({"data": {"type": "custom_field_option", "attributes": {"label": label, "value": code}}});
        assert_eq!(t.post_json(&options, &t.key, &body).await.status(), 201);
    }
    let listed = document(t.get(&options).await).await;
    assert_eq!(listed["meta"]["total"], 2);

    let path = format!("/v2/shipments/{shipment}/custom_fields");
    let set = t
        .post_json(&path, &t.key, &value(Some("mode"), &json!("ocean")))
        .await;
    assert_eq!(set.status(), 201);
    let set = document(set).await;
    let attributes = &set["data"]["attributes"];
    assert_eq!(attributes["value"], "ocean");
    assert_eq!(attributes["display_value"], "Ocean");
    assert_eq!(
        set["data"]["relationships"]["entity"]["data"]["type"],
        "shipment"
    );
    assert_eq!(
        set["data"]["relationships"]["definition"]["data"]["id"],
        mode_id.as_str()
    );

    // A wrong-typed value, and a choice the field does not have.
    for wrong in [json!(7), json!("rail")] {
        let refused = errors(
            t.post_json(&path, &t.key, &value(Some("mode"), &wrong))
                .await,
            422,
        )
        .await;
        assert_eq!(
            codes(&refused),
            [("invalid".to_owned(), "/data/attributes/value".to_owned())]
        );
    }
    let unknown = errors(
        t.post_json(&path, &t.key, &value(Some("colour"), &json!("red")))
            .await,
        422,
    )
    .await;
    assert_eq!(codes(&unknown)[0].0, "unknown_custom_field");

    let listed = document(
        t.get(&format!("/v2/custom_fields?filter[entity_id]={shipment}"))
            .await,
    )
    .await;
    assert_eq!(listed["meta"]["total"], 1);
    assert_eq!(listed["data"][0]["id"], set["data"]["id"]);

    let changed = t
        .patch(&format!("{path}/mode"), &value(None, &json!("air")))
        .await;
    assert_eq!(changed.status(), 200);
    let changed = document(changed).await;
    assert_eq!(
        changed["data"]["id"], set["data"]["id"],
        "one value per field and record"
    );
    assert_eq!(changed["data"]["attributes"]["display_value"], "Air");
    let listed = document(t.get(&path).await).await;
    assert_eq!(listed["data"][0]["attributes"]["value"], "air");

    an_option_goes_once_nothing_chooses_it(&t, &options, &path, &mode_id).await;
}

/// An option a value chooses stays; the value goes by slug, then the option may go; another
/// account sees nothing of the field.
async fn an_option_goes_once_nothing_chooses_it(
    t: &TestApp,
    options: &str,
    path: &str,
    mode_id: &str,
) {
    let air = document(t.get(options).await).await["data"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["attributes"]["value"] == "air")
        .cloned()
        .expect("air");
    let air_path = format!("{options}/{}", air["id"].as_str().expect("id"));
    errors(t.call(Method::DELETE, &air_path).await, 409).await;
    assert_eq!(
        t.call(Method::DELETE, &format!("{path}/mode"))
            .await
            .status(),
        204
    );
    errors(t.call(Method::DELETE, &format!("{path}/mode")).await, 404).await;
    assert_eq!(t.call(Method::DELETE, &air_path).await.status(), 200);

    // Another account sees nothing of it.
    let (_, other) = t.new_account("other").await;
    let theirs = t
        .get_as(&other, &format!("/v2/custom_field_definitions/{mode_id}"))
        .await;
    assert_eq!(theirs.status(), 404);
    let theirs = document(t.get_as(&other, "/v2/custom_fields").await).await;
    assert_eq!(theirs["meta"]["total"], 0);
}

async fn definitions_keep_their_rules(t: TestApp) {
    let po = define(&t, &definition("Container", "po_number", "short_text")).await;
    define(&t, &definition("Shipment", "po_number", "number")).await;
    let taken = errors(
        t.post_json(
            "/v2/custom_field_definitions",
            &t.key,
            &definition("Container", "po_number", "date"),
        )
        .await,
        422,
    )
    .await;
    assert_eq!(
        codes(&taken),
        [(
            "duplicate".to_owned(),
            "/data/attributes/api_slug".to_owned()
        )]
    );
    let bad = json!({"data": {"type": "custom_field_definition", "attributes": {
        "entity_type": "Vessel", "api_slug": "PO", "data_type": "text"}}});
    let refused = codes(
        &errors(
            t.post_json("/v2/custom_field_definitions", &t.key, &bad)
                .await,
            422,
        )
        .await,
    );
    for pointer in ["entity_type", "api_slug", "data_type", "display_name"] {
        assert!(
            refused
                .iter()
                .any(|(_, p)| p == &format!("/data/attributes/{pointer}")),
            "{pointer}: {refused:?}"
        );
    }
    definitions_are_filtered(&t).await;
    let path = format!("/v2/custom_field_definitions/{}", id(&po));
    let renamed = t
        .patch(
            &path,
            &json!({"data": {"type": "custom_field_definition", "attributes": {
            "display_name": "PO", "api_slug": "po_number", "reference_number": true}}}),
        )
        .await;
    assert_eq!(renamed.status(), 200);
    let renamed = document(renamed).await;
    assert_eq!(renamed["data"]["attributes"]["display_name"], "PO");
    assert_eq!(renamed["data"]["attributes"]["reference_number"], true);
    let immutable = errors(
        t.patch(&path, &json!({"data": {"type": "custom_field_definition", "attributes": {"data_type": "number"}}})).await,
        422,
    )
    .await;
    assert_eq!(
        codes(&immutable),
        [(
            "immutable".to_owned(),
            "/data/attributes/data_type".to_owned()
        )]
    );
    // A short_text field has no options.
    let option = json!({"data": {"type": "custom_field_option", "attributes": {"label": "A", "value": "a"}}});
    errors(
        t.post_json(&format!("{path}/options"), &t.key, &option)
            .await,
        422,
    )
    .await;
    assert_eq!(t.call(Method::DELETE, &path).await.status(), 200);
    errors(t.get(&path).await, 404).await;
}

async fn values_are_set_through_the_flat_list_too(t: TestApp) {
    let request = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let container = request["included"][0]["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    let due = define(&t, &definition("Container", "due", "date")).await;
    let mut body = value(Some("due"), &json!("2026-07-01"));
    body["data"]["relationships"] =
        json!({"entity": {"data": {"type": "container", "id": container}}});
    let created = t.post_json("/v2/custom_fields", &t.key, &body).await;
    assert_eq!(created.status(), 201);
    let created = document(created).await;
    let path = format!("/v2/custom_fields/{}", id(&created));
    assert_eq!(document(t.get(&path).await).await["data"], created["data"]);
    let changed = document(t.patch(&path, &value(None, &json!("2026-07-02"))).await).await;
    assert_eq!(changed["data"]["attributes"]["value"], "2026-07-02");
    let filtered = format!(
        "/v2/custom_fields?filter[entity_type]=Container&filter[definition_id]={}",
        id(&due)
    );
    assert_eq!(document(t.get(&filtered).await).await["meta"]["total"], 1);
    // The record must be the account's, and named.
    body["data"]["relationships"]["entity"]["data"]["id"] =
        json!("0192a3b4-0000-7000-8000-000000000000");
    errors(t.post_json("/v2/custom_fields", &t.key, &body).await, 404).await;
    body["data"]["relationships"] = json!({});
    errors(t.post_json("/v2/custom_fields", &t.key, &body).await, 422).await;
    // A definition's delete takes its values.
    let definition = format!("/v2/custom_field_definitions/{}", id(&due));
    assert_eq!(t.call(Method::DELETE, &definition).await.status(), 200);
    errors(t.get(&path).await, 404).await;
    assert_eq!(t.call(Method::DELETE, &path).await.status(), 404);
}

async fn definitions_are_filtered(t: &TestApp) {
    for (filter, total) in [
        ("", 2),
        ("?filter[entity_type]=Container", 1),
        ("?filter[data_type]=number,date", 1),
        ("?filter[display_name]=The%20po_number", 2),
    ] {
        let listed = document(
            t.get(&format!("/v2/custom_field_definitions{filter}"))
                .await,
        )
        .await;
        assert_eq!(listed["meta"]["total"], total, "{filter}");
    }
}

/// A definition, an option and a value served, each checked against the reference's fields
/// (`data/compat-fields.toml`); the types seen.
pub(crate) async fn served(
    t: &TestApp,
    fields: &std::collections::BTreeMap<String, crate::compat::Fields>,
) -> std::collections::BTreeSet<String> {
    let mode = define(t, &definition("Shipment", "served_mode", "enum")).await;
    let options = format!("/v2/custom_field_definitions/{}/options", id(&mode));
    let option = json!({"data": {"type": "custom_field_option", "attributes": {"label": "Ocean", "value": "ocean"}}});
    let mut seen = crate::compat::check(
        &document(t.post_json(&options, &t.key, &option).await).await,
        fields,
    );
    seen.extend(crate::compat::check(
        &document(t.get(&options).await).await,
        fields,
    ));
    seen.extend(crate::compat::check(
        &document(t.get("/v2/custom_field_definitions").await).await,
        fields,
    ));
    let shipments = document(t.get("/v2/shipments").await).await;
    let shipment = shipments["data"][0]["id"].as_str().expect("a shipment");
    let path = format!("/v2/shipments/{shipment}/custom_fields");
    let set = t
        .post_json(&path, &t.key, &value(Some("served_mode"), &json!("ocean")))
        .await;
    seen.extend(crate::compat::check(&document(set).await, fields));
    seen.extend(crate::compat::check(
        &document(t.get("/v2/custom_fields").await).await,
        fields,
    ));
    seen
}

/// A tracked sandbox shipment's id and its first container's.
pub(crate) async fn tracked_records(t: &TestApp) -> (String, String) {
    let request = track(t, "TEST-TR-SUCCEEDED", "TEST").await;
    let shipment = &request["included"][0];
    let container = shipment["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container");
    (
        shipment["id"].as_str().expect("a shipment").to_owned(),
        container.to_owned(),
    )
}
