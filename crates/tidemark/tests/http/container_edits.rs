//! `PATCH /v2/containers/{id}` (compat-api.md §3.2): the client replaces a container's
//! `ref_numbers`; nothing else of it changes, the carrier's next answer keeps them, and
//! another account cannot reach it.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{JSON_API, TestApp, codes, document, errors, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    a_containers_reference_numbers_are_the_clients_to_replace,
    bad_container_edits_are_clear_errors,
);

/// Tracks a shipment at the sandbox whose terminal keeps answering; returns one of its
/// containers' path and id.
async fn container(t: &TestApp) -> (String, String) {
    let request = track(t, "TEST-TR-HOLDS", "TEST").await;
    let id = request["included"][0]["relationships"]["containers"]["data"][0]["id"]
        .as_str()
        .expect("a container")
        .to_owned();
    (format!("/v2/containers/{id}"), id)
}

fn edit(id: &str, attributes: &Value) -> Value {
    json!({"data": {"type": "container", "id": id, "attributes": attributes}})
}

async fn a_containers_reference_numbers_are_the_clients_to_replace(t: TestApp) {
    let (path, id) = container(&t).await;
    let before = document(t.get(&path).await).await["data"].clone();
    assert_eq!(before["attributes"]["ref_numbers"], json!([]));

    t.advance(time::Duration::minutes(5));
    let response = t
        .patch(&path, &edit(&id, &json!({"ref_numbers": ["PO-7", "PO-8"]})))
        .await;
    let updated = document(response).await["data"].clone();
    assert_eq!(
        updated["attributes"]["ref_numbers"],
        json!(["PO-7", "PO-8"])
    );
    assert_ne!(
        updated["attributes"]["updated_at"],
        before["attributes"]["updated_at"]
    );
    let mut unchanged = updated["attributes"].clone();
    for key in ["ref_numbers", "updated_at"] {
        unchanged[key] = before["attributes"][key].clone();
    }
    assert_eq!(unchanged, before["attributes"], "only the list changes");
    assert_eq!(updated["relationships"], before["relationships"]);

    // The next word on the container (its terminal's check, an hour on) keeps the client's
    // list; an edit without attributes changes nothing (JSON:API makes them optional); an
    // empty list clears it.
    let checked = |body: &Value| body["attributes"]["terminal_checked_at"].clone();
    t.advance(time::Duration::hours(1));
    t.drain().await;
    let read = document(t.get(&path).await).await;
    assert_ne!(checked(&read["data"]), checked(&updated), "checked again");
    assert_eq!(
        read["data"]["attributes"]["ref_numbers"],
        json!(["PO-7", "PO-8"])
    );
    let same = json!({"data": {"type": "container", "id": id}});
    let same = document(t.patch(&path, &same).await).await;
    assert_eq!(
        same["data"]["attributes"]["ref_numbers"],
        json!(["PO-7", "PO-8"])
    );
    let cleared = document(
        t.patch(&path, &edit(&id, &json!({"ref_numbers": []})))
            .await,
    )
    .await;
    assert_eq!(cleared["data"]["attributes"]["ref_numbers"], json!([]));
}

async fn bad_container_edits_are_clear_errors(t: TestApp) {
    let (path, id) = container(&t).await;
    let other = "01938f3c-6a1e-7b2d-9c4f-5e6a7b8c9d0e";
    for (body, status, code, pointer) in [
        (
            json!({"data": {"type": "container", "attributes": null}}),
            422,
            "invalid",
            "/data/attributes",
        ),
        (
            json!({"data": {"type": "shipment", "attributes": {}}}),
            409,
            "type_mismatch",
            "/data/type",
        ),
        (
            json!({"data": {"type": "container", "id": other, "attributes": {}}}),
            409,
            "id_mismatch",
            "/data/id",
        ),
        (
            edit(&id, &json!({"ref_numbers": ["x".repeat(129)]})),
            422,
            "too_long",
            "/data/attributes/ref_numbers/0",
        ),
        (
            edit(&id, &json!({"ref_numbers": "PO-7"})),
            422,
            "invalid",
            "/data/attributes/ref_numbers",
        ),
        (
            edit(&id, &json!({"tags": ["blue"]})),
            422,
            "invalid",
            "/data/attributes/tags",
        ),
        (
            edit(&id, &json!({"number": "MSCU1234565"})),
            422,
            "invalid",
            "/data/attributes/number",
        ),
    ] {
        let problems = codes(&errors(t.patch(&path, &body).await, status).await);
        assert!(
            problems.contains(&(code.to_owned(), pointer.to_owned())),
            "{body}: {problems:?}"
        );
    }

    // Another account's key finds no such container; a bad id is no container either.
    let (_, key) = t.new_account("Other Forwarding").await;
    let response = t
        .request(Method::PATCH, &path, Some(&key))
        .header("Content-Type", JSON_API)
        .body(edit(&id, &json!({"ref_numbers": ["PO-9"]})).to_string())
        .send()
        .await
        .expect("request");
    errors(response, 404).await;
    errors(
        t.patch("/v2/containers/nope", &edit("nope", &json!({})))
            .await,
        404,
    )
    .await;
    let read = document(t.get(&path).await).await;
    assert_eq!(read["data"]["attributes"]["ref_numbers"], json!([]));
}
