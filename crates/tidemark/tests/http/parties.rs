//! `/v2/parties` (compat-api.md §3.9) and a tracking request's `customer`: parties are
//! created as the reference's examples create them, stay in their account, and name the
//! shipment they are the customer of, which the lists find by them.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::with_tracking;

use crate::common::{TestApp, codes, document, errors, tracking_request};

tidemark_store::backends!(
    with_tracking,
    parties_are_created_listed_read_and_renamed_within_their_account,
    bad_parties_are_clear_errors,
    a_customer_names_its_shipment_and_the_lists_find_it,
    a_requests_customer_changes_and_its_shipment_follows,
    a_notification_names_the_customer_as_clients_read_it,
    a_bad_customer_is_a_clear_error,
);

fn party(name: &str) -> Value {
    json!({"data": {"attributes": {"company_name": name}}})
}

/// Creates a party as the reference's example does (no `type`); returns its id.
async fn create(app: &TestApp, name: &str) -> String {
    let response = app.post_json("/v2/parties", &app.key, &party(name)).await;
    assert_eq!(response.status(), 201);
    let body = document(response).await;
    body["data"]["id"].as_str().expect("an id").to_owned()
}

async fn parties_are_created_listed_read_and_renamed_within_their_account(t: TestApp) {
    let app = &t;
    let response = app
        .post_json("/v2/parties", &app.key, &party("  Northwind Traders "))
        .await;
    assert_eq!(response.status(), 201);
    let location = response.headers()["location"]
        .to_str()
        .expect("a location")
        .to_owned();
    let created = document(response).await;
    let id = created["data"]["id"].as_str().expect("id").to_owned();
    assert_eq!(location, app.link(&format!("/v2/parties/{id}")));
    assert_eq!(created["data"]["type"], "party");
    assert_eq!(
        created["data"]["attributes"]["company_name"],
        "Northwind Traders"
    );
    assert_eq!(created["links"]["self"], location);

    let typed = json!({"data": {"type": "party", "attributes": {"company_name": "Contoso"}}});
    let second = document(app.post_json("/v2/parties", &app.key, &typed).await).await;
    let listed = document(app.get("/v2/parties?page[size]=1").await).await;
    assert_eq!(
        listed["data"][0]["id"], second["data"]["id"],
        "newest first"
    );
    assert_eq!(listed["meta"]["pagination"]["records"], 2);
    assert_eq!(
        document(app.get(&location).await).await["data"],
        created["data"]
    );

    let rename =
        json!({"data": {"type": "party", "id": id, "attributes": {"company_name": "Northwind"}}});
    let renamed = document(app.patch(&location, &rename).await).await;
    assert_eq!(renamed["data"]["attributes"]["company_name"], "Northwind");
    assert_eq!(
        document(app.get(&location).await).await["data"]["attributes"]["company_name"],
        "Northwind"
    );

    let (_, other) = app.new_account("globex").await;
    errors(app.get_as(&other, &location).await, 404).await;
    let stolen = app
        .request(Method::PATCH, &location, Some(&other))
        .header("Content-Type", crate::common::JSON_API)
        .body(party("Globex").to_string())
        .send()
        .await
        .expect("request");
    errors(stolen, 404).await;
    let theirs = document(app.get_as(&other, "/v2/parties").await).await;
    assert_eq!(theirs["data"], json!([]));
    errors(app.get("/v2/parties/not-a-uuid").await, 404).await;
}

async fn bad_parties_are_clear_errors(t: TestApp) {
    let app = &t;
    let longest = "x".repeat(200);
    create(app, &longest).await;
    let refused = async |body: Value, status: u16| {
        codes(&errors(app.post_json("/v2/parties", &app.key, &body).await, status).await)
    };
    let at = |code: &str, pointer: &str| vec![(code.to_owned(), pointer.to_owned())];
    let name = "/data/attributes/company_name";
    assert_eq!(
        refused(json!({"data": {"attributes": {}}}), 422).await,
        at("blank", name)
    );
    assert_eq!(refused(party("   "), 422).await, at("blank", name));
    assert_eq!(
        refused(party(&format!("{longest}x")), 422).await,
        at("too_long", name)
    );
    assert_eq!(refused(party("a\u{7}b"), 422).await, at("invalid", name));
    assert_eq!(
        refused(json!({"data": {"attributes": {"company_name": 7}}}), 422).await,
        at("invalid", name)
    );
    assert_eq!(
        refused(
            json!({"data": {"attributes": {"company_name": "A", "colour": "red"}}}),
            422
        )
        .await,
        at("invalid", "/data/attributes/colour")
    );
    assert_eq!(
        refused(
            json!({"data": {"type": "webhook", "attributes": {"company_name": "A"}}}),
            409
        )
        .await,
        at("type_mismatch", "/data/type")
    );
    assert_eq!(
        refused(
            json!({"data": {"id": "x", "attributes": {"company_name": "A"}}}),
            403
        )
        .await,
        at("client_id_not_allowed", "/data/id")
    );
    assert_eq!(refused(json!([]), 400).await[0].0, "malformed_json");
    let id = create(app, "Northwind").await;
    let response = app.call(Method::DELETE, &format!("/v2/parties/{id}")).await;
    assert_eq!(response.status(), 405);
}

/// Tracks `number` at the sandbox for `customer` (a party's id); returns the request's id.
async fn track_for(t: &TestApp, number: &str, customer: &str) -> String {
    let mut body = tracking_request("bill_of_lading", number, "TEST");
    body["data"]["relationships"] =
        json!({"customer": {"data": {"type": "party", "id": customer}}});
    let created = document(t.create(&body).await).await;
    assert_eq!(
        created["data"]["relationships"]["customer"]["data"]["id"],
        customer
    );
    t.drain().await;
    created["data"]["id"].as_str().expect("id").to_owned()
}

fn customer(id: Option<&str>) -> Value {
    let data = id.map_or(Value::Null, |id| json!({"type": "party", "id": id}));
    json!({"customer": {"data": data}})
}

/// Two parties, Northwind and Contoso, and a shipment tracked for Northwind: their ids,
/// the request's path and the shipment's.
struct Customers {
    northwind: String,
    contoso: String,
    request: String,
    shipment: String,
}

async fn customers(t: &TestApp) -> Customers {
    let northwind = create(t, "Northwind").await;
    let contoso = create(t, "Contoso").await;
    let request = track_for(t, "TEST-TR-SUCCEEDED", &northwind).await;
    let read = document(t.get(&format!("/v2/tracking_requests/{request}")).await).await;
    let shipment = read["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a shipment")
        .to_owned();
    Customers {
        northwind,
        contoso,
        request: format!("/v2/tracking_requests/{request}"),
        shipment: format!("/v2/shipments/{shipment}"),
    }
}

/// The number of records `path` lists.
async fn count(t: &TestApp, path: &str) -> u64 {
    let body = document(t.get(path).await).await;
    body["meta"]["pagination"]["records"]
        .as_u64()
        .expect("records")
}

async fn a_customer_names_its_shipment_and_the_lists_find_it(t: TestApp) {
    let Customers {
        northwind,
        contoso,
        request,
        ..
    } = customers(&t).await;
    let read = document(
        t.get(&format!("{request}?include=tracked_object,customer"))
            .await,
    )
    .await;
    let included = read["included"].as_array().expect("included");
    let shipment = included
        .iter()
        .find(|r| r["type"] == "shipment")
        .expect("a shipment");
    assert_eq!(shipment["attributes"]["customer_name"], "Northwind");
    let party = included
        .iter()
        .find(|r| r["type"] == "party")
        .expect("the customer");
    assert_eq!(party["id"], northwind.as_str());

    let containers = count(&t, "/v2/containers").await;
    assert!(containers > 0);
    let shipments_of = |ids: &str| format!("/v2/shipments?filter[customer_id]={ids}");
    assert_eq!(count(&t, &shipments_of(&northwind)).await, 1);
    assert_eq!(count(&t, &shipments_of(&contoso)).await, 0);
    assert_eq!(
        count(&t, &shipments_of(&format!("{contoso},{northwind}"))).await,
        1
    );
    let of_northwind = format!("/v2/containers?filter[customer_id]={northwind}");
    assert_eq!(count(&t, &of_northwind).await, containers);
    let named = "/v2/containers?filter[customer_name]=Northwind";
    assert_eq!(count(&t, named).await, containers);
    assert_eq!(
        count(&t, "/v2/containers?filter[customer_name]=Contoso").await,
        0
    );

    // The console's shipment page names the customer.
    let shipment_id = shipment["id"].as_str().expect("id");
    let page = t
        .request(
            Method::GET,
            &format!("/console/shipments/{shipment_id}"),
            None,
        )
        .header("Cookie", format!("tidemark_session={}", t.key))
        .send()
        .await
        .expect("page");
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(
        page.contains("<dt>Customer</dt><dd>Northwind</dd>"),
        "{page}"
    );
}

async fn a_requests_customer_changes_and_its_shipment_follows(t: TestApp) {
    let Customers {
        contoso,
        request,
        shipment,
        ..
    } = customers(&t).await;
    let name = async || {
        let body = document(t.get(&shipment).await).await;
        body["data"]["attributes"]["customer_name"].clone()
    };
    let edit = |relationships: Value| json!({"data": {"type": "tracking_request", "relationships": relationships}});
    let moved = document(t.patch(&request, &edit(customer(Some(&contoso)))).await).await;
    assert_eq!(
        moved["data"]["relationships"]["customer"]["data"]["id"],
        contoso.as_str()
    );
    assert_eq!(name().await, "Contoso");
    let rename = json!({"data": {"attributes": {"company_name": "Contoso Ltd"}}});
    t.patch(&format!("/v2/parties/{contoso}"), &rename).await;
    assert_eq!(name().await, "Contoso Ltd");
    let named = "/v2/containers?filter[customer_name]=Contoso%20Ltd";
    assert_eq!(count(&t, named).await, count(&t, "/v2/containers").await);
    // An edit of the lists alone keeps the customer.
    let lists =
        json!({"data": {"type": "tracking_request", "attributes": {"ref_numbers": ["PO-1"]}}});
    let kept = document(t.patch(&request, &lists).await).await;
    assert_eq!(
        kept["data"]["relationships"]["customer"]["data"]["id"],
        contoso.as_str()
    );
    let cleared = document(t.patch(&request, &edit(customer(None))).await).await;
    assert_eq!(
        cleared["data"]["relationships"]["customer"]["data"],
        Value::Null
    );
    assert_eq!(name().await, Value::Null);
    let of_contoso = format!("/v2/shipments?filter[customer_id]={contoso}");
    assert_eq!(count(&t, &of_contoso).await, 0);
}

/// The records a notification carries are the shipment and request as clients read them,
/// the customer's name and linkage included.
async fn a_notification_names_the_customer_as_clients_read_it(t: TestApp) {
    let hook = json!({"data": {"type": "webhook", "attributes": {
        "url": "https://hooks.example.com/t", "events": ["tracking_request.succeeded"]}}});
    let hook = t.post_json("/v2/webhooks", &t.key, &hook).await;
    assert_eq!(hook.status(), 201);
    let Customers {
        northwind,
        request,
        shipment,
        ..
    } = customers(&t).await;
    let claimed = t.claim_due().await;
    let succeeded = claimed
        .iter()
        .find(|c| c.notification.event == "tracking_request.succeeded")
        .expect("the success");
    let record = |kind: &str| {
        succeeded
            .included
            .iter()
            .find(|r| r["type"] == kind)
            .cloned()
            .unwrap_or_else(|| panic!("no {kind}"))
    };
    let read = document(t.get(&shipment).await).await;
    assert_eq!(read["data"]["attributes"]["customer_name"], "Northwind");
    assert_eq!(record("shipment"), t.as_paths(&read["data"]));
    let frozen = record("tracking_request");
    assert_eq!(
        frozen["relationships"]["customer"]["data"]["id"],
        northwind.as_str()
    );
    assert_eq!(
        t.as_paths(&document(t.get(&request).await).await["data"]),
        frozen
    );
}

async fn a_bad_customer_is_a_clear_error(t: TestApp) {
    let (_, other) = t.new_account("globex").await;
    let theirs = json!({"data": {"attributes": {"company_name": "Globex"}}});
    let theirs = document(t.post_json("/v2/parties", &other, &theirs).await).await;
    let theirs = theirs["data"]["id"].as_str().expect("id").to_owned();
    let refused = async |relationships: Value, status: u16| {
        let mut body = tracking_request("bill_of_lading", "TEST-TR-SUCCEEDED", "TEST");
        body["data"]["relationships"] = relationships;
        codes(&errors(t.create(&body).await, status).await)
    };
    let at = |code: &str, pointer: &str| vec![(code.to_owned(), pointer.to_owned())];
    let missing = at("not_found", "/data/relationships/customer/data/id");
    assert_eq!(
        refused(customer(Some(&theirs)), 404).await,
        missing,
        "another account's"
    );
    assert_eq!(refused(customer(Some("x")), 404).await, missing);
    let linkage = "/data/relationships/customer";
    assert_eq!(
        refused(json!({"customer": "x"}), 422).await,
        at("invalid", linkage)
    );
    assert_eq!(
        refused(json!({"customer": {}}), 422).await,
        at("invalid", linkage)
    );
    assert_eq!(
        refused(json!([]), 422).await,
        at("invalid", "/data/relationships")
    );
    let user = json!({"customer": {"data": {"type": "user", "id": theirs}}});
    assert_eq!(
        refused(user, 422).await,
        at("invalid", "/data/relationships/customer/data/type")
    );
    // Nothing was created by the refused requests.
    let listed = document(t.get("/v2/tracking_requests").await).await;
    assert_eq!(listed["data"], json!([]));
}
